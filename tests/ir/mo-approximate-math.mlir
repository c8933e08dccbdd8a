// mo-approximate-math: f32 exp and tanh, scalar or vector, become inlined
// polynomials (no libm call left for LLVM to scalarize); other math stays.
// RUN: mo-opt %s --pass-pipeline="builtin.module(func.func(mo-approximate-math))" | FileCheck %s

// CHECK-LABEL: func.func @math
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK: math.fma
// CHECK: math.log %arg0 : f32
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
func.func @math(%x: f32, %v: vector<8xf32>) -> (f32, vector<8xf32>, f32) {
  %e = math.exp %x : f32
  %t = math.tanh %v : vector<8xf32>
  %l = math.log %x : f32
  %s = arith.addf %e, %l : f32
  return %s, %t, %l : f32, vector<8xf32>, f32
}
