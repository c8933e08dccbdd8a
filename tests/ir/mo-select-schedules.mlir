// mo-select-schedules: the strategy table. An f32 matmul (or batch_matmul,
// or a convolution as im2col times a matrix) is data-tiled for
// the target's register tile (8 x 32 with AVX-512, 6 x 16 with AVX2), padded
// where the sizes do not divide, and each step records its schedule; the
// threads split the columns of tiles when each gets some (each packing the
// panels of B it needs, the pack fused into its tiles, and with AVX-512
// where the rows divide the register tile those of A too, no schedule of
// its own; with AVX2 the row tiles in blocks of 8, each block's columns
// outer), else the rows; a
// small product stays a matmul (loops). Row kernels form chains (below).
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-select-schedules{num-threads=2 cpu-features=+avx512f}),canonicalize)" | FileCheck %s --check-prefix=AVX512
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-select-schedules{num-threads=2 cpu-features=+avx2,+fma}),canonicalize)" | FileCheck %s --check-prefix=AVX2

// AVX512-LABEL: func.func @square
// AVX512: %[[A:.+]] = linalg.pack %arg0 inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %{{.+}} : tensor<1024x1024xf32> -> tensor<128x1024x8x1xf32>
// AVX512: %[[B:.+]] = linalg.pack %arg1 outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [32, 1] into %{{.+}} {mo.fused_into = [[G:[0-9]+]] : i64} : tensor<1024x1024xf32> -> tensor<32x1024x32x1xf32>
// AVX512: %[[C:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<128x32x8x32xf32>)
// AVX512: %[[P:.+]] = linalg.mmt4d {mo.schedule = {fuse = [[G]] : i64, kind = "mmt4d_pack_both", sizes = [2, 16, 256, 32, 8]}} ins(%[[A]], %[[B]] : {{.+}}) outs(%[[C]] :
// AVX512: linalg.unpack %[[P]] inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %{{.+}} {mo.schedule = {kind = "relayout", sizes = [8, 32, 1, 1, 8, 32]}} : tensor<128x32x8x32xf32> -> tensor<1024x1024xf32>
// AVX512-NOT: linalg.matmul
// AVX2-LABEL: func.func @square
// AVX2: inner_tiles = [6, 1] into {{.+}} -> tensor<171x1024x6x1xf32>
// AVX2: inner_tiles = [16, 1] into {{.+}} -> tensor<64x1024x16x1xf32>
// AVX2: linalg.mmt4d {mo.schedule = {fuse = {{[0-9]+}} : i64, kind = "mmt4d_pack_rhs_blocked", sizes = [2, 16, 256, 16, 8]}}
// AVX2: inner_tiles = [6, 16] into {{.+}} : tensor<171x64x6x16xf32> -> tensor<1024x1024xf32>
func.func @square(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}

// -----

// Rows known at run time, columns that do not divide 32: padded packs, the
// threads on the columns (as many tiles whatever the rows).
// AVX512-LABEL: func.func @ragged
// AVX512: linalg.pack %arg0 padding_value(%{{.+}} : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %{{.+}} : tensor<?x1000xf32> -> tensor<?x1000x8x1xf32>
// AVX512: linalg.pack %arg1 padding_value(%{{.+}} : f32) outer_dims_perm = [1, 0] {{.+}} : tensor<1000x1000xf32> -> tensor<32x1000x32x1xf32>
// AVX512: linalg.mmt4d {mo.schedule = {fuse = {{[0-9]+}} : i64, kind = "mmt4d_pack_rhs", sizes = [2, 16, 256, 32]}}
// AVX512: linalg.unpack {{.+}} : tensor<?x32x8x32xf32> -> tensor<?x1000xf32>
func.func @ragged(%a: tensor<?x1000xf32>, %b: tensor<1000x1000xf32>) -> tensor<?x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x1000xf32>
  %e = tensor.empty(%m) : tensor<?x1000xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x1000xf32>) -> tensor<?x1000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x1000xf32>, tensor<1000x1000xf32>) outs(%c : tensor<?x1000xf32>) -> tensor<?x1000xf32>
  return %r : tensor<?x1000xf32>
}

// -----

// One tile of columns for two threads: the threads split the rows, and B is
// packed on its own.
// AVX512-LABEL: func.func @narrow
// AVX512: linalg.pack %arg1 {{.+}} {mo.schedule = {kind = "relayout", sizes = [1, 4, 1, 4, 32, 1]}} : tensor<4096x32xf32> -> tensor<1x4096x32x1xf32>
// AVX512: linalg.mmt4d {mo.schedule = {kind = "mmt4d", sizes = [2, 1, 16, 256]}}
func.func @narrow(%a: tensor<1024x4096xf32>, %b: tensor<4096x32xf32>) -> tensor<1024x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x32xf32>) -> tensor<1024x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x4096xf32>, tensor<4096x32xf32>) outs(%c : tensor<1024x32xf32>) -> tensor<1024x32xf32>
  return %r : tensor<1024x32xf32>
}

// -----

// Few rows (an MLP layer at batch 64): the threads split the columns, and
// each packs B's cache blocks as they are needed (the pack fused into the
// mmt4d's tiles, not scheduled on its own).
// AVX512-LABEL: func.func @wide
// AVX512: %[[B:.+]] = linalg.pack %arg1 {{.+}} {mo.fused_into = [[G:[0-9]+]] : i64} : tensor<1024x1024xf32> -> tensor<32x1024x32x1xf32>
// AVX512: linalg.mmt4d {mo.schedule = {fuse = [[G]] : i64, kind = "mmt4d_pack_both", sizes = [2, 16, 256, 32, 8]}} ins(%{{.+}}, %[[B]] :
func.func @wide(%a: tensor<64x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}

// -----

// B of 256 KiB or less is read in place, whatever the product's size: one
// register tile of m0 x n0 per thread tile, the fill of C fused into it (no
// pack); its rows divide the tile. Narrower rows or columns than a tile
// take the tile's vectors at their size, whole lanes (4 x 16 here).
// AVX512-LABEL: func.func @direct
// AVX512: linalg.fill {mo.fused_into = [[G:[0-9]+]] : i64}
// AVX512: linalg.matmul {mo.schedule = {fuse = [[G]] : i64, kind = "matmul_direct", sizes = [8, 32]}} ins(%arg0, %arg1 : tensor<1024x256xf32>, tensor<256x256xf32>)
// AVX512-NOT: linalg.pack
// AVX512-LABEL: func.func @tiny
// AVX512-NOT: linalg.pack
// AVX512: linalg.matmul {mo.schedule = {fuse = {{[0-9]+}} : i64, kind = "matmul_direct", sizes = [4, 16]}}
func.func @direct(%a: tensor<1024x256xf32>, %b: tensor<256x256xf32>) -> tensor<1024x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x256xf32>) -> tensor<1024x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x256xf32>, tensor<256x256xf32>) outs(%c : tensor<1024x256xf32>) -> tensor<1024x256xf32>
  return %r : tensor<1024x256xf32>
}
func.func @tiny(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// A few rows read any B in place, once (a decode step): one row takes twice
// the accumulators of a register tile in one row (512 = 32 vectors of 16 on
// AVX-512, 128 on AVX2), three rows the tile's, in a power of two of whole
// vectors (AVX-512: 256 / 3 -> 5 -> 4 vectors of 16). Eight rows pack B.
// AVX512-LABEL: func.func @decode
// AVX512-NOT: linalg.pack
// AVX512: linalg.matmul {mo.schedule = {fuse = {{[0-9]+}} : i64, kind = "matmul_direct", sizes = [1, 512]}}
// AVX512: linalg.matmul {mo.schedule = {fuse = {{[0-9]+}} : i64, kind = "matmul_direct", sizes = [3, 64]}}
// AVX512: linalg.pack
// AVX512: linalg.mmt4d
// AVX2-LABEL: func.func @decode
// AVX2: linalg.matmul {mo.schedule = {fuse = {{[0-9]+}} : i64, kind = "matmul_direct", sizes = [1, 128]}}
// AVX2: linalg.matmul {mo.schedule = {fuse = {{[0-9]+}} : i64, kind = "matmul_direct", sizes = [3, 32]}}
func.func @decode(%x: tensor<1x2048xf32>, %w: tensor<2048x2048xf32>, %y: tensor<3x4096xf32>,
                  %v: tensor<4096x1000xf32>, %z: tensor<8x2048xf32>)
    -> (tensor<1x2048xf32>, tensor<3x1000xf32>, tensor<8x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x2048xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  %r1 = linalg.matmul ins(%x, %w : tensor<1x2048xf32>, tensor<2048x2048xf32>) outs(%c1 : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  %e3 = tensor.empty() : tensor<3x1000xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %r3 = linalg.matmul ins(%y, %v : tensor<3x4096xf32>, tensor<4096x1000xf32>) outs(%c3 : tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %e8 = tensor.empty() : tensor<8x2048xf32>
  %c8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8x2048xf32>) -> tensor<8x2048xf32>
  %r8 = linalg.matmul ins(%z, %w : tensor<8x2048xf32>, tensor<2048x2048xf32>) outs(%c8 : tensor<8x2048xf32>) -> tensor<8x2048xf32>
  return %r1, %r3, %r8 : tensor<1x2048xf32>, tensor<3x1000xf32>, tensor<8x2048xf32>
}

// -----

// B's size is its own: a k known only at run time in A does not hide it
// (4 rows of a static 1 MiB B read it in place).
// AVX512-LABEL: func.func @run_time_k
// AVX512-NOT: linalg.pack
// AVX512: linalg.matmul {mo.schedule = {fuse = {{[0-9]+}} : i64, kind = "matmul_direct", sizes = [4, 64]}}
func.func @run_time_k(%a: tensor<4x?xf32>, %b: tensor<512x512xf32>) -> tensor<4x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x512xf32>) -> tensor<4x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x?xf32>, tensor<512x512xf32>) outs(%c : tensor<4x512xf32>) -> tensor<4x512xf32>
  return %r : tensor<4x512xf32>
}

// -----

// Rows known at run time (an MLP's batch) and a classifier's 10 columns:
// each thread tile one full register tile whose rows past the end are
// dropped (matmul_direct_padded), the columns one masked vector of 16. The epilogue (bias) is the root: the
// product and the fill of C are fused into its tiles.
// AVX512-LABEL: func.func @direct_rows
// AVX512: linalg.fill {mo.fused_into = [[G:[0-9]+]] : i64}
// AVX512: linalg.matmul {mo.fused_into = [[G]] : i64}
// AVX512: linalg.generic {{.+}}mo.schedule = {fuse = [[G]] : i64, kind = "matmul_direct_padded", sizes = [8, 16]}
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

// A big elementwise kernel: split across the threads by its first loop; a
// small one, or one whose first loop is too short, by the next or not at all.
// AVX512-LABEL: func.func @rows
// AVX512: linalg.generic {{.+}} ins(%arg0 : tensor<4096x4096xf32>) {{.+}} attrs = {mo.schedule = {kind = "rows", sizes = {{\[}}[2]]}}
// AVX512: linalg.generic {{.+}} ins(%arg1 : tensor<1x65536xf32>) {{.+}} attrs = {mo.schedule = {kind = "rows", sizes = {{\[}}[1, 2]]}}
// AVX512: linalg.generic
// AVX512-NOT: mo.schedule
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%x: tensor<4096x4096xf32>, %y: tensor<1x65536xf32>, %z: tensor<8x8xf32>)
    -> (tensor<4096x4096xf32>, tensor<1x65536xf32>, tensor<8x8xf32>) {
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4096x4096xf32>) outs(%x : tensor<4096x4096xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.addf %i, %i : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<1x65536xf32>) outs(%y : tensor<1x65536xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.addf %i, %i : f32
    linalg.yield %r : f32
  } -> tensor<1x65536xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.addf %i, %i : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %a, %b, %c : tensor<4096x4096xf32>, tensor<1x65536xf32>, tensor<8x8xf32>
}

// -----

// A softmax chain: the last kernel claims its producers (each used only
// inside the chain, writing rows its consumer reads as rows) for tiles of 4
// rows; a kernel whose result is also used outside stays on its own.
// AVX512-LABEL: func.func @softmax
// AVX512: linalg.fill {mo.fused_into = [[G:[0-9]+]] : i64}
// AVX512: linalg.generic {{.+}} attrs =  {mo.fused_into = [[G]] : i64}
// AVX512: linalg.generic {{.+}} attrs =  {mo.fused_into = [[G]] : i64}
// AVX512: linalg.fill {mo.fused_into = [[G]] : i64}
// AVX512: linalg.generic {{.+}} attrs =  {mo.fused_into = [[G]] : i64}
// AVX512: linalg.generic {{.+}} attrs =  {mo.schedule = {fuse = [[G]] : i64, kind = "fused_rows", sizes = {{\[}}[4, 0]]}}
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

// Rows over several loops (attention's softmax: 8 heads of 128 rows): all
// the outer parallel loops but the innermost are rows, tiled by 1 head and
// 4 rows.
// AVX512-LABEL: func.func @head_rows
// AVX512: linalg.fill {mo.fused_into = [[G:[0-9]+]] : i64}
// AVX512: linalg.generic {{.+}} attrs =  {mo.fused_into = [[G]] : i64}
// AVX512: linalg.generic {{.+}} attrs =  {mo.schedule = {fuse = [[G]] : i64, kind = "fused_rows", sizes = {{\[}}[1, 4, 0]]}}
#x3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @head_rows(%x: tensor<8x128x128xf32>) -> tensor<8x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x128xf32>
  %e2 = tensor.empty() : tensor<8x128x128xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %s = linalg.generic {indexing_maps = [#x3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<8x128x128xf32>) outs(%s0 : tensor<8x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<8x128xf32>
  %y = linalg.generic {indexing_maps = [#x3, #row3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<8x128x128xf32>, tensor<8x128xf32>) outs(%e2 : tensor<8x128x128xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %r = arith.divf %in, %sum : f32
    linalg.yield %r : f32
  } -> tensor<8x128x128xf32>
  return %y : tensor<8x128x128xf32>
}

// -----

// A producer reduces along the middle loop (a mean over axis 1): only the
// outer loop is rows.
// AVX512-LABEL: func.func @middle_reduction
// AVX512: linalg.generic {{.+}} attrs =  {mo.fused_into = [[G:[0-9]+]] : i64}
// AVX512: linalg.generic {{.+}} attrs =  {mo.schedule = {fuse = [[G]] : i64, kind = "fused_rows", sizes = {{\[}}[4, 0, 0]]}}
#x4 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#outer4 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @middle_reduction(%x: tensor<32x64x64xf32>) -> tensor<32x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<32x64x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %s = linalg.generic {indexing_maps = [#x4, #outer4], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<32x64x64xf32>) outs(%s0 : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  %y = linalg.generic {indexing_maps = [#x4, #outer4, #x4], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<32x64x64xf32>, tensor<32x64xf32>) outs(%e2 : tensor<32x64x64xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %r = arith.subf %in, %sum : f32
    linalg.yield %r : f32
  } -> tensor<32x64x64xf32>
  return %y : tensor<32x64x64xf32>
}

// -----

// The exp is also returned: it is computed whole (split across the threads),
// and the sum and the divide, which read it, form the chain.
// AVX512-LABEL: func.func @shared_exp
// AVX512: linalg.generic {{.+}} attrs =  {mo.schedule = {kind = "rows", sizes = {{\[}}[2]]}}
// AVX512: linalg.fill {mo.fused_into = [[G:[0-9]+]] : i64}
// AVX512: linalg.generic {{.+}} attrs =  {mo.fused_into = [[G]] : i64}
// AVX512: linalg.generic {{.+}} attrs =  {mo.schedule = {fuse = [[G]] : i64, kind = "fused_rows", sizes = {{\[}}[4, 0]]}}
#x2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
func.func @shared_exp(%x: tensor<4096x1024xf32>) -> (tensor<4096x1024xf32>, tensor<4096x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4096xf32>
  %e2 = tensor.empty() : tensor<4096x1024xf32>
  %ex = linalg.generic {indexing_maps = [#x2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4096x1024xf32>) outs(%e2 : tensor<4096x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<4096x1024xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %s = linalg.generic {indexing_maps = [#x2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4096x1024xf32>) outs(%s0 : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %y = linalg.generic {indexing_maps = [#x2, #row2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%e2 : tensor<4096x1024xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %r = arith.divf %in, %sum : f32
    linalg.yield %r : f32
  } -> tensor<4096x1024xf32>
  return %y, %ex : tensor<4096x1024xf32>, tensor<4096x1024xf32>
}

// -----

// A batch_matmul: the same data tiling with the batch as one more outer
// dim (batch_mmt4d), which the threads split first; k (64) shorter than a
// cache block is one block. Both packs have no schedule of their own: the
// product's packs each batch's panels in its batch step.
// AVX512-LABEL: func.func @batched
// AVX512: linalg.pack %arg0 inner_dims_pos = [1, 2] inner_tiles = [8, 1] into %{{.+}} : tensor<8x128x64xf32> -> tensor<8x16x64x8x1xf32>
// AVX512: linalg.pack %arg1 outer_dims_perm = [0, 2, 1] inner_dims_pos = [2, 1] inner_tiles = [32, 1] into %{{.+}} : tensor<8x64x128xf32> -> tensor<8x4x64x32x1xf32>
// AVX512: linalg.batch_mmt4d {mo.schedule = {kind = "batch_mmt4d_packed", sizes = {{\[}}[2, 1, 1], 16, 64, 8, 32]}}
// AVX512: linalg.unpack %{{.+}} inner_dims_pos = [1, 2] inner_tiles = [8, 32] into %{{.+}} {mo.schedule = {kind = "relayout_batched", sizes = [1, 8, 32, 1, 1, 1, 8, 32]}} : tensor<8x16x4x8x32xf32> -> tensor<8x128x128xf32>
func.func @batched(%a: tensor<8x128x64xf32>, %b: tensor<8x64x128xf32>) -> tensor<8x128x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x128x128xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<8x128x64xf32>, tensor<8x64x128xf32>) outs(%c : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  return %r : tensor<8x128x128xf32>
}

// -----

// One batch for two threads: they split the columns instead, and each
// would pack all of A in its batch step: the packs run first, once.
// AVX512-LABEL: func.func @one_batch
// AVX512: linalg.pack %arg0 {{.+}} {mo.schedule = {kind = "relayout_batched", sizes = [1, 1, 8, 1, 1, 8, 8, 1]}}
// AVX512: linalg.pack %arg1 {{.+}} {mo.schedule = {kind = "relayout_batched", sizes = [1, 1, 4, 1, 1, 4, 32, 1]}}
// AVX512: linalg.batch_mmt4d {mo.schedule = {kind = "batch_mmt4d", sizes = {{\[}}[1, 1, 2], 16, 64]}}
func.func @one_batch(%a: tensor<1x512x64xf32>, %b: tensor<1x64x512xf32>) -> tensor<1x512x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x512x512xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x512x512xf32>) -> tensor<1x512x512xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x512x64xf32>, tensor<1x64x512xf32>) outs(%c : tensor<1x512x512xf32>) -> tensor<1x512x512xf32>
  return %r : tensor<1x512x512xf32>
}

// -----

// Attention's heads: q and k, [1, s, h, d] permuted to [1, h, s, d] and
// [1, h, d, s], their unit dim collapsed, are packed from [s, h, d] as
// they are, the permutation in the packs' dims: no transpose is left to
// copy them.
// AVX512-LABEL: func.func @heads
// AVX512-NOT: linalg.transpose
// AVX512: %[[Q:.+]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2], [3]] : tensor<1x128x8x64xf32> into tensor<128x8x64xf32>
// AVX512: linalg.pack %[[Q]] outer_dims_perm = [1, 0, 2] inner_dims_pos = [0, 2] inner_tiles = [8, 1] into %{{.+}} : tensor<128x8x64xf32> -> tensor<8x16x64x8x1xf32>
// AVX512: %[[K:.+]] = tensor.collapse_shape %arg1 {{\[}}[0, 1], [2], [3]] : tensor<1x128x8x64xf32> into tensor<128x8x64xf32>
// AVX512: linalg.pack %[[K]] outer_dims_perm = [1, 0, 2] inner_dims_pos = [0, 2] inner_tiles = [32, 1] into %{{.+}} : tensor<128x8x64xf32> -> tensor<8x4x64x32x1xf32>
// AVX512-NOT: linalg.transpose
func.func @heads(%q: tensor<1x128x8x64xf32>, %k: tensor<1x128x8x64xf32>) -> tensor<8x128x128xf32> {
  %z = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<1x8x128x64xf32>
  %tq = linalg.transpose ins(%q : tensor<1x128x8x64xf32>) outs(%eq : tensor<1x8x128x64xf32>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<1x8x64x128xf32>
  %tk = linalg.transpose ins(%k : tensor<1x128x8x64xf32>) outs(%ek : tensor<1x8x64x128xf32>) permutation = [0, 2, 3, 1]
  %a = tensor.collapse_shape %tq [[0, 1], [2], [3]] : tensor<1x8x128x64xf32> into tensor<8x128x64xf32>
  %b = tensor.collapse_shape %tk [[0, 1], [2], [3]] : tensor<1x8x64x128xf32> into tensor<8x64x128xf32>
  %e = tensor.empty() : tensor<8x128x128xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<8x128x64xf32>, tensor<8x64x128xf32>) outs(%c : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  return %r : tensor<8x128x128xf32>
}

// -----

// Attention's p v, its heads permuted back ([1, h, s, d] -> [1, s, h, d]):
// unpacked into [s, h, d], the permutation in the unpack's dims (its tiles
// too: 8 rows of s, one head, 32 of d), no transpose left.
// AVX512-LABEL: func.func @heads_back
// AVX512: %[[U:.+]] = linalg.unpack %{{.+}} outer_dims_perm = [1, 0, 2] inner_dims_pos = [0, 2] inner_tiles = [8, 32] into %{{.+}} {mo.schedule = {kind = "relayout_batched", sizes = [8, 1, 32, 1, 1, 1, 8, 32]}} : tensor<8x16x2x8x32xf32> -> tensor<128x8x64xf32>
// AVX512: %[[E:.+]] = tensor.expand_shape %[[U]] {{\[}}[0, 1], [2], [3]] output_shape [1, 128, 8, 64] : tensor<128x8x64xf32> into tensor<1x128x8x64xf32>
// AVX512: return %[[E]]
// AVX512-NOT: linalg.transpose
func.func @heads_back(%p: tensor<8x128x128xf32>, %v: tensor<8x128x64xf32>) -> tensor<1x128x8x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x128x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
  %r = linalg.batch_matmul ins(%p, %v : tensor<8x128x128xf32>, tensor<8x128x64xf32>) outs(%c : tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
  %x = tensor.expand_shape %r [[0, 1], [2], [3]] output_shape [1, 8, 128, 64] : tensor<8x128x64xf32> into tensor<1x8x128x64xf32>
  %et = tensor.empty() : tensor<1x128x8x64xf32>
  %t = linalg.transpose ins(%x : tensor<1x8x128x64xf32>) outs(%et : tensor<1x128x8x64xf32>) permutation = [0, 2, 1, 3]
  return %t : tensor<1x128x8x64xf32>
}

// -----

// A 2-D convolution (NHWC, HWCF) whose output rows divide a register tile
// is computed directly: tiles of pixels by channels, the most accumulators
// the registers hold beside one filter row (14 x 32 on AVX-512; on AVX2,
// where two vectors of channels fit 6 pixels and 56 take 4, 14 x 8), one
// input channel a step.
// AVX512-LABEL: func.func @conv
// AVX512: linalg.conv_2d_nhwc_hwcf {{.+}}mo.schedule = {kind = "conv", sizes = [14, 32, 1]}
// AVX2-LABEL: func.func @conv
// AVX2: linalg.conv_2d_nhwc_hwcf {{.+}}mo.schedule = {kind = "conv", sizes = [14, 8, 1]}
func.func @conv(%x: tensor<1x58x58x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%c : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}

// -----

// A direct convolution's elementwise epilogue (bias + relu), its unit batch
// dim folded away: expanded back to the convolution's rank, it takes the
// convolution into its tiles (mo.fused_into), the accumulator finished in
// registers.
// AVX512-LABEL: func.func @conv_epilogue
// AVX512: %[[C:.+]] = linalg.conv_2d_nhwc_hwcf {{.+}}mo.fused_into = [[G:[0-9]+]] : i64{{.+}} -> tensor<1x56x56x64xf32>
// AVX512: linalg.generic {{.+}} ins(%[[C]], %{{.+}} : tensor<1x56x56x64xf32>, tensor<64xf32>) {{.+}} attrs = {mo.schedule = {fuse = [[G]] : i64, kind = "conv_epilogue", sizes = [14, 32, 1]}}
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

// With a run-time batch the epilogue stays a kernel of its own.
// AVX512-LABEL: func.func @conv_epilogue_batch
// AVX512: linalg.conv_2d_nhwc_hwcf {{.+}}mo.schedule = {kind = "conv", sizes = [14, 32, 1]}
// AVX512-NOT: conv_epilogue
func.func @conv_epilogue_batch(%x: tensor<?x58x58x64xf32>, %w: tensor<3x3x64x64xf32>, %b: tensor<64xf32>) -> tensor<?x56x56x64xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x58x58x64xf32>
  %e = tensor.empty(%n) : tensor<?x56x56x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<?x56x56x64xf32>) -> tensor<?x56x56x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<?x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%c : tensor<?x56x56x64xf32>) -> tensor<?x56x56x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %b : tensor<?x56x56x64xf32>, tensor<64xf32>) outs(%e : tensor<?x56x56x64xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<?x56x56x64xf32>
  return %y : tensor<?x56x56x64xf32>
}

// -----

// A filter over 1 MiB (3x3, 256 -> 256: 2.25 MiB) is packed once per call
// as [F/32][KH][KW][C][32], and a loop over the 8 channel tiles, which the
// two threads split, runs one direct convolution each on its contiguous
// block of the filter, its rows in turn (read in place, the tiles' columns
// of a row of 256 crowded L2's sets).
// AVX512-LABEL: func.func @conv_big_filter
// AVX512: %[[S:.+]] = tensor.expand_shape %arg1 {{\[\[}}0], [1], [2], [3, 4]] output_shape [3, 3, 256, 8, 32]
// AVX512: %[[P:.+]] = linalg.generic {{.+}} ins(%[[S]] : tensor<3x3x256x8x32xf32>) outs(%{{.+}} : tensor<8x3x3x256x32xf32>)
// AVX512: scf.forall (%[[T:.+]]) in (8) shared_outs(%[[O:.+]] = %{{.+}}) -> (tensor<1x14x14x256xf32>)
// AVX512: %[[W:.+]] = tensor.extract_slice %[[P]][%[[T]], 0, 0, 0, 0] [1, 3, 3, 256, 32] [1, 1, 1, 1, 1] : tensor<8x3x3x256x32xf32> to tensor<3x3x256x32xf32>
// AVX512: linalg.conv_2d_nhwc_hwcf {{.+}}mo.schedule = {kind = "conv_serial", sizes = [14, 32, 1]}{{.+}} ins(%arg0, %[[W]] : tensor<1x16x16x256xf32>, tensor<3x3x256x32xf32>)
// AVX512: tensor.parallel_insert_slice %{{.+}} into %[[O]][0, 0, 0, %{{.+}}] [1, 14, 14, 32] [1, 1, 1, 1]
func.func @conv_big_filter(%x: tensor<1x16x16x256xf32>, %w: tensor<3x3x256x256xf32>) -> tensor<1x14x14x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x16x256xf32>, tensor<3x3x256x256xf32>) outs(%c : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  return %r : tensor<1x14x14x256xf32>
}

// -----

// Three channel tiles for two threads: the loop over them is an scf.for,
// and each tile's convolution splits its rows.
// AVX512-LABEL: func.func @conv_big_filter_odd
// AVX512: scf.for %{{.+}} = %c0 to %c3 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (tensor<1x14x14x96xf32>)
// AVX512: linalg.conv_2d_nhwc_hwcf {{.+}}mo.schedule = {kind = "conv", sizes = [14, 32, 1]}{{.+}} ins(%arg0, %{{.+}} : tensor<1x16x16x320xf32>, tensor<3x3x320x32xf32>)
// AVX512: tensor.insert_slice
func.func @conv_big_filter_odd(%x: tensor<1x16x16x320xf32>, %w: tensor<3x3x320x96xf32>) -> tensor<1x14x14x96xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x96xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x14x14x96xf32>) -> tensor<1x14x14x96xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x16x320xf32>, tensor<3x3x320x96xf32>) outs(%c : tensor<1x14x14x96xf32>) -> tensor<1x14x14x96xf32>
  return %r : tensor<1x14x14x96xf32>
}

// -----

// Rows of 17 pixels (a prime over the 14 a register tile holds) divide no
// register tile: im2col times the filter as a matrix, the window gather a
// copy, the product (a filter of 144 KiB) reading the filter in place.
// AVX512-LABEL: func.func @conv_ragged
// AVX512: %[[W:.+]] = linalg.generic {{.+}} ins(%arg0 : tensor<1x19x19x64xf32>) outs(%{{.+}} : tensor<1x17x17x3x3x64xf32>)
// AVX512: %[[L:.+]] = tensor.collapse_shape %[[W]] {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<1x17x17x3x3x64xf32> into tensor<289x576xf32>
// AVX512: %[[R:.+]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2], [3]] : tensor<3x3x64x64xf32> into tensor<576x64xf32>
// AVX512: linalg.matmul {mo.schedule = {fuse = {{[0-9]+}} : i64, kind = "matmul_direct_padded", sizes = [8, 32]}} ins(%[[L]], %[[R]] :
// AVX512: tensor.expand_shape %{{.+}} {{\[\[}}0, 1, 2], [3]] output_shape [1, 17, 17, 64] : tensor<289x64xf32> into tensor<1x17x17x64xf32>
// AVX512-NOT: linalg.conv_2d
func.func @conv_ragged(%x: tensor<1x19x19x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x17x17x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x17x17x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x17x17x64xf32>) -> tensor<1x17x17x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x19x19x64xf32>, tensor<3x3x64x64xf32>) outs(%c : tensor<1x17x17x64xf32>) -> tensor<1x17x17x64xf32>
  return %r : tensor<1x17x17x64xf32>
}

// -----

// An elementwise epilogue (bias + relu) of a product the register tile
// divides: the unpack of C is fused into its tiles (no schedule of its own).
// AVX512-LABEL: func.func @epilogue
// AVX512: %[[U:.+]] = linalg.unpack %{{.+}} {mo.fused_into = [[G:[0-9]+]] : i64} : tensor<8x32x8x32xf32> -> tensor<64x1024xf32>
// AVX512: linalg.generic {{.+}} ins(%[[U]], %arg2 : {{.+}}) {{.+}} attrs = {mo.schedule = {fuse = [[G]] : i64, kind = "unpack_epilogue", sizes = [8, 32]}}
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

// An epilogue that reads the product split into heads (attention's q bias
// on [64, 16, 64] of a [64, 1024] product) is collapsed to the product's
// shape, the split after it: it takes the unpack into its tiles as above.
// AVX512-LABEL: func.func @heads_epilogue
// AVX512: %[[U:.+]] = linalg.unpack %{{.+}} {mo.fused_into = [[G:[0-9]+]] : i64} : tensor<8x32x8x32xf32> -> tensor<64x1024xf32>
// AVX512: %[[O:.+]] = linalg.generic {{.+}} ins(%[[U]], %arg2 : tensor<64x1024xf32>, tensor<1024xf32>) {{.+}} attrs = {mo.schedule = {fuse = [[G]] : i64, kind = "unpack_epilogue", sizes = [8, 32]}}
// AVX512: tensor.expand_shape %[[O]] {{\[\[}}0], [1, 2]] output_shape [64, 16, 64] : tensor<64x1024xf32> into tensor<64x16x64xf32>
func.func @heads_epilogue(%a: tensor<64x1024xf32>, %b: tensor<1024x1024xf32>, %bias: tensor<1024xf32>) -> tensor<64x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %heads = tensor.expand_shape %r [[0], [1, 2]] output_shape [64, 16, 64] : tensor<64x1024xf32> into tensor<64x16x64xf32>
  %hb = tensor.expand_shape %bias [[0, 1]] output_shape [16, 64] : tensor<1024xf32> into tensor<16x64xf32>
  %e3 = tensor.empty() : tensor<64x16x64xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, h, j) -> (i, h, j)>, affine_map<(i, h, j) -> (h, j)>, affine_map<(i, h, j) -> (i, h, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%heads, %hb : tensor<64x16x64xf32>, tensor<16x64xf32>) outs(%e3 : tensor<64x16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x16x64xf32>
  return %o : tensor<64x16x64xf32>
}

// -----

// Two products of one operand (attention's q and k of one normed x): one
// pack of it, which each product's tiles take their panels of.
// AVX512-LABEL: func.func @shared_lhs
// AVX512: %[[A:.+]] = linalg.pack %arg0 {{.+}} -> tensor<8x1024x8x1xf32>
// AVX512-NOT: linalg.pack %arg0
// AVX512: linalg.mmt4d {{.+}} ins(%[[A]],
// AVX512: linalg.mmt4d {{.+}} ins(%[[A]],
func.func @shared_lhs(%a: tensor<64x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> (tensor<64x1024xf32>, tensor<64x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %q = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %k = linalg.matmul ins(%a, %c : tensor<64x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %q, %k : tensor<64x1024xf32>, tensor<64x1024xf32>
}

// -----

// A big copy that moves the innermost dim is tiled in blocks that read and
// write whole cache lines: 16 along the output's innermost dim and along the
// input dim within which the input's innermost 16 elements lie (a filter's
// [F, C, 3, 3] to [3, 3, C, F]: C, the 3 x 3 whole inside the tile); a
// matrix transposed: 16 x 16. A permute that keeps the innermost dim copies
// whole rows already: split across the threads as any big kernel; a small
// one stays loops.
// AVX512-LABEL: func.func @transposes
// AVX512: linalg.transpose ins(%arg0 : tensor<512x256x3x3xf32>) {{.+}} permutation = [2, 3, 1, 0]  {mo.schedule = {kind = "transpose", sizes = {{\[}}[0, 0, 16, 16]]}}
// AVX512: linalg.transpose ins(%arg1 : tensor<1024x768xf32>) {{.+}} permutation = [1, 0]  {mo.schedule = {kind = "transpose", sizes = {{\[}}[16, 16]]}}
// AVX512: linalg.transpose ins(%arg2 : tensor<8x64x16x64xf32>) {{.+}} permutation = [0, 2, 1, 3]  {mo.schedule = {kind = "rows", sizes = {{\[}}[2]]}}
// AVX512-NOT: kind = "transpose"
// AVX512: linalg.transpose ins(%arg3 : tensor<8x4xf32>) {{.+}} permutation = [1, 0]
// AVX512-NOT: mo.schedule
// AVX512: return
func.func @transposes(%f: tensor<512x256x3x3xf32>, %m: tensor<1024x768xf32>,
                      %h: tensor<8x64x16x64xf32>, %s: tensor<8x4xf32>)
    -> (tensor<3x3x256x512xf32>, tensor<768x1024xf32>, tensor<8x16x64x64xf32>, tensor<4x8xf32>) {
  %e0 = tensor.empty() : tensor<3x3x256x512xf32>
  %t0 = linalg.transpose ins(%f : tensor<512x256x3x3xf32>) outs(%e0 : tensor<3x3x256x512xf32>) permutation = [2, 3, 1, 0]
  %e1 = tensor.empty() : tensor<768x1024xf32>
  %t1 = linalg.transpose ins(%m : tensor<1024x768xf32>) outs(%e1 : tensor<768x1024xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<8x16x64x64xf32>
  %t2 = linalg.transpose ins(%h : tensor<8x64x16x64xf32>) outs(%e2 : tensor<8x16x64x64xf32>) permutation = [0, 2, 1, 3]
  %e3 = tensor.empty() : tensor<4x8xf32>
  %t3 = linalg.transpose ins(%s : tensor<8x4xf32>) outs(%e3 : tensor<4x8xf32>) permutation = [1, 0]
  return %t0, %t1, %t2, %t3 : tensor<3x3x256x512xf32>, tensor<768x1024xf32>, tensor<8x16x64x64xf32>, tensor<4x8xf32>
}
