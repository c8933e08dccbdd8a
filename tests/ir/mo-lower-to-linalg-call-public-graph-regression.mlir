// A mo.call to a public (entry) graph is rejected with a clear error: only
// private graphs (subgraphs) have the plain calling convention.
// RUN: mo-opt %s --verify-diagnostics --mo-lower-to-linalg

mo.graph @twice(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.add(%x, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

mo.graph @main(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  // expected-error @+1 {{'mo.call' op calls the entry graph @twice; only private graphs (subgraphs) can be called}}
  %y = mo.call @twice(%x) : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}
