// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-prefetch-accumulators))" | FileCheck %s

#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (n, k)>
#acc = affine_map<(m, n, k) -> (m, n)>

// An mmt4d register tile of a cache block after the first (as
// mo-apply-schedules leaves it): its k loop starts from zero, the tile's 16
// cache lines (8 rows of 32 f32, two lines each) prefetched before the
// loop, the partial sums read after it and added.
// CHECK-LABEL: func.func @tile(
// CHECK-SAME: %[[C:[^:]+]]: memref<1x1x8x32xf32, strided<[8192, 256, 32, 1], offset: ?>>
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NOT: vector.transfer_read %[[C]]
// CHECK: memref.prefetch %[[C]][%[[C0]], %[[C0]], %[[C0]], %[[C0]]], read, locality<3>, data
// CHECK: %[[C16:.+]] = arith.constant 16 : index
// CHECK-NEXT: memref.prefetch %[[C]][%[[C0]], %[[C0]], %[[C0]], %[[C16]]], read, locality<3>, data
// CHECK-COUNT-12: memref.prefetch %[[C]]
// CHECK: %[[C7:.+]] = arith.constant 7 : index
// CHECK-NEXT: memref.prefetch %[[C]][%[[C0]], %[[C0]], %[[C7]], %[[C0]]], read, locality<3>, data
// CHECK-NEXT: memref.prefetch %[[C]][%[[C0]], %[[C0]], %[[C7]], %[[C16]]], read, locality<3>, data
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<1x1x8x32xf32>
// CHECK-NOT: memref.prefetch
// CHECK-NOT: vector.transfer_read %[[C]]
// CHECK: %[[SUMS:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]])
// CHECK: vector.contract
// CHECK: %[[OLD:.+]] = vector.transfer_read %[[C]]
// CHECK-NEXT: %[[OLD4:.+]] = vector.broadcast %[[OLD]] : vector<8x32xf32> to vector<1x1x8x32xf32>
// CHECK-NEXT: %[[NEW:.+]] = arith.addf %[[SUMS]], %[[OLD4]] : vector<1x1x8x32xf32>
// CHECK-NEXT: %[[TILE:.+]] = vector.extract %[[NEW]][0, 0]
// CHECK-NEXT: vector.transfer_write %[[TILE]], %[[C]]
func.func @tile(%c: memref<1x1x8x32xf32, strided<[8192, 256, 32, 1], offset: ?>>,
                %a: memref<1024x8x1xf32>, %b: memref<256x32x1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %p = ub.poison : f32
  %r = vector.transfer_read %c[%c0, %c0, %c0, %c0], %p {in_bounds = [true, true]}
      : memref<1x1x8x32xf32, strided<[8192, 256, 32, 1], offset: ?>>, vector<8x32xf32>
  %r4 = vector.broadcast %r : vector<8x32xf32> to vector<1x1x8x32xf32>
  %sums = scf.for %k = %c0 to %c256 step %c1 iter_args(%s = %r4) -> (vector<1x1x8x32xf32>) {
    %x = vector.transfer_read %a[%k, %c0, %c0], %p {in_bounds = [true, true]}
        : memref<1024x8x1xf32>, vector<8x1xf32>
    %y = vector.transfer_read %b[%k, %c0, %c0], %p {in_bounds = [true, true]}
        : memref<256x32x1xf32>, vector<32x1xf32>
    %s2 = vector.extract %s[0, 0] : vector<8x32xf32> from vector<1x1x8x32xf32>
    %t = vector.contract {indexing_maps = [#lhs, #rhs, #acc],
                          iterator_types = ["parallel", "parallel", "reduction"],
                          kind = #vector.kind<add>} %x, %y, %s2
        : vector<8x1xf32>, vector<32x1xf32> into vector<8x32xf32>
    %t4 = vector.broadcast %t : vector<8x32xf32> to vector<1x1x8x32xf32>
    scf.yield %t4 : vector<1x1x8x32xf32>
  }
  %out = vector.extract %sums[0, 0] : vector<8x32xf32> from vector<1x1x8x32xf32>
  vector.transfer_write %out, %c[%c0, %c0, %c0, %c0] {in_bounds = [true, true]}
      : vector<8x32xf32>, memref<1x1x8x32xf32, strided<[8192, 256, 32, 1], offset: ?>>
  return
}

// -----

// What the rewrite must leave alone: a loop that writes memory (the read
// after it could see the write), an accumulator scaled in the loop (not
// only added to), a loop of a few steps (nothing to hide the read behind),
// and a read whose rows are not contiguous (no lines to prefetch).
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: memref.prefetch
// CHECK-NOT: arith.constant dense<0.0
// CHECK: return
func.func @kept(%c: memref<8x32xf32>, %d: memref<32x8xf32, strided<[1, 32]>>, %v: vector<8x32xf32>,
                %out: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %p = ub.poison : f32
  %f = arith.constant 1.0 : f32
  %r0 = vector.transfer_read %c[%c0, %c0], %p {in_bounds = [true, true]} : memref<8x32xf32>, vector<8x32xf32>
  %s0 = scf.for %k = %c0 to %c256 step %c1 iter_args(%s = %r0) -> (vector<8x32xf32>) {
    memref.store %f, %out[%k] : memref<256xf32>
    %t = arith.addf %s, %v : vector<8x32xf32>
    scf.yield %t : vector<8x32xf32>
  }
  vector.transfer_write %s0, %c[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<8x32xf32>
  %r1 = vector.transfer_read %c[%c0, %c0], %p {in_bounds = [true, true]} : memref<8x32xf32>, vector<8x32xf32>
  %s1 = scf.for %k = %c0 to %c256 step %c1 iter_args(%s = %r1) -> (vector<8x32xf32>) {
    %t = arith.mulf %s, %v : vector<8x32xf32>
    scf.yield %t : vector<8x32xf32>
  }
  vector.transfer_write %s1, %c[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<8x32xf32>
  %r2 = vector.transfer_read %c[%c0, %c0], %p {in_bounds = [true, true]} : memref<8x32xf32>, vector<8x32xf32>
  %s2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %r2) -> (vector<8x32xf32>) {
    %t = arith.addf %s, %v : vector<8x32xf32>
    scf.yield %t : vector<8x32xf32>
  }
  vector.transfer_write %s2, %c[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<8x32xf32>
  %r3 = vector.transfer_read %d[%c0, %c0], %p {in_bounds = [true, true]}
      : memref<32x8xf32, strided<[1, 32]>>, vector<32x8xf32>
  %w = vector.transpose %v, [1, 0] : vector<8x32xf32> to vector<32x8xf32>
  %s3 = scf.for %k = %c0 to %c256 step %c1 iter_args(%s = %r3) -> (vector<32x8xf32>) {
    %t = arith.addf %s, %w : vector<32x8xf32>
    scf.yield %t : vector<32x8xf32>
  }
  vector.transfer_write %s3, %d[%c0, %c0] {in_bounds = [true, true]} : vector<32x8xf32>, memref<32x8xf32, strided<[1, 32]>>
  return
}
