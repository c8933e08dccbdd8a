/*===- mo-c/Runtime.h - mo's runtime: artifacts, weights, execution -*- C -*-===*\
|* The runtime runs what mo compiled without the compiler: it loads a mo      *|
|* executable (.mef: a manifest, the optimized module as MLIR bytecode and    *|
|* native object code, under one checksum), links its object code with ORC   *|
|* from memory, binds named weights once and executes with tensor views,     *|
|* reporting errors through a status. `CompiledCallable`, `mo.engine` and    *|
|* C/C++ hosts all run on it.                                                *|
|*                                                                           *|
|* Errors: every fallible call takes a `MoStatus *` last (may be null) and   *|
|* returns false or null on failure; the status holds a code and a message   *|
|* that names the argument and what was expected.                            *|
\*===------------------------------------------------------------------------===*/
#ifndef MO_C_RUNTIME_H
#define MO_C_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define MO_RUNTIME_EXPORT __declspec(dllexport)
#else
#define MO_RUNTIME_EXPORT __attribute__((visibility("default")))
#endif

/// Element types, in mo.dtype.DType's order.
typedef enum MoDType {
  MO_DTYPE_FLOAT16 = 0,
  MO_DTYPE_BFLOAT16,
  MO_DTYPE_FLOAT32,
  MO_DTYPE_FLOAT64,
  MO_DTYPE_INT8,
  MO_DTYPE_INT16,
  MO_DTYPE_INT32,
  MO_DTYPE_INT64,
  MO_DTYPE_UINT8,
  MO_DTYPE_UINT16,
  MO_DTYPE_UINT32,
  MO_DTYPE_UINT64,
  MO_DTYPE_BOOL,
  MO_DTYPE_COUNT
} MoDType;

/// The dtype's name ("float32"), "?" for a value out of range.
MO_RUNTIME_EXPORT const char *moDTypeName(MoDType dtype);
/// Bytes per element, 0 for a value out of range.
MO_RUNTIME_EXPORT size_t moDTypeSize(MoDType dtype);

//===--------------------------------------------------------------------===//
// Status
//===--------------------------------------------------------------------===//

typedef enum MoStatusCode {
  MO_STATUS_OK = 0,
  /// A value given to a call is wrong (Python's ValueError).
  MO_STATUS_INVALID_ARGUMENT,
  /// An artifact is truncated, corrupt, foreign, of a future format or for
  /// another CPU (Python's ValueError).
  MO_STATUS_INVALID_ARTIFACT,
  /// A file could not be read.
  MO_STATUS_IO_ERROR,
  /// Linking or running the code failed for another reason.
  MO_STATUS_INTERNAL,
  /// A result does not fit in memory (Python's MemoryError).
  MO_STATUS_OUT_OF_MEMORY,
} MoStatusCode;

typedef struct MoStatus MoStatus;

MO_RUNTIME_EXPORT MoStatus *moStatusCreate(void);
MO_RUNTIME_EXPORT void moStatusDestroy(MoStatus *status);
MO_RUNTIME_EXPORT bool moStatusIsError(const MoStatus *status);
MO_RUNTIME_EXPORT MoStatusCode moStatusCode(const MoStatus *status);
/// The error's message ("" when none); valid until the status is reused.
MO_RUNTIME_EXPORT const char *moStatusMessage(const MoStatus *status);

//===--------------------------------------------------------------------===//
// Tensors
//===--------------------------------------------------------------------===//

/// Memory the caller owns, described: `rank` sizes and strides in
/// elements (`strides` null: row-major contiguous). `readOnly`: the memory
/// must not be written (a buffer input, which the code writes, is refused).
typedef struct MoTensorView {
  void *data;
  MoDType dtype;
  int64_t rank;
  const int64_t *shape;
  const int64_t *strides;
  bool readOnly;
} MoTensorView;

/// A result the runtime allocated (64-byte aligned, row-major).
typedef struct MoBuffer MoBuffer;

MO_RUNTIME_EXPORT void *moBufferData(const MoBuffer *buffer);
MO_RUNTIME_EXPORT MoDType moBufferDType(const MoBuffer *buffer);
MO_RUNTIME_EXPORT int64_t moBufferRank(const MoBuffer *buffer);
MO_RUNTIME_EXPORT const int64_t *moBufferShape(const MoBuffer *buffer);
MO_RUNTIME_EXPORT size_t moBufferBytes(const MoBuffer *buffer);
/// Frees the buffer (its memory may serve a later result of the model).
MO_RUNTIME_EXPORT void moBufferDestroy(MoBuffer *buffer);

/// Named tensors, borrowed: the weights of a model.
typedef struct MoTensorMap MoTensorMap;

MO_RUNTIME_EXPORT MoTensorMap *moTensorMapCreate(void);
MO_RUNTIME_EXPORT void moTensorMapDestroy(MoTensorMap *map);
/// Adds (or replaces) `name`; the map copies the view's shape and strides,
/// not its data, which must outlive every model the map is bound to.
MO_RUNTIME_EXPORT bool moTensorMapBorrow(MoTensorMap *map, const char *name,
                                         MoTensorView view, MoStatus *status);
MO_RUNTIME_EXPORT size_t moTensorMapSize(const MoTensorMap *map);
/// The names, in insertion order; `*size` gets their count. Free the array
/// with moTensorMapKeysDestroy.
MO_RUNTIME_EXPORT const char **moTensorMapKeys(const MoTensorMap *map, size_t *size);
MO_RUNTIME_EXPORT void moTensorMapKeysDestroy(const char **keys);

//===--------------------------------------------------------------------===//
// Models
//===--------------------------------------------------------------------===//

typedef struct MoModel MoModel;

/// How a model is linked. `sharedLibs`: libraries whose symbols the code
/// may call (LLVM's OpenMP runtime for a model compiled for several
/// threads; when none are given, `libomp.so` is looked up by name).
typedef struct MoLoadOptions {
  size_t numSharedLibs;
  const char *const *sharedLibs;
} MoLoadOptions;

/// Verifies (size, magic, format version, checksum, then the manifest and
/// the target's CPU features, in that order: nothing is parsed before the
/// checksum holds) and links an artifact. `options` may be null.
MO_RUNTIME_EXPORT MoModel *moModelLoad(const void *data, size_t size,
                                       const MoLoadOptions *options, MoStatus *status);
MO_RUNTIME_EXPORT MoModel *moModelLoadFile(const char *path, const MoLoadOptions *options,
                                           MoStatus *status);
MO_RUNTIME_EXPORT void moModelDestroy(MoModel *model);

/// The entry graph's name and the artifact's manifest (JSON).
MO_RUNTIME_EXPORT const char *moModelName(const MoModel *model);
MO_RUNTIME_EXPORT const char *moModelManifest(const MoModel *model);

/// The signature. Inputs, outputs and weights are numbered from 0; a dim is
/// its static size, or -1 when symbolic (`moModel*DimName` spells it:
/// "batch", "n + 1").
typedef enum MoArgKind { MO_ARG_INPUT = 0, MO_ARG_OUTPUT, MO_ARG_WEIGHT } MoArgKind;

MO_RUNTIME_EXPORT size_t moModelNumArgs(const MoModel *model, MoArgKind kind);
MO_RUNTIME_EXPORT const char *moModelArgName(const MoModel *model, MoArgKind kind, size_t i);
MO_RUNTIME_EXPORT MoDType moModelArgDType(const MoModel *model, MoArgKind kind, size_t i);
MO_RUNTIME_EXPORT int64_t moModelArgRank(const MoModel *model, MoArgKind kind, size_t i);
MO_RUNTIME_EXPORT int64_t moModelArgDim(const MoModel *model, MoArgKind kind, size_t i,
                                        int64_t axis);
MO_RUNTIME_EXPORT const char *moModelArgDimName(const MoModel *model, MoArgKind kind,
                                                size_t i, int64_t axis);

/// Binds every weight the model reads from `weights` (others are ignored),
/// checking name, dtype, shape, contiguity and alignment; the data is
/// borrowed until the model is destroyed or bound again.
MO_RUNTIME_EXPORT bool moModelBindWeights(MoModel *model, const MoTensorMap *weights,
                                          MoStatus *status);

/// Runs the model on `inputs`, checked against the signature (count, dtype,
/// rank, contiguity, static and same-named dims, dim expressions) and, for
/// the sizes the signature cannot check, by the compiled code before it
/// touches memory. `outputs` (numOutputs entries) get new buffers, sized to
/// the data where an op's result is (nonzero).
MO_RUNTIME_EXPORT bool moModelExecute(MoModel *model, const MoTensorView *inputs,
                                      size_t numInputs, MoBuffer **outputs, size_t numOutputs,
                                      MoStatus *status);

/// moModelExecute into outputs the caller allocated, each of the shape
/// moModelOutputShape gives; `outputShapes` (may be null) gets each
/// output's rank sizes in turn, the sizes the data has for outputs sized by
/// it (nonzero). Such an output's data is row-major for those sizes, at the
/// start of its buffer.
MO_RUNTIME_EXPORT bool moModelExecuteInto(MoModel *model, const MoTensorView *inputs,
                                          size_t numInputs, const MoTensorView *outputs,
                                          size_t numOutputs, int64_t *outputShapes,
                                          MoStatus *status);

/// The shape output `i` must be allocated at for `inputs` (checked as by
/// moModelExecute): rank sizes into `shape`.
MO_RUNTIME_EXPORT bool moModelOutputShape(MoModel *model, const MoTensorView *inputs,
                                          size_t numInputs, size_t i, int64_t *shape,
                                          MoStatus *status);

/// The entry function itself: inputs, weights and outputs in that order
/// (`numArgs` of them), neither bound weights nor the signature's checks
/// used, only the compiled code's (the inputs' and outputs' sizes) and the
/// static weights' shapes. `boundSizes` (may be null) gets the sizes of the
/// dims ops bound at run time, moModelNumBoundDims of them.
MO_RUNTIME_EXPORT bool moModelInvoke(MoModel *model, const MoTensorView *args, size_t numArgs,
                                     int64_t *boundSizes, MoStatus *status);
MO_RUNTIME_EXPORT size_t moModelNumBoundDims(const MoModel *model);

//===--------------------------------------------------------------------===//
// Writing artifacts (the compiler's side)
//===--------------------------------------------------------------------===//

/// Receives bytes (an artifact).
typedef void (*MoBytesCallback)(const void *data, size_t size, void *userData);

/// The artifact of a manifest (JSON, see the implementation), the module's
/// bytecode (may be empty) and the `numObjects` object files of one
/// moJitCompile.
MO_RUNTIME_EXPORT void moArtifactWrite(const char *manifest, size_t manifestSize,
                                       const void *bytecode, size_t bytecodeSize,
                                       size_t numObjects, const void *const *objects,
                                       const size_t *objectSizes, MoBytesCallback callback,
                                       void *userData);

/// Verifies an artifact (as moModelLoad does, up to its manifest) and passes
/// its manifest, bytecode and object sections, in that order, to `callback`.
/// Returns the number of object sections (0 on failure).
MO_RUNTIME_EXPORT size_t moArtifactRead(const void *data, size_t size,
                                        MoBytesCallback callback, void *userData,
                                        MoStatus *status);

#ifdef __cplusplus
}
#endif

#endif // MO_C_RUNTIME_H
