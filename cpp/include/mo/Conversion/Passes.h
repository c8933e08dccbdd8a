//===- Passes.h - mo passes and pipelines -----------------------*- C++ -*-===//
#ifndef MO_CONVERSION_PASSES_H
#define MO_CONVERSION_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class ModuleOp;
namespace mo {

#define GEN_PASS_DECL
#include "Mo/MoPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Mo/MoPasses.h.inc"

/// The whole CPU lowering, mo to the LLVM dialect (`--mo-cpu-pipeline`).
void buildCpuPipeline(OpPassManager &pm);
/// Registers `mo-cpu-pipeline`.
void registerPipelines();

} // namespace mo
} // namespace mlir

#endif // MO_CONVERSION_PASSES_H
