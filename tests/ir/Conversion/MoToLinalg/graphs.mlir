// mo-lower-to-linalg, graphs: graphs become functions (the entry with its checked ABI: dynamic shapes,
// out-parameters, the status record and the size-checking prologue), weights
// arguments, calls func.call, constants arith.constant; foreign ops pass through.
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s

// The pass description's example: the public graph is the entry point, its
// weight follows its inputs, its result is an out-parameter memref, and the
// status record comes last. The prologue binds n from the first argument,
// checks the weight's and the output's n against it, stores the sizes of the
// first failed check in the record and runs the body only when all pass.
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[W:[a-zA-Z0-9_]+]]: tensor<?xf32> {{\{[^}]*}}mo.weight = "w"},
// CHECK-SAME: %[[OUT:[a-zA-Z0-9_]+]]: memref<?xf32> {mo.output = 0 : i64},
// CHECK-SAME: %[[REC:[a-zA-Z0-9_]+]]: memref<2xi64> {mo.status}) -> i64
// CHECK-SAME: attributes {llvm.emit_c_interface, mo.checks = [
// CHECK-SAME: "dim 'n' is {expected} in argument 0 but {actual} in weight 'w'",
// CHECK-SAME: "output 0: expected shape [n], but axis 0 has size {actual} (n = {expected})"], mo.entry}
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %[[C0:.+]] : tensor<?xf32>
// CHECK: %[[NW:.+]] = tensor.dim %[[W]], %[[C0]] : tensor<?xf32>
// CHECK: %[[OK1:.+]] = arith.cmpi eq, %[[NW]], %[[N]] : index
// CHECK: %[[NO:.+]] = memref.dim %[[OUT]], %[[C0]] : memref<?xf32>
// CHECK: %[[OK2:.+]] = arith.cmpi eq, %[[NO]], %[[N]] : index
// CHECK: %[[S2:.+]] = arith.select %[[OK2]], %[[ZERO:.+]], %[[TWO:.+]] : i64
// CHECK: %[[S1:.+]] = arith.select %[[OK1]], %[[S2]], %{{.+}} : i64
// CHECK: memref.store %{{.+}}, %[[REC]][%[[C0]]] : memref<2xi64>
// CHECK: memref.store %{{.+}}, %[[REC]][%{{.+}}] : memref<2xi64>
// CHECK: %[[GO:.+]] = arith.cmpi eq, %[[S1]], %[[ZERO]] : i64
// CHECK: scf.if %[[GO]] {
// CHECK: %[[INIT:.+]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[Y:.+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel"]
// CHECK-SAME: ins(%[[X]], %[[W]] : tensor<?xf32>, tensor<?xf32>) outs(%[[INIT]] : tensor<?xf32>)
// CHECK: arith.mulf
// CHECK: bufferization.materialize_in_destination %[[Y]] in restrict writable %[[OUT]] : (tensor<?xf32>, memref<?xf32>) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return %[[S1]] : i64
// CHECK-NOT: mo.
mo.graph @f<n>(%x: !mo.tensor<[n], f32>) -> !mo.tensor<[n], f32> {
  %w = mo.constant.external "w" : !mo.tensor<[n], f32>
  %y = mo.mul(%x, %w) : (!mo.tensor<[n], f32>, !mo.tensor<[n], f32>) -> !mo.tensor<[n], f32>
  mo.output %y : !mo.tensor<[n], f32>
}

// -----

// A private subgraph stays a private function that returns its results; each
// mo.call becomes a func.call of the one shared function.
// CHECK-LABEL: func.func private @block(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<4xf32>{{( \{[^}]*\})?}}) -> tensor<4xf32> {
// CHECK-NOT: attributes
// CHECK: %[[Y:.+]] = linalg.generic
// CHECK: math.exp
// CHECK: return %[[Y]] : tensor<4xf32>
// The entry receives dynamic shapes and, once checked, casts them to the
// graph's static ones.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[ARG:[a-zA-Z0-9_]+]]: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[OUTARG:[a-zA-Z0-9_]+]]: memref<?xf32> {mo.output = 0 : i64},
// CHECK-SAME: memref<2xi64> {mo.status}) -> i64
// CHECK-SAME: mo.checks = ["argument 0: expected shape [4], but axis 0 has size {actual}",
// CHECK-SAME: "output 0: expected shape [4], but axis 0 has size {actual}"]
// CHECK: scf.if
// CHECK: %[[X:.+]] = tensor.cast %[[ARG]] : tensor<?xf32> to tensor<4xf32>
// CHECK: %[[A:.+]] = func.call @block(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[B:.+]] = func.call @block(%[[A]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[OUT:.+]] = memref.cast %[[OUTARG]] : memref<?xf32> to memref<4xf32>
// CHECK: bufferization.materialize_in_destination %[[B]] in restrict writable %[[OUT]]
mo.graph private @block(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.exp %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}
mo.graph @main(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %0 = mo.call @block(%x) : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  %1 = mo.call @block(%0) : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %1 : !mo.tensor<[4], f32>
}

// -----

// Entry weights are arguments in first-use order ("b" before "a"), one per
// name however often it is read. A static weight keeps its type and is not
// checked here: the runtime checks it when it is bound or passed.
// CHECK-LABEL: func.func @order(
// CHECK-SAME: %[[XA:[a-zA-Z0-9_]+]]: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[B:[a-zA-Z0-9_]+]]: tensor<2xf32> {{\{[^}]*}}mo.weight = "b"},
// CHECK-SAME: %[[A:[a-zA-Z0-9_]+]]: tensor<2xf32> {{\{[^}]*}}mo.weight = "a"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<?xf32> {mo.output = 0 : i64},
// CHECK-SAME: mo.checks = ["argument 0: expected shape [2], but axis 0 has size {actual}", "output 0: expected shape [2], but axis 0 has size {actual}"]
// CHECK: %[[X:.+]] = tensor.cast %[[XA]] : tensor<?xf32> to tensor<2xf32>
// CHECK-NOT: tensor.cast
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]], %[[B]] :
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %[[A]] :
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %[[B]] :
mo.graph @order(%x: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
  %b = mo.constant.external "b" : !mo.tensor<[2], f32>
  %0 = mo.add(%x, %b) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %a = mo.constant.external "a" : !mo.tensor<[2], f32>
  %1 = mo.mul(%0, %a) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %b2 = mo.constant.external "b" : !mo.tensor<[2], f32>
  %2 = mo.sub(%1, %b2) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  mo.output %2 : !mo.tensor<[2], f32>
}

// -----

// Weights are threaded through calls: a subgraph takes the weights it reads,
// directly or through its callees, in first-use order ("b" is read before the
// call that reads "attn.w"), and prefixes compose across nesting.
// CHECK-LABEL: func.func private @inner(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<4xf32>{{( \{[^}]*\})?}}, %[[W:[a-zA-Z0-9_]+]]: tensor<4xf32>{{( \{[^}]*\})?}}) -> tensor<4xf32>
// CHECK: ins(%{{.+}}, %[[W]] :
// CHECK-LABEL: func.func private @outer(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<4xf32>{{( \{[^}]*\})?}}, %[[OB:[a-zA-Z0-9_]+]]: tensor<4xf32>{{( \{[^}]*\})?}}, %[[OW:[a-zA-Z0-9_]+]]: tensor<4xf32>{{( \{[^}]*\})?}}) -> tensor<4xf32>
// CHECK: %[[I:.+]] = call @inner(%[[X]], %[[OW]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: ins(%[[I]], %[[OB]] :
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[B0:[a-zA-Z0-9_]+]]: tensor<4xf32> {{\{[^}]*}}mo.weight = "layers.0.b"},
// CHECK-SAME: %[[W0:[a-zA-Z0-9_]+]]: tensor<4xf32> {{\{[^}]*}}mo.weight = "layers.0.attn.w"},
// CHECK-SAME: %[[B1:[a-zA-Z0-9_]+]]: tensor<4xf32> {{\{[^}]*}}mo.weight = "layers.1.b"},
// CHECK-SAME: %[[W1:[a-zA-Z0-9_]+]]: tensor<4xf32> {{\{[^}]*}}mo.weight = "layers.1.attn.w"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<?xf32> {mo.output = 0 : i64},
// CHECK: %[[ARG:.+]] = tensor.cast
// CHECK: %[[L0:.+]] = func.call @outer(%[[ARG]], %[[B0]], %[[W0]])
// CHECK: call @outer(%[[L0]], %[[B1]], %[[W1]])
mo.graph private @inner(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
  %y = mo.mul(%x, %w) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}
mo.graph private @outer(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %b = mo.constant.external "b" placeholder : !mo.tensor<[4], f32>
  %0 = mo.call @inner(%x) {prefix = "attn."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  %1 = mo.add(%0, %b) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %1 : !mo.tensor<[4], f32>
}
mo.graph @main(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %0 = mo.call @outer(%x) {prefix = "layers.0."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  %1 = mo.call @outer(%0) {prefix = "layers.1."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %1 : !mo.tensor<[4], f32>
}

// -----

// One shared body called twice with the same prefix passes the same weight.
// CHECK-LABEL: func.func @same_prefix(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[W:[a-zA-Z0-9_]+]]: tensor<4xf32> {{\{[^}]*}}mo.weight = "shared.w"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<?xf32> {mo.output = 0 : i64},
// CHECK: %[[X:.+]] = tensor.cast
// CHECK: %[[A:.+]] = func.call @scale(%[[X]], %[[W]])
// CHECK: call @scale(%[[A]], %[[W]])
mo.graph private @scale(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
  %y = mo.mul(%x, %w) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}
mo.graph @same_prefix(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %0 = mo.call @scale(%x) {prefix = "shared."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  %1 = mo.call @scale(%0) {prefix = "shared."} : (!mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %1 : !mo.tensor<[4], f32>
}

// -----

// Several entry results: out-parameters numbered in result order, written in
// that order (the same value may be written twice).
// CHECK-LABEL: func.func @two_outputs(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[O0A:[a-zA-Z0-9_]+]]: memref<?xf32> {mo.output = 0 : i64},
// CHECK-SAME: %[[O1A:[a-zA-Z0-9_]+]]: memref<?xf32> {mo.output = 1 : i64},
// CHECK-SAME: %[[O2A:[a-zA-Z0-9_]+]]: memref<?xf32> {mo.output = 2 : i64},
// CHECK: %[[X:.+]] = tensor.cast
// CHECK: %[[E:.+]] = linalg.generic
// CHECK: %[[O0:.+]] = memref.cast %[[O0A]]
// CHECK-NEXT: bufferization.materialize_in_destination %[[E]] in restrict writable %[[O0]]
// CHECK-NEXT: %[[O1:.+]] = memref.cast %[[O1A]]
// CHECK-NEXT: bufferization.materialize_in_destination %[[X]] in restrict writable %[[O1]]
// CHECK-NEXT: %[[O2:.+]] = memref.cast %[[O2A]]
// CHECK-NEXT: bufferization.materialize_in_destination %[[E]] in restrict writable %[[O2]]
// CHECK-NEXT: }
// CHECK-NEXT: return %{{.+}} : i64
mo.graph @two_outputs(%x: !mo.tensor<[3], f32>) -> (!mo.tensor<[3], f32>, !mo.tensor<[3], f32>, !mo.tensor<[3], f32>) {
  %e = mo.exp %x : !mo.tensor<[3], f32>
  mo.output %e, %x, %e : !mo.tensor<[3], f32>, !mo.tensor<[3], f32>, !mo.tensor<[3], f32>
}

// -----

// A reshape whose element counts depend on the sizes ([b, s, 4] -> [b, 8]
// holds only for s = 2) is checked in the entry's prologue, also when it is
// inside a subgraph; the message names the user's source line.
// CHECK-LABEL: func.func private @flatten(
// CHECK-NOT: arith.cmpi
// CHECK: tensor.reshape
// CHECK-LABEL: func.func @calls_flatten(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<?x?x?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: "reshape at model.py:7: [b, s, 4] -> [b, 8]: {actual} elements cannot become {expected}"
// CHECK-DAG: %[[B:.+]] = tensor.dim %[[X]], %[[C0:[a-z0-9_]+]] :
// CHECK-DAG: %[[S:.+]] = tensor.dim %[[X]], %[[C1:[a-z0-9_]+]] :
// CHECK: %[[B1:.+]] = arith.muli %[[C1]], %[[B]] : index
// CHECK: %[[BS:.+]] = arith.muli %[[B1]], %[[S]] : index
// CHECK: %[[FROM:.+]] = arith.muli %[[BS]], %{{.+}} : index
// CHECK: %[[TO:.+]] = arith.muli %[[B1]], %{{.+}} : index
// CHECK: arith.cmpi eq, %[[FROM]], %[[TO]] : index
// CHECK: scf.if
// CHECK: func.call @flatten(
mo.graph private @flatten<b, s>(%x: !mo.tensor<[b, s, 4], f32>) -> !mo.tensor<[b, 8], f32> {
  %0 = mo.reshape %x : !mo.tensor<[b, s, 4], f32> -> !mo.tensor<[b, 8], f32> loc("model.py":7:3)
  mo.output %0 : !mo.tensor<[b, 8], f32>
}
mo.graph @calls_flatten<b, s>(%x: !mo.tensor<[b, s, 4], f32>) -> !mo.tensor<[b, 8], f32> {
  %0 = mo.call @flatten(%x) : (!mo.tensor<[b, s, 4], f32>) -> !mo.tensor<[b, 8], f32>
  mo.output %0 : !mo.tensor<[b, 8], f32>
}

// -----

// Constants with si/ui element types become signless arith.constants with the
// same bits (ui8 255 prints as -1); bools are stored as bytes (true is 1).
// CHECK-LABEL: func.func @constants(
// CHECK-SAME: memref<?xi8> {mo.output = 0 : i64}, %{{[a-zA-Z0-9_]+}}: memref<?xi32> {mo.output = 1 : i64}, %{{[a-zA-Z0-9_]+}}: memref<i8> {mo.output = 2 : i64}
// CHECK: %[[U:.+]] = arith.constant dense<[-1, 1]> : tensor<2xi8>
// CHECK: %[[S:.+]] = arith.constant dense<[-1, 7]> : tensor<2xi32>
// CHECK: %[[B:.+]] = arith.constant dense<1> : tensor<i8>
// CHECK: bufferization.materialize_in_destination %[[U]]
// CHECK: bufferization.materialize_in_destination %[[S]]
// CHECK: bufferization.materialize_in_destination %[[B]]
// CHECK-NOT: ui8
// CHECK-NOT: si32
mo.graph @constants() -> (!mo.tensor<[2], ui8>, !mo.tensor<[2], si32>, !mo.tensor<[], i1>) {
  %a = mo.constant dense<[255, 1]> : tensor<2xui8> : !mo.tensor<[2], ui8>
  %b = mo.constant dense<[-1, 7]> : tensor<2xsi32> : !mo.tensor<[2], si32>
  %c = mo.constant dense<true> : tensor<i1> : !mo.tensor<[], i1>
  mo.output %a, %b, %c : !mo.tensor<[2], ui8>, !mo.tensor<[2], si32>, !mo.tensor<[], i1>
}

// -----

// A float constant (splat) feeds the elementwise op it is used by.
// CHECK-LABEL: func.func @float_constant(
// CHECK: %[[X:.+]] = tensor.cast %{{.+}} : tensor<?xf32> to tensor<3xf32>
// CHECK: %[[C:.+]] = arith.constant dense<2.500000e+00> : tensor<3xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]], %[[C]] : tensor<3xf32>, tensor<3xf32>)
mo.graph @float_constant(%x: !mo.tensor<[3], f32>) -> !mo.tensor<[3], f32> {
  %c = mo.constant dense<2.5> : tensor<3xf32> : !mo.tensor<[3], f32>
  %y = mo.mul(%x, %c) : (!mo.tensor<[3], f32>, !mo.tensor<[3], f32>) -> !mo.tensor<[3], f32>
  mo.output %y : !mo.tensor<[3], f32>
}

// -----

// Chains are i1 values: chain arguments and results are i1, mo.chain.create is
// a constant true; a subgraph may return one.
// CHECK-LABEL: func.func private @effect(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: i1 {mo.type = !mo.chain}, %[[B:[a-zA-Z0-9_]+]]: memref<4xi32>{{( \{[^}]*\})?}}) -> i1
// CHECK: bufferization.materialize_in_destination %{{.+}} in restrict writable %[[B]]
// CHECK: %[[T:.+]] = arith.constant true
// CHECK: return %[[T]] : i1
// CHECK-LABEL: func.func @chained(
// CHECK-SAME: %[[C:[a-zA-Z0-9_]+]]: i1 {mo.type = !mo.chain}, %[[BUFA:[a-zA-Z0-9_]+]]: memref<?xi32>{{( \{[^}]*\})?}},
// CHECK: %[[BUF:.+]] = memref.cast %[[BUFA]] : memref<?xi32> to memref<4xi32>
// CHECK: call @effect(%[[C]], %[[BUF]]) : (i1, memref<4xi32>) -> i1
mo.graph private @effect(%c: !mo.chain, %b: !mo.buffer<[4], si32>) -> !mo.chain {
  %x = mo.mutable.load %b : !mo.buffer<[4], si32> -> !mo.tensor<[4], si32>
  %y = mo.negative %x : !mo.tensor<[4], si32>
  mo.mutable.store %y, %b : !mo.tensor<[4], si32>, !mo.buffer<[4], si32>
  %c2 = mo.chain.create
  mo.output %c2 : !mo.chain
}
mo.graph @chained(%c: !mo.chain, %b: !mo.buffer<[4], si32>) {
  %0 = mo.call @effect(%c, %b) : (!mo.chain, !mo.buffer<[4], si32>) -> !mo.chain
  mo.output
}

// -----

// A graph with no results has no out-parameters (only the status record);
// devices do not change the builtin types.
// CHECK-LABEL: func.func @no_results(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<?xf32>{{( \{[^}]*\})?}}, %{{[a-zA-Z0-9_]+}}: memref<2xi64> {mo.status}) -> i64
// CHECK-SAME: attributes {llvm.emit_c_interface, mo.checks = ["argument 0: expected shape [2], but axis 0 has size {actual}"], mo.entry} {
// CHECK: %[[STATUS:.+]] = arith.select
// CHECK-NOT: scf.if
// CHECK: return %[[STATUS]] : i64
mo.graph @no_results(%x: !mo.tensor<[2], f32, cpu:0>) {
  mo.output
}

// -----

// Ops of other dialects pass through (partial lowering): a graph over
// builtin tensors keeps its arith and linalg ops.
// CHECK-LABEL: func.func private @foreign(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<4xf32>{{( \{[^}]*\})?}}) -> tensor<4xf32>
// CHECK: %[[C:.+]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[Y:.+]] = linalg.fill ins(%[[C]] : f32) outs(%[[X]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[Y]] : tensor<4xf32>
mo.graph private @foreign(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 2.0 : f32
  %y = linalg.fill ins(%c : f32) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  mo.output %y : tensor<4xf32>
}
