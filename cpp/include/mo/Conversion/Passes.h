//===- Passes.h - mo passes and pipelines -----------------------*- C++ -*-===//
#ifndef MO_CONVERSION_PASSES_H
#define MO_CONVERSION_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
class ModuleOp;
namespace mo {

#define GEN_PASS_DECL
#include "Mo/MoPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Mo/MoPasses.h.inc"

/// What the CPU pipeline does (`--mo-cpu-pipeline="fuse-elementwise=0"`).
struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse elementwise linalg ops before bufferization"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> interchangeContractions{
      *this, "interchange-contractions",
      llvm::cl::desc("Baseline loop order for contractions lowered to loops "
                     "(mo-interchange-contractions)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> schedules{
      *this, "schedules",
      llvm::cl::desc("Tile, pack and vectorize root ops by the strategy table "
                     "(mo-select-schedules); off: loops only"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("f32 exp and tanh as inlined polynomials "
                     "(mo-approximate-math), which vectorize; off: libm calls"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> numThreads{
      *this, "num-threads",
      llvm::cl::desc("Threads the schedules split work across (OpenMP when > 1)"),
      llvm::cl::init(1)};
  PassOptions::Option<int64_t> streamMinBytes{
      *this, "stream-min-bytes",
      llvm::cl::desc("Smallest kernel footprint (its buffers' bytes) whose "
                     "results, each at least half of it, are streamed past "
                     "the caches (mo-stream-stores); -1: the host's last-level "
                     "cache"),
      llvm::cl::init(-1)};
  PassOptions::Option<std::string> cpuFeatures{
      *this, "cpu-features",
      llvm::cl::desc("Target features the schedules are chosen for "
                     "(`+avx512f,...`), or `host`"),
      llvm::cl::init("host")};
};

/// Phase 1, shared by every target: mo to linalg/tensor/arith/math.
void buildMoToLinalgPipeline(OpPassManager &pm);
/// Phase 2, shared by every target: fusion, bufferization, deallocation.
void buildLinalgToBuffersPipeline(OpPassManager &pm,
                                  const CpuPipelineOptions &options);
/// Phases 2 and 3a: linalg on tensors to buffers and loops, each kernel a
/// function of its own (`mo-cpu-kernels`).
void buildCpuKernelsPipeline(OpPassManager &pm,
                             const CpuPipelineOptions &options);
/// Phase 3b: kernels and their callers to the LLVM dialect
/// (`mo-cpu-kernels-to-llvm`).
void buildCpuKernelsToLLVMPipeline(OpPassManager &pm,
                                   const CpuPipelineOptions &options);
/// Phases 2 and 3: linalg on tensors to the LLVM dialect (`mo-cpu-codegen`).
void buildCpuCodegenPipeline(OpPassManager &pm,
                             const CpuPipelineOptions &options);
/// The whole CPU lowering, mo to the LLVM dialect (`--mo-cpu-pipeline`).
void buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);
/// Registers `mo-cpu-pipeline`, `mo-cpu-codegen` and its two halves.
void registerPipelines();

/// Whether `func` is a kernel of mo-outline-kernels (a definition that
/// `passthrough` marks `noinline`).
bool isKernel(func::FuncOp func);

/// The `passthrough` attribute of a kernel's streaming twin
/// (mo-stream-stores), which code generation (moJitCompile) reads.
constexpr llvm::StringLiteral kStreamingAttr = "mo-streaming";

/// The op attribute mo-select-schedules records an op's schedule in
/// (`{kind, sizes, fuse}`), and the one it marks the ops fused into that
/// op's tiles with (the schedule's `fuse` group): what mo-apply-schedules
/// and mo-split-schedules read.
constexpr llvm::StringLiteral kScheduleAttr = "mo.schedule";
constexpr llvm::StringLiteral kFusedIntoAttr = "mo.fused_into";

/// The cache line of the CPUs mo targets (x86-64), in bytes: what streaming
/// stores write whole and a prefetch brings in.
constexpr int64_t kCacheLineBytes = 64;

/// The target features a `cpu-features` option names: the host's for
/// `host`, else those of a list such as `+avx512f,-avx2`.
llvm::StringMap<bool> cpuFeatureMap(StringRef features);

/// Whether `a` and `b` are one tensor for a destination: the same value, or
/// empty tensors of one type and sizes.
bool sameDestination(Value a, Value b);

/// mo's transform dialect ops, which its schedule library uses
/// (cpp/lib/Transforms/ScheduleOps.cpp).
void registerTransformExtension(DialectRegistry &registry);

/// Forwards a vector written in bounds to masked reads of it
/// (ScheduleOps.cpp; the schedules' cleanup runs it).
void populateForwardMaskedReadsPatterns(RewritePatternSet &patterns);

/// SubsetOpInterface for tensor slices and vector transfers, comparing their
/// operands before value bounds (cpp/lib/Transforms/Subsets.cpp). Registered
/// before upstream's models, which it then shadows: of two models of one
/// interface on an op, the first attached is kept.
void registerSubsetModels(DialectRegistry &registry);

} // namespace mo
} // namespace mlir

#endif // MO_CONVERSION_PASSES_H
