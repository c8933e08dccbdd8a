//===- Copies.cpp - results written in place, strided copies as loops -----===//
//
// Two passes around bufferization that keep copies off the hot path: one
// lets a result reshaped on its way out be computed in the caller's buffer,
// the other gives the copies that remain vectorized loops instead of the
// runtime's element-by-element generic copy.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>

namespace mlir::mo {
#define GEN_PASS_DEF_MOWRITERESULTSINPLACE
#define GEN_PASS_DEF_MOEXPANDSTRIDEDCOPIES
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

/// materialize_in_destination (expand_shape %r) in %out
///   -> materialize_in_destination %r in (collapse_shape %out).
struct CollapseDestination
    : OpRewritePattern<bufferization::MaterializeInDestinationOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(bufferization::MaterializeInDestinationOp op,
                                PatternRewriter &rewriter) const override {
    auto expand = op.getSource().getDefiningOp<tensor::ExpandShapeOp>();
    auto dest = dyn_cast<TypedValue<MemRefType>>(op.getDest());
    if (!expand || !dest ||
        !memref::CollapseShapeOp::isGuaranteedCollapsible(
            dest.getType(), expand.getReassociationIndices()))
      return failure();
    Value collapsed = memref::CollapseShapeOp::create(
        rewriter, op.getLoc(), dest, expand.getReassociationIndices());
    auto moved = bufferization::MaterializeInDestinationOp::create(
        rewriter, op.getLoc(), expand.getSrc(), collapsed);
    moved.setRestrict(op.getRestrict());
    moved.setWritable(op.getWritable());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Gives each user of a shared init (a `tensor.empty`, or a `linalg.fill` of
/// one, that CSE merged) its own copy. Empty-tensor elimination anchors an
/// empty on the buffer one result is written to; every other op initialized
/// from it would then write that buffer too (two reductions filled from one
/// zero tensor returned the first's sums as both results).
void unshareInits(func::FuncOp func) {
  auto isInit = [](Operation *op) {
    if (auto fill = dyn_cast<linalg::FillOp>(op))
      return fill.hasPureTensorSemantics() &&
             fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
    return isa<tensor::EmptyOp>(op);
  };
  SmallVector<Operation *> shared;
  func.walk([&](Operation *op) {
    if (isInit(op) && !op->getResult(0).hasOneUse() && !op->getResult(0).use_empty())
      shared.push_back(op);
  });
  // Fills before the empties they fill: a fill's copy takes an empty of its own.
  std::stable_partition(shared.begin(), shared.end(),
                        [](Operation *op) { return isa<linalg::FillOp>(op); });
  OpBuilder builder(func.getContext());
  for (Operation *op : shared) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getResult(0).getUses())
      uses.push_back(&use);
    for (OpOperand *use : llvm::drop_begin(uses)) {
      builder.setInsertionPoint(use->getOwner());
      Operation *copy = builder.clone(*op);
      if (auto fill = dyn_cast<linalg::FillOp>(copy)) {
        builder.setInsertionPoint(fill);
        Operation *empty = builder.clone(*fill.getOutputs()[0].getDefiningOp());
        fill.getOutputsMutable()[0].set(empty->getResult(0));
      }
      use->set(copy->getResult(0));
    }
  }
}

struct MoWriteResultsInPlacePass
    : public mo::impl::MoWriteResultsInPlaceBase<MoWriteResultsInPlacePass> {
  void runOnOperation() override {
    unshareInits(getOperation());
    RewritePatternSet patterns(&getContext());
    patterns.add<CollapseDestination>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

/// Whether a copy of this buffer type lowers to one memcpy.
bool isContiguous(MemRefType type) {
  return type.getLayout().isIdentity() || memref::isStaticShapeAndContiguousRowMajor(type);
}

struct MoExpandStridedCopiesPass
    : public mo::impl::MoExpandStridedCopiesBase<MoExpandStridedCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp op) {
      auto source = dyn_cast<MemRefType>(op.getSource().getType());
      auto target = dyn_cast<MemRefType>(op.getTarget().getType());
      if (source && target && (!isContiguous(source) || !isContiguous(target)))
        copies.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp op : copies) {
      rewriter.setInsertionPoint(op);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(), op.getTarget());
    }
  }
};

} // namespace
