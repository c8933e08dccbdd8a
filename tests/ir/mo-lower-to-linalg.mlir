// mo-lower-to-linalg: graphs become functions, weights arguments, entry results
// out-parameters, symbolic dims index values, and every op upstream ops.
// (-cse folds the repeated tensor.dim/index constants the pass emits per use.)
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s
// Through bufferization too, for the semantics of buffers:
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(mo-lower-to-linalg,canonicalize,cse,func.func(linalg-fuse-elementwise-ops),canonicalize,eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})" | FileCheck %s --check-prefix=BUFFERIZED

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
// name however often it is read.
// CHECK-LABEL: func.func @order(
// CHECK-SAME: %[[XA:[a-zA-Z0-9_]+]]: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[BA:[a-zA-Z0-9_]+]]: tensor<?xf32> {{\{[^}]*}}mo.weight = "b"},
// CHECK-SAME: %[[AA:[a-zA-Z0-9_]+]]: tensor<?xf32> {{\{[^}]*}}mo.weight = "a"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<?xf32> {mo.output = 0 : i64},
// CHECK-SAME: "weight 'b': expected shape [2], but axis 0 has size {actual}"
// CHECK: %[[X:.+]] = tensor.cast %[[XA]] : tensor<?xf32> to tensor<2xf32>
// CHECK: %[[B:.+]] = tensor.cast %[[BA]] : tensor<?xf32> to tensor<2xf32>
// CHECK: %[[A:.+]] = tensor.cast %[[AA]] : tensor<?xf32> to tensor<2xf32>
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
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<?xf32> {{\{[^}]*}}mo.weight = "layers.0.b"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<?xf32> {{\{[^}]*}}mo.weight = "layers.0.attn.w"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<?xf32> {{\{[^}]*}}mo.weight = "layers.1.b"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<?xf32> {{\{[^}]*}}mo.weight = "layers.1.attn.w"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<?xf32> {mo.output = 0 : i64},
// CHECK: %[[ARG:.+]] = tensor.cast
// CHECK: %[[B0:.+]] = tensor.cast
// CHECK: %[[W0:.+]] = tensor.cast
// CHECK: %[[B1:.+]] = tensor.cast
// CHECK: %[[W1:.+]] = tensor.cast
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
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<?xf32> {{\{[^}]*}}mo.weight = "shared.w"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<?xf32> {mo.output = 0 : i64},
// CHECK: %[[X:.+]] = tensor.cast
// CHECK: %[[W:.+]] = tensor.cast
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

// A symbolic dim is the tensor.dim of the first argument that has it; later
// ones are checked against it ("in argument 0 but ... in argument 1").
// CHECK-LABEL: func.func @first_arg(
// CHECK-SAME: %[[A:[a-zA-Z0-9_]+]]: tensor<?x?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[B:[a-zA-Z0-9_]+]]: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: "dim 'n' is {expected} in argument 0 but {actual} in argument 1"
// CHECK: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[N:.+]] = tensor.dim %[[A]], %[[C1]] : tensor<?x?xf32>
// CHECK: %[[NB:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<?xf32>
// CHECK: arith.cmpi eq, %[[NB]], %[[N]] : index
// CHECK: scf.if
// CHECK: tensor.expand_shape %[[B]] {{\[\[}}0, 1]] output_shape [%[[N]], 1] : tensor<?xf32> into tensor<?x1xf32>
mo.graph @first_arg<n>(%a: !mo.tensor<[2, n], f32>, %b: !mo.tensor<[n], f32>) -> !mo.tensor<[n, 1], f32> {
  %0 = mo.reshape %b : !mo.tensor<[n], f32> -> !mo.tensor<[n, 1], f32>
  mo.output %0 : !mo.tensor<[n, 1], f32>
}

// -----

// A symbolic dim first seen on a buffer argument is a memref.dim of it.
// CHECK-LABEL: func.func @from_buffer(
// CHECK-SAME: %[[BUF:[a-zA-Z0-9_]+]]: memref<?x?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[N:.+]] = memref.dim %[[BUF]], %[[C0]] : memref<?x?xf32>
// CHECK: scf.if
// CHECK: tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [%[[N]], 1]
mo.graph @from_buffer<n>(%buf: !mo.buffer<[n, 2], f32>, %x: !mo.tensor<[n], f32>) -> !mo.tensor<[n, 1], f32> {
  %0 = mo.reshape %x : !mo.tensor<[n], f32> -> !mo.tensor<[n, 1], f32>
  mo.output %0 : !mo.tensor<[n, 1], f32>
}

// -----

// reshape to [batch * seq, 4] groups dims (batch, seq) -> batch * seq: a
// tensor.collapse_shape, which fusion and tiling see through. Both sides have
// batch * seq * 4 elements whatever the sizes: no element-count check.
// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[XA:[a-zA-Z0-9_]+]]: tensor<?x?x?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<?x?xf32> {mo.output = 0 : i64},
// CHECK-NOT: elements cannot become
// CHECK-SAME: mo.entry
// CHECK: scf.if
// CHECK: %[[X:.+]] = tensor.cast %[[XA]] : tensor<?x?x?xf32> to tensor<?x?x4xf32>
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<?x?x4xf32> into tensor<?x4xf32>
// CHECK-NOT: tensor.reshape
// CHECK: bufferization.materialize_in_destination %[[R]]
mo.graph @reshape<batch, seq>(%x: !mo.tensor<[batch, seq, 4], f32>) -> !mo.tensor<[batch * seq, 4], f32> {
  %0 = mo.reshape %x : !mo.tensor<[batch, seq, 4], f32> -> !mo.tensor<[batch * seq, 4], f32>
  mo.output %0 : !mo.tensor<[batch * seq, 4], f32>
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

// Every dim-expression kind is index arithmetic: floordiv -> floordivsi,
// mod -> remsi, - -> subi, * -> muli; each argument dim that is an
// expression is checked against its value.
// CHECK-LABEL: func.func @dim_exprs(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<?x?x?x?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: "argument 0: expected shape [n, n floordiv 2, n mod 4, n - 1], but axis 1 has size {actual} (n floordiv 2 = {expected})"
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?x?x?xf32>
// CHECK: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[D1:.+]] = tensor.dim %[[X]], %[[C2]]
// CHECK: %[[HALF:.+]] = arith.floordivsi %[[N]], %[[C2]] : index
// CHECK: arith.cmpi eq, %{{.+}}, %[[HALF]] : index
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[MOD:.+]] = arith.remsi %[[N]], %[[C4]] : index
// CHECK: arith.cmpi eq, %[[D1]], %[[MOD]] : index
// CHECK: %[[DEC:.+]] = arith.subi %[[N]], %[[C1:.+]] : index
// CHECK: %[[PROD:.+]] = arith.muli %[[MOD]], %[[DEC]] : index
// CHECK: tensor.collapse_shape %[[X]] {{\[\[}}0], [1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
mo.graph @dim_exprs<n>(%x: !mo.tensor<[n, n floordiv 2, n mod 4, n - 1], f32>) -> !mo.tensor<[n, n floordiv 2, (n mod 4) * (n - 1)], f32> {
  %0 = mo.reshape %x : !mo.tensor<[n, n floordiv 2, n mod 4, n - 1], f32> -> !mo.tensor<[n, n floordiv 2, (n mod 4) * (n - 1)], f32>
  mo.output %0 : !mo.tensor<[n, n floordiv 2, (n mod 4) * (n - 1)], f32>
}

// -----

// n + 1 is an arith.addi of the dim and a constant.
// CHECK-LABEL: func.func @dim_add(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<?x?xf32>{{( \{[^}]*\})?}},
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?xf32>
// CHECK: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[N1:.+]] = arith.addi %[[N]], %[[C1]] : index
// CHECK: %[[P:.+]] = arith.muli %[[N]], %[[N1]] : index
// CHECK: arith.cmpi eq, %{{.+}}, %[[P]] : index
// CHECK: tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<?x?xf32> into tensor<?xf32>
mo.graph @dim_add<n>(%x: !mo.tensor<[n, n + 1], f32>) -> !mo.tensor<[n * (n + 1)], f32> {
  %0 = mo.reshape %x : !mo.tensor<[n, n + 1], f32> -> !mo.tensor<[n * (n + 1)], f32>
  mo.output %0 : !mo.tensor<[n * (n + 1)], f32>
}

// -----

// Broadcasting: a static size-1 dim reads index 0, a lower-rank operand is
// aligned right, a rank-0 operand has an empty map; the result's dynamic size
// comes from an operand that has the same dim.
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[LAST:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[SCALAR:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @broadcast(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32>{{( \{[^}]*\})?}}, %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32>{{( \{[^}]*\})?}}, %{{[a-zA-Z0-9_]+}}: tensor<?xf32>{{( \{[^}]*\})?}}, %[[S:[a-zA-Z0-9_]+]]: tensor<f32>{{( \{[^}]*\})?}},
// CHECK: scf.if
// CHECK: %[[X:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<?x1xf32>
// CHECK: %[[Y:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<1x4xf32>
// CHECK: %[[B:.+]] = tensor.cast %{{.+}} : tensor<?xf32> to tensor<4xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x1xf32>
// CHECK: %[[E0:.+]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: %[[A:.+]] = linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[Y]] : tensor<?x1xf32>, tensor<1x4xf32>) outs(%[[E0]] : tensor<?x4xf32>)
// CHECK: arith.addf
// CHECK: %[[M:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[E1:.+]] = tensor.empty(%[[M]]) : tensor<?x4xf32>
// CHECK: %[[D:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[LAST]], #[[ID]]]
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<?x4xf32>, tensor<4xf32>) outs(%[[E1]] : tensor<?x4xf32>)
// CHECK: arith.subf
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR]], #[[ID]], #[[ID]]]
// CHECK-SAME: ins(%[[S]], %[[D]] : tensor<f32>, tensor<?x4xf32>)
// CHECK: arith.mulf
mo.graph @broadcast<n>(%x: !mo.tensor<[n, 1], f32>, %y: !mo.tensor<[1, 4], f32>, %b: !mo.tensor<[4], f32>, %s: !mo.tensor<[], f32>) -> !mo.tensor<[n, 4], f32> {
  %0 = mo.add(%x, %y) : (!mo.tensor<[n, 1], f32>, !mo.tensor<[1, 4], f32>) -> !mo.tensor<[n, 4], f32>
  %1 = mo.sub(%0, %b) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
  %2 = mo.mul(%s, %1) : (!mo.tensor<[], f32>, !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 4], f32>
  mo.output %2 : !mo.tensor<[n, 4], f32>
}

// -----

// A size-1 dim that is also size 1 in the result is not broadcast: it keeps
// its loop index.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[LAST:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @keep_one(
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[LAST]], #[[ID]]]
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<1x3xf32>, tensor<3xf32>) outs(%{{.+}} : tensor<1x3xf32>)
mo.graph @keep_one(%x: !mo.tensor<[1, 3], f32>, %y: !mo.tensor<[3], f32>) -> !mo.tensor<[1, 3], f32> {
  %0 = mo.max(%x, %y) : (!mo.tensor<[1, 3], f32>, !mo.tensor<[3], f32>) -> !mo.tensor<[1, 3], f32>
  mo.output %0 : !mo.tensor<[1, 3], f32>
}

// -----

// Float binary ops: addf, subf, mulf, divf, maximumf, minimumf (NaN-propagating
// like numpy's maximum/minimum).
// CHECK-LABEL: func.func @float_binary(
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: arith.subf %{{.+}}, %{{.+}} : f32
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK: arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : f32
// CHECK: arith.minimumf %{{.+}}, %{{.+}} : f32
mo.graph @float_binary(%x: !mo.tensor<[2], f32>, %y: !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32> {
  %0 = mo.add(%x, %y) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %1 = mo.sub(%0, %y) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %2 = mo.mul(%1, %y) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %3 = mo.div(%2, %y) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %4 = mo.max(%3, %y) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %5 = mo.min(%4, %y) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  mo.output %5 : !mo.tensor<[2], f32>
}

// -----

// Signed integers (signless i32 in builtin types): addi, subi, muli, and
// floor division, maxsi, minsi.
// CHECK-LABEL: func.func @signed_binary(
// CHECK-SAME: tensor<?xi32>
// CHECK: arith.addi %{{.+}}, %{{.+}} : i32
// CHECK: arith.subi %{{.+}}, %{{.+}} : i32
// CHECK: arith.muli %{{.+}}, %{{.+}} : i32
// CHECK: arith.floordivsi %{{.+}}, %{{.+}} : i32
// CHECK: arith.maxsi %{{.+}}, %{{.+}} : i32
// CHECK: arith.minsi %{{.+}}, %{{.+}} : i32
// CHECK-NOT: si32
mo.graph @signed_binary(%x: !mo.tensor<[2], si32>, %y: !mo.tensor<[2], si32>) -> !mo.tensor<[2], si32> {
  %0 = mo.add(%x, %y) : (!mo.tensor<[2], si32>, !mo.tensor<[2], si32>) -> !mo.tensor<[2], si32>
  %1 = mo.sub(%0, %y) : (!mo.tensor<[2], si32>, !mo.tensor<[2], si32>) -> !mo.tensor<[2], si32>
  %2 = mo.mul(%1, %y) : (!mo.tensor<[2], si32>, !mo.tensor<[2], si32>) -> !mo.tensor<[2], si32>
  %3 = mo.div(%2, %y) : (!mo.tensor<[2], si32>, !mo.tensor<[2], si32>) -> !mo.tensor<[2], si32>
  %4 = mo.max(%3, %y) : (!mo.tensor<[2], si32>, !mo.tensor<[2], si32>) -> !mo.tensor<[2], si32>
  %5 = mo.min(%4, %y) : (!mo.tensor<[2], si32>, !mo.tensor<[2], si32>) -> !mo.tensor<[2], si32>
  mo.output %5 : !mo.tensor<[2], si32>
}

// -----

// Unsigned integers: divui, maxui, minui (never the signed forms).
// CHECK-LABEL: func.func @unsigned_binary(
// CHECK-SAME: tensor<?xi32>
// CHECK-NOT: arith.floordivsi
// CHECK: arith.divui %{{.+}}, %{{.+}} : i32
// CHECK-NOT: arith.maxsi
// CHECK: arith.maxui %{{.+}}, %{{.+}} : i32
// CHECK-NOT: arith.minsi
// CHECK: arith.minui %{{.+}}, %{{.+}} : i32
mo.graph @unsigned_binary(%x: !mo.tensor<[2], ui32>, %y: !mo.tensor<[2], ui32>) -> !mo.tensor<[2], ui32> {
  %0 = mo.div(%x, %y) : (!mo.tensor<[2], ui32>, !mo.tensor<[2], ui32>) -> !mo.tensor<[2], ui32>
  %1 = mo.max(%0, %y) : (!mo.tensor<[2], ui32>, !mo.tensor<[2], ui32>) -> !mo.tensor<[2], ui32>
  %2 = mo.min(%1, %y) : (!mo.tensor<[2], ui32>, !mo.tensor<[2], ui32>) -> !mo.tensor<[2], ui32>
  mo.output %2 : !mo.tensor<[2], ui32>
}

// -----

// Booleans follow numpy: max/min of i1 are or/and.
// CHECK-LABEL: func.func @bool_binary(
// CHECK-SAME: tensor<?xi1>
// CHECK: arith.ori %{{.+}}, %{{.+}} : i1
// CHECK: arith.andi %{{.+}}, %{{.+}} : i1
mo.graph @bool_binary(%x: !mo.tensor<[2], i1>, %y: !mo.tensor<[2], i1>) -> !mo.tensor<[2], i1> {
  %0 = mo.max(%x, %y) : (!mo.tensor<[2], i1>, !mo.tensor<[2], i1>) -> !mo.tensor<[2], i1>
  %1 = mo.min(%0, %y) : (!mo.tensor<[2], i1>, !mo.tensor<[2], i1>) -> !mo.tensor<[2], i1>
  mo.output %1 : !mo.tensor<[2], i1>
}

// -----

// abs of a float is math.absf.
// CHECK-LABEL: func.func @abs(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.absf %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @abs(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.abs %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// negative of a float is arith.negf.
// CHECK-LABEL: func.func @negative(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.negf %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @negative(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.negative %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// relu of a float is maximumf with 0.0.
// CHECK-LABEL: func.func @relu(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.maximumf %[[IN]], %[[ZERO]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @relu(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.relu %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// ceil is math.ceil.
// CHECK-LABEL: func.func @ceil(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.ceil %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @ceil(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.ceil %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// cos is math.cos.
// CHECK-LABEL: func.func @cos(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.cos %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @cos(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.cos %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// erf is math.erf.
// CHECK-LABEL: func.func @erf(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.erf %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @erf(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.erf %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// exp is math.exp.
// CHECK-LABEL: func.func @exp(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.exp %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @exp(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.exp %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// floor is math.floor.
// CHECK-LABEL: func.func @floor(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.floor %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @floor(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.floor %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// log is math.log.
// CHECK-LABEL: func.func @log(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.log %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @log(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.log %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// log1p is log(u) * x / (u - 1) with u = 1 + x (no cancellation for small
// x; u == 1 gives x), not math.log1p, which the LLVM lowering expands naively.
// CHECK-LABEL: func.func @log1p(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK: %[[U:.+]] = arith.addf %{{.+}}, %[[IN]] : f32
// CHECK: %[[L:.+]] = math.log %[[U]] : f32
// CHECK: %[[P:.+]] = arith.mulf %[[L]], %[[IN]] : f32
// CHECK: arith.divf %[[P]]
// CHECK: arith.cmpf oeq, %[[U]]
// CHECK: %[[R:.+]] = arith.select %{{.+}}, %[[IN]], %{{.+}} : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK-NOT: math.log1p
mo.graph @log1p(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.log1p %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// round rounds half to even: math.roundeven, not math.round.
// CHECK-LABEL: func.func @round(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.roundeven %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @round(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.round %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// rsqrt is math.rsqrt.
// CHECK-LABEL: func.func @rsqrt(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.rsqrt %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @rsqrt(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.rsqrt %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// sigmoid is 1 / (1 + exp(-x)).
// CHECK-LABEL: func.func @sigmoid(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.+]] = arith.negf %[[IN]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[NEG]] : f32
// CHECK-NEXT: %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @sigmoid(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.sigmoid %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// silu is x * sigmoid(x).
// CHECK-LABEL: func.func @silu(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.+]] = arith.negf %[[IN]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[NEG]] : f32
// CHECK-NEXT: %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[IN]], %[[S]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @silu(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.silu %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// sin is math.sin.
// CHECK-LABEL: func.func @sin(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.sin %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @sin(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.sin %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// sqrt is math.sqrt.
// CHECK-LABEL: func.func @sqrt(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.sqrt %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @sqrt(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.sqrt %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// tanh is math.tanh.
// CHECK-LABEL: func.func @tanh(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.tanh %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @tanh(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.tanh %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// trunc is math.trunc.
// CHECK-LABEL: func.func @trunc(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.trunc %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @trunc(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %y = mo.trunc %x : !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// Unary ops keep the element type: f16 stays f16 (the constant too).
// CHECK-LABEL: func.func @relu_f16(
// CHECK-SAME: tensor<?xf16>
// CHECK: arith.constant 0.000000e+00 : f16
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : f16
mo.graph @relu_f16(%x: !mo.tensor<[4], f16>) -> !mo.tensor<[4], f16> {
  %y = mo.relu %x : !mo.tensor<[4], f16>
  mo.output %y : !mo.tensor<[4], f16>
}

// -----

// Signed integer abs/negative/relu: math.absi, 0 - x, maxsi with 0.
// CHECK-LABEL: func.func @signed_unary(
// CHECK: math.absi %{{.+}} : i32
// CHECK: %[[Z0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: arith.subi %[[Z0]], %{{.+}} : i32
// CHECK: %[[Z1:.+]] = arith.constant 0 : i32
// CHECK-NEXT: arith.maxsi %{{.+}}, %[[Z1]] : i32
mo.graph @signed_unary(%x: !mo.tensor<[4], si32>) -> !mo.tensor<[4], si32> {
  %0 = mo.abs %x : !mo.tensor<[4], si32>
  %1 = mo.negative %0 : !mo.tensor<[4], si32>
  %2 = mo.relu %1 : !mo.tensor<[4], si32>
  mo.output %2 : !mo.tensor<[4], si32>
}

// -----

// Unsigned abs and relu are the identity: the body yields its input.
// CHECK-LABEL: func.func @unsigned_unary(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: i32, %{{[a-zA-Z0-9_]+}}: i32):
// CHECK-NOT: math.absi
// CHECK-NEXT: linalg.yield %[[IN]] : i32
// CHECK: ^bb0(%[[IN2:[a-zA-Z0-9_]+]]: i32, %{{[a-zA-Z0-9_]+}}: i32):
// CHECK-NOT: arith.maxsi
// CHECK: linalg.yield %[[IN2]] : i32
mo.graph @unsigned_unary(%x: !mo.tensor<[4], ui32>) -> !mo.tensor<[4], ui32> {
  %0 = mo.abs %x : !mo.tensor<[4], ui32>
  %1 = mo.relu %0 : !mo.tensor<[4], ui32>
  mo.output %1 : !mo.tensor<[4], ui32>
}

// -----

// si32 -> f32 is sitofp.
// CHECK-LABEL: func.func @cast_si_to_f(
// CHECK: arith.sitofp %{{.+}} : i32 to f32
mo.graph @cast_si_to_f(%x: !mo.tensor<[4], si32>) -> !mo.tensor<[4], f32> {
  %y = mo.cast %x : !mo.tensor<[4], si32> -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// ui32 -> f32 is uitofp.
// CHECK-LABEL: func.func @cast_ui_to_f(
// CHECK: arith.uitofp %{{.+}} : i32 to f32
mo.graph @cast_ui_to_f(%x: !mo.tensor<[4], ui32>) -> !mo.tensor<[4], f32> {
  %y = mo.cast %x : !mo.tensor<[4], ui32> -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// bool -> f32 is uitofp (true is 1.0, not -1.0).
// CHECK-LABEL: func.func @cast_bool_to_f(
// CHECK: arith.uitofp %{{.+}} : i1 to f32
mo.graph @cast_bool_to_f(%x: !mo.tensor<[4], i1>) -> !mo.tensor<[4], f32> {
  %y = mo.cast %x : !mo.tensor<[4], i1> -> !mo.tensor<[4], f32>
  mo.output %y : !mo.tensor<[4], f32>
}

// -----

// f32 -> bool is x != 0 with an unordered compare (NaN is true).
// CHECK-LABEL: func.func @cast_f_to_bool(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: i1):
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.cmpf une, %[[IN]], %[[Z]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
mo.graph @cast_f_to_bool(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], i1> {
  %y = mo.cast %x : !mo.tensor<[4], f32> -> !mo.tensor<[4], i1>
  mo.output %y : !mo.tensor<[4], i1>
}

// -----

// si32 -> bool is x != 0.
// CHECK-LABEL: func.func @cast_si_to_bool(
// CHECK: %[[Z:.+]] = arith.constant 0 : i32
// CHECK-NEXT: arith.cmpi ne, %{{.+}}, %[[Z]] : i32
mo.graph @cast_si_to_bool(%x: !mo.tensor<[4], si32>) -> !mo.tensor<[4], i1> {
  %y = mo.cast %x : !mo.tensor<[4], si32> -> !mo.tensor<[4], i1>
  mo.output %y : !mo.tensor<[4], i1>
}

// -----

// bool -> si32 zero-extends (true is 1).
// CHECK-LABEL: func.func @cast_bool_to_si(
// CHECK: arith.extui %{{.+}} : i1 to i32
mo.graph @cast_bool_to_si(%x: !mo.tensor<[4], i1>) -> !mo.tensor<[4], si32> {
  %y = mo.cast %x : !mo.tensor<[4], i1> -> !mo.tensor<[4], si32>
  mo.output %y : !mo.tensor<[4], si32>
}

// -----

// Widening follows the source's signedness: si8 sign-extends, ui8 zero-extends.
// CHECK-LABEL: func.func @cast_si8_to_si32(
// CHECK: arith.extsi %{{.+}} : i8 to i32
mo.graph @cast_si8_to_si32(%x: !mo.tensor<[4], si8>) -> !mo.tensor<[4], si32> {
  %y = mo.cast %x : !mo.tensor<[4], si8> -> !mo.tensor<[4], si32>
  mo.output %y : !mo.tensor<[4], si32>
}

// -----

// ui8 -> si32 zero-extends.
// CHECK-LABEL: func.func @cast_ui8_to_si32(
// CHECK: arith.extui %{{.+}} : i8 to i32
mo.graph @cast_ui8_to_si32(%x: !mo.tensor<[4], ui8>) -> !mo.tensor<[4], si32> {
  %y = mo.cast %x : !mo.tensor<[4], ui8> -> !mo.tensor<[4], si32>
  mo.output %y : !mo.tensor<[4], si32>
}

// -----

// Narrowing an integer truncates.
// CHECK-LABEL: func.func @cast_si32_to_si8(
// CHECK: arith.trunci %{{.+}} : i32 to i8
mo.graph @cast_si32_to_si8(%x: !mo.tensor<[4], si32>) -> !mo.tensor<[4], si8> {
  %y = mo.cast %x : !mo.tensor<[4], si32> -> !mo.tensor<[4], si8>
  mo.output %y : !mo.tensor<[4], si8>
}

// -----

// float -> integer follows the destination's signedness: fptosi, fptoui.
// CHECK-LABEL: func.func @cast_f_to_ints(
// CHECK: arith.fptosi %{{.+}} : f32 to i32
// CHECK: arith.fptoui %{{.+}} : f32 to i8
mo.graph @cast_f_to_ints(%x: !mo.tensor<[4], f32>) -> (!mo.tensor<[4], si32>, !mo.tensor<[4], ui8>) {
  %s = mo.cast %x : !mo.tensor<[4], f32> -> !mo.tensor<[4], si32>
  %u = mo.cast %x : !mo.tensor<[4], f32> -> !mo.tensor<[4], ui8>
  mo.output %s, %u : !mo.tensor<[4], si32>, !mo.tensor<[4], ui8>
}

// -----

// Float widths: extf up, truncf down, f16 -> bf16 through f32.
// CHECK-LABEL: func.func @cast_floats(
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.truncf %{{.+}} : f64 to f32
// CHECK: %[[W:.+]] = arith.extf %{{.+}} : f16 to f32
// CHECK-NEXT: arith.truncf %[[W]] : f32 to bf16
mo.graph @cast_floats(%h: !mo.tensor<[4], f16>, %d: !mo.tensor<[4], f64>) -> (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>, !mo.tensor<[4], bf16>) {
  %0 = mo.cast %h : !mo.tensor<[4], f16> -> !mo.tensor<[4], f32>
  %1 = mo.cast %d : !mo.tensor<[4], f64> -> !mo.tensor<[4], f32>
  %2 = mo.cast %h : !mo.tensor<[4], f16> -> !mo.tensor<[4], bf16>
  mo.output %0, %1, %2 : !mo.tensor<[4], f32>, !mo.tensor<[4], f32>, !mo.tensor<[4], bf16>
}

// -----

// si32 -> ui32 only reinterprets: the body yields its input unchanged.
// CHECK-LABEL: func.func @cast_si_to_ui(
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: i32, %{{[a-zA-Z0-9_]+}}: i32):
// CHECK-NEXT: linalg.yield %[[IN]] : i32
mo.graph @cast_si_to_ui(%x: !mo.tensor<[4], si32>) -> !mo.tensor<[4], ui32> {
  %y = mo.cast %x : !mo.tensor<[4], si32> -> !mo.tensor<[4], ui32>
  mo.output %y : !mo.tensor<[4], ui32>
}

// -----

// 2-D matmul is linalg.matmul (the pipeline picks the loop order, tiles or
// packs it) into a zero-filled init sized from the operands.
// CHECK-LABEL: func.func @matmul_2d(
// CHECK-DAG: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[A:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<?x4xf32>
// CHECK-DAG: %[[B:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<4x?xf32>
// CHECK: %[[M:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<4x?xf32>
// CHECK: %[[E:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK: %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<?x4xf32>, tensor<4x?xf32>) outs(%[[F]] : tensor<?x?xf32>)
// CHECK: bufferization.materialize_in_destination %[[R]]
mo.graph @matmul_2d<m, n>(%a: !mo.tensor<[m, 4], f32>, %b: !mo.tensor<[4, n], f32>) -> !mo.tensor<[m, n], f32> {
  %y = mo.matmul(%a, %b) : (!mo.tensor<[m, 4], f32>, !mo.tensor<[4, n], f32>) -> !mo.tensor<[m, n], f32>
  mo.output %y : !mo.tensor<[m, n], f32>
}

// -----

// Batched matmul against a 2-D rhs (an MLP's x @ W): one linalg.matmul over
// the rows of all batches, between a collapse and an expand of the batch.
// CHECK-LABEL: func.func @matmul_batched(
// CHECK: %[[A:.+]] = tensor.cast %{{.+}} : tensor<?x?x?xf32> to tensor<?x3x4xf32>
// CHECK: %[[W:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<4x5xf32>
// CHECK: %[[ROWS:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2]] : tensor<?x3x4xf32> into tensor<?x4xf32>
// CHECK: %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?x5xf32>)
// CHECK: %[[P:.+]] = linalg.matmul ins(%[[ROWS]], %[[W]] : tensor<?x4xf32>, tensor<4x5xf32>) outs(%[[F]] : tensor<?x5xf32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[P]] {{\[\[}}0, 1], [2]] output_shape [%{{.+}}, 3, 5] : tensor<?x5xf32> into tensor<?x3x5xf32>
// CHECK: bufferization.materialize_in_destination %[[R]]

mo.graph @matmul_batched<b>(%a: !mo.tensor<[b, 3, 4], f32>, %w: !mo.tensor<[4, 5], f32>) -> !mo.tensor<[b, 3, 5], f32> {
  %y = mo.matmul(%a, %w) : (!mo.tensor<[b, 3, 4], f32>, !mo.tensor<[4, 5], f32>) -> !mo.tensor<[b, 3, 5], f32>
  mo.output %y : !mo.tensor<[b, 3, 5], f32>
}

// -----

// Equal batches: linalg.batch_matmul.
// CHECK-LABEL: func.func @matmul_same_batch(
// CHECK: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<?x3x4xf32>, tensor<?x4x5xf32>) outs(%{{.+}} : tensor<?x3x5xf32>)
mo.graph @matmul_same_batch<b>(%a: !mo.tensor<[b, 3, 4], f32>, %w: !mo.tensor<[b, 4, 5], f32>) -> !mo.tensor<[b, 3, 5], f32> {
  %y = mo.matmul(%a, %w) : (!mo.tensor<[b, 3, 4], f32>, !mo.tensor<[b, 4, 5], f32>) -> !mo.tensor<[b, 3, 5], f32>
  mo.output %y : !mo.tensor<[b, 3, 5], f32>
}

// -----

// A batch dim of size 1 broadcasts (constant 0 in its map); integer matmul
// accumulates with muli/addi from a zero i32 fill.
// CHECK-DAG: #[[LHS:.+]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d2)>
// CHECK-DAG: #[[RHS:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @matmul_broadcast(
// CHECK: %[[Z:.+]] = arith.constant 0 : i32
// CHECK: linalg.fill ins(%[[Z]] : i32)
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<1x3x4xi32>, tensor<2x4x5xi32>)
// CHECK: arith.muli
// CHECK: arith.addi
mo.graph @matmul_broadcast(%a: !mo.tensor<[1, 3, 4], si32>, %w: !mo.tensor<[2, 4, 5], si32>) -> !mo.tensor<[2, 3, 5], si32> {
  %y = mo.matmul(%a, %w) : (!mo.tensor<[1, 3, 4], si32>, !mo.tensor<[2, 4, 5], si32>) -> !mo.tensor<[2, 3, 5], si32>
  mo.output %y : !mo.tensor<[2, 3, 5], si32>
}

// -----

// Constants with si/ui element types become signless arith.constants with the
// same bits (ui8 255 prints as -1); bools stay i1.
// CHECK-LABEL: func.func @constants(
// CHECK-SAME: memref<?xi8> {mo.output = 0 : i64}, %{{[a-zA-Z0-9_]+}}: memref<?xi32> {mo.output = 1 : i64}, %{{[a-zA-Z0-9_]+}}: memref<i1> {mo.output = 2 : i64}
// CHECK: %[[U:.+]] = arith.constant dense<[-1, 1]> : tensor<2xi8>
// CHECK: %[[S:.+]] = arith.constant dense<[-1, 7]> : tensor<2xi32>
// CHECK: %[[B:.+]] = arith.constant dense<true> : tensor<i1>
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

// Buffers are memref arguments: mutable.load copies a to_tensor of the
// memref (a snapshot), mutable.store is a materialize_in_destination into it.
// CHECK-LABEL: func.func @buffers(
// CHECK-SAME: %[[BUFA:[a-zA-Z0-9_]+]]: memref<?xf32>{{( \{[^}]*\})?}}, %[[XA:[a-zA-Z0-9_]+]]: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[OUTA:[a-zA-Z0-9_]+]]: memref<?xf32> {mo.output = 0 : i64},
// CHECK: %[[BUF:.+]] = memref.cast %[[BUFA]] : memref<?xf32> to memref<4xf32>
// CHECK: %[[X:.+]] = tensor.cast %[[XA]] : tensor<?xf32> to tensor<4xf32>
// CHECK: %[[VIEW:.+]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<4xf32> to tensor<4xf32>
// CHECK: %[[OLD:.+]] = bufferization.alloc_tensor() copy(%[[VIEW]])
// CHECK: %[[NEW:.+]] = linalg.generic
// CHECK-SAME: ins(%[[OLD]], %[[X]] :
// CHECK: bufferization.materialize_in_destination %[[NEW]] in restrict writable %[[BUF]] : (tensor<4xf32>, memref<4xf32>) -> ()
// CHECK: %[[OUT:.+]] = memref.cast %[[OUTA]] : memref<?xf32> to memref<4xf32>
// CHECK: bufferization.materialize_in_destination %[[NEW]] in restrict writable %[[OUT]]
mo.graph @buffers(%buf: !mo.buffer<[4], f32>, %x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %old = mo.mutable.load %buf : !mo.buffer<[4], f32> -> !mo.tensor<[4], f32>
  %new = mo.add(%old, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.mutable.store %new, %buf : !mo.tensor<[4], f32>, !mo.buffer<[4], f32>
  mo.output %new : !mo.tensor<[4], f32>
}

// -----

// A store with starts/steps writes a strided memref.subview; a dynamic window
// size is the value's tensor.dim.
// CHECK-LABEL: func.func @store_window(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<?x?xf32>{{( \{[^}]*\})?}}, %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<2xi64> {mo.status}) -> i64
// CHECK: %[[BUF:.+]] = memref.cast %{{.+}} : memref<?x?xf32> to memref<?x8xf32>
// CHECK: %[[V:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<?x2xf32>
// CHECK: %[[D:.+]] = tensor.dim %[[V]], %{{.+}} : tensor<?x2xf32>
// CHECK: %[[SUB:.+]] = memref.subview %[[BUF]][0, 2] [%[[D]], 2] [1, 3] : memref<?x8xf32> to memref<?x2xf32, strided<[8, 3], offset: 2>>
// CHECK: bufferization.materialize_in_destination %[[V]] in restrict writable %[[SUB]] : (tensor<?x2xf32>, memref<?x2xf32, strided<[8, 3], offset: 2>>) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return %{{.+}} : i64
mo.graph @store_window<n>(%buf: !mo.buffer<[n, 8], f32>, %v: !mo.tensor<[n, 2], f32>) {
  "mo.mutable.store"(%v, %buf) <{starts = array<i64: 0, 2>, steps = array<i64: 1, 3>}> : (!mo.tensor<[n, 2], f32>, !mo.buffer<[n, 8], f32>) -> ()
  mo.output
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

// bool + bool is logical or (as numpy), not i1 addition (xor).
// CHECK-LABEL: func.func @bool_add(
// CHECK-NOT: arith.addi
// CHECK: arith.ori %{{.+}}, %{{.+}} : i1
mo.graph @bool_add(%x: !mo.tensor<[4], i1>, %y: !mo.tensor<[4], i1>) -> !mo.tensor<[4], i1> {
  %0 = mo.add(%x, %y) : (!mo.tensor<[4], i1>, !mo.tensor<[4], i1>) -> !mo.tensor<[4], i1>
  mo.output %0 : !mo.tensor<[4], i1>
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

// -----

// A value loaded from a buffer is a snapshot: a later store to the buffer
// does not change it (the load copies).
// BUFFERIZED-LABEL: func.func @acc(
// BUFFERIZED-SAME: %[[BUF:[a-zA-Z0-9_]+]]: memref<?xf32>{{( \{[^}]*\})?}},
// Once old + x is computed (and written into the buffer), old - x must not
// read the overwritten buffer as "old".
// BUFFERIZED: arith.addf
// BUFFERIZED-NOT: ins(%[[BUF]],
// BUFFERIZED: arith.subf
mo.graph @acc(%buf: !mo.buffer<[4], f32>, %x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %old = mo.mutable.load %buf : !mo.buffer<[4], f32> -> !mo.tensor<[4], f32>
  %new = mo.add(%old, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.mutable.store %new, %buf : !mo.tensor<[4], f32>, !mo.buffer<[4], f32>
  %d = mo.sub(%old, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %d : !mo.tensor<[4], f32>
}

// -----

// Reductions: linalg.reduce over the axis into an identity-filled init, then
// expand_shape puts the axis back with size 1; f16 sums accumulate in f32;
// the mean divides by the axis' size; argmax carries (best, index) through a
// linalg.generic that reads the axis' index.
// CHECK-LABEL: func.func @reductions(
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<?xf32>)
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%[[X:.+]] : tensor<?x4xf16>) outs(%[[INIT]] : tensor<?xf32>) dimensions = [1]
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.addf
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [%{{.+}}, 1] : tensor<?xf16> into tensor<?x1xf16>
// (-cse shares the sum between reduce_sum and reduce_mean.)
// CHECK: ins(%[[SUM]] : tensor<?xf32>)
// CHECK: arith.divf
// CHECK: linalg.generic {{.+}} iterator_types = ["reduction", "parallel"]
// CHECK: linalg.index 0 : index
// CHECK: arith.cmpf ogt
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
mo.graph @reductions<n>(%x: !mo.tensor<[n, 4], f16>) -> (!mo.tensor<[n, 1], f16>, !mo.tensor<[n, 1], f16>, !mo.tensor<[1, 4], si64>) {
  %s = mo.reduce_sum %x {axis = 1 : i64} : !mo.tensor<[n, 4], f16> -> !mo.tensor<[n, 1], f16>
  %m = mo.reduce_mean %x {axis = 1 : i64} : !mo.tensor<[n, 4], f16> -> !mo.tensor<[n, 1], f16>
  %a = mo.argmax %x {axis = 0 : i64} : !mo.tensor<[n, 4], f16> -> !mo.tensor<[1, 4], si64>
  mo.output %s, %m, %a : !mo.tensor<[n, 1], f16>, !mo.tensor<[n, 1], f16>, !mo.tensor<[1, 4], si64>
}

// -----

// cumsum: an scf.for along the axis carries the running sum (updated in
// place by linalg.add) and inserts it into the result; reverse counts down.
// CHECK-LABEL: func.func @scan(
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %[[N:.+]] step %{{.+}} iter_args(%[[SUM:.+]] = %{{.+}}, %[[OUT:.+]] = %{{.+}}) -> (tensor<?xf32>, tensor<4x?xf32>)
// CHECK: %[[AT:.+]] = arith.subi %{{.+}}, %[[I]] : index
// CHECK: %[[S:.+]] = tensor.extract_slice %{{.+}}[%[[AT]], 0] [1, %{{.+}}] [1, 1] : tensor<4x?xf32> to tensor<?xf32>
// CHECK: %[[ADD:.+]] = linalg.add ins(%[[SUM]], %[[S]] : tensor<?xf32>, tensor<?xf32>) outs(%[[SUM]] : tensor<?xf32>)
// CHECK: %[[W:.+]] = tensor.insert_slice %[[ADD]] into %[[OUT]][%[[AT]], 0] [1, %{{.+}}] [1, 1]
// CHECK: scf.yield %[[ADD]], %[[W]]
mo.graph @scan<n>(%x: !mo.tensor<[4, n], f32>) -> !mo.tensor<[4, n], f32> {
  %y = mo.cumsum %x {axis = 0 : i64, reverse = true} : !mo.tensor<[4, n], f32>
  mo.output %y : !mo.tensor<[4, n], f32>
}
