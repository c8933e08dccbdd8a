//===- Index.cpp - mo gathers, scatters and top-k to linalg/scf -----------===//
//
// Gathers are one parallel linalg.generic over the result whose body reads
// the index and then the input with tensor.extract (an index is wrapped
// when negative, then clamped; an empty source dim yields zero without a
// read). Scatters are loop nests (scf.for) over the updates that carry the
// result tensor and tensor.insert into it, so that bufferization updates
// one buffer in place; an update whose index is out of range is dropped.
// top_k keeps, per row, the best k so far sorted in the result (an
// insertion into a sorted buffer of k: O(n) per row when few elements
// qualify, O(n * k) at worst). roi_align is a parallel generic whose
// elements loop over their bin's samples. nonzero and non-maximum
// suppression fill a buffer of rows in loops and bind the row count as a
// dim (`mo.binds` on the op that makes the result; see sizeOf).
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"
#include "mo/Dialect/MoScalar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mo;

/// An index element as an `index` (sign- or zero-extended by its mo type),
/// counted from the end when negative.
static Value wrapIndex(OpBuilder &b, Location loc, Value raw, Type moElement,
                       Value size) {
  Type indexType = b.getIndexType();
  if (moElement.isUnsignedInteger())
    return arith::IndexCastUIOp::create(b, loc, indexType, raw);
  Value i = arith::IndexCastOp::create(b, loc, indexType, raw);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
  return arith::SelectOp::create(b, loc, negative,
                                 arith::AddIOp::create(b, loc, i, size), i);
}

/// `i` clamped to [0, size - 1] (0 when size is 0; callers do not read then).
static Value clampIndex(OpBuilder &b, Location loc, Value i, Value size) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value last = arith::MaxSIOp::create(b, loc, arith::SubIOp::create(b, loc, size, one),
                                      zero);
  return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, i, zero), last);
}

/// 0 <= i < size.
static Value inRange(OpBuilder &b, Location loc, Value i, Value size) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, size));
}

/// The `k` components of the index vector `indices[lead..., :]`, each wrapped
/// when negative against `sizes[j]` (mo element type `element`).
static SmallVector<Value> indexVector(OpBuilder &b, Location loc, Value indices,
                                      ValueRange lead, Type element,
                                      ArrayRef<Value> sizes) {
  SmallVector<Value> at(lead), vector;
  at.push_back(Value());
  for (auto [j, size] : llvm::enumerate(sizes)) {
    at.back() = arith::ConstantIndexOp::create(b, loc, j);
    Value raw = tensor::ExtractOp::create(b, loc, indices, at);
    vector.push_back(wrapIndex(b, loc, raw, element, size));
  }
  return vector;
}

/// `source[coords]`, or zero without a read when `readable` is false.
static Value guardedExtract(OpBuilder &b, Location loc, Value source,
                            ValueRange coords, Value readable) {
  Type element = getElementTypeOrSelf(source.getType());
  if (!readable)
    return tensor::ExtractOp::create(b, loc, source, coords);
  auto guard = scf::IfOp::create(
      b, loc, readable,
      [&](OpBuilder &nb, Location l) {
        scf::YieldOp::create(nb, l, Value(tensor::ExtractOp::create(nb, l, source, coords)));
      },
      [&](OpBuilder &nb, Location l) {
        scf::YieldOp::create(
            nb, l, Value(arith::ConstantOp::create(nb, l, nb.getZeroAttr(element))));
      });
  return guard.getResult(0);
}

/// `size > 0` for a dim that may be empty, none for a static non-empty one.
static Value nonEmpty(OpBuilder &b, Location loc, Value source, int64_t axis) {
  int64_t size = cast<RankedTensorType>(source.getType()).getDimSize(axis);
  if (size > 0)
    return {};
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                               tensor::DimOp::create(b, loc, source, axis),
                               arith::ConstantIndexOp::create(b, loc, 0));
}

/// `old` combined with `update` by `reduction` (mo element type `element`).
static Value combine(OpBuilder &b, Location loc, ScatterReduction reduction,
                     Value old, Value update, Type element) {
  if (reduction == ScatterReduction::None)
    return update;
  bool isFloat = isa<FloatType>(element), isBool = element.isSignlessInteger(1);
  bool isUnsigned = element.isUnsignedInteger();
  Value x = loadScalar(b, loc, old, element), y = loadScalar(b, loc, update, element);
  Value r;
  switch (reduction) {
  case ScatterReduction::Add:
    r = isFloat  ? Value(arith::AddFOp::create(b, loc, x, y))
        : isBool ? Value(arith::OrIOp::create(b, loc, x, y))
                 : Value(arith::AddIOp::create(b, loc, x, y));
    break;
  case ScatterReduction::Mul:
    r = isFloat  ? Value(arith::MulFOp::create(b, loc, x, y))
        : isBool ? Value(arith::AndIOp::create(b, loc, x, y))
                 : Value(arith::MulIOp::create(b, loc, x, y));
    break;
  case ScatterReduction::Max:
    r = isFloat                 ? Value(arith::MaximumFOp::create(b, loc, x, y))
        : isUnsigned || isBool ? Value(arith::MaxUIOp::create(b, loc, x, y))
                                : Value(arith::MaxSIOp::create(b, loc, x, y));
    break;
  case ScatterReduction::Min:
    r = isFloat                 ? Value(arith::MinimumFOp::create(b, loc, x, y))
        : isUnsigned || isBool ? Value(arith::MinUIOp::create(b, loc, x, y))
                                : Value(arith::MinSIOp::create(b, loc, x, y));
    break;
  case ScatterReduction::None:
    break;
  }
  return storeScalar(b, loc, r);
}

/// Loops over every element of `updates` carrying `result`; `target` maps
/// the loop indices to the result coordinates and whether they are valid.
static Value scatterLoops(
    OpBuilder &b, Location loc, Value result, Value updates,
    ScatterReduction reduction, Type element,
    function_ref<std::pair<SmallVector<Value>, Value>(OpBuilder &, Location,
                                                      ValueRange)>
        target) {
  int64_t rank = cast<RankedTensorType>(updates.getType()).getRank();
  SmallVector<Value> lbs, ubs, steps;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = 0; d < rank; ++d) {
    lbs.push_back(zero);
    ubs.push_back(tensor::DimOp::create(b, loc, updates, d));
    steps.push_back(one);
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{result},
      [&](OpBuilder &nb, Location l, ValueRange ivs, ValueRange carried) {
        Value current = carried[0];
        auto [coords, valid] = target(nb, l, ivs);
        Value update = tensor::ExtractOp::create(nb, l, updates, ivs);
        auto write = [&](OpBuilder &wb, Location wl) {
          Value old = tensor::ExtractOp::create(wb, wl, current, coords);
          Value value = combine(wb, wl, reduction, old, update, element);
          return Value(tensor::InsertOp::create(wb, wl, value, current, coords));
        };
        if (!valid)
          return scf::ValueVector{write(nb, l)};
        auto guard = scf::IfOp::create(
            nb, l, valid,
            [&](OpBuilder &tb, Location tl) { scf::YieldOp::create(tb, tl, write(tb, tl)); },
            [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, current); });
        return scf::ValueVector{guard.getResult(0)};
      });
  return nest.results[0];
}

namespace {

struct GatherToLinalg : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto type = cast<mo::TensorType>(op.getType());
    int64_t axis = op.getAxis();
    int64_t indexRank = cast<RankedTensorType>(indices.getType()).getRank();
    int64_t rank = type.getRank();
    SmallVector<SizeHints> hints(rank);
    for (int64_t d = 0; d < rank; ++d) {
      if (d < axis)
        hints[d].push_back({input, d});
      else if (d < axis + indexRank)
        hints[d].push_back({indices, d - axis});
      else
        hints[d].push_back({input, d - indexRank + 1});
    }
    FailureOr<Value> init = emptyTensor(rewriter, loc, op, type, hints);
    if (failed(init))
      return failure();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < indexRank; ++d)
      exprs.push_back(getAffineDimExpr(axis + d, ctx));
    Type indexElement = cast<mo::TensorType>(op.getIndices().getType()).getElementType();
    Value size = tensor::DimOp::create(rewriter, loc, input, axis);
    Value readable = nonEmpty(rewriter, loc, input, axis);
    Value result = generateElements(
        rewriter, loc, *init, ValueRange{indices},
        {AffineMap::get(rank, 0, exprs, ctx)},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange args) {
          Value i = clampIndex(b, l, wrapIndex(b, l, args[0], indexElement, size), size);
          SmallVector<Value> coords(ivs.take_front(axis));
          coords.push_back(i);
          llvm::append_range(coords, ivs.drop_front(axis + indexRank));
          return guardedExtract(b, l, input, coords, readable);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherNdToLinalg : OpConversionPattern<GatherNdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto type = cast<mo::TensorType>(op.getType());
    auto indexType = cast<RankedTensorType>(indices.getType());
    int64_t batch = op.getBatchDims(), lead = indexType.getRank() - 1;
    int64_t k = indexType.getShape().back();
    int64_t rank = type.getRank();
    SmallVector<SizeHints> hints(rank);
    for (int64_t d = 0; d < rank; ++d) {
      if (d < lead)
        hints[d].push_back({indices, d});
      else
        hints[d].push_back({input, d - lead + batch + k});
    }
    FailureOr<Value> init = emptyTensor(rewriter, loc, op, type, hints);
    if (failed(init))
      return failure();
    Type indexElement = cast<mo::TensorType>(op.getIndices().getType()).getElementType();
    SmallVector<Value> sizes;
    Value readable;
    for (int64_t j = 0; j < k; ++j) {
      sizes.push_back(tensor::DimOp::create(rewriter, loc, input, batch + j));
      if (Value ok = nonEmpty(rewriter, loc, input, batch + j))
        readable = readable ? Value(arith::AndIOp::create(rewriter, loc, readable, ok)) : ok;
    }
    Value result = generateElements(
        rewriter, loc, *init, ValueRange{}, {},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange) {
          SmallVector<Value> coords(ivs.take_front(batch));
          for (auto [i, size] : llvm::zip(
                   indexVector(b, l, indices, ivs.take_front(lead), indexElement, sizes), sizes))
            coords.push_back(clampIndex(b, l, i, size));
          llvm::append_range(coords, ivs.drop_front(lead));
          return guardedExtract(b, l, input, coords, readable);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ScatterToLoops : OpConversionPattern<ScatterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    int64_t axis = op.getAxis();
    Type element = cast<mo::TensorType>(op.getType()).getElementType();
    Type indexElement = cast<mo::TensorType>(op.getIndices().getType()).getElementType();
    Value size = tensor::DimOp::create(rewriter, loc, input, axis);
    Value result = scatterLoops(
        rewriter, loc, input, adaptor.getUpdates(), op.getReduction(), element,
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value raw = tensor::ExtractOp::create(b, l, indices, ivs);
          Value i = wrapIndex(b, l, raw, indexElement, size);
          SmallVector<Value> coords(ivs);
          coords[axis] = i;
          return std::make_pair(coords, inRange(b, l, i, size));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ScatterNdToLoops : OpConversionPattern<ScatterNdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScatterNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto indexType = cast<RankedTensorType>(indices.getType());
    int64_t lead = indexType.getRank() - 1, k = indexType.getShape().back();
    Type element = cast<mo::TensorType>(op.getType()).getElementType();
    Type indexElement = cast<mo::TensorType>(op.getIndices().getType()).getElementType();
    SmallVector<Value> sizes;
    for (int64_t j = 0; j < k; ++j)
      sizes.push_back(tensor::DimOp::create(rewriter, loc, input, j));
    Value result = scatterLoops(
        rewriter, loc, input, adaptor.getUpdates(), op.getReduction(), element,
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          SmallVector<Value> coords =
              indexVector(b, l, indices, ivs.take_front(lead), indexElement, sizes);
          Value valid;
          for (auto [i, size] : llvm::zip(coords, sizes)) {
            Value ok = inRange(b, l, i, size);
            valid = valid ? Value(arith::AndIOp::create(b, l, valid, ok)) : ok;
          }
          llvm::append_range(coords, ivs.drop_front(lead));
          return std::make_pair(coords, valid);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Whether `x` sorts before `y`: greater first (largest) or smaller first,
/// NaN as the largest value.
static Value sortsBefore(OpBuilder &b, Location loc, Value x, Value y,
                         Type element, bool largest) {
  if (largest)
    return scalar::isBetter(b, loc, x, y, element, true);
  if (!isa<FloatType>(element))
    return scalar::isBetter(b, loc, x, y, element, false);
  Value less = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
  Value yNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, y, y);
  Value xNumber = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, x, x);
  return arith::OrIOp::create(b, loc, less,
                              arith::AndIOp::create(b, loc, yNan, xNumber));
}

struct TopKToLoops : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    auto valuesType = cast<mo::TensorType>(op.getValues().getType());
    auto indicesType = cast<mo::TensorType>(op.getIndices().getType());
    Type element = valuesType.getElementType();
    int64_t rank = inType.getRank(), k = op.getK();
    int64_t n = inType.getShape().back();
    SmallVector<SizeHints> hints(rank);
    for (int64_t d = 0; d + 1 < rank; ++d)
      hints[d].push_back({input, d});
    FailureOr<Value> values = emptyTensor(rewriter, loc, op, valuesType, hints);
    FailureOr<Value> indices = emptyTensor(rewriter, loc, op, indicesType, hints);
    if (failed(values) || failed(indices))
      return failure();
    if (k == 0) {
      rewriter.replaceOp(op, {*values, *indices});
      return success();
    }
    // Rows: [rows, n] views (a rank-1 input is one row).
    auto rows = [&](Value v) -> Value {
      auto t = cast<RankedTensorType>(v.getType());
      if (rank == 1)
        return tensor::ExpandShapeOp::create(
            rewriter, loc, RankedTensorType::get({1, t.getDimSize(0)}, t.getElementType()),
            v, ArrayRef<ReassociationIndices>{{0, 1}});
      if (rank == 2)
        return v;
      ReassociationIndices outer;
      for (int64_t d = 0; d + 1 < rank; ++d)
        outer.push_back(d);
      return tensor::CollapseShapeOp::create(
          rewriter, loc, v, ArrayRef<ReassociationIndices>{outer, {rank - 1}});
    };
    Value in = rows(input), vals = rows(*values), idxs = rows(*indices);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value kv = arith::ConstantIndexOp::create(rewriter, loc, k);
    Value lastSlot = arith::ConstantIndexOp::create(rewriter, loc, k - 1);
    Value count = tensor::DimOp::create(rewriter, loc, in, 0);
    Value width = arith::ConstantIndexOp::create(rewriter, loc, n);
    bool largest = op.getLargest();
    Type i64 = rewriter.getI64Type();

    auto rowLoop = scf::ForOp::create(
        rewriter, loc, zero, count, one, ValueRange{vals, idxs},
        [&](OpBuilder &b, Location l, Value row, ValueRange rowArgs) {
          auto colLoop = scf::ForOp::create(
              b, l, zero, width, one, rowArgs,
              [&](OpBuilder &cb, Location cl, Value j, ValueRange args) {
                Value v = args[0], ix = args[1];
                Value x = tensor::ExtractOp::create(cb, cl, in, ValueRange{row, j});
                Value filled = arith::MinSIOp::create(cb, cl, j, kv);
                Value notFull =
                    arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::slt, filled, kv);
                Value worst = tensor::ExtractOp::create(cb, cl, v, ValueRange{row, lastSlot});
                Value enters = arith::OrIOp::create(
                    cb, cl, notFull, sortsBefore(cb, cl, x, worst, element, largest));
                auto insert = scf::IfOp::create(
                    cb, cl, enters,
                    [&](OpBuilder &tb, Location tl) {
                      // Its slot: after every kept value it does not beat.
                      auto scan = scf::ForOp::create(
                          tb, tl, zero, filled, one, ValueRange{zero},
                          [&](OpBuilder &sb, Location sl, Value q, ValueRange p) {
                            Value kept = tensor::ExtractOp::create(sb, sl, v, ValueRange{row, q});
                            Value stays = arith::XOrIOp::create(
                                sb, sl, sortsBefore(sb, sl, x, kept, element, largest),
                                arith::ConstantIntOp::create(sb, sl, 1, 1));
                            Value next = arith::AddIOp::create(
                                sb, sl, p[0], arith::IndexCastOp::create(
                                                  sb, sl, sb.getIndexType(),
                                                  arith::ExtUIOp::create(sb, sl, i64, stays)));
                            scf::YieldOp::create(sb, sl, next);
                          });
                      Value slot = scan.getResult(0);
                      // Shift [slot, last) one down (the worst falls off when full).
                      Value last = arith::MinSIOp::create(tb, tl, filled, lastSlot);
                      Value moves = arith::SubIOp::create(tb, tl, last, slot);
                      auto shift = scf::ForOp::create(
                          tb, tl, zero, moves, one, ValueRange{v, ix},
                          [&](OpBuilder &mb, Location ml, Value t, ValueRange s) {
                            Value to = arith::SubIOp::create(mb, ml, last, t);
                            Value from = arith::SubIOp::create(mb, ml, to, one);
                            SmallVector<Value> moved;
                            for (Value buf : s) {
                              Value e = tensor::ExtractOp::create(mb, ml, buf,
                                                                  ValueRange{row, from});
                              moved.push_back(tensor::InsertOp::create(mb, ml, e, buf,
                                                                       ValueRange{row, to}));
                            }
                            scf::YieldOp::create(mb, ml, moved);
                          });
                      Value at = arith::IndexCastOp::create(tb, tl, i64, j);
                      Value nv = tensor::InsertOp::create(tb, tl, x, shift.getResult(0),
                                                          ValueRange{row, slot});
                      Value ni = tensor::InsertOp::create(tb, tl, at, shift.getResult(1),
                                                          ValueRange{row, slot});
                      scf::YieldOp::create(tb, tl, ValueRange{nv, ni});
                    },
                    [&](OpBuilder &eb, Location el) {
                      scf::YieldOp::create(eb, el, ValueRange{v, ix});
                    });
                scf::YieldOp::create(cb, cl, insert.getResults());
              });
          scf::YieldOp::create(b, l, colLoop.getResults());
        });
    auto back = [&](Value v, Value like) -> Value {
      auto t = cast<RankedTensorType>(like.getType());
      if (rank == 2)
        return v;
      if (rank == 1)
        return tensor::CollapseShapeOp::create(rewriter, loc, t, v,
                                               ArrayRef<ReassociationIndices>{{0, 1}});
      ReassociationIndices outer;
      for (int64_t d = 0; d + 1 < rank; ++d)
        outer.push_back(d);
      SmallVector<OpFoldResult> shape = tensor::getMixedSizes(rewriter, loc, like);
      return expandTo(rewriter, loc, t, v, ArrayRef<ReassociationIndices>{outer, {rank - 1}},
                      shape);
    };
    rewriter.replaceOp(op, {back(rowLoop.getResult(0), *values),
                            back(rowLoop.getResult(1), *indices)});
    return success();
  }
};

/// ROI Align as one parallel generic over [M, oh, ow, C]; each element
/// loops over its bin's sample grid (scf.for) and reads four clamped taps
/// per sample, weighted 0 where the sample is off the image.
struct RoiAlignToLinalg : OpConversionPattern<RoiAlignOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RoiAlignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), rois = adaptor.getRois();
    auto type = cast<mo::TensorType>(op.getType());
    SmallVector<SizeHints> hints(4);
    hints[0].push_back({rois, 0});
    hints[3].push_back({input, 3});
    FailureOr<Value> init = emptyTensor(rewriter, loc, op, type, hints);
    if (failed(init))
      return failure();
    auto element = cast<FloatType>(getElementTypeOrSelf(input.getType()));
    auto f = cast<FloatType>(accumulatorType(element));
    Value batches = tensor::DimOp::create(rewriter, loc, input, 0);
    Value height = tensor::DimOp::create(rewriter, loc, input, 1);
    Value width = tensor::DimOp::create(rewriter, loc, input, 2);
    Value readable = nonEmpty(rewriter, loc, input, 0);
    for (int64_t d : {1, 2})
      if (Value ok = nonEmpty(rewriter, loc, input, d))
        readable = readable ? Value(arith::AndIOp::create(rewriter, loc, readable, ok)) : ok;
    int64_t oh = op.getOutputHeight(), ow = op.getOutputWidth();
    int64_t ratio = op.getSamplingRatio();
    bool isMax = op.getMode() == "max";
    double offset = op.getAligned() ? 0.5 : 0.0;
    Value result = generateElements(
        rewriter, loc, *init, ValueRange{}, {},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange) -> Value {
          auto c = [&](double v) { return arith::ConstantOp::create(b, l, b.getFloatAttr(f, v)); };
          auto ci = [&](int64_t v) { return arith::ConstantIndexOp::create(b, l, v); };
          auto wide = [&](Value v) {
            return v.getType() == f ? v : Value(arith::ExtFOp::create(b, l, f, v));
          };
          auto roi = [&](int64_t k) {
            return wide(tensor::ExtractOp::create(b, l, rois, ValueRange{ivs[0], ci(k)}));
          };
          auto toFloat = [&](Value index) {
            return arith::SIToFPOp::create(
                b, l, f, arith::IndexCastOp::create(b, l, b.getI64Type(), index));
          };
          Value batch = arith::IndexCastOp::create(
              b, l, b.getIndexType(), arith::FPToSIOp::create(b, l, b.getI64Type(), roi(0)));
          batch = clampIndex(b, l, batch, batches);
          Value scale = c(op.getSpatialScale().convertToDouble());
          auto corner = [&](int64_t k) {
            return arith::SubFOp::create(b, l, arith::MulFOp::create(b, l, roi(k), scale),
                                         c(offset));
          };
          Value x0 = corner(1), y0 = corner(2), x1 = corner(3), y1 = corner(4);
          Value rw = arith::SubFOp::create(b, l, x1, x0);
          Value rh = arith::SubFOp::create(b, l, y1, y0);
          if (!op.getAligned()) { // at least one pixel
            rw = arith::MaximumFOp::create(b, l, rw, c(1.0));
            rh = arith::MaximumFOp::create(b, l, rh, c(1.0));
          }
          Value binH = arith::DivFOp::create(b, l, rh, c(double(oh)));
          Value binW = arith::DivFOp::create(b, l, rw, c(double(ow)));
          auto gridOf = [&](Value bin) -> Value {
            if (ratio > 0)
              return ci(ratio);
            Value n = math::CeilOp::create(b, l, bin);
            Value i = arith::IndexCastOp::create(
                b, l, b.getIndexType(), arith::FPToSIOp::create(b, l, b.getI64Type(), n));
            return arith::MaxSIOp::create(b, l, i, ci(0));
          };
          Value gridH = gridOf(binH), gridW = gridOf(binW);
          Value startY = arith::AddFOp::create(
              b, l, y0, arith::MulFOp::create(b, l, toFloat(ivs[1]), binH));
          Value startX = arith::AddFOp::create(
              b, l, x0, arith::MulFOp::create(b, l, toFloat(ivs[2]), binW));
          Value stepY = arith::DivFOp::create(b, l, binH, toFloat(gridH));
          Value stepX = arith::DivFOp::create(b, l, binW, toFloat(gridW));
          Value hF = toFloat(height), wF = toFloat(width);
          Value first = isMax ? c(-std::numeric_limits<double>::infinity()) : c(0.0);
          auto rows = scf::ForOp::create(
              b, l, ci(0), gridH, ci(1), ValueRange{first},
              [&](OpBuilder &yb, Location yl, Value iy, ValueRange accY) {
                Value y = arith::AddFOp::create(
                    yb, yl, startY,
                    arith::MulFOp::create(
                        yb, yl, arith::AddFOp::create(yb, yl, toFloat(iy), c(0.5)), stepY));
                auto cols = scf::ForOp::create(
                    yb, yl, ci(0), gridW, ci(1), accY,
                    [&](OpBuilder &xb, Location xl, Value ix, ValueRange acc) {
                      Value x = arith::AddFOp::create(
                          xb, xl, startX,
                          arith::MulFOp::create(
                              xb, xl, arith::AddFOp::create(xb, xl, toFloat(ix), c(0.5)),
                              stepX));
                      Value v = bilinear(xb, xl, input, batch, ivs[3], y, x, height, width, hF,
                                         wF, f, readable);
                      Value next = isMax ? Value(arith::MaximumFOp::create(xb, xl, acc[0], v))
                                         : Value(arith::AddFOp::create(xb, xl, acc[0], v));
                      scf::YieldOp::create(xb, xl, next);
                    });
                scf::YieldOp::create(yb, yl, cols.getResults());
              });
          Value total = rows.getResult(0);
          Value count = arith::MulIOp::create(b, l, gridH, gridW);
          Value empty = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, count, ci(0));
          Value out = isMax ? total
                            : Value(arith::DivFOp::create(
                                  b, l, total,
                                  toFloat(arith::MaxSIOp::create(b, l, count, ci(1)))));
          out = arith::SelectOp::create(b, l, empty, c(0.0), out);
          return f == element ? out : Value(arith::TruncFOp::create(b, l, element, out));
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  /// torchvision's bilinear_interpolate at (y, x) of image `batch`, channel
  /// `channel`: 0 off the image, else the four clamped taps' weighted sum.
  static Value bilinear(OpBuilder &b, Location l, Value input, Value batch, Value channel,
                        Value y, Value x, Value height, Value width, Value hF, Value wF,
                        FloatType f, Value readable) {
    auto c = [&](double v) { return arith::ConstantOp::create(b, l, b.getFloatAttr(f, v)); };
    using P = arith::CmpFPredicate;
    Value off = arith::OrIOp::create(
        b, l,
        arith::OrIOp::create(b, l, arith::CmpFOp::create(b, l, P::OLT, y, c(-1.0)),
                             arith::CmpFOp::create(b, l, P::OGT, y, hF)),
        arith::OrIOp::create(b, l, arith::CmpFOp::create(b, l, P::OLT, x, c(-1.0)),
                             arith::CmpFOp::create(b, l, P::OGT, x, wF)));
    Value one = arith::ConstantIndexOp::create(b, l, 1);
    // Per axis: the low tap, the high tap and the weight of the high one.
    auto axis = [&](Value v, Value size) {
      v = arith::MaximumFOp::create(b, l, v, c(0.0));
      Value low = arith::IndexCastOp::create(
          b, l, b.getIndexType(), arith::FPToSIOp::create(b, l, b.getI64Type(), v));
      Value last = arith::SubIOp::create(b, l, size, one);
      Value atEnd = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, low, last);
      Value lowC = clampIndex(b, l, low, size);
      Value high = clampIndex(b, l, arith::AddIOp::create(b, l, low, one), size);
      Value frac = arith::SubFOp::create(
          b, l, v,
          arith::SIToFPOp::create(b, l, f,
                                  arith::IndexCastOp::create(b, l, b.getI64Type(), lowC)));
      frac = arith::SelectOp::create(b, l, atEnd, c(0.0), frac);
      return std::make_tuple(lowC, high, frac);
    };
    auto [yl, yh, ly] = axis(y, height);
    auto [xl, xh, lx] = axis(x, width);
    Value hy = arith::SubFOp::create(b, l, c(1.0), ly);
    Value hx = arith::SubFOp::create(b, l, c(1.0), lx);
    auto tap = [&](Value yi, Value xi, Value w1, Value w2) {
      Value v = guardedExtract(b, l, input, ValueRange{batch, yi, xi, channel}, readable);
      if (v.getType() != f)
        v = arith::ExtFOp::create(b, l, f, v);
      return arith::MulFOp::create(b, l, arith::MulFOp::create(b, l, w1, w2), v);
    };
    Value sum = arith::AddFOp::create(
        b, l,
        arith::AddFOp::create(b, l, tap(yl, xl, hy, hx), tap(yl, xh, hy, lx)),
        arith::AddFOp::create(b, l, tap(yh, xl, ly, hx), tap(yh, xh, ly, lx)));
    return arith::SelectOp::create(b, l, off, c(0.0), sum);
  }
};

/// nonzero: count the non-zero elements (a reduction), then one loop nest
/// over the input that inserts each one's coordinates at a running row. The
/// nest is marked `mo.binds` with the dim it sizes, which later ops read.
struct NonzeroToLoops : OpConversionPattern<NonzeroOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NonzeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    Type element = cast<mo::TensorType>(op.getInput().getType()).getElementType();
    int64_t rank = inType.getRank();
    Type i64 = rewriter.getI64Type();
    auto isSet = [&](OpBuilder &b, Location l, Value v) -> Value {
      v = loadScalar(b, l, v, element);
      if (isa<FloatType>(v.getType()))
        return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v,
                                     arith::ConstantOp::create(b, l, b.getZeroAttr(v.getType())));
      return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, v,
                                   arith::ConstantOp::create(b, l, b.getZeroAttr(v.getType())));
    };
    // The count.
    Value zero64 = arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(0));
    Value acc = filled(
        rewriter, loc, tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{}, i64), zero64);
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(rank),
                                AffineMap::get(rank, 0, {}, rewriter.getContext())};
    Value counted =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{acc.getType()}, ValueRange{input}, ValueRange{acc}, maps,
            SmallVector<utils::IteratorType>(rank, utils::IteratorType::reduction),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value one = arith::ExtUIOp::create(b, l, i64, isSet(b, l, args[0]));
              linalg::YieldOp::create(b, l, Value(arith::AddIOp::create(b, l, args[1], one)));
            })
            .getResult(0);
    Value count = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), tensor::ExtractOp::create(rewriter, loc, counted));
    auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value rows = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), i64,
                                         ValueRange{count});
    // The coordinates, in row-major order.
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> lbs(rank, zero), steps(rank, one), ubs;
    for (int64_t d = 0; d < rank; ++d)
      ubs.push_back(tensor::DimOp::create(rewriter, loc, input, d));
    Value result = rows;
    if (rank > 0) {
      scf::LoopNest nest = scf::buildLoopNest(
          rewriter, loc, lbs, ubs, steps, ValueRange{rows, zero},
          [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange carried) {
            Value x = tensor::ExtractOp::create(b, l, input, ivs);
            auto put = scf::IfOp::create(
                b, l, isSet(b, l, x),
                [&](OpBuilder &tb, Location tl) {
                  Value t = carried[0];
                  for (auto [d, iv] : llvm::enumerate(ivs))
                    t = tensor::InsertOp::create(
                        tb, tl, arith::IndexCastOp::create(tb, tl, i64, iv), t,
                        ValueRange{carried[1], arith::ConstantIndexOp::create(tb, tl, d)});
                  Value next = arith::AddIOp::create(tb, tl, carried[1],
                                                     arith::ConstantIndexOp::create(tb, tl, 1));
                  scf::YieldOp::create(tb, tl, ValueRange{t, next});
                },
                [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, carried); });
            return scf::ValueVector(put.getResults().begin(), put.getResults().end());
          });
      nest.loops.front()->setAttr("mo.binds", op.getBoundDim());
      result = nest.results[0];
    } else {
      rows.getDefiningOp()->setAttr("mo.binds", op.getBoundDim());
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Non-maximum suppression: per (batch, class), a scf.while that picks the
/// best score not yet suppressed (above the threshold), records it and
/// suppresses every box overlapping it by more than the IoU threshold;
/// rows go into a buffer of B * C * N rows whose prefix is the result.
struct NonMaxSuppressionToLoops : OpConversionPattern<NonMaxSuppressionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NonMaxSuppressionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value boxes = adaptor.getBoxes(), scores = adaptor.getScores();
    auto element = cast<FloatType>(getElementTypeOrSelf(boxes.getType()));
    auto f = cast<FloatType>(accumulatorType(element));
    Type i64 = rewriter.getI64Type(), i8 = rewriter.getI8Type();
    auto ci = [&](OpBuilder &b, Location l, int64_t v) {
      return arith::ConstantIndexOp::create(b, l, v);
    };
    auto wide = [&](OpBuilder &b, Location l, Value v) {
      return v.getType() == f ? v : Value(arith::ExtFOp::create(b, l, f, v));
    };
    // (index_cast sign-extends a narrower limit.)
    Value limit = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(),
        tensor::ExtractOp::create(rewriter, loc, adaptor.getMaxOutputBoxesPerClass()));
    Value iouMax = wide(rewriter, loc,
                        tensor::ExtractOp::create(rewriter, loc, adaptor.getIouThreshold()));
    Value scoreMin = wide(rewriter, loc,
                          tensor::ExtractOp::create(rewriter, loc, adaptor.getScoreThreshold()));
    Value batches = tensor::DimOp::create(rewriter, loc, scores, 0);
    Value classes = tensor::DimOp::create(rewriter, loc, scores, 1);
    Value n = tensor::DimOp::create(rewriter, loc, scores, 2);
    Value capacity = arith::MulIOp::create(rewriter, loc,
                                           arith::MulIOp::create(rewriter, loc, batches, classes),
                                           n);
    Value rows = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{ShapedType::kDynamic, 3},
                                         i64, ValueRange{capacity});
    Value zero = ci(rewriter, loc, 0), one = ci(rewriter, loc, 1);

    // The IoU of boxes i and j of batch `b` (corners in any order).
    auto iou = [&](OpBuilder &bb, Location l, Value b, Value i, Value j) {
      auto corner = [&](Value box, int64_t k) {
        return wide(bb, l, tensor::ExtractOp::create(bb, l, boxes,
                                                     ValueRange{b, box, ci(bb, l, k)}));
      };
      auto span = [&](Value box, int64_t k) {
        Value a = corner(box, k), c = corner(box, k + 2);
        return std::make_pair(Value(arith::MinimumFOp::create(bb, l, a, c)),
                              Value(arith::MaximumFOp::create(bb, l, a, c)));
      };
      auto [y0i, y1i] = span(i, 0);
      auto [x0i, x1i] = span(i, 1);
      auto [y0j, y1j] = span(j, 0);
      auto [x0j, x1j] = span(j, 1);
      Value zf = arith::ConstantOp::create(bb, l, bb.getFloatAttr(f, 0.0));
      auto overlap = [&](Value lo0, Value hi0, Value lo1, Value hi1) {
        Value d = arith::SubFOp::create(bb, l, arith::MinimumFOp::create(bb, l, hi0, hi1),
                                        arith::MaximumFOp::create(bb, l, lo0, lo1));
        return arith::MaximumFOp::create(bb, l, d, zf);
      };
      Value inter = arith::MulFOp::create(bb, l, overlap(y0i, y1i, y0j, y1j),
                                          overlap(x0i, x1i, x0j, x1j));
      auto area = [&](Value y0, Value y1, Value x0, Value x1) {
        return arith::MulFOp::create(bb, l, arith::SubFOp::create(bb, l, y1, y0),
                                     arith::SubFOp::create(bb, l, x1, x0));
      };
      Value uni = arith::SubFOp::create(
          bb, l,
          arith::AddFOp::create(bb, l, area(y0i, y1i, x0i, x1i), area(y0j, y1j, x0j, x1j)),
          inter);
      Value positive = arith::CmpFOp::create(bb, l, arith::CmpFPredicate::OGT, uni, zf);
      return arith::SelectOp::create(bb, l, positive,
                                     arith::DivFOp::create(bb, l, inter, uni), zf);
    };

    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, {zero, zero}, {batches, classes}, {one, one}, ValueRange{rows, zero},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange carried) {
          Value bi = ivs[0], ci0 = ivs[1];
          // Per class: which boxes are taken or suppressed.
          Value marks = filled(
              b, l,
              tensor::EmptyOp::create(b, l, ArrayRef<int64_t>{ShapedType::kDynamic}, i8,
                                      ValueRange{n}),
              arith::ConstantOp::create(b, l, b.getI8IntegerAttr(0)));
          SmallVector<Type> types{carried[0].getType(), b.getIndexType(), marks.getType(),
                                  b.getIndexType()};
          SmallVector<Value> inits{carried[0], carried[1], marks, ci(b, l, 0)};
          SmallVector<Type> afterTypes(types);
          afterTypes.push_back(b.getIndexType()); // the pick
          auto loop = scf::WhileOp::create(
              b, l, afterTypes, inits,
              [&](OpBuilder &wb, Location wl, ValueRange args) {
                // The best unsuppressed box above the threshold, if any.
                Value none = ci(wb, wl, -1);
                Value lowest = arith::ConstantOp::create(
                    wb, wl, wb.getFloatAttr(f, -std::numeric_limits<double>::infinity()));
                auto scan = scf::ForOp::create(
                    wb, wl, ci(wb, wl, 0), n, ci(wb, wl, 1), ValueRange{none, lowest},
                    [&](OpBuilder &sb, Location sl, Value j, ValueRange best) {
                      Value s = wide(sb, sl, tensor::ExtractOp::create(sb, sl, scores,
                                                                       ValueRange{bi, ci0, j}));
                      Value free = arith::CmpIOp::create(
                          sb, sl, arith::CmpIPredicate::eq,
                          tensor::ExtractOp::create(sb, sl, args[2], ValueRange{j}),
                          arith::ConstantOp::create(sb, sl, sb.getI8IntegerAttr(0)));
                      Value above = arith::CmpFOp::create(sb, sl, arith::CmpFPredicate::OGT, s,
                                                          scoreMin);
                      Value better = arith::OrIOp::create(
                          sb, sl,
                          arith::CmpIOp::create(sb, sl, arith::CmpIPredicate::slt, best[0],
                                                ci(sb, sl, 0)),
                          arith::CmpFOp::create(sb, sl, arith::CmpFPredicate::OGT, s, best[1]));
                      Value take = arith::AndIOp::create(
                          sb, sl, arith::AndIOp::create(sb, sl, free, above), better);
                      scf::YieldOp::create(
                          sb, sl,
                          ValueRange{arith::SelectOp::create(sb, sl, take, j, best[0]),
                                     arith::SelectOp::create(sb, sl, take, s, best[1])});
                    });
                Value pick = scan.getResult(0);
                Value found = arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::sge, pick,
                                                    ci(wb, wl, 0));
                Value room = arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::slt, args[3],
                                                   limit);
                SmallVector<Value> forward(args);
                forward.push_back(pick);
                scf::ConditionOp::create(wb, wl, arith::AndIOp::create(wb, wl, found, room),
                                         forward);
              },
              [&](OpBuilder &wb, Location wl, ValueRange args) {
                Value pick = args[4];
                Value t = args[0];
                for (auto [k, v] : llvm::enumerate(SmallVector<Value>{bi, ci0, pick}))
                  t = tensor::InsertOp::create(
                      wb, wl, arith::IndexCastOp::create(wb, wl, i64, v), t,
                      ValueRange{args[1], ci(wb, wl, k)});
                Value one8 = arith::ConstantOp::create(wb, wl, wb.getI8IntegerAttr(1));
                Value m = tensor::InsertOp::create(wb, wl, one8, args[2], ValueRange{pick});
                auto sweep = scf::ForOp::create(
                    wb, wl, ci(wb, wl, 0), n, ci(wb, wl, 1), ValueRange{m},
                    [&](OpBuilder &sb, Location sl, Value j, ValueRange mm) {
                      Value over = arith::CmpFOp::create(sb, sl, arith::CmpFPredicate::OGT,
                                                         iou(sb, sl, bi, pick, j), iouMax);
                      auto mark = scf::IfOp::create(
                          sb, sl, over,
                          [&](OpBuilder &tb, Location tl) {
                            scf::YieldOp::create(
                                tb, tl,
                                Value(tensor::InsertOp::create(tb, tl, one8, mm[0],
                                                               ValueRange{j})));
                          },
                          [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, mm[0]); });
                      scf::YieldOp::create(sb, sl, mark.getResults());
                    });
                Value count = arith::AddIOp::create(wb, wl, args[1], ci(wb, wl, 1));
                Value taken = arith::AddIOp::create(wb, wl, args[3], ci(wb, wl, 1));
                scf::YieldOp::create(wb, wl, ValueRange{t, count, sweep.getResult(0), taken});
              });
          return scf::ValueVector{loop.getResult(0), loop.getResult(1)};
        });
    Value all = nest.results[0], count = nest.results[1];
    OpFoldResult c0 = rewriter.getIndexAttr(0), c1 = rewriter.getIndexAttr(1);
    auto result = tensor::ExtractSliceOp::create(
        rewriter, loc, all, ArrayRef<OpFoldResult>{c0, c0},
        ArrayRef<OpFoldResult>{count, rewriter.getIndexAttr(3)}, ArrayRef<OpFoldResult>{c1, c1});
    result->setAttr("mo.binds", op.getBoundDim());
    rewriter.replaceOp(op, result.getResult());
    return success();
  }
};

} // namespace

void mo::populateMoIndexToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<GatherToLinalg, GatherNdToLinalg, ScatterToLoops, ScatterNdToLoops,
               TopKToLoops, RoiAlignToLinalg, NonzeroToLoops, NonMaxSuppressionToLoops>(
      converter, patterns.getContext());
}
