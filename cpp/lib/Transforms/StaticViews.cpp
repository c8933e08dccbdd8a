//===- StaticViews.cpp - a checked argument's static shape kept -----------===//
//
// The entry takes its buffers with run-time sizes, checks them, and casts
// each to its static shape; upstream's folding of memref.cast into its
// consumers (memref::foldMemRefCast, which every linalg op's folder calls)
// folds casts in either direction, so the kernels got the unchecked,
// run-time-sized buffer back (a layer_norm's gamma: memref<?xf32>). This
// pass makes each such cast a memref.reinterpret_cast, which nothing folds.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOKEEPSTATICVIEWS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

struct MoKeepStaticViewsPass
    : public mo::impl::MoKeepStaticViewsBase<MoKeepStaticViewsPass> {
  void runOnOperation() override {
    SmallVector<memref::CastOp> casts;
    getOperation().walk([&](memref::CastOp op) {
      auto source = dyn_cast<MemRefType>(op.getSource().getType());
      auto result = dyn_cast<MemRefType>(op.getType());
      if (!source || !result || !source.getLayout().isIdentity() ||
          !result.getLayout().isIdentity() ||
          result.getNumDynamicDims() >= source.getNumDynamicDims())
        return;
      casts.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CastOp op : casts) {
      auto result = cast<MemRefType>(op.getType());
      rewriter.setInsertionPoint(op);
      Location loc = op.getLoc();
      // Sizes: the result's static ones, the source's where it has none;
      // strides: the identity layout's (suffix products of the sizes).
      SmallVector<OpFoldResult> sizes;
      for (int64_t d = 0; d < result.getRank(); ++d)
        sizes.push_back(result.isDynamicDim(d)
                            ? OpFoldResult(memref::DimOp::create(rewriter, loc, op.getSource(), d)
                                               .getResult())
                            : OpFoldResult(rewriter.getIndexAttr(result.getDimSize(d))));
      SmallVector<OpFoldResult> strides = memref::computeStridesIRBlock(loc, rewriter, sizes);
      rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
          op, result, op.getSource(), rewriter.getIndexAttr(0), sizes, strides);
    }
  }
};

} // namespace
