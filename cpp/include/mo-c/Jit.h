/*===- mo-c/Jit.h - mo's JIT: upstream's engine, mo's LLVM pipeline -*- C -*-===*\
|* An MLIR ExecutionEngine (upstream's ORC JIT), 512-bit loops where the core  *|
|* has them, whose LLVM pipeline first                                        *|
|* merges identical functions: a graph's kernels of one shape (the q, k, v    *|
|* projections of a transformer) are generated once.                          *|
\*===----------------------------------------------------------------------===*/
#ifndef MO_C_JIT_H
#define MO_C_JIT_H

#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Compiles `module` (LLVM dialect) for the host at `optLevel` (0-3), with
/// the `numPaths` shared libraries loaded. On failure returns a null engine
/// and passes LLVM's message to `onError`.
MLIR_CAPI_EXPORTED MlirExecutionEngine
moJitCreate(MlirModule module, int optLevel, int numPaths,
            const MlirStringRef *sharedLibPaths, MlirStringCallback onError,
            void *userData);

#ifdef __cplusplus
}
#endif

#endif // MO_C_JIT_H
