//===- Registration.cpp - what mo registers -------------------------------===//

#include "mo/Tools/Registration.h"

#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mlir::mo::registerDialects(DialectRegistry &registry) {
  registerMoDialect(registry);
  registry.insert<arith::ArithDialect, func::FuncDialect,
                  tensor::TensorDialect>();
}

void mlir::mo::registerPasses() {
  static bool once = [] {
    // canonicalize, cse, inline, symbol-dce, ... (MLIRTransforms).
    registerTransformsPasses();
    return true;
  }();
  (void)once;
}
