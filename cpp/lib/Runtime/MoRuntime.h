//===- MoRuntime.h - what compiled mo code calls --------------------------===//
//
// The runtime's entry points (allocation with warm blocks, strided copies,
// mo.print, bf16 conversions) by name and address, so that mo's JIT resolves
// compiled code's calls to them without loading the library that holds them
// into the process's global symbol scope (where it would shadow another
// MLIR's C API, e.g. upstream's Python bindings).
//
//===----------------------------------------------------------------------===//

#ifndef MO_RUNTIME_MORUNTIME_H
#define MO_RUNTIME_MORUNTIME_H

namespace mlir::mo {
/// Calls `visit(name, address, user)` once per entry point.
void forEachRuntimeSymbol(void (*visit)(const char *name, void *address, void *user),
                          void *user);
} // namespace mlir::mo

#endif // MO_RUNTIME_MORUNTIME_H
