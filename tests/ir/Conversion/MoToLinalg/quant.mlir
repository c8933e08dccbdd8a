// Quantized ops lower to linalg.generic ops that read the packed bytes with
// tensor.extract; qmatmul dequantizes one tile of rows at a time into a
// [K, tile] scratch and never builds the float32 weight matrix.
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @qmm(
// CHECK: %[[X:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<?x64xf32>
// CHECK: %[[W:.+]] = tensor.cast %{{.+}} : tensor<?x?xi8> to tensor<5x36xi8>
// CHECK-NOT: tensor<5x64xf32>
// CHECK: scf.for %[[N0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK: %[[SLICE:.+]] = tensor.extract_slice %[[ACC]][0, %[[N0]]]
// CHECK: tensor.empty(%{{.+}}) : tensor<64x?xf32>
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: linalg.index 1
// CHECK: tensor.extract %[[W]]
// CHECK: arith.bitcast %{{.+}} : i16 to f16
// CHECK: %[[TILE:.+]] = bufferization.materialize_in_destination
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%[[X]], %[[TILE]] : tensor<?x64xf32>, tensor<64x?xf32>) outs(%[[SLICE]] : tensor<?x?xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.insert_slice %{{.+}} into %[[ACC]][0, %[[N0]]]
// CHECK-NOT: tensor<5x64xf32>
mo.graph @qmm<m>(%x: !mo.tensor<[m, 64], f32>, %w: !mo.tensor<[5, 36], ui8>) -> !mo.tensor<[m, 5], f32> {
  %y = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[m, 64], f32>, !mo.tensor<[5, 36], ui8>) -> !mo.tensor<[m, 5], f32>
  mo.output %y : !mo.tensor<[m, 5], f32>
}

// -----

// Q6_K reads its int8 scales sign-extended.
// CHECK-LABEL: func.func @dq6(
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK: arith.extsi %{{.+}} : i8 to i32
mo.graph @dq6(%q: !mo.tensor<[2, 210], ui8>) -> !mo.tensor<[2, 256], f32> {
  %w = mo.dequantize q6_k %q : !mo.tensor<[2, 210], ui8> -> !mo.tensor<[2, 256], f32>
  mo.output %w : !mo.tensor<[2, 256], f32>
}
