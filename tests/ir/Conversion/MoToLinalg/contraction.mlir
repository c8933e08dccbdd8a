// mo-lower-to-linalg, contraction: matmul becomes linalg.matmul / batch_matmul (a batched x 2-D matmul one
// collapsed linalg.matmul), broadcast batches a linalg.generic.
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s

// 2-D matmul is linalg.matmul (the pipeline picks the loop order, tiles or
// packs it) into a zero-filled init sized from the operands.
// CHECK-LABEL: func.func @matmul_2d(
// CHECK-DAG: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[A:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<?x4xf32>
// CHECK-DAG: %[[B:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<4x?xf32>
// CHECK: %[[M:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<4x?xf32>
// CHECK: %[[E:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK: %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<?x4xf32>, tensor<4x?xf32>) outs(%[[F]] : tensor<?x?xf32>)
// CHECK: bufferization.materialize_in_destination %[[R]]
mo.graph @matmul_2d<m, n>(%a: !mo.tensor<[m, 4], f32>, %b: !mo.tensor<[4, n], f32>) -> !mo.tensor<[m, n], f32> {
  %y = mo.matmul(%a, %b) : (!mo.tensor<[m, 4], f32>, !mo.tensor<[4, n], f32>) -> !mo.tensor<[m, n], f32>
  mo.output %y : !mo.tensor<[m, n], f32>
}

// -----

// Batched matmul against a 2-D rhs (an MLP's x @ W): one linalg.matmul over
// the rows of all batches, between a collapse and an expand of the batch.
// CHECK-LABEL: func.func @matmul_batched(
// CHECK: %[[A:.+]] = tensor.cast %{{.+}} : tensor<?x?x?xf32> to tensor<?x3x4xf32>
// CHECK: %[[W:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<4x5xf32>
// CHECK: %[[ROWS:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2]] : tensor<?x3x4xf32> into tensor<?x4xf32>
// CHECK: %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?x5xf32>)
// CHECK: %[[P:.+]] = linalg.matmul ins(%[[ROWS]], %[[W]] : tensor<?x4xf32>, tensor<4x5xf32>) outs(%[[F]] : tensor<?x5xf32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[P]] {{\[\[}}0, 1], [2]] output_shape [%{{.+}}, 3, 5] : tensor<?x5xf32> into tensor<?x3x5xf32>
// CHECK: bufferization.materialize_in_destination %[[R]]

mo.graph @matmul_batched<b>(%a: !mo.tensor<[b, 3, 4], f32>, %w: !mo.tensor<[4, 5], f32>) -> !mo.tensor<[b, 3, 5], f32> {
  %y = mo.matmul(%a, %w) : (!mo.tensor<[b, 3, 4], f32>, !mo.tensor<[4, 5], f32>) -> !mo.tensor<[b, 3, 5], f32>
  mo.output %y : !mo.tensor<[b, 3, 5], f32>
}

// -----

// Equal batches: linalg.batch_matmul.
// CHECK-LABEL: func.func @matmul_same_batch(
// CHECK: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<?x3x4xf32>, tensor<?x4x5xf32>) outs(%{{.+}} : tensor<?x3x5xf32>)
mo.graph @matmul_same_batch<b>(%a: !mo.tensor<[b, 3, 4], f32>, %w: !mo.tensor<[b, 4, 5], f32>) -> !mo.tensor<[b, 3, 5], f32> {
  %y = mo.matmul(%a, %w) : (!mo.tensor<[b, 3, 4], f32>, !mo.tensor<[b, 4, 5], f32>) -> !mo.tensor<[b, 3, 5], f32>
  mo.output %y : !mo.tensor<[b, 3, 5], f32>
}

// -----

// Several equal batch dims (attention's [b, h, s, d]) collapse into one
// batch_matmul, expanded back.
// CHECK-LABEL: func.func @matmul_heads(
// CHECK: %[[L:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2], [3]] : tensor<?x8x3x4xf32> into tensor<?x3x4xf32>
// CHECK: %[[R:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2], [3]] : tensor<?x8x4x5xf32> into tensor<?x4x5xf32>
// CHECK: %[[P:.+]] = linalg.batch_matmul ins(%[[L]], %[[R]] : tensor<?x3x4xf32>, tensor<?x4x5xf32>) outs(%{{.+}} : tensor<?x3x5xf32>)
// CHECK: tensor.expand_shape %[[P]] {{\[\[}}0, 1], [2], [3]] output_shape [%{{.+}}, 8, 3, 5] : tensor<?x3x5xf32> into tensor<?x8x3x5xf32>
mo.graph @matmul_heads<b>(%a: !mo.tensor<[b, 8, 3, 4], f32>, %w: !mo.tensor<[b, 8, 4, 5], f32>) -> !mo.tensor<[b, 8, 3, 5], f32> {
  %y = mo.matmul(%a, %w) : (!mo.tensor<[b, 8, 3, 4], f32>, !mo.tensor<[b, 8, 4, 5], f32>) -> !mo.tensor<[b, 8, 3, 5], f32>
  mo.output %y : !mo.tensor<[b, 8, 3, 5], f32>
}

// -----

// A batch dim of size 1 broadcasts (constant 0 in its map); integer matmul
// accumulates with muli/addi from a zero i32 fill.
// CHECK-DAG: #[[LHS:.+]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d2)>
// CHECK-DAG: #[[RHS:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @matmul_broadcast(
// CHECK: %[[Z:.+]] = arith.constant 0 : i32
// CHECK: linalg.fill ins(%[[Z]] : i32)
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<1x3x4xi32>, tensor<2x4x5xi32>)
// CHECK: arith.muli
// CHECK: arith.addi
mo.graph @matmul_broadcast(%a: !mo.tensor<[1, 3, 4], si32>, %w: !mo.tensor<[2, 4, 5], si32>) -> !mo.tensor<[2, 3, 5], si32> {
  %y = mo.matmul(%a, %w) : (!mo.tensor<[1, 3, 4], si32>, !mo.tensor<[2, 4, 5], si32>) -> !mo.tensor<[2, 3, 5], si32>
  mo.output %y : !mo.tensor<[2, 3, 5], si32>
}
