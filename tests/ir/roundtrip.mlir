// Every mo type and op prints and parses back identically in pretty, generic
// and bytecode form.
// RUN: mo-opt %s | mo-opt | FileCheck %s
// RUN: mo-opt %s --mlir-print-op-generic | mo-opt | FileCheck %s
// RUN: mo-opt %s --emit-bytecode | mo-opt | FileCheck %s

// CHECK-LABEL: mo.graph @block<batch>
// CHECK-SAME: (%[[X:.+]]: !mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32> private {
mo.graph private @block<batch>(%x: !mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32> {
  // CHECK: %[[W:.+]] = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
  %w = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
  // CHECK: mo.mul(%[[X]], %[[W]]) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  %y = mo.mul(%x, %w) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  mo.output %y : !mo.tensor<[batch, 4], f32>
}

// CHECK-LABEL: mo.graph @main<batch, seq>
// CHECK-SAME: !mo.tensor<[batch, 4], f32>, %{{.+}}: !mo.tensor<[batch * seq, ?], si64, gpu:1>
// CHECK-SAME: !mo.buffer<[8], ui8, cpu:0>, %{{.+}}: !mo.tensor<[4, 3], f32>
// CHECK-SAME: -> (!mo.tensor<[batch, 4], f32>, !mo.chain)
// CHECK-SAME: attributes {note = "kept"}
mo.graph @main<batch, seq>(%x: !mo.tensor<[batch, 4], f32>,
                           %i: !mo.tensor<[batch * seq, ?], si64, gpu:1>,
                           %b: !mo.buffer<[8], ui8, cpu:0>,
                           %mat: !mo.tensor<[4, 3], f32>)
    -> (!mo.tensor<[batch, 4], f32>, !mo.chain) attributes {note = "kept"} {
  // CHECK: mo.chain.create
  %chain = mo.chain.create
  // CHECK: mo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32> : !mo.tensor<[4], f32>
  %c = mo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> : !mo.tensor<[4], f32>
  // CHECK: mo.call @block(%{{.+}}) {prefix = "layers.0."} : (!mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32>
  %0 = mo.call @block(%x) {prefix = "layers.0."} : (!mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32>
  // CHECK: mo.call @block(%{{.+}}) : (!mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32>
  %1 = mo.call @block(%0) : (!mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32>
  // CHECK: mo.add
  %2 = mo.add(%1, %c) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  // CHECK: mo.sub
  %3 = mo.sub(%2, %c) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  // CHECK: mo.div
  %4 = mo.div(%3, %c) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  // CHECK: mo.max
  %5 = mo.max(%4, %c) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  // CHECK: mo.min
  %6 = mo.min(%5, %c) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[batch, 4], f32>
  // CHECK: mo.mutable.load %{{.+}} : !mo.buffer<[8], ui8, cpu:0> -> !mo.tensor<[8], ui8, cpu:0>
  %l = mo.mutable.load %b : !mo.buffer<[8], ui8, cpu:0> -> !mo.tensor<[8], ui8, cpu:0>
  // CHECK: mo.mutable.store %{{.+}}, %{{.+}} : !mo.tensor<[8], ui8, cpu:0>, !mo.buffer<[8], ui8, cpu:0>
  mo.mutable.store %l, %b : !mo.tensor<[8], ui8, cpu:0>, !mo.buffer<[8], ui8, cpu:0>
  // CHECK: mo.mutable.store %{{.+}}, %{{.+}} {starts = array<i64: 2>, steps = array<i64: 3>} : !mo.tensor<[2], ui8, cpu:0>, !mo.buffer<[8], ui8, cpu:0>
  %s = mo.constant dense<[1, 2]> : tensor<2xui8> : !mo.tensor<[2], ui8, cpu:0>
  mo.mutable.store %s, %b {starts = array<i64: 2>, steps = array<i64: 3>} : !mo.tensor<[2], ui8, cpu:0>, !mo.buffer<[8], ui8, cpu:0>
  // CHECK: mo.matmul
  %mm = mo.matmul(%x, %mat) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4, 3], f32>) -> !mo.tensor<[batch, 3], f32>
  // CHECK: mo.reshape %{{.+}} : !mo.tensor<[batch, 3], f32> -> !mo.tensor<[batch * 3], f32>
  %rs = mo.reshape %mm : !mo.tensor<[batch, 3], f32> -> !mo.tensor<[batch * 3], f32>
  // CHECK: mo.cast %{{.+}} : !mo.tensor<[batch * 3], f32> -> !mo.tensor<[batch * 3], bf16>
  %cs = mo.cast %rs : !mo.tensor<[batch * 3], f32> -> !mo.tensor<[batch * 3], bf16>
  // CHECK: mo.exp %{{.+}} : !mo.tensor<[batch * 3], bf16>
  %ex = mo.exp %cs : !mo.tensor<[batch * 3], bf16>
  // CHECK: mo.relu %{{.+}} : !mo.tensor<[batch * 3], bf16>
  %re = mo.relu %ex : !mo.tensor<[batch * 3], bf16>
  // CHECK: mo.output %{{.+}}, %{{.+}} : !mo.tensor<[batch, 4], f32>, !mo.chain
  mo.output %6, %chain : !mo.tensor<[batch, 4], f32>, !mo.chain
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
// CHECK-SAME: dim = #mo.dim_expr<mul, "n", 2 : i64>
// CHECK-SAME: place = #mo.device<gpu:0>
mo.graph @attrs() attributes {dim = #mo.dim_expr<mul, "n", 2 : i64>, place = #mo.device<gpu:0>} {
  mo.output
}

// Quantized ops, every encoding.
// CHECK-LABEL: mo.graph @quant
// CHECK: mo.dequantize q4_0 %{{.+}} : !mo.tensor<[4, 36], ui8> -> !mo.tensor<[4, 64], f32>
// CHECK: mo.qmatmul q4_k(%{{.+}}, %{{.+}}) : (!mo.tensor<[b, 256], f32>, !mo.tensor<[3, 144], ui8>) -> !mo.tensor<[b, 3], f32>
// CHECK: mo.qmatmul q5_k
// CHECK: mo.qmatmul q6_k
mo.graph @quant<b>(%q: !mo.tensor<[4, 36], ui8>, %x: !mo.tensor<[b, 256], f32>,
                   %k4: !mo.tensor<[3, 144], ui8>, %k5: !mo.tensor<[3, 176], ui8>,
                   %k6: !mo.tensor<[3, 210], ui8>) {
  %0 = mo.dequantize q4_0 %q : !mo.tensor<[4, 36], ui8> -> !mo.tensor<[4, 64], f32>
  %1 = mo.qmatmul q4_k(%x, %k4) : (!mo.tensor<[b, 256], f32>, !mo.tensor<[3, 144], ui8>) -> !mo.tensor<[b, 3], f32>
  %2 = mo.qmatmul q5_k(%x, %k5) : (!mo.tensor<[b, 256], f32>, !mo.tensor<[3, 176], ui8>) -> !mo.tensor<[b, 3], f32>
  %3 = mo.qmatmul q6_k(%x, %k6) : (!mo.tensor<[b, 256], f32>, !mo.tensor<[3, 210], ui8>) -> !mo.tensor<[b, 3], f32>
  mo.output
}
