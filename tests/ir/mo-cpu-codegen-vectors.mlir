// Vector code that reaches mo-cpu-codegen with multi-dim transfers (here an
// out-of-bounds 2-D read) ends as LLVM-dialect ops with or without the
// schedules: with them mo-lower-vectors unrolls the transfers to 1-D, without
// them (the fallback when a schedule fails) convert-vector-to-scf does.
// RUN: mo-opt %s --mo-cpu-codegen | FileCheck %s
// RUN: mo-opt %s --mo-cpu-codegen="schedules=0" | FileCheck %s

// CHECK-LABEL: llvm.func @double(
// CHECK-NOT: vector.
// CHECK: llvm.fadd %{{.+}} : vector<8xf32>
// CHECK-NOT: vector.
func.func @double(%a: tensor<?x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %v = vector.transfer_read %a[%c0, %c0], %z {in_bounds = [false, true]}
      : tensor<?x8xf32>, vector<4x8xf32>
  %d = arith.addf %v, %v : vector<4x8xf32>
  %w = vector.transfer_write %d, %b[%c0, %c0] {in_bounds = [true, true]}
      : vector<4x8xf32>, tensor<4x8xf32>
  return %w : tensor<4x8xf32>
}
