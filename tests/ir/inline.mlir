// Upstream -inline inlines mo.call: the call's prefix completes the names of
// the weights the body reads (nested prefixes compose) and the dead private
// subgraphs are dropped.
// RUN: mo-opt %s --split-input-file --inline | FileCheck %s

mo.graph private @leaf<batch>(%x: !mo.tensor<[batch], f32>) -> !mo.tensor<[batch], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[batch], f32>
  %y = mo.mul(%x, %w) : (!mo.tensor<[batch], f32>, !mo.tensor<[batch], f32>) -> !mo.tensor<[batch], f32>
  mo.output %y : !mo.tensor<[batch], f32>
}

mo.graph private @layer<batch>(%x: !mo.tensor<[batch], f32>) -> !mo.tensor<[batch], f32> {
  %b = mo.constant.external "bias" placeholder : !mo.tensor<[batch], f32>
  %y = mo.call @leaf(%x) {prefix = "attn."} : (!mo.tensor<[batch], f32>) -> !mo.tensor<[batch], f32>
  %z = mo.add(%y, %b) : (!mo.tensor<[batch], f32>, !mo.tensor<[batch], f32>) -> !mo.tensor<[batch], f32>
  mo.output %z : !mo.tensor<[batch], f32>
}

// CHECK-NOT: @leaf
// CHECK-NOT: @layer
// CHECK-LABEL: mo.graph @main<batch>
// CHECK-SAME: (%[[X:.+]]: !mo.tensor<[batch], f32>)
mo.graph @main<batch>(%x: !mo.tensor<[batch], f32>) -> !mo.tensor<[batch], f32> {
  // CHECK-NEXT: %[[B0:.+]] = mo.constant.external "layers.0.bias" placeholder : !mo.tensor<[batch], f32>
  // CHECK-NEXT: %[[W0:.+]] = mo.constant.external "layers.0.attn.w" placeholder
  // CHECK-NEXT: %[[M0:.+]] = mo.mul(%[[X]], %[[W0]])
  // CHECK-NEXT: %[[A0:.+]] = mo.add(%[[M0]], %[[B0]])
  %0 = mo.call @layer(%x) {prefix = "layers.0."} : (!mo.tensor<[batch], f32>) -> !mo.tensor<[batch], f32>
  // CHECK-NEXT: mo.constant.external "layers.1.bias" placeholder
  // CHECK-NEXT: mo.constant.external "layers.1.attn.w" placeholder
  %1 = mo.call @layer(%0) {prefix = "layers.1."} : (!mo.tensor<[batch], f32>) -> !mo.tensor<[batch], f32>
  // A call without a prefix leaves the name as the body declares it.
  // CHECK: mo.add
  // CHECK-NEXT: mo.constant.external "w" placeholder
  %2 = mo.call @leaf(%1) : (!mo.tensor<[batch], f32>) -> !mo.tensor<[batch], f32>
  // CHECK: mo.output
  mo.output %2 : !mo.tensor<[batch], f32>
}

// -----

// A weight that is not a placeholder has an absolute name: prefixes leave it.
mo.graph private @body(%x: !mo.tensor<[1], f32>) -> !mo.tensor<[1], f32> {
  %w = mo.constant.external "shared.w" : !mo.tensor<[1], f32>
  %y = mo.mul(%x, %w) : (!mo.tensor<[1], f32>, !mo.tensor<[1], f32>) -> !mo.tensor<[1], f32>
  mo.output %y : !mo.tensor<[1], f32>
}
// CHECK-LABEL: mo.graph @absolute
mo.graph @absolute(%x: !mo.tensor<[1], f32>) -> !mo.tensor<[1], f32> {
  // CHECK: mo.constant.external "shared.w" :
  // CHECK-NOT: layers.0.shared.w
  %y = mo.call @body(%x) {prefix = "layers.0."} : (!mo.tensor<[1], f32>) -> !mo.tensor<[1], f32>
  mo.output %y : !mo.tensor<[1], f32>
}
