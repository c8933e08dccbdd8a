// mo-hoist-stack-buffers: a fixed-size stack buffer of a loop body moves to
// the entry of its allocation scope, the function or a thread's omp.parallel
// region (never out of one: each thread keeps its own), past the
// alloca_scope convert-scf-to-openmp wraps the body in, which is then
// inlined. A buffer sized at run time stays.
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-hoist-stack-buffers))" | FileCheck %s

// CHECK-LABEL: func.func @serial
// CHECK-NEXT: %[[A:.+]] = memref.alloca() {alignment = 64 : i64} : memref<2xf32>
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK: memref.store %{{.+}}, %[[A]]
func.func @serial(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloca() {alignment = 64 : i64} : memref<2xf32>
    memref.store %cst, %a[%c0] : memref<2xf32>
    %v = memref.load %a[%c0] : memref<2xf32>
    memref.store %v, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @threads
// CHECK-NOT: memref.alloca
// CHECK: omp.parallel {
// CHECK-NEXT: %[[A:.+]] = memref.alloca() : memref<4xf32>
// CHECK: omp.loop_nest
// CHECK-NOT: memref.alloca_scope
// CHECK: memref.store %{{.+}}, %[[A]]
// CHECK: %[[D:.+]] = memref.alloca(%{{.+}}) : memref<?xf32>
func.func @threads(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.alloca_scope {
          %a = memref.alloca() : memref<4xf32>
          memref.store %cst, %a[%c0] : memref<4xf32>
          %v = memref.load %a[%c0] : memref<4xf32>
          memref.store %v, %out[%i] : memref<?xf32>
        }
        memref.alloca_scope {
          %d = memref.alloca(%i) : memref<?xf32>
          memref.store %cst, %d[%c0] : memref<?xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Iterations that may run at once keep a buffer each.
// CHECK-LABEL: func.func @parallel
// CHECK: scf.forall
// CHECK-NEXT: memref.alloca() : memref<4xf32>
func.func @parallel(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  scf.forall (%i) in (%n) {
    %a = memref.alloca() : memref<4xf32>
    memref.store %cst, %a[%c0] : memref<4xf32>
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %out[%i] : memref<?xf32>
  }
  return
}
