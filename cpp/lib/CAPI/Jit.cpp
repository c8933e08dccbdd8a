//===- Jit.cpp - mo's code generator and loader ---------------------------===//
//
// Code generation: the LLVM-dialect module translated to LLVM IR, a packed
// wrapper added per C interface (the interface and the entry inlined into
// it: the one copy of the entry), identical functions merged (a graph's
// kernels of one shape are OpenMP-outlined functions that come out equal:
// w7 0.75 -> 0.55 s of LLVM), then LLVM's -O<n> (a few passes for the
// functions MLIR vectorized) and an object file for the host, a large
// module split by size into one object per core compiled at once. A graph
// (moJitCompileGraph) is split earlier, after mo-cpu-kernels: its kernels
// in modules of their own, each lowered the rest of the way, translated and
// compiled on a thread beside the others.
// Loading: ORC's LLJIT links the object against mo's runtime (by address:
// the library holding it stays out of the process's global scope, where its
// C API would shadow another MLIR's), the process and the given libraries.
//
//===----------------------------------------------------------------------===//

#include "mo-c/Jit.h"

#include "../Runtime/MoRuntime.h"

#include "mo/Conversion/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Transforms/IPO/MergeFunctions.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopRotation.h"
#include "llvm/Transforms/Scalar/LoopStrengthReduce.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/CanonicalizeFreezeInLoops.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <atomic>
#include <optional>
#include <thread>

using namespace mlir;

struct MoJit {
  std::unique_ptr<llvm::orc::LLJIT> jit;
};

namespace {

void initializeTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmParser();
    llvm::InitializeNativeTargetAsmPrinter();
    auto &options = llvm::cl::getRegisteredOptions();
    auto set = [&](StringRef name, StringRef value) {
      auto it = options.find(name);
      if (it != options.end())
        (void)it->second->addOccurrence(0, name, value);
    };
    // ConstraintElimination's Fourier-Motzkin elimination grows fast with
    // the facts it holds: an entry checking 73 arguments' sizes spent 400
    // ms in it (a 24-layer stack: 17 % of its whole compile, and bounding
    // its rows did not help). mo's kernels are vectorized with their
    // bounds known; the run time of w1-w7 is the same without it.
    set("enable-constraint-elimination", "false");
    // Loop strength reduction runs in optimize(), where it pays, not in
    // code generation on every loop (ReduceStrength).
    set("disable-lsr", "true");
    return true;
  }();
  (void)initialized;
}

void report(MlirStringCallback callback, void *userData, llvm::StringRef text) {
  callback(mlirStringRefCreate(text.data(), text.size()), userData);
}

/// The host as code is generated for it. LLVM tunes AVX-512 server cores
/// to vectorize loops 256 bits wide; mo's scheduled kernels use the widest
/// registers already, and for LLVM's loops 512 bits make a softmax's row
/// kernel 15 % faster and a pure stream 8 % slower (numpy's arrays start 16
/// bytes into a cache line, so every zmm load of one straddles two): the
/// compute-bound kernels win.
llvm::Expected<llvm::orc::JITTargetMachineBuilder> hostTarget() {
  // Detected once: reading the CPU's features is a few percent of a small
  // graph's compile, and every compile and load asks.
  static const auto detected = [] {
    initializeTarget();
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (builder) {
      builder->getFeatures().AddFeature("prefer-256-bit", false);
      // Position-independent: the linker may place the object anywhere.
      builder->setRelocationModel(llvm::Reloc::PIC_);
    }
    return builder ? std::optional(std::move(*builder))
                   : (llvm::consumeError(builder.takeError()), std::nullopt);
  }();
  if (!detected)
    return llvm::createStringError("cannot detect the host's target");
  return *detected;
}

/// The C interface `call` calls, and the entry function it calls, inlined
/// at `call` and gone (the runtime looks up only the packed wrapper): both
/// were external copies of the entry that LLVM optimized and compiled, the
/// entry itself twice (once inlined into its interface), which made a
/// 24-layer stack's 73 argument checks and 24 calls 2.4x a layer's time.
void inlineEntry(llvm::CallInst *call) {
  llvm::Function *interface = call->getCalledFunction();
  SmallVector<llvm::CallBase *> inner;
  for (llvm::Instruction &inst : llvm::instructions(*interface))
    if (auto *site = dyn_cast<llvm::CallBase>(&inst))
      if (llvm::Function *callee = site->getCalledFunction(); callee && !callee->isDeclaration())
        inner.push_back(site);
  llvm::SmallSetVector<llvm::Function *, 2> callees; // each erased once
  for (llvm::CallBase *site : inner) {
    callees.insert(site->getCalledFunction());
    llvm::InlineFunctionInfo info;
    (void)llvm::InlineFunction(*site, info);
  }
  llvm::InlineFunctionInfo info;
  if (!llvm::InlineFunction(*call, info).isSuccess())
    return;
  callees.insert(interface);
  for (llvm::Function *callee : callees)
    if (callee->use_empty())
      callee->eraseFromParent();
}

/// `_mo_packed_<f>(void **args)` for each `_mlir_ciface_<f>`: loads each
/// argument through its pointer, calls, stores a result through the slot
/// after the arguments'.
void addPackedWrappers(llvm::Module &module) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::IRBuilder<> builder(ctx);
  SmallVector<llvm::Function *> interfaces;
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && f.getName().starts_with("_mlir_ciface_"))
      interfaces.push_back(&f);
  for (llvm::Function *f : interfaces) {
    auto *type = llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(), false);
    std::string name = ("_mo_packed_" + f->getName().drop_front(13)).str();
    auto *wrapper = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, module);
    builder.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", wrapper));
    llvm::Value *list = wrapper->getArg(0);
    SmallVector<llvm::Value *> args;
    for (auto [i, arg] : llvm::enumerate(f->args())) {
      llvm::Value *slot = builder.CreateLoad(
          builder.getPtrTy(), builder.CreateConstGEP1_64(builder.getPtrTy(), list, i));
      args.push_back(builder.CreateLoad(arg.getType(), slot));
    }
    llvm::CallInst *result = builder.CreateCall(f, args);
    if (!result->getType()->isVoidTy()) {
      llvm::Value *slot = builder.CreateLoad(
          builder.getPtrTy(),
          builder.CreateConstGEP1_64(builder.getPtrTy(), list, f->arg_size()));
      builder.CreateStore(result, slot);
    }
    builder.CreateRetVoid();
    inlineEntry(result);
  }
}

} // namespace

extern "C" bool moJitHostTarget(MlirStringCallback onTarget, void *targetData,
                                MlirStringCallback onError, void *errorData) {
  auto builder = hostTarget();
  if (!builder) {
    report(onError, errorData, llvm::toString(builder.takeError()));
    return false;
  }
  std::string text = builder->getTargetTriple().str() + " " + builder->getCPU() + " " +
                     builder->getFeatures().getString();
  report(onTarget, targetData, text);
  return true;
}

namespace {

/// Whether MLIR vectorized the function of `loops`: it has loops, and every
/// innermost one works on vectors (mo-lower-vectors' register tiles, packs
/// and rows). LLVM's vectorizers have nothing left to do there.
bool isVectorized(const llvm::LoopInfo &loops) {
  if (loops.empty())
    return false;
  auto isVector = [](const llvm::Value *value) { return value->getType()->isVectorTy(); };
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost())
      continue;
    bool vector = llvm::any_of(loop->blocks(), [&](llvm::BasicBlock *block) {
      return llvm::any_of(*block, [&](llvm::Instruction &inst) {
        return isVector(&inst) || llvm::any_of(inst.operands(), isVector);
      });
    });
    if (!vector)
      return false;
  }
  return true;
}

/// What a function MLIR vectorized still needs before code generation: its
/// allocas in registers, the address arithmetic of each unrolled vector
/// access shared and simplified, and the loop-invariant part hoisted out of
/// rotated loops (as -O2 leaves them for code generation). Without the
/// rotation a Q5_K qmatmul (M=64) ran 15% slower, without instcombine
/// benchmarks/shapes.py's MLP 18%. -O2 on these functions cost w7's LLVM
/// phase 164-171 against 137-141 ms wall at equal run time (w1-w7 at one
/// and two threads, shapes.py, qmatmul.py); indvars alone cost what the
/// rest saves.
llvm::FunctionPassManager vectorizedPipeline() {
  llvm::FunctionPassManager pipeline;
  pipeline.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  pipeline.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
  pipeline.addPass(llvm::InstCombinePass());
  pipeline.addPass(llvm::SimplifyCFGPass());
  llvm::LoopPassManager loops;
  loops.addPass(llvm::LoopRotatePass());
  loops.addPass(llvm::LICMPass(llvm::LICMOptions()));
  pipeline.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(loops), /*UseMemorySSA=*/true));
  return pipeline;
}

/// Code generation's first IR pass, loop strength reduction, which code
/// generation here leaves out (initializeTarget): run on the functions
/// -O<n> optimized, and of those MLIR vectorized on their register tiles'
/// k loops only (innermost, of vector FMAs), where it shaves a percent or
/// two off a matmul. Their other loops are unrolled vector accesses, many
/// uses of one induction variable each, which cost it a quarter of their
/// code generation for no faster code (w1-w7, shapes.py, qmatmul.py): w7's
/// LLVM phase 143 -> 134 ms wall, 248 -> 232 CPU (best of 12, one process).
struct ReduceStrength : llvm::PassInfoMixin<ReduceStrength> {
  bool fmaLoopsOnly;

  llvm::PreservedAnalyses run(llvm::Loop &loop, llvm::LoopAnalysisManager &analyses,
                              llvm::LoopStandardAnalysisResults &results,
                              llvm::LPMUpdater &updater) {
    auto isVectorFma = [](llvm::Instruction &inst) {
      auto *call = dyn_cast<llvm::IntrinsicInst>(&inst);
      return call && call->getType()->isVectorTy() &&
             (call->getIntrinsicID() == llvm::Intrinsic::fma ||
              call->getIntrinsicID() == llvm::Intrinsic::fmuladd);
    };
    if (fmaLoopsOnly && (!loop.isInnermost() ||
                         llvm::none_of(loop.blocks(), [&](llvm::BasicBlock *block) {
                           return llvm::any_of(*block, isVectorFma);
                         })))
      return llvm::PreservedAnalyses::all();
    return llvm::LoopStrengthReducePass().run(loop, analyses, results, updater);
  }
};

llvm::FunctionPassManager strengthReduction(bool fmaLoopsOnly) {
  llvm::LoopPassManager loops;
  loops.addPass(llvm::CanonicalizeFreezeInLoopsPass());
  loops.addPass(ReduceStrength{{}, fmaLoopsOnly});
  llvm::FunctionPassManager pipeline;
  pipeline.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(loops)));
  return pipeline;
}

/// The streaming stores of mo-stream-stores. Its twins ("mo-streaming", an
/// attribute OpenMP's outlined regions inherit) mark nontemporal the stores
/// of buffers they were called with only if 64-byte aligned. LLVM's loop
/// vectorizer leaves a loop of nontemporal scalar stores scalar (it wants
/// each vector store aligned to its size), so the mark comes off before
/// optimization; the buffers remain, assumed aligned where they are defined
/// (an assumption in an OpenMP region does not survive its outlining). After
/// optimization, the vector stores into them of whole cache lines or halves,
/// known aligned, are marked again and become streaming stores, and a function
/// with any fences them before it returns: a streaming store is ordered
/// with no other, and a consumer may run on another thread. Anywhere else
/// the mark just comes off.
class StreamingStores {
public:
  explicit StreamingStores(llvm::Module &module) {
    for (llvm::Function &f : module) {
      llvm::SmallSetVector<llvm::Value *, 4> written;
      for (llvm::Instruction &inst : llvm::instructions(f))
        if (auto *store = dyn_cast<llvm::StoreInst>(&inst);
            store && store->getMetadata(llvm::LLVMContext::MD_nontemporal)) {
          store->setMetadata(llvm::LLVMContext::MD_nontemporal, nullptr);
          written.insert(llvm::getUnderlyingObject(store->getPointerOperand()));
        }
      if (!f.hasFnAttribute(mo::kStreamingAttr))
        continue;
      for (llvm::Value *buffer : written) {
        llvm::BasicBlock::iterator at = f.getEntryBlock().getFirstInsertionPt();
        if (auto *def = dyn_cast<llvm::Instruction>(buffer))
          at = isa<llvm::PHINode>(def) ? def->getParent()->getFirstInsertionPt()
                                       : std::next(def->getIterator());
        llvm::IRBuilder<> builder(f.getContext());
        builder.SetInsertPoint(at);
        builder.CreateAlignmentAssumption(f.getDataLayout(), buffer, mo::kCacheLineBytes);
        buffers.emplace_back(buffer);
      }
    }
  }

  void stream(llvm::Module &module, llvm::FunctionAnalysisManager &functions) {
    if (buffers.empty() || !module.getTargetTriple().isX86())
      return;
    llvm::SmallPtrSet<const llvm::Value *, 8> live;
    for (llvm::WeakTrackingVH &buffer : buffers)
      if (buffer)
        live.insert(buffer);
    for (llvm::Function &f : module)
      if (f.hasFnAttribute(mo::kStreamingAttr) && !f.isDeclaration())
        stream(f, functions, live);
  }

private:
  void stream(llvm::Function &f, llvm::FunctionAnalysisManager &functions,
              const llvm::SmallPtrSetImpl<const llvm::Value *> &live) {
    const llvm::DataLayout &layout = f.getDataLayout();
    auto &assumptions = functions.getResult<llvm::AssumptionAnalysis>(f);
    auto &dominators = functions.getResult<llvm::DominatorTreeAnalysis>(f);
    auto &loops = functions.getResult<llvm::LoopAnalysis>(f);
    llvm::MDNode *mark = nullptr;
    for (llvm::Instruction &inst : llvm::instructions(f)) {
      auto *store = dyn_cast<llvm::StoreInst>(&inst);
      if (!store || !store->getValueOperand()->getType()->isVectorTy())
        continue;
      // Whole 32-byte halves (AVX2's vectors) or lines, consecutive stores
      // completing each line.
      llvm::TypeSize bytes = layout.getTypeStoreSize(store->getValueOperand()->getType());
      if (bytes.isScalable() || bytes.getFixedValue() % (mo::kCacheLineBytes / 2))
        continue;
      SmallVector<const llvm::Value *> objects;
      llvm::getUnderlyingObjects(store->getPointerOperand(), objects, &loops);
      if (objects.empty() ||
          !llvm::all_of(objects, [&](const llvm::Value *o) { return live.contains(o); }))
        continue;
      // (Known bits see no alignment through strength-reduced pointers,
      // InferAlignment did before.)
      llvm::Align known =
          std::max(store->getAlign(), llvm::getKnownAlignment(store->getPointerOperand(), layout,
                                                              store, &assumptions, &dominators));
      if (known < llvm::Align(std::min<uint64_t>(bytes.getFixedValue(), mo::kCacheLineBytes)))
        continue;
      if (!mark) {
        llvm::LLVMContext &context = f.getContext();
        mark = llvm::MDNode::get(context, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                              llvm::Type::getInt32Ty(context), 1)));
      }
      store->setAlignment(known);
      store->setMetadata(llvm::LLVMContext::MD_nontemporal, mark);
    }
    if (!mark)
      return;
    for (llvm::BasicBlock &block : f)
      if (auto *ret = dyn_cast<llvm::ReturnInst>(block.getTerminator()))
        llvm::IRBuilder<>(ret).CreateIntrinsic(llvm::Intrinsic::x86_sse_sfence, {});
  }

  SmallVector<llvm::WeakTrackingVH> buffers;
};

/// `f`'s loads and stores of aggregates (the memref descriptors OpenMP's
/// outlining passes by address) made one per field, and each field read
/// where it was written. -O0's instruction selector, FastISel, takes no
/// aggregate: SelectionDAG selects the block with one from its start up to
/// it, and a driver is a few long blocks (w7's went through SelectionDAG
/// nearly whole: 10 -> 1.3 ms of instruction selection).
void splitAggregateAccesses(llvm::Function &f) {
  SmallVector<llvm::Instruction *> accesses;
  for (llvm::Instruction &inst : llvm::instructions(f))
    if (auto *load = dyn_cast<llvm::LoadInst>(&inst);
        load && load->isSimple() && load->getType()->isAggregateType())
      accesses.push_back(load);
    else if (auto *store = dyn_cast<llvm::StoreInst>(&inst);
             store && store->isSimple() &&
             store->getValueOperand()->getType()->isAggregateType())
      accesses.push_back(store);
  const llvm::DataLayout &layout = f.getDataLayout();
  for (llvm::Instruction *access : accesses) {
    llvm::IRBuilder<> builder(access);
    llvm::Type *type = llvm::getLoadStoreType(access);
    llvm::Value *address = llvm::getLoadStorePointerOperand(access);
    llvm::Align align = llvm::getLoadStoreAlignment(access);
    auto *store = dyn_cast<llvm::StoreInst>(access);
    llvm::Value *loaded = llvm::PoisonValue::get(type);
    SmallVector<unsigned> path;
    // Each scalar field, depth first.
    std::function<void(llvm::Type *)> visit = [&](llvm::Type *field) {
      if (auto *fields = dyn_cast<llvm::StructType>(field)) {
        for (unsigned i = 0, e = fields->getNumElements(); i < e; ++i) {
          path.push_back(i);
          visit(fields->getElementType(i));
          path.pop_back();
        }
        return;
      }
      if (auto *array = dyn_cast<llvm::ArrayType>(field)) {
        for (unsigned i = 0, e = array->getNumElements(); i < e; ++i) {
          path.push_back(i);
          visit(array->getElementType());
          path.pop_back();
        }
        return;
      }
      SmallVector<llvm::Value *> indices{builder.getInt32(0)};
      for (unsigned i : path)
        indices.push_back(builder.getInt32(i));
      llvm::Value *at = builder.CreateInBoundsGEP(type, address, indices);
      llvm::Align fieldAlign =
          llvm::commonAlignment(align, layout.getIndexedOffsetInType(type, indices));
      if (store)
        builder.CreateAlignedStore(builder.CreateExtractValue(store->getValueOperand(), path),
                                   at, fieldAlign);
      else
        loaded = builder.CreateInsertValue(
            loaded, builder.CreateAlignedLoad(field, at, fieldAlign), path);
    };
    visit(type);
    if (!store)
      access->replaceAllUsesWith(loaded);
    access->eraseFromParent();
  }
  SmallVector<llvm::WeakTrackingVH> dead;
  for (llvm::Instruction &inst : llvm::instructions(f))
    if (auto *extract = dyn_cast<llvm::ExtractValueInst>(&inst))
      if (llvm::Value *field =
              llvm::FindInsertedValue(extract->getAggregateOperand(), extract->getIndices());
          field && field->getType() == extract->getType()) {
        extract->replaceAllUsesWith(field);
        dead.push_back(extract);
      }
  llvm::RecursivelyDeleteTriviallyDeadInstructionsPermissive(dead);
}

/// LLVM's -O<optLevel> pipeline without its loop unroller, for the
/// functions MLIR did not vectorize (elementwise and row-reduction kernels
/// that reach LLVM as scalar loops: w4/w5 run 7-17x slower without its loop
/// and SLP vectorizers; drivers and glue); vectorizedPipeline() for the
/// rest, which O2 skips as optnone. The unroller does not pay: mo's vector
/// kernels are unrolled in MLIR already, and its copies of the vectorized
/// loops (and, at run-time trip counts, of the scalar loop kept for
/// overlapping buffers) doubled the code that instruction selection and
/// loop strength reduction then work through (w7's cold compile 800 -> 600
/// ms at equal run time).
void optimize(llvm::Module &module, llvm::TargetMachine &machine, int optLevel) {
  StreamingStores streaming(module);
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassInstrumentationCallbacks instrumentation;
  llvm::OptNoneInstrumentation optNone(/*DebugLogging=*/false);
  optNone.registerCallbacks(instrumentation);
  llvm::PassBuilder builder(&machine, tuning, std::nullopt, &instrumentation);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  if (optLevel <= 0) {
    for (llvm::Function &f : module)
      if (!f.isDeclaration())
        splitAggregateAccesses(f);
    // buildPerModuleDefaultPipeline asserts on O0.
    builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0).run(module, modules);
    return;
  }
  // optnone needs noinline (and rules out alwaysinline); the attributes
  // each had are restored after. (A handle each: O2 may delete a function
  // no one calls.)
  SmallVector<std::pair<llvm::WeakVH, bool>> vectorized;
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && !f.hasOptNone() &&
        !f.hasFnAttribute(llvm::Attribute::AlwaysInline) &&
        isVectorized(functions.getResult<llvm::LoopAnalysis>(f))) {
      vectorized.push_back({&f, f.hasFnAttribute(llvm::Attribute::NoInline)});
      f.addFnAttr(llvm::Attribute::OptimizeNone);
      f.addFnAttr(llvm::Attribute::NoInline);
    }
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  builder.buildPerModuleDefaultPipeline(level).run(module, modules);
  llvm::FunctionPassManager reduce = strengthReduction(/*fmaLoopsOnly=*/false);
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && !f.hasOptNone())
      reduce.run(f, functions);
  llvm::FunctionPassManager pipeline = vectorizedPipeline();
  pipeline.addPass(strengthReduction(/*fmaLoopsOnly=*/true));
  for (auto &[handle, noInline] : vectorized) {
    auto *f = cast_or_null<llvm::Function>(handle);
    if (!f)
      continue;
    f->removeFnAttr(llvm::Attribute::OptimizeNone);
    if (!noInline)
      f->removeFnAttr(llvm::Attribute::NoInline);
    pipeline.run(*f, functions);
  }
  streaming.stream(module, functions);
}

/// Whether `f`, a definition, has no loop.
bool isLoopFree(const llvm::Function &f) {
  SmallVector<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>> backEdges;
  llvm::FindFunctionBackedges(f, backEdges);
  return backEdges.empty();
}

/// Whether `f` is a driver: long and loop-free, as a graph's entry is (its
/// argument checks, allocations, kernel calls and frees: some lines per
/// layer of a stack of subgraphs). It runs once per call, while LLVM's time
/// on its long blocks grows faster than their length (ConstraintElimination,
/// the DAG combiner, the greedy register allocator): drivers are compiled
/// apart, at -O0. A 24-layer stack's 2,750-instruction entry took longer at
/// -O2 than all of its kernels; at -O0 the stack's code generation went
/// from 124-145 to 86-95 ms, its calls as fast. Anything with a loop (a
/// kernel, ops left in the entry) keeps -O<optLevel>. Where the kernels
/// are compiled apart (moJitCompileGraph), every loop-free function left is
/// a driver (`minInstructions` 0): alone, even a short one costs -O2's
/// fixed cost (a 3-layer MLP's: 11 ms at -O2, 3 at -O0).
bool isDriver(const llvm::Function &f, unsigned minInstructions = 500) {
  return !f.isDeclaration() && f.getInstructionCount() >= minInstructions && isLoopFree(f);
}

/// Inlines the kernels that are an OpenMP fork and no more where they are
/// called: a kernel whose thread tiles are an omp.parallel region is, once
/// translated, a function that stores its operands for the region and calls
/// __kmpc_fork_call, the region being a function of its own. As a function,
/// each such wrapper cost LLVM a function's fixed cost at -O2 and more
/// (w7's 23 were a sixth of its kernels' optimization and code generation);
/// inlined, a few stores in a driver (at -O0) or a subgraph's function.
void inlineForkWrappers(llvm::Module &module) {
  llvm::Function *fork = module.getFunction("__kmpc_fork_call");
  if (!fork)
    return;
  llvm::SmallSetVector<llvm::Function *, 16> wrappers;
  for (llvm::User *user : fork->users())
    if (auto *call = dyn_cast<llvm::CallBase>(user))
      wrappers.insert(call->getFunction());
  for (llvm::Function *wrapper : wrappers) {
    // Only mo's kernels are noinline (mo-outline-kernels); a loop in one
    // is work of its own, kept apart.
    if (!wrapper->hasFnAttribute(llvm::Attribute::NoInline) || !isLoopFree(*wrapper))
      continue;
    SmallVector<llvm::CallBase *> sites;
    for (llvm::User *user : wrapper->users())
      if (auto *site = dyn_cast<llvm::CallBase>(user); site && site->getCalledFunction() == wrapper)
        sites.push_back(site);
    if (sites.empty()) {
      // Called from another object (moJitCompileGraph's parts): compiled
      // as at -O0 where it is.
      wrapper->addFnAttr(llvm::Attribute::OptimizeNone);
      splitAggregateAccesses(*wrapper);
      continue;
    }
    for (llvm::CallBase *site : sites) {
      llvm::InlineFunctionInfo info;
      (void)llvm::InlineFunction(*site, info);
    }
    if (wrapper->use_empty())
      wrapper->eraseFromParent();
  }
}

/// -O<optLevel> and code generation of one module into an object file.
llvm::Expected<std::string> emitObject(llvm::Module &module, llvm::TargetMachine &machine,
                                       int optLevel) {
  optimize(module, machine, optLevel);
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, stream, nullptr, llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit object files");
  codegen.run(module);
  return std::string(object.data(), object.size());
}

/// The partitions to compile `module`'s functions other than `drivers` in
/// (none without any): one per core while each gets a few functions and
/// enough code (a graph's kernels are functions of their own; LLVM's time is
/// far from linear in the instructions before -O2: a 3-layer MLP's 3,800
/// take 190 ms), else one.
unsigned partitions(const llvm::Module &module,
                    const llvm::SmallPtrSetImpl<const llvm::Function *> &drivers) {
  constexpr size_t kInstructionsPerPart = 500;
  size_t instructions = 0, functions = 0;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration() && !drivers.contains(&f)) {
      instructions += f.getInstructionCount();
      ++functions;
    }
  if (functions == 0)
    return 0;
  unsigned cores = llvm::hardware_concurrency().compute_thread_count();
  return std::max<size_t>(1, std::min<size_t>({cores, functions / 2,
                                               instructions / kInstructionsPerPart}));
}

/// The partition of each of `module`'s function definitions: `parts` of
/// them spread by size (the largest first, each to the partition with the
/// fewest instructions), and `drivers` in one more, `parts`. Local symbols
/// become hidden globals, named after `prefix` (unique among the modules
/// whose objects link together), so that the parts link and a function is
/// found by name in each part's copy. (LLVM's SplitModule deals round robin
/// in module order, where OpenMP puts each kernel's small wrapper before
/// its outlined body: all the bodies fell in one part, and a 3-layer MLP's
/// part took 3.5x the other's time.)
llvm::StringMap<unsigned> assignParts(llvm::Module &module, unsigned parts,
                                      const llvm::SmallPtrSetImpl<const llvm::Function *> &drivers,
                                      StringRef prefix) {
  for (llvm::GlobalValue &value : module.global_values()) {
    if (!value.hasLocalLinkage())
      continue;
    value.setName(prefix + "." + (value.hasName() ? value.getName() : "local"));
    value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    value.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
  llvm::StringMap<unsigned> partOf;
  SmallVector<llvm::Function *> functions;
  for (llvm::Function &f : module)
    if (drivers.contains(&f))
      partOf[f.getName()] = parts;
    else if (!f.isDeclaration())
      functions.push_back(&f);
  llvm::stable_sort(functions, [](llvm::Function *a, llvm::Function *b) {
    return a->getInstructionCount() > b->getInstructionCount();
  });
  std::vector<size_t> load(parts, 0);
  for (llvm::Function *f : functions) {
    unsigned lightest = std::min_element(load.begin(), load.end()) - load.begin();
    partOf[f->getName()] = lightest;
    load[lightest] += f->getInstructionCount();
  }
  return partOf;
}

/// `module` (the whole, or a copy whose function bodies are not read yet)
/// made partition `part` of `partOf`: the other partitions' functions
/// declared, not defined, and global variables defined in partition 0 only.
llvm::Error keepPart(llvm::Module &module, unsigned part, const llvm::StringMap<unsigned> &partOf) {
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && partOf.lookup(f.getName()) != part)
      f.deleteBody();
  if (part != 0)
    for (llvm::GlobalVariable &global : module.globals())
      if (global.hasInitializer()) {
        global.setInitializer(nullptr);
        global.setComdat(nullptr);
        global.setLinkage(llvm::GlobalValue::ExternalLinkage);
      }
  return module.materializeAll();
}

/// Registers the translations to LLVM IR of the dialects mo lowers to.
void registerTranslations(MLIRContext &ctx) {
  registerBuiltinDialectTranslation(ctx);
  registerLLVMDialectTranslation(ctx);
  registerOpenMPDialectTranslation(ctx);
}

/// `op` translated into `context`; on failure the diagnostics of this
/// thread are the error (the MLIR context is shared by threads compiling at
/// once; a Python handler here would wait for the GIL under the diagnostic
/// engine's lock, and deadlock against a thread attaching one).
llvm::Expected<std::unique_ptr<llvm::Module>> translate(ModuleOp op,
                                                        llvm::LLVMContext &context) {
  std::string notes;
  std::thread::id self = std::this_thread::get_id();
  ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diagnostic) {
    if (std::this_thread::get_id() != self)
      return failure(); // someone else's
    llvm::raw_string_ostream os(notes);
    os << "\n  " << diagnostic.getLocation() << ": " << diagnostic;
    return success();
  });
  if (std::unique_ptr<llvm::Module> module = translateModuleToLLVMIR(op, context))
    return module;
  return llvm::createStringError("the module does not translate to LLVM IR" + notes);
}

/// The objects of `module` at `optLevel`: packed wrappers added, identical
/// functions merged, fork wrappers inlined, drivers (loop-free functions of
/// `minDriverInstructions` or more) at -O0, the rest split into up to
/// `maxParts` partitions compiled on threads of their own (local symbols
/// named after `localPrefix`: assignParts).
llvm::Expected<std::vector<std::string>> generate(llvm::Module &module,
                                                  llvm::orc::JITTargetMachineBuilder builder,
                                                  int optLevel, unsigned maxParts,
                                                  StringRef localPrefix = "__mo",
                                                  unsigned minDriverInstructions = 500) {
  builder.setCodeGenOptLevel(static_cast<llvm::CodeGenOptLevel>(optLevel));
  auto machine = builder.createTargetMachine();
  if (!machine)
    return machine.takeError();
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple());
  addPackedWrappers(module);
  llvm::MergeFunctionsPass::runOnModule(module);

  llvm::SmallPtrSet<const llvm::Function *, 4> drivers;
  inlineForkWrappers(module);
  if (optLevel > 0)
    for (const llvm::Function &f : module)
      if (isDriver(f, minDriverInstructions))
        drivers.insert(&f);
  unsigned parts = std::min(maxParts, partitions(module, drivers));
  llvm::orc::JITTargetMachineBuilder driverBuilder = builder;
  driverBuilder.setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
  // (keepPart does not split aliases, of which mo's modules have none.)
  bool whole = !module.alias_empty() || !module.ifunc_empty();
  if (whole || parts == 0 || (parts == 1 && drivers.empty())) {
    // One object: all of it at -O<optLevel>, or drivers alone at -O0.
    bool driversOnly = !whole && parts == 0 && !drivers.empty();
    auto onlyMachine = driversOnly ? driverBuilder.createTargetMachine() : std::move(machine);
    if (!onlyMachine)
      return onlyMachine.takeError();
    auto object = emitObject(module, **onlyMachine, driversOnly ? 0 : optLevel);
    if (!object)
      return object.takeError();
    return std::vector<std::string>{std::move(*object)};
  }
  // Several partitions, each optimized and compiled on a thread of its own,
  // in a context of its own (a module's context is not thread-safe): the
  // first in the module itself, each other in a copy read from the module's
  // bitcode, written once, of which it reads only its own functions' bodies.
  // (A clone of each part, written and read whole, took twice as long: w7's
  // LLVM phase 134-140 -> 126-135 ms wall, best of 6, three runs.)
  llvm::StringMap<unsigned> partOf = assignParts(module, parts, drivers, localPrefix);
  llvm::SmallString<0> bitcode;
  {
    llvm::raw_svector_ostream stream(bitcode);
    llvm::WriteBitcodeToFile(module, stream);
  }
  size_t count = parts + (drivers.empty() ? 0 : 1);
  // Each thread writes its own slots.
  std::vector<std::string> objects(count), errors(count);
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(count));
    for (size_t i = 0; i < count; ++i)
      pool.async([&, i] {
        auto compile = [&]() -> llvm::Expected<std::string> {
          std::optional<llvm::LLVMContext> context;
          std::unique_ptr<llvm::Module> copy;
          llvm::Module *part = &module;
          if (i != 0) {
            context.emplace();
            auto lazy = llvm::getLazyBitcodeModule(
                llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "mo-part"),
                *context);
            if (!lazy)
              return lazy.takeError();
            copy = std::move(*lazy);
            part = copy.get();
          }
          if (llvm::Error error = keepPart(*part, i, partOf))
            return std::move(error);
          bool driver = !drivers.empty() && i == parts;
          auto partMachine = (driver ? driverBuilder : builder).createTargetMachine();
          if (!partMachine)
            return partMachine.takeError();
          return emitObject(*part, **partMachine, driver ? 0 : optLevel);
        };
        auto object = compile();
        if (object)
          objects[i] = std::move(*object);
        else
          errors[i] = llvm::toString(object.takeError());
      });
    pool.wait();
  }
  for (const std::string &error : errors)
    if (!error.empty())
      return llvm::createStringError(error);
  return objects;
}

/// One module of a graph split by moJitCompileGraph: some of its kernels,
/// or (`owned` null) the graph's module itself, left with the rest.
struct GraphPart {
  OwningOpRef<ModuleOp> owned;
  ModuleOp module;
  llvm::StringSet<> kernels; // the kernels it defines, which the rest call
  size_t size = 0;           // operations (the rest's weighted), to balance the threads
  std::vector<std::string> objects;
  std::string diagnostics, error;
  bool pipelineFailed = false;
};

/// The part this thread lowers (for its diagnostics).
thread_local GraphPart *lowering = nullptr;

/// Moves `kernels` out of `graph` into `part`, leaving declarations of them
/// in `graph`, and declares in `part` the functions they call. Fails
/// (nothing moved) where a kernel refers to a symbol other than a function
/// (mo-outline-kernels passes a global's buffer as an argument).
LogicalResult moveKernels(ModuleOp graph, ArrayRef<func::FuncOp> kernels, GraphPart &part) {
  SymbolTable symbols(graph);
  llvm::SetVector<func::FuncOp> callees;
  for (func::FuncOp kernel : kernels) {
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(kernel);
    if (!uses)
      return failure();
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto callee = symbols.lookup<func::FuncOp>(use.getSymbolRef().getRootReference());
      if (!callee)
        return failure();
      if (!llvm::is_contained(kernels, callee))
        callees.insert(callee);
    }
  }
  part.owned = ModuleOp::create(graph.getLoc());
  part.module = *part.owned;
  part.module->setAttrs(graph->getAttrDictionary());
  auto declare = [](OpBuilder &builder, func::FuncOp f) {
    func::FuncOp::create(builder, f.getLoc(), f.getName(), f.getFunctionType()).setPrivate();
  };
  OpBuilder builder = OpBuilder::atBlockEnd(part.module.getBody());
  for (func::FuncOp callee : callees)
    if (callee.isExternal())
      builder.clone(*callee); // with its attributes (a C interface)
    else
      declare(builder, callee);
  for (func::FuncOp kernel : kernels) {
    OpBuilder at(kernel);
    declare(at, kernel);
    kernel->remove();
    part.module.push_back(kernel);
    part.kernels.insert(kernel.getName());
  }
  return success();
}

/// In `module`, translated from a part of kernels: definitions other than
/// its kernels made local (a helper a pass declared in several parts, such
/// as mo-math-to-funcs', is one per object).
void localize(llvm::Module &module, const llvm::StringSet<> &kernels) {
  for (llvm::GlobalValue &value : module.global_values())
    if (!value.isDeclaration() && !value.hasLocalLinkage() &&
        !kernels.contains(value.getName()))
      value.setLinkage(llvm::GlobalValue::InternalLinkage);
}

} // namespace

extern "C" bool moJitCompile(MlirModule module, int optLevel, MlirStringCallback onObject,
                             void *objectData, MlirStringCallback onError, void *errorData) {
  auto fail = [&](llvm::Error error) {
    report(onError, errorData, llvm::toString(std::move(error)));
    return false;
  };
  auto builder = hostTarget();
  if (!builder)
    return fail(builder.takeError());
  ModuleOp op = unwrap(module);
  registerTranslations(*op->getContext());
  llvm::LLVMContext llvmContext;
  auto llvmModule = translate(op, llvmContext);
  if (!llvmModule)
    return fail(llvmModule.takeError());
  auto objects = generate(**llvmModule, *builder, optLevel,
                          llvm::hardware_concurrency().compute_thread_count());
  if (!objects)
    return fail(objects.takeError());
  for (const std::string &object : *objects)
    report(onObject, objectData, object);
  return true;
}

extern "C" bool moJitCompileGraph(MlirModule module, int numManagers,
                                  const MlirPassManager *managers, int optLevel,
                                  bool *pipelineFailed, MlirStringCallback onObject,
                                  void *objectData, MlirStringCallback onError,
                                  void *errorData) {
  *pipelineFailed = false;
  if (numManagers < 1 || !managers) {
    report(onError, errorData,
           "managers: expected at least one pass manager, got " + std::to_string(numManagers));
    return false;
  }
  auto builder = hostTarget();
  if (!builder) {
    report(onError, errorData, llvm::toString(builder.takeError()));
    return false;
  }
  ModuleOp graph = unwrap(module);
  MLIRContext &ctx = *graph->getContext();
  registerTranslations(ctx);

  // The kernels dealt by size (the largest first, each to the part with the
  // fewest operations) into parts of their own; the graph keeps the rest.
  unsigned threads = numManagers;
  SmallVector<std::pair<size_t, func::FuncOp>> kernels;
  for (func::FuncOp f : graph.getOps<func::FuncOp>())
    if (mo::isKernel(f)) {
      size_t size = 0;
      f.walk([&](Operation *) { ++size; });
      kernels.push_back({size, f});
    }
  llvm::stable_sort(kernels, [](auto &a, auto &b) { return a.first > b.first; });
  // Two parts a thread, which take the next part as each finishes: a
  // part's cost is known only roughly (its operations), and a module's
  // lowering and code generation cost little more than its functions'
  // (~1-2 ms: LLVM's passes and target set up). A graph with little in
  // kernels is compiled whole.
  constexpr size_t kMinKernelOps = 50;
  size_t kernelOps = 0;
  for (auto &[size, f] : kernels)
    kernelOps += size;
  unsigned kernelParts =
      kernelOps < kMinKernelOps ? 0 : std::min<size_t>(2 * threads, kernels.size());
  bool split = kernelParts > 0;
  SmallVector<SmallVector<func::FuncOp>> dealt(kernelParts);
  SmallVector<size_t> load(kernelParts, 0);
  if (split)
    for (auto &[size, f] : kernels) {
      unsigned lightest = std::min_element(load.begin(), load.end()) - load.begin();
      dealt[lightest].push_back(f);
      load[lightest] += size;
    }
  std::vector<GraphPart> parts(kernelParts + 1);
  for (unsigned i = 0; i < kernelParts; ++i)
    if (succeeded(moveKernels(graph, dealt[i], parts[i])))
      parts[i].size = load[i];
    else
      parts[i] = GraphPart(); // kernels that refer to a global stay with the graph
  // The rest's functions other than kernels are drivers, generated at -O0
  // (isDriver): an operation of theirs costs about an eighth of a kernel's
  // (w7: 541 operations took 33 ms, kernel parts of 180-200 took 61-84; a
  // 24-layer stack's 437 took 33, 225 in kernels 131). Counted whole, the
  // rest went first, and w7's LLVM phase took 11-14 % longer than its parts'
  // time over two threads; weighted, 2-7 % (its median 276 -> 243 ms).
  constexpr size_t kDriverOpsPerKernelOp = 8;
  GraphPart &rest = parts.back();
  rest.module = graph;
  for (Operation &op : graph.getOps()) {
    size_t size = 0;
    op.walk([&](Operation *) { ++size; });
    auto f = dyn_cast<func::FuncOp>(op);
    rest.size += split && !(f && mo::isKernel(f)) ? size / kDriverOpsPerKernelOp : size;
  }
  llvm::erase_if(parts, [](GraphPart &part) { return !part.module; });
  SmallVector<GraphPart *> order;
  for (GraphPart &part : parts)
    order.push_back(&part);
  llvm::stable_sort(order, [](GraphPart *a, GraphPart *b) { return a->size > b->size; });

  // Each part lowered by one thread's pass manager, then translated and
  // compiled there: the lowering of one kernel runs beside LLVM's work on
  // another, where the pipeline's module passes, the translation and the
  // verification were a third of a transformer block's compile, on one core.
  auto work = [&](PassManager &pm, GraphPart &part) {
    lowering = &part;
    if (failed(pm.run(part.module)) || failed(verify(part.module))) {
      part.pipelineFailed = true;
      return;
    }
    llvm::LLVMContext context;
    auto llvmModule = translate(part.module, context);
    if (!llvmModule) {
      part.error = llvm::toString(llvmModule.takeError());
      return;
    }
    if (part.owned)
      localize(**llvmModule, part.kernels);
    std::string prefix = "__mo_p" + std::to_string(&part - parts.data());
    // A graph compiled whole: as by moJitCompile. A part: one partition,
    // and the rest's loop-free functions all drivers (isDriver).
    auto objects = !split ? generate(**llvmModule, *builder, optLevel, threads, prefix)
                          : generate(**llvmModule, *builder, optLevel, /*maxParts=*/1, prefix,
                                     /*minDriverInstructions=*/part.owned ? 500 : 0);
    if (!objects)
      part.error = llvm::toString(objects.takeError());
    else
      part.objects = std::move(*objects);
  };
  {
    // A pass's diagnostics go to the part its thread lowers; others' (a
    // nested pass on the context's threads, another compile) pass on.
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diagnostic) {
      if (!lowering)
        return failure();
      llvm::raw_string_ostream os(lowering->diagnostics);
      auto line = [&](Diagnostic &d) {
        StringRef severity = d.getSeverity() == DiagnosticSeverity::Error     ? "error"
                             : d.getSeverity() == DiagnosticSeverity::Warning ? "warning"
                             : d.getSeverity() == DiagnosticSeverity::Note    ? "note"
                                                                              : "remark";
        os << "\n" << d.getLocation() << ": " << severity << ": " << d;
      };
      line(diagnostic);
      for (Diagnostic &note : diagnostic.getNotes())
        line(note);
      return success();
    });
    std::atomic<size_t> next{0};
    auto worker = [&](unsigned t) {
      PassManager &pm = *unwrap(managers[t]);
      for (size_t i; (i = next++) < order.size();)
        work(pm, *order[i]);
      lowering = nullptr;
    };
    unsigned count = std::min<size_t>(threads, order.size());
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < count; ++t)
      pool.emplace_back(worker, t);
    worker(0);
    for (std::thread &thread : pool)
      thread.join();
  }
  std::string failures;
  for (GraphPart &part : parts)
    if (part.pipelineFailed) {
      *pipelineFailed = true;
      failures += part.diagnostics;
    }
  if (*pipelineFailed) {
    report(onError, errorData, failures.empty() ? "a pass failed" : StringRef(failures).ltrim());
    return false;
  }
  for (GraphPart &part : parts)
    if (!part.error.empty()) {
      report(onError, errorData, part.error);
      return false;
    }
  for (GraphPart &part : parts)
    for (const std::string &object : part.objects)
      report(onObject, objectData, object);
  return true;
}

extern "C" MoJit *moJitLoad(int numObjects, const MlirStringRef *objects, int numPaths,
                            const MlirStringRef *sharedLibPaths, MlirStringCallback onError,
                            void *userData) {
  auto fail = [&](llvm::Error error) -> MoJit * {
    report(onError, userData, llvm::toString(std::move(error)));
    return nullptr;
  };
  auto builder = hostTarget();
  if (!builder)
    return fail(builder.takeError());
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*builder)).create();
  if (!jit)
    return fail(jit.takeError());
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  // mo's runtime first, by address; then the libraries; then the process.
  llvm::orc::SymbolMap runtime;
  struct Table {
    llvm::orc::LLJIT &jit;
    llvm::orc::SymbolMap &map;
  } table{**jit, runtime};
  mo::forEachRuntimeSymbol(
      [](const char *name, void *address, void *user) {
        auto *t = static_cast<Table *>(user);
        t->map[t->jit.mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                                llvm::JITSymbolFlags::Exported};
      },
      &table);
  if (llvm::Error error = main.define(llvm::orc::absoluteSymbols(std::move(runtime))))
    return fail(std::move(error));
  for (int i = 0; i < numPaths; ++i) {
    std::string path = unwrap(sharedLibPaths[i]).str();
    auto library = llvm::orc::DynamicLibrarySearchGenerator::Load(path.c_str(), prefix);
    if (!library)
      return fail(library.takeError());
    main.addGenerator(std::move(*library));
  }
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return fail(process.takeError());
  main.addGenerator(std::move(*process));
  for (int i = 0; i < numObjects; ++i)
    if (llvm::Error error = (*jit)->addObjectFile(
            llvm::MemoryBuffer::getMemBufferCopy(unwrap(objects[i]), "mo-object")))
      return fail(std::move(error));
  return new MoJit{std::move(*jit)};
}

extern "C" void *moJitLookup(MoJit *jit, MlirStringRef name) {
  auto address = jit->jit->lookup(unwrap(name));
  if (!address) {
    llvm::consumeError(address.takeError());
    return nullptr;
  }
  return address->toPtr<void *>();
}

extern "C" void moJitDestroy(MoJit *jit) { delete jit; }
