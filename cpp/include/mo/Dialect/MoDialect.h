//===- MoDialect.h - the mo dialect, its attributes and types ---*- C++ -*-===//
#ifndef MO_DIALECT_MODIALECT_H
#define MO_DIALECT_MODIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SetVector.h"

#include "Mo/MoDialect.h.inc"
#include "Mo/MoEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Mo/MoAttrs.h.inc"

namespace mlir::mo {

//===----------------------------------------------------------------------===//
// Dims: IntegerAttr (static, ShapedType::kDynamic = `?`), StringAttr
// (symbolic) or DimExprAttr (expression of dims).
//===----------------------------------------------------------------------===//

bool isStaticDim(Attribute dim);
bool isUnknownDim(Attribute dim);
bool isSymbolicDim(Attribute dim);
/// The size of a static dim, ShapedType::kDynamic otherwise.
int64_t getStaticDimSize(Attribute dim);
SmallVector<int64_t> getStaticShape(ArrayRef<Attribute> dims);

Attribute getStaticDim(MLIRContext *ctx, int64_t size);
Attribute getUnknownDim(MLIRContext *ctx);
Attribute getSymbolicDim(MLIRContext *ctx, StringRef name);
/// `lhs <kind> rhs`, folding constants and identities (x*1, x+0, ...).
Attribute getDimExpr(DimExprKind kind, Attribute lhs, Attribute rhs);

/// Adds every symbolic name that occurs in `dim` to `symbols`.
void collectDimSymbols(Attribute dim, llvm::SetVector<StringAttr> &symbols);
/// Replaces symbols by the dims they map to (re-folding expressions).
Attribute substituteDimSymbols(Attribute dim,
                               const llvm::DenseMap<StringAttr, Attribute> &map);

/// Checks one dim; reports through `emitError` on failure.
LogicalResult verifyDim(function_ref<InFlightDiagnostic()> emitError,
                        Attribute dim);
/// `[batch, 2]`, as in the type syntax.
std::string formatDims(ArrayRef<Attribute> dims);
void printDim(raw_ostream &os, Attribute dim);
/// The highest rank of a tensor or buffer type (numpy's NPY_MAXDIMS).
constexpr size_t kMaxRank = 64;
/// At most this many operators (as written) and nested parentheses in one
/// parsed dim: walks over dims recurse, and this keeps them off the end of the
/// stack. Mirrors MAX_DIM_OPERATORS in python/mo/graph/dim.py.
constexpr unsigned kMaxDimOperators = 128;
FailureOr<Attribute> parseDim(AsmParser &parser);

/// True for element types a mo tensor may hold: i1, si8..si64, ui8..ui64,
/// f16, bf16, f32, f64.
bool isSupportedElementType(Type type);

} // namespace mlir::mo

#define GET_TYPEDEF_CLASSES
#include "Mo/MoTypes.h.inc"

namespace mlir::mo {
/// Broadcasts two shapes like numpy; fails (through `emitError` if given)
/// when a pair of dims can't be unified.
FailureOr<SmallVector<Attribute>>
broadcastDims(ArrayRef<Attribute> lhs, ArrayRef<Attribute> rhs,
              function_ref<InFlightDiagnostic()> emitError = nullptr);
} // namespace mlir::mo

#endif // MO_DIALECT_MODIALECT_H
