// One case per error message of mo-lower-to-linalg.
// RUN: mo-opt %s --split-input-file --verify-diagnostics --mo-lower-to-linalg

// n only appears inside an expression of an argument's dims, so nothing
// gives its size (the entry's prologue, which checks that dim, finds out).
// expected-error @+1 {{cannot determine the size of symbolic dim 'n' from the graph's arguments}}
mo.graph @f<n>(%x: !mo.tensor<[n * 2], f32>) -> !mo.tensor<[n, 2], f32> {
  %0 = mo.reshape %x : !mo.tensor<[n * 2], f32> -> !mo.tensor<[n, 2], f32>
  mo.output %0 : !mo.tensor<[n, 2], f32>
}

// -----

// A reshape to an unknown ('?') dim has no size to give tensor.reshape.
mo.graph @f(%x: !mo.tensor<[?, 4], f32>) -> !mo.tensor<[?], f32> {
  // expected-error @+1 {{cannot determine the size of an unknown ('?') dim}}
  %0 = mo.reshape %x : !mo.tensor<[?, 4], f32> -> !mo.tensor<[?], f32>
  mo.output %0 : !mo.tensor<[?], f32>
}

// -----

// An entry graph cannot return a chain: it has no out-parameter form.
// expected-error @+1 {{'mo.graph' op entry graph results must be tensors, got '!mo.chain'}}
mo.graph @f(%x: !mo.tensor<[4], f32>) -> (!mo.tensor<[4], f32>, !mo.chain) {
  %c = mo.chain.create
  mo.output %x, %c : !mo.tensor<[4], f32>, !mo.chain
}

// -----

// An entry graph cannot return a buffer either.
// expected-error @+1 {{'mo.graph' op entry graph results must be tensors, got '!mo.buffer<[4], f32>'}}
mo.graph @f(%x: !mo.buffer<[4], f32>) -> !mo.buffer<[4], f32> {
  mo.output %x : !mo.buffer<[4], f32>
}

// -----

// no_error: a private graph may return a chain (it becomes i1), so the same
// body is fine when it is not the entry point.
mo.graph private @g(%x: !mo.tensor<[4], f32>) -> (!mo.tensor<[4], f32>, !mo.chain) {
  %c = mo.chain.create
  mo.output %x, %c : !mo.tensor<[4], f32>, !mo.chain
}

// -----

// One graph reads the same weight name with two types.
mo.graph @f(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %a = mo.constant.external "w" : !mo.tensor<[4], f32>
  // expected-error @+1 {{'mo.constant.external' op reads weight 'w' as '!mo.tensor<[4], f16>' but also as '!mo.tensor<[4], f32>'}}
  %b = mo.constant.external "w" : !mo.tensor<[4], f16>
  mo.output %a : !mo.tensor<[4], f32>
}

// -----

// Two subgraphs called with the same prefix resolve "w" to the same name
// "p.w" with different shapes; the error points at the second call.
mo.graph private @four(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
  mo.output %w : !mo.tensor<[4], f32>
}
mo.graph private @eight(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[8], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[8], f32>
  mo.output %w : !mo.tensor<[8], f32>
}
mo.graph @f(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[8], f32> {
  %0 = mo.call @four(%x) {prefix = "p."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  // expected-error @+1 {{'mo.call' op reads weight 'p.w' as '!mo.tensor<[8], f32>' but also as '!mo.tensor<[4], f32>'}}
  %1 = mo.call @eight(%0) {prefix = "p."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[8], f32>
  mo.output %1 : !mo.tensor<[8], f32>
}

// -----

// no_error: the same two subgraphs under different prefixes read different
// weights.
mo.graph private @four(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
  mo.output %w : !mo.tensor<[4], f32>
}
mo.graph private @eight(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[8], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[8], f32>
  mo.output %w : !mo.tensor<[8], f32>
}
mo.graph @f(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[8], f32> {
  %0 = mo.call @four(%x) {prefix = "a."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  %1 = mo.call @eight(%0) {prefix = "b."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[8], f32>
  mo.output %1 : !mo.tensor<[8], f32>
}

// -----

// Constants stored as resource blobs are not lowered.
mo.graph @f() -> !mo.tensor<[2], f32> {
  // expected-error @+1 {{'mo.constant' op only dense constants can be lowered}}
  %c = mo.constant dense_resource<blob> : tensor<2xf32> : !mo.tensor<[2], f32>
  mo.output %c : !mo.tensor<[2], f32>
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// A graph that calls itself.
// expected-error @+1 {{'mo.graph' op calls itself (recursion is not supported)}}
mo.graph private @f(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %0 = mo.call @f(%x) : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %0 : !mo.tensor<[4], f32>
}

// -----

// Mutual recursion is reported on the graph first reached twice.
// expected-error @+1 {{'mo.graph' op calls itself (recursion is not supported)}}
mo.graph private @a(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %0 = mo.call @b(%x) : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %0 : !mo.tensor<[4], f32>
}
mo.graph private @b(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %0 = mo.call @a(%x) : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %0 : !mo.tensor<[4], f32>
}

// -----

// Only private graphs (subgraphs) have the plain calling convention: a call
// to the entry graph is rejected.
mo.graph @twice(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.add(%x, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

mo.graph @main(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  // expected-error @+1 {{'mo.call' op calls the entry graph @twice; only private graphs (subgraphs) can be called}}
  %y = mo.call @twice(%x) : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// A dim nonzero binds is not also an argument's.
mo.graph @bound_twice<n>(%x: !mo.tensor<[4], f32>, %y: !mo.tensor<[n], f32>) {
  // expected-error @+1 {{dim 'n' is bound twice: the graph's arguments or another op already size it}}
  %i = mo.nonzero %x : !mo.tensor<[4], f32> -> !mo.tensor<[n, 1], si64>
  mo.output
}

// -----

// An entry result uses a run-time dim only whole.
// expected-error @+1 {{'mo.graph' op result dim [k + k] uses 'k', which an op binds at run time: a result may only use it whole}}
mo.graph @bound_expression<k>(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[k + k, 1], si64> {
  %i = mo.nonzero %x : !mo.tensor<[4], f32> -> !mo.tensor<[k, 1], si64>
  %c = mo.concat(%i, %i) {axis = 0 : i64} : (!mo.tensor<[k, 1], si64>, !mo.tensor<[k, 1], si64>) -> !mo.tensor<[k + k, 1], si64>
  mo.output %c : !mo.tensor<[k + k, 1], si64>
}
