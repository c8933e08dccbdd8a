// mo-weights-to-arguments: weights become trailing graph arguments tagged
// with their names, in first-use order; calls pass their callee's weights
// under the names their prefixes resolve them to.
// RUN: mo-opt %s --split-input-file --mo-weights-to-arguments | FileCheck %s

// The pass description's example: a placeholder weight of a shared layer
// resolves to "layers.0.w" and "layers.1.w" in the entry.
// CHECK-LABEL: mo.graph @main(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: !mo.tensor<[4], f32>,
// CHECK-SAME: %[[W0:[a-zA-Z0-9_]+]]: !mo.tensor<[4], f32> {mo.weight = "layers.0.w"},
// CHECK-SAME: %[[W1:[a-zA-Z0-9_]+]]: !mo.tensor<[4], f32> {mo.weight = "layers.1.w"})
// CHECK: %[[A:.+]] = mo.call @layer(%[[X]], %[[W0]]) {prefix = "layers.0."}
// CHECK: mo.call @layer(%[[A]], %[[W1]]) {prefix = "layers.1."}
// CHECK-LABEL: mo.graph @layer(
// CHECK-SAME: %[[LX:[a-zA-Z0-9_]+]]: !mo.tensor<[4], f32>,
// CHECK-SAME: %[[LW:[a-zA-Z0-9_]+]]: !mo.tensor<[4], f32> {mo.weight = "w"})
// CHECK-NOT: mo.constant.external
// CHECK: mo.mul(%[[LX]], %[[LW]])
mo.graph @main(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %0 = mo.call @layer(%x) {prefix = "layers.0."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  %1 = mo.call @layer(%0) {prefix = "layers.1."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %1 : !mo.tensor<[4], f32>
}
mo.graph private @layer(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
  %y = mo.mul(%x, %w) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// One argument per name however often it is read; an absolute name inside a
// subgraph is passed through unprefixed; a graph without weights is unchanged.
// CHECK-LABEL: mo.graph @twice(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: !mo.tensor<[2], f32>,
// CHECK-SAME: %[[S:[a-zA-Z0-9_]+]]: !mo.tensor<[2], f32> {mo.weight = "shared"})
// CHECK-NOT: mo.weight
// CHECK: mo.call @inner(%{{.+}}, %[[S]]) {prefix = "p."}
// CHECK-LABEL: mo.graph @inner(
// CHECK-SAME: {mo.weight = "shared"})
// CHECK-LABEL: mo.graph @plain(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
mo.graph @twice(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
  %a = mo.constant.external "shared" : !mo.tensor<[2], f32>
  %b = mo.constant.external "shared" : !mo.tensor<[2], f32>
  %0 = mo.add(%a, %b) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %1 = mo.call @inner(%0) {prefix = "p."} : (!mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  mo.output %1 : !mo.tensor<[2], f32>
}
mo.graph private @inner(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
  %w = mo.constant.external "shared" : !mo.tensor<[2], f32>
  %y = mo.mul(%x, %w) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  mo.output %y : !mo.tensor<[2], f32>
}
mo.graph private @plain(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
  mo.output %x : !mo.tensor<[2], f32>
}
