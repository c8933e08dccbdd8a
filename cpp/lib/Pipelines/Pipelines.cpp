//===- Pipelines.cpp - mo's lowering pipelines ----------------------------===//
//
// One textual pipeline per target, so `mo-opt`, the Python API and the tests
// run exactly the same passes (upstream ones wherever they exist).
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

// linalg on tensors → fused → bufferized (outputs written in place,
// temporaries freed) → loops → LLVM dialect.
static const char kCpuCodegen[] =
    "canonicalize,cse,"
    "func.func(linalg-fuse-elementwise-ops),"
    "canonicalize,"
    "eliminate-empty-tensors,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    // In-place slice updates leave self-copies of equal subviews: fold them.
    "cse,canonicalize,"
    "buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,"
    "func.func(mo-interchange-contractions,convert-linalg-to-loops),"
    "mo-widen-bool-memrefs,"
    "expand-strided-metadata,"
    "lower-affine,"
    "convert-scf-to-cf,"
    "convert-math-to-funcs,"
    "func.func(convert-math-to-llvm),"
    "convert-math-to-libm,"
    "finalize-memref-to-llvm,"
    "convert-arith-to-llvm,"
    "convert-index-to-llvm,"
    "convert-cf-to-llvm,"
    "convert-func-to-llvm,"
    "convert-ub-to-llvm,"
    "reconcile-unrealized-casts";

static void parseInto(StringRef pipeline, OpPassManager &pm) {
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("mo: a built-in pipeline does not parse");
}

void mlir::mo::buildCpuPipeline(OpPassManager &pm) {
  parseInto(std::string("mo-lower-to-linalg,") + kCpuCodegen, pm);
}

void mlir::mo::registerPipelines() {
  PassPipelineRegistration<>(
      "mo-cpu-pipeline",
      "Lowers mo to the LLVM dialect for the CPU (mo-lower-to-linalg, "
      "fusion, bufferization, loops, LLVM)",
      buildCpuPipeline);
  // The same after mo-lower-to-linalg: lets a driver inspect the lowered
  // entry signature (weights, outputs) before generating code.
  PassPipelineRegistration<>(
      "mo-cpu-codegen",
      "The CPU pipeline after mo-lower-to-linalg (linalg/tensor to LLVM)",
      [](OpPassManager &pm) { parseInto(kCpuCodegen, pm); });
}
