// Regression: i1 globals (bool constants after bufferization) are widened to
// i8 together with their uses.
// RUN: mo-opt %s --split-input-file --mo-widen-bool-memrefs | FileCheck %s
// RUN: mo-opt %s --split-input-file --mo-cpu-pipeline | FileCheck %s --check-prefix=PIPE

// CHECK-LABEL: memref.global "private" constant @g : memref<2xi8> = dense<[1, 0]>
// CHECK-LABEL: func.func @f() -> memref<2xi8>
// CHECK: memref.get_global @g : memref<2xi8>
// PIPE-LABEL: llvm.mlir.global private constant @g(dense<[1, 0]> : tensor<2xi8>)
memref.global "private" constant @g : memref<2xi1> = dense<[true, false]>
func.func @f() -> memref<2xi1> {
  %m = memref.get_global @g : memref<2xi1>
  return %m : memref<2xi1>
}

// -----

// PIPE-LABEL: llvm.func @_mlir_ciface_always(
mo.graph @always() -> !mo.tensor<[], i1> {
  %c = mo.constant dense<true> : tensor<i1> : !mo.tensor<[], i1>
  mo.output %c : !mo.tensor<[], i1>
}
