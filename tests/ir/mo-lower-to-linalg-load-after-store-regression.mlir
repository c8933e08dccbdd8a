// Regression: a value loaded from a buffer is a snapshot: a later store to the
// buffer does not change it (the load copies).
// RUN: mo-opt %s --pass-pipeline="builtin.module(mo-lower-to-linalg,canonicalize,cse,func.func(linalg-fuse-elementwise-ops),canonicalize,eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})" | FileCheck %s

// CHECK-LABEL: func.func @acc(
// CHECK-SAME: %[[BUF:[a-zA-Z0-9_]+]]: memref<?xf32>,
// Once old + x is computed (and written into the buffer), old - x must not
// read the overwritten buffer as "old".
// CHECK: arith.addf
// CHECK-NOT: ins(%[[BUF]],
// CHECK: arith.subf
mo.graph @acc(%buf: !mo.buffer<[4], f32>, %x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %old = mo.mutable.load %buf : !mo.buffer<[4], f32> -> !mo.tensor<[4], f32>
  %new = mo.add(%old, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.mutable.store %new, %buf : !mo.tensor<[4], f32>, !mo.buffer<[4], f32>
  %d = mo.sub(%old, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %d : !mo.tensor<[4], f32>
}
