// mo-lower-to-linalg, buffers: buffers are memrefs: a load copies (a snapshot), a store materializes into
// the buffer or a strided window of it.
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s
// Through bufferization too, for the semantics of buffers:
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(mo-lower-to-linalg,canonicalize,cse,func.func(linalg-fuse-elementwise-ops),canonicalize,eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})" | FileCheck %s --check-prefix=BUFFERIZED

// Buffers are memref arguments: mutable.load copies a to_tensor of the
// memref (a snapshot), mutable.store is a materialize_in_destination into it.
// CHECK-LABEL: func.func @buffers(
// CHECK-SAME: %[[BUFA:[a-zA-Z0-9_]+]]: memref<?xf32>{{( \{[^}]*\})?}}, %[[XA:[a-zA-Z0-9_]+]]: tensor<?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %[[OUTA:[a-zA-Z0-9_]+]]: memref<?xf32> {mo.output = 0 : i64},
// CHECK: %[[BUF:.+]] = memref.cast %[[BUFA]] : memref<?xf32> to memref<4xf32>
// CHECK: %[[X:.+]] = tensor.cast %[[XA]] : tensor<?xf32> to tensor<4xf32>
// CHECK: %[[VIEW:.+]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<4xf32> to tensor<4xf32>
// CHECK: %[[OLD:.+]] = bufferization.alloc_tensor() copy(%[[VIEW]])
// CHECK: %[[NEW:.+]] = linalg.generic
// CHECK-SAME: ins(%[[OLD]], %[[X]] :
// CHECK: bufferization.materialize_in_destination %[[NEW]] in restrict writable %[[BUF]] : (tensor<4xf32>, memref<4xf32>) -> ()
// CHECK: %[[OUT:.+]] = memref.cast %[[OUTA]] : memref<?xf32> to memref<4xf32>
// CHECK: bufferization.materialize_in_destination %[[NEW]] in restrict writable %[[OUT]]
mo.graph @buffers(%buf: !mo.buffer<[4], f32>, %x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %old = mo.mutable.load %buf : !mo.buffer<[4], f32> -> !mo.tensor<[4], f32>
  %new = mo.add(%old, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.mutable.store %new, %buf : !mo.tensor<[4], f32>, !mo.buffer<[4], f32>
  mo.output %new : !mo.tensor<[4], f32>
}

// -----

// A store with starts/steps writes a strided memref.subview; a dynamic window
// size is the value's tensor.dim.
// CHECK-LABEL: func.func @store_window(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<?x?xf32>{{( \{[^}]*\})?}}, %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32>{{( \{[^}]*\})?}},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<2xi64> {mo.status}) -> i64
// CHECK: %[[BUF:.+]] = memref.cast %{{.+}} : memref<?x?xf32> to memref<?x8xf32>
// CHECK: %[[V:.+]] = tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<?x2xf32>
// CHECK: %[[D:.+]] = tensor.dim %[[V]], %{{.+}} : tensor<?x2xf32>
// CHECK: %[[SUB:.+]] = memref.subview %[[BUF]][0, 2] [%[[D]], 2] [1, 3] : memref<?x8xf32> to memref<?x2xf32, strided<[8, 3], offset: 2>>
// CHECK: bufferization.materialize_in_destination %[[V]] in restrict writable %[[SUB]] : (tensor<?x2xf32>, memref<?x2xf32, strided<[8, 3], offset: 2>>) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return %{{.+}} : i64
mo.graph @store_window<n>(%buf: !mo.buffer<[n, 8], f32>, %v: !mo.tensor<[n, 2], f32>) {
  "mo.mutable.store"(%v, %buf) <{starts = array<i64: 0, 2>, steps = array<i64: 1, 3>}> : (!mo.tensor<[n, 2], f32>, !mo.buffer<[n, 8], f32>) -> ()
  mo.output
}

// -----

// A value loaded from a buffer is a snapshot: a later store to the buffer
// does not change it (the load copies).
// BUFFERIZED-LABEL: func.func @acc(
// BUFFERIZED-SAME: %[[BUF:[a-zA-Z0-9_]+]]: memref<?xf32>{{( \{[^}]*\})?}},
// Once old + x is computed (and written into the buffer), old - x must not
// read the overwritten buffer as "old".
// BUFFERIZED: arith.addf
// BUFFERIZED-NOT: ins(%[[BUF]],
// BUFFERIZED: arith.subf
mo.graph @acc(%buf: !mo.buffer<[4], f32>, %x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
  %old = mo.mutable.load %buf : !mo.buffer<[4], f32> -> !mo.tensor<[4], f32>
  %new = mo.add(%old, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.mutable.store %new, %buf : !mo.tensor<[4], f32>, !mo.buffer<[4], f32>
  %d = mo.sub(%old, %x) : (!mo.tensor<[4], f32>, !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32>
  mo.output %d : !mo.tensor<[4], f32>
}

// -----

// A graph-local buffer is a memref.alloc sized from the arguments.
// CHECK-LABEL: func.func @local(
// CHECK: %[[N:.+]] = tensor.dim %{{.+}}, %c0 : tensor<?xf32>
// CHECK: %[[B:.+]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK: bufferization.materialize_in_destination %{{.+}} in restrict writable %[[B]]
// CHECK: bufferization.to_tensor %[[B]] restrict writable
mo.graph @local<n>(%x: !mo.tensor<[n], f32>) -> !mo.tensor<[n], f32> {
  %b = mo.buffer.create : !mo.buffer<[n], f32>
  mo.mutable.store %x, %b : !mo.tensor<[n], f32>, !mo.buffer<[n], f32>
  %y = mo.mutable.load %b : !mo.buffer<[n], f32> -> !mo.tensor<[n], f32>
  mo.output %y : !mo.tensor<[n], f32>
}
