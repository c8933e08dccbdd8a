// mo-lower-to-linalg, random: one parallel generic whose element is the
// SplitMix64 output at its row-major index, keyed by (seed, counter).
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s

// Uniform f32: the top 24 bits of the hash, times 2^-24.
// CHECK-LABEL: func.func @uniform(
// CHECK: %[[SEED:.+]] = tensor.extract %{{.+}}[] : tensor<i64>
// CHECK: %[[COUNTER:.+]] = tensor.extract %{{.+}}[] : tensor<i64>
// CHECK: arith.xori %[[SEED]], %{{.+}} : i64
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel"]
// CHECK: %[[ROW:.+]] = linalg.index 0 : index
// CHECK: %[[COL:.+]] = linalg.index 1 : index
// CHECK: arith.muli
// CHECK: arith.shrui %{{.+}}, %{{.+}} : i64
// CHECK: %[[TOP:.+]] = arith.shrui %{{.+}}, %c40_i64 : i64
// CHECK: %[[F:.+]] = arith.uitofp %[[TOP]] : i64 to f32
// CHECK: arith.mulf %[[F]], %{{.+}} : f32
mo.graph @uniform<n>(%s: !mo.tensor<[], si64>, %c: !mo.tensor<[], si64>, %x: !mo.tensor<[n], f32>) -> !mo.tensor<[n, 4], f32> {
  %r = mo.random uniform(%s, %c) : (!mo.tensor<[], si64>, !mo.tensor<[], si64>) -> !mo.tensor<[n, 4], f32>
  mo.output %r : !mo.tensor<[n, 4], f32>
}

// -----

// Normal f16: Box-Muller in f32, rounded once.
// CHECK-LABEL: func.func @normal(
// CHECK: math.log %{{.+}} : f32
// CHECK: math.sqrt %{{.+}} : f32
// CHECK: math.cos %{{.+}} : f32
// CHECK: arith.truncf %{{.+}} : f32 to f16
mo.graph @normal(%s: !mo.tensor<[], si64>, %c: !mo.tensor<[], si64>) -> !mo.tensor<[8], f16> {
  %r = mo.random normal(%s, %c) : (!mo.tensor<[], si64>, !mo.tensor<[], si64>) -> !mo.tensor<[8], f16>
  mo.output %r : !mo.tensor<[8], f16>
}
