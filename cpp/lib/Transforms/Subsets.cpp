//===- Subsets.cpp - which slices of a tensor ops touch ------------------===//
//
// SubsetOpInterface for tensor.extract_slice/insert_slice/parallel_insert_slice
// and vector.transfer_read/transfer_write, as upstream states it, except that
// two slices are compared offset by offset before any constraint system is
// built: the same value, or two constants, decide a pair at once. Upstream's
// comparison (ValueBoundsConstraintSet::areEquivalentSlices) builds and
// solves a Presburger system for every pair, even two equal constants; the
// analyses that ask (empty-tensor elimination, one-shot bufferization's
// read-after-write check, hoisting of loop-invariant subsets) ask it for every
// pair of register-tile transfers: 14 ms of a transformer block's 130 ms of
// MLIR passes, all of it before the kernels are outlined, on one core. Pairs
// the operands leave open still go to the constraint system, so the answers
// are upstream's.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SubsetOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;

namespace {

/// Whether `a == b`, from the operands alone where they tell.
std::optional<bool> equalOperands(OpFoldResult a, OpFoldResult b) {
  if (a == b)
    return true;
  std::optional<int64_t> x = getConstantIntValue(a);
  std::optional<int64_t> y = getConstantIntValue(b);
  if (x && y)
    return *x == *y;
  return std::nullopt;
}

/// Whether two slices are provably the same: every pair the operands decide
/// first (one provably different pair settles it), the rest by value bounds.
bool equivalentSlices(const HyperrectangularSlice &a,
                      const HyperrectangularSlice &b) {
  if (a.getMixedOffsets().size() != b.getMixedOffsets().size())
    return false;
  SmallVector<std::pair<OpFoldResult, OpFoldResult>> open;
  auto decide = [&](ArrayRef<OpFoldResult> xs, ArrayRef<OpFoldResult> ys) {
    for (auto [x, y] : llvm::zip_equal(xs, ys)) {
      std::optional<bool> equal = equalOperands(x, y);
      if (!equal)
        open.emplace_back(x, y);
      else if (!*equal)
        return false;
    }
    return true;
  };
  if (!decide(a.getMixedOffsets(), b.getMixedOffsets()) ||
      !decide(a.getMixedSizes(), b.getMixedSizes()) ||
      !decide(a.getMixedStrides(), b.getMixedStrides()))
    return false;
  return llvm::all_of(open, [](auto pair) {
    FailureOr<bool> equal =
        ValueBoundsConstraintSet::areEqual(pair.first, pair.second);
    return succeeded(equal) && *equal;
  });
}

template <typename Model, typename OpTy>
struct SliceModel : SubsetOpInterface::ExternalModel<Model, OpTy> {
  bool operatesOnEquivalentSubset(
      Operation *op, SubsetOpInterface candidate,
      function_ref<bool(Value, Value)> equivalenceFn) const {
    FailureOr<HyperrectangularSlice> slice =
        cast<SubsetOpInterface>(op).getAccessedHyperrectangularSlice();
    FailureOr<HyperrectangularSlice> other =
        candidate.getAccessedHyperrectangularSlice();
    if (failed(slice) || failed(other))
      return false;
    return equivalenceFn(cast<SubsetOpInterface>(op).getTensorContainer(),
                         candidate.getTensorContainer()) &&
           equivalentSlices(*slice, *other);
  }
};

template <typename OpTy>
struct OffsetSizeStrideModel
    : SliceModel<OffsetSizeStrideModel<OpTy>, OpTy> {
  FailureOr<HyperrectangularSlice>
  getAccessedHyperrectangularSlice(Operation *op) const {
    return HyperrectangularSlice(cast<OffsetSizeAndStrideOpInterface>(op));
  }
};

template <typename OpTy>
struct TransferModel : SliceModel<TransferModel<OpTy>, OpTy> {
  FailureOr<HyperrectangularSlice>
  getAccessedHyperrectangularSlice(Operation *op) const {
    auto transfer = cast<OpTy>(op);
    Builder b(op->getContext());
    SmallVector<OpFoldResult> offsets(transfer.getIndices());
    SmallVector<OpFoldResult> sizes = llvm::map_to_vector(
        transfer.getTransferChunkAccessed(),
        [&](int64_t size) -> OpFoldResult { return b.getIndexAttr(size); });
    return HyperrectangularSlice(offsets, sizes);
  }
};

} // namespace

void mo::registerSubsetModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExtractSliceOp::attachInterface<
        OffsetSizeStrideModel<tensor::ExtractSliceOp>>(*ctx);
    tensor::InsertSliceOp::attachInterface<
        OffsetSizeStrideModel<tensor::InsertSliceOp>>(*ctx);
    tensor::ParallelInsertSliceOp::attachInterface<
        OffsetSizeStrideModel<tensor::ParallelInsertSliceOp>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, vector::VectorDialect *) {
    vector::TransferReadOp::attachInterface<
        TransferModel<vector::TransferReadOp>>(*ctx);
    vector::TransferWriteOp::attachInterface<
        TransferModel<vector::TransferWriteOp>>(*ctx);
  });
}
