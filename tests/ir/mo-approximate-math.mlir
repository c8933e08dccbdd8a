// mo-approximate-math: f32 exp and tanh, scalar or vector, become inlined
// polynomials (no libm call left for LLVM to scalarize); other math stays.
// Where the target scales by a power of 2 in one instruction (AVX-512's
// vscalefps), exp ends in llvm.intr.ldexp, its exponent read from the
// rounding sum's bits; elsewhere it is upstream's, which builds 2^n itself.
// RUN: mo-opt %s --pass-pipeline="builtin.module(func.func(mo-approximate-math{cpu-features=+avx512f}))" | FileCheck %s --check-prefixes=CHECK,SCALE
// RUN: mo-opt %s --pass-pipeline="builtin.module(func.func(mo-approximate-math{cpu-features=+avx2,+fma,-avx512f}))" | FileCheck %s --check-prefixes=CHECK,BITS

// CHECK-LABEL: func.func @math
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// SCALE-DAG: %[[LO:.+]] = arith.constant -1.040000e+02 : f32
// SCALE-DAG: %[[HI:.+]] = arith.constant 8.880000e+01 : f32
// SCALE-DAG: %[[MAGIC:.+]] = arith.constant 0x4B400000 : f32
// SCALE: %[[GE:.+]] = arith.cmpf uge, %arg0, %[[LO]] : f32
// SCALE: %[[X0:.+]] = arith.select %[[GE]], %arg0, %[[LO]] : f32
// SCALE: %[[LE:.+]] = arith.cmpf ule, %[[X0]], %[[HI]] : f32
// SCALE: %[[X:.+]] = arith.select %[[LE]], %[[X0]], %[[HI]] : f32
// SCALE: %[[SUM:.+]] = math.fma %[[X]], %{{.+}}, %[[MAGIC]] : f32
// SCALE: %[[N:.+]] = arith.subf %[[SUM]], %[[MAGIC]] : f32
// SCALE: math.fma %[[N]], %{{.+}}, %[[X]] : f32
// SCALE: %[[INT:.+]] = arith.bitcast %[[SUM]] : f32 to i32
// SCALE: %[[EXP:.+]] = arith.subi %[[INT]], %c1262485504_i32 : i32
// SCALE: llvm.intr.ldexp(%{{.+}}, %[[EXP]]) : (f32, i32) -> f32
// BITS-NOT: llvm.intr.ldexp
// BITS: arith.shli
// CHECK: math.log %arg0 : f32
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: llvm.intr.ldexp
func.func @math(%x: f32, %v: vector<8xf32>) -> (f32, vector<8xf32>, f32) {
  %e = math.exp %x : f32
  %t = math.tanh %v : vector<8xf32>
  %l = math.log %x : f32
  %s = arith.addf %e, %l : f32
  return %s, %t, %l : f32, vector<8xf32>, f32
}

// -----

// A vector exp (a schedule's register tile) stays upstream's: the LLVM
// dialect's ldexp takes one exponent.
// CHECK-LABEL: func.func @vector
// CHECK-NOT: llvm.intr.ldexp
// CHECK: arith.shli %{{.+}} : vector<16xi32>
// CHECK-NOT: llvm.intr.ldexp
func.func @vector(%v: vector<16xf32>) -> vector<16xf32> {
  %e = math.exp %v : vector<16xf32>
  return %e : vector<16xf32>
}
