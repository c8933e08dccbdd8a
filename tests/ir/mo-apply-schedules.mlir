// mo-apply-schedules: each op's schedule carried out by the schedule
// library. The data-tiled 1024^3 matmul: packs and the unpack split across
// threads and vectorized; the mmt4d split into two thread tiles (its fill
// inside them), cache blocks of 16 x 256, and an 8 x 32 accumulator carried
// in registers through the k loop.
// RUN: mo-opt %s --pass-pipeline="builtin.module(func.func(mo-select-schedules{num-threads=2 cpu-features=+avx512f},mo-apply-schedules),canonicalize,cse)" | FileCheck %s
// The whole CPU pipeline turns the thread tiles into OpenMP and the
// accumulator tile into 32-wide FMAs.
// RUN: mo-opt %s --mo-cpu-codegen="num-threads=2 cpu-features=+avx512f" | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @square
// CHECK: scf.forall (%{{.+}}) in (128) shared_outs(%{{.+}}) -> (tensor<128x1024x8x1xf32>)
// CHECK: vector.transfer_write %{{.+}} : vector<8x8x1xf32>, tensor<1x1024x8x1xf32>
// CHECK: scf.forall (%{{.+}}) in (32) shared_outs(%{{.+}}) -> (tensor<32x1024x32x1xf32>)
// CHECK: vector.transfer_write %{{.+}} : vector<4x32x1xf32>, tensor<1x1024x32x1xf32>
// CHECK: scf.forall (%{{.+}}) in (2) shared_outs(%{{.+}}) -> (tensor<128x32x8x32xf32>)
// CHECK: vector.transfer_write %{{.+}} : vector<8x32xf32>, tensor<64x32x8x32xf32>
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c256
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (vector<1x1x8x32xf32>)
// CHECK: vector.contract {{.+}} : vector<8x1xf32>, vector<32x1xf32> into vector<8x32xf32>
// CHECK: scf.forall (%{{.+}}) in (128) shared_outs(%{{.+}}) -> (tensor<1024x1024xf32>)
// CHECK: vector.transfer_write %{{.+}} : vector<8x32xf32>, tensor<8x1024xf32>
// CHECK-NOT: linalg.
// LLVM-LABEL: llvm.func @square
// LLVM: omp.parallel
// Every tile is stored whole (the packed A's rows as 8-wide vectors), no
// element alone.
// LLVM-NOT: llvm.store {{.+}} : f32, !llvm.ptr
// LLVM: omp.wsloop
// LLVM-NOT: llvm.store {{.+}} : f32, !llvm.ptr
// LLVM: llvm.store {{.+}} : vector<8xf32>, !llvm.ptr
// LLVM-NOT: llvm.store {{.+}} : f32, !llvm.ptr
// LLVM: llvm.intr.fmuladd({{.+}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
// LLVM-NOT: llvm.store {{.+}} : f32, !llvm.ptr
func.func @square(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
