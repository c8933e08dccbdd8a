// mo's CPU schedule library: transform dialect sequences that
// mo-apply-schedules runs on each op mo-select-schedules marked with a
// `mo.schedule`: `@mo_<kind>(%func, %op, sizes...)`, the sizes taken from the
// attribute in the order its sequence lists them. Tuning a schedule is a
// change of sizes in the table (Schedules.cpp) or of a sequence here.
module attributes {transform.with_named_sequence} {

  // linalg.mmt4d C[m1, n1, m0, n0] += A[m1, k1, m0, k0] * B[n1, k1, n0, k0]:
  // the threads split the (m1, n1) tiles, each thread walks cache blocks of
  // `cache_n` x `cache_k`, and the m0 x n0 accumulator stays in registers
  // across the k loop. The fill of the accumulator joins each thread's tile.
  transform.named_sequence @mo_mmt4d(
      %func: !transform.any_op {transform.readonly},
      %mm: !transform.any_op {transform.consumed},
      %threads_m: !transform.param<i64> {transform.readonly},
      %threads_n: !transform.param<i64> {transform.readonly},
      %cache_n: !transform.param<i64> {transform.readonly},
      %cache_k: !transform.param<i64> {transform.readonly}) {
    %t1, %forall, %fill1 = transform.include @mo_mmt4d_threads failures(propagate)
        (%mm, %threads_m, %threads_n)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %t2, %l2:2 = transform.structured.tile_using_for %t1
        tile_sizes [0, %cache_n, %cache_k, 0, 0, 0]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @mo_mmt4d_registers failures(propagate) (%t2, %fill1)
        : (!transform.any_op, !transform.any_op) -> ()
    transform.yield
  }

  // @mo_mmt4d with the threads splitting the columns only, and the pack of
  // B (`%pack`) fused into the cache blocks: each block of B packed right
  // before the row tiles use it, from cache (B read once from memory).
  transform.named_sequence @mo_mmt4d_pack_rhs(
      %func: !transform.any_op {transform.readonly},
      %mm: !transform.any_op {transform.consumed},
      %threads_n: !transform.param<i64> {transform.readonly},
      %cache_n: !transform.param<i64> {transform.readonly},
      %cache_k: !transform.param<i64> {transform.readonly},
      %n0: !transform.param<i64> {transform.readonly},
      %pack: !transform.any_op {transform.consumed}) {
    %t2, %fill1, %forall, %l2 = transform.include @mo_mmt4d_packed_blocks failures(propagate)
        (%mm, %threads_n, %cache_n, %cache_k, %n0, %pack)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @mo_mmt4d_registers failures(propagate) (%t2, %fill1)
        : (!transform.any_op, !transform.any_op) -> ()
    transform.yield
  }

  // @mo_mmt4d_pack_rhs with the row tiles in blocks of `cache_m`, each
  // block's columns outer: a column tile's panel of B (k x n0) stays in L1
  // across the block's row tiles, whose A (cache_m x m0 x k) stays in L2;
  // each k step reads m0 values from L2 instead of n0. On Zen 3 (AVX2, 512
  // KiB of L2), 8 row tiles, side by side in one process: 1024^3 +3-6% at
  // one and two threads, 64 x 1024 x 1024 +4% at one and -3% at two,
  // 256 x 1024 x 1024 and 128 x 512 x 2048 within +-2%; 4, 16 and 28 row
  // tiles measured the same as 8. (Unmeasured with AVX-512's 32-wide
  // panels, which fill an L1; a Xeon measured the columns outer without
  // blocks slower.)
  transform.named_sequence @mo_mmt4d_pack_rhs_blocked(
      %func: !transform.any_op {transform.readonly},
      %mm: !transform.any_op {transform.consumed},
      %threads_n: !transform.param<i64> {transform.readonly},
      %cache_n: !transform.param<i64> {transform.readonly},
      %cache_k: !transform.param<i64> {transform.readonly},
      %n0: !transform.param<i64> {transform.readonly},
      %cache_m: !transform.param<i64> {transform.readonly},
      %pack: !transform.any_op {transform.consumed}) {
    %t2, %fill1, %forall, %l2 = transform.include @mo_mmt4d_packed_blocks failures(propagate)
        (%mm, %threads_n, %cache_n, %cache_k, %n0, %pack)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %tm, %lm = transform.structured.tile_using_for %t2
        tile_sizes [%cache_m, 0, 0, 0, 0, 0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %t3, %l3:2 = transform.structured.tile_using_for %tm tile_sizes [1, 1, 0, 0, 0, 0]
        interchange = [1, 0, 2, 3, 4, 5]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @mo_mmt4d_k_steps failures(propagate) (%t3, %fill1)
        : (!transform.any_op, !transform.any_op) -> ()
    transform.yield
  }

  // @mo_mmt4d_pack_rhs with A's pack fused too, into each row tile of a
  // cache block: the row tile's panel of A (m0 x cache_k) packed right
  // before the block's column tiles use it, from cache, in place of a
  // kernel that packs all of A first (A written and read back). Each
  // thread packs the rows it needs, which is all of them: the threads
  // split the columns.
  transform.named_sequence @mo_mmt4d_pack_both(
      %func: !transform.any_op {transform.readonly},
      %mm: !transform.any_op {transform.consumed},
      %threads_n: !transform.param<i64> {transform.readonly},
      %cache_n: !transform.param<i64> {transform.readonly},
      %cache_k: !transform.param<i64> {transform.readonly},
      %n0: !transform.param<i64> {transform.readonly},
      %m0: !transform.param<i64> {transform.readonly},
      %pack: !transform.any_op {transform.consumed}) {
    %packA = transform.get_producer_of_operand %mm[0]
        : (!transform.any_op) -> !transform.any_op
    %t2, %fill1, %forall, %l2 = transform.include @mo_mmt4d_packed_blocks failures(propagate)
        (%mm, %threads_n, %cache_n, %cache_k, %n0, %pack)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %a1, %fa = transform.mo.fuse_into_containing_op %packA into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a2, %la = transform.mo.fuse_into_containing_op %a1 into %l2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tm, %lrow = transform.structured.tile_using_for %t2 tile_sizes [1, 0, 0, 0, 0, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a3, %lm = transform.mo.fuse_into_containing_op %a2 into %lrow
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t3, %lcol = transform.structured.tile_using_for %tm tile_sizes [0, 1, 0, 0, 0, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a4, %lk:2 = transform.structured.tile_using_for %a3 tile_sizes [1, 8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    %eight = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.structured.vectorize %a4 vector_sizes [%one, %eight, %m0, %one]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>
    transform.include @mo_mmt4d_k_steps failures(propagate) (%t3, %fill1)
        : (!transform.any_op, !transform.any_op) -> ()
    transform.yield
  }

  // The pack_rhs schedules' thread tiles and cache blocks, B's panel
  // packed in each: the block's mmt4d and the fill of C, to tile further,
  // and the thread tiles and the loop of k blocks (to fuse A's pack into).
  transform.named_sequence @mo_mmt4d_packed_blocks(
      %mm: !transform.any_op {transform.consumed},
      %threads_n: !transform.param<i64> {transform.readonly},
      %cache_n: !transform.param<i64> {transform.readonly},
      %cache_k: !transform.param<i64> {transform.readonly},
      %n0: !transform.param<i64> {transform.readonly},
      %pack: !transform.any_op {transform.consumed})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    %t1, %forall, %fill1 = transform.include @mo_mmt4d_threads failures(propagate)
        (%mm, %one, %threads_n)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %pack1, %f2 = transform.mo.fuse_into_containing_op %pack into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %l2:2 = transform.structured.tile_using_for %t1
        tile_sizes [0, %cache_n, %cache_k, 0, 0, 0]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %pack2, %l = transform.mo.fuse_into_containing_op %pack1 into %l2#1
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The pack walks k outer, the block's column tiles inner: each step
    // reads 4 rows of B along their pages (16 x 64 bytes each), not 64
    // bytes of each of 256 pages per column tile, which missed the TLB and
    // the prefetcher on Zen 3 (a 64 x 1024 x 1024 product at one thread
    // 0.65-0.70 -> 0.88-0.97 of numpy, in alternating processes; a Xeon
    // measured no change).
    %pack3, %lp:2 = transform.structured.tile_using_for %pack2 tile_sizes [1, 4]
        interchange = [1, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %four = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.structured.vectorize %pack3 vector_sizes [%one, %four, %n0, %one]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>
    transform.yield %t2, %fill1, %f2, %l
        : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }

  // The two mmt4d schedules' thread tiles: (m1, n1) split into
  // `threads_m` x `threads_n` parts, the fill of C fused into each.
  transform.named_sequence @mo_mmt4d_threads(
      %mm: !transform.any_op {transform.consumed},
      %threads_m: !transform.param<i64> {transform.readonly},
      %threads_n: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op) {
    %fill = transform.get_producer_of_operand %mm[2]
        : (!transform.any_op) -> !transform.any_op
    %t1, %forall = transform.structured.tile_using_forall %mm
        num_threads [%threads_m, %threads_n]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    %fill1, %f = transform.mo.fuse_into_containing_op %fill into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %t1, %f, %fill1 : !transform.any_op, !transform.any_op, !transform.any_op
  }

  // The two mmt4d schedules' register tiles, within a cache block: one
  // m0 x n0 accumulator per (m1, n1), carried through the k loop, and the
  // fill of each.
  transform.named_sequence @mo_mmt4d_registers(
      %block: !transform.any_op {transform.consumed},
      %fill: !transform.any_op {transform.consumed}) {
    %t3, %l3:2 = transform.structured.tile_using_for %block tile_sizes [1, 1, 0, 0, 0, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @mo_mmt4d_k_steps failures(propagate) (%t3, %fill)
        : (!transform.any_op, !transform.any_op) -> ()
    transform.yield
  }

  // One accumulator tile's k loop, vectorized, and the fill of each tile.
  transform.named_sequence @mo_mmt4d_k_steps(
      %t3: !transform.any_op {transform.consumed},
      %fill: !transform.any_op {transform.consumed}) {
    %t4, %l4:2 = transform.structured.tile_using_for %t3 tile_sizes [0, 0, 1, 0, 0, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %fill2, %lf:2 = transform.structured.tile_using_for %fill tile_sizes [1, 1, 0, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.structured.vectorize %t4 : !transform.any_op
    transform.structured.vectorize %fill2 : !transform.any_op
    transform.yield
  }

  // linalg.matmul C = A B with B read as it is, not packed (a weight small
  // enough to stay in cache while every strip of rows sweeps it): each
  // thread tile is one m0 x n0 register tile, its accumulator filled,
  // carried through k one step at a time (m0 broadcast elements of A times
  // a row of B) and written once. `%root` is the product or an elementwise
  // epilogue of it (bias, activation, residual) finished in registers;
  // `%producers` the product (under an epilogue) and the fill of C,
  // consumers first. The rows divide the tiles here.
  transform.named_sequence @mo_matmul_direct(
      %func: !transform.any_op {transform.readonly},
      %root: !transform.any_op {transform.consumed},
      %m0: !transform.param<i64> {transform.readonly},
      %n0: !transform.param<i64> {transform.readonly},
      %producers: !transform.any_op {transform.consumed}) {
    %r, %p, %forall = transform.include @mo_direct_threads failures(propagate)
        (%root, %producers, %m0, %n0)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>,
           !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @mo_direct_tile failures(propagate) (%forall, %m0, %n0)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // @mo_matmul_direct for a run-time or indivisible row count: each thread
  // tile's rows padded to m0 and computed as a full tile, the padded rows
  // reading A's last row in place (mo.drop_padded_rows), only the writes of
  // C masked to the rows there are. One version of the tile for every row
  // count: peeling full tiles from a zero-padded copy of the rest was twice
  // the code (a 3-layer MLP of a run-time batch: MLIR 68-90 -> 34-37 ms,
  // LLVM 80-110 -> 40-52 ms), and slower (its 64 rows 1.3-1.7x).
  transform.named_sequence @mo_matmul_direct_padded(
      %func: !transform.any_op {transform.readonly},
      %root: !transform.any_op {transform.consumed},
      %m0: !transform.param<i64> {transform.readonly},
      %n0: !transform.param<i64> {transform.readonly},
      %producers: !transform.any_op {transform.consumed}) {
    %r1, %p1, %forall = transform.include @mo_direct_threads failures(propagate)
        (%root, %producers, %m0, %n0)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>,
           !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %mm = transform.structured.match ops{["linalg.matmul"]} in %forall
        : (!transform.any_op) -> !transform.any_op
    %padded, %pads, %copy = transform.structured.pad %mm pad_to_multiple_of [%m0] {
        padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0],
        copy_back_op = "none"}
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %epilogue = transform.structured.match ops{["linalg.generic"]} in %forall
        : (!transform.any_op) -> !transform.any_op
    %t, %k = transform.structured.tile_using_for %padded tile_sizes [0, 0, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.structured.vectorize %t vector_sizes [%m0, %n0, %one]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>
    transform.structured.vectorize %epilogue vector_sizes [%m0, %n0]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    // (A's reads as rows first, not broadcast to the tile's iteration space.)
    transform.apply_patterns to %forall {
      transform.apply_patterns.vector.transfer_permutation_patterns
    } : !transform.any_op
    %fill = transform.mo.drop_padded_rows %pads : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %fill vector_sizes [%m0, %n0]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    transform.yield
  }

  // The direct matmul's thread tiles: `%root` tiled m0 x n0 across the
  // threads, `%producers` fused into each tile.
  transform.named_sequence @mo_direct_threads(
      %root: !transform.any_op {transform.consumed},
      %producers: !transform.any_op {transform.consumed},
      %m0: !transform.param<i64> {transform.readonly},
      %n0: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op) {
    %r1, %forall = transform.structured.tile_using_forall %root tile_sizes [%m0, %n0]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    %p1 = transform.foreach %producers : !transform.any_op -> !transform.any_op {
    ^bb0(%producer: !transform.any_op):
      %f, %l = transform.mo.fuse_into_containing_op %producer into %forall
          : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.yield %f : !transform.any_op
    }
    transform.yield %r1, %p1, %forall : !transform.any_op, !transform.any_op, !transform.any_op
  }

  // One direct register tile (in `%loop`): the product's k loop, each step
  // and the fill and epilogue vectorized m0 x n0 (masked where the tile is
  // smaller).
  transform.named_sequence @mo_direct_tile(
      %loop: !transform.any_op {transform.readonly},
      %m0: !transform.param<i64> {transform.readonly},
      %n0: !transform.param<i64> {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %loop
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %loop
        : (!transform.any_op) -> !transform.any_op
    %epilogue = transform.structured.match ops{["linalg.generic"]} in %loop
        : (!transform.any_op) -> !transform.any_op
    %t, %k = transform.structured.tile_using_for %mm tile_sizes [0, 0, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.structured.vectorize %t vector_sizes [%m0, %n0, %one]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>
    transform.structured.vectorize %fill vector_sizes [%m0, %n0]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    transform.structured.vectorize %epilogue vector_sizes [%m0, %n0]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    transform.yield
  }

  // An elementwise epilogue of a data-tiled product and the unpack of C it
  // reads (`%unpack`), fused per m0 x n0 accumulator tile: the threads split
  // the rows of tiles, each tile unpacked and finished in registers.
  transform.named_sequence @mo_unpack_epilogue(
      %func: !transform.any_op {transform.readonly},
      %op: !transform.any_op {transform.consumed},
      %m0: !transform.param<i64> {transform.readonly},
      %n0: !transform.param<i64> {transform.readonly},
      %unpack: !transform.any_op {transform.consumed}) {
    %t1, %forall = transform.structured.tile_using_forall %op tile_sizes [%m0, 0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %u1, %f1 = transform.mo.fuse_into_containing_op %unpack into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %l = transform.structured.tile_using_for %t1 tile_sizes [0, %n0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %u2, %l2 = transform.mo.fuse_into_containing_op %u1 into %l
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.structured.vectorize %u2 vector_sizes [%one, %one, %m0, %n0]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>
    transform.structured.vectorize %t2 : !transform.any_op
    transform.yield
  }

  // linalg.batch_mmt4d: as @mo_mmt4d, one more outer (batch) dim, which
  // the threads split first (`threads`: one count per outer dim).
  transform.named_sequence @mo_batch_mmt4d(
      %func: !transform.any_op {transform.readonly},
      %mm: !transform.any_op {transform.consumed},
      %threads: !transform.param<i64> {transform.readonly},
      %cache_n: !transform.param<i64> {transform.readonly},
      %cache_k: !transform.param<i64> {transform.readonly}) {
    %t2, %fill1, %forall, %lb = transform.include @mo_batch_mmt4d_blocks failures(propagate)
        (%mm, %threads, %cache_n, %cache_k)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @mo_batch_mmt4d_registers failures(propagate) (%t2, %fill1)
        : (!transform.any_op, !transform.any_op) -> ()
    transform.yield
  }

  // @mo_batch_mmt4d with both packs fused into each batch step, where the
  // threads split the batch alone: a batch's panels of A and B (an
  // attention head's) packed right before its product reads them, from
  // cache (8 or 4 k steps a vector, as @mo_relayout_batched does them).
  transform.named_sequence @mo_batch_mmt4d_packed(
      %func: !transform.any_op {transform.readonly},
      %mm: !transform.any_op {transform.consumed},
      %threads: !transform.param<i64> {transform.readonly},
      %cache_n: !transform.param<i64> {transform.readonly},
      %cache_k: !transform.param<i64> {transform.readonly},
      %m0: !transform.param<i64> {transform.readonly},
      %n0: !transform.param<i64> {transform.readonly}) {
    %packA = transform.get_producer_of_operand %mm[0]
        : (!transform.any_op) -> !transform.any_op
    %packB = transform.get_producer_of_operand %mm[1]
        : (!transform.any_op) -> !transform.any_op
    %t2, %fill1, %forall, %lb = transform.include @mo_batch_mmt4d_blocks failures(propagate)
        (%mm, %threads, %cache_n, %cache_k)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %b1, %f2 = transform.mo.fuse_into_containing_op %packB into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a1, %f3 = transform.mo.fuse_into_containing_op %packA into %f2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %b2, %lb2 = transform.mo.fuse_into_containing_op %b1 into %lb
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a2, %lb3 = transform.mo.fuse_into_containing_op %a1 into %lb2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @mo_batch_mmt4d_registers failures(propagate) (%t2, %fill1)
        : (!transform.any_op, !transform.any_op) -> ()
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    %eight = transform.param.constant 8 : i64 -> !transform.param<i64>
    %four = transform.param.constant 4 : i64 -> !transform.param<i64>
    %a3, %lat:3 = transform.structured.tile_using_for %a2 tile_sizes [1, 1, 8]
        : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.structured.vectorize %a3 vector_sizes [%one, %one, %eight, %m0, %one]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
    %b3, %lbt:3 = transform.structured.tile_using_for %b2 tile_sizes [1, 1, 4]
        : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.structured.vectorize %b3 vector_sizes [%one, %one, %four, %n0, %one]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
    transform.yield
  }

  // The batch_mmt4d schedules' thread tiles (the fill of C fused into
  // each) and their loops of batches and cache blocks: the block's product
  // and fill, to tile further, the thread tiles and the loop of batches.
  transform.named_sequence @mo_batch_mmt4d_blocks(
      %mm: !transform.any_op {transform.consumed},
      %threads: !transform.param<i64> {transform.readonly},
      %cache_n: !transform.param<i64> {transform.readonly},
      %cache_k: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
    %fill = transform.get_producer_of_operand %mm[2]
        : (!transform.any_op) -> !transform.any_op
    %t1, %forall = transform.structured.tile_using_forall %mm num_threads *(%threads)
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill1, %f = transform.mo.fuse_into_containing_op %fill into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %l2:3 = transform.structured.tile_using_for %t1
        tile_sizes [1, 0, %cache_n, %cache_k, 0, 0, 0]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %t2, %fill1, %f, %l2#0
        : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }

  // The batch_mmt4d schedules' register tiles, within a cache block: one
  // m0 x n0 accumulator per (m1, n1), carried through the k loop, and the
  // fill of each.
  transform.named_sequence @mo_batch_mmt4d_registers(
      %t2: !transform.any_op {transform.consumed},
      %fill1: !transform.any_op {transform.consumed}) {
    %t3, %l3:2 = transform.structured.tile_using_for %t2 tile_sizes [0, 1, 1, 0, 0, 0, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %t4, %l4:2 = transform.structured.tile_using_for %t3 tile_sizes [0, 0, 0, 1, 0, 0, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %fill2, %lf:3 = transform.structured.tile_using_for %fill1 tile_sizes [1, 1, 1, 0, 0]
        : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.structured.vectorize %t4 : !transform.any_op
    transform.structured.vectorize %fill2 : !transform.any_op
    transform.yield
  }

  // @mo_conv's register tiles, rows of pixels in turn: inside its thread
  // tile of one row, or inside a loop the threads already split (one tile
  // of output channels an iteration).
  transform.named_sequence @mo_conv_serial(
      %func: !transform.any_op {transform.readonly},
      %conv: !transform.any_op {transform.consumed},
      %tw: !transform.param<i64> {transform.readonly},
      %tf: !transform.param<i64> {transform.readonly},
      %tc: !transform.param<i64> {transform.readonly}) {
    %fill = transform.get_producer_of_operand %conv[2]
        : (!transform.any_op) -> !transform.any_op
    %t2, %l2:4 = transform.structured.tile_using_for %conv tile_sizes [1, 1, %tw, %tf]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op,
            !transform.any_op)
    %t3, %l3:3 = transform.structured.tile_using_for %t2 tile_sizes [0, 0, 0, 0, 1, 1, %tc]
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %fill2, %lf:4 = transform.structured.tile_using_for %fill tile_sizes [1, 1, %tw, %tf]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op,
            !transform.any_op)
    %t4 = transform.structured.decompose %t3 : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %t4 : !transform.any_op
    transform.structured.vectorize %fill2 : !transform.any_op
    transform.yield
  }

  // linalg.conv_2d_nhwc_hwcf computed directly: the threads split the
  // (n, oh) rows of output pixels; a register tile is `tw` pixels by `tf`
  // channels, its accumulator kept in registers across the window (kh, kw)
  // and the input channels (steps of `tc`), each step a 1-D convolution
  // vectorized as outer products.
  transform.named_sequence @mo_conv(
      %func: !transform.any_op {transform.readonly},
      %conv: !transform.any_op {transform.consumed},
      %tw: !transform.param<i64> {transform.readonly},
      %tf: !transform.param<i64> {transform.readonly},
      %tc: !transform.param<i64> {transform.readonly}) {
    %fill = transform.get_producer_of_operand %conv[2]
        : (!transform.any_op) -> !transform.any_op
    %t1, %forall = transform.structured.tile_using_forall %conv tile_sizes [1, 1, 0, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill1, %f = transform.mo.fuse_into_containing_op %fill into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @mo_conv_serial failures(propagate) (%func, %t1, %tw, %tf, %tc)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  // An elementwise epilogue (bias, activation, residual) of a direct
  // convolution (`%conv`, as @mo_conv), fused per register tile: the
  // threads split the rows of output pixels, each `tw` x `tf` accumulator is
  // filled, carried through the window and the input channels, and
  // finished by the epilogue in registers, the output written once.
  transform.named_sequence @mo_conv_epilogue(
      %func: !transform.any_op {transform.readonly},
      %op: !transform.any_op {transform.consumed},
      %tw: !transform.param<i64> {transform.readonly},
      %tf: !transform.param<i64> {transform.readonly},
      %tc: !transform.param<i64> {transform.readonly},
      %conv: !transform.any_op {transform.consumed}) {
    %fill = transform.get_producer_of_operand %conv[2]
        : (!transform.any_op) -> !transform.any_op
    %e1, %forall = transform.structured.tile_using_forall %op tile_sizes [1, 1, 0, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %c1, %f1 = transform.mo.fuse_into_containing_op %conv into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill1, %f2 = transform.mo.fuse_into_containing_op %fill into %f1
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %e2, %l2:2 = transform.structured.tile_using_for %e1 tile_sizes [0, 0, %tw, %tf]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %c2, %l3 = transform.mo.fuse_into_containing_op %c1 into %l2#1
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill2, %l4 = transform.mo.fuse_into_containing_op %fill1 into %l3
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %c3, %l5:3 = transform.structured.tile_using_for %c2 tile_sizes [0, 0, 0, 0, 1, 1, %tc]
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %c4 = transform.structured.decompose %c3 : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %fill2 : !transform.any_op
    transform.structured.vectorize %c4 : !transform.any_op
    transform.structured.vectorize %e2 : !transform.any_op
    transform.yield
  }


  // linalg.pack / linalg.unpack between rank 3 and rank 5 (a batch dim
  // first): as @mo_relayout, the batch tiled by `tile0` (1).
  transform.named_sequence @mo_relayout_batched(
      %func: !transform.any_op {transform.readonly},
      %op: !transform.any_op {transform.consumed},
      %tile0: !transform.param<i64> {transform.readonly},
      %tile1: !transform.param<i64> {transform.readonly},
      %tile2: !transform.param<i64> {transform.readonly},
      %v0: !transform.param<i64> {transform.readonly},
      %v1: !transform.param<i64> {transform.readonly},
      %v2: !transform.param<i64> {transform.readonly},
      %v3: !transform.param<i64> {transform.readonly},
      %v4: !transform.param<i64> {transform.readonly}) {
    %t1, %forall = transform.structured.tile_using_forall %op tile_sizes [%tile0, %tile1, 0]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    %t2, %l = transform.structured.tile_using_for %t1 tile_sizes [0, 0, %tile2]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.structured.vectorize %t2 vector_sizes [%v0, %v1, %v2, %v3, %v4]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
    transform.yield
  }

  // linalg.pack / linalg.unpack between rank 2 and rank 4: tiles of
  // `tile0` x `tile1` (in the dims of the rank-2 side for an unpack, of the
  // packed outer dims for a pack), the first dim split across threads, each
  // tile one vector op of `vector` sizes (masked where the tile pads).
  transform.named_sequence @mo_relayout(
      %func: !transform.any_op {transform.readonly},
      %op: !transform.any_op {transform.consumed},
      %tile0: !transform.param<i64> {transform.readonly},
      %tile1: !transform.param<i64> {transform.readonly},
      %v0: !transform.param<i64> {transform.readonly},
      %v1: !transform.param<i64> {transform.readonly},
      %v2: !transform.param<i64> {transform.readonly},
      %v3: !transform.param<i64> {transform.readonly}) {
    %t1, %forall = transform.structured.tile_using_forall %op tile_sizes [%tile0, 0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %t2, %l = transform.structured.tile_using_for %t1 tile_sizes [0, %tile1]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.structured.vectorize %t2 vector_sizes [%v0, %v1, %v2, %v3]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>
    transform.yield
  }

  // A fused elementwise or row-reduction kernel: its iterations split into
  // `threads` (one count per loop, 1 where a loop is not split) parallel
  // parts; each part stays loops, which LLVM vectorizes.
  transform.named_sequence @mo_rows(
      %func: !transform.any_op {transform.readonly},
      %op: !transform.any_op {transform.consumed},
      %threads: !transform.param<i64> {transform.readonly}) {
    %t, %forall = transform.structured.tile_using_forall %op num_threads *(%threads)
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // A copy that moves the innermost dim: tiles that read and write whole
  // cache lines (`tiles`: 16 along the two dims that are innermost in the
  // input and in the output, 0 for the small dims inside the input's), spread
  // across the threads.
  transform.named_sequence @mo_transpose(
      %func: !transform.any_op {transform.readonly},
      %op: !transform.any_op {transform.consumed},
      %tiles: !transform.param<i64> {transform.readonly}) {
    %t, %forall = transform.structured.tile_using_forall %op tile_sizes *(%tiles)
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // A kernel and the producers (`%fused`) that compute row by row with it:
  // tiles of `tiles` rows, each computing the whole chain for its rows, the
  // tiles spread across the threads.
  transform.named_sequence @mo_fused_rows(
      %func: !transform.any_op {transform.readonly},
      %op: !transform.any_op {transform.consumed},
      %tiles: !transform.param<i64> {transform.readonly},
      %fused: !transform.any_op {transform.consumed}) {
    %t, %forall = transform.structured.tile_using_forall %op tile_sizes *(%tiles)
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    // One producer at a time, consumers first; the slices its consumers'
    // tiles read of it made one first (CSE inside the tile only, which no
    // handle of a producer still outside points into), so that one fused
    // copy serves them.
    transform.foreach %fused : !transform.any_op {
    ^bb0(%producer: !transform.any_op):
      transform.apply_cse to %forall : !transform.any_op
      %f, %l = transform.mo.fuse_into_containing_op %producer into %forall
          : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
}
