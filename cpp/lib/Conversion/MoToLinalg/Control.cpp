//===- Control.cpp - mo.if and mo.while to scf ----------------------------===//
//
// The regions move into scf.if / scf.while unchanged (their ops convert
// like any others); the 0-d bool condition is read with tensor.extract, and
// each mo.yield becomes the scf terminator its new parent needs: scf.yield,
// or scf.condition in the before region of a scf.while (forwarding the
// carried values to the body).
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mo;

/// A converted 0-d bool tensor (bytes) as an i1.
static Value readCondition(OpBuilder &b, Location loc, Value condition) {
  Value byte = tensor::ExtractOp::create(b, loc, condition);
  return loadScalar(b, loc, byte, b.getI1Type());
}

namespace {

struct IfToScf : OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    Value condition = readCondition(rewriter, op.getLoc(), adaptor.getCondition());
    auto scfIf = scf::IfOp::create(rewriter, op.getLoc(), types, condition,
                                   /*withElseRegion=*/true);
    for (auto [from, to] : {std::pair(&op.getThenRegion(), &scfIf.getThenRegion()),
                            std::pair(&op.getElseRegion(), &scfIf.getElseRegion())}) {
      rewriter.eraseBlock(&to->front());
      rewriter.inlineRegionBefore(*from, *to, to->end());
    }
    rewriter.replaceOp(op, scfIf.getResults());
    return success();
  }
};

struct WhileToScf : OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    auto loop = scf::WhileOp::create(rewriter, op.getLoc(), types, adaptor.getInits());
    for (auto [from, to] : {std::pair(&op.getCondRegion(), &loop.getBefore()),
                            std::pair(&op.getBodyRegion(), &loop.getAfter())}) {
      rewriter.inlineRegionBefore(*from, *to, to->end());
      if (failed(rewriter.convertRegionTypes(to, *getTypeConverter())))
        return failure();
    }
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

struct YieldToScf : OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *parent = op->getParentOp();
    auto loop = dyn_cast<scf::WhileOp>(parent);
    if (loop && op->getParentRegion() == &loop.getBefore()) {
      Value condition = readCondition(rewriter, op.getLoc(), adaptor.getValues()[0]);
      rewriter.replaceOpWithNewOp<scf::ConditionOp>(op, condition,
                                                    loop.getBefore().getArguments());
      return success();
    }
    if (!isa<scf::IfOp, scf::WhileOp>(parent))
      return failure(); // Its parent converts first.
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    return success();
  }
};

} // namespace

void mo::populateMoControlToScfPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<IfToScf, WhileToScf, YieldToScf>(converter, patterns.getContext());
}
