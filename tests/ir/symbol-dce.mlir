// Upstream -symbol-dce drops unused private subgraphs and keeps used ones
// and the public entry graph.
// RUN: mo-opt %s --symbol-dce | FileCheck %s

// CHECK-NOT: @unused
mo.graph private @unused(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
  mo.output %x : !mo.tensor<[2], f32>
}

// CHECK-LABEL: mo.graph @used(%{{.*}}) -> !mo.tensor<[2], f32> private
mo.graph private @used(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
  mo.output %x : !mo.tensor<[2], f32>
}

// CHECK-LABEL: mo.graph @main
mo.graph @main(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
  // CHECK: mo.call @used
  %y = mo.call @used(%x) : (!mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  mo.output %y : !mo.tensor<[2], f32>
}
