//===- Buffers.cpp - mo.mutable.load/store to bufferization/memref --------===//
//
// A buffer is a memref (the caller's memory). A load is a snapshot: it
// copies, so that later stores to the buffer do not change the loaded value.
// A store materializes the value into the buffer, or into a strided window
// of it (`x[2:4] = v`). A buffer the graph creates is a memref.alloc.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::mo;

namespace {

struct LoadToCopy : OpConversionPattern<MutableLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MutableLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value view = bufferization::ToTensorOp::create(
        rewriter, op.getLoc(), type, adaptor.getBuffer(), /*restrict=*/true,
        /*writable=*/true);
    rewriter.replaceOpWithNewOp<bufferization::AllocTensorOp>(
        op, type, ValueRange{}, /*copy=*/view);
    return success();
  }
};

struct StoreToMaterialize : OpConversionPattern<MutableStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MutableStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getValue(), dest = adaptor.getBuffer();
    if (std::optional<ArrayRef<int64_t>> starts = op.getStarts()) {
      auto valueType = cast<mo::TensorType>(op.getValue().getType());
      SmallVector<OpFoldResult> offsets, sizes, strides;
      windowSlices(rewriter, loc, *starts, *op.getSteps(), valueType.getDims(),
                   value, offsets, sizes, strides);
      dest = memref::SubViewOp::create(rewriter, loc, dest, offsets, sizes, strides);
    }
    bufferization::MaterializeInDestinationOp::create(
        rewriter, loc, TypeRange{}, value, dest, /*restrict=*/true,
        /*writable=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

/// memref.alloc, sized from the enclosing function's arguments (the
/// deallocation pipeline frees it).
struct CreateToAlloc : OpConversionPattern<BufferCreateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BufferCreateOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    FailureOr<Value> buffer = allocBuffer(rewriter, op.getLoc(), op, type,
                                          cast<BufferType>(op.getType()).getDims());
    if (failed(buffer))
      return failure();
    rewriter.replaceOp(op, *buffer);
    return success();
  }
};

} // namespace

void mo::populateMoBufferToMemRefPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<LoadToCopy, StoreToMaterialize, CreateToAlloc>(converter,
                                                             patterns.getContext());
}
