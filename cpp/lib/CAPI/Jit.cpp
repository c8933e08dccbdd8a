//===- Jit.cpp - mo's JIT: upstream's engine, mo's LLVM pipeline ----------===//
//
// What upstream's mlirExecutionEngineCreate does, with 512-bit loops where
// the core has them, and one more step before LLVM's optimization pipeline:
// identical functions merged. The kernels of a
// graph are OpenMP-outlined functions; a shape that recurs (four projections
// of one size, three equal MLP layers) gives identical ones, which would
// otherwise each be optimized and compiled (w7: 0.75 -> 0.55 s of LLVM).
//
//===----------------------------------------------------------------------===//

#include "mo-c/Jit.h"

#include "../Runtime/MoRuntime.h"

#include "mlir/CAPI/ExecutionEngine.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Transforms/IPO/MergeFunctions.h"

using namespace mlir;

extern "C" MlirExecutionEngine moJitCreate(MlirModule module, int optLevel, int numPaths,
                                           const MlirStringRef *sharedLibPaths,
                                           MlirStringCallback onError, void *userData) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmParser();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  auto fail = [&](llvm::Error error) {
    std::string message = llvm::toString(std::move(error));
    onError(mlirStringRefCreate(message.data(), message.size()), userData);
    return MlirExecutionEngine{nullptr};
  };
  ModuleOp op = unwrap(module);
  MLIRContext &ctx = *op->getContext();
  registerBuiltinDialectTranslation(ctx);
  registerLLVMDialectTranslation(ctx);
  registerOpenMPDialectTranslation(ctx);

  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return fail(builder.takeError());
  // LLVM tunes AVX-512 server cores to vectorize loops 256 bits wide. mo's
  // scheduled kernels use the widest registers already; for LLVM's loops,
  // 512 bits make a softmax's row kernel 15 % faster and a pure stream 8 %
  // slower (numpy's arrays start 16 bytes into a cache line, so every zmm
  // load of one straddles two): the compute-bound kernels win.
  builder->getFeatures().AddFeature("prefer-256-bit", false);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return fail(machine.takeError());
  auto optimize = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0, machine->get());
  auto transform = [&](llvm::Module *m) -> llvm::Error {
    llvm::MergeFunctionsPass::runOnModule(*m);
    return optimize(m);
  };
  SmallVector<StringRef> libraries;
  for (int i = 0; i < numPaths; ++i)
    libraries.push_back(unwrap(sharedLibPaths[i]));
  ExecutionEngineOptions options;
  options.transformer = transform;
  options.jitCodeGenOptLevel = static_cast<llvm::CodeGenOptLevel>(optLevel);
  options.sharedLibPaths = libraries;
  auto engine = ExecutionEngine::create(op, options, std::move(*machine));
  if (!engine)
    return fail(engine.takeError());
  // mo's runtime by address: its library stays out of the global scope.
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    struct Table {
      llvm::orc::MangleAndInterner &interner;
      llvm::orc::SymbolMap map;
    } table{interner, {}};
    mo::forEachRuntimeSymbol(
        [](const char *name, void *address, void *user) {
          auto *t = static_cast<Table *>(user);
          t->map[t->interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                       llvm::JITSymbolFlags::Exported};
        },
        &table);
    return table.map;
  });
  return wrap(engine->release());
}
