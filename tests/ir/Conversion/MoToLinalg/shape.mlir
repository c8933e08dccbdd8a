// mo-lower-to-linalg, shape: reshape becomes collapse_shape/expand_shape where dims group (else
// tensor.reshape), transpose linalg.transpose, slice extract_slice; symbolic
// sizes come from the function's arguments.
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s

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

// transpose is linalg.transpose into an init sized from the permuted input;
// a slice is a strided tensor.extract_slice whose symbolic size is the
// input's dim.
// CHECK-LABEL: func.func @permute_and_slice(
// CHECK: %[[X:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<?x4xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[INIT:.+]] = tensor.empty(%[[N]]) : tensor<4x?xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<?x4xf32>) outs(%[[INIT]] : tensor<4x?xf32>) permutation = [1, 0]
// CHECK: tensor.extract_slice %[[T]][1, 0] [2, %{{.+}}] [2, 1] : tensor<4x?xf32> to tensor<2x?xf32>
mo.graph @permute_and_slice<n>(%x: !mo.tensor<[n, 4], f32>) -> !mo.tensor<[2, n], f32> {
  %t = mo.transpose %x [1, 0] : !mo.tensor<[n, 4], f32> -> !mo.tensor<[4, n], f32>
  %s = mo.slice %t {starts = array<i64: 1, 0>, steps = array<i64: 2, 1>} : !mo.tensor<[4, n], f32> -> !mo.tensor<[2, n], f32>
  mo.output %s : !mo.tensor<[2, n], f32>
}

// -----

// Dims that do not group ([2, 3] -> [3, 2]) keep the general tensor.reshape.
// CHECK-LABEL: func.func @regroup(
// CHECK: %[[SHAPE:.+]] = tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xindex>
// CHECK: tensor.reshape %{{.+}}(%[[SHAPE]]) : (tensor<2x3xf32>, tensor<2xindex>) -> tensor<3x2xf32>
// CHECK-NOT: collapse_shape
mo.graph @regroup(%x: !mo.tensor<[2, 3], f32>) -> !mo.tensor<[3, 2], f32> {
  %y = mo.reshape %x : !mo.tensor<[2, 3], f32> -> !mo.tensor<[3, 2], f32>
  mo.output %y : !mo.tensor<[3, 2], f32>
}

// -----

// concat inserts each input at the running offset along the axis.
// CHECK-LABEL: func.func @concat(
// CHECK: %[[X:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<?x4xf32>
// CHECK: %[[Y:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<2x4xf32>
// CHECK: %[[INIT:.+]] = tensor.empty(%{{.+}}) : tensor<?x4xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[A:.+]] = tensor.insert_slice %[[X]] into %[[INIT]][0, 0] [%[[N]], 4] [1, 1]
// CHECK: %[[OFF:.+]] = arith.addi %{{.+}}, %[[N]] : index
// CHECK: tensor.insert_slice %[[Y]] into %[[A]][%[[OFF]], 0] [2, 4] [1, 1]
mo.graph @concat<n>(%x: !mo.tensor<[n, 4], f32>, %y: !mo.tensor<[2, 4], f32>) -> !mo.tensor<[n + 2, 4], f32> {
  %z = mo.concat(%x, %y) {axis = 0 : i64} : (!mo.tensor<[n, 4], f32>, !mo.tensor<[2, 4], f32>) -> !mo.tensor<[n + 2, 4], f32>
  mo.output %z : !mo.tensor<[n + 2, 4], f32>
}

// -----

// pad is a tensor.pad yielding the value's scalar.
// CHECK-LABEL: func.func @pad(
// CHECK: %[[V:.+]] = tensor.extract %{{.+}}[] : tensor<f32>
// CHECK: tensor.pad %{{.+}} low[1, 2] high[1, 0] {
// CHECK: tensor.yield %[[V]] : f32
// CHECK: } : tensor<?x4xf32> to tensor<?x6xf32>
mo.graph @pad<n>(%x: !mo.tensor<[n, 4], f32>, %v: !mo.tensor<[], f32>) -> !mo.tensor<[n + 2, 6], f32> {
  %y = mo.pad %x, %v {low = array<i64: 1, 2>, high = array<i64: 1, 0>} : (!mo.tensor<[n, 4], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[n + 2, 6], f32>
  mo.output %y : !mo.tensor<[n + 2, 6], f32>
}

// -----

// A negative step: the ascending window (from the lowest index it takes),
// then a generic that reads it backwards.
// CHECK: #[[REV:.+]] = affine_map<(d0, d1) -> (-d0 + 2, d1)>
// CHECK-LABEL: func.func @reverse(
// CHECK: %[[W:.+]] = tensor.extract_slice %{{.+}}[2, 0] [3, %{{.+}}] [2, 1] : tensor<8x?xf32> to tensor<3x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[REV]], #{{.+}}], {{.+}}} ins(%[[W]] : tensor<3x?xf32>)
mo.graph @reverse<n>(%x: !mo.tensor<[8, n], f32>) -> !mo.tensor<[3, n], f32> {
  %y = mo.slice %x {starts = array<i64: 6, 0>, steps = array<i64: -2, 1>} : !mo.tensor<[8, n], f32> -> !mo.tensor<[3, n], f32>
  mo.output %y : !mo.tensor<[3, n], f32>
}

// -----

// range: start + i * step over the result, sized by its (symbolic) dim;
// shape_to_tensor: the sizes of its dims; rebind: the input, its new dims
// checked when the entry starts.
// CHECK-LABEL: func.func @shapes(
// CHECK-SAME: "twice: rebind at {{.+}}: dim n + n is {actual}, but the rebind says [2 * n] = {expected}"
// CHECK: %[[N:.+]] = tensor.dim %{{.+}}, %c0 : tensor<?xf32>
// CHECK: %[[REBOUND:.+]] = arith.muli %c2, %[[N]] : index
// CHECK: %[[TWO_N:.+]] = arith.addi %[[N]], %[[N]] : index
// CHECK: arith.cmpi eq, %[[TWO_N]], %[[REBOUND]] : index
// CHECK: %[[R:.+]] = tensor.empty(%{{.+}}) : tensor<?xi64>
// CHECK: linalg.generic {{.+}} outs(%[[R]] : tensor<?xi64>)
// CHECK: %[[I:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK: %[[SCALED:.+]] = arith.muli %[[I]], %{{.+}} : i64
// CHECK: arith.addi %{{.+}}, %[[SCALED]] : i64
// CHECK: tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xi64>
mo.graph @shapes<n>(%x: !mo.tensor<[n], f32>, %s: !mo.tensor<[], si64>) -> (!mo.tensor<[2 * n], si64>, !mo.tensor<[2], si64>) {
  %c = mo.concat(%x, %x) {axis = 0 : i64} : (!mo.tensor<[n], f32>, !mo.tensor<[n], f32>) -> !mo.tensor<[n + n], f32>
  %r = mo.range(%s, %s) : (!mo.tensor<[], si64>, !mo.tensor<[], si64>) -> !mo.tensor<[n + n], si64>
  %b = mo.rebind %r {message = "twice"} : !mo.tensor<[n + n], si64> -> !mo.tensor<[2 * n], si64>
  %t = mo.shape_to_tensor [n, 4] : !mo.tensor<[2], si64>
  mo.output %b, %t : !mo.tensor<[2 * n], si64>, !mo.tensor<[2], si64>
}

// -----

// [batch * seq, 4] -> [batch, seq, 4] splits one dim into two run-time
// sizes: expand_shape's stride lowering takes one dynamic size per group
// (and asserts on more), so this is a tensor.reshape by the sizes.
// CHECK-LABEL: func.func @resplit(
// CHECK: %[[SHAPE:.+]] = tensor.from_elements %{{.+}}, %{{.+}}, %{{.+}} : tensor<3xindex>
// CHECK: tensor.reshape %{{.+}}(%[[SHAPE]]) : (tensor<?x4xf32>, tensor<3xindex>) -> tensor<?x?x4xf32>
// CHECK-NOT: tensor.expand_shape
mo.graph @resplit<batch, seq>(%x: !mo.tensor<[batch * seq, 4], f32>, %y: !mo.tensor<[batch, seq], f32>) -> !mo.tensor<[batch, seq, 4], f32> {
  %0 = mo.reshape %x : !mo.tensor<[batch * seq, 4], f32> -> !mo.tensor<[batch, seq, 4], f32>
  mo.output %0 : !mo.tensor<[batch, seq, 4], f32>
}
