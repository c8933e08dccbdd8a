//===- Shape.cpp - mo shape ops to tensor/linalg --------------------------===//
//
// reshape becomes tensor.collapse_shape / tensor.expand_shape wherever the
// dims group into factors (most reshapes: `[b, s, 4] -> [b * s, 4]`), which
// linalg fusion and tiling see through; only a reshape whose dims do not
// group (`[2, 3] -> [3, 2]`) is a general tensor.reshape. transpose is
// linalg.transpose, slice an extract_slice (reversed by a generic where a
// step is negative), concat insert_slices, pad tensor.pad.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"
#include "mo/Dialect/MoScalar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mo;

namespace {

/// Groups consecutive dims of `from` and `to` with equal products, if they
/// group: the pairs of index lists, in order.
std::optional<std::pair<SmallVector<ReassociationIndices>,
                        SmallVector<ReassociationIndices>>>
groupDims(ArrayRef<Attribute> from, ArrayRef<Attribute> to) {
  SmallVector<ReassociationIndices> in, out;
  size_t i = 0, j = 0;
  while (i < from.size() && j < to.size()) {
    ReassociationIndices gi{static_cast<int64_t>(i)}, gj{static_cast<int64_t>(j)};
    DimProduct a, b;
    a.multiply(from[i++]);
    b.multiply(to[j++]);
    while (!(a == b)) {
      if (a.divisibleBy(b) && j < to.size()) {
        gj.push_back(j);
        b.multiply(to[j++]);
      } else if (b.divisibleBy(a) && i < from.size()) {
        gi.push_back(i);
        a.multiply(from[i++]);
      } else {
        return std::nullopt;
      }
    }
    in.push_back(gi);
    out.push_back(gj);
  }
  // Leftover size-1 dims join the last group.
  for (; i < from.size(); ++i) {
    if (getStaticDimSize(from[i]) != 1 || in.empty())
      return std::nullopt;
    in.back().push_back(i);
  }
  for (; j < to.size(); ++j) {
    if (getStaticDimSize(to[j]) != 1 || out.empty())
      return std::nullopt;
    out.back().push_back(j);
  }
  return std::make_pair(in, out);
}

struct ReshapeToTensor : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto fromType = cast<mo::TensorType>(op.getInput().getType());
    auto toType = cast<mo::TensorType>(op.getType());
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(toType));
    Value input = adaptor.getInput();
    auto groups = groupDims(fromType.getDims(), toType.getDims());
    bool collapses = groups && llvm::all_of(groups->second,
                                            [](auto &g) { return g.size() == 1; });
    if (collapses && fromType.getRank() != 0 && toType.getRank() != 0) {
      Value r = tensor::CollapseShapeOp::create(rewriter, loc, input, groups->first);
      if (r.getType() != type)
        r = tensor::CastOp::create(rewriter, loc, type, r);
      rewriter.replaceOp(op, r);
      return success();
    }
    FailureOr<SmallVector<OpFoldResult>> mixed =
        mixedSizes(rewriter, loc, op, toType.getDims());
    if (failed(mixed))
      return failure();
    SmallVector<OpFoldResult> &sizes = *mixed;
    if (!groups || fromType.getRank() == 0 || toType.getRank() == 0) {
      SmallVector<Value> values =
          getValueOrCreateConstantIndexOp(rewriter, loc, sizes);
      Value shape = tensor::FromElementsOp::create(
          rewriter, loc, RankedTensorType::get({type.getRank()}, rewriter.getIndexType()),
          values);
      rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, type, input, shape);
      return success();
    }
    auto &[in, out] = *groups;
    bool expands = llvm::all_of(in, [](auto &g) { return g.size() == 1; });
    if (!expands) // Both: collapse each group to one dim, then expand.
      input = tensor::CollapseShapeOp::create(rewriter, loc, input, in);
    rewriter.replaceOp(op, expandTo(rewriter, loc, type, input, out, sizes));
    return success();
  }
};

struct TransposeToLinalg : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<mo::TensorType>(op.getType());
    SmallVector<SizeHints> hints(type.getRank());
    for (auto [i, p] : llvm::enumerate(op.getPermutation()))
      hints[i].push_back({adaptor.getInput(), p});
    FailureOr<Value> init = emptyTensor(rewriter, op.getLoc(), op, type, hints);
    if (failed(init))
      return failure();
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, op.getLoc(),
                                                       adaptor.getInput(), *init,
                                                       op.getPermutation())
                               .getResult());
    return success();
  }
};

struct SliceToExtractSlice : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<mo::TensorType>(op.getType());
    auto converted = cast<RankedTensorType>(getTypeConverter()->convertType(type));
    // A negative step (static dims) is the ascending window, reversed.
    SmallVector<int64_t> starts(op.getStarts()), steps(op.getSteps());
    bool reverses = false;
    for (auto [i, start, step] : llvm::enumerate(starts, steps)) {
      if (step > 0)
        continue;
      reverses = true;
      int64_t count = converted.getDimSize(i);
      start = count ? start + (count - 1) * step : 0;
      step = -step;
    }
    SmallVector<OpFoldResult> offsets, sizes, strides;
    windowSlices(rewriter, op.getLoc(), starts, steps, type.getDims(),
                 adaptor.getInput(), offsets, sizes, strides);
    Value window = tensor::ExtractSliceOp::create(rewriter, op.getLoc(), converted,
                                                  adaptor.getInput(), offsets, sizes,
                                                  strides);
    if (!reverses) {
      rewriter.replaceOp(op, window);
      return success();
    }
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = converted.getRank();
    SmallVector<AffineExpr> read;
    for (int64_t i = 0; i < rank; ++i) {
      AffineExpr d = getAffineDimExpr(i, ctx);
      read.push_back(op.getSteps()[i] < 0 ? converted.getDimSize(i) - 1 - d : d);
    }
    Value init = tensor::EmptyOp::create(
        rewriter, op.getLoc(), tensor::getMixedSizes(rewriter, op.getLoc(), window),
        converted.getElementType());
    rewriter.replaceOp(
        op, linalg::GenericOp::create(
                rewriter, op.getLoc(), TypeRange{converted}, ValueRange{window},
                ValueRange{init},
                {AffineMap::get(rank, 0, read, ctx), rewriter.getMultiDimIdentityMap(rank)},
                SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
                [](OpBuilder &b, Location l, ValueRange args) {
                  linalg::YieldOp::create(b, l, args[0]);
                })
                .getResult(0));
    return success();
  }
};

/// Each input inserted into the result at the running offset along the axis.
struct ConcatToInsertSlices : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<mo::TensorType>(op.getType());
    int64_t axis = op.getAxis(), rank = type.getRank();
    ValueRange inputs = adaptor.getInputs();
    SmallVector<SizeHints> hints(rank);
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        hints[d].push_back({inputs[0], d});
    FailureOr<Value> init = emptyTensor(rewriter, loc, op, type, hints);
    if (failed(init))
      return failure();
    Value result = *init;
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (Value input : inputs) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
          strides(rank, rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, input);
      offsets[axis] = offset;
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, sizes, strides);
      offset = Value(arith::AddIOp::create(
          rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, offset),
          getValueOrCreateConstantIndexOp(rewriter, loc, sizes[axis])));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tensor.pad yielding the value's scalar.
struct PadToTensorPad : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value value = tensor::ExtractOp::create(rewriter, loc, adaptor.getValue());
    SmallVector<OpFoldResult> low, high;
    for (auto [lo, hi] : llvm::zip(op.getLow(), op.getHigh())) {
      low.push_back(rewriter.getIndexAttr(lo));
      high.push_back(rewriter.getIndexAttr(hi));
    }
    rewriter.replaceOp(op, tensor::PadOp::create(rewriter, loc, type,
                                                 adaptor.getInput(), low, high,
                                                 value)
                               .getResult());
    return success();
  }
};

/// start + i * step for every i of the result (i converted to the
/// element type: integers multiply, floats multiply, as numpy's arange).
struct RangeToLinalg : OpConversionPattern<RangeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<mo::TensorType>(op.getType());
    FailureOr<Value> init = emptyTensor(rewriter, loc, op, type, {});
    if (failed(init))
      return failure();
    Value start = tensor::ExtractOp::create(rewriter, loc, adaptor.getStart());
    Value step = tensor::ExtractOp::create(rewriter, loc, adaptor.getStep());
    Type element = start.getType();
    bool isUnsigned = type.getElementType().isUnsignedInteger();
    rewriter.replaceOp(
        op, generateElements(
                rewriter, loc, *init, ValueRange{}, {},
                [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange) -> Value {
                  Value i = arith::IndexCastOp::create(b, l, b.getI64Type(), ivs[0]);
                  if (isa<FloatType>(element)) {
                    Value x = arith::SIToFPOp::create(b, l, element, i);
                    return arith::AddFOp::create(b, l, start,
                                                 arith::MulFOp::create(b, l, x, step));
                  }
                  Value x = scalar::convert(b, l, i, element, false, isUnsigned);
                  return arith::AddIOp::create(b, l, start, arith::MulIOp::create(b, l, x, step));
                }));
    return success();
  }
};

/// tensor.from_elements of the dims' sizes.
struct ShapeToTensorToFromElements : OpConversionPattern<ShapeToTensorOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ShapeToTensorOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> sizes;
    for (Attribute dim : op.getDims()) {
      FailureOr<Value> size = sizeOf(rewriter, loc, op, dim);
      if (failed(size))
        return failure();
      sizes.push_back(arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), *size));
    }
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, cast<RankedTensorType>(getTypeConverter()->convertType(op.getType())), sizes);
    return success();
  }
};

/// The input itself (the entry checked the dims).
struct RebindToCast : OpConversionPattern<RebindOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RebindOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    Value input = adaptor.getInput();
    rewriter.replaceOp(op, input.getType() == type
                               ? input
                               : Value(tensor::CastOp::create(rewriter, op.getLoc(),
                                                              type, input)));
    return success();
  }
};

} // namespace

void mo::windowSlices(OpBuilder &b, Location loc, ArrayRef<int64_t> starts,
                      ArrayRef<int64_t> steps, ArrayRef<Attribute> dims,
                      Value sizeSource, SmallVectorImpl<OpFoldResult> &offsets,
                      SmallVectorImpl<OpFoldResult> &sizes,
                      SmallVectorImpl<OpFoldResult> &strides) {
  for (auto [i, start, step, dim] : llvm::enumerate(starts, steps, dims)) {
    offsets.push_back(b.getIndexAttr(start));
    strides.push_back(b.getIndexAttr(step));
    if (isStaticDim(dim))
      sizes.push_back(b.getIndexAttr(getStaticDimSize(dim)));
    else
      sizes.push_back(tensor::getMixedSize(b, loc, sizeSource, i));
  }
}

void mo::populateMoShapeToTensorPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<ReshapeToTensor, TransposeToLinalg, SliceToExtractSlice,
               ConcatToInsertSlices, PadToTensorPad, RangeToLinalg,
               ShapeToTensorToFromElements, RebindToCast>(
      converter, patterns.getContext());
}
