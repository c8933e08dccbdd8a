//===- SourceLimits.cpp - bounds checked before MLIR parses text ----------===//

#include "mo/Tools/SourceLimits.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "llvm/Support/MemoryBufferRef.h"

using namespace mlir;

std::optional<size_t> mo::findExcessNesting(llvm::StringRef source) {
  if (isBytecode(llvm::MemoryBufferRef(source, "")))
    return std::nullopt;
  unsigned depth = 0;
  for (size_t i = 0, e = source.size(); i < e; ++i) {
    char c = source[i];
    char next = i + 1 < e ? source[i + 1] : '\0';
    switch (c) {
    case '"': // a string literal; `\"` does not end it
      for (++i; i < e && source[i] != '"'; ++i)
        if (source[i] == '\\')
          ++i;
      break;
    case '/':
      if (next == '/')
        i = std::min(source.find('\n', i), e);
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (c == '<' && next == '=')
        break;
      if (++depth > kMaxSourceNesting)
        return i;
      break;
    case '>':
      if (next == '=' || (i > 0 && source[i - 1] == '-'))
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      // Unbalanced closers (custom syntax) only make the count smaller.
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}
