//===- Pipelines.cpp - mo's lowering pipelines ----------------------------===//
//
// The CPU pipeline in phases, built from an options struct, so that `mo-opt`
// (`--mo-cpu-pipeline="..."`), the Python API and the tests run exactly the
// same passes (upstream ones wherever they exist), and a GPU pipeline can
// share the phases before code generation:
//
//   mo -> linalg (mo-lower-to-linalg)
//      -> buffers (fusion, one-shot bufferization, deallocation)
//      -> CPU code (loops, LLVM dialect)
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::mo;

static void add(OpPassManager &pm, StringRef passes) {
  if (failed(parsePassPipeline(passes, pm)))
    llvm::report_fatal_error("mo: a built-in pipeline does not parse");
}

void mo::buildMoToLinalgPipeline(OpPassManager &pm) {
  add(pm, "mo-lower-to-linalg");
}

void mo::buildLinalgToBuffersPipeline(OpPassManager &pm,
                                      const CpuPipelineOptions &options) {
  add(pm, "canonicalize,cse");
  if (options.fuseElementwise)
    add(pm, "func.func(mo-fuse-elementwise),canonicalize");
  // On tensors: each root op's schedule chosen, then carried out, each in
  // a function of its own meanwhile so that they run on every core.
  // Unit dims folded away first: a reduction's kept axis is otherwise an
  // expand_shape between it and its consumer, which no tile fuses through.
  if (options.schedules)
    add(pm, llvm::formatv("func.func(linalg-fold-unit-extent-dims),canonicalize,cse,"
                          "func.func(mo-select-schedules{{num-threads={0} "
                          "cpu-features={1}}),mo-split-schedules,"
                          "func.func(mo-apply-schedules),mo-inline-schedules,canonicalize,cse",
                          options.numThreads.getValue(),
                          options.cpuFeatures.getValue())
                .str());
  // Outputs are written in place, temporaries freed; a loop (mo.while) may
  // carry a new buffer from one iteration to the next.
  add(pm, "func.func(mo-write-results-in-place),"
          "eliminate-empty-tensors,"
          "one-shot-bufferize{bufferize-function-boundaries "
          "function-boundary-type-conversion=identity-layout-map "
          "allow-return-allocs-from-loops},"
          // Checked arguments keep their static shapes in the kernels.
          "func.func(mo-keep-static-views),"
          // In-place slice updates leave self-copies of equal subviews.
          "cse,canonicalize,"
          // Small scratch buffers (a row tile's means) on the stack, a
          // partial tile's at the full tile's size (hoisted out of their
          // loops after the thread tiles are made).
          "func.func(mo-bound-tile-buffers,"
          "promote-buffers-to-stack{max-alloc-size-in-bytes=4096}),"
          "buffer-deallocation-pipeline,"
          "convert-bufferization-to-memref,"
          "func.func(mo-expand-strided-copies,mo-skip-empty-kernels)");
}

void mo::buildCpuKernelsPipeline(OpPassManager &pm,
                                 const CpuPipelineOptions &options) {
  buildLinalgToBuffersPipeline(pm, options);
  // The schedules' thread tiles (scf.forall): OpenMP's, or one loop.
  if (options.numThreads > 1)
    add(pm, llvm::formatv("scf-forall-to-parallel,convert-scf-to-openmp{{num-threads={0}},"
                          "func.func(mo-serialize-small-parallel)",
                          options.numThreads.getValue())
                .str());
  else
    add(pm, "scf-forall-to-for");
  // The scratch buffers of loop bodies, once per thread; then each kernel
  // a function of its own (LLVM's cost grows faster than a function's size).
  add(pm, "func.func(mo-hoist-stack-buffers),mo-outline-kernels");
}

void mo::buildCpuKernelsToLLVMPipeline(OpPassManager &pm,
                                       const CpuPipelineOptions &options) {
  // Kernel by kernel (func.func nests run on every core at once), except
  // the passes that declare symbols or change signatures. Every pass here
  // sees one kernel at a time or changes all of a module's functions and
  // calls alike: moJitCompileGraph runs this on the kernels split into
  // modules of their own.
  // Register tiles that add to partial sums in memory read them last.
  if (options.schedules)
    add(pm, "func.func(mo-prefetch-accumulators,mo-lower-vectors)");
  if (options.approximateMath)
    add(pm, llvm::formatv("func.func(mo-approximate-math{{cpu-features={0}})",
                          options.cpuFeatures.getValue())
                .str());
  if (options.interchangeContractions)
    add(pm, "func.func(mo-interchange-contractions)");
  // Multi-dim vector transfers to loops of 1-D ones: with the schedules,
  // mo-lower-vectors did it on every function with vectors (the same
  // patterns; the final IR of w1-w7, qmatmul.py and shapes.py is unchanged
  // without convert-vector-to-scf); without them, convert-vector-to-scf
  // (tests/ir/mo-cpu-codegen-vectors.mlir). Quant.cpp's transfers are 1-D,
  // which convert-vector-to-llvm takes as they are.
  add(pm, options.schedules ? "func.func(convert-linalg-to-loops,canonicalize,cse)"
                            : "func.func(convert-linalg-to-loops,"
                              "convert-vector-to-scf{full-unroll=true},canonicalize,cse)");
  // Results larger than the caches, which a kernel only writes, streamed
  // past them where aligned.
  add(pm, llvm::formatv("mo-stream-stores{{min-bytes={0}}",
                        options.streamMinBytes.getValue())
              .str());
  // Math before vectors: math-to-libm scalarizes what has no LLVM
  // intrinsic (erf in a GELU backward's 8x32 register tile) into
  // vector.extract/insert, which vector-to-llvm then lowers.
  add(pm, "mo-math-to-funcs,"
          "func.func(convert-math-to-llvm),"
          "convert-math-to-libm,"
          "func.func(mo-vector-rows,convert-vector-to-llvm),"
          "mo-widen-bool-memrefs,"
          "func.func(expand-strided-metadata,"
          "lower-affine,"
          "convert-scf-to-cf),"
          // Allocation through mo's runtime, which keeps large blocks warm.
          "mo-convert-to-llvm,"
          "reconcile-unrealized-casts");
}

void mo::buildCpuCodegenPipeline(OpPassManager &pm,
                                 const CpuPipelineOptions &options) {
  buildCpuKernelsPipeline(pm, options);
  buildCpuKernelsToLLVMPipeline(pm, options);
}

void mo::buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options) {
  buildMoToLinalgPipeline(pm);
  buildCpuCodegenPipeline(pm, options);
}

void mo::registerPipelines() {
  using Builder = void (*)(OpPassManager &, const CpuPipelineOptions &);
  struct Pipeline {
    const char *name, *description;
    Builder build;
  };
  static const Pipeline pipelines[] = {
      {"mo-cpu-pipeline",
       "Lowers mo to the LLVM dialect for the CPU (mo-lower-to-linalg, "
       "fusion, bufferization, loops, LLVM)",
       buildCpuPipeline},
      // The same after mo-lower-to-linalg: lets a driver inspect the lowered
      // entry signature (weights, outputs, checks) before generating code.
      {"mo-cpu-codegen", "The CPU pipeline after mo-lower-to-linalg (linalg/tensor to LLVM)",
       buildCpuCodegenPipeline},
      // mo-cpu-codegen in two: mo's JIT compiles the kernels the first
      // outlines each on its own, through the second (moJitCompileGraph).
      {"mo-cpu-kernels",
       "mo-cpu-codegen up to its kernels outlined (buffers, threads, kernels)",
       buildCpuKernelsPipeline},
      {"mo-cpu-kernels-to-llvm",
       "mo-cpu-codegen after mo-cpu-kernels (vectors, loops, LLVM dialect)",
       buildCpuKernelsToLLVMPipeline},
  };
  for (const Pipeline &pipeline : pipelines)
    PassPipelineRegistration<CpuPipelineOptions>(
        pipeline.name, pipeline.description,
        [build = pipeline.build](OpPassManager &pm, const CpuPipelineOptions &options) {
          build(pm, options);
        });
}
