//===- EmptyKernels.cpp - kernels that write only empty buffers skipped ---===//
//
// Size-0 work must be free: a kernel whose every written buffer is empty at
// run time is guarded by a check of those buffers' sizes.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOSKIPEMPTYKERNELS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

/// The buffer a view is of (through subviews, casts, reshapes).
Value rootOf(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

bool isKernel(Operation *op) {
  return isa<linalg::LinalgOp, LoopLikeOpInterface>(op);
}

/// The buffers `kernel` writes that it did not allocate itself, read off
/// each op's memory effects, or nullopt when an effect cannot be traced to
/// a buffer (an op without the interface, such as a call; a write to no
/// value; freeing a buffer from outside).
std::optional<SmallVector<Value>> writtenBuffers(Operation *kernel) {
  SmallVector<Value> roots;
  auto outside = [&](Value value) {
    return !kernel->isAncestor(rootOf(value).getParentRegion()->getParentOp());
  };
  WalkResult walk = kernel->walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                 ? WalkResult::advance() // the ops inside say
                 : WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
        continue;
      Value value = effect.getValue();
      if (!value || !isa<MemRefType>(value.getType()))
        return WalkResult::interrupt();
      if (!outside(value))
        continue; // its own scratch
      if (isa<MemoryEffects::Free>(effect.getEffect()))
        return WalkResult::interrupt();
      if (!llvm::is_contained(roots, rootOf(value)))
        roots.push_back(rootOf(value));
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return roots;
}

struct MoSkipEmptyKernelsPass
    : public mo::impl::MoSkipEmptyKernelsBase<MoSkipEmptyKernelsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> kernels;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isKernel(op))
        return WalkResult::advance();
      kernels.push_back(op);
      return WalkResult::skip(); // the outermost kernel only
    });
    for (Operation *kernel : kernels) {
      // (A kernel with results, a loop carrying a count, has no value to
      // give when skipped.)
      if (kernel->getNumResults() != 0)
        continue;
      std::optional<SmallVector<Value>> roots = writtenBuffers(kernel);
      if (!roots || roots->empty())
        continue;
      // Guarded only if every written buffer may be empty.
      bool mayAllBeEmpty = llvm::all_of(*roots, [](Value root) {
        auto type = cast<MemRefType>(root.getType());
        return !type.hasStaticShape() || type.getNumElements() == 0;
      });
      if (!mayAllBeEmpty)
        continue;
      OpBuilder b(kernel);
      Location loc = kernel->getLoc();
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value any;
      for (Value root : *roots) {
        auto type = cast<MemRefType>(root.getType());
        Value full = arith::ConstantIntOp::create(b, loc, 1, 1);
        for (int64_t d = 0; d < type.getRank(); ++d) {
          if (!type.isDynamicDim(d))
            continue;
          Value size = memref::DimOp::create(b, loc, root, d);
          Value nonzero =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, size, zero);
          full = arith::AndIOp::create(b, loc, full, nonzero);
        }
        any = any ? arith::OrIOp::create(b, loc, any, full).getResult() : full;
      }
      auto guard = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
      kernel->moveBefore(guard.thenBlock()->getTerminator());
    }
  }
};

} // namespace
