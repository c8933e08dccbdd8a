/*===- mo-c/Jit.h - mo's code generator and loader ----------------*- C -*-===*\
|* Code generation is split from loading so that object code can be cached   *|
|* and shipped: moJitCompile turns an LLVM-dialect module into a relocatable *|
|* object for the host (identical functions merged before LLVM's -O<n>, 512- *|
|* bit loops where the core has them); moJitLoad links one into the process  *|
|* with ORC, resolving mo's runtime by address and everything else from the  *|
|* process and the given shared libraries.                                   *|
\*===----------------------------------------------------------------------===*/
#ifndef MO_C_JIT_H
#define MO_C_JIT_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct MoJit MoJit;

/// The host's target triple, CPU and features, as code is generated for it
/// (what a cached object must have been compiled for), passed to `onTarget`.
/// Returns false, LLVM's message passed to `onError`, on failure.
MLIR_CAPI_EXPORTED bool moJitHostTarget(MlirStringCallback onTarget, void *targetData,
                                        MlirStringCallback onError, void *errorData);

/// Compiles `module` (LLVM dialect) at `optLevel` (0-3) into object files,
/// each passed to `onObject` (a large module is split and its parts
/// compiled on several threads; they link together). Each function
/// `_mlir_ciface_<f>` gets a packed wrapper `_mo_packed_<f>(void **args)`,
/// the result's slot after the arguments'. Returns false, LLVM's message
/// passed to `onError`, on failure.
MLIR_CAPI_EXPORTED bool moJitCompile(MlirModule module, int optLevel,
                                     MlirStringCallback onObject, void *objectData,
                                     MlirStringCallback onError, void *errorData);

/// Generates code for `module`, a graph through `mo-cpu-kernels` (its
/// kernels outlined): its kernels are moved into up to two modules of their
/// own per pass manager, balanced by size (none if they are little), the
/// rest staying in `module`; each module is lowered by one of `managers`
/// (each the same pipeline, `mo-cpu-kernels-to-llvm`; one per thread) and
/// compiled as by moJitCompile on that thread, each object passed to
/// `onObject`.
/// `module` is left as its part, lowered. Returns false on failure (also
/// for no pass manager), the diagnostics or LLVM's message passed to
/// `onError`, with `*pipelineFailed` set if a pass failed.
MLIR_CAPI_EXPORTED bool moJitCompileGraph(MlirModule module, int numManagers,
                                          const MlirPassManager *managers, int optLevel,
                                          bool *pipelineFailed, MlirStringCallback onObject,
                                          void *objectData, MlirStringCallback onError,
                                          void *errorData);

/// Links the objects of one moJitCompile into the process with the
/// `numPaths` shared libraries loaded. Returns null (the message to
/// `onError`) on failure.
MLIR_CAPI_EXPORTED MoJit *moJitLoad(int numObjects, const MlirStringRef *objects,
                                    int numPaths, const MlirStringRef *sharedLibPaths,
                                    MlirStringCallback onError, void *userData);

/// The address of a symbol of the loaded object, or null.
MLIR_CAPI_EXPORTED void *moJitLookup(MoJit *jit, MlirStringRef name);

MLIR_CAPI_EXPORTED void moJitDestroy(MoJit *jit);

#ifdef __cplusplus
}
#endif

#endif // MO_C_JIT_H
