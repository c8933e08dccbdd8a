// mo-lower-to-linalg, custom kernels: a function of the module is called on
// the tensors (cast to its types), anything else is a C symbol called with
// unranked buffers: the inputs read-only, one new buffer per result; the
// parameters follow as scalars.
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s

// CHECK-LABEL: func.func @mlir_kernel(
// CHECK: %[[P:.+]] = arith.constant 3 : i64
// CHECK: %[[X:.+]] = tensor.cast %{{.+}} : tensor<4xf32> to tensor<?xf32>
// CHECK: %[[R:.+]] = func.call @twice(%[[X]], %[[P]]) : (tensor<?xf32>, i64) -> tensor<?xf32>
// CHECK: tensor.cast %[[R]] : tensor<?xf32> to tensor<4xf32>
func.func @twice(%x: tensor<?xf32>, %p: i64) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
mo.graph @mlir_kernel(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.custom "twice"(%x) {parameters = {p = 3 : i64}} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// CHECK: func.func private @scale(memref<*xf32>, memref<*xf32>, f64)
// CHECK-LABEL: func.func @c_kernel(
// CHECK: %[[A:.+]] = arith.constant 2.000000e+00 : f64
// CHECK: %[[IN:.+]] = bufferization.to_buffer %{{.+}} read_only : tensor<?xf32> to memref<?xf32>
// CHECK: %[[UIN:.+]] = memref.cast %[[IN]] : memref<?xf32> to memref<*xf32>
// CHECK: %[[OUT:.+]] = memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK: %[[UOUT:.+]] = memref.cast %[[OUT]] : memref<?xf32> to memref<*xf32>
// CHECK: func.call @scale(%[[UIN]], %[[UOUT]], %[[A]]) : (memref<*xf32>, memref<*xf32>, f64) -> ()
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
mo.graph @c_kernel<n>(%x: !mo.tensor<[n], f32>) -> !mo.tensor<[n], f32> {
  %y = mo.custom "scale"(%x) {parameters = {alpha = 2.0 : f64}} : (!mo.tensor<[n], f32>) -> !mo.tensor<[n], f32>
  mo.output %y : !mo.tensor<[n], f32>
}
