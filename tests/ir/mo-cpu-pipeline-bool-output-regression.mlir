// Regression: graphs that keep bool tensors in memory (bool inputs, results,
// casts) lower: mo-widen-bool-memrefs runs after convert-linalg-to-loops.
// RUN: mo-opt %s --split-input-file --mo-cpu-pipeline | FileCheck %s

// A bool result: the out-parameter holds bytes, the cast stores zext'd i1.
// CHECK-LABEL: llvm.func @is_nonzero(
// CHECK: %[[B:.+]] = llvm.fcmp "une" %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: %[[E:.+]] = llvm.zext %[[B]] : i1 to i8
// CHECK: llvm.store %[[E]], %{{.+}} : i8, !llvm.ptr
// CHECK-LABEL: llvm.func @_mlir_ciface_is_nonzero(
mo.graph @is_nonzero<n>(%x: !mo.tensor<[n], f32>) -> !mo.tensor<[n], i1> {
  %b = mo.cast %x : !mo.tensor<[n], f32> -> !mo.tensor<[n], i1>
  mo.output %b : !mo.tensor<[n], i1>
}

// -----

// A bool input: loads bytes and truncates them.
// CHECK-LABEL: llvm.func @to_float(
// CHECK: %[[V:.+]] = llvm.load %{{.+}} : !llvm.ptr -> i8
// CHECK-NEXT: %[[T:.+]] = llvm.trunc %[[V]] : i8 to i1
// CHECK-NEXT: llvm.uitofp %[[T]] : i1 to f32
mo.graph @to_float(%x: !mo.tensor<[4], i1>) -> !mo.tensor<[4], f32> {
  %f = mo.cast %x : !mo.tensor<[4], i1> -> !mo.tensor<[4], f32>
  mo.output %f : !mo.tensor<[4], f32>
}
