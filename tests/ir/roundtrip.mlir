// Every mo type and op prints and parses back identically in pretty, generic
// and bytecode form. Each CHECK pins an op's whole printed form: result,
// operands (captured by name), attributes and types.
// RUN: mo-opt %s | mo-opt | FileCheck %s
// RUN: mo-opt %s --mlir-print-op-generic | mo-opt | FileCheck %s
// RUN: mo-opt %s --emit-bytecode | mo-opt | FileCheck %s

// A private subgraph: declared dim, placeholder weight, visibility after the
// signature.
// CHECK-LABEL: mo.graph @block<batch>
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32> private {
// CHECK: %[[W:.+]] = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
// CHECK: %[[Y:.+]] = mo.mul(%[[X]], %[[W]]) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
// CHECK: mo.output %[[Y]] : !mo.tensor<[batch, 4], f32>
mo.graph private @block<batch>(%x: !mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
  %y = mo.mul(%x, %w) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  mo.output %y : !mo.tensor<[batch, 4], f32>
}

// The entry graph: calls, constants, chains, buffers, matmul and conversions.
// CHECK-LABEL: mo.graph @main<batch, seq>
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[batch, 4], f32>
// CHECK-SAME: %{{[^:]+}}: !mo.tensor<[batch * seq, ?], si64, gpu:1>
// CHECK-SAME: %[[B:[^:]+]]: !mo.buffer<[8], ui8, cpu:0>
// CHECK-SAME: %[[MAT:[^:]+]]: !mo.tensor<[4, 3], f32>)
// CHECK-SAME: -> (!mo.tensor<[batch, 4], f32>, !mo.chain) attributes {note = "kept"} {
// CHECK: %[[CHAIN:.+]] = mo.chain.create
// CHECK: %[[C:.+]] = mo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32> : !mo.tensor<[4], f32>
// CHECK: %[[CALL0:.+]] = mo.call @block(%[[X]]) {prefix = "layers.0."} : (!mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32>
// CHECK: %[[CALL1:.+]] = mo.call @block(%[[CALL0]]) : (!mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32>
// CHECK: %[[ADD:.+]] = mo.add(%[[CALL1]], %[[C]]) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
// CHECK: %[[SUB:.+]] = mo.sub(%[[ADD]], %[[C]]) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
// CHECK: %[[DIV:.+]] = mo.div(%[[SUB]], %[[C]]) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
// CHECK: %[[MAX:.+]] = mo.max(%[[DIV]], %[[C]]) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
// CHECK: %[[MIN:.+]] = mo.min(%[[MAX]], %[[C]]) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
// CHECK: %[[L:.+]] = mo.mutable.load %[[B]] : !mo.buffer<[8], ui8, cpu:0> -> !mo.tensor<[8], ui8, cpu:0>
// CHECK: mo.mutable.store %[[L]], %[[B]] : !mo.tensor<[8], ui8, cpu:0>, !mo.buffer<[8], ui8, cpu:0>
// CHECK: %[[S:.+]] = mo.constant dense<[1, 2]> : tensor<2xui8> : !mo.tensor<[2], ui8, cpu:0>
// CHECK: mo.mutable.store %[[S]], %[[B]] {starts = array<i64: 2>, steps = array<i64: 3>} : !mo.tensor<[2], ui8, cpu:0>, !mo.buffer<[8], ui8, cpu:0>
// CHECK: %[[MM:.+]] = mo.matmul(%[[X]], %[[MAT]]) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4, 3], f32>) -> !mo.tensor<[batch, 3], f32>
// CHECK: %[[RS:.+]] = mo.reshape %[[MM]] : !mo.tensor<[batch, 3], f32> -> !mo.tensor<[batch * 3], f32>
// CHECK: %[[CS:.+]] = mo.cast %[[RS]] : !mo.tensor<[batch * 3], f32> -> !mo.tensor<[batch * 3], bf16>
// CHECK: %[[EX:.+]] = mo.exp %[[CS]] : !mo.tensor<[batch * 3], bf16>
// CHECK: mo.relu %[[EX]] : !mo.tensor<[batch * 3], bf16>
// CHECK: mo.output %[[MIN]], %[[CHAIN]] : !mo.tensor<[batch, 4], f32>, !mo.chain
mo.graph @main<batch, seq>(%x: !mo.tensor<[batch, 4], f32>,
                           %i: !mo.tensor<[batch * seq, ?], si64, gpu:1>,
                           %b: !mo.buffer<[8], ui8, cpu:0>,
                           %mat: !mo.tensor<[4, 3], f32>)
    -> (!mo.tensor<[batch, 4], f32>, !mo.chain) attributes {note = "kept"} {
  %chain = mo.chain.create
  %c = mo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> : !mo.tensor<[4], f32>
  %0 = mo.call @block(%x) {prefix = "layers.0."} : (!mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32>
  %1 = mo.call @block(%0) : (!mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32>
  %2 = mo.add(%1, %c) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  %3 = mo.sub(%2, %c) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  %4 = mo.div(%3, %c) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  %5 = mo.max(%4, %c) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  %6 = mo.min(%5, %c) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  %l = mo.mutable.load %b : !mo.buffer<[8], ui8, cpu:0> -> !mo.tensor<[8], ui8, cpu:0>
  mo.mutable.store %l, %b : !mo.tensor<[8], ui8, cpu:0>, !mo.buffer<[8], ui8, cpu:0>
  %s = mo.constant dense<[1, 2]> : tensor<2xui8> : !mo.tensor<[2], ui8, cpu:0>
  mo.mutable.store %s, %b {starts = array<i64: 2>, steps = array<i64: 3>} : !mo.tensor<[2], ui8, cpu:0>, !mo.buffer<[8], ui8, cpu:0>
  %mm = mo.matmul(%x, %mat) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4, 3], f32>) -> !mo.tensor<[batch, 3], f32>
  %rs = mo.reshape %mm : !mo.tensor<[batch, 3], f32> -> !mo.tensor<[batch * 3], f32>
  %cs = mo.cast %rs : !mo.tensor<[batch * 3], f32> -> !mo.tensor<[batch * 3], bf16>
  %ex = mo.exp %cs : !mo.tensor<[batch * 3], bf16>
  %re = mo.relu %ex : !mo.tensor<[batch * 3], bf16>
  mo.output %6, %chain : !mo.tensor<[batch, 4], f32>, !mo.chain
}

// Every arithmetic binary op, with broadcasting on either side.
// CHECK-LABEL: mo.graph @binary<n>
// CHECK-SAME: (%[[A:[^:]+]]: !mo.tensor<[n, 4], f32>, %[[B:[^:]+]]: !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32> {
// CHECK: %[[ADD:.+]] = mo.add(%[[A]], %[[B]]) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
// CHECK: %[[SUB:.+]] = mo.sub(%[[B]], %[[ADD]]) : (!mo.tensor<[4], f32>, !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 4], f32>
// CHECK: %[[MUL:.+]] = mo.mul(%[[SUB]], %[[A]]) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 4], f32>
// CHECK: %[[DIV:.+]] = mo.div(%[[MUL]], %[[B]]) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
// CHECK: %[[FDIV:.+]] = mo.floordiv(%[[DIV]], %[[B]]) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
// CHECK: %[[MOD:.+]] = mo.mod(%[[FDIV]], %[[B]]) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
// CHECK: %[[POW:.+]] = mo.pow(%[[MOD]], %[[B]]) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
// CHECK: %[[MAX:.+]] = mo.max(%[[POW]], %[[A]]) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 4], f32>
// CHECK: %[[MIN:.+]] = mo.min(%[[B]], %[[MAX]]) : (!mo.tensor<[4], f32>, !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 4], f32>
// CHECK: mo.output %[[MIN]] : !mo.tensor<[n, 4], f32>
mo.graph @binary<n>(%a: !mo.tensor<[n, 4], f32>, %b: !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32> {
  %0 = mo.add(%a, %b) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
  %1 = mo.sub(%b, %0) : (!mo.tensor<[4], f32>, !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 4], f32>
  %2 = mo.mul(%1, %a) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 4], f32>
  %3 = mo.div(%2, %b) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
  %4 = mo.floordiv(%3, %b) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
  %5 = mo.mod(%4, %b) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
  %6 = mo.pow(%5, %b) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[n, 4], f32>
  %7 = mo.max(%6, %a) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 4], f32>
  %8 = mo.min(%b, %7) : (!mo.tensor<[4], f32>, !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 4], f32>
  mo.output %8 : !mo.tensor<[n, 4], f32>
}

// Every comparison: i1 results, on the operands' device.
// CHECK-LABEL: mo.graph @compare<n>
// CHECK-SAME: (%[[A:[^:]+]]: !mo.tensor<[n], si32, gpu:0>, %[[B:[^:]+]]: !mo.tensor<[], si32, gpu:0>)
// CHECK: %[[EQ:.+]] = mo.equal(%[[A]], %[[B]]) : (!mo.tensor<[n], si32, gpu:0>, !mo.tensor<[], si32, gpu:0>) -> !mo.tensor<[n], i1, gpu:0>
// CHECK: %[[NE:.+]] = mo.not_equal(%[[B]], %[[A]]) : (!mo.tensor<[], si32, gpu:0>, !mo.tensor<[n], si32, gpu:0>) -> !mo.tensor<[n], i1, gpu:0>
// CHECK: %[[GT:.+]] = mo.greater(%[[A]], %[[B]]) : (!mo.tensor<[n], si32, gpu:0>, !mo.tensor<[], si32, gpu:0>) -> !mo.tensor<[n], i1, gpu:0>
// CHECK: %[[GE:.+]] = mo.greater_equal(%[[A]], %[[A]]) : (!mo.tensor<[n], si32, gpu:0>, !mo.tensor<[n], si32, gpu:0>) -> !mo.tensor<[n], i1, gpu:0>
// CHECK: %[[LT:.+]] = mo.less(%[[B]], %[[A]]) : (!mo.tensor<[], si32, gpu:0>, !mo.tensor<[n], si32, gpu:0>) -> !mo.tensor<[n], i1, gpu:0>
// CHECK: %[[LE:.+]] = mo.less_equal(%[[B]], %[[B]]) : (!mo.tensor<[], si32, gpu:0>, !mo.tensor<[], si32, gpu:0>) -> !mo.tensor<[], i1, gpu:0>
// CHECK: mo.output %[[EQ]], %[[NE]], %[[GT]], %[[GE]], %[[LT]], %[[LE]] : !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[], i1, gpu:0>
mo.graph @compare<n>(%a: !mo.tensor<[n], si32, gpu:0>, %b: !mo.tensor<[], si32, gpu:0>)
    -> (!mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>,
        !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[], i1, gpu:0>) {
  %0 = mo.equal(%a, %b) : (!mo.tensor<[n], si32, gpu:0>, !mo.tensor<[], si32, gpu:0>) -> !mo.tensor<[n], i1, gpu:0>
  %1 = mo.not_equal(%b, %a) : (!mo.tensor<[], si32, gpu:0>, !mo.tensor<[n], si32, gpu:0>) -> !mo.tensor<[n], i1, gpu:0>
  %2 = mo.greater(%a, %b) : (!mo.tensor<[n], si32, gpu:0>, !mo.tensor<[], si32, gpu:0>) -> !mo.tensor<[n], i1, gpu:0>
  %3 = mo.greater_equal(%a, %a) : (!mo.tensor<[n], si32, gpu:0>, !mo.tensor<[n], si32, gpu:0>) -> !mo.tensor<[n], i1, gpu:0>
  %4 = mo.less(%b, %a) : (!mo.tensor<[], si32, gpu:0>, !mo.tensor<[n], si32, gpu:0>) -> !mo.tensor<[n], i1, gpu:0>
  %5 = mo.less_equal(%b, %b) : (!mo.tensor<[], si32, gpu:0>, !mo.tensor<[], si32, gpu:0>) -> !mo.tensor<[], i1, gpu:0>
  mo.output %0, %1, %2, %3, %4, %5 : !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[n], i1, gpu:0>, !mo.tensor<[], i1, gpu:0>
}

// Every unary op: the float-only ones on f32, abs/negative/relu on integers.
// CHECK-LABEL: mo.graph @unary<n>
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[n, 2], f32>, %[[I:[^:]+]]: !mo.tensor<[3], si32>)
// CHECK: %[[CEIL:.+]] = mo.ceil %[[X]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[COS:.+]] = mo.cos %[[CEIL]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[ERF:.+]] = mo.erf %[[COS]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[EXP:.+]] = mo.exp %[[ERF]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[FLOOR:.+]] = mo.floor %[[EXP]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[LOG:.+]] = mo.log %[[FLOOR]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[LOG1P:.+]] = mo.log1p %[[LOG]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[ROUND:.+]] = mo.round %[[LOG1P]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[RSQRT:.+]] = mo.rsqrt %[[ROUND]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[SIGMOID:.+]] = mo.sigmoid %[[RSQRT]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[SILU:.+]] = mo.silu %[[SIGMOID]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[SIN:.+]] = mo.sin %[[SILU]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[SQRT:.+]] = mo.sqrt %[[SIN]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[TANH:.+]] = mo.tanh %[[SQRT]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[TRUNC:.+]] = mo.trunc %[[TANH]] : !mo.tensor<[n, 2], f32>
// CHECK: %[[ABS:.+]] = mo.abs %[[I]] : !mo.tensor<[3], si32>
// CHECK: %[[NEG:.+]] = mo.negative %[[ABS]] : !mo.tensor<[3], si32>
// CHECK: %[[RELU:.+]] = mo.relu %[[NEG]] : !mo.tensor<[3], si32>
// CHECK: mo.output %[[TRUNC]], %[[RELU]] : !mo.tensor<[n, 2], f32>, !mo.tensor<[3], si32>
mo.graph @unary<n>(%x: !mo.tensor<[n, 2], f32>, %i: !mo.tensor<[3], si32>)
    -> (!mo.tensor<[n, 2], f32>, !mo.tensor<[3], si32>) {
  %0 = mo.ceil %x : !mo.tensor<[n, 2], f32>
  %1 = mo.cos %0 : !mo.tensor<[n, 2], f32>
  %2 = mo.erf %1 : !mo.tensor<[n, 2], f32>
  %3 = mo.exp %2 : !mo.tensor<[n, 2], f32>
  %4 = mo.floor %3 : !mo.tensor<[n, 2], f32>
  %5 = mo.log %4 : !mo.tensor<[n, 2], f32>
  %6 = mo.log1p %5 : !mo.tensor<[n, 2], f32>
  %7 = mo.round %6 : !mo.tensor<[n, 2], f32>
  %8 = mo.rsqrt %7 : !mo.tensor<[n, 2], f32>
  %9 = mo.sigmoid %8 : !mo.tensor<[n, 2], f32>
  %10 = mo.silu %9 : !mo.tensor<[n, 2], f32>
  %11 = mo.sin %10 : !mo.tensor<[n, 2], f32>
  %12 = mo.sqrt %11 : !mo.tensor<[n, 2], f32>
  %13 = mo.tanh %12 : !mo.tensor<[n, 2], f32>
  %14 = mo.trunc %13 : !mo.tensor<[n, 2], f32>
  %15 = mo.abs %i : !mo.tensor<[3], si32>
  %16 = mo.negative %15 : !mo.tensor<[3], si32>
  %17 = mo.relu %16 : !mo.tensor<[3], si32>
  mo.output %14, %17 : !mo.tensor<[n, 2], f32>, !mo.tensor<[3], si32>
}

// Shape ops and conversions: transpose, slice, broadcast_to, reshape, cast.
// CHECK-LABEL: mo.graph @shapes<n>
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[n, 4], f32>, %[[S:[^:]+]]: !mo.tensor<[], si32, gpu:0>)
// CHECK: %[[T:.+]] = mo.transpose %[[X]] [1, 0] : !mo.tensor<[n, 4], f32> -> !mo.tensor<[4, n], f32>
// CHECK: %[[SL:.+]] = mo.slice %[[T]] {starts = array<i64: 1, 0>, steps = array<i64: 2, 1>} : !mo.tensor<[4, n], f32> -> !mo.tensor<[2, n], f32>
// CHECK: %[[BC:.+]] = mo.broadcast_to %[[S]] : !mo.tensor<[], si32, gpu:0> -> !mo.tensor<[3, 2], si32, gpu:0>
// CHECK: %[[RS:.+]] = mo.reshape %[[SL]] : !mo.tensor<[2, n], f32> -> !mo.tensor<[n * 2], f32>
// CHECK: %[[CS:.+]] = mo.cast %[[BC]] : !mo.tensor<[3, 2], si32, gpu:0> -> !mo.tensor<[3, 2], f16, gpu:0>
// CHECK: mo.output %[[RS]], %[[CS]] : !mo.tensor<[n * 2], f32>, !mo.tensor<[3, 2], f16, gpu:0>
mo.graph @shapes<n>(%x: !mo.tensor<[n, 4], f32>, %s: !mo.tensor<[], si32, gpu:0>)
    -> (!mo.tensor<[n * 2], f32>, !mo.tensor<[3, 2], f16, gpu:0>) {
  %t = mo.transpose %x [1, 0] : !mo.tensor<[n, 4], f32> -> !mo.tensor<[4, n], f32>
  %sl = mo.slice %t {starts = array<i64: 1, 0>, steps = array<i64: 2, 1>} : !mo.tensor<[4, n], f32> -> !mo.tensor<[2, n], f32>
  %bc = mo.broadcast_to %s : !mo.tensor<[], si32, gpu:0> -> !mo.tensor<[3, 2], si32, gpu:0>
  %rs = mo.reshape %sl : !mo.tensor<[2, n], f32> -> !mo.tensor<[n * 2], f32>
  %cs = mo.cast %bc : !mo.tensor<[3, 2], si32, gpu:0> -> !mo.tensor<[3, 2], f16, gpu:0>
  mo.output %rs, %cs : !mo.tensor<[n * 2], f32>, !mo.tensor<[3, 2], f16, gpu:0>
}

// Every element type and dim form, including expressions with precedence.
// CHECK-LABEL: mo.graph @types<a, b>
// CHECK-SAME: !mo.tensor<[], i1>
// CHECK-SAME: !mo.tensor<[a + 1], si8>
// CHECK-SAME: !mo.tensor<[(a + 1) * b], si16>
// CHECK-SAME: !mo.tensor<[a - (b - 1)], si32>
// CHECK-SAME: !mo.tensor<[a floordiv 2], ui16>
// CHECK-SAME: !mo.tensor<[a mod 4], ui32>
// CHECK-SAME: !mo.tensor<[a * b * 2], ui64>
// CHECK-SAME: !mo.tensor<[0], f16>
// CHECK-SAME: !mo.tensor<[?, ?], bf16>
// CHECK-SAME: !mo.tensor<[6], f64>
mo.graph @types<a, b>(%t0: !mo.tensor<[], i1>, %t1: !mo.tensor<[a + 1], si8>,
                      %t2: !mo.tensor<[(a + 1) * b], si16>,
                      %t3: !mo.tensor<[a - (b - 1)], si32>,
                      %t4: !mo.tensor<[a floordiv 2], ui16>,
                      %t5: !mo.tensor<[a mod 4], ui32>,
                      %t6: !mo.tensor<[a * b * 2], ui64>,
                      %t7: !mo.tensor<[0], f16>, %t8: !mo.tensor<[?, ?], bf16>,
                      %t9: !mo.tensor<[2 * 3], f64>) {
  mo.output
}

// Dim and device attributes on their own.
// CHECK-LABEL: mo.graph @attrs
// CHECK-SAME: attributes {dim = #mo.dim_expr<mul, "n", 2 : i64>, place = #mo.device<gpu:0>}
mo.graph @attrs() attributes {dim = #mo.dim_expr<mul, "n", 2 : i64>, place = #mo.device<gpu:0>} {
  mo.output
}

// Quantized ops, every encoding.
// CHECK-LABEL: mo.graph @quant<b>
// CHECK-SAME: (%[[Q:[^:]+]]: !mo.tensor<[4, 36], ui8>, %[[X:[^:]+]]: !mo.tensor<[b, 256], f32>
// CHECK-SAME: %[[K4:[^:]+]]: !mo.tensor<[3, 144], ui8>, %[[K5:[^:]+]]: !mo.tensor<[3, 176], ui8>
// CHECK-SAME: %[[K6:[^:]+]]: !mo.tensor<[3, 210], ui8>)
// CHECK: %{{.+}} = mo.dequantize q4_0 %[[Q]] : !mo.tensor<[4, 36], ui8> -> !mo.tensor<[4, 64], f32>
// CHECK: %{{.+}} = mo.qmatmul q4_k(%[[X]], %[[K4]]) : (!mo.tensor<[b, 256], f32>, !mo.tensor<[3, 144], ui8>) -> !mo.tensor<[b, 3], f32>
// CHECK: %{{.+}} = mo.qmatmul q5_k(%[[X]], %[[K5]]) : (!mo.tensor<[b, 256], f32>, !mo.tensor<[3, 176], ui8>) -> !mo.tensor<[b, 3], f32>
// CHECK: %{{.+}} = mo.qmatmul q6_k(%[[X]], %[[K6]]) : (!mo.tensor<[b, 256], f32>, !mo.tensor<[3, 210], ui8>) -> !mo.tensor<[b, 3], f32>
mo.graph @quant<b>(%q: !mo.tensor<[4, 36], ui8>, %x: !mo.tensor<[b, 256], f32>,
                   %k4: !mo.tensor<[3, 144], ui8>, %k5: !mo.tensor<[3, 176], ui8>,
                   %k6: !mo.tensor<[3, 210], ui8>) {
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[4, 36], ui8> -> !mo.tensor<[4, 64], f32>
  %1 = mo.qmatmul q4_k(%x, %k4) : (!mo.tensor<[b, 256], f32>, !mo.tensor<[3, 144], ui8>) -> !mo.tensor<[b, 3], f32>
  %2 = mo.qmatmul q5_k(%x, %k5) : (!mo.tensor<[b, 256], f32>, !mo.tensor<[3, 176], ui8>) -> !mo.tensor<[b, 3], f32>
  %3 = mo.qmatmul q6_k(%x, %k6) : (!mo.tensor<[b, 256], f32>, !mo.tensor<[3, 210], ui8>) -> !mo.tensor<[b, 3], f32>
  mo.output
}

// Reductions (the axis kept with size 1) and scans.
// CHECK-LABEL: mo.graph @reductions<n>
// CHECK-SAME: (%[[R:[^:]+]]: !mo.tensor<[n, 4], f32>)
// CHECK: %{{.+}} = mo.reduce_sum %[[R]] {axis = 1 : i64} : !mo.tensor<[n, 4], f32> -> !mo.tensor<[n, 1], f32>
// CHECK: %{{.+}} = mo.reduce_max %[[R]] {axis = 0 : i64} : !mo.tensor<[n, 4], f32> -> !mo.tensor<[1, 4], f32>
// CHECK: %{{.+}} = mo.argmin %[[R]] {axis = 1 : i64} : !mo.tensor<[n, 4], f32> -> !mo.tensor<[n, 1], si64>
// CHECK: %{{.+}} = mo.cumsum %[[R]] {axis = 0 : i64, reverse = true} : !mo.tensor<[n, 4], f32>
// CHECK: %{{.+}} = mo.cumsum %[[R]] {axis = 1 : i64} : !mo.tensor<[n, 4], f32>
mo.graph @reductions<n>(%r: !mo.tensor<[n, 4], f32>) {
  %0 = mo.reduce_sum %r {axis = 1 : i64} : !mo.tensor<[n, 4], f32> -> !mo.tensor<[n, 1], f32>
  %1 = mo.reduce_max %r {axis = 0 : i64} : !mo.tensor<[n, 4], f32> -> !mo.tensor<[1, 4], f32>
  %2 = mo.argmin %r {axis = 1 : i64} : !mo.tensor<[n, 4], f32> -> !mo.tensor<[n, 1], si64>
  %3 = mo.cumsum %r {axis = 0 : i64, reverse = true} : !mo.tensor<[n, 4], f32>
  %4 = mo.cumsum %r {axis = 1 : i64, exclusive = false} : !mo.tensor<[n, 4], f32>
  mo.output
}

// select broadcasts its three operands.
// CHECK-LABEL: mo.graph @select<n>
// CHECK: mo.select(%{{.+}}, %{{.+}}, %{{.+}}) : (!mo.tensor<[n, 1], i1>, !mo.tensor<[n, 4], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[n, 4], f32>
mo.graph @select<n>(%c: !mo.tensor<[n, 1], i1>, %x: !mo.tensor<[n, 4], f32>, %y: !mo.tensor<[], f32>) {
  %z = mo.select(%c, %x, %y) : (!mo.tensor<[n, 1], i1>, !mo.tensor<[n, 4], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[n, 4], f32>
  mo.output
}

// concat sums the joined dim.
// CHECK-LABEL: mo.graph @concat<n>
// CHECK: mo.concat(%{{.+}}, %{{.+}}) {axis = 0 : i64} : (!mo.tensor<[n, 4], f32>, !mo.tensor<[2, 4], f32>) -> !mo.tensor<[n + 2, 4], f32>
mo.graph @concat<n>(%x: !mo.tensor<[n, 4], f32>, %y: !mo.tensor<[2, 4], f32>) {
  %z = mo.concat(%x, %y) {axis = 0 : i64} : (!mo.tensor<[n, 4], f32>, !mo.tensor<[2, 4], f32>) -> !mo.tensor<[n + 2, 4], f32>
  mo.output
}

// pad grows each dim by its paddings.
// CHECK-LABEL: mo.graph @pad<n>
// CHECK: mo.pad %{{.+}}, %{{.+}} {high = array<i64: 1, 0>, low = array<i64: 1, 2>} : (!mo.tensor<[n, 4], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[n + 2, 6], f32>
mo.graph @pad<n>(%x: !mo.tensor<[n, 4], f32>, %v: !mo.tensor<[], f32>) {
  %y = mo.pad %x, %v {low = array<i64: 1, 2>, high = array<i64: 1, 0>} : (!mo.tensor<[n, 4], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[n + 2, 6], f32>
  mo.output
}

// Convolution, pooling, indexing and shape ops.
// CHECK-LABEL: mo.graph @new_ops<n>
// CHECK: %{{.+}} = mo.conv(%{{.+}}, %{{.+}}) {dilations = array<i64: 1, 1>, num_groups = 1 : i64, paddings = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (!mo.tensor<[n, 8, 8, 3], f32>, !mo.tensor<[3, 3, 3, 4], f32>) -> !mo.tensor<[n, 8, 8, 4], f32>
// CHECK: %{{.+}} = mo.conv_transpose(%{{.+}}, %{{.+}}) {dilations = array<i64: 1, 1>, output_paddings = array<i64: 0, 0>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (!mo.tensor<[n, 8, 8, 4], f32>, !mo.tensor<[3, 3, 3, 4], f32>) -> !mo.tensor<[n, 10, 10, 3], f32>
// CHECK: %{{.+}} = mo.max_pool(%{{.+}}) {ceil_mode = false, dilations = array<i64: 1, 1>, filter_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (!mo.tensor<[n, 8, 8, 3], f32>) -> !mo.tensor<[n, 4, 4, 3], f32>
// CHECK: %{{.+}} = mo.avg_pool(%{{.+}}) {ceil_mode = false, count_boundary = true, dilations = array<i64: 1, 1>, filter_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (!mo.tensor<[n, 8, 8, 3], f32>) -> !mo.tensor<[n, 4, 4, 3], f32>
// CHECK: %{{.+}} = mo.gather(%{{.+}}, %{{.+}}) {axis = 1 : i64} : (!mo.tensor<[n, 8, 8, 3], f32>, !mo.tensor<[2], si64>) -> !mo.tensor<[n, 2, 8, 3], f32>
// CHECK: %{{.+}} = mo.reshape %{{.+}} : !mo.tensor<[2], si64> -> !mo.tensor<[1, 2], si64>
// CHECK: %{{.+}} = mo.gather_nd(%{{.+}}, %{{.+}}) {batch_dims = 0 : i64} : (!mo.tensor<[n, 8, 8, 3], f32>, !mo.tensor<[1, 2], si64>) -> !mo.tensor<[1, 8, 3], f32>
// CHECK: %{{.+}} = mo.cast %{{.+}} : !mo.tensor<[n, 2, 8, 3], f32> -> !mo.tensor<[n, 2, 8, 3], si32>
// CHECK: %{{.+}} = mo.scatter max(%{{.+}}, %{{.+}}, %{{.+}}) {axis = 0 : i64} : (!mo.tensor<[n, 2, 8, 3], f32>, !mo.tensor<[n, 2, 8, 3], f32>, !mo.tensor<[n, 2, 8, 3], si32>) -> !mo.tensor<[n, 2, 8, 3], f32>
// CHECK: %{{.+}} = mo.scatter_nd mul(%{{.+}}, %{{.+}}, %{{.+}}) : (!mo.tensor<[n, 8, 8, 3], f32>, !mo.tensor<[1, 8, 3], f32>, !mo.tensor<[1, 2], si64>) -> !mo.tensor<[n, 8, 8, 3], f32>
// CHECK: %{{.+}}, %{{.+}} = mo.top_k(%{{.+}}) {k = 2 : i64, largest = false} : (!mo.tensor<[n, 8, 8, 3], f32>) -> (!mo.tensor<[n, 8, 8, 2], f32>, !mo.tensor<[n, 8, 8, 2], si64>)
// CHECK: %{{.+}} = mo.range(%{{.+}}, %{{.+}}) : (!mo.tensor<[], si64>, !mo.tensor<[], si64>) -> !mo.tensor<[n * 2], si64>
// CHECK: %{{.+}} = mo.shape_to_tensor [n, 4, n * 2] : !mo.tensor<[3], si64>
// CHECK: %{{.+}} = mo.rebind %{{.+}} {message = "twice"} : !mo.tensor<[n * 2], si64> -> !mo.tensor<[2 * n], si64>
mo.graph @new_ops<n>(%x: !mo.tensor<[n, 8, 8, 3], f32>, %w: !mo.tensor<[3, 3, 3, 4], f32>, %i: !mo.tensor<[2], si64>, %s: !mo.tensor<[], si64>) {
  %c = mo.conv(%x, %w) {dilations = array<i64: 1, 1>, num_groups = 1 : i64, paddings = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (!mo.tensor<[n, 8, 8, 3], f32>, !mo.tensor<[3, 3, 3, 4], f32>) -> !mo.tensor<[n, 8, 8, 4], f32>
  %t = mo.conv_transpose(%c, %w) {dilations = array<i64: 1, 1>, output_paddings = array<i64: 0, 0>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (!mo.tensor<[n, 8, 8, 4], f32>, !mo.tensor<[3, 3, 3, 4], f32>) -> !mo.tensor<[n, 10, 10, 3], f32>
  %m = mo.max_pool(%x) {ceil_mode = false, dilations = array<i64: 1, 1>, filter_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (!mo.tensor<[n, 8, 8, 3], f32>) -> !mo.tensor<[n, 4, 4, 3], f32>
  %a = mo.avg_pool(%x) {ceil_mode = false, count_boundary = true, dilations = array<i64: 1, 1>, filter_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (!mo.tensor<[n, 8, 8, 3], f32>) -> !mo.tensor<[n, 4, 4, 3], f32>
  %g = mo.gather(%x, %i) {axis = 1 : i64} : (!mo.tensor<[n, 8, 8, 3], f32>, !mo.tensor<[2], si64>) -> !mo.tensor<[n, 2, 8, 3], f32>
  %gi = mo.reshape %i : !mo.tensor<[2], si64> -> !mo.tensor<[1, 2], si64>
  %gn = mo.gather_nd(%x, %gi) {batch_dims = 0 : i64} : (!mo.tensor<[n, 8, 8, 3], f32>, !mo.tensor<[1, 2], si64>) -> !mo.tensor<[1, 8, 3], f32>
  %gc = mo.cast %g : !mo.tensor<[n, 2, 8, 3], f32> -> !mo.tensor<[n, 2, 8, 3], si32>
  %sc = mo.scatter max(%g, %g, %gc) {axis = 0 : i64} : (!mo.tensor<[n, 2, 8, 3], f32>, !mo.tensor<[n, 2, 8, 3], f32>, !mo.tensor<[n, 2, 8, 3], si32>) -> !mo.tensor<[n, 2, 8, 3], f32>
  %sn = mo.scatter_nd mul(%x, %gn, %gi) : (!mo.tensor<[n, 8, 8, 3], f32>, !mo.tensor<[1, 8, 3], f32>, !mo.tensor<[1, 2], si64>) -> !mo.tensor<[n, 8, 8, 3], f32>
  %v, %k = mo.top_k(%x) {k = 2 : i64, largest = false} : (!mo.tensor<[n, 8, 8, 3], f32>) -> (!mo.tensor<[n, 8, 8, 2], f32>, !mo.tensor<[n, 8, 8, 2], si64>)
  %r = mo.range(%s, %s) : (!mo.tensor<[], si64>, !mo.tensor<[], si64>) -> !mo.tensor<[n * 2], si64>
  %st = mo.shape_to_tensor [n, 4, n * 2] : !mo.tensor<[3], si64>
  %rb = mo.rebind %r {message = "twice"} : !mo.tensor<[n * 2], si64> -> !mo.tensor<[2 * n], si64>
  mo.output
}

// Prints, with and without a tensor.
// CHECK-LABEL: mo.graph @prints
// CHECK: mo.print {label = "start"}
// CHECK: mo.print %{{.+}} {label = "x"} : !mo.tensor<[n], f32>
mo.graph @prints<n>(%x: !mo.tensor<[n], f32>) {
  mo.print {label = "start"}
  mo.print %x {label = "x"} : !mo.tensor<[n], f32>
  mo.output
}

// Custom kernels, with parameters.
// CHECK-LABEL: mo.graph @kernels
// CHECK: %{{.+}} = mo.custom "scale"(%{{.+}}) {parameters = {alpha = 2.000000e+00 : f64, on = true}} : (!mo.tensor<[n], f32>) -> !mo.tensor<[n], f32>
// CHECK: mo.inplace_custom "fill"(%{{.+}}) : (!mo.buffer<[n], f32>) -> ()
mo.graph @kernels<n>(%x: !mo.tensor<[n], f32>, %b: !mo.buffer<[n], f32>) {
  %y = mo.custom "scale"(%x) {parameters = {alpha = 2.0 : f64, on = true}} : (!mo.tensor<[n], f32>) -> !mo.tensor<[n], f32>
  mo.inplace_custom "fill"(%b) : (!mo.buffer<[n], f32>) -> ()
  mo.output
}

// nonzero binds its result's first dim.
// CHECK-LABEL: mo.graph @coordinates
// CHECK: %{{.+}} = mo.nonzero %{{.+}} : !mo.tensor<[n, 3], f32> -> !mo.tensor<[k, 2], si64>
mo.graph @coordinates<n, k>(%x: !mo.tensor<[n, 3], f32>) -> !mo.tensor<[k, 2], si64> {
  %i = mo.nonzero %x : !mo.tensor<[n, 3], f32> -> !mo.tensor<[k, 2], si64>
  mo.output %i : !mo.tensor<[k, 2], si64>
}

// Non-maximum suppression binds the selected count.
// CHECK-LABEL: mo.graph @suppress
// CHECK: %{{.+}} = mo.non_maximum_suppression(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) : (!mo.tensor<[1, n, 4], f32>, !mo.tensor<[1, 2, n], f32>, !mo.tensor<[], si64>, !mo.tensor<[], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[k, 3], si64>
mo.graph @suppress<n, k>(%b: !mo.tensor<[1, n, 4], f32>, %s: !mo.tensor<[1, 2, n], f32>, %m: !mo.tensor<[], si64>, %t: !mo.tensor<[], f32>) -> !mo.tensor<[k, 3], si64> {
  %r = mo.non_maximum_suppression(%b, %s, %m, %t, %t) : (!mo.tensor<[1, n, 4], f32>, !mo.tensor<[1, 2, n], f32>, !mo.tensor<[], si64>, !mo.tensor<[], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[k, 3], si64>
  mo.output %r : !mo.tensor<[k, 3], si64>
}

// A graph-local buffer.
// CHECK-LABEL: mo.graph @local_buffer
// CHECK: %{{.+}} = mo.buffer.create : !mo.buffer<[n, 2], f32>
mo.graph @local_buffer<n>(%x: !mo.tensor<[n], f32>) {
  %b = mo.buffer.create : !mo.buffer<[n, 2], f32>
  mo.output
}

// Control flow: mo.if with both regions, mo.while with named carried values.
// CHECK-LABEL: mo.graph @control
// CHECK: %{{.+}} = mo.if %{{.+}} : !mo.tensor<[], i1> -> (!mo.tensor<[n], f32>) {
// CHECK: mo.yield %{{.+}} : !mo.tensor<[n], f32>
// CHECK: } else {
// CHECK: %{{.+}}:2 = mo.while (%[[A:.+]] = %{{.+}}, %[[B:.+]] = %{{.+}}) : (!mo.tensor<[], si64>, !mo.tensor<[n], f32>) -> (!mo.tensor<[], si64>, !mo.tensor<[n], f32>) {
// CHECK: mo.less(%[[A]], %{{.+}})
// CHECK: } do (%[[C:.+]]: !mo.tensor<[], si64>, %[[D:.+]]: !mo.tensor<[n], f32>) {
// CHECK: mo.yield %[[C]], %[[D]] : !mo.tensor<[], si64>, !mo.tensor<[n], f32>
mo.graph @control<n>(%p: !mo.tensor<[], i1>, %x: !mo.tensor<[n], f32>, %i: !mo.tensor<[], si64>) {
  %r = mo.if %p : !mo.tensor<[], i1> -> (!mo.tensor<[n], f32>) {
    mo.yield %x : !mo.tensor<[n], f32>
  } else {
    mo.yield %x : !mo.tensor<[n], f32>
  }
  %w:2 = mo.while (%a = %i, %b = %r) : (!mo.tensor<[], si64>, !mo.tensor<[n], f32>) -> (!mo.tensor<[], si64>, !mo.tensor<[n], f32>) {
    %c = mo.less(%a, %i) : (!mo.tensor<[], si64>, !mo.tensor<[], si64>) -> !mo.tensor<[], i1>
    mo.yield %c : !mo.tensor<[], i1>
  } do (%c: !mo.tensor<[], si64>, %d: !mo.tensor<[n], f32>) {
    mo.yield %c, %d : !mo.tensor<[], si64>, !mo.tensor<[n], f32>
  }
  mo.output
}
