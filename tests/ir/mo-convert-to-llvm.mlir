// mo-convert-to-llvm: memref (through mo's runtime allocation functions),
// arith (floor division expanded first), index, cf, func, ub and omp to the
// LLVM dialect in one conversion.
// RUN: mo-opt %s --mo-convert-to-llvm --reconcile-unrealized-casts | FileCheck %s

// CHECK-LABEL: llvm.func @kernel(
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: llvm.sdiv
// CHECK: llvm.cond_br
// CHECK: omp.parallel
// CHECK: llvm.mlir.poison : f32
// CHECK: llvm.call @_mlir_memref_to_llvm_free
// CHECK-NOT: {{ (arith|index|cf|func|memref|ub)\.}}
// CHECK: llvm.func @_mlir_ciface_kernel
func.func @kernel(%n: index, %a: i32, %b: i32, %c: i1) -> i32 attributes {llvm.emit_c_interface} {
  %m = memref.alloc(%n) : memref<?xf32>
  %d = arith.floordivsi %a, %b : i32
  %i = index.add %n, %n
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  omp.parallel {
    omp.terminator
  }
  %p = ub.poison : f32
  %z = arith.constant 0 : index
  memref.store %p, %m[%z] : memref<?xf32>
  cf.br ^bb2
^bb2:
  memref.dealloc %m : memref<?xf32>
  return %d : i32
}
