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

#include <csetjmp>
#include <cstddef>

namespace mlir::mo {
/// Where an allocation that fails in compiled code returns to: the runtime
/// arms one around each call (Model::call), and a failure on that thread,
/// outside an OpenMP parallel region, long-jumps to `target` with `bytes`
/// set (the blocks the call allocated before are leaked). Elsewhere nothing
/// can unwind the code: the process aborts with a message saying why.
struct AllocationFailure {
  std::jmp_buf target;
  size_t bytes = 0;
};
/// Arms `failure` on this thread; returns the one armed before.
AllocationFailure *armAllocationFailure(AllocationFailure *failure);

/// Calls `visit(name, address, user)` once per entry point.
void forEachRuntimeSymbol(void (*visit)(const char *name, void *address, void *user),
                          void *user);
} // namespace mlir::mo

#endif // MO_RUNTIME_MORUNTIME_H
