//===- WidenBoolMemrefs.cpp - byte storage for i1 memrefs -----------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOWIDENBOOLMEMREFS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

/// memref<...xi1> -> memref<...xi8>; everything else unchanged.
struct BoolStorageConverter : TypeConverter {
  BoolStorageConverter() {
    addConversion([](Type t) { return t; });
    addConversion([](MemRefType t) -> Type {
      if (!t.getElementType().isInteger(1))
        return t;
      return MemRefType::get(t.getShape(),
                             IntegerType::get(t.getContext(), 8),
                             t.getLayout(), t.getMemorySpace());
    });
  }
};

struct WidenLoad : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value byte = memref::LoadOp::create(rewriter, op.getLoc(),
                                        adaptor.getMemref(),
                                        adaptor.getIndices());
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, op.getType(), byte);
    return success();
  }
};

struct WidenStore : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value byte = arith::ExtUIOp::create(rewriter, op.getLoc(),
                                        rewriter.getI8Type(),
                                        adaptor.getValue());
    rewriter.replaceOpWithNewOp<memref::StoreOp>(op, byte, adaptor.getMemref(),
                                                 adaptor.getIndices());
    return success();
  }
};

/// Globals keep their bytes' meaning: an i1 initial value becomes i8 0/1.
struct WidenGlobal : OpConversionPattern<memref::GlobalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::GlobalOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    Attribute init = op.getInitialValueAttr();
    if (auto dense = dyn_cast_or_null<DenseElementsAttr>(init))
      init = dense.mapValues(type.getElementType(), [](const APInt &bit) {
        return bit.zext(8);
      });
    rewriter.replaceOpWithNewOp<memref::GlobalOp>(
        op, op.getSymName(), op.getSymVisibilityAttr(), type, init,
        op.getConstant(), op.getAlignmentAttr());
    return success();
  }
};

/// Any other region-free op: same op, converted types.
struct RetypeOp : ConversionPattern {
  RetypeOp(TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumRegions() || isa<memref::LoadOp, memref::StoreOp>(op))
      return failure();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                         types, op->getAttrs(), op->getSuccessors());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct MoWidenBoolMemrefsPass
    : public mo::impl::MoWidenBoolMemrefsBase<MoWidenBoolMemrefsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    BoolStorageConverter converter;
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto func = dyn_cast<func::FuncOp>(op))
        return converter.isSignatureLegal(func.getFunctionType()) &&
               converter.isLegal(&func.getBody());
      if (auto global = dyn_cast<memref::GlobalOp>(op))
        return converter.isLegal(global.getType());
      return converter.isLegal(op);
    });
    target.addLegalOp<ModuleOp>();
    RewritePatternSet patterns(ctx);
    patterns.add<WidenGlobal, WidenLoad, WidenStore>(converter, ctx);
    patterns.add<RetypeOp>(converter, ctx);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                  converter);
    if (failed(applyFullConversion(getOperation(), target,
                                   std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
