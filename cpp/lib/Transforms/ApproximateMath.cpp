//===- ApproximateMath.cpp - f32 math as inlined polynomials --------------===//
//
// LLVM turns `math.exp` into a call of libm's scalar `expf`, which keeps the
// loops around it from vectorizing (softmax: 12.2 ms against 5.1 ms with a
// polynomial, measured by the CPU codegen prototype). Upstream has the
// polynomial rewrites (populateMathPolynomialApproximationPatterns) but no
// pass that applies them; this is that pass, for exp and tanh, with an exp
// of mo's own where the target has AVX-512 (measured within 1 ulp of
// numpy's f32 results, upstream's exp within 6 and tanh within 4, special
// values exact: tests/python/test_schedules.py). Also mo-math-to-funcs:
// upstream's convert-math-to-funcs, fresh each run.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOAPPROXIMATEMATH
#define GEN_PASS_DEF_MOMATHTOFUNCS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

/// f32 exp(x) as 2^n exp(r), n = round(x log2(e)), |r| <= ln(2)/2, where
/// the target scales by 2^n in one instruction (AVX-512's vscalefps, from
/// llvm.ldexp), which rounds subnormal results and overflows to inf by
/// itself: 17 instructions a vector against upstream's 22, which clamps n
/// and builds 2^n from its bits. n is rounded by adding 1.5 * 2^23 (the
/// integer lands in the sum's low bits, read with no conversion, so a NaN
/// needs no care); r by Cody-Waite in two FMAs; exp(r) by Cephes'
/// polynomial (upstream's, within 1 ulp). x is clamped to [-104, 88.8]
/// (beyond, exp is 0 or inf) so that r stays small; NaN passes the clamps.
/// Scalars only (the LLVM dialect's ldexp takes one exponent; LLVM's
/// vectorizer makes it a vector's): a vector exp, of a schedule's register
/// tile, stays upstream's.
struct ExpByScaling : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Type i32 = rewriter.getI32Type();
    auto constant = [&](float value) -> Value {
      return arith::ConstantOp::create(b, type, b.getF32FloatAttr(value));
    };
    auto fma = [&](Value x, Value y, Value z) -> Value {
      return math::FmaOp::create(b, x, y, z);
    };
    auto clamp = [&](Value x, arith::CmpFPredicate keep, float bound) -> Value {
      Value limit = constant(bound);
      return arith::SelectOp::create(b, arith::CmpFOp::create(b, keep, x, limit), x, limit);
    };
    Value x = clamp(op.getOperand(), arith::CmpFPredicate::UGE, -104.0f);
    x = clamp(x, arith::CmpFPredicate::ULE, 88.8f);
    Value magic = constant(0x1.8p23f);
    Value biased = fma(x, constant(1.44269504088896341f), magic);
    Value n = arith::SubFOp::create(b, biased, magic);
    Value r = fma(n, constant(-0.693359375f), x);
    r = fma(n, constant(2.12194440e-4f), r);
    Value p = fma(r, constant(1.9875691500e-4f), constant(1.3981999507e-3f));
    for (float c : {8.3334519073e-3f, 4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f})
      p = fma(p, r, constant(c));
    p = fma(p, arith::MulFOp::create(b, r, r), r);
    p = arith::AddFOp::create(b, p, constant(1.0f));
    Value exponent = arith::SubIOp::create(b, arith::BitcastOp::create(b, i32, biased),
                                           arith::BitcastOp::create(b, i32, magic));
    rewriter.replaceOpWithNewOp<LLVM::LoadExpOp>(op, type, p, exponent);
    return success();
  }
};

struct MoApproximateMathPass
    : public mo::impl::MoApproximateMathBase<MoApproximateMathPass> {
  using MoApproximateMathBase::MoApproximateMathBase;

  LogicalResult initialize(MLIRContext *) override {
    scales = mo::cpuFeatureMap(cpuFeatures).lookup("avx512f");
    return success();
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // mo's exp, where the target scales, goes first (the higher benefit);
    // upstream's takes what it leaves (vectors).
    if (scales)
      patterns.add<ExpByScaling>(&getContext(), /*benefit=*/2);
    populateMathPolynomialApproximationPatterns(patterns, [&](StringRef name) {
      return name == "math.exp" || name == "math.tanh";
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }

  /// Whether the target scales by 2^n in one instruction (AVX-512).
  bool scales = false;
};

struct MoMathToFuncsPass : public mo::impl::MoMathToFuncsBase<MoMathToFuncsPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    createConvertMathToFuncs()->getDependentDialects(registry);
  }

  void runOnOperation() override {
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createConvertMathToFuncs());
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};
} // namespace
