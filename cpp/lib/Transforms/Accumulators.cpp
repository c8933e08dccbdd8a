//===- Accumulators.cpp - register accumulators read late, prefetched -----===//
//
// A register tile of a blocked contraction carries its accumulator through
// the k loop of its cache block: read from memory before the loop (the
// partial sums of the blocks before), written after. The read misses (the
// tile was last touched a whole sweep of C ago) and every FMA waits for it:
// on w2 at one thread the accumulators' loads took 8% of the samples. As
// BLAS kernels do, mo-prefetch-accumulators starts the loop from zero,
// prefetches the tile before the loop and adds it after, once it is there.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOPREFETCHACCUMULATORS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

/// At most this many prefetches per accumulator (an 8 x 32 f32 tile of
/// AVX-512 is 16 cache lines).
constexpr int64_t kMaxPrefetches = 32;

/// Whether `op` (with its regions) may write or free memory.
bool writesMemory(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &effect) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect());
  });
}

/// A reshape that keeps every element (broadcast or extract of unit dims,
/// shape_cast): the accumulator through it is the same numbers.
bool keepsElements(Operation *op) {
  if (!isa<vector::BroadcastOp, vector::ShapeCastOp, vector::ExtractOp>(op))
    return false;
  if (auto extract = dyn_cast<vector::ExtractOp>(op);
      extract && !extract.getDynamicPosition().empty())
    return false;
  auto source = dyn_cast<VectorType>(op->getOperand(0).getType());
  auto result = dyn_cast<VectorType>(op->getResult(0).getType());
  return source && result && source.getNumElements() == result.getNumElements();
}

/// Whether the loop's iter_arg `index` only accumulates: each value it
/// flows through has one use, which reshapes it or adds to it, down to its
/// own operand of the yield.
bool onlyAccumulates(scf::ForOp loop, unsigned index) {
  Value value = loop.getRegionIterArgs()[index];
  while (true) {
    if (!value.hasOneUse())
      return false;
    OpOperand &use = *value.getUses().begin();
    Operation *user = use.getOwner();
    if (isa<scf::YieldOp>(user))
      return user->getParentOp() == loop && use.getOperandNumber() == index;
    if (auto contract = dyn_cast<vector::ContractionOp>(user)) {
      if (&use != &contract.getAccMutable() || contract.getKind() != vector::CombiningKind::ADD)
        return false;
    } else if (auto fma = dyn_cast<vector::FMAOp>(user)) {
      if (&use != &fma.getAccMutable())
        return false;
    } else if (auto add = dyn_cast<arith::AddFOp>(user)) {
      if (add.getLhs() == add.getRhs())
        return false;
    } else if (!keepsElements(user)) {
      return false;
    }
    value = user->getResult(0);
  }
}

/// One prefetch per cache line of `read` (in-bounds, minor identity, unit
/// innermost stride), or failure if that is not known or too many.
LogicalResult prefetch(OpBuilder &b, vector::TransferReadOp read) {
  auto memref = dyn_cast<MemRefType>(read.getBase().getType());
  VectorType vector = read.getVectorType();
  if (!memref || read.getMask() || !read.getPermutationMap().isMinorIdentity() ||
      llvm::any_of(read.getInBoundsValues(), [](bool inBounds) { return !inBounds; }) ||
      vector.isScalable() || !memref.getElementType().isIntOrFloat())
    return failure();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return failure();
  int64_t elementBytes = memref.getElementTypeBitWidth() / 8;
  if (elementBytes == 0)
    return failure();
  ArrayRef<int64_t> shape = vector.getShape();
  int64_t perLine = std::max<int64_t>(1, mo::kCacheLineBytes / elementBytes);
  int64_t lines = llvm::divideCeil(shape.back(), perLine);
  int64_t rows = vector.getNumElements() / shape.back();
  if (rows * lines > kMaxPrefetches)
    return failure();

  Location loc = read.getLoc();
  int64_t first = memref.getRank() - vector.getRank();
  SmallVector<Value> indices(read.getIndices());
  llvm::SmallDenseMap<int64_t, Value> constants;
  auto plus = [&](Value index, int64_t offset) -> Value {
    if (offset == 0)
      return index;
    OpFoldResult sum = affine::makeComposedFoldedAffineApply(
        b, loc, b.getAffineDimExpr(0) + offset, {OpFoldResult(index)});
    if (auto value = dyn_cast<Value>(sum))
      return value;
    Value &constant = constants[*getConstantIntValue(sum)];
    if (!constant)
      constant = arith::ConstantIndexOp::create(b, loc, *getConstantIntValue(sum));
    return constant;
  };
  SmallVector<int64_t> position(vector.getRank(), 0);
  for (int64_t row = 0; row < rows; ++row) {
    // The row's position in the vector's leading dims.
    for (int64_t dim = vector.getRank() - 2, rest = row; dim >= 0; --dim) {
      position[dim] = rest % shape[dim];
      rest /= shape[dim];
    }
    for (int64_t line = 0; line < lines; ++line) {
      position.back() = line * perLine;
      SmallVector<Value> at(indices);
      for (int64_t dim = 0; dim < vector.getRank(); ++dim)
        at[first + dim] = plus(indices[first + dim], position[dim]);
      memref::PrefetchOp::create(b, loc, read.getBase(), at, /*isWrite=*/false,
                                 /*localityHint=*/3, /*isDataCache=*/true);
    }
  }
  return success();
}

/// The loop's iter_arg `index` as an accumulator read from memory: the
/// read and the element-preserving reshapes from it to the init (each
/// used once), or null.
vector::TransferReadOp accumulatorRead(scf::ForOp loop, unsigned index,
                                       SmallVectorImpl<Operation *> &reshapes) {
  Value init = loop.getInitArgs()[index];
  Operation *def = init.getDefiningOp();
  while (def && keepsElements(def) && def->getResult(0).hasOneUse()) {
    reshapes.push_back(def);
    def = def->getOperand(0).getDefiningOp();
  }
  auto read = dyn_cast_or_null<vector::TransferReadOp>(def);
  auto type = dyn_cast<VectorType>(init.getType());
  if (!read || !read->hasOneUse() || read->getBlock() != loop->getBlock() || !type ||
      !isa<FloatType>(type.getElementType()) || !onlyAccumulates(loop, index))
    return nullptr;
  // Nothing from the read to the loop's end may change what it reads.
  for (Operation *op = read->getNextNode(); op != loop->getNextNode(); op = op->getNextNode())
    if (writesMemory(op))
      return nullptr;
  return read;
}

/// The loop's iter_arg `index` from zero, its read (`read`, then
/// `reshapes`, last first) moved after the loop and added to the loop's
/// result, the read's lines prefetched before the loop.
void readLate(RewriterBase &rewriter, scf::ForOp loop, unsigned index,
              vector::TransferReadOp read, ArrayRef<Operation *> reshapes) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  if (failed(prefetch(rewriter, read)))
    return;
  Value init = loop.getInitArgs()[index];
  Value zero = arith::ConstantOp::create(rewriter, loop.getLoc(),
                                         rewriter.getZeroAttr(init.getType()));
  rewriter.modifyOpInPlace(loop, [&] { loop.getInitArgsMutable()[index].set(zero); });
  // The read and its reshapes after the loop (their operands are above it).
  Operation *last = loop;
  rewriter.moveOpAfter(read, last);
  last = read;
  for (Operation *reshape : llvm::reverse(reshapes)) {
    rewriter.moveOpAfter(reshape, last);
    last = reshape;
  }
  rewriter.setInsertionPointAfter(last);
  Value result = loop.getResult(index);
  Value sum = arith::AddFOp::create(rewriter, loop.getLoc(), result, init);
  rewriter.replaceAllUsesExcept(result, sum, sum.getDefiningOp());
}

/// A k loop this short gains nothing from the prefetch.
constexpr int64_t kMinTrips = 8;

struct MoPrefetchAccumulatorsPass
    : public mo::impl::MoPrefetchAccumulatorsBase<MoPrefetchAccumulatorsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (trips && trips->getSExtValue() < kMinTrips)
        continue;
      // All matched first: the rewrite of one puts prefetches before the
      // loop, which the others' checks would take for writes.
      struct Accumulator {
        unsigned index;
        vector::TransferReadOp read;
        SmallVector<Operation *> reshapes;
      };
      SmallVector<Accumulator> accumulators;
      for (unsigned index = 0; index < loop.getNumRegionIterArgs(); ++index) {
        SmallVector<Operation *> reshapes;
        if (auto read = accumulatorRead(loop, index, reshapes))
          accumulators.push_back({index, read, std::move(reshapes)});
      }
      for (Accumulator &acc : accumulators)
        readLate(rewriter, loop, acc.index, acc.read, acc.reshapes);
    }
  }
};

} // namespace
