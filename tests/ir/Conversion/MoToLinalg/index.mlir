// mo-lower-to-linalg, indexing: gathers are parallel generics reading with
// tensor.extract, scatters and top_k loop nests over tensors (updated in place
// after bufferization). An index never reads or writes out of bounds.
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s

// gather: one parallel generic reading the index, wrapping a negative one,
// clamping, and reading the input only when its axis is not empty.
// CHECK-LABEL: func.func @gather(
// CHECK: %[[N:.+]] = tensor.dim %{{.+}}, %c0 : tensor<?x4xf32>
// CHECK: %[[SOME:.+]] = arith.cmpi sgt, %[[N]], %c0 : index
// CHECK: linalg.generic {{.+}} ins(%{{.+}} : tensor<2x3xi32>) outs(%{{.+}} : tensor<2x3x4xf32>)
// CHECK: %[[J:.+]] = linalg.index 2 : index
// CHECK: %[[I:.+]] = arith.index_cast %{{.+}} : i32 to index
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[I]], %c0 : index
// CHECK: %[[UP:.+]] = arith.addi %[[I]], %[[N]] : index
// CHECK: %[[W:.+]] = arith.select %[[NEG]], %[[UP]], %[[I]] : index
// CHECK: %[[LO:.+]] = arith.maxsi %[[W]], %c0 : index
// CHECK: %[[C:.+]] = arith.minsi %[[LO]], %{{.+}} : index
// CHECK: scf.if %[[SOME]] -> (f32) {
// CHECK: tensor.extract %{{.+}}[%[[C]], %[[J]]] : tensor<?x4xf32>
mo.graph @gather<n>(%x: !mo.tensor<[n, 4], f32>, %i: !mo.tensor<[2, 3], si32>) -> !mo.tensor<[2, 3, 4], f32> {
  %y = mo.gather(%x, %i) {axis = 0 : i64} : (!mo.tensor<[n, 4], f32>, !mo.tensor<[2, 3], si32>) -> !mo.tensor<[2, 3, 4], f32>
  mo.output %y : !mo.tensor<[2, 3, 4], f32>
}

// -----

// gather_nd: each K-vector read element by element (unsigned: zero-extended).
// CHECK-LABEL: func.func @gather_nd(
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<3x6xf32>)
// CHECK: %[[R:.+]] = linalg.index 0 : index
// CHECK: tensor.extract %{{.+}}[%[[R]], %c0] : tensor<3x2xi8>
// CHECK: arith.index_castui %{{.+}} : i8 to index
// CHECK: tensor.extract %{{.+}}[%[[R]], %c1] : tensor<3x2xi8>
// CHECK: tensor.extract %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] : tensor<4x5x6xf32>
mo.graph @gather_nd(%x: !mo.tensor<[4, 5, 6], f32>, %i: !mo.tensor<[3, 2], ui8>) -> !mo.tensor<[3, 6], f32> {
  %y = mo.gather_nd(%x, %i) {batch_dims = 0 : i64} : (!mo.tensor<[4, 5, 6], f32>, !mo.tensor<[3, 2], ui8>) -> !mo.tensor<[3, 6], f32>
  mo.output %y : !mo.tensor<[3, 6], f32>
}

// -----

// scatter: loops over the updates carrying the result; an update out of range
// is dropped.
// CHECK-LABEL: func.func @scatter(
// CHECK: scf.for %[[A:.+]] = %c0 to %{{.+}} step %c1 iter_args(%{{.+}} = %{{.+}}) -> (tensor<2x5xf32>)
// CHECK: scf.for %[[B:.+]] = %c0 to %{{.+}} step %c1 iter_args(%[[R:.+]] = %{{.+}}) -> (tensor<2x5xf32>)
// CHECK: tensor.extract %{{.+}}[%[[A]], %[[B]]] : tensor<2x3xi64>
// CHECK: %[[OK:.+]] = arith.andi
// CHECK: %[[U:.+]] = tensor.extract %{{.+}}[%[[A]], %[[B]]] : tensor<2x3xf32>
// CHECK: scf.if %[[OK]] -> (tensor<2x5xf32>) {
// CHECK: %[[OLD:.+]] = tensor.extract %[[R]][%[[A]], %[[I:.+]]] : tensor<2x5xf32>
// CHECK: %[[NEW:.+]] = arith.addf %[[OLD]], %[[U]] : f32
// CHECK: tensor.insert %[[NEW]] into %[[R]][%[[A]], %[[I]]] : tensor<2x5xf32>
// CHECK: } else {
// CHECK: scf.yield %[[R]] : tensor<2x5xf32>
mo.graph @scatter(%x: !mo.tensor<[2, 5], f32>, %u: !mo.tensor<[2, 3], f32>, %i: !mo.tensor<[2, 3], si64>) -> !mo.tensor<[2, 5], f32> {
  %y = mo.scatter add(%x, %u, %i) {axis = 1 : i64} : (!mo.tensor<[2, 5], f32>, !mo.tensor<[2, 3], f32>, !mo.tensor<[2, 3], si64>) -> !mo.tensor<[2, 5], f32>
  mo.output %y : !mo.tensor<[2, 5], f32>
}

// -----

// scatter_nd max on signed integers: arith.maxsi.
// CHECK-LABEL: func.func @scatter_nd(
// CHECK: tensor.extract %{{.+}}[%{{.+}}, %c0] : tensor<2x1xi64>
// CHECK: arith.maxsi %{{.+}}, %{{.+}} : i32
// CHECK: tensor.insert
mo.graph @scatter_nd(%x: !mo.tensor<[4, 3], si32>, %u: !mo.tensor<[2, 3], si32>, %i: !mo.tensor<[2, 1], si64>) -> !mo.tensor<[4, 3], si32> {
  %y = mo.scatter_nd max(%x, %u, %i) : (!mo.tensor<[4, 3], si32>, !mo.tensor<[2, 3], si32>, !mo.tensor<[2, 1], si64>) -> !mo.tensor<[4, 3], si32>
  mo.output %y : !mo.tensor<[4, 3], si32>
}

// -----

// top_k: per row, an insertion into the sorted k best so far.
// CHECK-LABEL: func.func @top_k(
// CHECK: scf.for %[[ROW:.+]] = %c0 to %{{.+}} step %c1 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<?x2xf32>, tensor<?x2xi64>)
// CHECK: scf.for %[[J:.+]] = %c0 to %c8 step %c1
// CHECK: tensor.extract %{{.+}}[%[[ROW]], %[[J]]] : tensor<?x8xf32>
// CHECK: arith.minsi %[[J]], %c2 : index
// CHECK: arith.cmpf ogt
// CHECK: scf.if
// CHECK: scf.for
// CHECK: arith.index_cast %[[J]] : index to i64
mo.graph @top_k<n>(%x: !mo.tensor<[n, 8], f32>) -> (!mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], si64>) {
  %v, %i = mo.top_k(%x) {k = 2 : i64, largest = true} : (!mo.tensor<[n, 8], f32>) -> (!mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], si64>)
  mo.output %v, %i : !mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], si64>
}

// -----

// roi_align: a parallel generic over [M, oh, ow, C]; each element loops over
// its bin's sample grid (adaptive here: ceil of the bin size).
// CHECK-LABEL: func.func @roi_align(
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<?x2x2x3xf32>)
// CHECK: math.ceil
// CHECK: scf.for {{.+}} -> (f32)
// CHECK: scf.for {{.+}} -> (f32)
// CHECK-COUNT-4: tensor.extract %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : tensor<2x8x8x3xf32>
mo.graph @roi_align<m>(%x: !mo.tensor<[2, 8, 8, 3], f32>, %r: !mo.tensor<[m, 5], f32>) -> !mo.tensor<[m, 2, 2, 3], f32> {
  %y = mo.roi_align(%x, %r) {aligned = true, mode = "avg", output_height = 2 : i64, output_width = 2 : i64, sampling_ratio = 0 : i64, spatial_scale = 0.5 : f64} : (!mo.tensor<[2, 8, 8, 3], f32>, !mo.tensor<[m, 5], f32>) -> !mo.tensor<[m, 2, 2, 3], f32>
  mo.output %y : !mo.tensor<[m, 2, 2, 3], f32>
}

// -----

// nonzero: a count, then a loop nest inserting coordinates at a running row,
// marked with the dim it binds; later ops size k from it; the entry writes
// the result into a prefix of its output and reports k after the record's two.
// CHECK-LABEL: func.func @nonzero(
// CHECK-SAME: %{{.+}}: memref<3xi64> {mo.status}
// CHECK-SAME: mo.bound_dims = ["k"]
// CHECK: linalg.generic {{.+}} iterator_types = ["reduction", "reduction"]
// CHECK: arith.cmpf une
// CHECK: %[[ROWS:.+]] = tensor.empty(%{{.+}}) : tensor<?x2xi64>
// CHECK: %[[NEST:.+]]:2 = scf.for {{.+}} iter_args(%{{.+}} = %[[ROWS]], %{{.+}} = %c0) -> (tensor<?x2xi64>, index)
// CHECK: } {mo.binds = "k"}
// CHECK: %[[K:.+]] = tensor.dim %[[NEST]]#0, %c0 : tensor<?x2xi64>
// CHECK: %[[K64:.+]] = arith.index_cast %[[K]] : index to i64
// CHECK: memref.store %[[K64]], %{{.+}}[%c2] : memref<3xi64>
// CHECK: %[[FITS:.+]] = arith.cmpi ule, %[[K]], %{{.+}} : index
// CHECK: scf.if %[[FITS]] {
// CHECK: memref.subview
// CHECK: bufferization.materialize_in_destination
mo.graph @nonzero<n, k>(%x: !mo.tensor<[n, 3], f32>) -> !mo.tensor<[k, 2], si64> {
  %i = mo.nonzero %x : !mo.tensor<[n, 3], f32> -> !mo.tensor<[k, 2], si64>
  mo.output %i : !mo.tensor<[k, 2], si64>
}

// -----

// non_maximum_suppression: per (batch, class) a scf.while picking the best
// free box and suppressing its overlaps; the prefix of a B * C * N row
// buffer is the result, marked with the dim it binds.
// CHECK-LABEL: func.func @nms(
// CHECK: tensor.empty(%{{.+}}) : tensor<?x3xi64>
// CHECK: scf.while
// CHECK: arith.cmpf ogt
// CHECK: scf.condition
// CHECK: } do {
// CHECK: arith.divf
// CHECK: tensor.extract_slice %{{.+}}[0, 0] [%{{.+}}, 3] [1, 1] {mo.binds = "k"} : tensor<?x3xi64> to tensor<?x3xi64>
mo.graph @nms<n, k>(%b: !mo.tensor<[1, n, 4], f32>, %s: !mo.tensor<[1, 2, n], f32>, %m: !mo.tensor<[], si64>, %t: !mo.tensor<[], f32>) -> !mo.tensor<[k, 3], si64> {
  %r = mo.non_maximum_suppression(%b, %s, %m, %t, %t) : (!mo.tensor<[1, n, 4], f32>, !mo.tensor<[1, 2, n], f32>, !mo.tensor<[], si64>, !mo.tensor<[], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[k, 3], si64>
  mo.output %r : !mo.tensor<[k, 3], si64>
}
