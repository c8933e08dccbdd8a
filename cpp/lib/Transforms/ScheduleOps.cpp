//===- ScheduleOps.cpp - mo's transform dialect ops -----------------------===//
//
// The schedule library's own transform ops (MoTransformOps.td):
// `transform.mo.fuse_into_containing_op`, producer fusion without the
// per-producer diagnostic of upstream's op, whose verify-and-print of the
// whole loop made fusion quadratic in a fused chain's length;
// `transform.mo.drop_padded_rows` and the forward-masked-reads patterns
// (which the schedules' cleanup runs), with which a register tile of a
// run-time row count is one version of the code (its last rows clamped, its
// results masked) instead of two.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/ScopeExit.h"

#define GET_OP_CLASSES
#include "Mo/MoTransformOps.h.inc"

using namespace mlir;

bool mo::sameDestination(Value a, Value b) {
  if (a == b)
    return true;
  auto emptyA = a.getDefiningOp<tensor::EmptyOp>();
  auto emptyB = b.getDefiningOp<tensor::EmptyOp>();
  return emptyA && emptyB && emptyA.getType() == emptyB.getType() &&
         emptyA.getDynamicSizes() == emptyB.getDynamicSizes();
}

namespace {

/// A slice `loop` takes inside of one of `producer`'s results: directly, or
/// of the loop's region argument that a result initializes.
tensor::ExtractSliceOp sliceInside(Operation *producer, LoopLikeOpInterface loop) {
  auto inside = [&](Value value) -> tensor::ExtractSliceOp {
    for (Operation *user : value.getUsers())
      if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
        if (slice.getSource() == value && loop->isProperAncestor(slice))
          return slice;
    return {};
  };
  for (OpResult result : producer->getResults())
    for (OpOperand &use : result.getUses()) {
      if (use.getOwner() == loop.getOperation()) {
        if (BlockArgument arg = loop.getTiedLoopRegionIterArg(&use))
          if (auto slice = inside(arg))
            return slice;
      } else if (auto slice = inside(result)) {
        return slice;
      }
    }
  return {};
}

/// `producer` tiled at `slice`, a slice of one of its results inside `loop`:
/// a clone before the slice, whose destinations that are the loop's own
/// outputs are the loop's region arguments (the tile then writes into the
/// output, as the consumer does, instead of into a temporary of its own),
/// tiled and the clone erased. The tiled ops, or failure.
FailureOr<SmallVector<Operation *>> tileAtSlice(RewriterBase &rewriter, TilingInterface producer,
                                                 tensor::ExtractSliceOp slice,
                                                 LoopLikeOpInterface loop) {
  rewriter.setInsertionPoint(slice);
  auto clone = cast<TilingInterface>(rewriter.clone(*producer.getOperation()));
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(clone.getOperation()))
    for (OpOperand &init : dps.getDpsInitsMutable())
      for (BlockArgument arg : loop.getRegionIterArgs())
        if (OpOperand *tied = loop.getTiedLoopInit(arg);
            tied && mo::sameDestination(init.get(), tied->get())) {
          rewriter.modifyOpInPlace(clone, [&] { init.set(arg); });
          break;
        }
  llvm::scope_exit eraseClone([&] { rewriter.eraseOp(clone); });
  int64_t resultNumber = cast<OpResult>(slice.getSource()).getResultNumber();
  FailureOr<TilingResult> tiled = clone.generateResultTileValue(
      rewriter, resultNumber, slice.getMixedOffsets(), slice.getMixedSizes());
  if (failed(tiled))
    return failure();
  FailureOr<Value> value = tensor::ExtractSliceOp::rankReduceIfNeeded(
      rewriter, slice.getLoc(), tiled->tiledValues[0], slice.getType().getShape());
  if (failed(value))
    return failure();
  rewriter.replaceOp(slice, *value);
  return tiled->tiledOps;
}

/// `producer` fused at `slice` inside `loop`: tiled at a slice of its
/// result, or (a slice of the loop's output that the producer initializes:
/// the accumulator's fill) by `scf::tileAndFuseProducerOfSlice`, which also
/// makes the loop's output start from the producer's own destination.
FailureOr<SmallVector<Operation *>> fuseAtSlice(RewriterBase &rewriter, TilingInterface producer,
                                                tensor::ExtractSliceOp slice,
                                                LoopLikeOpInterface loop) {
  if (slice.getSource().getDefiningOp() == producer.getOperation())
    return tileAtSlice(rewriter, producer, slice, loop);
  SmallVector<LoopLikeOpInterface> loops{loop};
  rewriter.setInsertionPoint(slice);
  std::optional<scf::SCFFuseProducerOfSliceResult> tiled =
      scf::tileAndFuseProducerOfSlice(rewriter, slice, loops);
  if (!tiled)
    return failure();
  rewriter.eraseOp(slice);
  return tiled->tiledOps;
}

/// A use of `producer` inside `loop` other than a slice's.
OpOperand *otherUseInside(Operation *producer, LoopLikeOpInterface loop) {
  for (OpResult result : producer->getResults())
    for (OpOperand &use : result.getUses())
      if (loop->isProperAncestor(use.getOwner()) &&
          !isa<tensor::ExtractSliceOp>(use.getOwner()))
        return &use;
  return nullptr;
}

} // namespace

DiagnosedSilenceableFailure
mo::MoFuseIntoContainingOp::apply(transform::TransformRewriter &rewriter,
                                  transform::TransformResults &results,
                                  transform::TransformState &state) {
  auto containing = state.getPayloadOps(getContainingOp());
  if (!llvm::hasSingleElement(containing))
    return emitDefiniteFailure() << "requires exactly one containing op";
  auto loop = dyn_cast<LoopLikeOpInterface>(*containing.begin());
  if (!loop)
    return emitDefiniteFailure() << "the containing op is not a loop";
  SmallVector<Operation *> fused;
  for (Operation *producer : state.getPayloadOps(getProducerOp())) {
    bool any = false;
    // Tiled at each slice (each leaves the loop), then cloned for the rest.
    // (Errors are the payload's: the library's own lines mean nothing to a
    // reader of the IR.)
    while (tensor::ExtractSliceOp slice = sliceInside(producer, loop)) {
      auto tileable = dyn_cast<TilingInterface>(producer);
      if (!tileable)
        return emitSilenceableFailure(producer->getLoc())
               << "cannot be tiled into its consumer's loop";
      FailureOr<SmallVector<Operation *>> tiled = fuseAtSlice(rewriter, tileable, slice, loop);
      if (failed(tiled))
        return emitSilenceableFailure(producer->getLoc())
               << "cannot be tiled at the slice its consumer's loop takes of it";
      llvm::append_range(fused, *tiled);
      any = true;
    }
    while (OpOperand *use = otherUseInside(producer, loop)) {
      // A size asked of a result is its destination's (the tiled ops'
      // bounds): no copy of the whole producer to answer it.
      auto dim = dyn_cast<tensor::DimOp>(use->getOwner());
      auto dps = dyn_cast<DestinationStyleOpInterface>(producer);
      if (dim && dps) {
        auto result = cast<OpResult>(use->get());
        rewriter.modifyOpInPlace(dim, [&] {
          use->set(dps.getTiedOpOperand(result)->get());
        });
        any = true;
        continue;
      }
      rewriter.setInsertionPoint(use->getOwner());
      Operation *clone = rewriter.clone(*producer);
      rewriter.modifyOpInPlace(use->getOwner(), [&] {
        use->set(clone->getResult(cast<OpResult>(use->get()).getResultNumber()));
      });
      fused.push_back(clone);
      any = true;
    }
    if (!any)
      return emitSilenceableFailure(producer->getLoc())
             << "cannot be fused into its consumer's loop: no use inside it";
  }
  results.set(cast<OpResult>(getFusedOp()), fused);
  results.set(cast<OpResult>(getNewContainingOp()), {loop.getOperation()});
  return DiagnosedSilenceableFailure::success();
}

void mo::MoFuseIntoContainingOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::consumesHandle(getProducerOpMutable(), effects);
  transform::onlyReadsHandle(getContainingOpMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

namespace {

/// Whether `pad` pads its source's rows (dim 0) at the end, and nothing else.
bool padsRowsOnly(tensor::PadOp pad) {
  for (auto [dim, low, high] :
       llvm::enumerate(pad.getMixedLowPad(), pad.getMixedHighPad()))
    if (!isConstantIntValue(low, 0) || (dim > 0 && !isConstantIntValue(high, 0)))
      return false;
  return true;
}

/// Whether `read` (of `pad`, through a slice at `offsets`) reads unmasked,
/// with the pad's rows as its vector's first dim and only there (other dims
/// may broadcast), within the pad's rows: what a vectorized tile reads of
/// its operands.
bool rowRead(vector::TransferReadOp read, tensor::PadOp pad, ArrayRef<OpFoldResult> offsets) {
  VectorType type = read.getVectorType();
  AffineMap map = read.getPermutationMap();
  if (read.getMask() || type.isScalable() || type.getRank() < 2 ||
      map.getResult(0) != getAffineDimExpr(0, read.getContext()) ||
      map.dropResult(0).isFunctionOfDim(0))
    return false;
  std::optional<int64_t> first = getConstantIntValue(read.getIndices()[0]);
  std::optional<int64_t> offset = getConstantIntValue(offsets[0]);
  int64_t rows = pad.getResultType().getDimSize(0);
  return read.isDimInBounds(0) || (first && offset && !ShapedType::isDynamic(rows) &&
                                   *first + *offset + type.getDimSize(0) <= rows);
}

/// `read` of `pad` (through a slice at `offsets`) as one read per row of
/// the pad's source, each row index clamped to the source's last row.
void clampRows(RewriterBase &rewriter, tensor::PadOp pad, vector::TransferReadOp read,
               ArrayRef<OpFoldResult> offsets) {
  MLIRContext *ctx = rewriter.getContext();
  Location loc = read.getLoc();
  rewriter.setInsertionPoint(read);
  AffineExpr d0, s0;
  bindDims(ctx, d0);
  bindSymbols(ctx, s0);
  SmallVector<OpFoldResult> at;
  for (auto [index, offset] : llvm::zip_equal(read.getIndices(), offsets))
    at.push_back(affine::makeComposedFoldedAffineApply(
        rewriter, loc, AffineMap::get(1, 1, d0 + s0), {OpFoldResult(index), offset}));
  Value source = pad.getSource();
  OpFoldResult last = affine::makeComposedFoldedAffineApply(
      rewriter, loc, AffineMap::get(0, 1, s0 - 1),
      {tensor::getMixedSize(rewriter, loc, source, 0)});
  VectorType type = read.getVectorType();
  VectorType rowType = VectorType::Builder(type).dropDim(0);
  AffineMap rowMap = read.getPermutationMap().dropResult(0);
  SmallVector<bool> inBounds = read.getInBoundsValues();
  inBounds.erase(inBounds.begin());
  Value result = ub::PoisonOp::create(rewriter, loc, type);
  for (int64_t r = 0; r < type.getDimSize(0); ++r) {
    SmallVector<Value> indices = getValueOrCreateConstantIndexOp(rewriter, loc, at);
    indices[0] = getValueOrCreateConstantIndexOp(
        rewriter, loc,
        affine::makeComposedFoldedAffineMin(rewriter, loc, AffineMap::get(1, 1, {d0 + r, s0}, ctx),
                                            {at[0], last}));
    Value row = vector::TransferReadOp::create(rewriter, loc, rowType, source, indices,
                                               read.getPadding(), rowMap, inBounds);
    result = vector::InsertOp::create(rewriter, loc, row, result, r);
  }
  rewriter.replaceOp(read, result);
}

/// The lane bounds of a create_mask or constant_mask, else none.
std::optional<SmallVector<OpFoldResult>> maskBounds(Value mask) {
  if (auto create = mask.getDefiningOp<vector::CreateMaskOp>())
    return getAsOpFoldResult(create.getOperands());
  if (auto constant = mask.getDefiningOp<vector::ConstantMaskOp>())
    return getAsIndexOpFoldResult(mask.getContext(), constant.getMaskDimSizes());
  return std::nullopt;
}

/// A masked `vector.transfer_read` whose masked-off lanes are poison, of the
/// tensor an in-bounds `vector.transfer_write` of the same vector type wrote
/// at the same place (or of a unit-stride slice of it there), whose mask
/// covers every lane the read's does: the written vector. Upstream's fold of
/// a read after a write stops at masks; a padded register tile's masked
/// epilogue reads its accumulator this way.
struct ForwardMaskedRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    VectorType type = read.getVectorType();
    if (!read.getMask() || !read.getPadding().getDefiningOp<ub::PoisonOp>() ||
        type.getRank() != read.getShapedType().getRank() ||
        !read.getPermutationMap().isIdentity())
      return failure();
    Value base = read.getBase();
    SmallVector<OpFoldResult> at = getAsOpFoldResult(read.getIndices());
    if (auto slice = base.getDefiningOp<tensor::ExtractSliceOp>()) {
      if (!slice.hasUnitStride() || slice.getSourceType().getRank() != type.getRank())
        return failure();
      SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
      for (size_t i = 0; i < at.size(); ++i) {
        if (isConstantIntValue(at[i], 0))
          at[i] = offsets[i];
        else if (!isConstantIntValue(offsets[i], 0))
          return failure();
      }
      base = slice.getSource();
    }
    auto write = base.getDefiningOp<vector::TransferWriteOp>();
    if (!write || write.getVectorType() != type || write.hasOutOfBoundsDim() ||
        write.getPermutationMap() != read.getPermutationMap() ||
        !llvm::all_of(llvm::zip_equal(write.getIndices(), at), [](auto pair) {
          return isEqualConstantIntOrValue(std::get<0>(pair), std::get<1>(pair));
        }))
      return failure();
    // Every lane the read takes was written: the write's mask bound in each
    // dim is the whole vector or the read's own.
    if (Value writeMask = write.getMask()) {
      auto written = maskBounds(writeMask), taken = maskBounds(read.getMask());
      if (!written || !taken)
        return failure();
      for (auto [w, r, size] : llvm::zip_equal(*written, *taken, type.getShape())) {
        std::optional<int64_t> bound = getConstantIntValue(w);
        if (!(bound && *bound >= size) && !isEqualConstantIntOrValue(w, r))
          return failure();
      }
    }
    rewriter.replaceOp(read, write.getVector());
    return success();
  }
};

} // namespace

DiagnosedSilenceableFailure
mo::MoDropPaddedRowsOp::apply(transform::TransformRewriter &rewriter,
                              transform::TransformResults &results,
                              transform::TransformState &state) {
  // Every pad checked before any is rewritten: a silenceable failure leaves
  // the payload as it was.
  struct Read {
    tensor::PadOp pad;
    vector::TransferReadOp read;
    SmallVector<OpFoldResult> offsets;
  };
  SmallVector<Read> reads;
  SmallVector<std::pair<tensor::PadOp, linalg::FillOp>> padsOfFills;
  for (Operation *op : state.getPayloadOps(getPads())) {
    auto pad = dyn_cast<tensor::PadOp>(op);
    if (!pad)
      return emitDefiniteFailure() << "expects tensor.pad ops";
    Value source = pad.getSource();
    while (auto slice = source.getDefiningOp<tensor::ExtractSliceOp>())
      source = slice.getSource();
    if (auto fill = source.getDefiningOp<linalg::FillOp>()) {
      padsOfFills.push_back({pad, fill});
      continue;
    }
    if (!padsRowsOnly(pad))
      return emitSilenceableFailure(pad.getLoc()) << "pads more than its rows";
    auto unreadable = [&] {
      return emitSilenceableFailure(pad.getLoc())
             << "the padded rows are read other than by plain vector reads";
    };
    SmallVector<OpFoldResult> zeros(pad.getResultType().getRank(), rewriter.getIndexAttr(0));
    for (Operation *user : pad->getUsers()) {
      if (auto read = dyn_cast<vector::TransferReadOp>(user)) {
        if (!rowRead(read, pad, zeros))
          return unreadable();
        reads.push_back({pad, read, zeros});
        continue;
      }
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice || !slice.hasUnitStride() ||
          slice.getResultType().getRank() != slice.getSourceType().getRank())
        return unreadable();
      for (Operation *sliceUser : slice->getUsers()) {
        auto read = dyn_cast<vector::TransferReadOp>(sliceUser);
        if (!read || !rowRead(read, pad, slice.getMixedOffsets()))
          return unreadable();
        reads.push_back({pad, read, slice.getMixedOffsets()});
      }
    }
  }
  for (Read &r : reads)
    clampRows(rewriter, r.pad, r.read, r.offsets);
  SmallVector<Operation *> fills;
  for (auto [pad, fill] : padsOfFills) {
    rewriter.setInsertionPoint(pad);
    ReifiedRankedShapedTypeDims shape;
    if (failed(reifyResultShapes(rewriter, pad, shape)))
      return emitDefiniteFailure() << "cannot size the pad of a fill";
    Value empty = tensor::EmptyOp::create(rewriter, pad.getLoc(), shape[0],
                                          pad.getResultType().getElementType());
    auto padded = linalg::FillOp::create(rewriter, fill.getLoc(), fill.getInputs()[0], empty);
    rewriter.replaceOp(pad, padded.getResult(0));
    fills.push_back(padded);
  }
  results.set(cast<OpResult>(getFills()), fills);
  return DiagnosedSilenceableFailure::success();
}

void mo::MoDropPaddedRowsOp::getEffects(SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::consumesHandle(getPadsMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

void mo::populateForwardMaskedReadsPatterns(RewritePatternSet &patterns) {
  patterns.add<ForwardMaskedRead>(patterns.getContext());
}

#define GET_OP_CLASSES
#include "Mo/MoTransformOps.cpp.inc"

namespace {
struct MoTransformExtension
    : public transform::TransformDialectExtension<MoTransformExtension> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MoTransformExtension)

  void init() {
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<linalg::LinalgDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<tensor::TensorDialect>();
    declareGeneratedDialect<ub::UBDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "Mo/MoTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mo::registerTransformExtension(DialectRegistry &registry) {
  registry.addExtensions<MoTransformExtension>();
}
