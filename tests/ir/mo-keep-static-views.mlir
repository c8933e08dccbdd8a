// mo-keep-static-views: a cast of a buffer to a more static shape becomes a
// reinterpret_cast to the same type (offset 0, row-major strides), which
// canonicalization does not fold back into the cast's consumers; a cast to a
// less static shape, or of a strided view, stays.
// RUN: mo-opt %s --pass-pipeline="builtin.module(func.func(mo-keep-static-views))" | FileCheck %s
// RUN: mo-opt %s --pass-pipeline="builtin.module(func.func(mo-keep-static-views),canonicalize)" | FileCheck %s --check-prefix=FOLD

// CHECK: #[[TIMES4:.+]] = affine_map<()[s0] -> (s0 * 4)>
// CHECK-LABEL: func.func @entry
// CHECK: %[[W:.+]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32>
// CHECK: %[[N:.+]] = memref.dim %arg1, %c0
// CHECK: %[[X:.+]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [%[[N]], 16, 64], strides: [1024, 64, 1] : memref<?x?x?xf32> to memref<?x16x64xf32>
// CHECK: %[[M:.+]] = memref.dim %arg2, %c1
// CHECK: %[[S:.+]] = affine.apply #[[TIMES4]]()[%[[M]]]
// CHECK: memref.reinterpret_cast %arg2 to offset: [0], sizes: [8, %[[M]], 4], strides: [%[[S]], 4, 1] : memref<?x?x?xf32> to memref<8x?x4xf32>
// CHECK: memref.cast %{{.+}} : memref<4xf32> to memref<?xf32>
// CHECK: memref.cast %{{.+}} : memref<?xf32, strided<[2]>> to memref<4xf32, strided<[2]>>
// FOLD-LABEL: func.func @entry
// FOLD: linalg.copy ins(%{{.+}} : memref<1024xf32>) outs(%{{.+}} : memref<1024xf32>)
func.func @entry(%w: memref<?xf32>, %x: memref<?x?x?xf32>, %y: memref<?x?x?xf32>,
                 %out: memref<1024xf32>, %v: memref<?xf32, strided<[2]>>) {
  %ws = memref.cast %w : memref<?xf32> to memref<1024xf32>
  linalg.copy ins(%ws : memref<1024xf32>) outs(%out : memref<1024xf32>)
  %xs = memref.cast %x : memref<?x?x?xf32> to memref<?x16x64xf32>
  %ys = memref.cast %y : memref<?x?x?xf32> to memref<8x?x4xf32>
  func.call @use3(%xs, %ys) : (memref<?x16x64xf32>, memref<8x?x4xf32>) -> ()
  %a = memref.alloc() : memref<4xf32>
  %ad = memref.cast %a : memref<4xf32> to memref<?xf32>
  %vs = memref.cast %v : memref<?xf32, strided<[2]>> to memref<4xf32, strided<[2]>>
  func.call @use1(%ad, %vs) : (memref<?xf32>, memref<4xf32, strided<[2]>>) -> ()
  return
}
func.func private @use3(memref<?x16x64xf32>, memref<8x?x4xf32>)
func.func private @use1(memref<?xf32>, memref<4xf32, strided<[2]>>)
