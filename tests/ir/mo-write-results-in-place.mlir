// mo-write-results-in-place: a result reshaped on its way into the caller's
// buffer is written through a reshaped view of that buffer, so that
// empty-tensor elimination computes it in place (no temporary, no copy).
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-write-results-in-place))" | FileCheck %s
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-write-results-in-place),eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries},canonicalize)" | FileCheck %s --check-prefix=BUF

// CHECK-LABEL: func.func @unit_dim
// CHECK: %[[V:.+]] = memref.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : memref<1x56x64xf32> into memref<56x64xf32>
// CHECK: bufferization.materialize_in_destination %{{.+}} in restrict writable %[[V]] : (tensor<56x64xf32>, memref<56x64xf32>) -> ()
// CHECK-NOT: tensor.expand_shape
// BUF-LABEL: func.func @unit_dim
// BUF-NOT: memref.alloc
// BUF-NOT: memref.copy
// BUF: linalg.generic {{.+}} outs(%{{.+}} : memref<56x64xf32
// BUF-NOT: memref.copy
func.func @unit_dim(%x: tensor<56x64xf32>, %out: memref<1x56x64xf32>) {
  %e = tensor.empty() : tensor<56x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<56x64xf32>) outs(%e : tensor<56x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<56x64xf32>
  %x4 = tensor.expand_shape %r [[0, 1], [2]] output_shape [1, 56, 64] : tensor<56x64xf32> into tensor<1x56x64xf32>
  bufferization.materialize_in_destination %x4 in restrict writable %out : (tensor<1x56x64xf32>, memref<1x56x64xf32>) -> ()
  return
}

// -----

// A buffer with strides that cannot be collapsed keeps the expand_shape.
// CHECK-LABEL: func.func @strided
// BUF-LABEL: func.func @strided
// CHECK: tensor.expand_shape
// CHECK: bufferization.materialize_in_destination %{{.+}} in restrict writable %arg1 : (tensor<4x8x64xf32>, memref<4x8x64xf32, strided<[2048, 128, 1]>>)
func.func @strided(%x: tensor<32x64xf32>, %out: memref<4x8x64xf32, strided<[2048, 128, 1]>>) {
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [4, 8, 64] : tensor<32x64xf32> into tensor<4x8x64xf32>
  bufferization.materialize_in_destination %x3 in restrict writable %out : (tensor<4x8x64xf32>, memref<4x8x64xf32, strided<[2048, 128, 1]>>) -> ()
  return
}

// -----

// Two reductions initialized from one zero tensor (CSE merges their fills)
// each get a fill of their own: empty-tensor elimination anchors an empty
// on one output buffer, and a shared one made the second sum write the
// first's buffer (both results were the first's sums).
// CHECK-LABEL: func.func @shared_init
// CHECK: %[[F1:.+]] = linalg.fill ins(%{{.+}}) outs(%{{.+}} : tensor<3xf32>)
// CHECK: %[[F2:.+]] = linalg.fill ins(%{{.+}}) outs(%{{.+}} : tensor<3xf32>)
// CHECK: linalg.reduce ins(%arg0 {{.+}} outs(%[[F2]] : tensor<3xf32>)
// CHECK: linalg.reduce ins(%arg1 {{.+}} outs(%[[F1]] : tensor<3xf32>)
// BUF-LABEL: func.func @shared_init
// BUF-DAG: linalg.fill {{.+}} outs(%arg2 : memref<3xf32>)
// BUF-DAG: linalg.fill {{.+}} outs(%arg3 : memref<3xf32>)
// BUF: linalg.reduce ins(%arg0 {{.+}} outs(%arg2 : memref<3xf32>)
// BUF: linalg.reduce ins(%arg1 {{.+}} outs(%arg3 : memref<3xf32>)
// BUF-NOT: memref.copy
func.func @shared_init(%x: tensor<3x8xf32>, %y: tensor<3x8xf32>, %o0: memref<3xf32>,
                       %o1: memref<3xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s0 = linalg.reduce ins(%x : tensor<3x8xf32>) outs(%f : tensor<3xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  %s1 = linalg.reduce ins(%y : tensor<3x8xf32>) outs(%f : tensor<3xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  bufferization.materialize_in_destination %s0 in restrict writable %o0 : (tensor<3xf32>, memref<3xf32>) -> ()
  bufferization.materialize_in_destination %s1 in restrict writable %o1 : (tensor<3xf32>, memref<3xf32>) -> ()
  return
}
