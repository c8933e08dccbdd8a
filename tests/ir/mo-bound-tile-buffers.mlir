// mo-bound-tile-buffers: a buffer sized by a partial tile's extent (at most
// the tile's) is allocated at the tile's static size and used through a view
// of its real size; one whose size has no constant bound, or whose bound is
// over max-bytes, stays as it is.
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-bound-tile-buffers))" | FileCheck %s
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-bound-tile-buffers,promote-buffers-to-stack{max-alloc-size-in-bytes=4096}))" | FileCheck %s --check-prefix=STACK

// CHECK-LABEL: func.func @row_tile
// CHECK: scf.for %[[I:.+]] =
// CHECK: %[[N:.+]] = affine.min #{{.+}}(%[[I]])[%{{.+}}]
// CHECK: %[[FULL:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x1024xf32>
// CHECK: %[[VIEW:.+]] = memref.subview %[[FULL]][0, 0] [%[[N]], 1024] [1, 1] : memref<2x1024xf32> to memref<?x1024xf32, strided<[1024, 1]>>
// CHECK: %[[A:.+]] = memref.cast %[[VIEW]] : memref<?x1024xf32, strided<[1024, 1]>> to memref<?x1024xf32>
// CHECK: call @use2(%[[A]])
// STACK-LABEL: func.func @row_tile
// STACK: memref.alloc() {alignment = 64 : i64} : memref<2x1024xf32>
// STACK-LABEL: func.func @row_means
// STACK: memref.alloca() {alignment = 64 : i64} : memref<2xf32>
#tile = affine_map<(d0)[s0] -> (2, s0 - d0)>
func.func private @use1(memref<?xf32>)
func.func private @use2(memref<?x1024xf32>)
func.func @row_tile(%rows: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %rows step %c2 {
    %n = affine.min #tile(%i)[%rows]
    %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?x1024xf32>
    func.call @use2(%a) : (memref<?x1024xf32>) -> ()
  }
  return
}

// CHECK-LABEL: func.func @row_means
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<2xf32>
func.func @row_means(%rows: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %rows step %c2 {
    %n = affine.min #tile(%i)[%rows]
    %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
    func.call @use1(%a) : (memref<?xf32>) -> ()
  }
  return
}

// -----

// CHECK-LABEL: func.func @unbounded
// CHECK: memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK-NOT: memref.subview
func.func private @use1(memref<?xf32>)
func.func @unbounded(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  func.call @use1(%a) : (memref<?xf32>) -> ()
  return
}

// -----

// 64 x 1024 floats (256 KiB) is over the 64 KiB default.
// CHECK-LABEL: func.func @too_big
// CHECK: memref.alloc(%{{.+}}) : memref<?x1024xf32>
// CHECK-NOT: memref.subview
#tile = affine_map<(d0)[s0] -> (64, s0 - d0)>
func.func private @use2(memref<?x1024xf32>)
func.func @too_big(%rows: index, %i: index) {
  %n = affine.min #tile(%i)[%rows]
  %a = memref.alloc(%n) : memref<?x1024xf32>
  func.call @use2(%a) : (memref<?x1024xf32>) -> ()
  return
}
