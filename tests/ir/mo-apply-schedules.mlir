// mo-apply-schedules: each op's schedule carried out by the schedule
// library. The data-tiled 1024^3 matmul: the mmt4d split into two thread
// tiles of columns (the fill inside them), each packing its 16-tile panel
// of B for every k block of 256 into one buffer, then, for each row tile,
// that tile's 8 x 256 panel of A into another, and an 8 x 32 accumulator
// carried in registers through the k loop for every tile of its columns;
// the unpack split across threads and vectorized.
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-select-schedules{num-threads=2 cpu-features=+avx512f},mo-apply-schedules),canonicalize,cse)" | FileCheck %s
// The whole CPU pipeline turns the thread tiles into OpenMP and the
// accumulator tile into 32-wide FMAs (no result streamed whatever the host's
// cache: mo-stream-stores.mlir tests that).
// RUN: mo-opt %s --split-input-file --mo-cpu-codegen="num-threads=2 cpu-features=+avx512f stream-min-bytes=1073741824" | FileCheck %s --check-prefix=LLVM
// AVX2's blocked order of the register tiles (@wide):
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-select-schedules{num-threads=2 cpu-features=+avx2,+fma},mo-apply-schedules),canonicalize,cse)" | FileCheck %s --check-prefix=AVX2

// CHECK-LABEL: func.func @square
// CHECK-NOT: tensor<128x1024x8x1xf32>
// CHECK: scf.forall (%{{.+}}) in (2) shared_outs(%{{.+}}) -> (tensor<128x32x8x32xf32>)
// CHECK: vector.transfer_write %{{.+}} : vector<8x32xf32>, tensor<128x16x8x32xf32>
// CHECK: %[[PANEL:.+]] = tensor.empty() : tensor<16x256x32x1xf32>
// CHECK: %[[ROWS:.+]] = tensor.empty() : tensor<1x256x8x1xf32>
// CHECK: scf.for %{{.+}} step %c256
// CHECK: scf.for %{{.+}} to %c256 step %c4 iter_args(%{{.+}} = %[[PANEL]]) -> (tensor<16x256x32x1xf32>)
// CHECK: scf.for %{{.+}} to %c16 step %c1
// CHECK: vector.transfer_write %{{.+}} : vector<4x32x1xf32>, tensor<16x256x32x1xf32>
// CHECK: scf.for %{{.+}} to %c128 step %c1
// CHECK: scf.for %{{.+}} to %c256 step %c8 iter_args(%{{.+}} = %[[ROWS]]) -> (tensor<1x256x8x1xf32>)
// CHECK: vector.transfer_write %{{.+}} : vector<8x8x1xf32>, tensor<1x256x8x1xf32>
// CHECK: scf.for %{{.+}} to %c16 step %c1
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

// -----

// One tile of columns for two threads: the threads split the rows of tiles
// instead, B packed first in a kernel of its own, and each thread walks
// cache blocks of 256 k steps over its 64 row tiles.
// CHECK-LABEL: func.func @narrow
// CHECK: scf.forall (%{{.+}}) in (128) shared_outs(%{{.+}}) -> (tensor<128x4096x8x1xf32>)
// CHECK: scf.for %{{.+}} step %c4 iter_args(%{{.+}}) -> (tensor<1x4096x32x1xf32>)
// CHECK: vector.transfer_write %{{.+}} : vector<4x32x1xf32>, tensor<1x4096x32x1xf32>
// CHECK: scf.forall (%{{.+}}) in (2) shared_outs(%{{.+}}) -> (tensor<128x1x8x32xf32>)
// CHECK: scf.for %{{.+}} step %c256
// CHECK: scf.for %{{.+}} to %c64 step %c1
// CHECK: vector.contract {{.+}} : vector<8x1xf32>, vector<32x1xf32> into vector<8x32xf32>
func.func @narrow(%a: tensor<1024x4096xf32>, %b: tensor<4096x32xf32>) -> tensor<1024x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x32xf32>) -> tensor<1024x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x4096xf32>, tensor<4096x32xf32>) outs(%c : tensor<1024x32xf32>) -> tensor<1024x32xf32>
  return %r : tensor<1024x32xf32>
}

// -----

// Rows known at run time, k (64) shorter than a cache block: the threads
// split the columns, and each packs its panel of B four k steps a copy,
// whole vectors (a block of 256 left its size a min nothing folded, and the
// pack a masked copy per element).
// CHECK-LABEL: func.func @short_k
// CHECK: scf.forall (%{{.+}}) in (2)
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c4
// CHECK-NEXT: scf.for %{{.+}} = %c0 to %c16 step %c1
// CHECK: vector.transfer_read %arg1[%{{.+}}, %{{.+}}], %{{[^ ]+}} {in_bounds = [true, true]} : tensor<64x2048xf32>, vector<4x32xf32>
// CHECK-NEXT: vector.shape_cast
// CHECK-NEXT: vector.transfer_write %{{.+}} {in_bounds = [true, true, true]} : vector<4x32x1xf32>
func.func @short_k(%a: tensor<?x64xf32>, %b: tensor<64x2048xf32>) -> tensor<?x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%m) : tensor<?x2048xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x2048xf32>) -> tensor<?x2048xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x2048xf32>) outs(%c : tensor<?x2048xf32>) -> tensor<?x2048xf32>
  return %r : tensor<?x2048xf32>
}

// -----

// A softmax chain fused per tile of 4 rows: one scf.forall computes the max,
// exp, sum and divide of its rows; nothing is left outside. The exp, whose
// destination is the output's, writes its tile into the output's (no
// temporary per tile), as the divide then does.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.generic
// CHECK: scf.forall (%{{.+}}) in (1024) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<4096x1024xf32>)
// CHECK: linalg.generic {{.+}} ins(%{{.+}} : tensor<4x1024xf32>) outs(%{{.+}} : tensor<4xf32>)
// CHECK: arith.maximumf
// CHECK: %[[TILE:.+]] = tensor.extract_slice %[[OUT]]
// CHECK: linalg.generic {{.+}} outs(%[[TILE]] : tensor<4x1024xf32>)
// CHECK: math.exp
// CHECK: linalg.generic {{.+}} ins(%{{.+}} : tensor<4x1024xf32>) outs(%{{.+}} : tensor<4xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<4x1024xf32>)
// CHECK: arith.divf
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg.generic
// CHECK: return
// LLVM-LABEL: llvm.func @softmax
// LLVM: omp.wsloop
#x = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4096xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %m = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x1024xf32>) outs(%m0 : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %e2 = tensor.empty() : tensor<4096x1024xf32>
  %ex = linalg.generic {indexing_maps = [#x, #row, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%e2 : tensor<4096x1024xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4096x1024xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %s = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4096x1024xf32>) outs(%s0 : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %y = linalg.generic {indexing_maps = [#x, #row, #x], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%e2 : tensor<4096x1024xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %r = arith.divf %in, %sum : f32
    linalg.yield %r : f32
  } -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}

// -----

// The same softmax as mo-fuse-elementwise leaves it, the exp stored and
// summed by one reduction with two results: the tile computes the exp once
// (one tiled copy for both results' slices), writing it into the output's
// tile, which the divide then scales in place: three passes over a row.
// CHECK-LABEL: func.func @softmax_one_pass
// CHECK: scf.forall (%{{.+}}) in (1024) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<4096x1024xf32>)
// CHECK: linalg.generic {{.+}} ins(%{{.+}} : tensor<4x1024xf32>) outs(%{{.+}} : tensor<4xf32>)
// CHECK: arith.maximumf
// CHECK: %[[TILE:.+]] = tensor.extract_slice %[[OUT]]
// CHECK: %[[BOTH:.+]]:2 = linalg.generic {{.+}} outs(%[[TILE]], %{{.+}} : tensor<4x1024xf32>, tensor<4xf32>)
// CHECK: math.exp
// CHECK: arith.addf
// CHECK-NOT: math.exp
// CHECK: linalg.generic {{.+}} ins(%[[BOTH]]#0, %[[BOTH]]#1 : tensor<4x1024xf32>, tensor<4xf32>) outs(%[[TILE]] : tensor<4x1024xf32>)
// CHECK: arith.divf
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg.generic
// CHECK: return
#x = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_one_pass(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4096xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %m = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x1024xf32>) outs(%m0 : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %e2 = tensor.empty() : tensor<4096x1024xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %ex, %s = linalg.generic {indexing_maps = [#x, #row, #x, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%e2, %s0 : tensor<4096x1024xf32>, tensor<4096xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32, %acc: f32):
    %d = arith.subf %in, %mx : f32
    %r = math.exp %d : f32
    %a = arith.addf %acc, %r : f32
    linalg.yield %r, %a : f32, f32
  } -> (tensor<4096x1024xf32>, tensor<4096xf32>)
  %y = linalg.generic {indexing_maps = [#x, #row, #x], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%e2 : tensor<4096x1024xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %r = arith.divf %in, %sum : f32
    linalg.yield %r : f32
  } -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}

// -----

// A fused producer's temporary is its tile's (rows known at run time): not
// a slice of one of the whole tensor's size, allocated outside the loop.
// CHECK-LABEL: func.func @row_temporary
// CHECK-NOT: tensor.empty(%{{.+}}) : tensor<?x1024xf32>
// CHECK: scf.forall
// CHECK: %[[TEMP:.+]] = tensor.empty(%{{.+}}) : tensor<?x1024xf32>
// CHECK: linalg.generic {{.+}} outs(%[[TEMP]] : tensor<?x1024xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
#x = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_temporary(%x: tensor<?x1024xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x1024xf32>
  %e2 = tensor.empty(%n) : tensor<?x1024xf32>
  %sq = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x1024xf32>) outs(%e2 : tensor<?x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<?x1024xf32>
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<?x1024xf32>) outs(%s0 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// -----

// A batch_matmul data-tiled: the threads split the batch; each batch is
// the mmt4d schedule's cache blocks and 8 x 32 accumulator tile.
// CHECK-LABEL: func.func @batched
// CHECK: scf.forall (%{{.+}}) in (2) shared_outs(%{{.+}}) -> (tensor<8x16x4x8x32xf32>)
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (vector<1x1x1x8x32xf32>)
// CHECK: vector.contract {{.+}} : vector<8x1xf32>, vector<32x1xf32> into vector<8x32xf32>
// CHECK-NOT: linalg.
// LLVM-LABEL: llvm.func @batched
// LLVM: omp.wsloop
// LLVM: llvm.intr.fmuladd({{.+}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
func.func @batched(%a: tensor<8x128x64xf32>, %b: tensor<8x64x128xf32>) -> tensor<8x128x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x128x128xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<8x128x64xf32>, tensor<8x64x128xf32>) outs(%c : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  return %r : tensor<8x128x128xf32>
}

// -----

// The direct convolution: the threads split the rows of output pixels; a
// tile of 14 pixels x 32 channels is one accumulator carried in registers
// through the window (kh, kw) and the input channels (one a step), each
// step the outer product of 14 input elements as they are and a row of the
// filter. At the end, 32-wide FMAs of broadcast input elements, no element
// stored alone.
// CHECK-LABEL: func.func @conv
// CHECK: scf.forall (%{{.+}}) in (56)
// CHECK: scf.for %{{.+}} step %c14
// CHECK: scf.for %{{.+}} step %c32
// CHECK: scf.for {{.+}} to %c3 {{.+}} -> (vector<1x14x32xf32>)
// CHECK: scf.for {{.+}} to %c3 {{.+}} -> (vector<1x14x32xf32>)
// CHECK: scf.for {{.+}} to %c64 step %c1 {{.+}} -> (vector<1x14x32xf32>)
// CHECK: vector.contract {{.+}} : vector<14x1xf32>, vector<1x32xf32> into vector<14x32xf32>
// CHECK-NOT: linalg.conv
// LLVM-LABEL: llvm.func @conv
// LLVM: omp.parallel
// LLVM-NOT: llvm.store {{.+}} : f32, !llvm.ptr
// LLVM: llvm.intr.fmuladd{{.+}} : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
func.func @conv(%x: tensor<1x58x58x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%c : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}

// -----

// The fused epilogue: per 14 x 32 tile, the accumulator starts at zero in
// registers, runs through the window and the channels, takes the bias and
// the relu there, and is written once; no kernel of its own is left.
// CHECK-LABEL: func.func @conv_epilogue
// CHECK: scf.forall (%{{.+}}) in (56)
// CHECK: scf.for %{{.+}} step %c14
// CHECK: scf.for %{{.+}} step %c32
// CHECK: scf.for {{.+}} to %c3 step %c1 iter_args(%{{.+}} = %cst{{.*}}) -> (vector<1x14x32xf32>)
// CHECK: vector.contract {{.+}} : vector<14x1xf32>, vector<1x32xf32> into vector<14x32xf32>
// CHECK: arith.addf {{.+}} : vector<14x32xf32>
// CHECK: arith.maximumf {{.+}} : vector<14x32xf32>
// CHECK-NEXT: vector.transfer_write
// CHECK-NOT: linalg.
func.func @conv_epilogue(%x: tensor<1x58x58x64xf32>, %w: tensor<3x3x64x64xf32>, %b: tensor<64xf32>) -> tensor<1x56x56x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%c : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %flat = tensor.collapse_shape %r [[0, 1], [2], [3]] : tensor<1x56x56x64xf32> into tensor<56x56x64xf32>
  %e2 = tensor.empty() : tensor<56x56x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%flat, %b : tensor<56x56x64xf32>, tensor<64xf32>) outs(%e2 : tensor<56x56x64xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<56x56x64xf32>
  %out = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [1, 56, 56, 64] : tensor<56x56x64xf32> into tensor<1x56x56x64xf32>
  return %out : tensor<1x56x56x64xf32>
}

// -----

// A filter over 1 MiB: the threads split the 8 tiles of 32 output channels;
// each tile's convolution (conv_serial) walks its rows and 14-pixel tiles in
// turn, the accumulator in registers through the window and the channels.
// CHECK-LABEL: func.func @conv_big_filter
// CHECK: scf.forall (%{{.+}}) in (8) shared_outs(%{{.+}}) -> (tensor<1x14x14x256xf32>)
// CHECK-NOT: scf.forall
// CHECK: scf.for %{{.+}} to %c14 step %c1
// CHECK: scf.for {{.+}} to %c3 {{.+}} -> (vector<1x14x32xf32>)
// CHECK: scf.for {{.+}} to %c3 {{.+}} -> (vector<1x14x32xf32>)
// CHECK: scf.for {{.+}} to %c256 step %c1 {{.+}} -> (vector<1x14x32xf32>)
// CHECK: vector.contract {{.+}} : vector<14x1xf32>, vector<1x32xf32> into vector<14x32xf32>
// CHECK: tensor.parallel_insert_slice
// CHECK-NOT: linalg.conv
func.func @conv_big_filter(%x: tensor<1x16x16x256xf32>, %w: tensor<3x3x256x256xf32>) -> tensor<1x14x14x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x16x256xf32>, tensor<3x3x256x256xf32>) outs(%c : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  return %r : tensor<1x14x14x256xf32>
}

// -----

// Few rows: the threads split the columns, and inside each thread's k
// blocks of 256 a 16-tile panel of B is packed (4 k steps a vector, k
// outer: the rows of B read along their pages), then, row tile by row
// tile, its 8 x 256 panel of A, and the row tile's 8 x 32 accumulators run
// over them. Each panel is one buffer per thread, which every k block (or
// row tile) packs again (it stays in cache; a slice of B's whole packed
// shape was 4 MB per thread, written once).
// CHECK-LABEL: func.func @wide
// CHECK: scf.forall (%{{.+}}) in (2) shared_outs(%{{.+}}) -> (tensor<8x32x8x32xf32>)
// CHECK: %[[PANEL:.+]] = tensor.empty() : tensor<16x256x32x1xf32>
// CHECK-NEXT: %[[ROWS:.+]] = tensor.empty() : tensor<1x256x8x1xf32>
// CHECK-NEXT: scf.for %{{.+}} step %c256
// CHECK-NEXT: scf.for %{{.+}} to %c256 step %c4 iter_args(%{{.+}} = %[[PANEL]]) -> (tensor<16x256x32x1xf32>)
// CHECK: scf.for %{{.+}} to %c16 step %c1
// CHECK: vector.transfer_write %{{.+}} : vector<4x32x1xf32>, tensor<16x256x32x1xf32>
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %[[ROWS]]) -> (tensor<1x256x8x1xf32>)
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (vector<1x1x8x32xf32>)
// CHECK: vector.contract {{.+}} : vector<8x1xf32>, vector<32x1xf32> into vector<8x32xf32>
// CHECK-NOT: linalg.pack
// With AVX2 the 11 row tiles go in blocks of 8, each block's column tiles
// outer: a column's panel of B stays in L1 across the block's rows.
// AVX2-LABEL: func.func @wide
// AVX2: %[[PANEL:.+]] = tensor.empty() : tensor<16x256x16x1xf32>
// AVX2: scf.for %{{.+}} to %c256 step %c4 iter_args(%{{.+}} = %[[PANEL]]) -> (tensor<16x256x16x1xf32>)
// AVX2: scf.for %{{.+}} = %c0 to %c11 step %c8
// AVX2: scf.for %{{.+}} = %c0 to %c16 step %c1
// AVX2: scf.for %{{.+}} = %c0 to %{{.+}} step %c1
// AVX2: scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (vector<1x1x6x16xf32>)
// AVX2: vector.contract {{.+}} : vector<6x1xf32>, vector<16x1xf32> into vector<6x16xf32>
func.func @wide(%a: tensor<64x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}

// -----

// The fused epilogue: per 8 x 32 tile of C, the packed accumulator tile is
// read as one vector, biased, rectified and written: C is never unpacked
// into memory on its own.
// CHECK-LABEL: func.func @epilogue
// CHECK: vector.contract {{.+}} : vector<8x1xf32>, vector<32x1xf32> into vector<8x32xf32>
// CHECK: scf.forall (%[[I:.+]]) in (8) shared_outs(%{{.+}}) -> (tensor<64x1024xf32>)
// CHECK: scf.for %{{.+}} step %c32
// CHECK: %[[T:.+]] = vector.transfer_read %{{.+}}[%[[I]], %{{.+}}, %c0, %c0], %{{.+}} : tensor<8x32x8x32xf32>, vector<8x32xf32>
// CHECK: %[[S:.+]] = arith.addf %[[T]], %{{.+}} : vector<8x32xf32>
// CHECK: arith.maximumf %[[S]], %{{.+}} : vector<8x32xf32>
// CHECK-NOT: linalg.unpack
func.func @epilogue(%a: tensor<64x1024xf32>, %b: tensor<1024x1024xf32>, %bias: tensor<1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<64x1024xf32>, tensor<1024xf32>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x1024xf32>
  return %o : tensor<64x1024xf32>
}

// -----

// B of 256 KiB or less read in place (matmul_direct): each thread tile one
// 8 x 32 register tile, its accumulator carried in registers through the k
// loop (8 elements of A broadcast times a row of B a step), the fill folded
// into its start, written once; no pack.
// CHECK-LABEL: func.func @direct
// CHECK-NOT: linalg.pack
// CHECK: scf.forall (%{{.+}}, %{{.+}}) in (128, 8) shared_outs(%{{.+}}) -> (tensor<1024x256xf32>)
// CHECK: scf.for %{{.+}} = %c0 to %c256 step %c1 iter_args(%{{.+}} = %cst) -> (vector<8x32xf32>)
// CHECK: vector.transfer_read %arg0{{.+}} : tensor<1024x256xf32>, vector<8x1xf32>
// CHECK: vector.transfer_read %arg1{{.+}} : tensor<256x256xf32>, vector<32xf32>
// CHECK: vector.contract {{.+}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK: vector.transfer_write {{.+}} : vector<8x32xf32>, tensor<8x32xf32>
// LLVM-LABEL: llvm.func @direct_kernel(
// LLVM: omp.wsloop
// LLVM-COUNT-8: llvm.intr.fmuladd({{.+}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
func.func @direct(%a: tensor<1024x256xf32>, %b: tensor<256x256xf32>) -> tensor<1024x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x256xf32>) -> tensor<1024x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x256xf32>, tensor<256x256xf32>) outs(%c : tensor<1024x256xf32>) -> tensor<1024x256xf32>
  return %r : tensor<1024x256xf32>
}

// -----

// Rows known at run time and 10 columns, a bias added (matmul_direct_padded):
// each thread tile one 8-row register tile, whatever its rows: row i of A
// read at min(i, rows - 1), in place (no padded copy, no second version of
// the tile); the columns one vector of 16 masked to 10; the bias added to
// the accumulator in registers (forwarded, not read back) and only the
// write masked to the tile's rows.
// CHECK-DAG: #[[FIRST:.+]] = affine_map<()[s0] -> (0, s0 - 1)>
// CHECK-DAG: #[[LAST:.+]] = affine_map<()[s0] -> (7, s0 - 1)>
// CHECK-LABEL: func.func @direct_rows
// CHECK: scf.forall (%{{.+}}) in (%{{.+}}) shared_outs(%{{.+}}) -> (tensor<?x10xf32>)
// CHECK: %[[ROWS:.+]] = affine.min #{{.+}}(%{{.+}})[%{{.+}}]
// CHECK: affine.min #[[FIRST]]()[%[[ROWS]]]
// CHECK: affine.min #[[LAST]]()[%[[ROWS]]]
// CHECK-NOT: scf.for
// CHECK: %[[ACC:.+]] = scf.for %{{.+}} = %c0 to %c128 step %c1 iter_args(%{{.+}}) -> (vector<8x16xf32>)
// CHECK-COUNT-8: vector.transfer_read %arg0[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<?x128xf32>, vector<1xf32>
// CHECK: vector.from_elements {{.+}} : vector<8x1xf32>
// CHECK: vector.mask %{{.+}} { vector.contract {{.+}} : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32> }
// CHECK-NOT: scf.for
// CHECK: %[[MASK:.+]] = vector.create_mask %[[ROWS]], %c10 : vector<8x16xi1>
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %{{.+}} : vector<8x16xf32>
// CHECK: vector.transfer_write %[[SUM]], %{{.+}}[%c0, %c0], %[[MASK]] {in_bounds = [true, true]} : vector<8x16xf32>, tensor<?x10xf32>
// CHECK-NOT: tensor.pad
// CHECK-NOT: linalg.
func.func @direct_rows(%a: tensor<?x128xf32>, %b: tensor<128x10xf32>, %bias: tensor<10xf32>) -> tensor<?x10xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%m) : tensor<?x10xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x10xf32>) -> tensor<?x10xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x128xf32>, tensor<128x10xf32>) outs(%c : tensor<?x10xf32>) -> tensor<?x10xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<?x10xf32>, tensor<10xf32>) outs(%e : tensor<?x10xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x10xf32>
  return %o : tensor<?x10xf32>
}

// -----

// A batch_matmul (attention's q k^T): the threads split the batch, and each
// batch step packs its batch's panels of A (8 k steps a vector) and B (4)
// right before its 8 x 32 accumulators run over them; no pack of all the
// batches first.
// CHECK-LABEL: func.func @batched
// CHECK-NOT: tensor<8x16x64x8x1xf32>
// CHECK: scf.forall (%{{.+}}) in (2) shared_outs(%{{.+}}) -> (tensor<8x16x4x8x32xf32>)
// CHECK: %[[ROWS:.+]] = tensor.empty() : tensor<1x16x64x8x1xf32>
// CHECK: scf.for %{{.+}} = %c0 to %c4 step %c1
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %[[ROWS]]) -> (tensor<1x16x64x8x1xf32>)
// CHECK: vector.transfer_write %{{.+}} : vector<8x8x1xf32>, tensor<1x16x64x8x1xf32>
// CHECK: vector.transfer_write %{{.+}} : vector<4x32x1xf32>, tensor<1x?x64x32x1xf32>
// CHECK: vector.contract {{.+}} : vector<8x1xf32>, vector<32x1xf32> into vector<8x32xf32>
// CHECK: scf.forall.in_parallel
func.func @batched(%a: tensor<8x128x64xf32>, %b: tensor<8x64x128xf32>) -> tensor<8x128x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x128x128xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<8x128x64xf32>, tensor<8x64x128xf32>) outs(%c : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  return %r : tensor<8x128x128xf32>
}
