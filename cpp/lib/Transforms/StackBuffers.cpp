//===- StackBuffers.cpp - stack buffers allocated once per scope ----------===//
//
// A kernel's small scratch buffers go on the stack (promote-buffers-to-stack);
// this pass moves those allocated inside loop bodies to the entry of their
// allocation scope (the function, or a thread's omp.parallel region).
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOHOISTSTACKBUFFERS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

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
