//===- Convolution.cpp - mo convolution and pooling to linalg -------------===//
//
// Padding is a tensor.pad in front of the window op, so the window ops see
// no bounds. mo.conv becomes the upstream named convolution where one has
// its layout: linalg.conv_{1d_nwc_wcf,2d_nhwc_hwcf,3d_ndhwc_dhwcf} for one
// group and linalg.depthwise_conv_*_{wcm,hwcm,dhwcm} for depthwise filters;
// other groupings are one linalg.generic over `[..., G, C/G]` views.
// mo.conv_transpose is a stride-1 mo.conv of the input spread out by the
// stride (zeros between elements), padded by `dilation * (kernel - 1) -
// padding` (a crop where negative), with the filter flipped and its channel
// dims swapped. Pools are linalg.pooling_n*c_{max,sum}; average pooling then
// divides by a constant, or by the per-window count of elements that count.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mo;

/// `size * scale + offset`, folded when `size` is a constant.
static OpFoldResult affineSize(OpBuilder &b, Location loc, OpFoldResult size,
                               int64_t scale, int64_t offset) {
  if (std::optional<int64_t> v = getConstantIntValue(size))
    return b.getIndexAttr(*v * scale + offset);
  Value s = arith::MulIOp::create(
      b, loc, getValueOrCreateConstantIndexOp(b, loc, size),
      arith::ConstantIndexOp::create(b, loc, scale));
  return Value(
      arith::AddIOp::create(b, loc, s, arith::ConstantIndexOp::create(b, loc, offset)));
}

/// `source` padded with `value` by `low[i]`/`high[i]` elements around each
/// spatial dim (dims 1 .. rank-2); `source` itself when there is nothing to
/// pad.
static Value padSpatial(OpBuilder &b, Location loc, Value source,
                        ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                        Value value) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return source;
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> lo(type.getRank(), b.getIndexAttr(0)), hi = lo;
  SmallVector<int64_t> shape(type.getShape());
  for (auto [i, l, h] : llvm::enumerate(low, high)) {
    lo[i + 1] = b.getIndexAttr(l);
    hi[i + 1] = b.getIndexAttr(h);
    if (!ShapedType::isDynamic(shape[i + 1]))
      shape[i + 1] += l + h;
  }
  auto padded = RankedTensorType::get(shape, type.getElementType());
  return tensor::PadOp::create(b, loc, padded, source, lo, hi, value).getResult();
}

/// `init` of `type` (dims of the result) filled with zeros of `acc`.
static FailureOr<Value> zeros(OpBuilder &b, Location loc, Operation *at,
                              mo::TensorType type, ArrayRef<SizeHints> hints,
                              Type acc) {
  FailureOr<Value> empty = emptyTensor(b, loc, at, type, hints, acc);
  if (failed(empty))
    return failure();
  return filled(b, loc, *empty,
                arith::ConstantOp::create(b, loc, b.getZeroAttr(acc)));
}

/// A channels-last convolution of `input` (already padded) with an RSCF
/// `filter` into `resultType`, `groups` groups.
static FailureOr<Value> convolve(OpBuilder &b, Location loc, Operation *at,
                                 Value input, Value filter,
                                 mo::TensorType resultType,
                                 ArrayRef<int64_t> strides,
                                 ArrayRef<int64_t> dilations, int64_t groups) {
  MLIRContext *ctx = b.getContext();
  Type element = convertElementType(resultType.getElementType());
  Type acc = accumulatorType(element);
  int64_t spatial = static_cast<int64_t>(strides.size());
  int64_t rank = spatial + 2;
  auto inType = cast<RankedTensorType>(input.getType());
  auto fType = cast<RankedTensorType>(filter.getType());
  ArrayRef<Attribute> dims = resultType.getDims();
  SmallVector<SizeHints> hints(rank);
  hints[0].push_back({input, 0});
  hints[rank - 1].push_back({filter, rank - 1});
  Attribute stridesAttr = b.getI64TensorAttr(strides);
  Attribute dilationsAttr = b.getI64TensorAttr(dilations);
  int64_t channels = inType.getShape().back();
  int64_t groupChannels = fType.getShape()[spatial];
  int64_t features = fType.getShape().back();

  auto finish = [&](Value result) {
    return acc == element ? result : truncateElements(b, loc, result, element);
  };

  if (groups == 1) {
    FailureOr<Value> init = zeros(b, loc, at, resultType, hints, acc);
    if (failed(init))
      return failure();
    SmallVector<Type> types{init->getType()};
    SmallVector<Value> ins{input, filter}, outs{*init};
    Operation *conv;
    if (spatial == 1)
      conv = linalg::Conv1DNwcWcfOp::create(b, loc, types, ins, outs, stridesAttr,
                                            dilationsAttr);
    else if (spatial == 2)
      conv = linalg::Conv2DNhwcHwcfOp::create(b, loc, types, ins, outs,
                                              stridesAttr, dilationsAttr);
    else
      conv = linalg::Conv3DNdhwcDhwcfOp::create(b, loc, types, ins, outs,
                                                stridesAttr, dilationsAttr);
    return finish(conv->getResult(0));
  }

  // Grouped: channels split as [G, C/G] and features as [G, F/G] (static).
  int64_t featuresPerGroup = features / groups;
  auto expandLast = [&](Value v, int64_t outer, int64_t inner) {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(type.getShape().drop_back());
    shape.append({outer, inner});
    SmallVector<ReassociationIndices> groupsOfDims;
    for (int64_t i = 0; i + 1 < type.getRank(); ++i)
      groupsOfDims.push_back({i});
    groupsOfDims.push_back({type.getRank() - 1, type.getRank()});
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(shape, type.getElementType()), v,
        groupsOfDims);
  };
  SmallVector<Attribute> wideDims(dims.drop_back());
  SmallVector<SizeHints> wideHints(hints.begin(), hints.end() - 1);
  bool depthwise = groupChannels == 1;
  // Depthwise: [spatial..., 1, C * M] is [spatial..., C, M], C = groups.
  wideDims.push_back(getStaticDim(ctx, groups));
  wideDims.push_back(getStaticDim(ctx, featuresPerGroup));
  wideHints.append(2, {});
  auto wideType =
      mo::TensorType::get(ctx, wideDims, resultType.getElementType());
  FailureOr<Value> init = zeros(b, loc, at, wideType, wideHints, acc);
  if (failed(init))
    return failure();
  Value wide;
  if (depthwise && channels == groups) {
    SmallVector<ReassociationIndices> merge;
    for (int64_t i = 0; i < spatial; ++i)
      merge.push_back({i});
    merge.push_back({spatial, spatial + 1});
    Value flat = tensor::CollapseShapeOp::create(b, loc, filter, merge);
    Value f = expandLast(flat, groups, featuresPerGroup);
    SmallVector<Type> types{init->getType()};
    SmallVector<Value> ins{input, f}, outs{*init};
    Operation *conv;
    if (spatial == 1)
      conv = linalg::DepthwiseConv1DNwcWcmOp::create(b, loc, types, ins, outs,
                                                     stridesAttr, dilationsAttr);
    else if (spatial == 2)
      conv = linalg::DepthwiseConv2DNhwcHwcmOp::create(
          b, loc, types, ins, outs, stridesAttr, dilationsAttr);
    else
      conv = linalg::DepthwiseConv3DNdhwcDhwcmOp::create(
          b, loc, types, ins, outs, stridesAttr, dilationsAttr);
    wide = conv->getResult(0);
  } else {
    // Loops (n, o..., g, f, r..., c): out[n, o, g, f] +=
    //   in[n, o * s + r * d, g, c] * filter[r, c, g, f].
    Value in = expandLast(input, groups, channels / groups);
    Value f = expandLast(filter, groups, featuresPerGroup);
    int64_t loops = 2 * spatial + 4;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    AffineExpr n = d(0), g = d(spatial + 1), feature = d(spatial + 2),
               c = d(loops - 1);
    SmallVector<AffineExpr> inExprs{n}, fExprs, outExprs{n};
    for (int64_t i = 0; i < spatial; ++i) {
      AffineExpr o = d(1 + i), r = d(spatial + 3 + i);
      inExprs.push_back(o * strides[i] + r * dilations[i]);
      fExprs.push_back(r);
      outExprs.push_back(o);
    }
    inExprs.append({g, c});
    fExprs.append({c, g, feature});
    outExprs.append({g, feature});
    SmallVector<AffineMap> maps{AffineMap::get(loops, 0, inExprs, ctx),
                                AffineMap::get(loops, 0, fExprs, ctx),
                                AffineMap::get(loops, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(loops,
                                               utils::IteratorType::reduction);
    for (int64_t i = 0; i < spatial + 3; ++i)
      iterators[i] = utils::IteratorType::parallel;
    wide = genericContraction(b, loc, in, f, *init, maps, iterators);
  }
  SmallVector<ReassociationIndices> merge;
  for (int64_t i = 0; i + 1 < rank; ++i)
    merge.push_back({i});
  merge.push_back({rank - 1, rank});
  Value result = tensor::CollapseShapeOp::create(b, loc, wide, merge);
  auto type = RankedTensorType::get(resultType.getStaticShape(), acc);
  if (result.getType() != type)
    result = tensor::CastOp::create(b, loc, type, result);
  return finish(result);
}

namespace {

struct ConvToLinalg : OpConversionPattern<ConvOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type element = getElementTypeOrSelf(input.getType());
    Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    SmallVector<int64_t> low, high;
    for (size_t i = 0; i < op.getPaddings().size(); i += 2) {
      low.push_back(op.getPaddings()[i]);
      high.push_back(op.getPaddings()[i + 1]);
    }
    input = padSpatial(rewriter, loc, input, low, high, zero);
    FailureOr<Value> result =
        convolve(rewriter, loc, op, input, adaptor.getFilter(),
                 cast<mo::TensorType>(op.getType()), op.getStrides(),
                 op.getDilations(), op.getNumGroups());
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

struct ConvTransposeToLinalg : OpConversionPattern<ConvTransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput(), filter = adaptor.getFilter();
    auto inType = cast<RankedTensorType>(input.getType());
    auto fType = cast<RankedTensorType>(filter.getType());
    Type element = inType.getElementType();
    int64_t rank = inType.getRank(), spatial = rank - 2;
    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
    Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));

    // Spread: element j of a spatial dim lands at j * stride, zeros between.
    if (llvm::any_of(strides, [](int64_t s) { return s > 1; })) {
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, input);
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
          steps(rank, rewriter.getIndexAttr(1)), spread = sizes;
      for (int64_t i = 0; i < spatial; ++i) {
        steps[i + 1] = rewriter.getIndexAttr(strides[i]);
        // (size - 1) * stride + 1 (the inferred type guarantees size >= 1).
        spread[i + 1] = affineSize(rewriter, loc, sizes[i + 1], strides[i],
                                   1 - strides[i]);
      }
      Value empty = tensor::EmptyOp::create(rewriter, loc, spread, element);
      input = tensor::InsertSliceOp::create(rewriter, loc, input,
                                            filled(rewriter, loc, empty, zero),
                                            offsets, sizes, steps);
    }
    // Pad by dilation * (kernel - 1) - padding (+ output padding at the
    // end); crop where that is negative.
    SmallVector<int64_t> low(spatial), high(spatial), cropLow(spatial),
        cropHigh(spatial);
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t reach = dilations[i] * (fType.getShape()[i] - 1);
      int64_t lo = reach - op.getPaddings()[2 * i];
      int64_t hi = reach - op.getPaddings()[2 * i + 1] + op.getOutputPaddings()[i];
      low[i] = std::max<int64_t>(lo, 0);
      high[i] = std::max<int64_t>(hi, 0);
      cropLow[i] = std::max<int64_t>(-lo, 0);
      cropHigh[i] = std::max<int64_t>(-hi, 0);
    }
    input = padSpatial(rewriter, loc, input, low, high, zero);
    if (llvm::any_of(cropLow, [](int64_t c) { return c > 0; }) ||
        llvm::any_of(cropHigh, [](int64_t c) { return c > 0; })) {
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, input);
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
          steps(rank, rewriter.getIndexAttr(1));
      for (int64_t i = 0; i < spatial; ++i) {
        offsets[i + 1] = rewriter.getIndexAttr(cropLow[i]);
        sizes[i + 1] = affineSize(rewriter, loc, sizes[i + 1], 1,
                                  -(cropLow[i] + cropHigh[i]));
      }
      input = tensor::ExtractSliceOp::create(rewriter, loc, input, offsets, sizes,
                                             steps);
    }
    // filter[r..., f, c] -> flipped[r..., c, f] = filter[K - 1 - r..., f, c].
    SmallVector<int64_t> shape(fType.getShape());
    std::swap(shape[spatial], shape[spatial + 1]);
    SmallVector<Value> dynamic;
    if (ShapedType::isDynamic(shape[spatial]))
      dynamic.push_back(tensor::DimOp::create(rewriter, loc, filter, spatial + 1));
    if (ShapedType::isDynamic(shape[spatial + 1]))
      dynamic.push_back(tensor::DimOp::create(rewriter, loc, filter, spatial));
    Value init = tensor::EmptyOp::create(rewriter, loc, shape, element, dynamic);
    SmallVector<AffineExpr> read;
    for (int64_t i = 0; i < spatial; ++i)
      read.push_back(fType.getShape()[i] - 1 - getAffineDimExpr(i, ctx));
    read.append({getAffineDimExpr(spatial + 1, ctx), getAffineDimExpr(spatial, ctx)});
    Value flipped =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{init.getType()}, ValueRange{filter},
            ValueRange{init},
            {AffineMap::get(rank, 0, read, ctx), rewriter.getMultiDimIdentityMap(rank)},
            SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
            [](OpBuilder &nb, Location l, ValueRange args) {
              linalg::YieldOp::create(nb, l, args[0]);
            })
            .getResult(0);
    FailureOr<Value> result =
        convolve(rewriter, loc, op, input, flipped, cast<mo::TensorType>(op.getType()),
                 SmallVector<int64_t>(spatial, 1), dilations, 1);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// Pads a pooling input: the op's paddings plus, in ceil mode, whatever the
/// last window reaches past them.
template <typename PoolOp>
static Value padPoolInput(OpBuilder &b, Location loc, PoolOp op, Value input,
                          Value value) {
  auto in = cast<RankedTensorType>(input.getType());
  auto out = cast<mo::TensorType>(op.getType());
  int64_t spatial = in.getRank() - 2;
  SmallVector<int64_t> low, high;
  for (int64_t i = 0; i < spatial; ++i) {
    low.push_back(op.getPaddings()[2 * i]);
    high.push_back(op.getPaddings()[2 * i + 1]);
    if (op.getCeilMode()) { // (static dims: the verifier checked)
      int64_t window = op.getDilations()[i] * (op.getFilterShape()[i] - 1) + 1;
      int64_t reach = (getStaticDimSize(out.getDims()[i + 1]) - 1) *
                          op.getStrides()[i] +
                      window;
      int64_t padded = in.getShape()[i + 1] + low[i] + high[i];
      high[i] += std::max<int64_t>(reach - padded, 0);
    }
  }
  return padSpatial(b, loc, input, low, high, value);
}

/// The named pooling op of `spatial` dims.
template <typename Op1, typename Op2, typename Op3>
static Value pool(OpBuilder &b, Location loc, int64_t spatial, Value input,
                  Value window, Value init, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> dilations) {
  SmallVector<Type> types{init.getType()};
  SmallVector<Value> ins{input, window}, outs{init};
  Attribute s = b.getI64TensorAttr(strides), d = b.getI64TensorAttr(dilations);
  if (spatial == 1)
    return Op1::create(b, loc, types, ins, outs, s, d)->getResult(0);
  if (spatial == 2)
    return Op2::create(b, loc, types, ins, outs, s, d)->getResult(0);
  return Op3::create(b, loc, types, ins, outs, s, d)->getResult(0);
}

template <typename PoolOp>
static FailureOr<Value> poolWindows(OpBuilder &b, Location loc, PoolOp op,
                                    Value input, Value padValue, Type acc,
                                    Value initValue, bool isMax) {
  int64_t spatial = cast<RankedTensorType>(input.getType()).getRank() - 2;
  Value padded = padPoolInput(b, loc, op, input, padValue);
  auto type = cast<mo::TensorType>(op.getType());
  SmallVector<SizeHints> hints(spatial + 2);
  hints[0].push_back({input, 0});
  hints[spatial + 1].push_back({input, spatial + 1});
  FailureOr<Value> empty = emptyTensor(b, loc, op, type, hints, acc);
  if (failed(empty))
    return failure();
  Value init = filled(b, loc, *empty, initValue);
  Value window = tensor::EmptyOp::create(b, loc, op.getFilterShape(),
                                         getElementTypeOrSelf(input.getType()));
  if (isMax)
    return pool<linalg::PoolingNwcMaxOp, linalg::PoolingNhwcMaxOp,
                linalg::PoolingNdhwcMaxOp>(b, loc, spatial, padded, window, init,
                                           op.getStrides(), op.getDilations());
  return pool<linalg::PoolingNwcSumOp, linalg::PoolingNhwcSumOp,
              linalg::PoolingNdhwcSumOp>(b, loc, spatial, padded, window, init,
                                         op.getStrides(), op.getDilations());
}

struct MaxPoolToLinalg : OpConversionPattern<MaxPoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MaxPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(adaptor.getInput().getType());
    Value lowest = arith::getIdentityValue(arith::AtomicRMWKind::maximumf,
                                           element, rewriter, loc);
    FailureOr<Value> result = poolWindows(rewriter, loc, op, adaptor.getInput(),
                                          lowest, element, lowest, true);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

struct AvgPoolToLinalg : OpConversionPattern<AvgPoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AvgPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type element = getElementTypeOrSelf(input.getType());
    Type acc = accumulatorType(element);
    Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(acc));
    Value padZero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    FailureOr<Value> sums =
        poolWindows(rewriter, loc, op, input, padZero, acc, zero, false);
    if (failed(sums))
      return failure();
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    int64_t spatial = rank - 2;
    ArrayRef<int64_t> kernel = op.getFilterShape(), strides = op.getStrides(),
                      dilations = op.getDilations(), paddings = op.getPaddings();
    // Every window holds the whole kernel unless ceil mode lets the last
    // one overhang or the padding does not count.
    bool constant = op.getCountBoundary() && !op.getCeilMode();
    int64_t size = 1;
    for (int64_t k : kernel)
      size *= k;
    SmallVector<Value> extents;
    if (!constant)
      for (int64_t i = 0; i < spatial; ++i)
        extents.push_back(tensor::DimOp::create(rewriter, loc, input, i + 1));
    Value result = mapElements(
        rewriter, loc, *sums, element, [&](OpBuilder &nb, Location l, Value sum) {
          Value count;
          if (constant) {
            count = arith::ConstantOp::create(nb, l, nb.getFloatAttr(acc, size));
          } else {
            // Per spatial dim, the taps r with start + r * d inside
            // [-low, extent + high) (padding counts) or [0, extent).
            Type i64 = nb.getI64Type();
            Value total = arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(1));
            for (int64_t i = 0; i < spatial; ++i) {
              Value o = arith::IndexCastOp::create(
                  nb, l, i64, linalg::IndexOp::create(nb, l, i + 1));
              Value extent = arith::IndexCastOp::create(nb, l, i64, extents[i]);
              auto c = [&](int64_t v) {
                return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v));
              };
              int64_t lo = paddings[2 * i], hi = paddings[2 * i + 1];
              Value start = arith::SubIOp::create(
                  nb, l, arith::MulIOp::create(nb, l, o, c(strides[i])), c(lo));
              Value lower = op.getCountBoundary() ? c(-lo) : c(0);
              Value upper = op.getCountBoundary()
                                ? Value(arith::AddIOp::create(nb, l, extent, c(hi)))
                                : extent;
              Value n = c(0);
              for (int64_t r = 0; r < kernel[i]; ++r) {
                Value at = arith::AddIOp::create(nb, l, start, c(r * dilations[i]));
                Value inside = arith::AndIOp::create(
                    nb, l,
                    arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, at, lower),
                    arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, at, upper));
                n = arith::AddIOp::create(nb, l, n,
                                          arith::ExtUIOp::create(nb, l, i64, inside));
              }
              total = arith::MulIOp::create(nb, l, total, n);
            }
            count = arith::SIToFPOp::create(nb, l, acc, total);
          }
          Value mean = arith::DivFOp::create(nb, l, sum, count);
          return acc == element ? mean
                                : Value(arith::TruncFOp::create(nb, l, element, mean));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mo::populateMoConvolutionToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<ConvToLinalg, ConvTransposeToLinalg, MaxPoolToLinalg,
               AvgPoolToLinalg>(converter, patterns.getContext());
}
