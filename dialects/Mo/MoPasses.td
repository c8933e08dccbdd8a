//===- MoPasses.td - mo passes -----------------------------*- tablegen -*-===//

#ifndef MO_PASSES_TD
#define MO_PASSES_TD

include "mlir/Pass/PassBase.td"

def MoLowerToLinalg : Pass<"mo-lower-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers mo graphs to func/linalg/tensor/arith/math";
  let description = [{
    Every `mo.graph` becomes a `func.func` and every `mo.call` a `func.call`
    (subgraphs stay shared functions). `!mo.tensor` becomes a builtin tensor
    (symbolic and `?` dims dynamic, signed/unsigned integers signless) and
    `!mo.buffer` a memref. Weights (`mo.constant.external`) become function
    arguments: a subgraph takes the weights its body reads, and each call
    passes the ones its prefix names.

    The public graph is the entry point, with a fixed ABI: its inputs, then
    its weights (`{mo.weight = "name", mo.type = ...}`), then one
    out-parameter memref per result (`{mo.output = i}`, so the caller owns all
    memory), then a `memref<2xi64> {mo.status}` record; every shaped argument
    has all dims dynamic, and the function returns an `i64` status. Its
    prologue checks every size the code relies on: static dims, each
    symbolic name (bound by its first occurrence in an input or weight)
    equal wherever it occurs, dim expressions, output sizes, and the element
    count of every reshape reachable from the entry whose two sides can
    differ. The body runs only when all hold; otherwise the status is the
    1-based index of the first failed check in the `mo.checks` attribute
    (messages with `{actual}` and `{expected}`, the two sizes the record
    holds). So the compiled code never reads or writes out of bounds,
    whoever calls it.

    Before:
    ```mlir
    mo.graph @f<n>(%x: !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 4], f32> {
      %w = mo.constant.external "w" : !mo.tensor<[4], f32>
      %y = mo.mul(%x, %w) : (!mo.tensor<[n, 4], f32>, !mo.tensor<[4], f32>)
          -> !mo.tensor<[n, 4], f32>
      mo.output %y : !mo.tensor<[n, 4], f32>
    }
    ```
    After:
    ```mlir
    func.func @f(%x: tensor<?x?xf32>, %w: tensor<?xf32> {mo.weight = "w", ...},
                 %out: memref<?x?xf32> {mo.output = 0 : i64},
                 %record: memref<2xi64> {mo.status}) -> i64
        attributes {llvm.emit_c_interface, mo.entry, mo.checks = [
          "argument 0: expected shape [n, 4], but axis 1 has size {actual}",
          "weight 'w': expected shape [4], but axis 0 has size {actual}", ...]} {
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      ... arith.cmpi, arith.select: %status, and the sizes stored in %record
      scf.if %all_hold {
        %x4 = tensor.cast %x : tensor<?x?xf32> to tensor<?x4xf32>
        %w4 = tensor.cast %w : tensor<?xf32> to tensor<4xf32>
        %y = linalg.generic ... arith.mulf ...
        bufferization.materialize_in_destination %y in restrict writable %out
      }
      return %status : i64
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"];
}

def MoWeightsToArguments : Pass<"mo-weights-to-arguments", "::mlir::ModuleOp"> {
  let summary = "Turns weights (mo.constant.external) into graph arguments";
  let description = [{
    Each graph takes the weights its body reads, directly or through its
    callees, as trailing arguments in first-use order, tagged with their
    name (`{mo.weight = "w"}`: for a subgraph the placeholder's local name,
    for the entry the resolved one). Each `mo.call` passes, for every weight
    of its callee, the caller's value of the name its prefix resolves it to.
    mo-lower-to-linalg runs this first.

    Before:
    ```mlir
    mo.graph private @layer(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
      %w = mo.constant.external "w" placeholder : !mo.tensor<[4], f32>
      %y = mo.mul(%x, %w) : ...
      mo.output %y : !mo.tensor<[4], f32>
    }
    mo.graph @main(%x: !mo.tensor<[4], f32>) -> !mo.tensor<[4], f32> {
      %y = mo.call @layer(%x) {prefix = "layers.0."} : ...
      mo.output %y : !mo.tensor<[4], f32>
    }
    ```
    After:
    ```mlir
    mo.graph private @layer(%x: !mo.tensor<[4], f32>,
                            %w: !mo.tensor<[4], f32> {mo.weight = "w"}) -> ... {
      %y = mo.mul(%x, %w) : ...
    }
    mo.graph @main(%x: !mo.tensor<[4], f32>,
                   %w: !mo.tensor<[4], f32> {mo.weight = "layers.0.w"}) -> ... {
      %y = mo.call @layer(%x, %w) {prefix = "layers.0."} : ...
    }
    ```
  }];
}

def MoFuseElementwise : Pass<"mo-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuses elementwise linalg ops where nothing is recomputed";
  let description = [{
    Upstream's elementwise fusion and reshape propagation
    (`linalg-fuse-elementwise-ops`), limited so that an elementwise producer
    fuses only into a consumer that reads each of its elements once (its
    indexing map is a permutation: elementwise ops, reductions over the same
    loops), never into a contraction that would recompute it per element of
    the reduction; reshapes move only through all-parallel ops, so named
    contractions keep their form (the CPU schedule wants them). A producer is
    fused into its single use; one with several is fused into a later
    reduction that reads each of its elements once, which also yields it for
    the other uses (softmax's exp), or, if it costs a few cheap arithmetic
    ops of one input of its size (a layer norm's `x - mean`, the mean
    broadcast), copied into every consumer, which then recomputes it instead
    of reading it back.

    ```mlir
    %e = linalg.generic {iterator_types = ["parallel"]} ins(%x) ... math.exp
    %t = linalg.generic {iterator_types = ["parallel"]} ins(%e) ... math.tanh
    ```
    becomes one generic computing tanh(exp(x)); `%e` feeding a linalg.matmul
    stays as it is.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MoInterchangeContractions
    : Pass<"mo-interchange-contractions", "::mlir::func::FuncOp"> {
  let summary = "Baseline CPU loop order: the reductions of a contraction or "
                "window op one loop out";
  let description = [{
    Every linalg contraction, convolution or pooling whose last parallel loop
    is followed by reductions (linalg.matmul: m, n, k; conv_2d_nhwc_hwcf: n,
    oh, ow, f, kh, kw, c) becomes a linalg.generic with that parallel loop
    innermost (m, k, n; n, oh, ow, kh, kw, c, f), so that loops lowered from
    it vectorize along contiguous rows. A stand-in until these ops are tiled
    and packed.

    ```mlir
    linalg.matmul ins(%a, %b : memref<?x4xf32>, memref<4x?xf32>) outs(%c : memref<?x?xf32>)
    ```
    becomes a linalg.generic with `iterator_types = ["parallel", "reduction", "parallel"]`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def MoSelectSchedules : Pass<"mo-select-schedules", "::mlir::func::FuncOp"> {
  let summary = "Chooses a CPU schedule per root op and lays contractions out "
                "for it";
  let description = [{
    The CPU strategy table, keyed on the op class, its shapes and the
    target's vector registers. Each op it schedules gets a `mo.schedule`
    dictionary (`kind` names a sequence of mo's schedule library, the other
    entries are its sizes), which mo-apply-schedules carries out; an op
    without one is lowered to loops as before.

    A 2-D f32 `linalg.matmul` whose B has a static shape of 256 KiB or less
    (a weight that stays in cache), or any static B under at most m0/2
    static rows (a decode step, which reads B once), reads it in place: one
    register tile per thread tile, the fill of C and any elementwise
    epilogue fused into it (`{kind = "matmul_direct", sizes = [tm, tn],
    fuse = G}` on the epilogue or the product; `matmul_direct_padded` when
    the rows do not divide tm: every tile computed as a full one, its rows
    past the end reading A's last row, only its writes masked). Any other is data-tiled: its operands are packed into
    register tiles (`linalg.pack`, padded where the sizes do not divide),
    multiplied by `linalg.mmt4d` and unpacked into the result:

    ```mlir
    %a4 = linalg.pack %a padding_value(%zero : f32) inner_dims_pos = [0, 1]
        inner_tiles = [8, 1] into %ea {mo.schedule = {kind = "relayout", ...}}
    %b4 = linalg.pack %b padding_value(%zero : f32) outer_dims_perm = [1, 0]
        inner_dims_pos = [1, 0] inner_tiles = [32, 1] into %eb {mo.schedule = ...}
    %c4 = linalg.mmt4d ins(%a4, %b4 : ...) outs(%filled : ...)
        {mo.schedule = {kind = "mmt4d", sizes = [2, 1, 16, 256]}}
    %c = linalg.unpack %c4 inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e
    ```

    A batch_matmul takes the same layout with its batch as one more outer
    dim (`linalg.batch_mmt4d`). A 2-D NHWC/HWCF convolution whose output
    rows divide a register tile is computed directly (`{kind = "conv",
    sizes = [pixels, channels, 1]}`); with a filter over 1 MiB, the filter is
    first packed as [F/tf][KH][KW][C][tf] and a loop runs one such
    convolution per tile of `tf` output channels, each on its contiguous
    block of the filter: an `scf.forall` the threads split when they share
    the tiles evenly (each tile's rows in turn: `conv_serial`), else an
    `scf.for`. A direct convolution's elementwise epilogue (static shapes)
    takes it into its tiles: `{kind = "conv_epilogue", fuse = G}` on the
    epilogue, the convolution `mo.fused_into = G`. Any other is rewritten as im2col (a window-gather
    `linalg.generic`) times the filter as a matrix, a `linalg.matmul`.

    A `linalg.generic` of elementwise, broadcast or reduction form with 2^16
    iterations or more claims the producers that compute row by row with it
    (same block, parallel outer loop, rows written as their consumer reads
    them, no use outside the chain; each tagged `mo.fused_into = G`) and
    runs the chain per tile of 4 rows (`{kind = "fused_rows", sizes =
    [[4, 0]], fuse = G}`). With more than one thread, every other such kernel
    is split across the threads by its outermost parallel loop with room for
    each (`{kind = "rows", sizes = [[1, 2]]}`: one count per loop).
  }];
  let options = [
    Option<"numThreads", "num-threads", "int64_t", /*default=*/"1",
           "Threads the schedules split the work across">,
    Option<"cpuFeatures", "cpu-features", "std::string", /*default=*/"\"host\"",
           "Target features (`+avx512f,...`), or `host`">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MoApplySchedules : Pass<"mo-apply-schedules", "::mlir::func::FuncOp"> {
  let summary = "Tiles, fuses and vectorizes each op by its `mo.schedule`";
  let description = [{
    Runs, for every op with a `mo.schedule`, the named sequence `@mo_<kind>`
    of mo's schedule library (transform dialect IR built into mo) with the
    function as payload root, the op and then the schedule's sizes as
    parameters; then a cleanup once on the function (upstream's vector
    patterns, hoisting of loop-invariant transfers so that accumulators stay
    in registers, canonicalization). Runs on tensors, before bufferization.
  }];
  let dependentDialects = [
    "::mlir::transform::TransformDialect", "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"];
}

def MoSplitSchedules : Pass<"mo-split-schedules", "::mlir::ModuleOp"> {
  let summary = "Moves each scheduled op and what its schedule reads into a function";
  let description = [{
    After mo-select-schedules: each op with a `mo.schedule`, with the ops
    fused into it (`mo.fused_into`) and the producers in its block that no
    schedule owns, moves into a private function of its own
    (`mo.schedule_group`), called where the last of them was; empty tensors
    and constants it reads are copied in. Groups that share a producer, or
    where one needs the other's results before its own last op, are one;
    a group with an op that has memory effects, or whose result an op
    outside needs before its last op, stays where it is. A pass nested on
    functions (mo-apply-schedules) then runs on the groups on every core at
    once; mo-inline-schedules puts them back.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def MoInlineSchedules : Pass<"mo-inline-schedules", "::mlir::ModuleOp"> {
  let summary = "Puts the functions of mo-split-schedules back where they are called";
  let description = [{
    Each call of a `mo.schedule_group` function is replaced by the
    function's body, and the function erased.
  }];
}

def MoLowerVectors : Pass<"mo-lower-vectors", "::mlir::func::FuncOp"> {
  let summary = "Lowers the vector ops of scheduled code to 1-D vectors";
  let description = [{
    After bufferization: contractions to outer products to FMAs, transfers
    to 1-D loads and stores, transposes to shuffles (upstream's vector
    lowering patterns), so that convert-vector-to-llvm sees register-sized
    vectors only.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"];
}

def MoPrefetchAccumulators
    : Pass<"mo-prefetch-accumulators", "::mlir::func::FuncOp"> {
  let summary = "Accumulators read from memory start at zero, memory prefetched";
  let description = [{
    A register tile whose loop carries an accumulator read from memory (a
    cache block of an mmt4d after the first, which adds to the partial sums
    of the ones before) waits for that read before its first FMA: the tile
    is in L3 by then, and no out-of-order window spans the loop before it.
    As BLAS kernels do, the loop starts from zero instead, the tile is
    prefetched before it and added after it, when it has arrived.

    The rewrite applies to an `scf.for` iter_arg initialized by an in-bounds,
    minor-identity `vector.transfer_read` of a memref (through shape-only
    broadcasts and shape casts), where nothing between the read and the
    loop end writes memory, and the iter_arg only accumulates: each value
    it flows through has one use, an element-preserving reshape, the
    accumulator of a `vector.contract` (kind add) or `vector.fma`, or an
    `arith.addf`, down to its own `scf.yield` operand. The sum is then
    reassociated (the memory's value added last), as any blocked GEMM does.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect", "::mlir::vector::VectorDialect"];
}

def MoVectorRows : Pass<"mo-vector-rows", "::mlir::func::FuncOp"> {
  let summary = "n-D vectors made of 1-D vectors row by row, not element by element";
  let description = [{
    The canonicalizer folds a chain of `vector.insert`s that fills a
    vector<8x32xf32> row by row (an unrolled 2-D transfer, a broadcast row)
    into one `vector.from_elements` of the rows' 256 elements, each taken
    out by `vector.to_elements`: in LLVM, 256 extracts and 256 inserts that
    InstCombine then folds back, at a cost. This pass, after the last
    canonicalization, unrolls such `from_elements` into rows (upstream's
    patterns) and folds a row that takes all of one vector's elements in
    order into that vector.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect", "::mlir::ub::UBDialect"];
}

def MoApproximateMath : Pass<"mo-approximate-math", "::mlir::func::FuncOp"> {
  let summary = "f32 exp and tanh as inlined polynomials";
  let description = [{
    Rewrites `math.exp` and `math.tanh` on f32 (scalars or vectors) into
    inlined polynomials, so that LLVM vectorizes the loops around them
    instead of calling libm's scalar functions once per element: upstream's
    approximations, except a scalar exp on a target with AVX-512, which
    scales its polynomial by 2^n with `llvm.intr.ldexp` (vscalefps: fewer
    instructions, within 1 ulp, subnormal results rounded).
  }];
  let options = [
    Option<"cpuFeatures", "cpu-features", "std::string", /*default=*/"\"host\"",
           "Target features (`+avx512f,...`), or `host`">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def MoMathToFuncs : Pass<"mo-math-to-funcs", "::mlir::ModuleOp"> {
  let summary = "convert-math-to-funcs, a fresh instance each run";
  let description = [{
    Runs upstream's `convert-math-to-funcs` (software implementations of
    integer powers, `math.ipowi`/`fpowi`, as functions), created anew on
    every run: upstream's pass keeps the functions it made in a member map
    that is never cleared, so a pass manager reused for a second module
    called functions of the first, freed one (a segfault). mo reuses its
    pass managers across compiles. Its dependent dialects are upstream's.
  }];
}

def MoConvertToLLVM : Pass<"mo-convert-to-llvm", "::mlir::ModuleOp"> {
  let summary = "memref, arith, index, cf, func, ub and omp to LLVM in one conversion";
  let description = [{
    The kernels' last lowering step: upstream's conversion patterns of the
    seven dialects (memref's with mo's runtime allocation functions,
    `use-generic-functions`) applied in one partial dialect conversion, as
    upstream's `convert-openmp-to-llvm` does for five, where the pipeline
    ran seven passes, each walking every kernel again. What is left are the
    unrealized casts between converted and unconverted values, which
    `reconcile-unrealized-casts` removes after it.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MoWidenBoolMemrefs : Pass<"mo-widen-bool-memrefs", "::mlir::ModuleOp"> {
  let summary = "Stores booleans as bytes: memref<...xi1> becomes memref<...xi8>";
  let description = [{
    The memref-to-LLVM lowering of LLVM 22 rejects sub-byte element types.
    mo's own code never has i1 memrefs (the lowering stores bools as bytes);
    the deallocation helper that `bufferization-lower-deallocations` emits
    does (`memref<?xi1>` ownership flags), and so may IR from elsewhere. This
    pass gives every i1 memref byte storage (numpy's bool layout): loads
    truncate to i1, stores zero-extend, and every other op, function
    signature and call just changes type.

    ```mlir
    memref.store %b, %m[%i] : memref<?xi1>
    ```
    becomes
    ```mlir
    %e = arith.extui %b : i1 to i8
    memref.store %e, %m[%i] : memref<?xi8>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MoWriteResultsInPlace
    : Pass<"mo-write-results-in-place", "::mlir::func::FuncOp"> {
  let summary = "Reshapes of a result moved onto the buffer it is written to";
  let description = [{
    A result computed in another shape than the caller's buffer (unit dims
    folded away, `[1, 56, 56, 64]` computed as `[56, 56, 64]`) reaches
    `bufferization.materialize_in_destination` through a `tensor.expand_shape`,
    which empty-tensor elimination does not look through: the result is
    computed in a temporary and copied out. This pass reshapes the destination
    buffer instead, so the kernel writes the caller's memory.

    ```mlir
    %e = tensor.expand_shape %r [[0, 1], [2]] ... : tensor<56x64xf32> into tensor<1x56x64xf32>
    bufferization.materialize_in_destination %e in restrict writable %out
    ```
    becomes
    ```mlir
    %c = memref.collapse_shape %out [[0, 1], [2]] : memref<1x56x64xf32> into memref<56x64xf32>
    bufferization.materialize_in_destination %r in restrict writable %c
    ```

    First, every user of a shared init (a `tensor.empty`, or a `linalg.fill`
    of one, merged by CSE) gets its own copy: empty-tensor elimination
    anchors an empty on the buffer of one result, and every other op
    initialized from it would write that buffer as well.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MoExpandStridedCopies
    : Pass<"mo-expand-strided-copies", "::mlir::func::FuncOp"> {
  let summary = "memref.copy between non-contiguous views as a linalg.copy";
  let description = [{
    `finalize-memref-to-llvm` turns a copy between contiguous buffers into a
    `memcpy` and any other into a call of the runtime's generic `memrefCopy`,
    which moves one element per `memcpy` call (a padded image's interior, a
    tile of an output). Those copies become `linalg.copy`, lowered to loops
    that LLVM vectorizes along the innermost, unit-stride dim.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def MoSerializeSmallParallel
    : Pass<"mo-serialize-small-parallel", "::mlir::func::FuncOp"> {
  let summary = "OpenMP regions over little data run on the calling thread";
  let description = [{
    A schedule splits its op over the threads whatever the sizes, which a
    run-time dim leaves unknown until the call. Waking the other threads and
    joining them costs about a microsecond, more than an elementwise op over
    a few thousand elements takes on one core. This pass gives each
    `omp.parallel` without an `if` one: the largest memref the region reads
    or writes from outside has at least `min-elements` elements (folded
    where every size is static). A false `if` runs the region on the
    calling thread alone, its loop over every thread tile.
  }];
  let options = [
    Option<"minElements", "min-elements", "int64_t", /*default=*/"16384",
           "Elements of the largest memref below which a region runs serially">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::omp::OpenMPDialect"];
}

def MoStreamStores : Pass<"mo-stream-stores", "::mlir::ModuleOp"> {
  let summary = "Large results a kernel only writes stored past the caches";
  let description = [{
    A kernel (mo-outline-kernels) whose buffer arguments of static shape
    together are at least `min-bytes`, and which writes one of at least half
    that (static, contiguous, each row a whole number of 64-byte lines) and
    never reads it, gets a twin, `<kernel>_streaming`, which it calls instead
    of running its body when every such buffer is 64-byte aligned. The twin's
    stores into them are `nontemporal`, and its `passthrough` names
    `mo-streaming`: a promise to code generation that the buffers its
    nontemporal stores write are 64-byte aligned. There (moJitCompile) the
    vector stores of whole cache lines into them bypass the caches, without
    reading each line before writing it, and leave the caches to the inputs;
    a kernel whose buffers outgrow the last-level cache pushes what it writes
    out of it before a consumer could read it from there anyway (a layer norm
    of 16 MB into 16 MB: the output's read for ownership was a third of its
    traffic).
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"-1",
           "Smallest kernel footprint (bytes) whose results of half of it stream; -1: the last-level cache">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def MoKeepStaticViews
    : Pass<"mo-keep-static-views", "::mlir::func::FuncOp"> {
  let summary = "Casts of buffers to a more static shape become reinterpret_casts";
  let description = [{
    The entry checks its run-time-sized buffers and casts each to its static
    shape; `memref::foldMemRefCast`, which every linalg op's folder calls,
    folds a cast into its consumer whichever way it goes, so canonicalization
    handed the kernels the run-time-sized buffer (a weight `memref<?xf32>`
    where its type says 1024). After bufferization, this pass makes every
    `memref.cast` of an identity-layout buffer to one with more static dims a
    `memref.reinterpret_cast` to the same type (offset 0, row-major strides),
    which no consumer folds.

    ```mlir
    %w = memref.cast %arg1 : memref<?xf32> to memref<1024xf32>
    ```
    becomes
    ```mlir
    %w = memref.reinterpret_cast %arg1 to offset: [0], sizes: [1024], strides: [1]
        : memref<?xf32> to memref<1024xf32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MoBoundTileBuffers
    : Pass<"mo-bound-tile-buffers", "::mlir::func::FuncOp"> {
  let summary = "A partial tile's scratch buffer allocated at the tile's full size";
  let description = [{
    A tile of rows known only at run time has `min(2, n - i)` rows, and so
    do the scratch buffers of the ops fused into it (a row tile's means and
    variances): `memref.alloc(%rows)`, a call of the allocator per tile,
    where the same graph with static rows gets `memref<2xf32>` on the stack
    (a 4096-row layer_norm: 10,240 allocations per call, 1.7x slower). Each
    `memref.alloc` whose dynamic sizes all have a constant upper bound, at
    most `max-bytes` in all, allocates the bound and is used through a view
    of its real sizes; `promote-buffers-to-stack` and
    `mo-hoist-stack-buffers` then treat it as the static graph's. Run after
    bufferization, before deallocation.

    ```mlir
    %n = affine.min affine_map<(d0)[s0] -> (2, s0 - d0)>(%i)[%rows]
    %a = memref.alloc(%n) : memref<?xf32>
    ```
    becomes
    ```mlir
    %b = memref.alloc() : memref<2xf32>
    %v = memref.subview %b[0] [%n] [1] : memref<2xf32> to memref<?xf32, strided<[1]>>
    %a = memref.cast %v : memref<?xf32, strided<[1]>> to memref<?xf32>
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"65536",
           "The largest bound allocated instead of the real size">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MoHoistStackBuffers
    : Pass<"mo-hoist-stack-buffers", "::mlir::func::FuncOp"> {
  let summary = "Stack buffers of loop bodies allocated once per allocation scope";
  let description = [{
    `promote-buffers-to-stack` turns a kernel's small scratch buffers (a
    fused row tile's means and variances) into `memref.alloca`, which is
    free where `memref.alloc` is a call of the allocator per tile. An alloca
    in a loop body, though, grows the stack by its size every iteration
    until the function returns (a 4096-row layer_norm: 2048 tiles), or is
    saved and restored around each (an `scf.for` body, an `alloca_scope`).
    Run once the thread tiles are OpenMP regions (or plain loops), this pass
    moves each fixed-size alloca out of its sequential loops to the entry of
    the function or of the `omp.parallel` region each thread runs, never out
    of an `scf.forall` or `scf.parallel`. A fresh alloca's contents are
    undefined, so one reused per iteration computes the same. Scopes left
    without allocas are inlined.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MoSkipEmptyKernels
    : Pass<"mo-skip-empty-kernels", "::mlir::func::FuncOp"> {
  let summary = "Kernels that write only empty buffers are skipped";
  let description = [{
    A kernel's loops run over its whole iteration space even when the buffer
    it writes has no elements: a `[0, 2^40]` array transposed iterates 2^40
    times over an empty inner loop. On buffers, this pass guards each
    outermost kernel (a linalg op, a loop nest, a scheduled `scf.forall`)
    whose writes all go to buffers with sizes known only at run time with
    `scf.if` "some written buffer has an element". The writes are read off
    each op's memory effects; writes to the kernel's own scratch buffers do
    not count; a kernel with an effect it cannot trace to a buffer (a call),
    that frees a buffer from outside, or that has results, is left as it is.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def MoOutlineKernels : Pass<"mo-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Each kernel on buffers as a function of its own";
  let description = [{
    A graph's kernels (its outermost linalg ops, loop nests and OpenMP
    regions, after bufferization) are all in its one function, and LLVM's
    optimizations cost more than linearly in the size of a function: a
    ResNet-18 training step's backward graph, 85,000 LLVM-dialect ops in one
    function, took 61 s in LLVM at -O1. This pass moves each kernel without
    results into a private function (marked `noinline`) of the values it
    uses from outside, constants cloned in, and calls it in its place; LLVM
    then works kernel by kernel, and its function merging folds the kernels
    that are the same.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // MO_PASSES_TD
