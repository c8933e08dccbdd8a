// mo-expand-strided-copies: a copy between non-contiguous views (a padded
// image's interior) becomes a linalg.copy, lowered to loops that LLVM
// vectorizes, instead of a call of the runtime's element-by-element
// memrefCopy; a copy between contiguous buffers stays one memcpy.
// RUN: mo-opt %s --pass-pipeline="builtin.module(func.func(mo-expand-strided-copies))" | FileCheck %s
// RUN: mo-opt %s --mo-cpu-codegen | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @interior
// CHECK: linalg.copy ins(%arg0 : memref<56x56x64xf32>) outs(%{{.+}} : memref<56x56x64xf32, strided<[3712, 64, 1], offset: 3776>>)
// CHECK-NOT: memref.copy
// LLVM-LABEL: llvm.func @interior
// LLVM-NOT: memrefCopy
func.func @interior(%x: memref<56x56x64xf32>, %padded: memref<58x58x64xf32>) {
  %v = memref.subview %padded[1, 1, 0] [56, 56, 64] [1, 1, 1]
      : memref<58x58x64xf32> to memref<56x56x64xf32, strided<[3712, 64, 1], offset: 3776>>
  memref.copy %x, %v : memref<56x56x64xf32> to memref<56x56x64xf32, strided<[3712, 64, 1], offset: 3776>>
  return
}

// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy %arg0, %arg1
func.func @contiguous(%x: memref<56x64xf32>, %y: memref<56x64xf32>) {
  memref.copy %x, %y : memref<56x64xf32> to memref<56x64xf32>
  return
}
