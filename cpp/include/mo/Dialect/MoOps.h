//===- MoOps.h - mo dialect operations --------------------------*- C++ -*-===//
#ifndef MO_DIALECT_MOOPS_H
#define MO_DIALECT_MOOPS_H

#include "mo/Dialect/MoDialect.h"
#include "mo/Dialect/MoScalar.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::mo {
/// A GGUF block layout: how many values one block holds, in how many bytes.
struct BlockLayout {
  int64_t elements;
  int64_t bytes;
};
BlockLayout getBlockLayout(QuantEncoding encoding);

/// Result type of an elementwise binary op: numpy broadcasting of the dims;
/// element types and devices must agree.
LogicalResult inferBinaryElementwiseTypes(std::optional<Location> loc,
                                          ValueRange operands,
                                          SmallVectorImpl<Type> &inferred,
                                          bool isCompare);
/// Result type of a reduction along `axis` (kept with size 1): the input's
/// element type, or si64 for an arg reduction. Fails for an axis out of range.
LogicalResult inferReduceType(std::optional<Location> loc, Value input,
                              uint64_t axis, bool isArg,
                              SmallVectorImpl<Type> &inferred);
/// How a binary op of the registry folds (each part optional).
struct BinaryFold {
  /// The op on constant floats, integers (with signedness) and bools.
  std::optional<APFloat> (*f)(APFloat, APFloat) = nullptr;
  std::optional<APInt> (*i)(APInt, APInt, bool isUnsigned) = nullptr;
  std::optional<APInt> (*boolean)(APInt, APInt, bool) = nullptr;
  /// `e` with `x op e == x`.
  std::optional<double> rightIdentity;
  /// `x op x == x`.
  bool idempotent = false;
};
/// Folds an elementwise binary op: constant operands, and identities such
/// as `x + 0` or `x * 1` that leave the type unchanged.
OpFoldResult foldBinaryElementwise(Operation *op, Attribute lhs, Attribute rhs,
                                   const BinaryFold &rule);
} // namespace mlir::mo

#include "Mo/MoInterfaces.h.inc"

#define GET_OP_CLASSES
#include "Mo/MoOps.h.inc"

namespace mlir::mo {
/// Registers the mo dialect and its interfaces.
void registerMoDialect(DialectRegistry &registry);
} // namespace mlir::mo

#endif // MO_DIALECT_MOOPS_H
