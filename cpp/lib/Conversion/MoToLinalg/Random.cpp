//===- Random.cpp - mo.random to a linalg.generic of hashes ---------------===//
//
// Element j of a random tensor is the j-th output of SplitMix64 seeded with
// key = mix(seed ^ mix(counter)): a pure function of its row-major index,
// so one parallel linalg.generic computes any slice of it in any order.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mo;

static constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

static Value i64Constant(OpBuilder &b, Location loc, uint64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(static_cast<int64_t>(v)));
}

/// SplitMix64's finalizer of `z` (an i64).
static Value mix(OpBuilder &b, Location loc, Value z) {
  auto step = [&](Value x, unsigned shift, uint64_t factor) {
    Value s = arith::ShRUIOp::create(b, loc, x, i64Constant(b, loc, shift));
    Value y = arith::XOrIOp::create(b, loc, x, s);
    return factor ? Value(arith::MulIOp::create(b, loc, y, i64Constant(b, loc, factor))) : y;
  };
  z = step(z, 30, 0xBF58476D1CE4E5B9ULL);
  z = step(z, 27, 0x94D049BB133111EBULL);
  return step(z, 31, 0);
}

/// The j-th SplitMix64 output from `key`.
static Value hashAt(OpBuilder &b, Location loc, Value key, Value j) {
  Value state = arith::AddIOp::create(
      b, loc, key,
      arith::MulIOp::create(b, loc, arith::AddIOp::create(b, loc, j, i64Constant(b, loc, 1)),
                            i64Constant(b, loc, kGolden)));
  return mix(b, loc, state);
}

/// A uniform float of `type` in [0, 1) from the high bits of `h`: as many as
/// its significand holds, so the value is exact and below 1.
static Value uniformFrom(OpBuilder &b, Location loc, Value h, FloatType type) {
  unsigned bits = type.getFPMantissaWidth();
  Value top = arith::ShRUIOp::create(b, loc, h, i64Constant(b, loc, 64 - bits));
  Value v = arith::UIToFPOp::create(b, loc, type, top);
  return arith::MulFOp::create(
      b, loc, v,
      arith::ConstantOp::create(b, loc, b.getFloatAttr(type, std::ldexp(1.0, -int(bits)))));
}

namespace {

struct RandomToLinalg : OpConversionPattern<RandomOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RandomOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<mo::TensorType>(op.getType());
    FailureOr<Value> init = emptyTensor(rewriter, loc, op, type, {});
    if (failed(init))
      return failure();
    auto element = cast<FloatType>(convertElementType(type.getElementType()));
    bool normal = op.getDistribution() == RandomDistribution::Normal;
    // Normals are computed in f32 (f64 for f64) and rounded once.
    auto wide = cast<FloatType>(accumulatorType(element));
    Value seed = tensor::ExtractOp::create(rewriter, loc, adaptor.getSeed());
    Value counter = tensor::ExtractOp::create(rewriter, loc, adaptor.getCounter());
    Value key = mix(rewriter, loc,
                    arith::XOrIOp::create(rewriter, loc, seed, mix(rewriter, loc, counter)));
    int64_t rank = type.getRank();
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(tensor::DimOp::create(rewriter, loc, *init, d));
    Value result = generateElements(
        rewriter, loc, *init, ValueRange{}, {},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange) -> Value {
          // Row-major index of this element.
          Value j = arith::ConstantIndexOp::create(b, l, 0);
          for (int64_t d = 0; d < rank; ++d)
            j = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, j, sizes[d]), ivs[d]);
          Value index = arith::IndexCastOp::create(b, l, b.getI64Type(), j);
          if (!normal)
            return uniformFrom(b, l, hashAt(b, l, key, index), element);
          Value first = arith::MulIOp::create(b, l, index, i64Constant(b, l, 2));
          Value second = arith::AddIOp::create(b, l, first, i64Constant(b, l, 1));
          Value u1 = uniformFrom(b, l, hashAt(b, l, key, first), wide);
          Value u2 = uniformFrom(b, l, hashAt(b, l, key, second), wide);
          auto c = [&](double x) {
            return arith::ConstantOp::create(b, l, b.getFloatAttr(wide, x));
          };
          // sqrt(-2 log(1 - u1)) * cos(2 pi u2); 1 - u1 is in (0, 1].
          Value r = math::SqrtOp::create(
              b, l, arith::MulFOp::create(
                        b, l, c(-2.0),
                        math::LogOp::create(b, l, arith::SubFOp::create(b, l, c(1.0), u1))));
          Value angle = arith::MulFOp::create(b, l, c(2.0 * M_PI), u2);
          Value v = arith::MulFOp::create(b, l, r, math::CosOp::create(b, l, angle));
          return wide == element ? v : Value(arith::TruncFOp::create(b, l, element, v));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mo::populateMoRandomToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<RandomToLinalg>(converter, patterns.getContext());
}
