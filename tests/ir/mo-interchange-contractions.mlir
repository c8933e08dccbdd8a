// mo-interchange-contractions: the last parallel loop of a contraction or a
// window op moves inside the reductions after it (so lowered loops vectorize).
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-interchange-contractions))" | FileCheck %s

// linalg.matmul (m, n, k) becomes a generic over (m, k, n).
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @matmul(
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]}
func.func @matmul(%a: memref<?x4xf32>, %b: memref<4x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x4xf32>, memref<4x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// batch_matmul (b, m, n, k) becomes (b, m, k, n).
// CHECK-LABEL: func.func @batch(
// CHECK: iterator_types = ["parallel", "parallel", "reduction", "parallel"]
func.func @batch(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// no_change: a contraction already ordered (reduction not innermost) stays.
// CHECK-LABEL: func.func @ordered(
// CHECK: iterator_types = ["parallel", "reduction", "parallel"]
#l = affine_map<(m, k, n) -> (m, k)>
#r = affine_map<(m, k, n) -> (k, n)>
#o = affine_map<(m, k, n) -> (m, n)>
func.func @ordered(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = linalg.generic {indexing_maps = [#l, #r, #o], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : tensor<3x4xf32>, tensor<4x5xf32>) outs(%c : tensor<3x5xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// conv_2d_nhwc_hwcf (n, oh, ow, f, kh, kw, c) becomes (n, oh, ow, kh, kw, c, f):
// the filter's features and the output channels innermost.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d3, d2 + d4, d5)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d6)>
// CHECK-LABEL: func.func @conv(
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]}
func.func @conv(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

// -----

// pooling_nhwc_max (n, oh, ow, c, kh, kw): the channels innermost.
// CHECK-LABEL: func.func @pool(
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]
func.func @pool(%x: tensor<1x8x8x3xf32>, %k: tensor<2x2xf32>, %o: tensor<1x7x7x3xf32>) -> tensor<1x7x7x3xf32> {
  %r = linalg.pooling_nhwc_max ins(%x, %k : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%o : tensor<1x7x7x3xf32>) -> tensor<1x7x7x3xf32>
  return %r : tensor<1x7x7x3xf32>
}
