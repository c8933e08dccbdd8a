//===- Artifact.h - the mo executable format (.mef) -----------------------===//
//
// A .mef file, all integers little-endian:
//
//   0   magic "\x89MOMEF\r\n" (8 bytes: binary, and text-mode mangling shows)
//   8   u32 format version, u32 section count
//   16  u64 file size
//   24  per section: u32 kind, u32 reserved, u64 offset, u64 size
//   ... sections, each at a 64-byte aligned offset
//   end u64 XXH3-64 of every byte before it
//
// Sections: the manifest (JSON), the optimized module (MLIR bytecode, may be
// empty), then one or more object files (the parts of the code, which link
// together). The reader checks size, magic, version, the recorded size and
// the checksum before it looks at any section.
//
//===----------------------------------------------------------------------===//

#ifndef MO_RUNTIME_ARTIFACT_H
#define MO_RUNTIME_ARTIFACT_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::mo::artifact {

constexpr uint32_t kVersion = 1;

enum class Section : uint32_t { Manifest = 1, Bytecode = 2, Object = 3 };

struct Contents {
  llvm::StringRef manifest, bytecode;
  llvm::SmallVector<llvm::StringRef, 2> objects;
};

/// The file's bytes.
std::string write(const Contents &contents);

/// The sections of `data` (which they point into), or why it is not a
/// readable artifact.
llvm::Expected<Contents> read(llvm::StringRef data);

} // namespace mlir::mo::artifact

#endif // MO_RUNTIME_ARTIFACT_H
