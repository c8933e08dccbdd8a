// Regression: an elementwise op of another dialect inside a graph gets a
// diagnostic, not an abort.
// RUN: mo-opt %s --split-input-file --verify-diagnostics --mo-lower-to-linalg

mo.graph private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'math.exp' op has no lowering to linalg}}
  %y = math.exp %x : tensor<4xf32>
  mo.output %y : tensor<4xf32>
}
