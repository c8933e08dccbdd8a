// mo-lower-to-linalg, reduce: reductions are reduction linalg.generics plus an
// expand_shape that keeps the axis; cumsum an scf.for scan.
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s

// Reductions: a reduction linalg.generic over the axis (so that elementwise
// producers can fuse into it) into an identity-filled init, then
// expand_shape puts the axis back with size 1; f16 sums accumulate in f32;
// the mean divides by the axis' size; argmax carries (best, index) through a
// linalg.generic that reads the axis' index. A float sum may be
// reassociated (LLVM vectorizes it into partial sums per lane).
// CHECK-LABEL: func.func @reductions(
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<?xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%[[X:.+]] : tensor<?x4xf16>) outs(%[[INIT]] : tensor<?xf32>)
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.addf %{{.+}}, %{{.+}} fastmath<reassoc> : f32
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

// A max only ever subtracted from the values it reduces (softmax's shift)
// combines with nnan and nsz: a NaN among them makes its row NaN through the
// difference whatever the max is, and LLVM's max then is one instruction. A
// max used otherwise keeps IEEE maximum's NaN and signed-zero semantics.
// CHECK-LABEL: func.func @shift(
// CHECK: linalg.generic
// CHECK: arith.maximumf %{{.+}}, %{{.+}} fastmath<reassoc,nnan,nsz> : f32
// CHECK: linalg.generic
// CHECK: arith.maximumf %{{.+}}, %{{.+}} fastmath<reassoc> : f32
mo.graph @shift<n>(%x: !mo.tensor<[n, 4], f32>) -> (!mo.tensor<[n, 4], f32>, !mo.tensor<[n, 1], f32>) {
  %m = mo.reduce_max %x {axis = 1 : i64} : !mo.tensor<[n, 4], f32> -> !mo.tensor<[n, 1], f32>
  %d = mo.sub(%x, %m) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[n, 1], f32>) -> !mo.tensor<[n, 4], f32>
  %y = mo.reduce_max %d {axis = 1 : i64} : !mo.tensor<[n, 4], f32> -> !mo.tensor<[n, 1], f32>
  mo.output %d, %y : !mo.tensor<[n, 4], f32>, !mo.tensor<[n, 1], f32>
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
