//===- MoToLinalg.cpp - the mo-lower-to-linalg pass -----------------------===//
//
// Weights become arguments (mo-weights-to-arguments), the module is checked
// for what the lowering needs (Prepare.cpp), then one full dialect conversion
// with the patterns of every family (one file each) and the type converter
// below. Ops of other dialects pass through unchanged.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Conversion/Passes.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOLOWERTOLINALG
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;
using namespace mlir::mo;

MoToLinalgTypeConverter::MoToLinalgTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](mo::TensorType t) -> Type {
    return RankedTensorType::get(t.getStaticShape(),
                                 convertElementType(t.getElementType()));
  });
  addConversion([](BufferType t) -> Type {
    return MemRefType::get(t.getStaticShape(),
                           convertElementType(t.getElementType()));
  });
  // Chains only order effects: a dummy i1.
  addConversion(
      [](ChainType t) -> Type { return IntegerType::get(t.getContext(), 1); });
}

void mo::populateMoToLinalgConversionPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  populateMoGraphToFuncPatterns(converter, patterns);
  populateMoElementwiseToLinalgPatterns(converter, patterns);
  populateMoReduceToLinalgPatterns(converter, patterns);
  populateMoContractionToLinalgPatterns(converter, patterns);
  populateMoConvolutionToLinalgPatterns(converter, patterns);
  populateMoIndexToLinalgPatterns(converter, patterns);
  populateMoRandomToLinalgPatterns(converter, patterns);
  populateMoControlToScfPatterns(converter, patterns);
  populateMoPrintToCallPatterns(converter, patterns);
  populateMoCustomToCallPatterns(converter, patterns);
  populateMoShapeToTensorPatterns(converter, patterns);
  populateMoBufferToMemRefPatterns(converter, patterns);
  populateMoQuantToLinalgPatterns(converter, patterns);
}

namespace {
struct MoLowerToLinalgPass
    : public mo::impl::MoLowerToLinalgBase<MoLowerToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(moveWeightsToArguments(module)) ||
        failed(prepareForLowering(module)))
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    MoToLinalgTypeConverter converter;
    ConversionTarget target(*ctx);
    target.addIllegalDialect<MoDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(ctx);
    populateMoToLinalgConversionPatterns(converter, patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
