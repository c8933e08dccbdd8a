//===- Quant.cpp - GGUF-quantized mo ops to linalg ------------------------===//
//
// Dequantization decodes each block of a row as vectors, op for op as
// ggml's dequantize_row_* (bit-exact). qmatmul is a vectorized kernel that
// decodes each block of a weight row into registers, the same way, and
// multiplies it there: the float32 weight matrix never exists (with many
// lhs rows, a panel of it at a time, in cache).
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mo;

namespace {

//===----------------------------------------------------------------------===//
// GGUF dequantization, op for op as ggml's dequantize_row_*
//===----------------------------------------------------------------------===//

/// The bytes of one row of a quantized tensor (i8 elements): the scalar
/// arithmetic of a block's scales.
class RowReader {
public:
  /// `rows` is the quantized tensor, `row` its leading indices.
  RowReader(OpBuilder &b, Location loc, Value rows, ValueRange row)
      : b(b), loc(loc), rows(rows), row(row.begin(), row.end()) {}

protected:
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

  /// Q4_K / Q5_K: sub-block `is`'s scale and min (get_scale_min_k4 on the
  /// 12 bytes at base + 4), times d and dmin. `low`: whether `is` < 4, if
  /// known.
  std::pair<Value, Value> scaleMinK4(Value base, Value d, Value dmin, Value is,
                                     std::optional<bool> low = std::nullopt) {
    Value scales = add(base, idx(4));
    Value six = i32(6), four = i32(4);
    Value a = byte(add(scales, is)), bb = byte(add(add(scales, is), idx(4)));
    auto lowPair = [&]() { return std::make_pair(band(a, 63), band(bb, 63)); };
    auto highPair = [&](Value back) {
      Value c = byte(add(scales, back));
      return std::make_pair(
          Value(arith::OrIOp::create(b, loc, band(bb, 15), shl(shr(c, six), four))),
          Value(arith::OrIOp::create(b, loc, shr(bb, four), shl(shr(a, six), four))));
    };
    Value sc, m;
    if (low) {
      std::tie(sc, m) = *low ? lowPair() : highPair(arith::SubIOp::create(b, loc, is, idx(4)));
    } else {
      Value isLow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, is, idx(4));
      Value back = arith::SelectOp::create(b, loc, isLow, is,
                                           arith::SubIOp::create(b, loc, is, idx(4)));
      auto [scLow, mLow] = lowPair();
      auto [scHigh, mHigh] = highPair(back);
      sc = arith::SelectOp::create(b, loc, isLow, scLow, scHigh);
      m = arith::SelectOp::create(b, loc, isLow, mLow, mHigh);
    }
    return {fmul(d, toF32(sc, false)), fmul(dmin, toF32(m, false))};
  }

  OpBuilder &b;
  Location loc;
  Value rows;
  SmallVector<Value> row;
};

/// One block of a row as vectors of kLanes f32, op for op as ggml's
/// dequantize_row_* (the same bits): `begin` reads a block's scalars once,
/// `group` decodes its elements [32 g, 32 g + 32) as two vectors from 16
/// contiguous bytes each.
class BlockDecoder : public RowReader {
public:
  static constexpr int64_t kLanes = 16;

  BlockDecoder(OpBuilder &b, Location loc, Value rows, Value row,
               QuantEncoding encoding)
      : RowReader(b, loc, rows, row), encoding(encoding) {}

  /// Groups of 32 elements in a block.
  static int64_t groups(QuantEncoding encoding) {
    return getBlockLayout(encoding).elements / 32;
  }

  void begin(Value block) {
    base = mul(block, idx(getBlockLayout(encoding).bytes));
    switch (encoding) {
    case QuantEncoding::Q4_0:
      d = half(base);
      return;
    case QuantEncoding::Q4_K:
    case QuantEncoding::Q5_K:
      d = half(base);
      dmin = half(at(2));
      return;
    case QuantEncoding::Q6_K:
      d = half(at(208));
      return;
    }
  }

  /// `low`: whether `g` is below 4, if known (K-quants' scales).
  std::array<Value, 2> group(Value g, std::optional<bool> low) {
    if (encoding == QuantEncoding::Q4_K || encoding == QuantEncoding::Q5_K)
      std::tie(d1, m1) = scaleMinK4(base, d, dmin, g, low);
    std::array<Value, 2> out;
    for (int64_t v = 0; v < 2; ++v)
      out[v] = vectorOf(g, v);
    return out;
  }

private:
  Value at(int64_t offset) { return add(base, idx(offset)); }
  VectorType vec(Type element) { return VectorType::get({kLanes}, element); }
  Value splat(Value scalar) {
    return vector::BroadcastOp::create(b, loc, vec(scalar.getType()), scalar);
  }
  Value vi32(int64_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vec(b.getI32Type()), b.getI32IntegerAttr(v)));
  }
  /// The kLanes bytes at `offset` of the block, zero-extended to i32.
  Value bytes(Value offset) {
    SmallVector<Value> indices(row);
    indices.push_back(add(base, offset));
    Value pad = arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0);
    Value raw = vector::TransferReadOp::create(b, loc, vec(b.getI8Type()), rows,
                                               indices, pad, ArrayRef<bool>{true});
    return arith::ExtUIOp::create(b, loc, vec(b.getI32Type()), raw);
  }
  /// `(x >> shift) & mask`, lane by lane (`shift` an index).
  Value bits(Value x, Value shift, int64_t mask) {
    x = arith::ShRUIOp::create(b, loc, x, splat(toI32(shift)));
    return arith::AndIOp::create(b, loc, x, vi32(mask));
  }
  Value vToF32(Value i, bool isSigned) {
    if (isSigned)
      return arith::SIToFPOp::create(b, loc, vec(b.getF32Type()), i);
    return arith::UIToFPOp::create(b, loc, vec(b.getF32Type()), i);
  }
  Value times(Value x, int64_t c) { return mul(x, idx(c)); }
  Value plus(Value x, int64_t c) { return add(x, idx(c)); }

  /// Elements [32 g + 16 v, 32 g + 16 v + 16) of the block.
  Value vectorOf(Value g, int64_t v) {
    switch (encoding) {
    case QuantEncoding::Q4_0: {
      Value q = bits(bytes(idx(2)), idx(4 * v), 15);
      Value centered = arith::SubIOp::create(b, loc, q, vi32(8));
      return arith::MulFOp::create(b, loc, vToF32(centered, true), splat(d));
    }
    case QuantEncoding::Q4_K:
    case QuantEncoding::Q5_K: {
      bool five = encoding == QuantEncoding::Q5_K;
      Value chunk = divu(g, 2), upper = remu(g, 2);
      Value q = bits(bytes(plus(times(chunk, 32), (five ? 48 : 16) + 16 * v)),
                     times(upper, 4), 15);
      if (five) {
        Value bit = bits(bytes(idx(16 + 16 * v)), g, 1);
        q = arith::AddIOp::create(b, loc, q, arith::ShLIOp::create(b, loc, bit, vi32(4)));
      }
      Value scaled = arith::MulFOp::create(b, loc, splat(d1), vToF32(q, false));
      return arith::SubFOp::create(b, loc, scaled, splat(m1));
    }
    case QuantEncoding::Q6_K: {
      Value half128 = divu(g, 4), g4 = remu(g, 4);
      Value nib = bits(bytes(add(times(half128, 64), plus(times(remu(g4, 2), 32), 16 * v))),
                       times(divu(g4, 2), 4), 15);
      Value hbits = bits(bytes(plus(times(half128, 32), 128 + 16 * v)), times(g4, 2), 3);
      Value q = arith::SubIOp::create(
          b, loc,
          arith::OrIOp::create(b, loc, nib, arith::ShLIOp::create(b, loc, hbits, vi32(4))),
          vi32(32));
      Value scOffset = add(base, add(times(half128, 8), plus(times(g4, 2), 192 + v)));
      Value sc = arith::ExtSIOp::create(b, loc, b.getI32Type(), rawByte(scOffset));
      return arith::MulFOp::create(b, loc, splat(fmul(d, toF32(sc, true))),
                                   vToF32(q, true));
    }
    }
    llvm_unreachable("unknown encoding");
  }

  QuantEncoding encoding;
  Value base, d, dmin;
  /// The group's scale and min (K-quants).
  Value d1, m1;
};

Value constIndex(OpBuilder &b, int64_t v) {
  return arith::ConstantIndexOp::create(b, b.getUnknownLoc(), v);
}

/// The k of the first element of vector `v` (of 2) of group `g` (32
/// elements) of the block at `k0`.
Value groupK(OpBuilder &b, Location loc, Value k0, Value g, int64_t v) {
  return arith::AddIOp::create(
      b, loc, k0,
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, g, constIndex(b, 32)),
                            constIndex(b, BlockDecoder::kLanes * v)));
}

/// `dest` with group `g`'s two decoded vectors written at its `row`, from
/// the k of the group in the block at `k0`.
SmallVector<Value> writeGroup(OpBuilder &b, Location loc, std::array<Value, 2> vectors,
                              Value dest, Value row, Value k0, Value g) {
  for (int64_t v = 0; v < 2; ++v)
    dest = vector::TransferWriteOp::create(b, loc, vectors[v], dest,
                                           ValueRange{row, groupK(b, loc, k0, g, v)},
                                           ArrayRef<bool>{true})
               .getResult();
  return {dest};
}

/// `values` through `body(g, low, values)` for each group of a block, in a
/// loop if several: one copy of the code per loop (unrolled, a K-quant's
/// 8 groups took 3x the compile time); a K-quant's first 4 groups, whose
/// scales decode another way, a loop of their own (`low`).
template <typename Body>
void forGroups(OpBuilder &b, Location loc, QuantEncoding encoding,
               SmallVectorImpl<Value> &values, Body body) {
  int64_t groups = BlockDecoder::groups(encoding);
  auto run = [&](int64_t lo, int64_t hi, std::optional<bool> low) {
    if (hi - lo == 1) {
      values = body(b, constIndex(b, lo), low, ValueRange(values));
      return;
    }
    auto loop = scf::ForOp::create(
        b, loc, constIndex(b, lo), constIndex(b, hi), constIndex(b, 1), values,
        [&](OpBuilder &gb, Location, Value g, ValueRange carried) {
          scf::YieldOp::create(gb, loc, body(gb, g, low, carried));
        });
    values.assign(loop.getResults().begin(), loop.getResults().end());
  };
  if (encoding == QuantEncoding::Q4_K || encoding == QuantEncoding::Q5_K) {
    run(0, groups / 2, true);
    run(groups / 2, groups, false);
  } else {
    run(0, groups, std::nullopt);
  }
}

/// Every row of the f32 result decoded a block at a time as vectors of
/// BlockDecoder (the bits of ggml's dequantize_row_*), the rows split across
/// the threads. (Element by element, from bytes read one at a time, a 4096
/// x 4096 weight took 35-55 ms.)
struct DequantizeToKernel : OpConversionPattern<DequantizeOp> {
  using OpConversionPattern::OpConversionPattern;

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
    // As rows [N, bytes] -> [N, K]: leading dims folded, a vector given one.
    auto resultType = cast<RankedTensorType>(init->getType());
    int64_t k = resultType.getShape().back();
    Value in = rows, out = *init;
    SmallVector<ReassociationIndices> groups;
    if (rank == 1) {
      groups.push_back({0, 1});
      auto asRow = [&](Value v) {
        auto t = cast<RankedTensorType>(v.getType());
        return tensor::ExpandShapeOp::create(
            b, loc, RankedTensorType::get({1, t.getDimSize(0)}, t.getElementType()), v,
            groups);
      };
      in = asRow(in);
      out = asRow(out);
    } else if (rank > 2) {
      groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank - 1)));
      groups.push_back({rank - 1});
      in = tensor::CollapseShapeOp::create(b, loc, in, groups);
      out = tensor::CollapseShapeOp::create(b, loc, out, groups);
    }
    BlockLayout layout = getBlockLayout(op.getEncoding());
    Value n = tensor::DimOp::create(b, loc, in, 0);
    auto forall = scf::ForallOp::create(b, loc, ArrayRef<OpFoldResult>{n}, ValueRange{out},
                                        std::nullopt);
    {
      OpBuilder fb(forall.getTerminator());
      Value row = forall.getInductionVar(0);
      SmallVector<OpFoldResult> offsets{row, fb.getIndexAttr(0)},
          sizes{fb.getIndexAttr(1), fb.getIndexAttr(k)}, strides(2, fb.getIndexAttr(1));
      Value shared = forall.getRegionIterArgs()[0];
      Value slice = tensor::ExtractSliceOp::create(fb, loc, shared, offsets, sizes, strides);
      auto blocks = scf::ForOp::create(
          fb, loc, constIndex(fb, 0), constIndex(fb, k / layout.elements), constIndex(fb, 1),
          ValueRange{slice}, [&](OpBuilder &kb, Location, Value block, ValueRange carried) {
            BlockDecoder decoder(kb, loc, in, row, op.getEncoding());
            decoder.begin(block);
            Value k0 = arith::MulIOp::create(kb, loc, block, constIndex(kb, layout.elements));
            SmallVector<Value> written{carried[0]};
            forGroups(kb, loc, op.getEncoding(), written,
                      [&](OpBuilder &gb, Value g, std::optional<bool> low, ValueRange w) {
                        return writeGroup(gb, loc, decoder.group(g, low), w[0],
                                          constIndex(gb, 0), k0, g);
                      });
            scf::YieldOp::create(kb, loc, written);
          });
      fb.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(fb, loc, blocks.getResult(0), shared, offsets, sizes,
                                            strides);
    }
    Value result = forall.getResult(0);
    if (rank == 1)
      result = tensor::CollapseShapeOp::create(b, loc, result, groups);
    else if (rank > 2)
      result = expandTo(b, loc, resultType, result, groups,
                        tensor::getMixedSizes(b, loc, *init));
    b.replaceOp(op, result);
    return success();
  }
};

/// `lhs @ dequantize(rhs).T` as one kernel that never writes the
/// dequantized weights out: each register tile (kRows rows of lhs by kCols rows of the
/// weight) walks K a block at a time, decodes each weight row's block into
/// vectors once and multiplies them with every lhs row of the tile,
/// accumulating kLanes-wide partial sums that are added up once at the end.
/// The threads split the weight rows in chunks (scf.forall); lhs rows past
/// the last whole tile take a one-row tile, so a decode step (one row)
/// decodes no more than it multiplies. With enough lhs rows (a prefill:
/// panelRows), the tiles would decode each weight once per tile of lhs rows:
/// instead, a panel of weight rows is decoded once into a scratch buffer
/// that stays in the L2 cache (the same values, op for op), and the tiles
/// read it a block of K at a time, kCols rows of it in L1 while every lhs
/// tile uses them, their partial sums kept between blocks: each output is
/// summed in the same order either way, to the bit.
struct QMatmulToKernel : OpConversionPattern<QMatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  /// The register tile: 4 x 4 accumulators of 16 lanes (16 of AVX-512's
  /// registers), 8 vectors of decoded weights, 8 of lhs.
  static constexpr int64_t kRows = 4, kCols = 4;
  /// Weight rows per parallel iteration: kCols-row tiles that share each
  /// lhs tile while it is in cache.
  static constexpr int64_t kChunk = 64;
  /// A panel's size at most (a multiple of kCols weight rows, one at least).
  static constexpr int64_t kPanelBytes = 256 << 10;
  /// Elements of K a panel's tiles sum at a time (of each of kCols rows:
  /// 16 KiB, in L1 while every lhs tile reads them).
  static constexpr int64_t kPanelK = 1024;

  LogicalResult
  matchAndRewrite(QMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    auto resultType = cast<mo::TensorType>(op.getType());
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    int64_t rank = resultType.getRank();
    int64_t kSize = getStaticDimSize(
        cast<mo::TensorType>(op.getLhs().getType()).getDims().back());
    QuantEncoding encoding = op.getEncoding();
    SmallVector<SizeHints> hints(rank);
    for (int64_t i = 0; i < rank - 1; ++i)
      hints[i].push_back({lhs, i});
    hints[rank - 1].push_back({rhs, 0});
    FailureOr<Value> empty = emptyTensor(b, loc, op, resultType, hints);
    if (failed(empty))
      return failure();
    // Batch dims folded into the rows: x [R, K], out [R, N].
    Value x = lhs, out = *empty;
    SmallVector<ReassociationIndices> groups;
    if (rank > 2) {
      groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank - 1)));
      groups.push_back({rank - 1});
      x = tensor::CollapseShapeOp::create(b, loc, x, groups);
      out = tensor::CollapseShapeOp::create(b, loc, out, groups);
    }
    Value rowsR = tensor::DimOp::create(b, loc, x, 0);
    Value n = tensor::DimOp::create(b, loc, rhs, 0);
    Value chunks = arith::CeilDivUIOp::create(b, loc, n, constIndex(b, kChunk));
    auto forall = scf::ForallOp::create(b, loc, ArrayRef<OpFoldResult>{chunks},
                                        ValueRange{out}, std::nullopt);
    {
      OpBuilder fb(forall.getTerminator());
      Value n0 = arith::MulIOp::create(fb, loc, forall.getInductionVar(0),
                                       constIndex(fb, kChunk));
      Value len = arith::MinSIOp::create(
          fb, loc, arith::SubIOp::create(fb, loc, n, n0), constIndex(fb, kChunk));
      SmallVector<OpFoldResult> offsets{fb.getIndexAttr(0), n0},
          sizes{rowsR, len}, strides(2, fb.getIndexAttr(1));
      Value shared = forall.getRegionIterArgs()[0];
      Value slice = tensor::ExtractSliceOp::create(fb, loc, shared, offsets,
                                                   sizes, strides);
      Value whole = arith::SubIOp::create(
          fb, loc, rowsR, arith::RemUIOp::create(fb, loc, rowsR, constIndex(fb, kRows)));
      KernelArgs args{x, rhs, encoding, kSize, n, n0, len};
      // Only the loops a static row count runs (each tile is much code).
      int64_t r = cast<RankedTensorType>(x.getType()).getDimSize(0);
      auto allRows = [&](OpBuilder &rb, const KernelArgs &a, Value lo, Value hi, Value acc) {
        if (ShapedType::isDynamic(r) || r >= kRows)
          acc = rowTiles(rb, loc, a, kRows, constIndex(rb, 0), whole, lo, hi, acc);
        if (ShapedType::isDynamic(r) || r % kRows)
          acc = rowTiles(rb, loc, a, 1, whole, rowsR, lo, hi, acc);
        return acc;
      };
      if (!ShapedType::isDynamic(r) && r >= panelRows(encoding)) {
        slice = panels(fb, loc, args, rowsR, slice);
      } else if (ShapedType::isDynamic(r)) {
        // A run-time row count: panels from as many rows as a static one.
        Value many = arith::CmpIOp::create(fb, loc, arith::CmpIPredicate::uge, rowsR,
                                           constIndex(fb, panelRows(encoding)));
        slice = scf::IfOp::create(
                    fb, loc, many,
                    [&](OpBuilder &tb, Location) {
                      scf::YieldOp::create(
                          tb, loc, panels(tb, loc, args, rowsR, slice));
                    },
                    [&](OpBuilder &eb, Location) {
                      scf::YieldOp::create(
                          eb, loc, allRows(eb, args, constIndex(eb, 0), len, slice));
                    })
                    .getResult(0);
      } else {
        slice = allRows(fb, args, constIndex(fb, 0), len, slice);
      }
      fb.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(fb, loc, slice, shared, offsets,
                                            sizes, strides);
    }
    Value result = forall.getResult(0);
    if (rank > 2)
      result = expandTo(b, loc, cast<RankedTensorType>(empty->getType()), result, groups,
                        tensor::getMixedSizes(b, loc, *empty));
    b.replaceOp(op, result);
    return success();
  }

private:
  /// Lhs rows from which the weights are decoded into panels (checked at
  /// run time for a run-time row count, which then has both versions: a
  /// Q6_K qmatmul of 4096 x 4096 compiled in 120 ms where it took 75, and
  /// 64 rows ran in 7.4 ms where they took 14). A K-quant's decoding
  /// (6-bit scales, high bits) costs about what the FMAs that use it do: at 8 rows panels were 1.2x faster, at 64 2x
  /// (K = N = 4096, 2 threads, the same bits). Q4_0's (a nibble and one
  /// scale) costs little: at 8-32 rows panels were 2-11% slower, at 64 and
  /// 128 2-9% faster.
  static int64_t panelRows(QuantEncoding encoding) {
    return encoding == QuantEncoding::Q4_0 ? 64 : 8;
  }

  struct KernelArgs {
    Value x, rhs;
    QuantEncoding encoding;
    int64_t k;
    /// The weight's rows, the chunk's first and its length.
    Value n, n0, len;
    /// The decoded weight rows [panelRow, panelRow + panel rows) of the
    /// chunk, if decoded ahead (else each tile decodes its own).
    Value panel, panelRow;
    /// With a panel: the blocks [blockLo, blockHi) of K a tile sums (its
    /// sums carried between them in a buffer of [R rounded up to kRows,
    /// panel rows, kLanes]) and the last lhs row, which tile rows past it
    /// read.
    Value blockLo, blockHi, lastLhsRow;
  };

  /// `acc` with the chunk's weight rows decoded a panel at a time, each
  /// panel's columns of every lhs row computed from it in tiles of 4 rows,
  /// the last padded (its rows past the end read the last and sum into
  /// rows of the buffer never read).
  static Value panels(OpBuilder &b, Location loc, const KernelArgs &a, Value lhsRows,
                      Value acc) {
    int64_t rows =
        std::clamp<int64_t>(kPanelBytes / (4 * a.k) / kCols * kCols, kCols, kChunk);
    BlockLayout layout = getBlockLayout(a.encoding);
    Value lastRow = arith::SubIOp::create(b, loc, a.n, constIndex(b, 1));
    auto loop = scf::ForOp::create(
        b, loc, constIndex(b, 0), a.len, constIndex(b, rows), ValueRange{acc},
        [&](OpBuilder &pb, Location, Value p0, ValueRange pAcc) {
          Value empty = tensor::EmptyOp::create(pb, loc, ArrayRef<int64_t>{rows, a.k},
                                                pb.getF32Type());
          // Weight rows past the last decode the last (never written out).
          auto decoded = scf::ForOp::create(
              pb, loc, constIndex(pb, 0), constIndex(pb, rows), constIndex(pb, 1),
              ValueRange{empty},
              [&](OpBuilder &rb, Location, Value r, ValueRange panel) {
                Value row = arith::MinSIOp::create(
                    rb, loc,
                    arith::AddIOp::create(rb, loc, arith::AddIOp::create(rb, loc, a.n0, p0), r),
                    lastRow);
                auto blocks = scf::ForOp::create(
                    rb, loc, constIndex(rb, 0), constIndex(rb, a.k / layout.elements),
                    constIndex(rb, 1), panel,
                    [&](OpBuilder &kb, Location, Value block, ValueRange out) {
                      BlockDecoder decoder(kb, loc, a.rhs, row, a.encoding);
                      decoder.begin(block);
                      Value k0 = arith::MulIOp::create(kb, loc, block,
                                                       constIndex(kb, layout.elements));
                      SmallVector<Value> written{out[0]};
                      forGroups(kb, loc, a.encoding, written,
                                [&](OpBuilder &gb, Value g, std::optional<bool> low,
                                    ValueRange w) {
                                  return writeGroup(gb, loc, decoder.group(g, low), w[0], r,
                                                    k0, g);
                                });
                      scf::YieldOp::create(kb, loc, written);
                    });
                scf::YieldOp::create(rb, loc, blocks.getResults());
              });
          KernelArgs panelArgs = a;
          panelArgs.panel = decoded.getResult(0);
          panelArgs.panelRow = p0;
          Value end = arith::MinSIOp::create(
              pb, loc, arith::AddIOp::create(pb, loc, p0, constIndex(pb, rows)), a.len);
          // Every tile over a block of K at a time, its sums kept between.
          int64_t blocks = a.k / layout.elements;
          int64_t step = std::max<int64_t>(1, kPanelK / layout.elements);
          // (Rows up to a whole number of tiles: the last tile's padding.)
          Value paddedRows = arith::MulIOp::create(
              pb, loc,
              arith::CeilDivUIOp::create(pb, loc, lhsRows, constIndex(pb, kRows)),
              constIndex(pb, kRows));
          Value partials = tensor::EmptyOp::create(
              pb, loc,
              ArrayRef<OpFoldResult>{paddedRows, pb.getIndexAttr(rows),
                                     pb.getIndexAttr(BlockDecoder::kLanes)},
              pb.getF32Type());
          panelArgs.lastLhsRow = arith::SubIOp::create(pb, loc, lhsRows, constIndex(pb, 1));
          auto summed = scf::ForOp::create(
              pb, loc, constIndex(pb, 0), constIndex(pb, blocks), constIndex(pb, step),
              ValueRange{partials},
              [&](OpBuilder &sb, Location, Value lo, ValueRange sums) {
                panelArgs.blockLo = lo;
                panelArgs.blockHi = arith::MinSIOp::create(
                    sb, loc, arith::AddIOp::create(sb, loc, lo, constIndex(sb, step)),
                    constIndex(sb, blocks));
                scf::YieldOp::create(sb, loc,
                                     rowTiles(sb, loc, panelArgs, kRows, constIndex(sb, 0),
                                              lhsRows, p0, end, sums[0]));
              });
          // Then each output's kLanes sums added up, as the tiles do.
          auto written = scf::ForOp::create(
              pb, loc, constIndex(pb, 0), lhsRows, constIndex(pb, 1), pAcc,
              [&](OpBuilder &wb, Location, Value m, ValueRange rowAcc) {
                auto cols = scf::ForOp::create(
                    wb, loc, p0, end, constIndex(wb, kCols), rowAcc,
                    [&](OpBuilder &cb, Location, Value c0, ValueRange colAcc) {
                      Value pad = arith::ConstantOp::create(cb, loc, cb.getF32FloatAttr(0));
                      SmallVector<Value> sums;
                      for (int64_t c = 0; c < kCols; ++c) {
                        Value col = arith::AddIOp::create(
                            cb, loc, arith::SubIOp::create(cb, loc, c0, p0), constIndex(cb, c));
                        sums.push_back(vector::TransferReadOp::create(
                            cb, loc, VectorType::get({BlockDecoder::kLanes}, cb.getF32Type()),
                            summed.getResult(0), ValueRange{m, col, constIndex(cb, 0)}, pad,
                            ArrayRef<bool>{true}));
                      }
                      scf::YieldOp::create(cb, loc,
                                           writeSums(cb, loc, {m}, c0, sums, colAcc[0]));
                    });
                scf::YieldOp::create(wb, loc, cols.getResults());
              });
          scf::YieldOp::create(pb, loc, written.getResults());
        });
    return loop.getResult(0);
  }

  /// `acc` (the chunk's [R, len] columns) with its rows [lo, hi) computed
  /// in tiles of `rows` rows, over the chunk's columns [c0, c1).
  static Value rowTiles(OpBuilder &b, Location loc, const KernelArgs &a,
                        int64_t rows, Value lo, Value hi, Value c0, Value c1, Value acc) {
    // Reading a panel, the columns outer: a tile's decoded weights (a
    // block of K of kCols rows) stay in L1 while every lhs tile reads them.
    auto loops = [&](Value outerLo, Value outerHi, int64_t outerStep, Value innerLo,
                     Value innerHi, int64_t innerStep, bool colsOuter) {
      return scf::ForOp::create(
                 b, loc, outerLo, outerHi, constIndex(b, outerStep), ValueRange{acc},
                 [&](OpBuilder &ob, Location, Value outer, ValueRange oAcc) {
                   auto inner = scf::ForOp::create(
                       ob, loc, innerLo, innerHi, constIndex(ob, innerStep), oAcc,
                       [&](OpBuilder &ib, Location, Value inner, ValueRange iAcc) {
                         Value m0 = colsOuter ? inner : outer;
                         Value col = colsOuter ? outer : inner;
                         scf::YieldOp::create(ib, loc,
                                              tile(ib, loc, a, rows, m0, col, iAcc[0]));
                       });
                   scf::YieldOp::create(ob, loc, inner.getResults());
                 })
          .getResult(0);
    };
    if (a.panel)
      return loops(c0, c1, kCols, lo, hi, rows, /*colsOuter=*/true);
    return loops(lo, hi, rows, c0, c1, kCols, /*colsOuter=*/false);
  }

  /// `acc` with its tile of `rows` rows from `m0` by kCols columns from
  /// `c0` (those past the chunk's end not written).
  static Value tile(OpBuilder &b, Location loc, const KernelArgs &a,
                    int64_t rows, Value m0, Value c0, Value acc) {
    constexpr int64_t lanes = BlockDecoder::kLanes;
    Type f32 = b.getF32Type();
    auto vecType = VectorType::get({lanes}, f32);
    SmallVector<Value> xRows, xReads, wRows, panelCols;
    for (int64_t r = 0; r < rows; ++r) {
      xRows.push_back(arith::AddIOp::create(b, loc, m0, constIndex(b, r)));
      // Reading a panel, a padded tile's rows past the last read the last.
      xReads.push_back(a.panel ? arith::MinSIOp::create(b, loc, xRows.back(), a.lastLhsRow)
                               : xRows.back());
    }
    if (a.panel) {
      // The tile's weight rows in the panel (and in its partial sums).
      for (int64_t c = 0; c < kCols; ++c)
        panelCols.push_back(arith::AddIOp::create(
            b, loc, arith::SubIOp::create(b, loc, c0, a.panelRow), constIndex(b, c)));
    } else {
      // Weight rows past the last read the last (their sums are not written).
      Value lastRow = arith::SubIOp::create(b, loc, a.n, constIndex(b, 1));
      for (int64_t c = 0; c < kCols; ++c) {
        Value r = arith::AddIOp::create(
            b, loc, arith::AddIOp::create(b, loc, a.n0, c0), constIndex(b, c));
        wRows.push_back(arith::MinSIOp::create(b, loc, r, lastRow));
      }
    }
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vecType, b.getF32FloatAttr(0)));
    SmallVector<Value> inits(rows * kCols, zero);
    // A panel's partial sums: where the previous blocks of K left them.
    auto partial = [&](int64_t r, int64_t c) -> SmallVector<Value> {
      return {xRows[r], panelCols[c], constIndex(b, 0)};
    };
    Value pad = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    if (a.panel) {
      // (The first blocks start from zero: the buffer is not cleared.)
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a.blockLo,
                                          constIndex(b, 0));
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < kCols; ++c)
          inits[r * kCols + c] = arith::SelectOp::create(
              b, loc, first, zero,
              vector::TransferReadOp::create(b, loc, vecType, acc, partial(r, c), pad,
                                             ArrayRef<bool>{true}));
    }
    BlockLayout layout = getBlockLayout(a.encoding);
    Value blockLo = a.panel ? a.blockLo : constIndex(b, 0);
    Value blockHi = a.panel ? a.blockHi : constIndex(b, a.k / layout.elements);
    auto blocks = scf::ForOp::create(
        b, loc, blockLo, blockHi, constIndex(b, 1), inits,
        [&](OpBuilder &kb, Location, Value block, ValueRange sums) {
          SmallVector<BlockDecoder> decoders;
          for (Value r : wRows) {
            decoders.emplace_back(kb, loc, a.rhs, r, a.encoding);
            decoders.back().begin(block);
          }
          Value k0 = arith::MulIOp::create(kb, loc, block, constIndex(kb, layout.elements));
          SmallVector<Value> next(sums);
          forGroups(kb, loc, a.encoding, next,
                    [&](OpBuilder &gb, Value g, std::optional<bool> low, ValueRange carried) {
                      SmallVector<Value> sum(carried);
                      Value kg = arith::AddIOp::create(
                          gb, loc, k0, arith::MulIOp::create(gb, loc, g, constIndex(gb, 32)));
                      auto read = [&](Value source, Value row, int64_t v) -> Value {
                        Value k = arith::AddIOp::create(gb, loc, kg, constIndex(gb, lanes * v));
                        return vector::TransferReadOp::create(gb, loc, vecType, source,
                                                              ValueRange{row, k}, pad,
                                                              ArrayRef<bool>{true});
                      };
                      // The tile's lhs vectors first, then each weight row's
                      // (decoded, or read from the panel) times all of them.
                      SmallVector<std::array<Value, 2>> xs;
                      for (Value xr : xReads)
                        xs.push_back({read(a.x, xr, 0), read(a.x, xr, 1)});
                      for (int64_t c = 0; c < kCols; ++c) {
                        std::array<Value, 2> w =
                            a.panel ? std::array<Value, 2>{read(a.panel, panelCols[c], 0),
                                                           read(a.panel, panelCols[c], 1)}
                                    : decoders[c].group(g, low);
                        for (int64_t r = 0; r < rows; ++r)
                          for (int64_t v = 0; v < 2; ++v) {
                            Value &s = sum[r * kCols + c];
                            s = vector::FMAOp::create(gb, loc, w[v], xs[r][v], s);
                          }
                      }
                      return sum;
                    });
          scf::YieldOp::create(kb, loc, next);
        });
    if (a.panel) {
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < kCols; ++c)
          acc = vector::TransferWriteOp::create(b, loc, blocks.getResult(r * kCols + c), acc,
                                                partial(r, c), ArrayRef<bool>{true})
                    .getResult();
      return acc;
    }
    SmallVector<Value> sums(blocks.getResults());
    return writeSums(b, loc, xRows, c0, sums, acc);
  }

  /// `acc` with the sums of tile rows `xRows` by columns [c0, c0 + kCols)
  /// (kLanes each, row-major), added up, written (columns past the chunk's
  /// end not).
  static Value writeSums(OpBuilder &b, Location loc, ArrayRef<Value> xRows, Value c0,
                         ArrayRef<Value> sums, Value acc) {
    for (auto [r, xRow] : llvm::enumerate(xRows)) {
      SmallVector<Value> totals;
      for (int64_t c = 0; c < kCols; ++c)
        totals.push_back(vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD,
                                                     sums[r * kCols + c],
                                                     arith::FastMathFlags::reassoc));
      Value row = vector::FromElementsOp::create(
          b, loc, VectorType::get({kCols}, b.getF32Type()), totals);
      acc = vector::TransferWriteOp::create(b, loc, row, acc, ValueRange{xRow, c0},
                                            ArrayRef<bool>{false})
                .getResult();
    }
    return acc;
  }
};
} // namespace

void mo::populateMoQuantToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<DequantizeToKernel, QMatmulToKernel>(converter,
                                                    patterns.getContext());
}
