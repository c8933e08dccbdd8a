// One case per verifier and parser message of the mo dialect.
// RUN: mo-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{dims must be non-negative, got -3}}
mo.graph @f(%x: !mo.tensor<[-3], f32>) { mo.output }

// -----

// expected-error @+1 {{symbolic dim 'a.b' is not an identifier}}
mo.graph @f(%x: !mo.tensor<[a.b], f32>) { mo.output }

// -----

// expected-error @+1 {{expected a dim: an integer, a symbolic name, '?' or a parenthesized expression}}
mo.graph @f(%x: !mo.tensor<["n"], f32>) { mo.output }

// -----

// expected-error @+1 {{unsupported element type 'i32': expected i1, si8..si64, ui8..ui64, f16, bf16, f32 or f64}}
mo.graph @f(%x: !mo.tensor<[2], i32>) { mo.output }

// -----

// expected-error @+1 {{unknown device kind 'tpu', expected 'cpu' or 'gpu'}}
mo.graph @f(%x: !mo.tensor<[2], f32, tpu:0>) { mo.output }

// -----

// expected-error @+1 {{device id must be non-negative, got -1}}
mo.graph @f(%x: !mo.tensor<[2], f32, gpu:-1>) { mo.output }

// -----

// expected-error @+1 {{expected a dim (integer, symbolic name, '?' or expression), got 1.500000e+00 : f32}}
mo.graph @f() attributes {d = #mo.dim_expr<mul, 1.5 : f32, 2 : i64>} { mo.output }

// -----

// expected-error @+1 {{'mo.graph' op declares symbolic dim 'n' twice}}
mo.graph @f<n, n>(%x: !mo.tensor<[n], f32>) { mo.output }

// -----

// expected-error @+1 {{'mo.graph' op symbolic dim 'a.b' is not an identifier}}
mo.graph @f<a.b>() { mo.output }

// -----

// expected-error @+1 {{'mo.graph' op argument 1 uses symbolic dim 'seq' which is not declared in the graph's parameters (`@f<seq>`)}}
mo.graph @f<batch>(%x: !mo.tensor<[batch], f32>, %y: !mo.tensor<[batch * seq], f32>) { mo.output }

// -----

// expected-error @+1 {{'mo.graph' op result 0 uses symbolic dim 'n' which is not declared}}
mo.graph @f() -> !mo.tensor<[n], f32> {
  %y = mo.constant.external "y" : !mo.tensor<[n], f32>
  mo.output %y : !mo.tensor<[n], f32>
}

// -----

// expected-error @+1 {{'mo.graph' op must have a body}}
mo.graph private @f()

// -----

mo.graph @f(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
  // expected-error @+1 {{'mo.output' op has 0 operands, but the enclosing graph @f returns 1}}
  mo.output
}

// -----

mo.graph @f(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[3], f32> {
  // expected-error @+1 {{'mo.output' op operand 0 has type '!mo.tensor<[2], f32>', but the enclosing graph returns '!mo.tensor<[3], f32>'}}
  mo.output %x : !mo.tensor<[2], f32>
}

// -----

// expected-error @+1 {{'mo.output' op expects parent op 'mo.graph'}}
mo.output

// -----

mo.graph @f() {
  // expected-error @+1 {{'mo.call' op '@missing' does not reference a valid mo.graph}}
  mo.call @missing() : () -> ()
  mo.output
}

// -----

mo.graph private @g(%x: !mo.tensor<[2], f32>) { mo.output }
mo.graph @f() {
  // expected-error @+1 {{'mo.call' op passes 0 operands, but @g takes 1}}
  mo.call @g() : () -> ()
  mo.output
}

// -----

mo.graph private @g() -> !mo.chain {
  %c = mo.chain.create
  mo.output %c : !mo.chain
}
mo.graph @f() {
  // expected-error @+1 {{'mo.call' op has 0 results, but @g returns 1}}
  mo.call @g() : () -> ()
  mo.output
}

// -----

mo.graph private @g<n>(%x: !mo.tensor<[n], f32>, %y: !mo.tensor<[n], f32>) { mo.output }
mo.graph @f<n, m>(%a: !mo.tensor<[n], f32>, %b: !mo.tensor<[m], f32>) {
  // expected-error @+1 {{'mo.call' op operand 1 has type '!mo.tensor<[m], f32>', but @g expects '!mo.tensor<[n], f32>'}}
  mo.call @g(%a, %b) : (!mo.tensor<[n], f32>, !mo.tensor<[m], f32>) -> ()
  mo.output
}

// -----

mo.graph private @g<n>(%x: !mo.tensor<[n], f32>) -> !mo.tensor<[n * 2], f32> {
  %y = mo.constant.external "y" : !mo.tensor<[n * 2], f32>
  mo.output %y : !mo.tensor<[n * 2], f32>
}
mo.graph @f<n>(%a: !mo.tensor<[n], f32>) {
  // expected-error @+1 {{'mo.call' op result 0 has type '!mo.tensor<[n], f32>', but @g returns '!mo.tensor<[n * 2], f32>'}}
  %r = mo.call @g(%a) : (!mo.tensor<[n], f32>) -> !mo.tensor<[n], f32>
  mo.output
}

// -----

mo.graph @f<n>() {
  // expected-error @+1 {{'mo.constant' op result type '!mo.tensor<[n], f32>' must have a static shape}}
  %c = mo.constant dense<1.0> : tensor<2xf32> : !mo.tensor<[n], f32>
  mo.output
}

// -----

mo.graph @f() {
  // expected-error @+1 {{'mo.constant' op value shape 'tensor<2xf32>' does not match result type '!mo.tensor<[3], f32>'}}
  %c = mo.constant dense<1.0> : tensor<2xf32> : !mo.tensor<[3], f32>
  mo.output
}

// -----

mo.graph @f() {
  // expected-error @+1 {{'mo.constant' op value element type 'f64' does not match result element type 'f32'}}
  %c = mo.constant dense<1.0> : tensor<2xf64> : !mo.tensor<[2], f32>
  mo.output
}

// -----

mo.graph @f() {
  // expected-error @+1 {{'mo.constant.external' op requires a non-empty weight name}}
  %w = mo.constant.external "" : !mo.tensor<[2], f32>
  mo.output
}

// -----

mo.graph @f(%a: !mo.tensor<[2], f32>, %b: !mo.tensor<[2], f64>) {
  // expected-error @+2 {{operands have different element types: 'f32' vs 'f64' (cast one of them explicitly)}}
  // expected-error @+1 {{'mo.add' op failed to infer returned types}}
  %r = mo.add(%a, %b) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f64>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

mo.graph @f(%a: !mo.tensor<[2], f32, cpu:0>, %b: !mo.tensor<[2], f32, gpu:0>) {
  // expected-error @+2 {{operands are on different devices: !mo.tensor<[2], f32, cpu:0> vs !mo.tensor<[2], f32, gpu:0>}}
  // expected-error @+1 {{'mo.mul' op failed to infer returned types}}
  %r = mo.mul(%a, %b) : (!mo.tensor<[2], f32, cpu:0>, !mo.tensor<[2], f32, gpu:0>) -> !mo.tensor<[2], f32, cpu:0>
  mo.output
}

// -----

mo.graph @f<n>(%a: !mo.tensor<[n, 3], f32>, %b: !mo.tensor<[4], f32>) {
  // expected-error @+2 {{cannot broadcast [n, 3] with [4]: dims 3 and 4 differ}}
  // expected-error @+1 {{'mo.sub' op failed to infer returned types}}
  %r = mo.sub(%a, %b) : (!mo.tensor<[n, 3], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 3], f32>
  mo.output
}

// -----

mo.graph @f(%a: !mo.tensor<[2, 1], f32>, %b: !mo.tensor<[3], f32>) {
  // expected-error @+2 {{'mo.div' op inferred type(s) '!mo.tensor<[2, 3], f32>' are incompatible with return type(s) of operation '!mo.tensor<[2, 1], f32>'}}
  // expected-error @+1 {{'mo.div' op failed to infer returned types}}
  %r = mo.div(%a, %b) : (!mo.tensor<[2, 1], f32>, !mo.tensor<[3], f32>) -> !mo.tensor<[2, 1], f32>
  mo.output
}

// -----

mo.graph @f(%q: !mo.tensor<[4, 36], si8>) {
  // expected-error @+1 {{'mo.dequantize' op input must be uint8, got 'si8'}}
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[4, 36], si8> -> !mo.tensor<[4, 64], f32>
  mo.output
}

// -----

mo.graph @f(%q: !mo.tensor<[4, 20], ui8>) {
  // expected-error @+1 {{'mo.dequantize' op input last dim 20 is not a multiple of the q4_0 block size (18 bytes per 32 values)}}
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[4, 20], ui8> -> !mo.tensor<[4, 32], f32>
  mo.output
}

// -----

mo.graph @f<n>(%q: !mo.tensor<[4, n], ui8>) {
  // expected-error @+1 {{'mo.dequantize' op input must have a static last dim, got [4, n]}}
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[4, n], ui8> -> !mo.tensor<[4, 32], f32>
  mo.output
}

// -----

mo.graph @f(%q: !mo.tensor<[4, 18], ui8>) {
  // expected-error @+1 {{'mo.dequantize' op result must be '!mo.tensor<[4, 32], f32>', got '!mo.tensor<[4, 64], f32>'}}
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[4, 18], ui8> -> !mo.tensor<[4, 64], f32>
  mo.output
}

// -----

mo.graph @f(%x: !mo.tensor<[2, 32], f32>, %w: !mo.tensor<[3, 18], f32>) {
  // expected-error @+1 {{'mo.qmatmul' op rhs must be uint8, got 'f32'}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 32], f32>, !mo.tensor<[3, 18], f32>) -> !mo.tensor<[2, 3], f32>
  mo.output
}

// -----

mo.graph @f(%x: !mo.tensor<[2, 32], f16>, %w: !mo.tensor<[3, 18], ui8>) {
  // expected-error @+1 {{'mo.qmatmul' op lhs must be float32, got 'f16'}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 32], f16>, !mo.tensor<[3, 18], ui8>) -> !mo.tensor<[2, 3], f32>
  mo.output
}

// -----

mo.graph @f(%x: !mo.tensor<[32], f32>, %w: !mo.tensor<[3, 18], ui8>) {
  // expected-error @+1 {{'mo.qmatmul' op lhs must have rank >= 2, got [32]}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[32], f32>, !mo.tensor<[3, 18], ui8>) -> !mo.tensor<[3], f32>
  mo.output
}

// -----

mo.graph @f(%x: !mo.tensor<[2, 32], f32>, %w: !mo.tensor<[18], ui8>) {
  // expected-error @+1 {{'mo.qmatmul' op rhs must be a [N, bytes] matrix, got [18]}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 32], f32>, !mo.tensor<[18], ui8>) -> !mo.tensor<[2, 3], f32>
  mo.output
}

// -----

mo.graph @f(%x: !mo.tensor<[2, 64], f32>, %w: !mo.tensor<[3, 18], ui8>) {
  // expected-error @+1 {{'mo.qmatmul' op lhs has K = [64] but rhs rows hold 32 values}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 64], f32>, !mo.tensor<[3, 18], ui8>) -> !mo.tensor<[2, 3], f32>
  mo.output
}

// -----

mo.graph @f(%x: !mo.tensor<[2, 32], f32>, %w: !mo.tensor<[3, 18], ui8>) {
  // expected-error @+1 {{'mo.qmatmul' op result must be '!mo.tensor<[2, 3], f32>', got '!mo.tensor<[2, 4], f32>'}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 32], f32>, !mo.tensor<[3, 18], ui8>) -> !mo.tensor<[2, 4], f32>
  mo.output
}
