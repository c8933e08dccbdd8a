// One case per verifier and parser message of the mo dialect (the messages of
// cpp/lib/Dialect/*.cpp, and the ODS-generated ones worth pinning);
// tests/python/test_diagnostics_coverage.py checks that none is missing.
// RUN: mo-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

// The type parser rejects negative static dims.
// expected-error @+1 {{dims must be non-negative, got -3}}
mo.graph @f(%x: !mo.tensor<[-3], f32>) { mo.output }

// -----

// The type parser rejects symbolic dims that are not identifiers.
// expected-error @+1 {{symbolic dim 'a.b' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)}}
mo.graph @f(%x: !mo.tensor<[a.b], f32>) { mo.output }

// -----

// The type verifier (not the parser) rejects the dim keywords as symbolic names.
// expected-error @+1 {{symbolic dim 'mod' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)}}
mo.graph @f(%x: !mo.tensor<[mod], f32>) { mo.output }

// -----

// A dim is an integer, a name, '?' or a parenthesized expression, not a string.
// expected-error @+1 {{expected a dim: an integer, a symbolic name, '?' or a parenthesized expression}}
mo.graph @f(%x: !mo.tensor<["n"], f32>) { mo.output }

// -----

// Element types are the mo dtypes: signless i32 is not one.
// expected-error @+1 {{unsupported element type 'i32': expected i1, si8..si64, ui8..ui64, f16, bf16, f32 or f64}}
mo.graph @f(%x: !mo.tensor<[2], i32>) { mo.output }

// -----

// !mo.buffer shares the tensor type's verifier.
// expected-error @+1 {{unsupported element type 'f8E4M3FN': expected i1, si8..si64, ui8..ui64, f16, bf16, f32 or f64}}
mo.graph @f(%b: !mo.buffer<[2], f8E4M3FN>) { mo.output }

// -----

// Device kinds are cpu and gpu.
// expected-error @+1 {{unknown device kind 'tpu', expected 'cpu' or 'gpu'}}
mo.graph @f(%x: !mo.tensor<[2], f32, tpu:0>) { mo.output }

// -----

// Device ids are non-negative.
// expected-error @+1 {{device id must be non-negative, got -1}}
mo.graph @f(%x: !mo.tensor<[2], f32, gpu:-1>) { mo.output }

// -----

// The operands of a dim expression are dims, not a float.
// expected-error @+1 {{expected a dim (integer, symbolic name, '?' or expression), got 1.500000e+00 : f32}}
mo.graph @f() attributes {d = #mo.dim_expr<mul, 1.5 : f32, 2 : i64>} { mo.output }

// -----

// The operands of a dim expression are verified: no negative static dim.
// expected-error @+1 {{dims must be non-negative, got -3}}
mo.graph @f() attributes {d = #mo.dim_expr<mul, -3 : i64, 2 : i64>} { mo.output }

// -----

//===----------------------------------------------------------------------===//
// mo.graph, mo.output, mo.call
//===----------------------------------------------------------------------===//

// A graph declares each symbolic dim once.
// expected-error @+1 {{'mo.graph' op declares symbolic dim 'n' twice}}
mo.graph @f<n, n>(%x: !mo.tensor<[n], f32>) { mo.output }

// -----

// Declared symbolic dims are identifiers.
// expected-error @+1 {{'mo.graph' op symbolic dim 'a.b' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)}}
mo.graph @f<a.b>() { mo.output }

// -----

// Every symbolic dim of an argument type is declared on the graph.
// expected-error @+1 {{'mo.graph' op argument 1 uses symbolic dim 'seq' which is not declared in the graph's parameters (`@f<seq>`)}}
mo.graph @f<batch>(%x: !mo.tensor<[batch], f32>, %y: !mo.tensor<[batch * seq], f32>) { mo.output }

// -----

// Every symbolic dim of a result type is declared on the graph.
// expected-error @+1 {{'mo.graph' op result 0 uses symbolic dim 'n' which is not declared in the graph's parameters (`@f<n>`)}}
mo.graph @f() -> !mo.tensor<[n], f32> {
  %y = mo.constant.external "y" : !mo.tensor<[n], f32>
  mo.output %y : !mo.tensor<[n], f32>
}

// -----

// A graph has a body: there are no graph declarations.
// expected-error @+1 {{'mo.graph' op must have a body}}
mo.graph private @f()

// -----

// mo.output returns as many values as the graph declares.
mo.graph @f(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
  // expected-error @+1 {{'mo.output' op has 0 operands, but the enclosing graph @f returns 1}}
  mo.output
}

// -----

// mo.output returns values of the graph's result types.
mo.graph @f(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[3], f32> {
  // expected-error @+1 {{'mo.output' op operand 0 has type '!mo.tensor<[2], f32>', but the enclosing graph returns '!mo.tensor<[3], f32>'}}
  mo.output %x : !mo.tensor<[2], f32>
}

// -----

// mo.output terminates a mo.graph only (ODS HasParent).
// expected-error @+1 {{'mo.output' op expects parent op 'mo.graph'}}
mo.output

// -----

// mo.call names an existing graph.
mo.graph @f() {
  // expected-error @+1 {{'mo.call' op '@missing' does not reference a valid mo.graph}}
  mo.call @missing() : () -> ()
  mo.output
}

// -----

// mo.call passes as many operands as the callee takes.
mo.graph private @g(%x: !mo.tensor<[2], f32>) { mo.output }
mo.graph @f() {
  // expected-error @+1 {{'mo.call' op passes 0 operands, but @g takes 1}}
  mo.call @g() : () -> ()
  mo.output
}

// -----

// mo.call has as many results as the callee returns.
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

// mo.call operand types equal the callee's argument types, symbolic dims included.
mo.graph private @g<n>(%x: !mo.tensor<[n], f32>, %y: !mo.tensor<[n], f32>) { mo.output }
mo.graph @f<n, m>(%a: !mo.tensor<[n], f32>, %b: !mo.tensor<[m], f32>) {
  // expected-error @+1 {{'mo.call' op operand 1 has type '!mo.tensor<[m], f32>', but @g expects '!mo.tensor<[n], f32>'}}
  mo.call @g(%a, %b) : (!mo.tensor<[n], f32>, !mo.tensor<[m], f32>) -> ()
  mo.output
}

// -----

// mo.call result types equal the callee's result types.
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

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

// A constant has a static shape.
mo.graph @f<n>() {
  // expected-error @+1 {{'mo.constant' op result type '!mo.tensor<[n], f32>' must have a static shape}}
  %c = mo.constant dense<1.0> : tensor<2xf32> : !mo.tensor<[n], f32>
  mo.output
}

// -----

// A constant's value has the result's shape.
mo.graph @f() {
  // expected-error @+1 {{'mo.constant' op value shape 'tensor<2xf32>' does not match result type '!mo.tensor<[3], f32>'}}
  %c = mo.constant dense<1.0> : tensor<2xf32> : !mo.tensor<[3], f32>
  mo.output
}

// -----

// A constant's value has the result's element type.
mo.graph @f() {
  // expected-error @+1 {{'mo.constant' op value element type 'f64' does not match result element type 'f32'}}
  %c = mo.constant dense<1.0> : tensor<2xf64> : !mo.tensor<[2], f32>
  mo.output
}

// -----

// An external constant (weight) has a name.
mo.graph @f() {
  // expected-error @+1 {{'mo.constant.external' op requires a non-empty weight name}}
  %w = mo.constant.external "" : !mo.tensor<[2], f32>
  mo.output
}

// -----

// One weight name, one type: in a graph's body (the verifier of the graph
// reports it, so tracing fails and not a pass)...
mo.graph @f() {
  %a = mo.constant.external "w" : !mo.tensor<[2], f32>
  // expected-error @+1 {{'mo.constant.external' op reads weight 'w' as '!mo.tensor<[3], f32>' but also as '!mo.tensor<[2], f32>'}}
  %b = mo.constant.external "w" : !mo.tensor<[3], f32>
  mo.output
}

// -----

// ... and through a call, whose prefix resolves the callee's placeholders.
mo.graph private @layer() -> !mo.tensor<[4], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
  mo.output %w : !mo.tensor<[4], f32>
}
mo.graph @f() -> !mo.tensor<[4], f32> {
  %w = mo.constant.external "l.w" placeholder : !mo.tensor<[2], f32>
  // expected-error @+1 {{'mo.call' op reads weight 'l.w' as '!mo.tensor<[4], f32>' but also as '!mo.tensor<[2], f32>'}}
  %0 = mo.call @layer() {prefix = "l."} : () -> !mo.tensor<[4], f32>
  mo.output %0 : !mo.tensor<[4], f32>
}

// -----

// A name is a placeholder or absolute, not both.
mo.graph @f() {
  %a = mo.constant.external "w" : !mo.tensor<[2], f32>
  // expected-error @+1 {{'mo.constant.external' op reads weight 'w' both as a placeholder and as an absolute name}}
  %b = mo.constant.external "w" placeholder : !mo.tensor<[2], f32>
  mo.output
}

// -----

// Graphs do not recurse.
// expected-error @+1 {{'mo.graph' op calls itself (recursion is not supported)}}
mo.graph @f() {
  mo.call @f() : () -> ()
  mo.output
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

// Binary operands have one element type: no implicit promotion.
mo.graph @f(%a: !mo.tensor<[2], f32>, %b: !mo.tensor<[2], f64>) {
  // expected-error @+2 {{operands have different element types: 'f32' vs 'f64' (cast one of them explicitly)}}
  // expected-error @+1 {{'mo.add' op failed to infer returned types}}
  %r = mo.add(%a, %b) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f64>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// Binary operands live on one device.
mo.graph @f(%a: !mo.tensor<[2], f32, cpu:0>, %b: !mo.tensor<[2], f32, gpu:0>) {
  // expected-error @+2 {{operands are on different devices: !mo.tensor<[2], f32, cpu:0> vs !mo.tensor<[2], f32, gpu:0>}}
  // expected-error @+1 {{'mo.mul' op failed to infer returned types}}
  %r = mo.mul(%a, %b) : (!mo.tensor<[2], f32, cpu:0>, !mo.tensor<[2], f32, gpu:0>) -> !mo.tensor<[2], f32, cpu:0>
  mo.output
}

// -----

// Binary operands broadcast like numpy: 3 and 4 do not.
mo.graph @f<n>(%a: !mo.tensor<[n, 3], f32>, %b: !mo.tensor<[4], f32>) {
  // expected-error @+2 {{cannot broadcast [n, 3] with [4]: dims 3 and 4 differ}}
  // expected-error @+1 {{'mo.sub' op failed to infer returned types}}
  %r = mo.sub(%a, %b) : (!mo.tensor<[n, 3], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 3], f32>
  mo.output
}

// -----

// The result type of a binary op is the broadcast shape (ODS InferTypeOpInterface).
mo.graph @f(%a: !mo.tensor<[2, 1], f32>, %b: !mo.tensor<[3], f32>) {
  // expected-error @+2 {{'mo.div' op inferred type(s) '!mo.tensor<[2, 3], f32>' are incompatible with return type(s) of operation '!mo.tensor<[2, 1], f32>'}}
  // expected-error @+1 {{'mo.div' op failed to infer returned types}}
  %r = mo.div(%a, %b) : (!mo.tensor<[2, 1], f32>, !mo.tensor<[3], f32>) -> !mo.tensor<[2, 1], f32>
  mo.output
}

// -----

// A comparison returns i1 elements, not its operands' element type.
mo.graph @f(%a: !mo.tensor<[2], f32>) {
  // expected-error @+2 {{'mo.less' op inferred type(s) '!mo.tensor<[2], i1>' are incompatible with return type(s) of operation '!mo.tensor<[2], f32>'}}
  // expected-error @+1 {{'mo.less' op failed to infer returned types}}
  %r = mo.less(%a, %a) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// Operands are !mo.tensor values (ODS constraint; it fires before type inference,
// so inference's own "operands must be !mo.tensor values" is reached only from builders).
mo.graph @f(%a: tensor<2xf32>, %b: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.add' op operand #0 must be mo tensor, but got 'tensor<2xf32>'}}
  %r = "mo.add"(%a, %b) : (tensor<2xf32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// An op accepts only the element kinds of its registry row: no sub of bools (ODS constraint).
mo.graph @f(%a: !mo.tensor<[2], i1>) {
  // expected-error @+1 {{'mo.sub' op operand #0 must be mo tensor of floating-point or signed integer or unsigned integer values, but got '!mo.tensor<[2], i1>'}}
  %r = mo.sub(%a, %a) : (!mo.tensor<[2], i1>, !mo.tensor<[2], i1>) -> !mo.tensor<[2], i1>
  mo.output
}

// -----

// Float-only unary ops reject integer tensors (ODS constraint).
mo.graph @f(%a: !mo.tensor<[2], si32>) {
  // expected-error @+1 {{'mo.exp' op operand #0 must be mo tensor of floating-point values, but got '!mo.tensor<[2], si32>'}}
  %r = mo.exp %a : !mo.tensor<[2], si32>
  mo.output
}

// -----

// A unary op's result type is its operand's (ODS SameOperandsAndResultType).
mo.graph @f(%a: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.relu' op requires the same type for all operands and results}}
  %r = "mo.relu"(%a) : (!mo.tensor<[2], f32>) -> !mo.tensor<[3], f32>
  mo.output
}

// -----

//===----------------------------------------------------------------------===//
// mo.matmul
//===----------------------------------------------------------------------===//

// Matmul operands are at least matrices.
mo.graph @f(%a: !mo.tensor<[2], f32>, %b: !mo.tensor<[2, 3], f32>) {
  // expected-error @+2 {{matmul operands must have rank >= 2, got [2] and [2, 3]}}
  // expected-error @+1 {{'mo.matmul' op failed to infer returned types}}
  %r = mo.matmul(%a, %b) : (!mo.tensor<[2], f32>, !mo.tensor<[2, 3], f32>) -> !mo.tensor<[3], f32>
  mo.output
}

// -----

// Matmul contracts lhs's last dim with rhs's second to last: 3 vs 4.
mo.graph @f(%a: !mo.tensor<[2, 3], f32>, %b: !mo.tensor<[4, 5], f32>) {
  // expected-error @+2 {{contracting dims differ: [2, 3] @ [4, 5]}}
  // expected-error @+1 {{'mo.matmul' op failed to infer returned types}}
  %r = mo.matmul(%a, %b) : (!mo.tensor<[2, 3], f32>, !mo.tensor<[4, 5], f32>) -> !mo.tensor<[2, 5], f32>
  mo.output
}

// -----

// Matmul batch dims broadcast like numpy: 2 and 4 do not.
mo.graph @f(%a: !mo.tensor<[2, 2, 3], f32>, %b: !mo.tensor<[4, 3, 5], f32>) {
  // expected-error @+2 {{cannot broadcast [2] with [4]: dims 2 and 4 differ}}
  // expected-error @+1 {{'mo.matmul' op failed to infer returned types}}
  %r = mo.matmul(%a, %b) : (!mo.tensor<[2, 2, 3], f32>, !mo.tensor<[4, 3, 5], f32>) -> !mo.tensor<[2, 2, 5], f32>
  mo.output
}

// -----

// Matmul's result type is [..., M, N] (ODS InferTypeOpInterface).
mo.graph @f(%a: !mo.tensor<[2, 3], f32>, %b: !mo.tensor<[3, 5], f32>) {
  // expected-error @+2 {{'mo.matmul' op inferred type(s) '!mo.tensor<[2, 5], f32>' are incompatible with return type(s) of operation '!mo.tensor<[2, 4], f32>'}}
  // expected-error @+1 {{'mo.matmul' op failed to infer returned types}}
  %r = mo.matmul(%a, %b) : (!mo.tensor<[2, 3], f32>, !mo.tensor<[3, 5], f32>) -> !mo.tensor<[2, 4], f32>
  mo.output
}

// -----

//===----------------------------------------------------------------------===//
// Shape ops: mo.reshape, mo.transpose, mo.slice, mo.broadcast_to, mo.cast
//===----------------------------------------------------------------------===//

// Shape ops keep the device (verifyKeepsElementAndDevice, here via reshape).
mo.graph @f(%x: !mo.tensor<[2], f32, cpu:0>) {
  // expected-error @+1 {{'mo.reshape' op must keep the element type and device, got '!mo.tensor<[2], f32, cpu:0>' -> '!mo.tensor<[2, 1], f32, gpu:0>'}}
  %y = mo.reshape %x : !mo.tensor<[2], f32, cpu:0> -> !mo.tensor<[2, 1], f32, gpu:0>
  mo.output
}

// -----

// A reshape keeps the number of elements when both sides are static.
mo.graph @f(%x: !mo.tensor<[2, 3], f32>) {
  // expected-error @+1 {{'mo.reshape' op cannot reshape [2, 3] (6 elements) to [4] (4 elements)}}
  %y = mo.reshape %x : !mo.tensor<[2, 3], f32> -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// A transpose's permutation has one entry per dim.
mo.graph @f(%x: !mo.tensor<[2, 3], f32>) {
  // expected-error @+2 {{permutation has 1 entries for a rank-2 tensor}}
  // expected-error @+1 {{'mo.transpose' op failed to infer returned types}}
  %y = mo.transpose %x [1] : !mo.tensor<[2, 3], f32> -> !mo.tensor<[3], f32>
  mo.output
}

// -----

// A transpose's permutation names each dim once: no repeats.
mo.graph @f(%x: !mo.tensor<[2, 3], f32>) {
  // expected-error @+2 {{permutation must be a permutation of 0..1}}
  // expected-error @+1 {{'mo.transpose' op failed to infer returned types}}
  %y = mo.transpose %x [0, 0] : !mo.tensor<[2, 3], f32> -> !mo.tensor<[2, 2], f32>
  mo.output
}

// -----

// A transpose's permutation names existing dims only.
mo.graph @f(%x: !mo.tensor<[2, 3], f32>) {
  // expected-error @+2 {{permutation must be a permutation of 0..1}}
  // expected-error @+1 {{'mo.transpose' op failed to infer returned types}}
  %y = mo.transpose %x [0, 2] : !mo.tensor<[2, 3], f32> -> !mo.tensor<[2, 3], f32>
  mo.output
}

// -----

// A transpose's result dims are the permuted operand dims.
mo.graph @f(%x: !mo.tensor<[2, 3], f32>) {
  // expected-error @+2 {{'mo.transpose' op inferred type(s) '!mo.tensor<[3, 2], f32>' are incompatible with return type(s) of operation '!mo.tensor<[2, 3], f32>'}}
  // expected-error @+1 {{'mo.transpose' op failed to infer returned types}}
  %y = mo.transpose %x [1, 0] : !mo.tensor<[2, 3], f32> -> !mo.tensor<[2, 3], f32>
  mo.output
}

// -----

// A slice keeps the rank.
mo.graph @f(%x: !mo.tensor<[8, 4], f32>) {
  // expected-error @+1 {{'mo.slice' op must keep the rank, element type and device, got '!mo.tensor<[8, 4], f32>' -> '!mo.tensor<[8], f32>'}}
  %y = mo.slice %x {starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : !mo.tensor<[8, 4], f32> -> !mo.tensor<[8], f32>
  mo.output
}

// -----

// A slice has one start and one step per dim.
mo.graph @f(%x: !mo.tensor<[8, 4], f32>) {
  // expected-error @+1 {{'mo.slice' op needs one start and one step per dim (2)}}
  %y = mo.slice %x {starts = array<i64: 0>, steps = array<i64: 1, 1>} : !mo.tensor<[8, 4], f32> -> !mo.tensor<[8, 4], f32>
  mo.output
}

// -----

// A slice's steps are non-zero.
mo.graph @f(%x: !mo.tensor<[8, 4], f32>) {
  // expected-error @+1 {{'mo.slice' op dim 1: start must be >= 0 and step non-zero, got start 0 step 0}}
  %y = mo.slice %x {starts = array<i64: 0, 0>, steps = array<i64: 1, 0>} : !mo.tensor<[8, 4], f32> -> !mo.tensor<[8, 4], f32>
  mo.output
}

// -----

// A slice's starts are non-negative (no Python-style negative indices in IR).
mo.graph @f(%x: !mo.tensor<[8, 4], f32>) {
  // expected-error @+1 {{'mo.slice' op dim 0: start must be >= 0 and step non-zero, got start -1 step 1}}
  %y = mo.slice %x {starts = array<i64: -1, 0>, steps = array<i64: 1, 1>} : !mo.tensor<[8, 4], f32> -> !mo.tensor<[1, 4], f32>
  mo.output
}

// -----

// A symbolic result dim of a slice is the whole operand dim (start 0, step 1).
mo.graph @f<n>(%x: !mo.tensor<[8, n], f32>) {
  // expected-error @+1 {{'mo.slice' op dim 1: a symbolic window must be the whole dim}}
  %y = mo.slice %x {starts = array<i64: 0, 1>, steps = array<i64: 1, 1>} : !mo.tensor<[8, n], f32> -> !mo.tensor<[8, n], f32>
  mo.output
}

// -----

// A slice's window stays inside a static dim: 1 + 4 * 2 = 9 >= 8.
mo.graph @f(%x: !mo.tensor<[8], f32>) {
  // expected-error @+1 {{'mo.slice' op dim 0: window of 5 elements from 1 step 2 exceeds size 8}}
  %y = mo.slice %x {starts = array<i64: 1>, steps = array<i64: 2>} : !mo.tensor<[8], f32> -> !mo.tensor<[5], f32>
  mo.output
}

// -----

// broadcast_to keeps the element type (verifyKeepsElementAndDevice).
mo.graph @f(%x: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.broadcast_to' op must keep the element type and device, got '!mo.tensor<[2], f32>' -> '!mo.tensor<[3, 2], f16>'}}
  %y = mo.broadcast_to %x : !mo.tensor<[2], f32> -> !mo.tensor<[3, 2], f16>
  mo.output
}

// -----

// broadcast_to stretches only dims of size 1: 2 does not become 3.
mo.graph @f(%x: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.broadcast_to' op cannot broadcast [2] to [3]}}
  %y = mo.broadcast_to %x : !mo.tensor<[2], f32> -> !mo.tensor<[3], f32>
  mo.output
}

// -----

// broadcast_to never drops dims, not even ones of size 1.
mo.graph @f(%x: !mo.tensor<[1, 3], f32>) {
  // expected-error @+1 {{'mo.broadcast_to' op cannot broadcast [1, 3] to [3]}}
  %y = mo.broadcast_to %x : !mo.tensor<[1, 3], f32> -> !mo.tensor<[3], f32>
  mo.output
}

// -----

// A cast changes the element type only.
mo.graph @f(%x: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.cast' op must keep the shape and device, got '!mo.tensor<[2], f32>' -> '!mo.tensor<[3], f16>'}}
  %y = mo.cast %x : !mo.tensor<[2], f32> -> !mo.tensor<[3], f16>
  mo.output
}

// -----

//===----------------------------------------------------------------------===//
// Buffers: mo.mutable.load, mo.mutable.store
//===----------------------------------------------------------------------===//

// A load's result has the buffer's element type (and shape and device).
mo.graph @f(%b: !mo.buffer<[4], f32>) {
  // expected-error @+2 {{'mo.mutable.load' op inferred type(s) '!mo.tensor<[4], f32>' are incompatible with return type(s) of operation '!mo.tensor<[4], f16>'}}
  // expected-error @+1 {{'mo.mutable.load' op failed to infer returned types}}
  %y = mo.mutable.load %b : !mo.buffer<[4], f32> -> !mo.tensor<[4], f16>
  mo.output
}

// -----

// A store writes into a buffer, not a tensor (ODS constraint).
mo.graph @f(%x: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.mutable.store' op operand #1 must be mo buffer, but got '!mo.tensor<[2], f32>'}}
  mo.mutable.store %x, %x : !mo.tensor<[2], f32>, !mo.tensor<[2], f32>
  mo.output
}

// -----

// A stored value has the buffer's element type (and device).
mo.graph @f(%b: !mo.buffer<[4], f32>, %v: !mo.tensor<[4], f16>) {
  // expected-error @+1 {{'mo.mutable.store' op value '!mo.tensor<[4], f16>' must have the buffer's element type and device ('!mo.buffer<[4], f32>')}}
  mo.mutable.store %v, %b : !mo.tensor<[4], f16>, !mo.buffer<[4], f32>
  mo.output
}

// -----

// A stored value has the buffer's rank.
mo.graph @f(%b: !mo.buffer<[4], f32>, %v: !mo.tensor<[2, 2], f32>) {
  // expected-error @+1 {{'mo.mutable.store' op value rank 2 differs from buffer rank 1}}
  mo.mutable.store %v, %b : !mo.tensor<[2, 2], f32>, !mo.buffer<[4], f32>
  mo.output
}

// -----

// A store with steps also has starts.
mo.graph @f(%b: !mo.buffer<[4], f32>, %v: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.mutable.store' op steps require starts}}
  mo.mutable.store %v, %b {steps = array<i64: 1>} : !mo.tensor<[2], f32>, !mo.buffer<[4], f32>
  mo.output
}

// -----

// A store without a window fills the whole buffer.
mo.graph @f(%b: !mo.buffer<[4], f32>, %v: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.mutable.store' op value shape [2] must equal the buffer shape [4] (or give starts/steps)}}
  mo.mutable.store %v, %b : !mo.tensor<[2], f32>, !mo.buffer<[4], f32>
  mo.output
}

// -----

// A store with starts also has steps.
mo.graph @f(%b: !mo.buffer<[4], f32>, %v: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.mutable.store' op needs one start and one step per buffer dim (1)}}
  mo.mutable.store %v, %b {starts = array<i64: 1>} : !mo.tensor<[2], f32>, !mo.buffer<[4], f32>
  mo.output
}

// -----

// A store's window stays inside the buffer: 3 + 1 * 1 = 4 >= 4.
mo.graph @f(%b: !mo.buffer<[4], f32>, %v: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.mutable.store' op dim 0: window of 2 elements from 3 step 1 exceeds size 4}}
  mo.mutable.store %v, %b {starts = array<i64: 3>, steps = array<i64: 1>} : !mo.tensor<[2], f32>, !mo.buffer<[4], f32>
  mo.output
}

// -----

//===----------------------------------------------------------------------===//
// Quantization: mo.dequantize, mo.qmatmul
//===----------------------------------------------------------------------===//

// An unknown quantization encoding is a parse error that lists the valid ones.
mo.graph @f(%q: !mo.tensor<[4, 18], ui8>) {
  // expected-error @+2 {{custom op 'mo.dequantize' expected ::mlir::mo::QuantEncoding to be one of: q4_0, q4_k, q5_k, q6_k}}
  // expected-error @+1 {{custom op 'mo.dequantize' failed to parse Mo_QuantEncodingAttr parameter 'value'}}
  %0 = mo.dequantize q9_0 %q : !mo.tensor<[4, 18], ui8> -> !mo.tensor<[4, 32], f32>
  mo.output
}

// -----

// Quantized rows are bytes (uint8).
mo.graph @f(%q: !mo.tensor<[4, 36], si8>) {
  // expected-error @+2 {{input must be uint8, got 'si8'}}
  // expected-error @+1 {{'mo.dequantize' op failed to infer returned types}}
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[4, 36], si8> -> !mo.tensor<[4, 64], f32>
  mo.output
}

// -----

// Quantized input has at least one dim (the row of bytes).
mo.graph @f(%q: !mo.tensor<[], ui8>) {
  // expected-error @+2 {{input must have rank >= 1}}
  // expected-error @+1 {{'mo.dequantize' op failed to infer returned types}}
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[], ui8> -> !mo.tensor<[], f32>
  mo.output
}

// -----

// Quantized rows hold whole blocks (18 bytes for q4_0).
mo.graph @f(%q: !mo.tensor<[4, 20], ui8>) {
  // expected-error @+2 {{input last dim 20 is not a multiple of the q4_0 block size (18 bytes per 32 values)}}
  // expected-error @+1 {{'mo.dequantize' op failed to infer returned types}}
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[4, 20], ui8> -> !mo.tensor<[4, 32], f32>
  mo.output
}

// -----

// The row length in bytes is static.
mo.graph @f<n>(%q: !mo.tensor<[4, n], ui8>) {
  // expected-error @+2 {{input must have a static last dim, got [4, n]}}
  // expected-error @+1 {{'mo.dequantize' op failed to infer returned types}}
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[4, n], ui8> -> !mo.tensor<[4, 32], f32>
  mo.output
}

// -----

// Dequantize's result holds the rows' values as f32: 18 bytes are 32 values.
mo.graph @f(%q: !mo.tensor<[4, 18], ui8>) {
  // expected-error @+2 {{'mo.dequantize' op inferred type(s) '!mo.tensor<[4, 32], f32>' are incompatible with return type(s) of operation '!mo.tensor<[4, 64], f32>'}}
  // expected-error @+1 {{'mo.dequantize' op failed to infer returned types}}
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[4, 18], ui8> -> !mo.tensor<[4, 64], f32>
  mo.output
}

// -----

// qmatmul's weight is quantized bytes (uint8).
mo.graph @f(%x: !mo.tensor<[2, 32], f32>, %w: !mo.tensor<[3, 18], f32>) {
  // expected-error @+2 {{rhs must be uint8, got 'f32'}}
  // expected-error @+1 {{'mo.qmatmul' op failed to infer returned types}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 32], f32>, !mo.tensor<[3, 18], f32>) -> !mo.tensor<[2, 3], f32>
  mo.output
}

// -----

// qmatmul's activations are f32.
mo.graph @f(%x: !mo.tensor<[2, 32], f16>, %w: !mo.tensor<[3, 18], ui8>) {
  // expected-error @+2 {{lhs must be float32, got 'f16'}}
  // expected-error @+1 {{'mo.qmatmul' op failed to infer returned types}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 32], f16>, !mo.tensor<[3, 18], ui8>) -> !mo.tensor<[2, 3], f32>
  mo.output
}

// -----

// qmatmul's activations are at least a matrix.
mo.graph @f(%x: !mo.tensor<[32], f32>, %w: !mo.tensor<[3, 18], ui8>) {
  // expected-error @+2 {{lhs must have rank >= 2, got [32]}}
  // expected-error @+1 {{'mo.qmatmul' op failed to infer returned types}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[32], f32>, !mo.tensor<[3, 18], ui8>) -> !mo.tensor<[3], f32>
  mo.output
}

// -----

// qmatmul's weight is a [N, bytes] matrix.
mo.graph @f(%x: !mo.tensor<[2, 32], f32>, %w: !mo.tensor<[18], ui8>) {
  // expected-error @+2 {{rhs must be a [N, bytes] matrix, got [18]}}
  // expected-error @+1 {{'mo.qmatmul' op failed to infer returned types}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 32], f32>, !mo.tensor<[18], ui8>) -> !mo.tensor<[2, 3], f32>
  mo.output
}

// -----

// qmatmul's K equals the values per weight row: 64 vs 32.
mo.graph @f(%x: !mo.tensor<[2, 64], f32>, %w: !mo.tensor<[3, 18], ui8>) {
  // expected-error @+2 {{lhs has K = [64] but rhs rows hold 32 values}}
  // expected-error @+1 {{'mo.qmatmul' op failed to infer returned types}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 64], f32>, !mo.tensor<[3, 18], ui8>) -> !mo.tensor<[2, 3], f32>
  mo.output
}

// -----

// qmatmul's result is [..., M, N] f32.
mo.graph @f(%x: !mo.tensor<[2, 32], f32>, %w: !mo.tensor<[3, 18], ui8>) {
  // expected-error @+2 {{'mo.qmatmul' op inferred type(s) '!mo.tensor<[2, 3], f32>' are incompatible with return type(s) of operation '!mo.tensor<[2, 4], f32>'}}
  // expected-error @+1 {{'mo.qmatmul' op failed to infer returned types}}
  %0 = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 32], f32>, !mo.tensor<[3, 18], ui8>) -> !mo.tensor<[2, 4], f32>
  mo.output
}

// -----

// A reduction's axis must be one of the input's dims.
mo.graph @reduce_axis(%x: !mo.tensor<[2, 3], f32>) -> !mo.tensor<[2, 1], f32> {
  // expected-error @+2 {{reduction axis 2 is out of range for '!mo.tensor<[2, 3], f32>'}}
  // expected-error @+1 {{'mo.reduce_sum' op failed to infer returned types}}
  %y = mo.reduce_sum %x {axis = 2 : i64} : !mo.tensor<[2, 3], f32> -> !mo.tensor<[2, 1], f32>
  mo.output %y : !mo.tensor<[2, 1], f32>
}

// -----

// The kept axis has size 1: any other result type is wrong.
mo.graph @reduce_type(%x: !mo.tensor<[2, 3], f32>) -> !mo.tensor<[2], f32> {
  // expected-error @+2 {{'mo.reduce_sum' op inferred type(s) '!mo.tensor<[2, 1], f32>' are incompatible with return type(s) of operation '!mo.tensor<[2], f32>'}}
  // expected-error @+1 {{'mo.reduce_sum' op failed to infer returned types}}
  %y = mo.reduce_sum %x {axis = 1 : i64} : !mo.tensor<[2, 3], f32> -> !mo.tensor<[2], f32>
  mo.output %y : !mo.tensor<[2], f32>
}

// -----

// mean is defined on floats only (the registry's kinds).
mo.graph @mean_int(%x: !mo.tensor<[2, 3], si32>) -> !mo.tensor<[2, 1], si32> {
  // expected-error @+1 {{'mo.reduce_mean' op operand #0 must be mo tensor of floating-point values, but got '!mo.tensor<[2, 3], si32>'}}
  %y = mo.reduce_mean %x {axis = 1 : i64} : !mo.tensor<[2, 3], si32> -> !mo.tensor<[2, 1], si32>
  mo.output %y : !mo.tensor<[2, 1], si32>
}

// -----

// A scan's axis must be one of the input's dims.
mo.graph @cumsum_axis(%x: !mo.tensor<[2, 3], f32>) -> !mo.tensor<[2, 3], f32> {
  // expected-error @+1 {{'mo.cumsum' op axis 2 is out of range for a rank-2 tensor}}
  %y = mo.cumsum %x {axis = 2 : i64} : !mo.tensor<[2, 3], f32>
  mo.output %y : !mo.tensor<[2, 3], f32>
}

// -----

// qmatmul's operands must be on one device.
mo.graph @qmm_devices(%x: !mo.tensor<[2, 32], f32, cpu:0>, %w: !mo.tensor<[3, 18], ui8, gpu:0>) {
  // expected-error @+2 {{lhs and rhs must be on the same device}}
  // expected-error @+1 {{'mo.qmatmul' op failed to infer returned types}}
  %y = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[2, 32], f32, cpu:0>, !mo.tensor<[3, 18], ui8, gpu:0>) -> !mo.tensor<[2, 3], f32, cpu:0>
  mo.output
}

// -----

// A static shape whose element count overflows int64 is rejected by the type
// (not wrapped into a count a reshape could match).
// expected-error @+1 {{dims [4611686018427387904, 4] are too large: the product of their sizes overflows int64}}
mo.graph @reshape_overflow(%x: !mo.tensor<[4611686018427387904, 4], f32>) {
  mo.output
}
  %y = mo.reshape %x : !mo.tensor<[4611686018427387904, 4], f32> -> !mo.tensor<[0], f32>
  mo.output %y : !mo.tensor<[0], f32>
}

// -----

// A window whose last index overflows int64 exceeds the dim.
mo.graph @slice_overflow(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[2], f32> {
  // expected-error @+1 {{'mo.slice' op dim 0: window of 2 elements from 1 step 9223372036854775807 exceeds size 4}}
  %y = mo.slice %x {starts = array<i64: 1>, steps = array<i64: 9223372036854775807>} : !mo.tensor<[4], f32> -> !mo.tensor<[2], f32>
  mo.output %y : !mo.tensor<[2], f32>
}

// -----

// select's condition is a bool tensor.
mo.graph @select_cond(%c: !mo.tensor<[4], f32>, %x: !mo.tensor<[4], f32>) {
  // expected-error @+1 {{'mo.select' op operand #0 must be mo tensor of bool values, but got '!mo.tensor<[4], f32>'}}
  %y = mo.select(%c, %x, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// select's condition and values share a device.
mo.graph @select_device(%c: !mo.tensor<[4], i1, gpu:0>, %x: !mo.tensor<[4], f32>) {
  // expected-error @+2 {{condition and values must be on the same device}}
  // expected-error @+1 {{'mo.select' op failed to infer returned types}}
  %y = mo.select(%c, %x, %x) : (!mo.tensor<[4], i1, gpu:0>, !mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// The three operands must broadcast together.
mo.graph @select_shapes(%c: !mo.tensor<[3], i1>, %x: !mo.tensor<[4], f32>) {
  // expected-error @+2 {{cannot broadcast}}
  // expected-error @+1 {{'mo.select' op failed to infer returned types}}
  %y = mo.select(%c, %x, %x) : (!mo.tensor<[3], i1>, !mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// concat needs inputs.
mo.graph @concat_none() {
  // expected-error @+2 {{needs at least one input}}
  // expected-error @+1 {{'mo.concat' op failed to infer returned types}}
  %y = mo.concat() {axis = 0 : i64} : () -> !mo.tensor<[0], f32>
  mo.output
}

// -----

// concat's axis must be one of the inputs' dims.
mo.graph @concat_axis(%x: !mo.tensor<[2], f32>) {
  // expected-error @+2 {{axis 1 is out of range for a rank-1 tensor}}
  // expected-error @+1 {{'mo.concat' op failed to infer returned types}}
  %y = mo.concat(%x, %x) {axis = 1 : i64} : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// concat's inputs agree on rank, element type and device.
mo.graph @concat_types(%x: !mo.tensor<[2], f32>, %y: !mo.tensor<[2], f16>) {
  // expected-error @+2 {{input 1 is '!mo.tensor<[2], f16>', but input 0 is '!mo.tensor<[2], f32>' (rank, element type and device must agree)}}
  // expected-error @+1 {{'mo.concat' op failed to infer returned types}}
  %z = mo.concat(%x, %y) {axis = 0 : i64} : (!mo.tensor<[2], f32>, !mo.tensor<[2], f16>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// concat's inputs agree on every other dim.
mo.graph @concat_dims(%x: !mo.tensor<[2, 3], f32>, %y: !mo.tensor<[2, 4], f32>) {
  // expected-error @+2 {{input 1 has dim 1 = [4], but input 0 has [3]}}
  // expected-error @+1 {{'mo.concat' op failed to infer returned types}}
  %z = mo.concat(%x, %y) {axis = 0 : i64} : (!mo.tensor<[2, 3], f32>, !mo.tensor<[2, 4], f32>) -> !mo.tensor<[4, 3], f32>
  mo.output
}

// -----

// pad's value is a 0-d tensor of the input's element type.
mo.graph @pad_value(%x: !mo.tensor<[2], f32>, %v: !mo.tensor<[1], f32>) {
  // expected-error @+2 {{the padding value must be a 0-d tensor of 'f32', got '!mo.tensor<[1], f32>'}}
  // expected-error @+1 {{'mo.pad' op failed to infer returned types}}
  %y = mo.pad %x, %v {low = array<i64: 1>, high = array<i64: 1>} : (!mo.tensor<[2], f32>, !mo.tensor<[1], f32>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// pad needs one low and one high padding per dim.
mo.graph @pad_count(%x: !mo.tensor<[2], f32>, %v: !mo.tensor<[], f32>) {
  // expected-error @+2 {{needs one low and one high padding per dim (1)}}
  // expected-error @+1 {{'mo.pad' op failed to infer returned types}}
  %y = mo.pad %x, %v {low = array<i64: 1, 1>, high = array<i64: 1>} : (!mo.tensor<[2], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// Paddings are non-negative.
mo.graph @pad_negative(%x: !mo.tensor<[2], f32>, %v: !mo.tensor<[], f32>) {
  // expected-error @+2 {{dim 0: paddings must be >= 0, got low -1 high 1}}
  // expected-error @+1 {{'mo.pad' op failed to infer returned types}}
  %y = mo.pad %x, %v {low = array<i64: -1>, high = array<i64: 1>} : (!mo.tensor<[2], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// Paddings whose sum overflows int64.
mo.graph @pad_overflow(%x: !mo.tensor<[2], f32>, %v: !mo.tensor<[], f32>) {
  // expected-error @+2 {{dim 0: paddings low 9223372036854775807 and high 1 overflow int64}}
  // expected-error @+1 {{'mo.pad' op failed to infer returned types}}
  %y = mo.pad %x, %v {low = array<i64: 9223372036854775807>, high = array<i64: 1>} : (!mo.tensor<[2], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// A convolution's input has 1 to 3 spatial dims.
mo.graph @conv_rank(%x: !mo.tensor<[2, 3], f32>, %f: !mo.tensor<[3, 4], f32>) {
  // expected-error @+2 {{input must be [N, spatial..., C] with 1 to 3 spatial dims, got '!mo.tensor<[2, 3], f32>'}}
  // expected-error @+1 {{'mo.conv' op failed to infer returned types}}
  %y = mo.conv(%x, %f) {dilations = array<i64>, paddings = array<i64>, strides = array<i64>, num_groups = 1 : i64} : (!mo.tensor<[2, 3], f32>, !mo.tensor<[3, 4], f32>) -> !mo.tensor<[2, 4], f32>
  mo.output
}

// -----

// One stride and dilation per spatial dim, a (low, high) padding pair.
mo.graph @conv_attr_sizes(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[1, 1, 3, 4], f32>) {
  // expected-error @+2 {{needs 2 strides, 2 dilations and 4 paddings (low, high per spatial dim), got 2, 2 and 2}}
  // expected-error @+1 {{'mo.conv' op failed to infer returned types}}
  %y = mo.conv(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0>, strides = array<i64: 1, 1>, num_groups = 1 : i64} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[1, 1, 3, 4], f32>) -> !mo.tensor<[1, 4, 4, 4], f32>
  mo.output
}

// -----

// Strides and dilations are positive.
mo.graph @conv_stride(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[1, 1, 3, 4], f32>) {
  // expected-error @+2 {{strides and dilations must be >= 1}}
  // expected-error @+1 {{'mo.conv' op failed to infer returned types}}
  %y = mo.conv(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 0, 1>, num_groups = 1 : i64} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[1, 1, 3, 4], f32>) -> !mo.tensor<[1, 4, 4, 4], f32>
  mo.output
}

// -----

// Paddings are non-negative.
mo.graph @conv_padding(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[1, 1, 3, 4], f32>) {
  // expected-error @+2 {{paddings must be >= 0}}
  // expected-error @+1 {{'mo.conv' op failed to infer returned types}}
  %y = mo.conv(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, -1, 0, 0>, strides = array<i64: 1, 1>, num_groups = 1 : i64} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[1, 1, 3, 4], f32>) -> !mo.tensor<[1, 4, 4, 4], f32>
  mo.output
}

// -----

// The window fits in the padded input.
mo.graph @conv_window(%x: !mo.tensor<[1, 2, 4, 3], f32>, %f: !mo.tensor<[3, 3, 3, 4], f32>) {
  // expected-error @+2 {{spatial dim 0: the window spans 3 elements but the padded input has 2}}
  // expected-error @+1 {{'mo.conv' op failed to infer returned types}}
  %y = mo.conv(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, num_groups = 1 : i64} : (!mo.tensor<[1, 2, 4, 3], f32>, !mo.tensor<[3, 3, 3, 4], f32>) -> !mo.tensor<[1, 1, 2, 4], f32>
  mo.output
}

// -----

// Input and filter share an element type.
mo.graph @conv_types(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[1, 1, 3, 4], f16>) {
  // expected-error @+2 {{input '!mo.tensor<[1, 4, 4, 3], f32>' and filter '!mo.tensor<[1, 1, 3, 4], f16>' must have one element type and device}}
  // expected-error @+1 {{'mo.conv' op failed to infer returned types}}
  %y = mo.conv(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, num_groups = 1 : i64} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[1, 1, 3, 4], f16>) -> !mo.tensor<[1, 4, 4, 4], f32>
  mo.output
}

// -----

// The filter has the input's rank.
mo.graph @conv_filter_rank(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[3, 4], f32>) {
  // expected-error @+2 {{the filter must be [spatial..., C, F] (rank 4), got '!mo.tensor<[3, 4], f32>'}}
  // expected-error @+1 {{'mo.conv' op failed to infer returned types}}
  %y = mo.conv(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, num_groups = 1 : i64} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[3, 4], f32>) -> !mo.tensor<[1, 4, 4, 4], f32>
  mo.output
}

// -----

// At least one group.
mo.graph @conv_groups(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[1, 1, 3, 4], f32>) {
  // expected-error @+2 {{num_groups must be >= 1, got 0}}
  // expected-error @+1 {{'mo.conv' op failed to infer returned types}}
  %y = mo.conv(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, num_groups = 0 : i64} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[1, 1, 3, 4], f32>) -> !mo.tensor<[1, 4, 4, 4], f32>
  mo.output
}

// -----

// Groups divide static channel counts.
mo.graph @conv_groups_divide(%x: !mo.tensor<[1, 4, 4, 4], f32>, %f: !mo.tensor<[1, 1, 2, 3], f32>) {
  // expected-error @+2 {{with 2 groups the channel counts must be static and divisible by it, got input channels [4] and filter features [3]}}
  // expected-error @+1 {{'mo.conv' op failed to infer returned types}}
  %y = mo.conv(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, num_groups = 2 : i64} : (!mo.tensor<[1, 4, 4, 4], f32>, !mo.tensor<[1, 1, 2, 3], f32>) -> !mo.tensor<[1, 4, 4, 3], f32>
  mo.output
}

// -----

// The filter takes the input's channels (per group).
mo.graph @conv_channels(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[1, 1, 2, 4], f32>) {
  // expected-error @+2 {{the input has [3] channels, but the filter takes [2] per group x 1 groups}}
  // expected-error @+1 {{'mo.conv' op failed to infer returned types}}
  %y = mo.conv(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, num_groups = 1 : i64} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[1, 1, 2, 4], f32>) -> !mo.tensor<[1, 4, 4, 4], f32>
  mo.output
}

// -----

// One output padding per spatial dim.
mo.graph @conv_transpose_output_paddings(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[2, 2, 5, 3], f32>) {
  // expected-error @+2 {{needs 2 output paddings, got 1}}
  // expected-error @+1 {{'mo.conv_transpose' op failed to infer returned types}}
  %y = mo.conv_transpose(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, output_paddings = array<i64: 0>} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[2, 2, 5, 3], f32>) -> !mo.tensor<[1, 5, 5, 5], f32>
  mo.output
}

// -----

// A transposed filter is [spatial..., F, C].
mo.graph @conv_transpose_channels(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[2, 2, 3, 5], f32>) {
  // expected-error @+2 {{the input has [3] channels, but the filter [spatial..., F, C] takes [5]}}
  // expected-error @+1 {{'mo.conv_transpose' op failed to infer returned types}}
  %y = mo.conv_transpose(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, output_paddings = array<i64: 0, 0>} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[2, 2, 3, 5], f32>) -> !mo.tensor<[1, 5, 5, 3], f32>
  mo.output
}

// -----

// A transposed filter's spatial dims are static.
mo.graph @conv_transpose_kernel<k>(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[k, 2, 5, 3], f32>) {
  // expected-error @+2 {{the filter's spatial dims must be static and >= 1, got [k, 2, 5, 3]}}
  // expected-error @+1 {{'mo.conv_transpose' op failed to infer returned types}}
  %y = mo.conv_transpose(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, output_paddings = array<i64: 0, 0>} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[k, 2, 5, 3], f32>) -> !mo.tensor<[1, 5, 5, 5], f32>
  mo.output
}

// -----

// An output padding stays below max(stride, dilation).
mo.graph @conv_transpose_output_padding(%x: !mo.tensor<[1, 4, 4, 3], f32>, %f: !mo.tensor<[2, 2, 5, 3], f32>) {
  // expected-error @+2 {{output padding 1 of spatial dim 0 must be in [0, max(stride, dilation))}}
  // expected-error @+1 {{'mo.conv_transpose' op failed to infer returned types}}
  %y = mo.conv_transpose(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, output_paddings = array<i64: 1, 0>} : (!mo.tensor<[1, 4, 4, 3], f32>, !mo.tensor<[2, 2, 5, 3], f32>) -> !mo.tensor<[1, 5, 5, 5], f32>
  mo.output
}

// -----

// Paddings may not remove the whole result.
mo.graph @conv_transpose_empty(%x: !mo.tensor<[1, 1, 4, 3], f32>, %f: !mo.tensor<[2, 2, 5, 3], f32>) {
  // expected-error @+2 {{spatial dim 0 of size [1] gives no output with these paddings}}
  // expected-error @+1 {{'mo.conv_transpose' op failed to infer returned types}}
  %y = mo.conv_transpose(%x, %f) {dilations = array<i64: 1, 1>, paddings = array<i64: 2, 2, 0, 0>, strides = array<i64: 1, 1>, output_paddings = array<i64: 0, 0>} : (!mo.tensor<[1, 1, 4, 3], f32>, !mo.tensor<[2, 2, 5, 3], f32>) -> !mo.tensor<[1, 1, 5, 5], f32>
  mo.output
}

// -----

// One window size per spatial dim.
mo.graph @pool_filter_shape(%x: !mo.tensor<[1, 4, 4, 3], f32>) {
  // expected-error @+2 {{filter_shape needs 2 sizes >= 1, got 1}}
  // expected-error @+1 {{'mo.max_pool' op failed to infer returned types}}
  %y = mo.max_pool(%x) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, filter_shape = array<i64: 2>, ceil_mode = false} : (!mo.tensor<[1, 4, 4, 3], f32>) -> !mo.tensor<[1, 3, 3, 3], f32>
  mo.output
}

// -----

// Pooling paddings are smaller than the window.
mo.graph @pool_padding(%x: !mo.tensor<[1, 4, 4, 3], f32>) {
  // expected-error @+2 {{spatial dim 0: paddings (2, 0) must be smaller than the window (2)}}
  // expected-error @+1 {{'mo.avg_pool' op failed to infer returned types}}
  %y = mo.avg_pool(%x) {dilations = array<i64: 1, 1>, paddings = array<i64: 2, 0, 0, 0>, strides = array<i64: 1, 1>, filter_shape = array<i64: 2, 2>, ceil_mode = false, count_boundary = true} : (!mo.tensor<[1, 4, 4, 3], f32>) -> !mo.tensor<[1, 5, 3, 3], f32>
  mo.output
}

// -----

// ceil_mode needs static spatial dims.
mo.graph @pool_ceil_symbolic<h>(%x: !mo.tensor<[1, h, 4, 3], f32>) {
  // expected-error @+2 {{ceil_mode needs static spatial dims, spatial dim 0 is [h]}}
  // expected-error @+1 {{'mo.max_pool' op failed to infer returned types}}
  %y = mo.max_pool(%x) {dilations = array<i64: 1, 1>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, filter_shape = array<i64: 2, 2>, ceil_mode = true} : (!mo.tensor<[1, h, 4, 3], f32>) -> !mo.tensor<[1, h, 3, 3], f32>
  mo.output
}

// -----

// gather's axis is one of the input's dims.
mo.graph @gather_axis(%x: !mo.tensor<[4], f32>, %i: !mo.tensor<[2], si64>) {
  // expected-error @+2 {{axis 1 is out of range for a rank-1 tensor}}
  // expected-error @+1 {{'mo.gather' op failed to infer returned types}}
  %y = mo.gather(%x, %i) {axis = 1 : i64} : (!mo.tensor<[4], f32>, !mo.tensor<[2], si64>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// Indices live on the input's device.
mo.graph @gather_device(%x: !mo.tensor<[4], f32>, %i: !mo.tensor<[2], si64, gpu:0>) {
  // expected-error @+2 {{indices must be on the input's device}}
  // expected-error @+1 {{'mo.gather' op failed to infer returned types}}
  %y = mo.gather(%x, %i) {axis = 0 : i64} : (!mo.tensor<[4], f32>, !mo.tensor<[2], si64, gpu:0>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// gather_nd's index vectors have a static length.
mo.graph @gather_nd_k<k>(%x: !mo.tensor<[4, 5], f32>, %i: !mo.tensor<[2, k], si64>) {
  // expected-error @+2 {{indices must be [..., K] with a static K, got '!mo.tensor<[2, k], si64>'}}
  // expected-error @+1 {{'mo.gather_nd' op failed to infer returned types}}
  %y = mo.gather_nd(%x, %i) {batch_dims = 0 : i64} : (!mo.tensor<[4, 5], f32>, !mo.tensor<[2, k], si64>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// gather_nd's index vectors fit the input's dims.
mo.graph @gather_nd_too_long(%x: !mo.tensor<[4, 5], f32>, %i: !mo.tensor<[2, 3], si64>) {
  // expected-error @+2 {{with 0 batch dims, 3-vectors of indices cannot index [4, 5]}}
  // expected-error @+1 {{'mo.gather_nd' op failed to infer returned types}}
  %y = mo.gather_nd(%x, %i) {batch_dims = 0 : i64} : (!mo.tensor<[4, 5], f32>, !mo.tensor<[2, 3], si64>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// gather_nd's batch dims agree.
mo.graph @gather_nd_batch(%x: !mo.tensor<[4, 5], f32>, %i: !mo.tensor<[3, 1], si64>) {
  // expected-error @+2 {{batch dim 0 is [4] in the input but [3] in the indices}}
  // expected-error @+1 {{'mo.gather_nd' op failed to infer returned types}}
  %y = mo.gather_nd(%x, %i) {batch_dims = 1 : i64} : (!mo.tensor<[4, 5], f32>, !mo.tensor<[3, 1], si64>) -> !mo.tensor<[3], f32>
  mo.output
}

// -----

// Updates have the input's element type.
mo.graph @scatter_types(%x: !mo.tensor<[4], f32>, %u: !mo.tensor<[2], f16>, %i: !mo.tensor<[2], si64>) {
  // expected-error @+2 {{updates '!mo.tensor<[2], f16>' must have the element type and device of the input '!mo.tensor<[4], f32>'}}
  // expected-error @+1 {{'mo.scatter' op failed to infer returned types}}
  %y = mo.scatter none(%x, %u, %i) {axis = 0 : i64} : (!mo.tensor<[4], f32>, !mo.tensor<[2], f16>, !mo.tensor<[2], si64>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// scatter's axis is one of the input's dims.
mo.graph @scatter_axis(%x: !mo.tensor<[4], f32>, %u: !mo.tensor<[2], f32>, %i: !mo.tensor<[2], si64>) {
  // expected-error @+2 {{axis 2 is out of range for a rank-1 tensor}}
  // expected-error @+1 {{'mo.scatter' op failed to infer returned types}}
  %y = mo.scatter none(%x, %u, %i) {axis = 2 : i64} : (!mo.tensor<[4], f32>, !mo.tensor<[2], f32>, !mo.tensor<[2], si64>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// scatter's updates and indices share a shape of the input's rank.
mo.graph @scatter_shapes(%x: !mo.tensor<[4], f32>, %u: !mo.tensor<[2], f32>, %i: !mo.tensor<[3], si64>) {
  // expected-error @+2 {{updates and indices must have one shape of the input's rank, got '!mo.tensor<[2], f32>' and '!mo.tensor<[3], si64>'}}
  // expected-error @+1 {{'mo.scatter' op failed to infer returned types}}
  %y = mo.scatter none(%x, %u, %i) {axis = 0 : i64} : (!mo.tensor<[4], f32>, !mo.tensor<[2], f32>, !mo.tensor<[3], si64>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// scatter's updates are no larger than the input off the axis.
mo.graph @scatter_larger(%x: !mo.tensor<[4, 2], f32>, %u: !mo.tensor<[2, 3], f32>, %i: !mo.tensor<[2, 3], si64>) {
  // expected-error @+2 {{updates dim 1 (3) is larger than the input's (2)}}
  // expected-error @+1 {{'mo.scatter' op failed to infer returned types}}
  %y = mo.scatter none(%x, %u, %i) {axis = 0 : i64} : (!mo.tensor<[4, 2], f32>, !mo.tensor<[2, 3], f32>, !mo.tensor<[2, 3], si64>) -> !mo.tensor<[4, 2], f32>
  mo.output
}

// -----

// scatter_nd's index vectors are static and no longer than the rank.
mo.graph @scatter_nd_k(%x: !mo.tensor<[4], f32>, %u: !mo.tensor<[2], f32>, %i: !mo.tensor<[2, 2], si64>) {
  // expected-error @+2 {{indices must be [..., K] with a static K <= 1, got '!mo.tensor<[2, 2], si64>'}}
  // expected-error @+1 {{'mo.scatter_nd' op failed to infer returned types}}
  %y = mo.scatter_nd none(%x, %u, %i) : (!mo.tensor<[4], f32>, !mo.tensor<[2], f32>, !mo.tensor<[2, 2], si64>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// scatter_nd's updates are the indices' leading dims, then the input's rest.
mo.graph @scatter_nd_updates(%x: !mo.tensor<[4, 3], f32>, %u: !mo.tensor<[2, 2], f32>, %i: !mo.tensor<[2, 1], si64>) {
  // expected-error @+2 {{updates must be [2, 3] (indices' leading dims, then the input's after 1), got [2, 2]}}
  // expected-error @+1 {{'mo.scatter_nd' op failed to infer returned types}}
  %y = mo.scatter_nd add(%x, %u, %i) : (!mo.tensor<[4, 3], f32>, !mo.tensor<[2, 2], f32>, !mo.tensor<[2, 1], si64>) -> !mo.tensor<[4, 3], f32>
  mo.output
}

// -----

// top_k needs a dim to sort.
mo.graph @top_k_rank(%x: !mo.tensor<[], f32>) {
  // expected-error @+2 {{top_k needs a rank >= 1 input}}
  // expected-error @+1 {{'mo.top_k' op failed to infer returned types}}
  %v, %i = mo.top_k(%x) {k = 1 : i64, largest = true} : (!mo.tensor<[], f32>) -> (!mo.tensor<[], f32>, !mo.tensor<[], si64>)
  mo.output
}

// -----

// k is at most the (static) last dim.
mo.graph @top_k_k(%x: !mo.tensor<[3], f32>) {
  // expected-error @+2 {{k = 4 must be in [0, the last dim], a static size, got [3]}}
  // expected-error @+1 {{'mo.top_k' op failed to infer returned types}}
  %v, %i = mo.top_k(%x) {k = 4 : i64, largest = true} : (!mo.tensor<[3], f32>) -> (!mo.tensor<[4], f32>, !mo.tensor<[4], si64>)
  mo.output
}

// -----

// A negative step walks down a static dim from its start.
mo.graph @slice_reverse_symbolic<n>(%x: !mo.tensor<[n], f32>) {
  // expected-error @+1 {{'mo.slice' op dim 0: a negative step needs a static dim}}
  %y = mo.slice %x {starts = array<i64: 3>, steps = array<i64: -1>} : !mo.tensor<[n], f32> -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// A reversed window stays inside the dim.
mo.graph @slice_reverse_window(%x: !mo.tensor<[4], f32>) {
  // expected-error @+1 {{'mo.slice' op dim 0: window of 3 elements from 1 step -1 exceeds size 4}}
  %y = mo.slice %x {starts = array<i64: 1>, steps = array<i64: -1>} : !mo.tensor<[4], f32> -> !mo.tensor<[3], f32>
  mo.output
}

// -----

// A buffer store's steps are positive.
mo.graph @store_reverse(%v: !mo.tensor<[2], f32>, %b: !mo.buffer<[4], f32>) {
  // expected-error @+1 {{'mo.mutable.store' op dim 0: start must be >= 0 and step >= 1, got start 3 step -1}}
  mo.mutable.store %v, %b {starts = array<i64: 3>, steps = array<i64: -1>} : !mo.tensor<[2], f32>, !mo.buffer<[4], f32>
  mo.output
}

// -----

// range's start and step are 0-d tensors of one type.
mo.graph @range_operands(%a: !mo.tensor<[], si64>, %b: !mo.tensor<[], si32>) {
  // expected-error @+1 {{'mo.range' op start and step must be 0-d tensors of one type, got '!mo.tensor<[], si64>' and '!mo.tensor<[], si32>'}}
  %r = mo.range(%a, %b) : (!mo.tensor<[], si64>, !mo.tensor<[], si32>) -> !mo.tensor<[4], si64>
  mo.output
}

// -----

// range makes a rank-1 tensor of the start's type.
mo.graph @range_result(%a: !mo.tensor<[], si64>) {
  // expected-error @+1 {{'mo.range' op result must be a rank-1 tensor of 'si64', got '!mo.tensor<[4], f32>'}}
  %r = mo.range(%a, %a) : (!mo.tensor<[], si64>, !mo.tensor<[], si64>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// shape_to_tensor makes one si64 per dim.
mo.graph @shape_to_tensor_result<n>() {
  // expected-error @+1 {{'mo.shape_to_tensor' op result must be !mo.tensor<[2], si64>, got '!mo.tensor<[3], si64>'}}
  %s = mo.shape_to_tensor [n, 4] : !mo.tensor<[3], si64>
  mo.output
}

// -----

// rebind keeps the rank.
mo.graph @rebind_rank(%x: !mo.tensor<[4], f32>) {
  // expected-error @+1 {{'mo.rebind' op keeps the rank: '!mo.tensor<[4], f32>' -> '!mo.tensor<[2, 2], f32>'}}
  %y = mo.rebind %x : !mo.tensor<[4], f32> -> !mo.tensor<[2, 2], f32>
  mo.output
}

// -----

// rebind cannot change a static dim.
mo.graph @rebind_static(%x: !mo.tensor<[4], f32>) {
  // expected-error @+1 {{'mo.rebind' op dim 0 is [4], which can never be [5]}}
  %y = mo.rebind %x : !mo.tensor<[4], f32> -> !mo.tensor<[5], f32>
  mo.output
}

// -----

// rebind keeps the element type.
mo.graph @rebind_element(%x: !mo.tensor<[4], f32>) {
  // expected-error @+1 {{'mo.rebind' op must keep the element type and device, got '!mo.tensor<[4], f32>' -> '!mo.tensor<[4], f16>'}}
  %y = mo.rebind %x : !mo.tensor<[4], f32> -> !mo.tensor<[4], f16>
  mo.output
}

// -----

// random's seed and counter are 0-d si64 tensors.
mo.graph @random_seed(%s: !mo.tensor<[2], si64>, %c: !mo.tensor<[], si64>) {
  // expected-error @+1 {{'mo.random' op seed and counter must be '!mo.tensor<[], si64>', got '!mo.tensor<[2], si64>' and '!mo.tensor<[], si64>'}}
  %r = mo.random uniform(%s, %c) : (!mo.tensor<[2], si64>, !mo.tensor<[], si64>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// mo.if's condition is one bool.
mo.graph @if_condition(%p: !mo.tensor<[2], i1>) {
  // expected-error @+1 {{'mo.if' op condition must be a 0-d bool tensor, got '!mo.tensor<[2], i1>'}}
  mo.if %p : !mo.tensor<[2], i1> {
    mo.yield
  } else {
    mo.yield
  }
  mo.output
}

// -----

// Each region of mo.if yields the results' types.
mo.graph @if_yield(%p: !mo.tensor<[], i1>, %x: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.if' op the else region yields !mo.tensor<[2], f32>, but nothing is expected}}
  mo.if %p : !mo.tensor<[], i1> {
    mo.yield
  } else {
    mo.yield %x : !mo.tensor<[2], f32>
  }
  mo.output
}

// -----

// A region of mo.if ends in mo.yield.
mo.graph @if_terminator(%p: !mo.tensor<[], i1>) {
  // expected-error @+1 {{'mo.if' op the then region must end in mo.yield}}
  mo.if %p : !mo.tensor<[], i1> {
    scf.yield
  } else {
    mo.yield
  }
  mo.output
}

// -----

// mo.while's results have the carried values' types.
mo.graph @while_results(%x: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.while' op results '!mo.tensor<[2], f16>' must have the carried values' types '!mo.tensor<[2], f32>'}}
  %r = mo.while (%a = %x) : (!mo.tensor<[2], f32>) -> !mo.tensor<[2], f16> {
    %c = mo.constant dense<false> : tensor<i1> : !mo.tensor<[], i1>
    mo.yield %c : !mo.tensor<[], i1>
  } do (%b: !mo.tensor<[2], f32>) {
    mo.yield %b : !mo.tensor<[2], f32>
  }
  mo.output
}

// -----

// mo.while's regions take the carried values.
mo.graph @while_arguments(%x: !mo.tensor<[2], f32>) {
  // expected-error @+1 {{'mo.while' op region arguments '!mo.tensor<[2], f16>' must be the carried values' types '!mo.tensor<[2], f32>'}}
  %r = mo.while (%a = %x) : (!mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
    %c = mo.constant dense<false> : tensor<i1> : !mo.tensor<[], i1>
    mo.yield %c : !mo.tensor<[], i1>
  } do (%b: !mo.tensor<[2], f16>) {
    mo.yield %b : !mo.tensor<[2], f16>
  }
  mo.output
}

// -----

// A custom op names its kernel.
mo.graph @custom_name(%x: !mo.tensor<[4], f32>) {
  // expected-error @+1 {{'mo.custom' op needs a kernel name}}
  %y = mo.custom ""(%x) : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// A custom op's operands are mo tensors or buffers.
mo.graph @custom_operand(%x: !mo.tensor<[4], f32>) {
  %c = arith.constant 1 : i64
  // expected-error @+1 {{'mo.inplace_custom' op operand 1 must be a mo tensor or buffer, got 'i64'}}
  mo.inplace_custom "k"(%x, %c) : (!mo.tensor<[4], f32>, i64) -> ()
  mo.output
}

// -----

// A custom op's parameters are integers, floats or bools.
mo.graph @custom_parameter(%x: !mo.tensor<[4], f32>) {
  // expected-error @+1 {{'mo.custom' op parameter 'mode' must be an integer, float or bool, got "fast"}}
  %y = mo.custom "k"(%x) {parameters = {mode = "fast"}} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output
}

// -----

// roi_align samples an NHWC image.
mo.graph @roi_align_input(%x: !mo.tensor<[4, 4], f32>, %r: !mo.tensor<[2, 5], f32>) {
  // expected-error @+2 {{input must be [N, H, W, C], got '!mo.tensor<[4, 4], f32>'}}
  // expected-error @+1 {{'mo.roi_align' op failed to infer returned types}}
  %y = mo.roi_align(%x, %r) {aligned = false, mode = "avg", output_height = 2 : i64, output_width = 2 : i64, sampling_ratio = 0 : i64, spatial_scale = 1.0 : f64} : (!mo.tensor<[4, 4], f32>, !mo.tensor<[2, 5], f32>) -> !mo.tensor<[2, 2, 2, 4], f32>
  mo.output
}

// -----

// roi_align's regions are rows of five.
mo.graph @roi_align_rois(%x: !mo.tensor<[1, 4, 4, 2], f32>, %r: !mo.tensor<[2, 4], f32>) {
  // expected-error @+2 {{rois must be [M, 5] of the input's element type and device, got '!mo.tensor<[2, 4], f32>'}}
  // expected-error @+1 {{'mo.roi_align' op failed to infer returned types}}
  %y = mo.roi_align(%x, %r) {aligned = false, mode = "avg", output_height = 2 : i64, output_width = 2 : i64, sampling_ratio = 0 : i64, spatial_scale = 1.0 : f64} : (!mo.tensor<[1, 4, 4, 2], f32>, !mo.tensor<[2, 4], f32>) -> !mo.tensor<[2, 2, 2, 2], f32>
  mo.output
}

// -----

// roi_align's bins and sampling are positive.
mo.graph @roi_align_sizes(%x: !mo.tensor<[1, 4, 4, 2], f32>, %r: !mo.tensor<[2, 5], f32>) {
  // expected-error @+2 {{output sizes must be >= 1 and the sampling ratio >= 0}}
  // expected-error @+1 {{'mo.roi_align' op failed to infer returned types}}
  %y = mo.roi_align(%x, %r) {aligned = false, mode = "avg", output_height = 0 : i64, output_width = 2 : i64, sampling_ratio = 0 : i64, spatial_scale = 1.0 : f64} : (!mo.tensor<[1, 4, 4, 2], f32>, !mo.tensor<[2, 5], f32>) -> !mo.tensor<[2, 0, 2, 2], f32>
  mo.output
}

// -----

// roi_align averages or takes maxima.
mo.graph @roi_align_mode(%x: !mo.tensor<[1, 4, 4, 2], f32>, %r: !mo.tensor<[2, 5], f32>) {
  // expected-error @+2 {{mode must be "avg" or "max", got "min"}}
  // expected-error @+1 {{'mo.roi_align' op failed to infer returned types}}
  %y = mo.roi_align(%x, %r) {aligned = false, mode = "min", output_height = 2 : i64, output_width = 2 : i64, sampling_ratio = 0 : i64, spatial_scale = 1.0 : f64} : (!mo.tensor<[1, 4, 4, 2], f32>, !mo.tensor<[2, 5], f32>) -> !mo.tensor<[2, 2, 2, 2], f32>
  mo.output
}

// -----

// An empty region of mo.if is an error, not a crash.
mo.graph @if_empty(%p: !mo.tensor<[], i1>) {
  // expected-error @+1 {{'mo.if' op expects a non-empty block}}
  "mo.if"(%p) ({
  ^bb0:
  }, {
    "mo.yield"() : () -> ()
  }) : (!mo.tensor<[], i1>) -> ()
  mo.output
}

// -----

// nonzero's result is [k, rank] si64 with k a symbolic dim.
mo.graph @nonzero_result<n>(%x: !mo.tensor<[n, 3], f32>) {
  // expected-error @+1 {{'mo.nonzero' op result must be !mo.tensor<[k, 2], si64> with k a symbolic dim it binds, got '!mo.tensor<[4, 2], si64>'}}
  %i = mo.nonzero %x : !mo.tensor<[n, 3], f32> -> !mo.tensor<[4, 2], si64>
  mo.output
}

// -----

// nonzero binds a new dim.
mo.graph @nonzero_rebinds<n>(%x: !mo.tensor<[n, 3], f32>) {
  // expected-error @+1 {{'mo.nonzero' op binds dim 'n', which its input already uses}}
  %i = mo.nonzero %x : !mo.tensor<[n, 3], f32> -> !mo.tensor<[n, 2], si64>
  mo.output
}

// -----

// Non-maximum suppression takes [B, N, 4] boxes and [B, C, N] scores.
mo.graph @nms_shapes(%b: !mo.tensor<[1, 3, 4], f32>, %s: !mo.tensor<[1, 2, 4], f32>, %m: !mo.tensor<[], si64>, %t: !mo.tensor<[], f32>) {
  // expected-error @+1 {{'mo.non_maximum_suppression' op boxes must be [B, N, 4] and scores [B, C, N] of one float type, got '!mo.tensor<[1, 3, 4], f32>' and '!mo.tensor<[1, 2, 4], f32>'}}
  %k = mo.non_maximum_suppression(%b, %s, %m, %t, %t) : (!mo.tensor<[1, 3, 4], f32>, !mo.tensor<[1, 2, 4], f32>, !mo.tensor<[], si64>, !mo.tensor<[], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[k, 3], si64>
  mo.output
}

// -----

// Its limit and thresholds are scalars.
mo.graph @nms_scalars(%b: !mo.tensor<[1, 3, 4], f32>, %s: !mo.tensor<[1, 2, 3], f32>, %m: !mo.tensor<[1], si64>, %t: !mo.tensor<[], f32>) {
  // expected-error @+1 {{'mo.non_maximum_suppression' op the limit and thresholds must be 0-d tensors, got '!mo.tensor<[1], si64>'}}
  %k = mo.non_maximum_suppression(%b, %s, %m, %t, %t) : (!mo.tensor<[1, 3, 4], f32>, !mo.tensor<[1, 2, 3], f32>, !mo.tensor<[1], si64>, !mo.tensor<[], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[k, 3], si64>
  mo.output
}

// -----

// A graph's body is one block.
// expected-error @+1 {{'mo.graph' op body must be one block, got 2 (use mo.if or mo.while for control flow)}}
mo.graph @two_blocks(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  cf.br ^bb1
^bb1:
  mo.output %x : !mo.tensor<[4], f32>
}

// -----

// A dim has at most 128 operators and 128 nested parentheses (every walk
// over a dim recurses; the bound keeps them off the end of the stack).
// expected-error @+1 {{dim expression too large: more than 128 operators}}
mo.graph @f(%x: !mo.tensor<[n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n], f32>) {
  mo.output
}

// -----

// expected-error @+1 {{dim expression nests more than 128 parentheses}}
mo.graph @f(%x: !mo.tensor<[((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((n))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))], f32>) {
  mo.output
}

// -----

// Its size in bytes must fit too: 2**61 f64 elements take 2**64 bytes.
// expected-error @+1 {{dims [2305843009213693952] of 'f64' are too large: their size in bytes overflows int64}}
mo.graph @f(%x: !mo.tensor<[2305843009213693952], f64>) {
  mo.output
}

// -----

// At most numpy's 64 dims.
// expected-error @+1 {{rank 65 is above the maximum of 64 (numpy's)}}
mo.graph @f(%x: !mo.tensor<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], f32>) {
  mo.output
}

// -----

// Result types are checked when they are inferred: broadcasting two valid
// operands can give dims too large for any tensor.
mo.graph @f(%a: !mo.tensor<[4294967296], f32>, %b: !mo.tensor<[4294967296, 1], f32>) {
  // expected-error @+2 {{dims [4294967296, 4294967296] are too large: the product of their sizes overflows int64}}
  // expected-error @+1 {{'mo.add' op failed to infer returned types}}
  %r = mo.add(%a, %b) : (!mo.tensor<[4294967296], f32>, !mo.tensor<[4294967296, 1], f32>) -> !mo.tensor<[2], f32>
  mo.output
}

// -----

// A dim of static parts that does not fold is no size (here negative; also
// a division by zero or an overflow).
// expected-error @+1 {{dim '2 - 3' is not a size: part of it is negative, divides by zero or overflows int64}}
mo.graph @f(%x: !mo.tensor<[2 - 3], f32>) {
  mo.output
}
