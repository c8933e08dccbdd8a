//===- Schedules.cpp - the CPU strategy table and its application ---------===//
//
// mo-select-schedules is the strategy table: it keys each root op on its
// class, shapes and the target's vector registers, lays contractions out for
// their register tile (pack -> (batch_)mmt4d -> unpack; a convolution as
// im2col times a matrix first), groups row kernels into chains fused per
// tile of rows, and records the chosen schedule on each op as
// `mo.schedule = {kind = "...", sizes = [...]}`.
// mo-apply-schedules carries the records out with the transform dialect
// interpreter: `kind` names a named sequence of the schedule library
// (Schedules.mlir, built into mo), `sizes` are its parameters. So a lit test
// can pin what was chosen, and tuning is a change of data, not of code.
// Ops without a record take the baseline (loops, LLVM's vectorizer).
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOSELECTSCHEDULES
#define GEN_PASS_DEF_MOAPPLYSCHEDULES
#define GEN_PASS_DEF_MOLOWERVECTORS
#define GEN_PASS_DEF_MOVECTORROWS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

static const char *const kScheduleLibrary =
#include "ScheduleLibrary.inc"
    ;

llvm::StringMap<bool> mo::cpuFeatureMap(StringRef features) {
  if (features == "host")
    return llvm::sys::getHostCPUFeatures();
  llvm::StringMap<bool> enabled;
  SmallVector<StringRef> list;
  features.split(list, ',', -1, false);
  for (StringRef f : list)
    enabled[f.drop_front()] = f.starts_with("+");
  return enabled;
}

namespace {

/// What the table needs to know of the target.
struct Target {
  /// The widest vector register, in bits (512: AVX-512, 256: AVX2).
  int64_t vectorBits = 128;

  static Target get(StringRef features) {
    llvm::StringMap<bool> enabled = mo::cpuFeatureMap(features);
    Target target;
    if (enabled.lookup("avx512f"))
      target.vectorBits = 512;
    else if (enabled.lookup("avx2") && enabled.lookup("fma"))
      target.vectorBits = 256;
    return target;
  }

  /// The f32 accumulator tile (m0 x n0) of a matmul: 16 of AVX-512's 32
  /// registers (8 x 2 zmm), 12 of AVX2's 16 (6 x 2 ymm), leaving registers
  /// for the rhs row and the broadcast lhs element.
  std::pair<int64_t, int64_t> matmulTile() const {
    int64_t lanes = vectorBits / 32;
    if (vectorBits >= 512)
      return {8, 2 * lanes};
    if (vectorBits >= 256)
      return {6, 2 * lanes};
    return {4, 2 * lanes};
  }

  /// The row tiles of a matmul's cache block that each panel of B (k x n0,
  /// in L1) is used by before the next, their A in L2; 0: all the rows,
  /// each row tile's A in L1 and the panels in L2 (AVX-512's order, where
  /// a 32-wide panel of 256 k steps is a whole L1).
  int64_t matmulRowBlock() const { return vectorBits >= 512 ? 0 : 8; }

  /// The most pixels a direct convolution's register tile takes, each a row
  /// of `vectors` vectors of output channels: every register but that row
  /// of filter and one broadcast input element (two vectors: 14 on
  /// AVX-512, 6 on AVX2; one: 14 on AVX2). AVX-512 keeps 14 for one vector
  /// too: its wider single-vector tiles are unmeasured.
  int64_t convPixels(int64_t vectors) const {
    if (vectorBits >= 512)
      return 14;
    return (16 - vectors - 1) / vectors;
  }
};

/// `{kind = "...", sizes = [...]}`: each size one parameter of the kind's
/// sequence, an integer or a list (one parameter of several values).
DictionaryAttr schedule(MLIRContext *ctx, StringRef kind, ArrayAttr sizes) {
  Builder b(ctx);
  return b.getDictionaryAttr({b.getNamedAttr("kind", b.getStringAttr(kind)),
                              b.getNamedAttr("sizes", sizes)});
}

DictionaryAttr schedule(MLIRContext *ctx, StringRef kind,
                        ArrayRef<int64_t> sizes) {
  return schedule(ctx, kind, Builder(ctx).getI64ArrayAttr(sizes));
}

/// The largest filter a direct convolution reads as it is: half of the L2
/// of the machines measured (2 MiB a core).
static constexpr int64_t kStreamedFilterBytes = 1 << 20;

/// The largest B a matmul of many rows reads in place, unpacked
/// (matmul_direct); under a few rows any static B is.
static constexpr int64_t kDirectRhsBytes = 256 << 10;

/// Records `record` on `root` with `fuse = group`, and tags `members` as
/// fused into `root`'s tiles: its sequence gets them as one handle, last
/// parameter, and fuses them.
void scheduleFused(Operation *root, DictionaryAttr record, ArrayRef<Operation *> members,
                   int64_t group) {
  Builder b(root->getContext());
  NamedAttrList entries(record);
  entries.set("fuse", b.getI64IntegerAttr(group));
  root->setAttr(mo::kScheduleAttr, entries.getDictionary(root->getContext()));
  for (Operation *op : members)
    op->setAttr(mo::kFusedIntoAttr, b.getI64IntegerAttr(group));
}

/// The elementwise op (bias, activation, residual) that is `result`'s one
/// use, if it computes each element of its output, of `result`'s shape,
/// from the same element of `result`: what a product's tile can finish in
/// registers.
linalg::GenericOp elementwiseEpilogue(Value result) {
  if (!result.hasOneUse())
    return {};
  auto epilogue = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
  auto type = cast<ShapedType>(result.getType());
  if (!epilogue || epilogue.getNumDpsInits() != 1 || epilogue.getNumLoops() != type.getRank() ||
      epilogue.getNumReductionLoops() != 0 ||
      !epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0)).isIdentity() ||
      cast<ShapedType>(epilogue.getDpsInits()[0].getType()).getShape() != type.getShape())
    return {};
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get() == result && !epilogue.getMatchingIndexingMap(input).isIdentity())
      return {};
  return epilogue;
}

/// Whether a reshape between `expanded` and rank 3 only merges a unit batch
/// dim into the next (`[1, b, m, n] <-> [b, m, n]`).
bool mergesUnitBatch(RankedTensorType expanded,
                     const SmallVector<ReassociationIndices> &reassociation) {
  return expanded.getRank() == 4 && expanded.getDimSize(0) == 1 &&
         reassociation == SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}};
}

/// A transpose of rank 4 that keeps its unit batch dim first, as a
/// permutation of the other three: its result's dim i + 1 is its input's
/// dim perm[i] + 1.
std::optional<SmallVector<int64_t>> unitBatchPermutation(linalg::TransposeOp transpose) {
  ArrayRef<int64_t> perm = transpose.getPermutation();
  if (perm.size() != 4 || perm[0] != 0)
    return std::nullopt;
  return llvm::map_to_vector(perm.drop_front(), [](int64_t dim) { return dim - 1; });
}

/// A batched product's operand as a permutation of another tensor, when it
/// is one: attention's heads, `[1, s, h, d] -> [1, h, s, d]` (its unit dim
/// then collapsed away), or a transpose of rank 3. Returns the tensor
/// (rank 3, built here when a unit dim is collapsed) and `perm`, operand
/// dim i being its dim perm[i], so that the operand's pack reads it in
/// place of a copy made by a kernel of its own.
std::optional<std::pair<Value, SmallVector<int64_t>>>
permutationOf(RewriterBase &rewriter, Value operand) {
  if (auto transpose = operand.getDefiningOp<linalg::TransposeOp>();
      transpose && transpose.getInput().getType().getRank() == 3)
    return std::make_pair(transpose.getInput(), llvm::to_vector(transpose.getPermutation()));
  auto collapse = operand.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || !mergesUnitBatch(collapse.getSrcType(), collapse.getReassociationIndices()))
    return std::nullopt;
  auto transpose = collapse.getSrc().getDefiningOp<linalg::TransposeOp>();
  std::optional<SmallVector<int64_t>> perm =
      transpose ? unitBatchPermutation(transpose) : std::nullopt;
  if (!perm)
    return std::nullopt;
  Value input = tensor::CollapseShapeOp::create(rewriter, collapse.getLoc(), transpose.getInput(),
                                                collapse.getReassociationIndices());
  return std::make_pair(input, *perm);
}

/// The transpose a batched product's result is permuted back by, when that
/// is all it is used for: its unit batch dim expanded, then `[1, h, s, d]
/// -> [1, s, h, d]` (any permutation that keeps the unit dim first).
linalg::TransposeOp permutedResult(Value result) {
  if (!result.hasOneUse())
    return nullptr;
  auto expand = dyn_cast<tensor::ExpandShapeOp>(*result.getUsers().begin());
  if (!expand || !mergesUnitBatch(expand.getResultType(), expand.getReassociationIndices()) ||
      !expand.getResult().hasOneUse())
    return nullptr;
  auto transpose = dyn_cast<linalg::TransposeOp>(*expand.getResult().getUsers().begin());
  if (!transpose || transpose.getInput() != expand.getResult() ||
      !unitBatchPermutation(transpose) ||
      !cast<ShapedType>(transpose.getInit().getType()).hasStaticShape())
    return nullptr;
  return transpose;
}

/// The permutes `values` were made by (and what they read, up the chain),
/// now that nothing reads them: erased before they are scheduled.
void eraseUnused(RewriterBase &rewriter, ArrayRef<Value> values) {
  for (Value value : values)
    while (value && value.use_empty() &&
           isa_and_present<tensor::CollapseShapeOp, linalg::TransposeOp>(value.getDefiningOp())) {
      Operation *op = value.getDefiningOp();
      value = op->getOperand(0);
      rewriter.eraseOp(op);
    }
}

/// An f32 matmul or batch_matmul (C = A B, C filled with a constant) as the
/// data-tiled pack A, pack B -> (batch_)mmt4d -> unpack, each step with its
/// schedule. A batch is one more outer dim of every operand, which the
/// threads split first.
LogicalResult dataTileMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                             const Target &target, int64_t threads, int64_t &group) {
  bool batched = isa<linalg::BatchMatmulOp>(op.getOperation());
  if (!op.hasPureTensorSemantics() ||
      (!batched && cast<linalg::MatmulOp>(op.getOperation()).hasUserDefinedMaps()) ||
      (batched && cast<linalg::BatchMatmulOp>(op.getOperation()).hasUserDefinedMaps()))
    return failure();
  Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1];
  Value c = op.getDpsInits()[0];
  auto fill = c.getDefiningOp<linalg::FillOp>();
  Type f32 = rewriter.getF32Type();
  auto isF32 = [&](Value v) {
    return cast<ShapedType>(v.getType()).getElementType() == f32;
  };
  if (!fill || !isF32(a) || !isF32(b) || !isF32(c))
    return failure();

  MLIRContext *ctx = rewriter.getContext();
  Location loc = op.getLoc();
  auto [m0, n0] = target.matmulTile();
  ArrayRef<int64_t> shapeA = cast<ShapedType>(a.getType()).getShape();
  ArrayRef<int64_t> shapeB = cast<ShapedType>(b.getType()).getShape();
  int64_t o = batched ? 1 : 0; // the first dim of the rows and columns
  int64_t m = shapeA[o], k = shapeA[o + 1], n = shapeB[o + 1];
  int64_t batch = batched ? shapeA[0] : 1;
  auto divides = [](int64_t size, int64_t tile) {
    return !ShapedType::isDynamic(size) && size % tile == 0;
  };
  // A weight that stays in cache is read as it is: no pack of A, B or C,
  // one kernel (with its epilogue) per product. So is any weight under a
  // few rows (a decode step's one token), which read it once: packing it
  // would read it, write it and read it again (1-4 rows of 2048 x 2048 at
  // 2 threads 2-3.5x faster; at 8 rows packed is as fast or faster).
  // (B's own k: A's may be known only at run time.)
  int64_t rhsBytes = ShapedType::isDynamicShape(shapeB) ? -1 : 4 * shapeB[o] * shapeB[o + 1];
  bool fewRows = !ShapedType::isDynamic(m) && m <= m0 / 2;
  if (!batched && rhsBytes > 0 && m != 0 && (fewRows || rhsBytes <= kDirectRhsBytes)) {
    // A narrow B (a classifier's 10 columns) takes one masked vector.
    int64_t lanes = n0 / 2;
    int64_t tm = ShapedType::isDynamic(m) ? m0 : std::min(m, m0);
    int64_t tn = std::min<int64_t>(n0, llvm::divideCeil(n, lanes) * lanes);
    if (rhsBytes > kDirectRhsBytes) {
      // As wide a tile as the m0 x n0 accumulators hold, twice that for
      // one row (a few spilled accumulators cost less than a shorter run
      // of each row of B), in whole vectors, a power of two of them (24 on
      // one row compiled to 30x slower code), while every thread gets one.
      // 1 x 2048 x 2048 at 2 threads, Zen 5: packed 0.43 ms, 32 wide
      // 0.20-0.31, 256 wide 0.16-0.18, 512 wide 0.13-0.15 (numpy 0.13-0.16).
      int64_t vectors = m0 * n0 * (m == 1 ? 2 : 1) / tm / lanes;
      int64_t share = llvm::divideCeil(llvm::divideCeil(n, threads), lanes);
      tn = lanes * int64_t(llvm::bit_floor(uint64_t(std::min(vectors, share))));
    }
    StringRef kind = divides(m, tm) ? "matmul_direct" : "matmul_direct_padded";
    linalg::GenericOp epilogue = elementwiseEpilogue(op->getResult(0));
    SmallVector<Operation *> producers;
    if (epilogue)
      producers.push_back(op);
    producers.push_back(fill);
    scheduleFused(epilogue ? epilogue.getOperation() : op.getOperation(),
                  schedule(ctx, kind, {tm, tn}), producers, group++);
    return success();
  }

  // Small products stay loops: packing costs more than it saves when a
  // panel of B is a few rows or columns, or the whole product is tiny.
  auto atMost = [](int64_t size, int64_t bound) {
    return !ShapedType::isDynamic(size) && size <= bound;
  };
  if (atMost(k, 8) || atMost(n, n0 / 2) ||
      (!ShapedType::isDynamicShape({m, n, k}) && m * n * k < (1 << 15)))
    return failure();

  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
  auto pack = [&](Value source, ArrayRef<int64_t> innerPos,
                  ArrayRef<int64_t> tiles, ArrayRef<int64_t> outerPerm,
                  bool pads) {
    SmallVector<int64_t> inner(innerPos), outer(outerPerm);
    // A permuted operand is packed from what it permutes, the dims renamed.
    if (batched)
      if (auto permuted = permutationOf(rewriter, source)) {
        auto &[input, perm] = *permuted;
        source = input;
        for (int64_t &dim : inner)
          dim = perm[dim];
        if (outer.empty())
          outer = llvm::to_vector(llvm::seq<int64_t>(0, perm.size()));
        for (int64_t &dim : outer)
          dim = perm[dim];
      }
    SmallVector<OpFoldResult> tileSizes = getAsIndexOpFoldResult(ctx, tiles);
    Value dest = linalg::PackOp::createDestinationTensor(
        rewriter, loc, source, tileSizes, inner, outer);
    return linalg::PackOp::create(rewriter, loc, source, dest, inner,
                                  tileSizes,
                                  pads ? std::optional<Value>(zero) : std::nullopt,
                                  outer);
  };
  // A: [(b,) m, k] -> [(b,) m1, k, m0, 1]; B: [(b,) k, n] -> [(b,) n1, k,
  // n0, 1] (rows of n0 contiguous per k); C: [(b,) m1, n1, m0, n0].
  SmallVector<int64_t> rowsCols{o, o + 1}, colsRows{o + 1, o};
  SmallVector<int64_t> swapLast = batched ? SmallVector<int64_t>{0, 2, 1}
                                          : SmallVector<int64_t>{1, 0};
  linalg::PackOp packA = pack(a, rowsCols, {m0, 1}, {}, !divides(m, m0));
  linalg::PackOp packB = pack(b, colsRows, {n0, 1}, swapLast, !divides(n, n0));
  SmallVector<OpFoldResult> accTiles = getAsIndexOpFoldResult(ctx, {m0, n0});
  Value accEmpty = linalg::PackOp::createDestinationTensor(rewriter, loc, c, accTiles,
                                                           rowsCols, {});
  Value acc = linalg::FillOp::create(rewriter, loc, fill.getInputs(), accEmpty)
                  .getResult(0);
  SmallVector<Value> packed{packA.getResult(), packB.getResult()};
  Operation *product =
      batched ? linalg::BatchMmt4DOp::create(rewriter, loc, packed, ValueRange{acc})
                    .getOperation()
              : linalg::Mmt4DOp::create(rewriter, loc, packed, ValueRange{acc})
                    .getOperation();
  // A product whose heads are permuted back (attention's p v: [1, h, s, d]
  // -> [1, s, h, d]) is unpacked into the permuted tensor, the permutation
  // in the unpack's dims (the product's dim i is its dim inverse[i]): no
  // transpose is left to copy it.
  linalg::TransposeOp permuteBack = batched ? permutedResult(op->getResult(0)) : nullptr;
  SmallVector<int64_t> unpackInner(rowsCols), unpackOuter;
  Value dest;
  SmallVector<int64_t> perm = permuteBack ? *unitBatchPermutation(permuteBack)
                                           : SmallVector<int64_t>{};
  if (permuteBack) {
    SmallVector<int64_t> inverse(3);
    for (int64_t j = 0; j < 3; ++j)
      inverse[perm[j]] = j;
    for (int64_t &dim : unpackInner)
      dim = inverse[dim];
    unpackOuter = inverse;
    dest = tensor::EmptyOp::create(
        rewriter, loc, cast<ShapedType>(permuteBack.getInit().getType()).getShape().drop_front(),
        f32);
  } else {
    dest = tensor::EmptyOp::create(rewriter, loc, tensor::getMixedSizes(rewriter, loc, c), f32);
  }
  auto unpack = linalg::UnPackOp::create(rewriter, loc, product->getResult(0), dest,
                                         unpackInner, accTiles, unpackOuter);

  // Threads split the batch when it has room for them all, then the
  // columns of tiles when there are enough of them (or the count is only
  // known at run time), else the rows. Columns let each thread pack its
  // panels of B as its cache blocks need them, from cache, where split rows
  // need all of B packed first in a pass of its own: at 2 threads, a
  // 1024^3 matmul 7.45 -> 7.2 ms, an MLP of 1024 rows by 1024 16 -> 15
  // ms, of 256 rows 4.3 -> 3.7, and of 50 run-time rows 1.78 -> 1.04 (as
  // fast as with static rows); at 1 thread the same. But every thread then
  // reads all of A: the rows split when A read by each thread (m x T)
  // outweighs B packed, written and read again (n x (T + 1)), as in the
  // im2col product of a 17x17, 64 -> 64 convolution (289 x 64: 0.20 ->
  // 0.18 ms split by rows).
  int64_t m1 = ShapedType::isDynamic(m) ? ShapedType::kDynamic : llvm::divideCeil(m, m0);
  int64_t n1 = ShapedType::isDynamic(n) ? ShapedType::kDynamic : llvm::divideCeil(n, n0);
  auto fit = [&](int64_t tiles) {
    return ShapedType::isDynamic(tiles) ? threads : std::min(threads, tiles);
  };
  int64_t threadsB = batched && fit(batch) == threads ? threads : 1;
  int64_t rest = threadsB == 1 ? threads : 1;
  bool splitRows = fit(n1) < rest || (rest > 1 && !ShapedType::isDynamic(m) &&
                                       !ShapedType::isDynamic(n) && m * rest > n * (rest + 1));
  int64_t threadsM = splitRows ? std::min(rest, fit(m1)) : 1;
  int64_t threadsN = splitRows ? 1 : std::min(rest, fit(n1));
  // A cache block of 16 column tiles by 256 of k (on AVX-512, 512 columns:
  // the 8 x 32 x 256 panel of B stays in L2 while A streams through L1),
  // or all of a shorter k: a block larger than k leaves its size a min the
  // tiles inside never fold, and B's pack a masked copy of single elements
  // (an MLP of 64 and 128 wide layers: 80 ms more to compile).
  int64_t cacheK = ShapedType::isDynamic(k) ? 256 : std::min<int64_t>(256, k);
  // A's pack joins the product too where the columns are split (AVX-512's
  // order, rows not blocked) and the rows divide the register tile: each
  // row tile's panel of A (m0 x cache_k) is packed from cache right before
  // the block's column tiles use it, in place of a kernel that packs all of
  // A first, writes it and reads it back. Every thread packs all the rows.
  // Zen 5, one process per run, alternated: 1024^3 at 2 threads 5.22 ->
  // 5.09 ms (median of 6), w7 at 2 threads 2.85 -> 2.70 (of 3), at one
  // thread 1024^3 and w3's 64-row layers unchanged.
  bool fuseA = !batched && threadsM == 1 && !target.matmulRowBlock() && divides(m, m0);
  Builder builder(ctx);
  // A batched product whose threads split the batch alone packs each
  // batch's A and B inside its own batch step (attention's heads: a head's
  // panels packed from cache right before its product), no kernel packing
  // every batch first: w7 compiles four kernels fewer (cold compile 251 ->
  // 239 ms median, CPU 398 -> 379; 20 compiles alternated in one process)
  // and runs as fast (1 thread 4.66 -> 4.55 ms, 2 threads 2.27 -> 2.21;
  // medians of 4 processes each). Threads that split the rows or columns
  // would each pack all of the other operand: packed first, once, instead.
  bool fuseBatchPacks = batched && threadsM == 1 && threadsN == 1;
  if (batched) {
    SmallVector<Attribute> sizes{builder.getI64ArrayAttr({threadsB, threadsM, threadsN}),
                                 builder.getI64IntegerAttr(16),
                                 builder.getI64IntegerAttr(cacheK)};
    if (fuseBatchPacks)
      sizes.append({builder.getI64IntegerAttr(m0), builder.getI64IntegerAttr(n0)});
    product->setAttr(mo::kScheduleAttr,
                     schedule(ctx, fuseBatchPacks ? "batch_mmt4d_packed" : "batch_mmt4d",
                              builder.getArrayAttr(sizes)));
  } else if (fuseA) {
    scheduleFused(product, schedule(ctx, "mmt4d_pack_both", {threadsN, 16, cacheK, n0, m0}),
                  {packB}, group++);
  } else if (threadsM == 1) {
    // Each thread packs B's panels as its cache blocks need them (B read
    // once, its packed panel reused from cache): the threads' columns
    // are disjoint, so no panel is packed twice.
    scheduleFused(product,
                  target.matmulRowBlock()
                      ? schedule(ctx, "mmt4d_pack_rhs_blocked",
                                 {threadsN, 16, cacheK, n0, target.matmulRowBlock()})
                      : schedule(ctx, "mmt4d_pack_rhs", {threadsN, 16, cacheK, n0}),
                  {packB}, group++);
  } else {
    product->setAttr(mo::kScheduleAttr,
                     schedule(ctx, "mmt4d", {threadsM, threadsN, 16, cacheK}));
  }
  // The relayouts: the packs no product takes in (tiles of one outer row,
  // vectorized by 8 (A) or 4 (B) k steps) and the unpack (by one
  // accumulator tile); a batch is one more outer dim, tiled by 1.
  auto relayout = [&](Operation *target, ArrayRef<int64_t> tiles,
                      ArrayRef<int64_t> vector) {
    SmallVector<int64_t> sizes;
    if (batched)
      sizes.push_back(1);
    llvm::append_range(sizes, tiles);
    if (batched)
      sizes.push_back(1);
    llvm::append_range(sizes, vector);
    target->setAttr(mo::kScheduleAttr,
                    schedule(ctx, batched ? "relayout_batched" : "relayout", sizes));
  };
  if (!fuseA && !fuseBatchPacks)
    relayout(packA, {1, 8}, {1, 8, m0, 1});
  if (!packB->hasAttr(mo::kFusedIntoAttr) && !fuseBatchPacks)
    relayout(packB, {1, 4}, {1, 4, n0, 1});
  if (permuteBack) {
    // The tiles of the product's dims, in the unpack's.
    SmallVector<int64_t> tiles{1, m0, n0}, sizes;
    for (int64_t dim : perm)
      sizes.push_back(tiles[dim]);
    llvm::append_range(sizes, ArrayRef<int64_t>{1, 1, 1, m0, n0});
    unpack->setAttr(mo::kScheduleAttr, schedule(ctx, "relayout_batched", sizes));
    auto expand = cast<tensor::ExpandShapeOp>(*op->getResult(0).getUsers().begin());
    rewriter.setInsertionPoint(permuteBack);
    rewriter.replaceOp(permuteBack,
                       tensor::ExpandShapeOp::create(rewriter, loc, permuteBack.getInit().getType(),
                                                     unpack.getResult(),
                                                     expand.getReassociationIndices()));
    rewriter.eraseOp(expand);
    rewriter.eraseOp(op);
    eraseUnused(rewriter, {a, b});
    return success();
  }
  relayout(unpack, {m0, n0}, {1, 1, m0, n0});
  rewriter.replaceOp(op, unpack.getResult());
  eraseUnused(rewriter, {a, b});
  // An elementwise epilogue (bias, activation, residual) of the product's
  // every element, the register tiles dividing it: each tile of C is
  // unpacked and finished while in registers, not written, read and
  // written again.
  if (batched || !divides(m, m0) || !divides(n, n0))
    return success();
  linalg::GenericOp epilogue = elementwiseEpilogue(unpack.getResult());
  if (!epilogue)
    return success();
  unpack->removeAttr(mo::kScheduleAttr);
  scheduleFused(epilogue, schedule(ctx, "unpack_epilogue", {m0, n0}), {unpack}, group++);
  return success();
}

/// Products of one operand (attention's q, k and v of one normed x) pack it
/// once: a pack equivalent to an earlier one of its block (its operands the
/// same values, empty tensors of one type and sizes, or one constant: the
/// padding) is replaced by it.
void reusePacks(func::FuncOp func) {
  auto sameOperand = [](Value a, Value b) {
    Attribute x, y;
    return success(mo::sameDestination(a, b) ||
                   (matchPattern(a, m_Constant(&x)) && matchPattern(b, m_Constant(&y)) && x == y));
  };
  SmallVector<linalg::PackOp> packs;
  func.walk([&](linalg::PackOp op) { packs.push_back(op); });
  for (auto [i, later] : llvm::enumerate(packs))
    for (linalg::PackOp first : ArrayRef(packs).take_front(i))
      if (first && first->getBlock() == later->getBlock() &&
          OperationEquivalence::isEquivalentTo(first, later, sameOperand, nullptr,
                                               OperationEquivalence::IgnoreLocations)) {
        later.getResult().replaceAllUsesWith(first.getResult());
        later->erase();
        packs[i] = nullptr;
        break;
      }
}

/// What both convolution schedules take: f32 on tensors, the output filled
/// with a constant, the filter's shape static.
bool isScheduledConv(linalg::Conv2DNhwcHwcfOp op) {
  Type f32 = Float32Type::get(op.getContext());
  auto isF32 = [&](Value v) { return cast<ShapedType>(v.getType()).getElementType() == f32; };
  Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1];
  Value init = op.getDpsInits()[0];
  return op.hasPureTensorSemantics() && init.getDefiningOp<linalg::FillOp>() &&
         isF32(input) && isF32(filter) && isF32(init) &&
         cast<ShapedType>(filter.getType()).hasStaticShape();
}

/// `op` (a direct convolution of `tw`-pixel by `tf`-channel register tiles)
/// with its filter packed first as [F/tf][KH][KW][C][tf], and one
/// convolution per tile of `tf` output channels on its contiguous block of
/// the filter. Read in place, a tile's columns of the filter (`tf` of each
/// row of F, the rows a power of two apart) crowd few of L2's sets and come
/// from memory again for every row of pixels (a loop over channel tiles
/// outside the rows alone gained nothing): 14x14, 256 -> 256 channels 3.4 ->
/// 1.9 ms at one thread (torch 2.0); 7x7, 512 -> 512 5.1 -> 3.4 ms (torch
/// 3.4-4.1). The threads split the channel tiles when they share them
/// evenly (one fork, each thread sweeping its own blocks over all the rows,
/// `conv_serial`: at two threads 7x7 2.4 -> 2.0 ms, 14x14 1.2 -> 1.0), else
/// the rows of each tile's convolution (an scf.for of `conv`s).
void convolveByChannelTiles(RewriterBase &rewriter, linalg::Conv2DNhwcHwcfOp op, int64_t tw,
                            int64_t tf, int64_t threads) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1];
  auto fType = cast<RankedTensorType>(filter.getType());
  Type f32 = fType.getElementType();
  ArrayRef<int64_t> fs = fType.getShape(); // KH, KW, C, F
  int64_t tiles = fs[3] / tf;
  rewriter.setInsertionPoint(op);

  // The pack: [KH, KW, C, F] viewed as [KH, KW, C, F/tf, tf], permuted.
  auto split = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get({fs[0], fs[1], fs[2], tiles, tf}, f32), filter,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  Value packedInit =
      tensor::EmptyOp::create(rewriter, loc, {tiles, fs[0], fs[1], fs[2], tf}, f32);
  AffineExpr t, kh, kw, ch, fi;
  bindDims(ctx, t, kh, kw, ch, fi);
  SmallVector<AffineMap> maps{AffineMap::get(5, 0, {kh, kw, ch, t, fi}, ctx),
                              AffineMap::getMultiDimIdentityMap(5, ctx)};
  SmallVector<utils::IteratorType> parallel(5, utils::IteratorType::parallel);
  Value packed = linalg::GenericOp::create(
                     rewriter, loc, packedInit.getType(), ValueRange{split},
                     ValueRange{packedInit}, maps, parallel,
                     [](OpBuilder &b, Location loc, ValueRange args) {
                       linalg::YieldOp::create(b, loc, args[0]);
                     })
                     .getResult(0);

  // Tile `iv`'s convolution, inserted into `acc`: the insert returned (to
  // yield), or put in `inParallel` (an scf.forall's terminator).
  bool byThreads = threads > 1 && tiles % threads == 0;
  auto fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  SmallVector<OpFoldResult> outSizes = tensor::getMixedSizes(rewriter, loc, op.getDpsInits()[0]);
  SmallVector<OpFoldResult> tileSizes(outSizes.begin(), outSizes.end() - 1);
  tileSizes.push_back(rewriter.getIndexAttr(tf));
  auto convolveTile = [&](OpBuilder &b, Value iv, Value acc, Operation *inParallel) -> Value {
    OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
    SmallVector<OpFoldResult> offsets{iv, zero, zero, zero, zero}, sizes{one};
    for (int64_t d : {fs[0], fs[1], fs[2], tf})
      sizes.push_back(b.getIndexAttr(d));
    Value w = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({fs[0], fs[1], fs[2], tf}, f32), packed, offsets, sizes,
        SmallVector<OpFoldResult>(5, one));
    Value init = linalg::FillOp::create(b, loc, fill.getInputs(),
                                        ValueRange{tensor::EmptyOp::create(b, loc, tileSizes, f32)})
                     .getResult(0);
    auto conv = linalg::Conv2DNhwcHwcfOp::create(b, loc, init.getType(), ValueRange{input, w},
                                                 ValueRange{init}, op.getStrides(),
                                                 op.getDilations());
    conv->setAttr(mo::kScheduleAttr,
                  schedule(ctx, byThreads ? "conv_serial" : "conv", {tw, tf, 1}));
    AffineExpr i = getAffineDimExpr(0, ctx);
    SmallVector<OpFoldResult> at(3, zero);
    at.push_back(affine::AffineApplyOp::create(b, loc, AffineMap::get(1, 0, i * tf), iv)
                     .getResult());
    SmallVector<OpFoldResult> strides(4, one);
    if (!inParallel)
      return tensor::InsertSliceOp::create(b, loc, conv.getResult(0), acc, at, tileSizes,
                                           strides);
    b.setInsertionPointToStart(&inParallel->getRegion(0).front());
    tensor::ParallelInsertSliceOp::create(b, loc, conv.getResult(0), acc, at, tileSizes,
                                          strides);
    return Value();
  };
  Value outInit = tensor::EmptyOp::create(rewriter, loc, outSizes, f32);
  if (byThreads) {
    auto forall = scf::ForallOp::create(rewriter, loc,
                                        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(tiles)},
                                        ValueRange{outInit}, std::nullopt);
    OpBuilder b(forall.getTerminator());
    convolveTile(b, forall.getInductionVar(0), forall.getRegionIterArgs()[0],
                 forall.getTerminator());
    rewriter.replaceOp(op, forall.getResult(0));
    return;
  }
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  auto loop = scf::ForOp::create(rewriter, loc, index(0), index(tiles), index(1),
                                 ValueRange{outInit},
                                 [&](OpBuilder &b, Location, Value iv, ValueRange acc) {
                                   scf::YieldOp::create(b, loc,
                                                        convolveTile(b, iv, acc[0], nullptr));
                                 });
  rewriter.replaceOp(op, loop.getResult(0));
}

/// Whether `op`'s filter is read packed by channel tiles (convolveByChannelTiles).
bool packsFilter(linalg::Conv2DNhwcHwcfOp op, int64_t tf) {
  auto fType = cast<RankedTensorType>(op.getDpsInputs()[1].getType());
  return 4 * fType.getNumElements() > kStreamedFilterBytes && fType.getDimSize(3) > tf;
}

/// The register tile (`tw` pixels, `tf` channels) of `op` as a direct
/// convolution, if it takes one: rows of pixels dividing it, at least four
/// input channels.
std::optional<std::pair<int64_t, int64_t>> directConvTile(linalg::Conv2DNhwcHwcfOp op,
                                                           const Target &target) {
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  auto fType = cast<RankedTensorType>(op.getDpsInputs()[1].getType());
  if (!isScheduledConv(op) || ShapedType::isDynamic(outType.getDimSize(2)))
    return std::nullopt;
  auto [m0, n0] = target.matmulTile();
  int64_t ow = outType.getDimSize(2), f = fType.getDimSize(3), c = fType.getDimSize(2);
  if (c < 4)
    return std::nullopt;
  auto largestDivisor = [&](int64_t from, int64_t to) -> int64_t {
    for (int64_t t = from; t >= to; --t)
      if (ow % t == 0)
        return t;
    return 0;
  };
  // One vector of channels by as many pixels as the matmul's tile has
  // accumulators (2 m0) or more, where the filter is read as it is: on
  // AVX2, whose two vectors fit 6 pixels (a 56-pixel row 4: 8 accumulators
  // of 16 registers), w6 as 14 x 8 (one thread 5.8-5.9 -> 3.1-4.4 ms on
  // Zen 3). Not with fewer pixels or a packed filter: 7x7 512 -> 512 as 7 x
  // 8 took 12 ms against im2col's 3.5, 14x14 256 -> 256 as 14 x 8 slower.
  int64_t tf1 = n0 / 2;
  if (f % tf1 == 0 && !packsFilter(op, tf1))
    if (int64_t tw = largestDivisor(target.convPixels(1), 2 * m0))
      return std::make_pair(tw, tf1);
  // Else two vectors of channels, or one, by the largest row tile that
  // divides the row, down to half the matmul's. (Other shapes take im2col,
  // whose packs pad.)
  int64_t tw = largestDivisor(target.convPixels(2), std::max<int64_t>(1, m0 / 2));
  int64_t tf = f % n0 == 0 ? n0 : (f % (n0 / 2) == 0 ? n0 / 2 : 0);
  if (!tw || !tf)
    return std::nullopt;
  return std::make_pair(tw, tf);
}

/// A 2-D f32 convolution (NHWC input, HWCF filter, output filled with a
/// constant) computed directly: each thread takes rows of output pixels,
/// each register tile is `tw` pixels of a row by `tf` output channels,
/// accumulated over the window and the input channels one at a time (an
/// input element broadcast, a row of the filter read as is, so neither
/// operand is repacked). One channel a step keeps a single filter row live
/// beside the accumulators: steps of 16 channels held 16 rows, which LLVM
/// loaded ahead and spilled (w6 at one thread 2.0 -> 1.55 ms with 14-pixel
/// tiles of single channels; 8 pixels of 4 channels took 1.74). A filter
/// over kStreamedFilterBytes is packed first (convolveByChannelTiles).
LogicalResult directConv(RewriterBase &rewriter, linalg::Conv2DNhwcHwcfOp op,
                         const Target &target, int64_t threads, int64_t &group) {
  std::optional<std::pair<int64_t, int64_t>> tile = directConvTile(op, target);
  if (!tile)
    return failure();
  auto [tw, tf] = *tile;
  if (packsFilter(op, tf)) {
    convolveByChannelTiles(rewriter, op, tw, tf, threads);
    return success();
  }
  // An elementwise epilogue takes the convolution into its tiles, each
  // accumulator finished in registers and written once (w6 at one thread
  // 1.54 -> 1.39 ms; 8 images of 28x28, 128 -> 128: 12.6 -> 10.6 ms). Not
  // with a run-time batch: the fill's fusion finds the convolution writing
  // the epilogue's tile instead (the two empty tensors are one size).
  linalg::GenericOp epilogue;
  if (cast<ShapedType>(op.getDpsInits()[0].getType()).hasStaticShape() &&
      (epilogue = elementwiseEpilogue(op->getResult(0)))) {
    scheduleFused(epilogue, schedule(op.getContext(), "conv_epilogue", {tw, tf, 1}), {op},
                  group++);
    return success();
  }
  op->setAttr(mo::kScheduleAttr, schedule(op.getContext(), "conv", {tw, tf, 1}));
  return success();
}

/// A 2-D f32 convolution (NHWC input, HWCF filter, output filled with a
/// constant) as an implicit GEMM made explicit: the input's windows
/// gathered into a [N*OH*OW, KH*KW*C] matrix (im2col, a copy LLVM
/// vectorizes along the channels), times the filter as a [KH*KW*C, F]
/// matrix, which then takes the matmul's data tiling.
FailureOr<linalg::MatmulOp> im2colConv(RewriterBase &rewriter,
                                       linalg::Conv2DNhwcHwcfOp op) {
  Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1];
  Value init = op.getDpsInits()[0];
  auto fill = init.getDefiningOp<linalg::FillOp>();
  auto fType = cast<RankedTensorType>(filter.getType());
  auto outType = cast<RankedTensorType>(init.getType());
  Type f32 = rewriter.getF32Type();
  if (!isScheduledConv(op) ||
      // The product expands back into [N, OH, OW]: one of them at most may
      // be dynamic (what expand_shape's lowering to strides can size).
      llvm::count_if(outType.getShape().drop_back(), ShapedType::isDynamic) > 1)
    return failure();
  MLIRContext *ctx = rewriter.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
  ArrayRef<int64_t> f = fType.getShape(); // KH, KW, C, F
  // The windows: [n, oh, ow, kh, kw, c] = input[n, oh*sh + kh*dh, ow*sw + kw*dw, c].
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, init);
  sizes.pop_back();
  for (int64_t d : f.drop_back())
    sizes.push_back(rewriter.getIndexAttr(d));
  Value windowsInit = tensor::EmptyOp::create(rewriter, loc, sizes, f32);
  AffineExpr n, oh, ow, kh, kw, c;
  bindDims(ctx, n, oh, ow, kh, kw, c);
  AffineMap read = AffineMap::get(
      6, 0, {n, oh * strides[0] + kh * dilations[0], ow * strides[1] + kw * dilations[1], c},
      ctx);
  SmallVector<utils::IteratorType> parallel(6, utils::IteratorType::parallel);
  Value windows =
      linalg::GenericOp::create(
          rewriter, loc, windowsInit.getType(), ValueRange{input}, ValueRange{windowsInit},
          ArrayRef<AffineMap>{read, rewriter.getMultiDimIdentityMap(6)}, parallel,
          [](OpBuilder &b, Location l, ValueRange args) {
            linalg::YieldOp::create(b, l, args[0]);
          })
          .getResult(0);
  // Rows (or a patch) first, then the patch (or the features).
  SmallVector<ReassociationIndices> rowsAndPatch{{0, 1, 2}, {3, 4, 5}};
  SmallVector<ReassociationIndices> threeAndOne{{0, 1, 2}, {3}};
  Value lhs = tensor::CollapseShapeOp::create(rewriter, loc, windows, rowsAndPatch);
  Value rhs = tensor::CollapseShapeOp::create(rewriter, loc, filter, threeAndOne);
  SmallVector<OpFoldResult> productSizes{tensor::getMixedSize(rewriter, loc, lhs, 0),
                                         rewriter.getIndexAttr(f[3])};
  Value acc = linalg::FillOp::create(rewriter, loc, fill.getInputs(),
                                     ValueRange{tensor::EmptyOp::create(rewriter, loc,
                                                                        productSizes, f32)})
                  .getResult(0);
  auto matmul = linalg::MatmulOp::create(rewriter, loc, ValueRange{lhs, rhs}, ValueRange{acc});
  Value result = tensor::ExpandShapeOp::create(rewriter, loc, outType, matmul.getResult(0),
                                               threeAndOne,
                                               tensor::getMixedSizes(rewriter, loc, init));
  rewriter.replaceOp(op, result);
  return matmul;
}

/// A linalg op no schedule has claimed, of elementwise, broadcast or
/// reduction form (every map a projected permutation), with 2^16 or more
/// iterations (or a count known only at run time) and no empty loop.
bool isBigKernel(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op->hasAttr(mo::kScheduleAttr) ||
      op->hasAttr(mo::kFusedIntoAttr) ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return false;
  constexpr int64_t kEnough = int64_t(1) << 16;
  int64_t work = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (range == 0)
      return false;
    if (work < kEnough)
      work = ShapedType::isDynamic(range) || range >= kEnough ? kEnough : work * range;
  }
  return work >= kEnough;
}

/// Whether `map`'s first `rowLoops` results are loops 0, 1, ...: a row of
/// the op's outer loops reads (or writes) a row of the operand.
bool readsRows(AffineMap map, unsigned rowLoops) {
  if (map.getNumResults() < rowLoops)
    return false;
  for (unsigned i = 0; i < rowLoops; ++i)
    if (map.getResult(i) != getAffineDimExpr(i, map.getContext()))
      return false;
  return true;
}

/// The producers a tile of `root`'s rows (its first `rowLoops` loops) can
/// compute row by row with it: linalg ops of the same block, parallel along
/// those loops, writing rows that their consumer reads as rows, every use
/// inside the chain (so nothing outside needs a value computed in tiles).
SmallVector<Operation *> rowChain(linalg::GenericOp root, unsigned rowLoops) {
  llvm::SetVector<Operation *> chain;
  SmallVector<linalg::LinalgOp> worklist{root};
  while (!worklist.empty()) {
    linalg::LinalgOp consumer = worklist.pop_back_val();
    for (OpOperand &operand : consumer->getOpOperands()) {
      auto producer = operand.get().getDefiningOp<linalg::LinalgOp>();
      if (!producer || producer == root || chain.contains(producer) ||
          producer->getBlock() != root->getBlock() || !producer.hasPureTensorSemantics() ||
          producer->hasAttr(mo::kScheduleAttr) || producer->hasAttr(mo::kFusedIntoAttr) ||
          producer.getNumLoops() < rowLoops ||
          llvm::any_of(ArrayRef(producer.getIteratorTypesArray()).take_front(rowLoops),
                       [](utils::IteratorType t) { return t != utils::IteratorType::parallel; }) ||
          !readsRows(consumer.getMatchingIndexingMap(&operand), rowLoops) ||
          !llvm::all_of(producer.getIndexingMapsArray(),
                        [](AffineMap map) { return map.isProjectedPermutation(); }) ||
          !llvm::all_of(producer.getDpsInitsMutable(), [&](OpOperand &init) {
            return readsRows(producer.getMatchingIndexingMap(&init), rowLoops);
          }))
        continue;
      chain.insert(producer);
      worklist.push_back(producer);
    }
  }
  // Drop, until none is left, any member with a use outside the chain.
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : SmallVector<Operation *>(chain.begin(), chain.end()))
      if (llvm::any_of(op->getUsers(), [&](Operation *user) {
            return user != root && !chain.contains(user);
          })) {
        chain.remove(op);
        changed = true;
      }
  }
  return chain.takeVector();
}

/// A kernel whose producers compute row by row with it (softmax: max, exp,
/// sum, divide; a norm's mean, variance, scale): tiles of a few rows, each
/// computing the whole chain for its rows while they are in cache, the
/// tiles spread across the threads.
LogicalResult fuseRows(linalg::GenericOp root, int64_t group) {
  if (!isBigKernel(root) || root.getNumLoops() < 2)
    return failure();
  // The rows: the outer parallel loops but the innermost loop (attention's
  // softmax: 8 heads of 128 rows), or fewer if a producer reduces along
  // one of them; 16 or more of them.
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = root.getIteratorTypesArray();
  unsigned rowLoops = 0;
  while (rowLoops + 1 < root.getNumLoops() &&
         iterators[rowLoops] == utils::IteratorType::parallel)
    ++rowLoops;
  SmallVector<Operation *> chain;
  for (; rowLoops > 0; --rowLoops) {
    int64_t rows = 1;
    for (int64_t range : ArrayRef(ranges).take_front(rowLoops))
      rows = ShapedType::isDynamic(range) ? 16 : std::min<int64_t>(rows * range, 16);
    if (rows < 16)
      return failure();
    if (!(chain = rowChain(root, rowLoops)).empty())
      break;
  }
  if (chain.empty())
    return failure();
  Builder b(root->getContext());
  // Tiles of 4 rows (16 KiB of f32 rows of 1024): measured against 1, 2, 8
  // and 16 at 1 and 2 threads, softmax and layer_norm of 1024 and 4096
  // rows, 4 is within 3 % of the best of each; 2 rows cost 10-15 % at
  // 4096 (one tile's passes overlap memory less), 8 rows 15 % at 1024 (a
  // tile's rows no longer stay in L1 across its passes). Over several row
  // loops: 4 of the last, 1 of the others.
  SmallVector<int64_t> tiles(root.getNumLoops(), 0);
  for (unsigned i = 0; i + 1 < rowLoops; ++i)
    tiles[i] = 1;
  tiles[rowLoops - 1] = 4;
  scheduleFused(root,
                schedule(root->getContext(), "fused_rows",
                         b.getArrayAttr({b.getI64ArrayAttr(tiles)})),
                chain, group);
  return success();
}

/// A big copy that moves the innermost dim (a filter's [F, C, R, S] to
/// [R, S, C, F], a matrix transposed): one loop over the output reads the
/// input a cache line per element. Tiles of 16 along the output's innermost
/// dim and along the input dim within which the input's innermost 16 or more
/// elements lie (the smaller dims inside it whole) read and write whole
/// lines; the tiles are spread across the threads.
LogicalResult blockTranspose(linalg::LinalgOp op) {
  if (!isBigKernel(op) || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() || op.getNumLoops() < 2)
    return failure();
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || body->getOperations().size() != 1 ||
      yield->getOperand(0) != body->getArgument(0))
    return failure();
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!out.isIdentity() || !in.isPermutation())
    return failure();
  int64_t rank = op.getNumLoops();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> tiles(rank, 1);
  tiles[rank - 1] = 16;
  int64_t run = 1;
  // The input's dims from its innermost out, until 16 elements lie within.
  for (int64_t j = rank - 1; j >= 0; --j) {
    unsigned loop = in.getDimPosition(j);
    if (loop == unsigned(rank - 1))
      return failure(); // the output's rows are in the input's run: copied whole
    if (ShapedType::isDynamic(ranges[loop]) || run * ranges[loop] >= 16) {
      tiles[loop] = 16;
      break;
    }
    run *= ranges[loop];
    tiles[loop] = 0; // whole inside the tile
  }
  Builder b(op->getContext());
  op->setAttr(mo::kScheduleAttr,
              schedule(op->getContext(), "transpose", b.getArrayAttr({b.getI64ArrayAttr(tiles)})));
  return success();
}

/// A big kernel left on its own: its outermost parallel loop with room for
/// every thread is split across them.
LogicalResult splitRows(linalg::LinalgOp op, int64_t threads) {
  if (threads < 2 || !isBigKernel(op))
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [i, range] : llvm::enumerate(ranges)) {
    if (iterators[i] != utils::IteratorType::parallel)
      continue;
    if (!ShapedType::isDynamic(range) && range < threads)
      continue;
    SmallVector<int64_t> counts(i + 1, 1);
    counts[i] = threads;
    Builder b(op->getContext());
    op->setAttr(mo::kScheduleAttr, schedule(op->getContext(), "rows",
                                        b.getArrayAttr({b.getI64ArrayAttr(counts)})));
    return success();
  }
  return failure();
}

struct MoSelectSchedulesPass
    : public mo::impl::MoSelectSchedulesBase<MoSelectSchedulesPass> {
  using MoSelectSchedulesBase::MoSelectSchedulesBase;

  LogicalResult initialize(MLIRContext *) override {
    target = Target::get(cpuFeatures);
    return success();
  }

  void runOnOperation() override {
    int64_t threads = std::max<int64_t>(1, numThreads);
    IRRewriter rewriter(&getContext());
    int64_t group = 0;
    // A convolution's elementwise epilogue whose unit dims were folded
    // reads it through a collapse_shape: expanded back to the
    // convolution's rank, it can take the convolution into its tiles.
    RewritePatternSet expand(&getContext());
    linalg::populateFoldReshapeOpsByExpansionPatterns(expand, [&](OpOperand *operand) {
      auto collapse = operand->get().getDefiningOp<tensor::CollapseShapeOp>();
      if (!collapse || !isa<linalg::GenericOp>(operand->getOwner()) ||
          !collapse.getSrc().hasOneUse())
        return false;
      auto conv = collapse.getSrc().getDefiningOp<linalg::Conv2DNhwcHwcfOp>();
      std::optional<std::pair<int64_t, int64_t>> tile;
      return conv && cast<ShapedType>(conv.getDpsInits()[0].getType()).hasStaticShape() &&
             (tile = directConvTile(conv, target)) && !packsFilter(conv, tile->second);
    });
    (void)applyPatternsGreedily(
        getOperation(), std::move(expand),
        GreedyRewriteConfig().enableFolding(false).enableConstantCSE(false));
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    getOperation().walk([&](linalg::Conv2DNhwcHwcfOp op) { convs.push_back(op); });
    for (linalg::Conv2DNhwcHwcfOp op : convs)
      if (failed(directConv(rewriter, op, target, threads, group)))
        (void)im2colConv(rewriter, op);
    // A matmul's elementwise epilogue that reads it split into heads
    // (attention's q/k/v bias on [128, 8, 64] of a [128, 512] product) is
    // collapsed to the product's shape, the split moved after it: the
    // product's tiles can then finish it in registers.
    RewritePatternSet collapse(&getContext());
    linalg::populateFoldReshapeOpsByCollapsingPatterns(collapse, [](OpOperand *operand) {
      auto expand = operand->get().getDefiningOp<tensor::ExpandShapeOp>();
      auto generic = dyn_cast<linalg::GenericOp>(operand->getOwner());
      return expand && generic && expand.getSrc().hasOneUse() && expand->hasOneUse() &&
             isa_and_present<linalg::MatmulOp>(expand.getSrc().getDefiningOp()) &&
             generic.getNumReductionLoops() == 0 &&
             generic.getMatchingIndexingMap(operand).isIdentity();
    });
    tensor::CollapseShapeOp::getCanonicalizationPatterns(collapse, &getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(collapse),
                                GreedyRewriteConfig().enableConstantCSE(false));
    SmallVector<linalg::LinalgOp> matmuls;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()))
        matmuls.push_back(op);
    });
    for (linalg::LinalgOp op : matmuls)
      (void)dataTileMatmul(rewriter, op, target, threads, group);
    reusePacks(getOperation());
    // Consumers first, so that a chain is claimed by its last kernel.
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : llvm::reverse(generics))
      if (succeeded(fuseRows(op, group)))
        ++group;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::GenericOp, linalg::TransposeOp>(op.getOperation()))
        (void)blockTranspose(op);
    });
    for (linalg::GenericOp op : generics)
      (void)splitRows(op, threads);
    // A permute that keeps the innermost dim (attention's heads moved in
    // front of the rows) copies whole rows: split like any big kernel.
    getOperation().walk([&](linalg::TransposeOp op) { (void)splitRows(op, threads); });
  }

  /// The target's features, read once per pass instance (not per function).
  Target target;
};

LogicalResult runSequence(Operation *payload, ModuleOp library, StringRef name,
                          ArrayRef<SmallVector<transform::MappedValue>> extra) {
  auto sequence = library.lookupSymbol<transform::NamedSequenceOp>(name);
  if (!sequence)
    return payload->emitError("mo: no schedule sequence @") << name;
  RaggedArray<transform::MappedValue> mapping;
  for (const SmallVector<transform::MappedValue> &values : extra)
    mapping.push_back(values);
  return transform::applyTransforms(
      payload, cast<transform::TransformOpInterface>(sequence.getOperation()),
      mapping, transform::TransformOptions().enableExpensiveChecks(false),
      /*enforceToplevelTransformOp=*/false);
}

/// A pass that runs sequences of the schedule library, parsed once per
/// pass (and shared by its clones, which only read it).
template <typename Base>
struct LibraryPass : public Base {
  std::shared_ptr<OwningOpRef<ModuleOp>> library;

  LogicalResult initialize(MLIRContext *ctx) override {
    library = std::make_shared<OwningOpRef<ModuleOp>>(parseSourceString<ModuleOp>(
        kScheduleLibrary, ParserConfig(ctx), "mo-schedules"));
    return success(**library != nullptr);
  }

  LogicalResult run(Operation *payload, StringRef name,
                    ArrayRef<SmallVector<transform::MappedValue>> extra = {}) {
    return runSequence(payload, **library, name, extra);
  }
};

/// Every loaded dialect's and registered op's canonicalization patterns, as
/// the canonicalizer gathers them.
void addCanonicalization(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

/// The greedy driver for the cleanup after the schedules and the lowering
/// of vectors: to a fixpoint, however many rounds (as
/// transform.apply_patterns), without region simplification, which found
/// nothing to erase on w1-w7 (a liveness pass over the function after each
/// round).
GreedyRewriteConfig fixpoint() {
  GreedyRewriteConfig config;
  config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return config;
}

/// What the schedules leave, cleaned up once per function: vector
/// contractions recovered from the vectorized reductions, masked transfers
/// made plain (so that bufferization sees no vector.mask), a tile's slice
/// of a tensor.empty made an empty of the tile's size (else bufferization
/// allocates the whole tensor: a fused producer's temporary, a thread's
/// packed panels of B), and loop-invariant transfers hoisted so that an
/// accumulator tile is one loop-carried vector; then canonicalized. In C++
/// rather than a sequence of the library: `transform.apply_patterns`
/// gathers its patterns again on every run, and simplifies regions after
/// each greedy round (fixpoint()). Canonicalized once, at the end: in the
/// first round too, it left the same final IR on w1-w7 and qmatmul.py's
/// graphs (shapes.py's run-time rows: one address computed as a product
/// instead of a sum), and its patterns on every op were most of the time.
/// w7's cleanup 14-15 -> 10-12 ms.
class ScheduleCleanup {
public:
  explicit ScheduleCleanup(MLIRContext *ctx) {
    RewritePatternSet plain(ctx), last(ctx);
    vector::populateVectorReductionToContractPatterns(plain);
    vector::populateVectorTransferPermutationMapLoweringPatterns(plain);
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(plain);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(plain);
    tensor::populateFoldTensorEmptyPatterns(plain);
    vector::populateVectorReductionToContractPatterns(last);
    vector::populateCastAwayVectorLeadingOneDimPatterns(last);
    mo::populateForwardMaskedReadsPatterns(last);
    addCanonicalization(last);
    plainPatterns = FrozenRewritePatternSet(std::move(plain));
    lastPatterns = FrozenRewritePatternSet(std::move(last));
  }

  LogicalResult run(func::FuncOp func) const {
    GreedyRewriteConfig config = fixpoint();
    if (failed(applyPatternsGreedily(func, plainPatterns, config)))
      return func.emitError("mo: the schedules' cleanup did not converge");
    SmallVector<LoopLikeOpInterface> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (LoopLikeOpInterface loop : loops)
      moveLoopInvariantCode(loop);
    IRRewriter rewriter(func.getContext());
    for (LoopLikeOpInterface loop : loops)
      (void)hoistLoopInvariantSubsets(rewriter, loop);
    if (failed(applyPatternsGreedily(func, lastPatterns, config)))
      return func.emitError("mo: the schedules' cleanup did not converge");
    return success();
  }

private:
  FrozenRewritePatternSet plainPatterns, lastPatterns;
};

struct MoApplySchedulesPass
    : public LibraryPass<mo::impl::MoApplySchedulesBase<MoApplySchedulesPass>> {
  /// Built once per pass (dialects load before), shared by its clones.
  std::shared_ptr<const ScheduleCleanup> cleanup;

  LogicalResult initialize(MLIRContext *ctx) override {
    cleanup = std::make_shared<const ScheduleCleanup>(ctx);
    return LibraryPass::initialize(ctx);
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<Operation *> scheduled;
    func.walk([&](Operation *op) {
      if (op->hasAttr(mo::kScheduleAttr))
        scheduled.push_back(op);
    });
    if (scheduled.empty())
      return;
    for (Operation *op : scheduled) {
      auto record = op->getAttrOfType<DictionaryAttr>(mo::kScheduleAttr);
      auto kind = record ? record.getAs<StringAttr>("kind") : StringAttr();
      auto sizes = record ? record.getAs<ArrayAttr>("sizes") : ArrayAttr();
      if (!kind || !sizes) {
        op->emitOpError("has a malformed mo.schedule (expected "
                        "{kind = \"...\", sizes = [...]})");
        return signalPassFailure();
      }
      op->removeAttr(mo::kScheduleAttr);
      SmallVector<SmallVector<transform::MappedValue>> extra;
      extra.push_back({op});
      // An integer is one parameter; a list, one parameter of several values.
      for (Attribute size : sizes) {
        SmallVector<transform::MappedValue> values;
        if (auto list = dyn_cast<ArrayAttr>(size))
          values.append(list.begin(), list.end());
        else
          values.push_back(size);
        extra.push_back(values);
      }
      // The ops fused into this one's tiles, as one handle, consumers
      // first (the block's order reversed): each is fused once all of its
      // uses are inside the tile.
      if (auto group = record.getAs<IntegerAttr>("fuse")) {
        SmallVector<transform::MappedValue> fused;
        func.walk([&](Operation *member) {
          if (member->getAttr(mo::kFusedIntoAttr) != group)
            return;
          member->removeAttr(mo::kFusedIntoAttr);
          fused.push_back(member);
        });
        std::reverse(fused.begin(), fused.end());
        extra.push_back(fused);
      }
      if (failed(run(func, ("mo_" + kind.getValue()).str(), extra)))
        return signalPassFailure();
    }
    if (failed(cleanup->run(func)))
      signalPassFailure();
  }
};

/// A 1-D vector.load whose every use extracts one element, as scalar
/// loads: what the outer products of a register tile broadcast (the lhs
/// column of an mmt4d tile, a convolution's input pixels). LLVM merges the
/// vector load's elements back only through shuffles: on AVX2 the 6-row
/// tile's last two broadcasts became a 64-bit load, a shuffle and two
/// register broadcasts in the FMA ports, where a broadcast from memory is a
/// load alone.
void scalarizeExtractedLoads(func::FuncOp func) {
  SmallVector<vector::LoadOp> loads;
  func.walk([&](vector::LoadOp load) {
    if (load.getVectorType().getRank() == 1 && !load->use_empty() &&
        llvm::all_of(load->getUsers(), [](Operation *user) {
          auto extract = dyn_cast<vector::ExtractOp>(user);
          return extract && extract.getDynamicPosition().empty() &&
                 extract.getResult().getType() == extract.getSourceVectorType().getElementType();
        }))
      loads.push_back(load);
  });
  for (vector::LoadOp load : loads) {
    OpBuilder b(load);
    SmallVector<Value> indices(load.getIndices());
    Value last = indices.back();
    for (Operation *user : llvm::make_early_inc_range(load->getUsers())) {
      auto extract = cast<vector::ExtractOp>(user);
      int64_t position = extract.getStaticPosition()[0];
      b.setInsertionPoint(extract);
      Location loc = extract.getLoc();
      indices.back() = getValueOrCreateConstantIndexOp(
          b, loc,
          affine::makeComposedFoldedAffineApply(b, loc, b.getAffineDimExpr(0) + position,
                                                {OpFoldResult(last)}));
      extract.replaceAllUsesWith(
          memref::LoadOp::create(b, loc, load.getBase(), indices).getResult());
      extract.erase();
    }
    load.erase();
  }
}

/// Whether `xfer` moves a whole vector tile to or from memory: no mask, in
/// bounds, its dims the memref's innermost in order.
bool isWholeTile(VectorTransferOpInterface xfer) {
  return isa<MemRefType>(xfer.getShapedType()) && !xfer.getMask() &&
         xfer.getPermutationMap().isMinorIdentity() &&
         llvm::all_of(xfer.getInBoundsValues(), [](bool in) { return in; });
}

/// A 2-D computation element by element from reads of whole R x N tiles
/// (and broadcasts of an N-vector or a scalar, splat constants) to one
/// write of such a tile, as a loop over its R rows of N-vectors: an
/// accumulator tile's epilogue (unpack, bias, activation, residual) as
/// mo_unpack_epilogue vectorizes it. Unrolled, LLVM selected instructions
/// for each of its R rows, for no faster code: w7's GELU over 8 x 32 tiles
/// cost 12 ms of code generation, 2.6 rolled. Nothing changes unless every
/// op feeding the write is one of those, used only by the computation, and
/// the reads are in the write's block with nothing writing memory between
/// them and it. (The rows are read and written in turn instead of all reads
/// first: mo's buffers are disjoint or, written in place, read at the
/// indices they are written at.)
void rollRows(vector::TransferWriteOp write) {
  auto type = dyn_cast<VectorType>(write.getVector().getType());
  if (!type || type.getRank() != 2 || type.isScalable() || type.getDimSize(0) < 2 ||
      !isWholeTile(write))
    return;
  ArrayRef<int64_t> shape = type.getShape();
  auto rowType = [&](Type t) {
    return VectorType::get({shape[1]}, cast<VectorType>(t).getElementType());
  };
  // The ops computing the tile, each after its operands'.
  SmallVector<Operation *> ops;
  llvm::SmallPtrSet<Operation *, 16> seen;
  std::function<bool(Value)> visit = [&](Value v) -> bool {
    Operation *op = v.getDefiningOp();
    if (!op)
      return false;
    if (!seen.insert(op).second)
      return true;
    auto tile = dyn_cast<VectorType>(v.getType());
    if (!tile || tile.getShape() != shape)
      return false;
    if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
      if (!isWholeTile(read) || read->getBlock() != write->getBlock())
        return false;
    } else if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
      auto source = dyn_cast<VectorType>(broadcast.getSourceType());
      if (source && source.getShape() != shape.drop_front())
        return false;
    } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto value = dyn_cast<SplatElementsAttr>(constant.getValue());
      if (!value)
        return false;
    } else if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
               !OpTrait::hasElementwiseMappableTraits(op) || op->getNumResults() != 1 ||
               op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
               !llvm::all_of(op->getOperands(), visit)) {
      return false;
    }
    ops.push_back(op);
    return true;
  };
  // A copy or a fill is left as it is: cheap to compile unrolled, and the
  // copies of a cache block's panel (mo_mmt4d_pack_rhs) stay straight-line.
  if (!visit(write.getVector()) ||
      llvm::none_of(ops, [](Operation *op) {
        return !isa<vector::TransferReadOp, vector::BroadcastOp, arith::ConstantOp>(op);
      }))
    return;
  // (Splats and broadcasts are made again per row; others stay.)
  for (Operation *op : ops)
    if (!isa<arith::ConstantOp, vector::BroadcastOp>(op))
      for (Operation *user : op->getUsers())
        if (user != write && !seen.contains(user))
          return;
  Operation *first = write;
  for (Operation *op : ops)
    if (isa<vector::TransferReadOp>(op) && op->isBeforeInBlock(first))
      first = op;
  for (Operation *op = first; op != write; op = op->getNextNode()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!isMemoryEffectFree(op) && !(effects && effects.onlyHasEffect<MemoryEffects::Read>()))
      return;
  }

  OpBuilder b(write);
  Location loc = write.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value rows = arith::ConstantIndexOp::create(b, loc, shape[0]);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, zero, rows, one);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value row = loop.getInductionVar();
  // The indices of a tile's row: its memref's second innermost index + row.
  auto rowIndices = [&](VectorTransferOpInterface xfer) {
    SmallVector<Value> indices(xfer.getIndices());
    Value &index = indices[indices.size() - 2];
    index = arith::AddIOp::create(b, loc, index, row);
    return indices;
  };
  IRMapping rolled;
  for (Operation *op : ops) {
    Value tile = op->getResult(0), value;
    if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
      value = vector::TransferReadOp::create(b, loc, rowType(tile.getType()), read.getBase(),
                                             rowIndices(read), read.getPadding(),
                                             ArrayRef<bool>{true});
    } else if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
      value = broadcast.getSource();
      if (value.getType() != rowType(tile.getType()))
        value = vector::BroadcastOp::create(b, loc, rowType(tile.getType()), value);
    } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto splat = cast<SplatElementsAttr>(constant.getValue());
      value = arith::ConstantOp::create(
          b, loc,
          SplatElementsAttr::get(rowType(tile.getType()), splat.getSplatValue<Attribute>()));
    } else {
      Operation *copy = b.clone(*op, rolled);
      copy->getResult(0).setType(rowType(tile.getType()));
      value = copy->getResult(0);
    }
    rolled.map(tile, value);
  }
  vector::TransferWriteOp::create(b, loc, rolled.lookup(write.getVector()), write.getBase(),
                                  rowIndices(write), ArrayRef<bool>{true});
  write.erase();
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      op->erase();
}

/// After bufferization, kernel by kernel: contractions to outer products to
/// FMAs, transfers to 1-D loads and stores, transposes to shuffles. The
/// pattern sets are upstream's (those of the vector transform ops of the
/// same names), frozen once per pass instead of gathered again for each
/// kernel, as transform.apply_patterns did (four sets, one with every
/// dialect's canonicalization): MoLowerVectors on w7 30-54 -> 15-24 ms of
/// CPU (three runs each, alternated, on a loaded machine), the final IR
/// the same on w1-w7, qmatmul.py's and shapes.py's graphs. The last round
/// is convert-vector-to-scf's, which the pipeline then leaves out. No
/// fold_memref_alias_ops: folding the rank-reducing subview of a packed
/// tile into its transfers leaves them writing a non-minor dim, which LLVM
/// gets as a store per element. No canonicalization or CSE at the end: the
/// pipeline's, after convert-linalg-to-loops, leave the same IR.
class VectorLowering {
public:
  explicit VectorLowering(MLIRContext *ctx) {
    RewritePatternSet contractions(ctx), unitDims(ctx), lowering(ctx), unrolled(ctx);
    vector::populateVectorContractLoweringPatterns(
        contractions, vector::VectorContractLowering::OuterProduct, /*benefit=*/1,
        /*disableOuterProductLowering=*/true);
    vector::populateVectorOuterProductLoweringPatterns(contractions);
    vector::populateDropInnerMostUnitDimsXferOpPatterns(unitDims);
    vector::populateDropUnitDimWithShapeCastPatterns(unitDims);
    vector::populateCastAwayVectorLeadingOneDimPatterns(unitDims);
    addCanonicalization(unitDims);
    vector::populateVectorTransferPermutationMapLoweringPatterns(lowering);
    vector::populateVectorTransferLoweringPatterns(lowering, /*maxTransferRank=*/1);
    vector::populateVectorTransposeLoweringPatterns(lowering,
                                                    vector::VectorTransposeLowering::Shuffle1D);
    vector::populateVectorShapeCastLoweringPatterns(lowering);
    vector::populateVectorBroadcastLoweringPatterns(lowering);
    vector::populateVectorMultiReductionLoweringPatterns(
        lowering, vector::VectorMultiReductionLowering::InnerReduction);
    populateVectorToSCFConversionPatterns(
        unrolled, VectorTransferToSCFOptions().enableFullUnroll(true).setTargetRank(1));
    for (RewritePatternSet *set : {&contractions, &unitDims, &lowering, &unrolled})
      rounds.emplace_back(std::move(*set));
  }

  LogicalResult run(func::FuncOp func) const {
    linalg::hoistRedundantVectorTransfers(func);
    GreedyRewriteConfig config = fixpoint();
    for (auto [i, patterns] : llvm::enumerate(rounds)) {
      // Rows rolled once the tiles' unit dims are gone, before the
      // transfers are unrolled.
      if (i == kRollRowsBefore)
        func.walk([](vector::TransferWriteOp write) { rollRows(write); });
      if (failed(applyPatternsGreedily(func, patterns, config)))
        return func.emitError("mo: the lowering of vectors did not converge");
    }
    return success();
  }

private:
  SmallVector<FrozenRewritePatternSet, 4> rounds;
  static constexpr size_t kRollRowsBefore = 2; // `lowering`
};

struct MoLowerVectorsPass : public mo::impl::MoLowerVectorsBase<MoLowerVectorsPass> {
  /// Built once per pass (dialects load before), shared by its clones.
  std::shared_ptr<const VectorLowering> lowering;

  LogicalResult initialize(MLIRContext *ctx) override {
    lowering = std::make_shared<const VectorLowering>(ctx);
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    bool vectors = func.walk([](Operation *op) {
                         return isa<vector::VectorDialect>(op->getDialect())
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       }).wasInterrupted();
    if (!vectors)
      return;
    if (failed(lowering->run(func)))
      return signalPassFailure();
    scalarizeExtractedLoads(func);
  }
};

/// A 1-D vector.from_elements of all of one vector's elements, in order,
/// as that vector.
struct FoldElementCopy : OpRewritePattern<vector::FromElementsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::FromElementsOp op,
                                PatternRewriter &rewriter) const override {
    ValueRange elements = op.getElements();
    auto source = elements.empty() ? vector::ToElementsOp()
                                   : elements.front().getDefiningOp<vector::ToElementsOp>();
    if (!source || source.getSource().getType() != op.getType() ||
        elements != ValueRange(source->getResults()))
      return failure();
    rewriter.replaceOp(op, source.getSource());
    return success();
  }
};

struct MoVectorRowsPass : public mo::impl::MoVectorRowsBase<MoVectorRowsPass> {
  /// Built once per pass, shared by its clones.
  std::shared_ptr<const FrozenRewritePatternSet> patterns;

  LogicalResult initialize(MLIRContext *ctx) override {
    RewritePatternSet set(ctx);
    vector::populateVectorFromElementsUnrollPatterns(set);
    set.add<FoldElementCopy>(ctx);
    patterns = std::make_shared<const FrozenRewritePatternSet>(std::move(set));
    return success();
  }

  void runOnOperation() override {
    bool elements = getOperation()
                        .walk([](vector::FromElementsOp) { return WalkResult::interrupt(); })
                        .wasInterrupted();
    if (elements && failed(applyPatternsGreedily(getOperation(), *patterns, fixpoint())))
      signalPassFailure();
  }
};

} // namespace
