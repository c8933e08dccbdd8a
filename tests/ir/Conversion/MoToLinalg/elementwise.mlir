// mo-lower-to-linalg, elementwise: every op with ElementwiseOpInterface is one linalg.generic whose body is
// the registry's scalar map, operands broadcast numpy-style.
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s

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

// Booleans follow numpy: max/min of bools are or/and. Bools are stored as
// bytes (i8) and are i1 only inside the loop body.
// CHECK-LABEL: func.func @bool_binary(
// CHECK-SAME: tensor<?xi8>
// CHECK: ^bb0(%[[X:[a-zA-Z0-9_]+]]: i8, %[[Y:[a-zA-Z0-9_]+]]: i8, %{{[a-zA-Z0-9_]+}}: i8):
// CHECK-NEXT: %[[XB:.+]] = arith.trunci %[[X]] : i8 to i1
// CHECK-NEXT: %[[YB:.+]] = arith.trunci %[[Y]] : i8 to i1
// CHECK-NEXT: %[[OR:.+]] = arith.ori %[[XB]], %[[YB]] : i1
// CHECK-NEXT: %[[BYTE:.+]] = arith.extui %[[OR]] : i1 to i8
// CHECK-NEXT: linalg.yield %[[BYTE]] : i8
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
// CHECK: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: i8):
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.cmpf une, %[[IN]], %[[Z]] : f32
// CHECK-NEXT: %[[B:.+]] = arith.extui %[[R]] : i1 to i8
// CHECK-NEXT: linalg.yield %[[B]] : i8
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

// bool + bool is logical or (as numpy), not i1 addition (xor).
// CHECK-LABEL: func.func @bool_add(
// CHECK-NOT: arith.addi
// CHECK: arith.ori %{{.+}}, %{{.+}} : i1
mo.graph @bool_add(%x: !mo.tensor<[4], i1>, %y: !mo.tensor<[4], i1>) -> !mo.tensor<[4], i1> {
  %0 = mo.add(%x, %y) : (!mo.tensor<[4], i1>, !mo.tensor<[4], i1>) -> !mo.tensor<[4], i1>
  mo.output %0 : !mo.tensor<[4], i1>
}

// -----

// select is one generic too: the condition byte is truncated to i1 and
// picks between the broadcast values.
// CHECK-LABEL: func.func @select(
// CHECK: ^bb0(%[[C:[a-zA-Z0-9_]+]]: i8, %[[X:[a-zA-Z0-9_]+]]: f32, %[[Y:[a-zA-Z0-9_]+]]: f32, %{{[a-zA-Z0-9_]+}}: f32):
// CHECK-NEXT: %[[B:.+]] = arith.trunci %[[C]] : i8 to i1
// CHECK-NEXT: %[[R:.+]] = arith.select %[[B]], %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
mo.graph @select(%c: !mo.tensor<[4, 1], i1>, %x: !mo.tensor<[4, 3], f32>, %y: !mo.tensor<[], f32>) -> !mo.tensor<[4, 3], f32> {
  %z = mo.select(%c, %x, %y) : (!mo.tensor<[4, 1], i1>, !mo.tensor<[4, 3], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[4, 3], f32>
  mo.output %z : !mo.tensor<[4, 3], f32>
}
