// mo-interchange-contractions: a contraction whose innermost loop is its
// reduction gets its last two loops swapped (so lowered loops vectorize).
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
