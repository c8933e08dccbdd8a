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
