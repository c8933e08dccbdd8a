// Regression: bool + bool is logical or (as numpy), not i1 addition (xor).
// RUN: mo-opt %s --mo-lower-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @bool_add(
// CHECK-NOT: arith.addi
// CHECK: arith.ori %{{.+}}, %{{.+}} : i1
mo.graph @bool_add(%x: !mo.tensor<[4], i1>, %y: !mo.tensor<[4], i1>) -> !mo.tensor<[4], i1> {
  %0 = mo.add(%x, %y) : (!mo.tensor<[4], i1>, !mo.tensor<[4], i1>) -> !mo.tensor<[4], i1>
  mo.output %0 : !mo.tensor<[4], i1>
}
