//===- Fusion.cpp - mo's elementwise fusion policy ------------------------===//
//
// Upstream's linalg-fuse-elementwise-ops fuses an elementwise producer into
// any consumer, contractions and reductions included, and folds reshapes into
// named contractions by expanding them into generics. Inside a matmul that
// recomputes the producer once per element of the reduction (a layer norm
// feeding a projection ran ~25x slower), and it hides the named op the CPU
// schedule wants. The same patterns here fuse a producer only where its
// consumer reads each element once, and move reshapes only through
// all-parallel ops.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOFUSEELEMENTWISE
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

/// Whether `op` is absent or a linalg op whose loops are all parallel.
static bool allParallel(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return !linalgOp ||
         linalgOp.getNumLoops() == linalgOp.getNumParallelLoops();
}

/// Whether every element of the all-parallel `producer` costs a few cheap
/// arithmetic ops (no division, no math function) of one input its size at
/// most, the others broadcast (a row's mean): reading that input again costs
/// what reading the stored result would. A layer norm's `x - mean`.
static bool isCheapToRecompute(linalg::GenericOp producer) {
  if (producer.getNumResults() != 1 || !allParallel(producer))
    return false;
  unsigned whole = 0;
  for (OpOperand *input : producer.getDpsInputOperands())
    whole += producer.getMatchingIndexingMap(input).isPermutation();
  if (whole > 1)
    return false;
  unsigned ops = 0;
  for (Operation &op : producer.getBlock()->without_terminator()) {
    if (++ops > 3 || !isa_and_nonnull<arith::ArithDialect>(op.getDialect()) ||
        isa<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
            arith::RemUIOp, arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
      return false;
  }
  return true;
}

namespace {
/// A cheap elementwise producer (isCheapToRecompute) with several uses, each
/// reading each of its elements once, copied for each use so it fuses into
/// every one: the consumers recompute it from its input instead of a pass
/// storing it and the next reading it back. A layer norm's `x - mean` feeds
/// the variance and the scale: stored, the output is written twice (centred,
/// then scaled) and read in between; recomputed, it is written once, by the
/// last pass, and can be streamed (mo-stream-stores).
struct DuplicateCheapProducer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp producer,
                                PatternRewriter &rewriter) const override {
    Value result = producer->getResult(0);
    if (producer->hasOneUse() || !isCheapToRecompute(producer))
      return failure();
    llvm::SetVector<Operation *> consumers;
    for (OpOperand &use : result.getUses()) {
      auto consumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
      if (!consumer || !consumer.isDpsInput(&use) ||
          !consumer.getMatchingIndexingMap(&use).isPermutation())
        return failure();
      consumers.insert(consumer);
    }
    if (consumers.size() < 2)
      return failure();
    // A copy for each consumer after the first, which keeps the original.
    rewriter.setInsertionPointAfter(producer);
    for (Operation *consumer : consumers.getArrayRef().drop_front()) {
      Value copy = rewriter.clone(*producer)->getResult(0);
      rewriter.replaceUsesWithIf(result, copy, [&](OpOperand &use) {
        return use.getOwner() == consumer;
      });
    }
    return success();
  }
};

/// An elementwise producer with other uses fused into a reduction that
/// reads each of its elements once, the fused op also yielding it for the
/// other uses: softmax's exp stored and summed in one pass. (Upstream's
/// pattern leaves the other uses on the producer, which then fuses into
/// them too: one exp per element per use.)
struct FuseSharedIntoReduction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    if (consumer.getNumReductionLoops() == 0)
      return failure();
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      // (areElementwiseOpsFusable: the producer's loops are all parallel.)
      if (!producer || producer->hasOneUse() || isCheapToRecompute(producer) ||
          !consumer.getMatchingIndexingMap(operand).isPermutation() ||
          !linalg::areElementwiseOpsFusable(operand))
        continue;
      // The other uses come after the consumer, where the fused op is.
      if (!llvm::all_of(producer->getUsers(), [&](Operation *user) {
            return user == consumer ||
                   (user->getBlock() == consumer->getBlock() && consumer->isBeforeInBlock(user));
          }))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused))
        continue;
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceAllUsesWith(original, replacement);
      return success();
    }
    return failure();
  }
};

struct MoFuseElementwisePass
    : public mo::impl::MoFuseElementwiseBase<MoFuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // An elementwise producer fuses where the consumer reads each of its
    // elements once (a permutation map: elementwise ops, and reductions over
    // the same loops), never into a matmul, which would recompute it.
    linalg::ControlFusionFn fuse = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (!producer || !producer->hasOneUse() || !allParallel(producer))
        return false;
      auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
      return !consumer || consumer.getMatchingIndexingMap(fused).isPermutation();
    };
    // Reshapes move only through all-parallel ops: contractions stay named.
    linalg::ControlFusionFn reshape = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      return producer && producer->hasOneUse() && allParallel(producer) &&
             allParallel(fused->getOwner());
    };
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, fuse);
    patterns.add<DuplicateCheapProducer, FuseSharedIntoReduction>(context);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, reshape);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, fuse);
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
