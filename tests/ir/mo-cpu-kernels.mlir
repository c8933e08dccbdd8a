// mo-cpu-codegen in its two halves, as mo's JIT runs them: mo-cpu-kernels
// stops with each kernel outlined (the JIT then moves kernels into modules
// of their own), mo-cpu-kernels-to-llvm takes any such module the rest of
// the way; one after the other they are mo-cpu-codegen.
// RUN: mo-opt %s --mo-cpu-kernels | FileCheck %s --check-prefix=KERNELS
// RUN: mo-opt %s --mo-cpu-kernels --mo-cpu-kernels-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: mo-opt %s --mo-cpu-kernels --mo-cpu-kernels-to-llvm > %t.halves
// RUN: mo-opt %s --mo-cpu-codegen | diff %t.halves -

// KERNELS-LABEL: func.func @scale(
// KERNELS-SAME: memref<64x64xf32>
// KERNELS: call @scale_kernel(
// KERNELS-LABEL: func.func private @scale_kernel(
// KERNELS-SAME: attributes {passthrough = ["noinline"]}
// KERNELS-NOT: llvm.func

// LLVM-NOT: func.func
// LLVM: llvm.func @scale(
// LLVM: llvm.call @scale_kernel(
// LLVM: llvm.func @scale_kernel(
func.func @scale(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
