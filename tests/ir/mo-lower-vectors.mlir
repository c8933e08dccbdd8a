// RUN: mo-opt %s --pass-pipeline='builtin.module(func.func(mo-lower-vectors))' | FileCheck %s

// A register tile's lhs column, read as one vector and only ever extracted
// element by element to be broadcast: scalar loads, which LLVM emits as
// broadcasts from memory (no shuffles in the FMA ports).
// CHECK-LABEL: func.func @broadcast_column
// CHECK-SAME: (%[[A:.*]]: memref<4x6xf32>, %[[I:.*]]: index
// CHECK-NOT: vector.load %[[A]]
// CHECK: memref.load %[[A]][%[[I]], %{{.*}}] : memref<4x6xf32>
// CHECK: vector.broadcast
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: memref.load %[[A]][%[[I]], %[[C5]]] : memref<4x6xf32>
// CHECK: vector.broadcast
// CHECK: return
func.func @broadcast_column(%a: memref<4x6xf32>, %i: index, %b: vector<16xf32>,
                            %acc: vector<16xf32>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %column = vector.load %a[%i, %c0] : memref<4x6xf32>, vector<6xf32>
  %e0 = vector.extract %column[0] : f32 from vector<6xf32>
  %s0 = vector.broadcast %e0 : f32 to vector<16xf32>
  %r0 = vector.fma %s0, %b, %acc : vector<16xf32>
  %e5 = vector.extract %column[5] : f32 from vector<6xf32>
  %s5 = vector.broadcast %e5 : f32 to vector<16xf32>
  %r5 = vector.fma %s5, %b, %r0 : vector<16xf32>
  return %r5 : vector<16xf32>
}

// A run-time column offset: the element's index is offset from it.
// CHECK-LABEL: func.func @dynamic_offset
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[J:.*]]: index
// CHECK: %[[J3:.*]] = affine.apply #{{.*}}()[%[[J]]]
// CHECK: memref.load %[[A]][%[[J3]]]
func.func @dynamic_offset(%a: memref<?xf32>, %j: index) -> f32 {
  %v = vector.load %a[%j] : memref<?xf32>, vector<8xf32>
  %e = vector.extract %v[3] : f32 from vector<8xf32>
  return %e : f32
}

// A vector also used as a whole stays one load.
// CHECK-LABEL: func.func @used_whole
// CHECK: %[[V:.*]] = vector.load
// CHECK: vector.extract %[[V]][2]
// CHECK-NOT: memref.load
func.func @used_whole(%a: memref<8xf32>) -> (f32, vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<8xf32>, vector<8xf32>
  %e = vector.extract %v[2] : f32 from vector<8xf32>
  return %e, %v : f32, vector<8xf32>
}

// An accumulator tile's epilogue (unpack, bias, GELU's tanh), elementwise
// over 8 x 32 from a read of the packed tile to a write of C: one loop over
// its 8 rows, each 32-vector read, computed and written once.
// CHECK-LABEL: func.func @rolled_epilogue
// CHECK-SAME: (%[[P:.*]]: memref<2x2x8x32xf32>, %[[B:.*]]: memref<64xf32>, %[[C:.*]]: memref<16x64xf32>
// CHECK: %[[BIAS:.*]] = vector.load %[[B]]
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[ROW:.*]] = vector.load %[[P]][{{.*}}, %[[R]], %{{.*}}] : memref<2x2x8x32xf32>, vector<32xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[ROW]], %[[BIAS]] : vector<32xf32>
// CHECK: math.tanh %[[SUM]] : vector<32xf32>
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %[[R]] : index
// CHECK: vector.store %{{.*}}, %[[C]][%[[I]], %{{.*}}] : memref<16x64xf32>, vector<32xf32>
// CHECK-NEXT: }
// CHECK-NOT: vector<8x32xf32>
// CHECK: return
func.func @rolled_epilogue(%p: memref<2x2x8x32xf32>, %b: memref<64xf32>, %c: memref<16x64xf32>,
                           %i: index, %j: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %half = arith.constant dense<0.5> : vector<8x32xf32>
  %m = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
  %n = affine.apply affine_map<(d0) -> (d0 * 32)>(%j)
  %tile = vector.transfer_read %p[%i, %j, %c0, %c0], %pad {in_bounds = [true, true]}
      : memref<2x2x8x32xf32>, vector<8x32xf32>
  %row = vector.transfer_read %b[%n], %pad {in_bounds = [true]} : memref<64xf32>, vector<32xf32>
  %bias = vector.broadcast %row : vector<32xf32> to vector<8x32xf32>
  %sum = arith.addf %tile, %bias : vector<8x32xf32>
  %t = math.tanh %sum : vector<8x32xf32>
  %r = arith.mulf %t, %half : vector<8x32xf32>
  vector.transfer_write %r, %c[%m, %n] {in_bounds = [true, true]} : vector<8x32xf32>, memref<16x64xf32>
  return
}

// A copy (an unpack with no epilogue) stays unrolled: row by row.
// CHECK-LABEL: func.func @copy_unrolled
// CHECK-NOT: scf.for
// CHECK-COUNT-4: vector.transfer_write
// CHECK: return
func.func @copy_unrolled(%p: memref<4x32xf32>, %c: memref<4x32xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %tile = vector.transfer_read %p[%c0, %c0], %pad {in_bounds = [true, true]}
      : memref<4x32xf32>, vector<4x32xf32>
  vector.transfer_write %tile, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x32xf32>, memref<4x32xf32>
  return
}

// A store between the read and the write (it may write what the tile
// reads): all rows read first, as written.
// CHECK-LABEL: func.func @store_between
// CHECK-NOT: scf.for
// CHECK: return
func.func @store_between(%p: memref<4x32xf32>, %c: memref<4x32xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %tile = vector.transfer_read %p[%c0, %c0], %pad {in_bounds = [true, true]}
      : memref<4x32xf32>, vector<4x32xf32>
  memref.store %x, %p[%c0, %c0] : memref<4x32xf32>
  %r = arith.addf %tile, %tile : vector<4x32xf32>
  vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x32xf32>, memref<4x32xf32>
  return
}

// A tile of the computation used elsewhere as well (here returned) keeps
// the whole computation as it is.
// CHECK-LABEL: func.func @used_elsewhere
// CHECK-NOT: scf.for
// CHECK: return
func.func @used_elsewhere(%p: memref<4x32xf32>, %c: memref<4x32xf32>) -> vector<4x32xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %tile = vector.transfer_read %p[%c0, %c0], %pad {in_bounds = [true, true]}
      : memref<4x32xf32>, vector<4x32xf32>
  %r = arith.addf %tile, %tile : vector<4x32xf32>
  vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x32xf32>, memref<4x32xf32>
  return %r : vector<4x32xf32>
}
