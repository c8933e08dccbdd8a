/*===- mo-c/Dialects.h - C API of the mo dialect ------------------*- C -*-===*\
|* Registers the mo dialect and passes and exposes its types, for the Python  *|
|* bindings and for other MLIR-based toolchains.                              *|
\*===----------------------------------------------------------------------===*/
#ifndef MO_C_DIALECTS_H
#define MO_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Mo, mo);

/// Registers the mo dialect and the upstream dialects mo programs use.
MLIR_CAPI_EXPORTED void moRegisterDialects(MlirDialectRegistry registry);
/// Registers mo's passes and the upstream passes its pipelines use.
MLIR_CAPI_EXPORTED void moRegisterPasses(void);

/// `mo-opt`: the mlir-opt command line with mo registered. Returns the exit
/// code.
MLIR_CAPI_EXPORTED int moOptMain(int argc, char **argv);

/// The byte offset of the first bracket in MLIR text nesting deeper than
/// moSourceMaxNesting() (MLIR's parser would overflow the stack on it), or -1.
MLIR_CAPI_EXPORTED int64_t moSourceFindExcessNesting(MlirStringRef source);
MLIR_CAPI_EXPORTED unsigned moSourceMaxNesting(void);
/// Whether MLIR text parses with only the mo, func and builtin dialects
/// known; if not, `onError` gets the diagnostics.
MLIR_CAPI_EXPORTED bool moSourceParsesAsMo(MlirStringRef source,
                                           MlirStringCallback onError,
                                           void *userData);

//===- Dims --------------------------------------------------------------===//
// A dim is an attribute: an i64 integer (static; INT64_MIN for `?`), a
// string (symbolic) or a #mo.dim_expr.

MLIR_CAPI_EXPORTED MlirAttribute moDimGetStatic(MlirContext ctx, int64_t size);
MLIR_CAPI_EXPORTED MlirAttribute moDimGetUnknown(MlirContext ctx);
MLIR_CAPI_EXPORTED MlirAttribute moDimGetSymbolic(MlirContext ctx,
                                                  MlirStringRef name);
/// `kind`: 0 add, 1 sub, 2 mul, 3 floordiv, 4 mod. Folds constants.
MLIR_CAPI_EXPORTED MlirAttribute moDimGetExpr(int kind, MlirAttribute lhs,
                                              MlirAttribute rhs);
/// Appends the dim's textual form (as in the type syntax) via `callback`.
MLIR_CAPI_EXPORTED void moDimPrint(MlirAttribute dim,
                                   MlirStringCallback callback,
                                   void *userData);

//===- Types -------------------------------------------------------------===//

MLIR_CAPI_EXPORTED bool moTypeIsATensor(MlirType type);
MLIR_CAPI_EXPORTED bool moTypeIsABuffer(MlirType type);
MLIR_CAPI_EXPORTED bool moTypeIsAChain(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID moTensorTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirTypeID moBufferTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirTypeID moChainTypeGetTypeID(void);

/// Builds a tensor (or, with `isBuffer`, buffer) type. `deviceKind` may be
/// empty (no device). Returns a null type and emits a diagnostic at `loc` if
/// the type is invalid.
MLIR_CAPI_EXPORTED MlirType moShapedTypeGetChecked(
    MlirLocation loc, bool isBuffer, intptr_t rank, const MlirAttribute *dims,
    MlirType elementType, MlirStringRef deviceKind, int64_t deviceId);
MLIR_CAPI_EXPORTED MlirType moChainTypeGet(MlirContext ctx);

/// Accessors of tensor and buffer types.
MLIR_CAPI_EXPORTED intptr_t moShapedTypeGetRank(MlirType type);
MLIR_CAPI_EXPORTED MlirAttribute moShapedTypeGetDim(MlirType type,
                                                    intptr_t pos);
MLIR_CAPI_EXPORTED MlirType moShapedTypeGetElementType(MlirType type);
/// Device kind ("" if none) and id.
MLIR_CAPI_EXPORTED MlirStringRef moShapedTypeGetDeviceKind(MlirType type);
MLIR_CAPI_EXPORTED int64_t moShapedTypeGetDeviceId(MlirType type);

#ifdef __cplusplus
}
#endif

#endif // MO_C_DIALECTS_H
