// mo-skip-empty-kernels: an outermost kernel whose writes all go to buffers
// sized at run time runs only if one of them has an element (the writes
// read off memory effects); its own scratch does not count; a kernel with a
// static non-empty output, with results, that frees an outside buffer, or
// with a call is left alone.
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-skip-empty-kernels))" | FileCheck %s

// CHECK-LABEL: func.func @transpose
// CHECK: memref.dim %arg1, %c0
// CHECK: arith.cmpi ne
// CHECK: memref.dim %arg1, %c1
// CHECK: arith.cmpi ne
// CHECK: scf.if %{{.+}} {
// CHECK-NEXT: scf.for
func.func @transpose(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.dim %x, %c0 : memref<?x?xf32>
  %b = memref.dim %x, %c1 : memref<?x?xf32>
  scf.for %j = %c0 to %b step %c1 {
    %scratch = memref.alloca() : memref<1xf32>
    scf.for %i = %c0 to %a step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      memref.store %v, %scratch[%c0] : memref<1xf32>
      memref.store %v, %y[%j, %i] : memref<?x?xf32>
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @static_output
// CHECK-NOT: scf.if
func.func @static_output(%x: memref<?xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %y[%i] : memref<4xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @counting_loop
// CHECK-NOT: scf.if
func.func @counting_loop(%y: memref<?xf32>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%k = %c0) -> (index) {
    memref.store %cst, %y[%i] : memref<?xf32>
    %k1 = arith.addi %k, %c1 : index
    scf.yield %k1 : index
  }
  return %r : index
}

// -----

// A linalg op writing a view of a dynamic buffer.
// CHECK-LABEL: func.func @linalg_fill
// CHECK: scf.if
// CHECK-NEXT: linalg.fill
func.func @linalg_fill(%y: memref<?x8xf32>) {
  %cst = arith.constant 0.0 : f32
  %v = memref.subview %y[0, 0] [4, 8] [1, 1] : memref<?x8xf32> to memref<4x8xf32, strided<[8, 1]>>
  linalg.fill ins(%cst : f32) outs(%v : memref<4x8xf32, strided<[8, 1]>>)
  return
}

// -----

// Writes are read off memory effects, whatever op makes them: a masked
// store into a static buffer with elements keeps the kernel unguarded.
// CHECK-LABEL: func.func @masked_store
// CHECK-NOT: scf.if
func.func @masked_store(%y: memref<?xf32>, %z: memref<16xf32>, %n: index,
                        %m: vector<16xi1>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %cst, %y[%i] : memref<?xf32>
    vector.maskedstore %z[%c0], %m, %v : memref<16xf32>, vector<16xi1>, vector<16xf32>
  }
  return
}

// -----

// Freeing a buffer from outside is not skipped.
// CHECK-LABEL: func.func @frees
// CHECK-NOT: scf.if
func.func @frees(%y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  %t = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %cst, %y[%i] : memref<?xf32>
    memref.dealloc %t : memref<?xf32>
  }
  return
}
