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

struct MoWriteResultsInPlacePass
    : public mo::impl::MoWriteResultsInPlaceBase<MoWriteResultsInPlacePass> {
  void runOnOperation() override {
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
