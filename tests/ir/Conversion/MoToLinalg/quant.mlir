// Quantized ops lower to kernels that read the packed bytes directly:
// dequantize decodes each row's blocks into vectors and writes them;
// qmatmul decodes each weight block into vectors and multiplies them in
// registers, never building the float32 weight (with many lhs rows, a panel
// of it at a time, in cache).
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --canonicalize --cse | FileCheck %s

// Weight rows in chunks of 64 across the threads; lhs rows in tiles of 4,
// then one at a time; each tile 4 weight rows wide, K walked a block at a
// time into 4 x 4 accumulators of 16 lanes, summed once and written as 4
// columns (the chunk's last, 2 wide, masked).
// CHECK-LABEL: func.func @qmm(
// CHECK: %[[X:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<?x64xf32>
// CHECK: %[[W:.+]] = tensor.cast %{{.+}} : tensor<?x?xi8> to tensor<130x36xi8>
// CHECK-NOT: linalg.generic
// CHECK-NOT: x64xf32>
// CHECK: scf.forall (%{{.+}}) in (3) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<?x130xf32>)
// CHECK: %[[CHUNK:.+]] = tensor.extract_slice %[[OUT]]
// A run-time row count: the weights decoded into panels from 64 rows (Q4_0)
// on; below, each tile decodes its own.
// CHECK: %[[MANY:.+]] = arith.cmpi uge, %{{.+}}, %c64 : index
// CHECK: scf.if %[[MANY]] -> (tensor<?x?xf32>) {
// CHECK: tensor.empty() : tensor<64x64xf32>
// CHECK: } else {
// CHECK: scf.for %{{.+}} step %c4 iter_args
// CHECK: scf.for %{{.+}} step %c4 iter_args
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: arith.bitcast %{{.+}} : i16 to f16
// CHECK: vector.transfer_read %[[X]]{{.+}} : tensor<?x64xf32>, vector<16xf32>
// CHECK: vector.transfer_read %[[W]]{{.+}} : tensor<130x36xi8>, vector<16xi8>
// CHECK: arith.sitofp %{{.+}} : vector<16xi32> to vector<16xf32>
// CHECK: vector.fma
// CHECK: vector.reduction <add>, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
// CHECK: vector.from_elements {{.+}} : vector<4xf32>
// CHECK-NOT: in_bounds = [true]
// CHECK: vector.transfer_write %{{.+}} : vector<4xf32>, tensor<?x?xf32>
// The rows past the last tile of 4, one at a time: 4 accumulators.
// CHECK: scf.for %{{.+}} step %c1 iter_args
// CHECK: scf.for %{{.+}} step %c4 iter_args
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: tensor.parallel_insert_slice %{{.+}} into %[[OUT]]
// CHECK-NOT: linalg.generic
mo.graph @qmm<m>(%x: !mo.tensor<[m, 64], f32>, %w: !mo.tensor<[130, 36], ui8>) -> !mo.tensor<[m, 130], f32> {
  %y = mo.qmatmul q4_0(%x, %w) : (!mo.tensor<[m, 64], f32>, !mo.tensor<[130, 36], ui8>) -> !mo.tensor<[m, 130], f32>
  mo.output %y : !mo.tensor<[m, 130], f32>
}

// -----

// A batched lhs: its rows folded into one dim and back (6 rows: one tile
// of 4, inlined, then 2 rows one at a time). A block of 8 groups of 32
// (Q6_K, K = 256: one block) loops over them.
// CHECK-LABEL: func.func @qmm_batched(
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : tensor<2x3x256xf32> into tensor<6x256xf32>
// CHECK: scf.forall
// CHECK: scf.for %{{.+}} = %c0 to %c8 step %c1 iter_args({{.+}}) -> (vector<16xf32>,
// CHECK: vector.transfer_write %{{.+}}[%c3, %{{.+}}] : vector<4xf32>, tensor<6x?xf32>
// CHECK: scf.for %{{.+}} = %c4 to %c6 step %c1
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2]] output_shape [2, 3, 70] : tensor<6x70xf32> into tensor<2x3x70xf32>
mo.graph @qmm_batched(%x: !mo.tensor<[2, 3, 256], f32>, %w: !mo.tensor<[70, 210], ui8>) -> !mo.tensor<[2, 3, 70], f32> {
  %y = mo.qmatmul q6_k(%x, %w) : (!mo.tensor<[2, 3, 256], f32>, !mo.tensor<[70, 210], ui8>) -> !mo.tensor<[2, 3, 70], f32>
  mo.output %y : !mo.tensor<[2, 3, 70], f32>
}

// -----

// Q6_K reads its int8 scales sign-extended. Each row a parallel iteration,
// its block's 8 groups of 32 a loop, each group written as 2 vectors.
// CHECK-LABEL: func.func @dq6(
// CHECK-NOT: linalg.generic
// CHECK: scf.forall (%{{.+}}) in (2) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<2x256xf32>)
// CHECK: scf.for %{{.+}} = %c0 to %c8 step %c1 iter_args(%{{.+}}) -> (tensor<1x256xf32>)
// CHECK: arith.extsi %{{.+}} : i8 to i32
// CHECK: vector.transfer_write %{{.+}} {in_bounds = [true]} : vector<16xf32>, tensor<1x256xf32>
// CHECK: vector.transfer_write %{{.+}} {in_bounds = [true]} : vector<16xf32>, tensor<1x256xf32>
// CHECK: tensor.parallel_insert_slice %{{.+}} into %[[OUT]]
// CHECK-NOT: linalg.generic
mo.graph @dq6(%q: !mo.tensor<[2, 210], ui8>) -> !mo.tensor<[2, 256], f32> {
  %w = mo.dequantize q6_k %q : !mo.tensor<[2, 210], ui8> -> !mo.tensor<[2, 256], f32>
  mo.output %w : !mo.tensor<[2, 256], f32>
}

// -----

// 9 lhs rows of a K-quant: each chunk's weight rows decoded a panel of 32
// at a time (256 KiB / K: 2048 x 4 bytes), then every tile over a block of
// 1024 of K (4 blocks of 256) at a time, the columns outer, its sums kept
// in a [rows, panel rows, 16] buffer between blocks, and added up at the
// end. Tiles of 4 rows only: the last padded, its rows past the 9th reading
// the 9th and summing into rows 10-12 of the buffer, never read.
// CHECK-LABEL: func.func @qmm_panels(
// CHECK: scf.forall (%{{.+}}) in (2)
// CHECK: %[[CHUNK:.+]] = tensor.extract_slice
// CHECK: scf.for %[[P0:.+]] = %c0 to %{{.+}} step %c32 iter_args(%{{.+}} = %[[CHUNK]])
// CHECK: tensor.empty() : tensor<32x2048xf32>
// CHECK: vector.transfer_write %{{.+}} : vector<16xf32>, tensor<32x2048xf32>
// CHECK: tensor.empty() : tensor<12x32x16xf32>
// CHECK: scf.for %{{.+}} = %c0 to %c8 step %c4 iter_args(%{{.+}}) -> (tensor<?x32x16xf32>)
// CHECK: scf.for %{{.+}} = %[[P0]] to %{{.+}} step %c4
// CHECK: scf.for %[[M0:.+]] = %c0 to %c9 step %c4
// CHECK: arith.minsi %[[M0]], %c8 : index
// CHECK: vector.transfer_read %{{.+}} : tensor<?x32x16xf32>, vector<16xf32>
// CHECK: vector.transfer_read %{{.+}} : tensor<32x2048xf32>, vector<16xf32>
// CHECK: vector.fma
// CHECK: vector.transfer_write %{{.+}} : vector<16xf32>, tensor<?x32x16xf32>
// CHECK-NOT: -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK: scf.for %{{.+}} = %c0 to %c9 step %c1
// CHECK: vector.reduction <add>, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
// CHECK: vector.transfer_write %{{.+}} : vector<4xf32>, tensor<9x?xf32>
// CHECK: tensor.parallel_insert_slice
mo.graph @qmm_panels(%x: !mo.tensor<[9, 2048], f32>, %w: !mo.tensor<[70, 1152], ui8>) -> !mo.tensor<[9, 70], f32> {
  %y = mo.qmatmul q4_k(%x, %w) : (!mo.tensor<[9, 2048], f32>, !mo.tensor<[70, 1152], ui8>) -> !mo.tensor<[9, 70], f32>
  mo.output %y : !mo.tensor<[9, 70], f32>
}
