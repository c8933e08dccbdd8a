//===- ApproximateMath.cpp - f32 math as inlined polynomials --------------===//
//
// LLVM turns `math.exp` into a call of libm's scalar `expf`, which keeps the
// loops around it from vectorizing (softmax: 12.2 ms against 5.1 ms with a
// polynomial, measured by the CPU codegen prototype). Upstream has the
// polynomial rewrites (populateMathPolynomialApproximationPatterns) but no
// pass that applies them; this is that pass, for exp and tanh, whose
// approximations are within 1 and 2 ulp of numpy's f32 results with the
// special values exact (tests/python/test_schedules.py). Also
// mo-math-to-funcs: upstream's convert-math-to-funcs, fresh each run.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOAPPROXIMATEMATH
#define GEN_PASS_DEF_MOMATHTOFUNCS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {
struct MoApproximateMathPass
    : public mo::impl::MoApproximateMathBase<MoApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == "math.exp" || name == "math.tanh";
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
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
