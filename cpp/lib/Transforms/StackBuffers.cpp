//===- StackBuffers.cpp - a tile's scratch buffers, sized and placed ------===//
//
// A kernel's small scratch buffers go on the stack (promote-buffers-to-stack).
// mo-bound-tile-buffers gives a partial tile's buffers the full tile's static
// size first, so that run-time shapes get them there too; mo-hoist-stack-
// buffers moves those allocated inside loop bodies to the entry of their
// allocation scope (the function, or a thread's omp.parallel region).
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOBOUNDTILEBUFFERS
#define GEN_PASS_DEF_MOHOISTSTACKBUFFERS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

struct MoBoundTileBuffersPass
    : public mo::impl::MoBoundTileBuffersBase<MoBoundTileBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](memref::AllocOp op) {
      if (!op.getDynamicSizes().empty() && op.getType().getLayout().isIdentity())
        allocs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocOp op : allocs) {
      MemRefType type = op.getType();
      SmallVector<int64_t> bound(type.getShape());
      int64_t elements = 1;
      bool bounded = true;
      unsigned next = 0;
      for (int64_t &size : bound) {
        if (ShapedType::isDynamic(size)) {
          FailureOr<int64_t> upper = ValueBoundsConstraintSet::computeConstantBound(
              presburger::BoundType::UB, op.getDynamicSizes()[next++], nullptr,
              /*closedUB=*/true);
          if (failed(upper) || *upper < 0) {
            bounded = false;
            break;
          }
          size = *upper;
        }
        elements *= size;
      }
      unsigned bits = type.getElementTypeBitWidth();
      if (!bounded || bits == 0 || bits % 8 != 0 || elements > maxBytes / (bits / 8))
        continue;
      rewriter.setInsertionPoint(op);
      Location loc = op.getLoc();
      auto full = memref::AllocOp::create(
          rewriter, loc, MemRefType::get(bound, type.getElementType(), nullptr,
                                         type.getMemorySpace()),
          op.getAlignmentAttr());
      SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> sizes = op.getMixedSizes();
      Value view = memref::SubViewOp::create(rewriter, loc, full, offsets, sizes, strides);
      rewriter.replaceOpWithNewOp<memref::CastOp>(op, type, view);
    }
  }
};

struct MoHoistStackBuffersPass
    : public mo::impl::MoHoistStackBuffersBase<MoHoistStackBuffersPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaOp> allocas;
    getOperation().walk([&](memref::AllocaOp op) {
      if (op->getNumOperands() == 0)
        allocas.push_back(op);
    });
    for (memref::AllocaOp op : allocas) {
      // Past sequential loops and alloca_scopes (scf.for is one, and
      // convert-scf-to-openmp wraps each parallel loop body holding an
      // alloca in one) to the function or a thread's region; never out of
      // a loop whose iterations may run at once.
      Operation *scope = op->getParentOp();
      while (scope && !isa<scf::ParallelOp, scf::ForallOp>(scope) &&
             (isa<memref::AllocaScopeOp, LoopLikeOpInterface>(scope) ||
              !scope->hasTrait<OpTrait::AutomaticAllocationScope>()))
        scope = scope->getParentOp();
      if (!scope || isa<scf::ParallelOp, scf::ForallOp>(scope) ||
          scope->getNumRegions() == 0 || scope->getRegion(0).empty())
        continue;
      Block &entry = scope->getRegion(0).front();
      if (op->getBlock() != &entry)
        op->moveBefore(&entry, entry.begin());
    }
    // Scopes left with nothing to free are inlined (the CFG lowering of the
    // loops inside would otherwise leave them with several blocks).
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation().walk([&](memref::AllocaScopeOp op) { scopes.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp op : scopes) {
      if (op->walk([](memref::AllocaOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        continue;
      Block &body = op.getBodyRegion().front();
      Operation *ret = body.getTerminator();
      SmallVector<Value> results(ret->getOperands());
      rewriter.eraseOp(ret);
      rewriter.inlineBlockBefore(&body, op);
      rewriter.replaceOp(op, results);
    }
  }
};

} // namespace
