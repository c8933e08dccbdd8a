//===- ScheduleOps.cpp - mo's transform dialect ops -----------------------===//
//
// `transform.mo.fuse_into_containing_op` (MoTransformOps.td): producer
// fusion for the schedule library without the per-producer diagnostic of
// upstream's op, whose verify-and-print of the whole loop made fusion
// quadratic in a fused chain's length.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/ScopeExit.h"

#define GET_OP_CLASSES
#include "Mo/MoTransformOps.h.inc"

using namespace mlir;

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

/// Whether `a` and `b` are one tensor for a destination: the same value, or
/// empty tensors of one type and sizes.
bool sameDestination(Value a, Value b) {
  if (a == b)
    return true;
  auto emptyA = a.getDefiningOp<tensor::EmptyOp>();
  auto emptyB = b.getDefiningOp<tensor::EmptyOp>();
  return emptyA && emptyB && emptyA.getType() == emptyB.getType() &&
         emptyA.getDynamicSizes() == emptyB.getDynamicSizes();
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
            tied && sameDestination(init.get(), tied->get())) {
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

#define GET_OP_CLASSES
#include "Mo/MoTransformOps.cpp.inc"

namespace {
struct MoTransformExtension
    : public transform::TransformDialectExtension<MoTransformExtension> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MoTransformExtension)

  void init() {
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<tensor::TensorDialect>();
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
