//===- Kernels.cpp - passes over a function's kernels on buffers ----------===//
//
// A kernel is an outermost linalg op or loop nest on buffers (or, once the
// thread tiles are OpenMP's, an omp.parallel region). Size-0 work must be
// free: a kernel whose every written buffer is empty at run time is guarded
// by a check of those buffers' sizes. And each kernel becomes a function of
// its own, so that LLVM optimizes kernels one at a time (its cost grows
// faster than the size of the function it works on); equal kernels are one
// function.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOSKIPEMPTYKERNELS
#define GEN_PASS_DEF_MOOUTLINEKERNELS
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

/// Whether `op` is work a kernel is made of.
bool isKernelOp(Operation *op) {
  return isa<linalg::LinalgOp, LoopLikeOpInterface, omp::ParallelOp>(op);
}

/// The outermost kernels of `func`, in order.
SmallVector<Operation *> kernelsOf(func::FuncOp func) {
  SmallVector<Operation *> kernels;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isKernelOp(op))
      return WalkResult::advance();
    kernels.push_back(op);
    return WalkResult::skip();
  });
  return kernels;
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
    for (Operation *kernel : kernelsOf(getOperation())) {
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

/// The functions outlined so far, by type: a kernel equal to one of them
/// (a transformer's Q, K and V projections) calls it instead of being
/// lowered to LLVM again (a fifth of a transformer block's kernel code).
using Outlined = DenseMap<Type, SmallVector<func::FuncOp>>;

/// `kernel` as a call of a private, never-inlined function of the values it
/// uses from outside (constants are cloned in): a new one, or an equal one
/// outlined before.
void outline(Operation *kernel, func::FuncOp parent, Block::iterator &next,
             SymbolTable &symbols, Outlined &outlinedByType) {
  SetVector<Value> used(kernel->getOperands().begin(), kernel->getOperands().end());
  getUsedValuesDefinedAbove(kernel->getRegions(), used);
  SmallVector<Value> args;
  SmallVector<Operation *> constants;
  for (Value value : used) {
    Operation *def = value.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>() && def->getNumRegions() == 0) {
      if (!llvm::is_contained(constants, def))
        constants.push_back(def);
    } else {
      args.push_back(value);
    }
  }
  Location loc = kernel->getLoc();
  Builder builder(kernel->getContext());
  auto outlined = func::FuncOp::create(
      loc, (parent.getName() + "_kernel").str(),
      builder.getFunctionType(ValueRange(args).getTypes(), {}));
  outlined.setPrivate();
  // Inlined back, the kernels would be one function again.
  outlined->setAttr("passthrough", builder.getArrayAttr({builder.getStringAttr("noinline")}));
  Block *body = outlined.addEntryBlock();
  IRMapping map;
  map.map(args, body->getArguments());
  OpBuilder b = OpBuilder::atBlockBegin(body);
  for (Operation *constant : constants)
    b.clone(*constant, map);
  b.clone(*kernel, map);
  func::ReturnOp::create(b, loc);
  SmallVector<func::FuncOp> &sameType = outlinedByType[outlined.getFunctionType()];
  func::FuncOp callee;
  for (func::FuncOp existing : sameType)
    if (OperationEquivalence::isRegionEquivalentTo(&existing.getBody(), &outlined.getBody(),
                                                   OperationEquivalence::IgnoreLocations)) {
      callee = existing;
      break;
    }
  if (callee) {
    outlined.erase();
  } else {
    symbols.insert(outlined, next); // after the function, in the kernels' order
    next = std::next(Block::iterator(outlined));
    sameType.push_back(outlined);
    callee = outlined;
  }
  OpBuilder at(kernel);
  func::CallOp::create(at, loc, callee, args);
  kernel->erase();
}

struct MoOutlineKernelsPass
    : public mo::impl::MoOutlineKernelsBase<MoOutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    Outlined outlinedByType;
    for (func::FuncOp func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || func->hasAttr("passthrough"))
        continue;
      auto next = std::next(Block::iterator(func));
      for (Operation *kernel : kernelsOf(func))
        if (kernel->getNumResults() == 0) // (a loop carrying a value stays)
          outline(kernel, func, next, symbols, outlinedByType);
    }
  }
};

} // namespace

bool mo::isKernel(func::FuncOp func) {
  auto passthrough = func->getAttrOfType<ArrayAttr>("passthrough");
  return passthrough && !func.isExternal() &&
         llvm::is_contained(passthrough.getValue(),
                            StringAttr::get(func.getContext(), "noinline"));
}
