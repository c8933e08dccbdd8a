//===- ToLLVM.cpp - the kernels' last step to the LLVM dialect ------------===//
//
// memref, arith, index, cf, func, ub and omp to the LLVM dialect in one
// dialect conversion, with upstream's patterns (as upstream's own
// convert-openmp-to-llvm gathers five dialects' patterns), in place of one
// pass per dialect: each of those walks every kernel again and sets up a
// conversion of its own.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOCONVERTTOLLVM
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

struct MoConvertToLLVMPass : public mo::impl::MoConvertToLLVMBase<MoConvertToLLVMPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LowerToLLVMOptions options(ctx);
    // Allocation through mo's runtime, which keeps large blocks warm.
    options.useGenericFunctions = true;
    LLVMTypeConverter converter(ctx, options);
    RewritePatternSet patterns(ctx);
    SymbolTableCollection symbolTables;
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns, &symbolTables);
    // As convert-arith-to-llvm: ceil/floor divisions expanded first.
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    cf::populateAssertToLLVMConversionPattern(converter, patterns, /*abortOnFailure=*/true,
                                              &symbolTables);
    populateFuncToLLVMConversionPatterns(converter, patterns, &symbolTables);
    populateOpenMPToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addLegalOp<omp::BarrierOp, omp::FlushOp, omp::TaskwaitOp, omp::TaskyieldOp,
                      omp::TerminatorOp>();
    configureOpenMPToLLVMConversionLegality(target, converter);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
