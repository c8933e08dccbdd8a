// mo-lower-to-linalg, control flow: mo.if becomes scf.if on the extracted
// bool, mo.while scf.while (the condition region's yield an scf.condition that
// forwards the carried tensors).
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s

// CHECK-LABEL: func.func @cond(
// CHECK: %[[B:.+]] = tensor.extract %{{.+}}[] : tensor<i8>
// CHECK: %[[P:.+]] = arith.trunci %[[B]] : i8 to i1
// CHECK: %[[R:.+]] = scf.if %[[P]] -> (tensor<?xf32>) {
// CHECK: linalg.generic
// CHECK: scf.yield %{{.+}} : tensor<?xf32>
// CHECK: } else {
// CHECK: scf.yield %{{.+}} : tensor<?xf32>
// CHECK: bufferization.materialize_in_destination %[[R]]
mo.graph @cond<n>(%p: !mo.tensor<[], i1>, %x: !mo.tensor<[n], f32>) -> !mo.tensor<[n], f32> {
  %r = mo.if %p : !mo.tensor<[], i1> -> (!mo.tensor<[n], f32>) {
    %y = mo.add(%x, %x) : (!mo.tensor<[n], f32>, !mo.tensor<[n], f32>) -> !mo.tensor<[n], f32>
    mo.yield %y : !mo.tensor<[n], f32>
  } else {
    mo.yield %x : !mo.tensor<[n], f32>
  }
  mo.output %r : !mo.tensor<[n], f32>
}

// -----

// CHECK-LABEL: func.func @loop(
// CHECK: %[[L:.+]]:2 = scf.while (%[[I:.+]] = %{{.+}}, %[[V:.+]] = %{{.+}}) : (tensor<i64>, tensor<4xf32>) -> (tensor<i64>, tensor<4xf32>) {
// CHECK: arith.cmpi slt
// CHECK: %[[C:.+]] = arith.trunci %{{.+}} : i8 to i1
// CHECK: scf.condition(%[[C]]) %[[I]], %[[V]] : tensor<i64>, tensor<4xf32>
// CHECK: } do {
// CHECK: ^bb0(%{{.+}}: tensor<i64>, %{{.+}}: tensor<4xf32>):
// CHECK: arith.addi
// CHECK: arith.addf
// CHECK: scf.yield %{{.+}}, %{{.+}} : tensor<i64>, tensor<4xf32>
mo.graph @loop(%x: !mo.tensor<[4], f32>, %lim: !mo.tensor<[], si64>) -> (!mo.tensor<[], si64>, !mo.tensor<[4], f32>) {
  %zero = mo.constant dense<0> : tensor<si64> : !mo.tensor<[], si64>
  %one = mo.constant dense<1> : tensor<si64> : !mo.tensor<[], si64>
  %i, %v = mo.while (%a = %zero, %b = %x) : (!mo.tensor<[], si64>, !mo.tensor<[4], f32>) -> (!mo.tensor<[], si64>, !mo.tensor<[4], f32>) {
    %c = mo.less(%a, %lim) : (!mo.tensor<[], si64>, !mo.tensor<[], si64>) -> !mo.tensor<[], i1>
    mo.yield %c : !mo.tensor<[], i1>
  } do (%a2: !mo.tensor<[], si64>, %b2: !mo.tensor<[4], f32>) {
    %n = mo.add(%a2, %one) : (!mo.tensor<[], si64>, !mo.tensor<[], si64>) -> !mo.tensor<[], si64>
    %d = mo.add(%b2, %b2) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
    mo.yield %n, %d : !mo.tensor<[], si64>, !mo.tensor<[4], f32>
  }
  mo.output %i, %v : !mo.tensor<[], si64>, !mo.tensor<[4], f32>
}
