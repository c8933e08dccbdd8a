//===- Sizes.h - sizes and runtime shape checks for mo lowering -*- C++ -*-===//
//
// Shared by the mo-to-linalg lowering: `index` values for mo dims, and the
// prologue of an entry function that checks every size the compiled code
// relies on before any of it runs.
//
//===----------------------------------------------------------------------===//

#ifndef MO_LIB_CONVERSION_MOTOLINALG_SIZES_H
#define MO_LIB_CONVERSION_MOTOLINALG_SIZES_H

#include "mo/Dialect/MoOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::mo {

/// The sizes of a graph's symbolic dims, as `index` values.
using SymbolSizes = DenseMap<StringAttr, Value>;

/// An `index` value for `dim`: a constant, a symbol's size, or index
/// arithmetic over them. Fails (with a diagnostic at `loc`) for `?` and for
/// symbols `sizes` lacks.
FailureOr<Value> materializeDim(OpBuilder &b, Location loc, Attribute dim,
                                const SymbolSizes &sizes);

/// One shaped argument of an entry function, as the caller passed it (every
/// dim dynamic), with the mo dims it must have.
struct EntryOperand {
  Value value;
  ArrayRef<Attribute> dims;
  /// How messages name it: "argument 1", "weight 'w'", "output 0".
  std::string name;
  /// Outputs are sized by the caller from the inputs: they bind no symbol.
  bool isOutput = false;
};

/// Emits, at `b`'s insertion point, the checks that keep the entry's code in
/// bounds: every static dim has its size, every occurrence of a symbolic
/// name the same size (the first occurrence binds it in `sizes`), every dim
/// expression its value, and every reshape reachable from the entry
/// (through calls) keeps its element count. Returns an `i64` status: 0, or
/// the 1-based index of the first failed check in `messages`; the sizes it
/// saw and expected are stored in `record` (a `memref<2xi64>`). Each message
/// names what failed, with `{actual}` and `{expected}` for those sizes.
FailureOr<Value> buildEntryChecks(OpBuilder &b, Location loc,
                                  ArrayRef<EntryOperand> operands,
                                  ArrayRef<ReshapeOp> reshapes, Value record,
                                  SymbolSizes &sizes,
                                  SmallVectorImpl<Attribute> &messages);

} // namespace mlir::mo

#endif // MO_LIB_CONVERSION_MOTOLINALG_SIZES_H
