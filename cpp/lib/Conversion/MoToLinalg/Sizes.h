//===- Sizes.h - sizes and runtime shape checks for mo lowering -*- C++ -*-===//
//
// Shared by the mo-to-linalg patterns: `index` values for mo dims, taken
// locally (from an operand with the same dim, else from the enclosing
// function's arguments, whose mo types are kept in `mo.type` attributes),
// and the prologue of an entry function that checks every size the compiled
// code relies on before any of it runs.
//
//===----------------------------------------------------------------------===//

#ifndef MO_LIB_CONVERSION_MOTOLINALG_SIZES_H
#define MO_LIB_CONVERSION_MOTOLINALG_SIZES_H

#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::mo {

/// The sizes of a graph's symbolic dims, as `index` values.
using SymbolSizes = DenseMap<StringAttr, Value>;
/// (value, axis) pairs whose size is known to equal a dim.
using SizeHints = SmallVector<std::pair<Value, int64_t>>;

/// The builtin element type that stores mo elements of `type`: signed and
/// unsigned integers become signless, and bools bytes (i8, numpy's layout:
/// i1 exists only inside loop bodies, so memory, vectors and the ABI never
/// see it).
Type convertElementType(Type type);
/// A stored scalar as the value computations take: a bool byte becomes i1.
Value loadScalar(OpBuilder &b, Location loc, Value stored, Type element);
/// A computed scalar as it is stored: an i1 becomes a byte (0 or 1).
Value storeScalar(OpBuilder &b, Location loc, Value value);
/// The size of `shaped` (tensor or memref) along `axis`.
Value dimOf(OpBuilder &b, Location loc, Value shaped, int64_t axis);

/// An `index` value for `dim`: a constant, a symbol's size, or index
/// arithmetic over them. Fails (with a diagnostic at `loc`) for `?` and for
/// symbols `symbol` cannot size.
FailureOr<Value> materializeDim(OpBuilder &b, Location loc, Attribute dim,
                                function_ref<FailureOr<Value>(StringAttr)> symbol);
FailureOr<Value> materializeDim(OpBuilder &b, Location loc, Attribute dim,
                                const SymbolSizes &sizes);

/// The size of `dim` inside the function that holds `at`: a hint's dim if
/// there is one, else computed from the function's arguments.
FailureOr<Value> sizeOf(OpBuilder &b, Location loc, Operation *at,
                        Attribute dim, ArrayRef<std::pair<Value, int64_t>> hints = {});

/// The size of every one of `dims` (constants for static dims), from
/// `hints[i]` or the enclosing function's arguments.
FailureOr<SmallVector<OpFoldResult>> mixedSizes(OpBuilder &b, Location loc,
                                                Operation *at,
                                                ArrayRef<Attribute> dims,
                                                ArrayRef<SizeHints> hints = {});

/// tensor.empty of the converted `type` (or with `element`), sized per dim
/// from `hints[i]` or the enclosing function's arguments.
FailureOr<Value> emptyTensor(OpBuilder &b, Location loc, Operation *at,
                             mo::TensorType type, ArrayRef<SizeHints> hints,
                             Type element = {});

/// memref.alloc of `type`, its dynamic sizes those of `dims` (from the
/// enclosing function's arguments).
FailureOr<Value> allocBuffer(OpBuilder &b, Location loc, Operation *at, MemRefType type,
                             ArrayRef<Attribute> dims);

/// `src` reshaped to `type` by splitting each of its dims into `groups` of
/// `sizes`: a tensor.expand_shape, or, when a group has more than one
/// dynamic size (`[s * t] -> [s, t]`, which expand_shape's stride lowering
/// cannot take), a tensor.reshape to the sizes.
Value expandTo(OpBuilder &b, Location loc, RankedTensorType type, Value src,
               ArrayRef<ReassociationIndices> groups, ArrayRef<OpFoldResult> sizes);

/// One shaped argument of an entry function, as the caller passed it (every
/// dim dynamic), with the mo dims it must have.
struct EntryOperand {
  Value value;
  ArrayRef<Attribute> dims;
  /// How messages name it: "argument 1", "weight 'w'" (one of symbolic
  /// shape), "output 0".
  std::string name;
  /// Outputs are sized by the caller from the inputs: they bind no symbol.
  bool isOutput = false;
};

/// A reshape the entry must check: `from` and `to` must hold as many
/// elements (`loc` names it in the message).
struct ReshapeCheck {
  mo::TensorType from, to;
  Location loc;
};

/// A dim of some result (at `loc`) that must not fall below zero or, with
/// `expected` (a rebind), must equal that dim (`message` says why).
struct DimCheck {
  Attribute dim;
  Attribute expected;
  Location loc;
  StringRef message;
};

/// Emits, at `b`'s insertion point, the checks that keep the entry's code in
/// bounds: every static dim has its size, every occurrence of a symbolic
/// name the same size (the first occurrence binds it in `sizes`), every dim
/// expression its value, every reshape in `reshapes` keeps its element
/// count and every dim in `dims` is >= 0 or its expected size. Returns an
/// `i64` status: 0, or the 1-based index of the first
/// failed check in `messages`; the sizes it saw and expected are stored in
/// `record` (a `memref<2xi64>`). Each message names what failed, with
/// `{actual}` and `{expected}` for those sizes.
FailureOr<Value> buildEntryChecks(OpBuilder &b, Location loc,
                                  ArrayRef<EntryOperand> operands,
                                  ArrayRef<ReshapeCheck> reshapes,
                                  ArrayRef<DimCheck> dims, Value record,
                                  SymbolSizes &sizes,
                                  SmallVectorImpl<Attribute> &messages);

/// The (offsets, sizes, strides) of a strided window whose shape is `dims`;
/// non-static sizes are read from `sizeSource` (tensor or memref).
void windowSlices(OpBuilder &b, Location loc, ArrayRef<int64_t> starts,
                  ArrayRef<int64_t> steps, ArrayRef<Attribute> dims,
                  Value sizeSource, SmallVectorImpl<OpFoldResult> &offsets,
                  SmallVectorImpl<OpFoldResult> &sizes,
                  SmallVectorImpl<OpFoldResult> &strides);

/// A product of dims as a constant times a sorted list of other factors
/// (names, or printed non-product expressions): equal forms are equal for
/// all sizes.
struct DimProduct {
  int64_t constant = 1;
  SmallVector<std::string> factors;

  static DimProduct of(ArrayRef<Attribute> dims);
  void multiply(Attribute dim);
  /// Whether `o` divides this product as factors.
  bool divisibleBy(const DimProduct &o) const;
  bool operator==(const DimProduct &o) const {
    return constant == o.constant && factors == o.factors;
  }
};

/// Whether `from` and `to` hold the same number of elements for all sizes.
bool sameElementCount(ArrayRef<Attribute> from, ArrayRef<Attribute> to);

/// The dims of a mo tensor or buffer type (none for other types).
ArrayRef<Attribute> moDims(Type type);

/// The indexing exprs of an operand with `dims` broadcast numpy-style to
/// loops over `resultDims` (aligned right, static size-1 dims read at index
/// 0); records `value` in `hints` where an operand dim equals the result's.
SmallVector<AffineExpr> broadcastExprs(OpBuilder &b, ArrayRef<Attribute> dims,
                                       ArrayRef<Attribute> resultDims,
                                       Value value,
                                       MutableArrayRef<SizeHints> hints);

/// `init` filled with `value` (a linalg.fill).
Value filled(OpBuilder &b, Location loc, Value init, Value value);

/// `fn` applied to every element of `source`, into a new tensor of
/// `element`s (one parallel linalg.generic).
Value mapElements(OpBuilder &b, Location loc, Value source, Type element,
                  function_ref<Value(OpBuilder &, Location, Value)> fn);

/// A parallel linalg.generic over `init`, reading `inputs` through `maps`:
/// `body` computes each element from the loop indices and the inputs'
/// scalars.
Value generateElements(
    OpBuilder &b, Location loc, Value init, ValueRange inputs, ArrayRef<AffineMap> maps,
    function_ref<Value(OpBuilder &, Location, ValueRange, ValueRange)> body);

/// `init += lhs * rhs` over the loops `maps` and `iterators` describe (a
/// linalg.generic); inputs narrower than the accumulator (f16/bf16 into f32)
/// are extended first.
Value genericContraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                         Value init, ArrayRef<AffineMap> maps,
                         ArrayRef<utils::IteratorType> iterators);

/// The type f16/bf16 math accumulates in (f32); any other type itself.
Type accumulatorType(Type element);

/// `source` with its elements truncated to `element` (f32 -> f16/bf16).
Value truncateElements(OpBuilder &b, Location loc, Value source, Type element);

} // namespace mlir::mo

#endif // MO_LIB_CONVERSION_MOTOLINALG_SIZES_H
