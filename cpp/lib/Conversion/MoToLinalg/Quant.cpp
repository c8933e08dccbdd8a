//===- Quant.cpp - GGUF-quantized mo ops to linalg ------------------------===//
//
// Dequantization reads the packed bytes with tensor.extract, op for op as
// ggml's dequantize_row_* (bit-exact). qmatmul dequantizes one tile of
// weight rows at a time into a small scratch and multiplies it, so the
// float32 weight matrix never exists.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mo;

namespace {

//===----------------------------------------------------------------------===//
// GGUF dequantization of one element, op for op as ggml's dequantize_row_*
//===----------------------------------------------------------------------===//

class Dequantizer {
public:
  /// `rows` is the quantized tensor (i8 elements), `row` its leading indices.
  Dequantizer(OpBuilder &b, Location loc, Value rows, ValueRange row,
              QuantEncoding encoding)
      : b(b), loc(loc), rows(rows), row(row.begin(), row.end()),
        encoding(encoding) {}

  /// The f32 value of element `k` of the row.
  Value at(Value k) {
    BlockLayout layout = getBlockLayout(encoding);
    Value block = arith::DivUIOp::create(b, loc, k, idx(layout.elements));
    Value j = arith::RemUIOp::create(b, loc, k, idx(layout.elements));
    Value base = arith::MulIOp::create(b, loc, block, idx(layout.bytes));
    switch (encoding) {
    case QuantEncoding::Q4_0:
      return q4_0(base, j);
    case QuantEncoding::Q4_K:
    case QuantEncoding::Q5_K:
      return k4k5(base, j);
    case QuantEncoding::Q6_K:
      return q6_k(base, j);
    }
    llvm_unreachable("unknown encoding");
  }

private:
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value divu(Value x, int64_t y) { return arith::DivUIOp::create(b, loc, x, idx(y)); }
  Value remu(Value x, int64_t y) { return arith::RemUIOp::create(b, loc, x, idx(y)); }
  Value shr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value band(Value x, int64_t m) { return arith::AndIOp::create(b, loc, x, i32(m)); }
  Value toI32(Value index) {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
  }
  Value rawByte(Value offset) {
    SmallVector<Value> indices(row);
    indices.push_back(offset);
    return tensor::ExtractOp::create(b, loc, rows, indices);
  }
  /// The byte at `offset` of the row, zero-extended to i32.
  Value byte(Value offset) {
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), rawByte(offset));
  }
  /// The little-endian f16 at `offset`, as f32.
  Value half(Value offset) {
    Value lo = byte(offset);
    Value hi = byte(add(offset, idx(1)));
    Value bits = arith::OrIOp::create(b, loc, lo, shl(hi, i32(8)));
    Value i16 = arith::TruncIOp::create(b, loc, b.getI16Type(), bits);
    Value f16 = arith::BitcastOp::create(b, loc, b.getF16Type(), i16);
    return arith::ExtFOp::create(b, loc, b.getF32Type(), f16);
  }
  Value toF32(Value i, bool isSigned) {
    if (isSigned)
      return arith::SIToFPOp::create(b, loc, b.getF32Type(), i);
    return arith::UIToFPOp::create(b, loc, b.getF32Type(), i);
  }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }

  // 32 values: f16 d, then 16 bytes of nibbles (low: 0..15, high: 16..31).
  Value q4_0(Value base, Value j) {
    Value d = half(base);
    Value qb = byte(add(add(base, idx(2)), remu(j, 16)));
    Value q = band(shr(qb, toI32(mul(divu(j, 16), idx(4)))), 15);
    Value centered = arith::SubIOp::create(b, loc, q, i32(8));
    return fmul(toF32(centered, true), d);
  }

  // Q4_K / Q5_K: f16 d, f16 dmin, 12 bytes of 6-bit scales and mins for the
  // 8 sub-blocks, [Q5_K: 32 bytes of high bits], 128 bytes of nibbles.
  Value k4k5(Value base, Value j) {
    bool five = encoding == QuantEncoding::Q5_K;
    Value d = half(base), dmin = half(add(base, idx(2)));
    Value chunk = divu(j, 64), upper = divu(remu(j, 64), 32), l = remu(j, 32);
    Value qs = add(base, idx(five ? 48 : 16));
    Value qb = byte(add(add(qs, mul(chunk, idx(32))), l));
    Value q = band(shr(qb, toI32(mul(upper, idx(4)))), 15);
    if (five) {
      Value qh = byte(add(add(base, idx(16)), l));
      Value shift = toI32(add(mul(chunk, idx(2)), upper));
      Value bit = band(shr(qh, shift), 1);
      q = add(q, shl(bit, i32(4)));
    }
    // get_scale_min_k4(is, scales).
    Value is = add(mul(chunk, idx(2)), upper);
    Value scales = add(base, idx(4));
    Value low = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, is,
                                      idx(4));
    Value a = byte(add(scales, is)), bb = byte(add(add(scales, is), idx(4)));
    Value back = arith::SelectOp::create(
        b, loc, low, is, arith::SubIOp::create(b, loc, is, idx(4)));
    Value c = byte(add(scales, back));
    Value six = i32(6), four = i32(4);
    Value scHigh = arith::OrIOp::create(b, loc, band(bb, 15),
                                        shl(shr(c, six), four));
    Value mHigh = arith::OrIOp::create(b, loc, shr(bb, four),
                                       shl(shr(a, six), four));
    Value sc = arith::SelectOp::create(b, loc, low, band(a, 63), scHigh);
    Value m = arith::SelectOp::create(b, loc, low, band(bb, 63), mHigh);
    Value d1 = fmul(d, toF32(sc, false)), m1 = fmul(dmin, toF32(m, false));
    return arith::SubFOp::create(b, loc, fmul(d1, toF32(q, false)), m1);
  }

  // 256 values: 128 bytes of low nibbles, 64 bytes of 2-bit highs, 16 int8
  // scales, f16 d.
  Value q6_k(Value base, Value j) {
    Value half128 = divu(j, 128), t = remu(j, 128);
    Value g = divu(t, 32), l = remu(t, 32);
    Value ql = byte(add(add(base, mul(half128, idx(64))),
                        add(l, mul(remu(g, 2), idx(32)))));
    Value nib = band(shr(ql, toI32(mul(divu(g, 2), idx(4)))), 15);
    Value qh = byte(add(add(base, idx(128)), add(mul(half128, idx(32)), l)));
    Value hbits = band(shr(qh, toI32(mul(g, idx(2)))), 3);
    Value q = arith::SubIOp::create(
        b, loc, arith::OrIOp::create(b, loc, nib, shl(hbits, i32(4))), i32(32));
    Value scOffset = add(add(base, idx(192)),
                         add(mul(half128, idx(8)), add(divu(l, 16), mul(g, idx(2)))));
    Value sc = arith::ExtSIOp::create(b, loc, b.getI32Type(), rawByte(scOffset));
    Value d = half(add(base, idx(208)));
    return fmul(fmul(d, toF32(sc, true)), toF32(q, true));
  }

  OpBuilder &b;
  Location loc;
  Value rows;
  SmallVector<Value> row;
  QuantEncoding encoding;
};

/// `out += lhs * w` (f32) over the loops the maps and iterators describe.
Value qContraction(OpBuilder &b, Location loc, Value lhs, Value w, Value init,
                   ArrayRef<AffineMap> maps,
                   ArrayRef<utils::IteratorType> iterators) {
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{lhs, w},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value p = arith::MulFOp::create(nb, l, args[0], args[1]);
               linalg::YieldOp::create(
                   nb, l, Value(arith::AddFOp::create(nb, l, args[2], p)));
             })
      .getResult(0);
}

struct DequantizeToGeneric : OpConversionPattern<DequantizeOp> {
  using OpConversionPattern::OpConversionPattern;

  /// Every element of the f32 result dequantized from its row and index.
  LogicalResult
  matchAndRewrite(DequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    auto type = cast<mo::TensorType>(op.getType());
    int64_t rank = type.getRank();
    Value rows = adaptor.getInput();
    SmallVector<SizeHints> hints(rank);
    for (int64_t i = 0; i + 1 < rank; ++i)
      hints[i].push_back({rows, i});
    FailureOr<Value> init = emptyTensor(b, loc, op, type, hints);
    if (failed(init))
      return failure();
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{init->getType()}, ValueRange{}, ValueRange{*init},
        {b.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange) {
          SmallVector<Value> indices;
          for (int64_t i = 0; i < rank; ++i)
            indices.push_back(linalg::IndexOp::create(nb, l, i));
          Dequantizer dq(nb, l, rows, ArrayRef(indices).drop_back(),
                         op.getEncoding());
          linalg::YieldOp::create(nb, l, dq.at(indices.back()));
        });
    b.replaceOp(op, generic.getResults());
    return success();
  }

};

struct QMatmulToTiles : OpConversionPattern<QMatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  /// An scf.for over tiles of the last dim of `init` ([n0, n0 + tile), the
  /// last tile shorter): `body` returns the new value of the tile's slice of
  /// the accumulator, which the loop inserts back.
  static Value forEachColumnTile(
      OpBuilder &b, Location loc, Value init, Value n, int64_t tileSize,
      function_ref<Value(OpBuilder &, Location, Value, Value, Value)> body) {
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value cTile = arith::ConstantIndexOp::create(b, loc, tileSize);
    int64_t rank = cast<RankedTensorType>(init.getType()).getRank();
    auto loop = scf::ForOp::create(
        b, loc, c0, n, cTile, ValueRange{init},
        [&](OpBuilder &lb, Location l, Value n0, ValueRange iterArgs) {
          Value acc = iterArgs[0];
          Value tile = arith::MinSIOp::create(
              lb, l, arith::SubIOp::create(lb, l, n, n0), cTile);
          SmallVector<OpFoldResult> offsets(rank, lb.getIndexAttr(0)), sizes,
              strides(rank, lb.getIndexAttr(1));
          offsets.back() = n0;
          for (int64_t i = 0; i < rank - 1; ++i)
            sizes.push_back(tensor::getMixedSize(lb, l, acc, i));
          sizes.push_back(tile);
          Value slice =
              tensor::ExtractSliceOp::create(lb, l, acc, offsets, sizes, strides);
          Value updated = body(lb, l, n0, tile, slice);
          scf::YieldOp::create(lb, l,
                               Value(tensor::InsertSliceOp::create(
                                   lb, l, updated, acc, offsets, sizes, strides)));
        });
    return loop.getResult(0);
  }

  /// A matmul over tiles of the weight: each tile of rows is dequantized
  /// into a small [K, tile] scratch (never the whole float32 matrix) and
  /// multiplied with the innermost loop running along contiguous rows.
  LogicalResult
  matchAndRewrite(QMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    constexpr int64_t kTile = 128;
    Location loc = op.getLoc();
    auto resultType = cast<mo::TensorType>(op.getType());
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    int64_t rank = resultType.getRank(), batch = rank - 2;
    int64_t kSize = getStaticDimSize(
        cast<mo::TensorType>(op.getLhs().getType()).getDims().back());
    SmallVector<SizeHints> hints(rank);
    for (int64_t i = 0; i < rank - 1; ++i)
      hints[i].push_back({lhs, i});
    hints[rank - 1].push_back({rhs, 0});
    FailureOr<Value> empty = emptyTensor(b, loc, op, resultType, hints);
    if (failed(empty))
      return failure();
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    Value init = filled(b, loc, *empty, zero);
    Value n = tensor::DimOp::create(b, loc, rhs, 0);
    Value result = forEachColumnTile(
        b, loc, init, n, kTile,
        [&](OpBuilder &lb, Location l, Value n0, Value tile, Value slice) {
          // Scratch [K, tile]: w[k, i] = dequantize(row n0 + i, element k).
          auto scratchType =
              RankedTensorType::get({kSize, ShapedType::kDynamic}, lb.getF32Type());
          Value scratch = tensor::EmptyOp::create(lb, l, scratchType.getShape(),
                                                  lb.getF32Type(), ValueRange{tile});
          Value w =
              linalg::GenericOp::create(
                  lb, l, TypeRange{scratchType}, ValueRange{}, ValueRange{scratch},
                  {lb.getMultiDimIdentityMap(2)},
                  {utils::IteratorType::parallel, utils::IteratorType::parallel},
                  [&](OpBuilder &nb, Location nl, ValueRange) {
                    Value k = linalg::IndexOp::create(nb, nl, 0);
                    Value i = linalg::IndexOp::create(nb, nl, 1);
                    Value row = arith::AddIOp::create(nb, nl, n0, i);
                    Dequantizer dq(nb, nl, rhs, ValueRange{row}, op.getEncoding());
                    linalg::YieldOp::create(nb, nl, dq.at(k));
                  })
                  .getResult(0);
          // A materialized copy: elementwise fusion must not pull the
          // dequantization into the M-times-longer product loop.
          w = bufferization::MaterializeInDestinationOp::create(
                  lb, l, w,
                  tensor::EmptyOp::create(lb, l, scratchType.getShape(),
                                          lb.getF32Type(), ValueRange{tile}))
                  .getResult();
          // slice[..., m, j] += lhs[..., m, k] * w[k, j]; loops batch, m, k, j.
          SmallVector<AffineExpr> lhsExprs, wExprs, outExprs;
          for (int64_t i = 0; i < batch; ++i) {
            lhsExprs.push_back(lb.getAffineDimExpr(i));
            outExprs.push_back(lb.getAffineDimExpr(i));
          }
          AffineExpr m = lb.getAffineDimExpr(batch),
                     k = lb.getAffineDimExpr(batch + 1),
                     j = lb.getAffineDimExpr(batch + 2);
          lhsExprs.append({m, k});
          wExprs.append({k, j});
          outExprs.append({m, j});
          SmallVector<utils::IteratorType> iterators(
              rank + 1, utils::IteratorType::parallel);
          iterators[batch + 1] = utils::IteratorType::reduction;
          MLIRContext *ctx = lb.getContext();
          return qContraction(lb, l, lhs, w, slice,
                             {AffineMap::get(rank + 1, 0, lhsExprs, ctx),
                              AffineMap::get(rank + 1, 0, wExprs, ctx),
                              AffineMap::get(rank + 1, 0, outExprs, ctx)},
                             iterators);
        });
    b.replaceOp(op, result);
    return success();
  }

};

} // namespace

void mo::populateMoQuantToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<DequantizeToGeneric, QMatmulToTiles>(converter,
                                                    patterns.getContext());
}
