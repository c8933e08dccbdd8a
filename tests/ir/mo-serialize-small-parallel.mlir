// mo-serialize-small-parallel: an omp.parallel runs on the calling thread
// alone (`if` false) when the largest memref it uses from outside has fewer
// than min-elements elements: decided here when every size is static, at
// run time from the dims otherwise. A region with an `if` keeps it.
// RUN: mo-opt %s --pass-pipeline='builtin.module(func.func(mo-serialize-small-parallel{min-elements=1024}))' | FileCheck %s

// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[A:.*]]: memref<?x8xf32>, %[[B:.*]]: memref<16xf32>)
// CHECK: %[[ROWS:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[SIZE:.*]] = arith.muli %[[ROWS]], %[[C8]]
// CHECK: %[[MIN:.*]] = arith.constant 1024 : index
// CHECK: %[[BIG:.*]] = arith.cmpi uge, %[[SIZE]], %[[MIN]]
// CHECK: omp.parallel if(%[[BIG]])
func.func @dynamic(%a: memref<?x8xf32>, %b: memref<16xf32>) {
  omp.parallel {
    %c0 = arith.constant 0 : index
    %v = memref.load %b[%c0] : memref<16xf32>
    memref.store %v, %a[%c0, %c0] : memref<?x8xf32>
    omp.terminator
  }
  return
}

// CHECK-LABEL: func.func @small
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: omp.parallel if(%[[FALSE]])
func.func @small(%a: memref<4x8xf32>) {
  omp.parallel {
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0, %c0] : memref<4x8xf32>
    memref.store %v, %a[%c0, %c0] : memref<4x8xf32>
    omp.terminator
  }
  return
}

// CHECK-LABEL: func.func @large
// CHECK-NEXT: omp.parallel {
func.func @large(%a: memref<64x64xf32>, %b: memref<?xf32>) {
  omp.parallel {
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0, %c0] : memref<64x64xf32>
    memref.store %v, %b[%c0] : memref<?xf32>
    omp.terminator
  }
  return
}

// CHECK-LABEL: func.func @given
// CHECK: omp.parallel if(%arg1)
func.func @given(%a: memref<4xf32>, %c: i1) {
  omp.parallel if(%c) {
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %a[%c0] : memref<4xf32>
    omp.terminator
  }
  return
}
