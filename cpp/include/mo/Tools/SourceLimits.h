//===- SourceLimits.h - bounds checked before MLIR parses text --*- C++ -*-===//
//
// MLIR's parser, printer and verifier recurse once per nested region, type,
// attribute or parenthesis, so a deeply nested input overflows the stack
// before any diagnostic. mo's text entry points (mo-opt, the Python parser
// wrappers) check the bracket depth lexically first and refuse such input with
// an error at the offending bracket.
//
//===----------------------------------------------------------------------===//
#ifndef MO_TOOLS_SOURCELIMITS_H
#define MO_TOOLS_SOURCELIMITS_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir {
namespace mo {
/// The deepest bracket nesting (`(`, `[`, `{`, `<` together) accepted.
constexpr unsigned kMaxSourceNesting = 512;

/// The offset of the first bracket that nests deeper than kMaxSourceNesting
/// in MLIR text, or nothing. String literals and `//` comments are skipped,
/// `->`, `<=` and `>=` are not brackets; MLIR bytecode is not checked.
std::optional<size_t> findExcessNesting(llvm::StringRef source);
} // namespace mo
} // namespace mlir

#endif // MO_TOOLS_SOURCELIMITS_H
