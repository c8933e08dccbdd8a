//===- ScheduleGroups.cpp - scheduled ops in functions of their own -------===//
//
// mo-apply-schedules runs a function at a time, and a graph without
// subgraphs is one function: its schedules ran one after the other while
// the other cores idled (w7: 21 of the 55 ms before code generation).
// mo-split-schedules moves each scheduled op, with the ops its schedule
// reads, into a private function of its own, which the pass manager then
// schedules on every core; mo-inline-schedules puts each back where it was
// called from, before bufferization.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOSPLITSCHEDULES
#define GEN_PASS_DEF_MOINLINESCHEDULES
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

using mo::kFusedIntoAttr;
using mo::kScheduleAttr;
constexpr StringLiteral kGroupAttr = "mo.schedule_group";

/// Ops that each function takes a copy of, rather than one holding them
/// for the others: empty tensors (a schedule tiles an empty tensor it sees,
/// not an argument), constants, fills and reshapes, which no schedule
/// owns. The copies are as the ops were; CSE merges what stays equal.
bool isCopied(Operation *op) {
  return (isa<tensor::EmptyOp, tensor::CastOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp,
              linalg::FillOp>(op) ||
          op->hasTrait<OpTrait::ConstantLike>()) &&
         !op->hasAttr(kScheduleAttr) && !op->hasAttr(kFusedIntoAttr);
}

/// The ops of `block` that use `value`, seen through copied ops (whose
/// copies are the ones used); `through` gets the copied ops on the way.
void collectUsers(Block &block, Value value, SmallVectorImpl<Operation *> &users,
                  SmallVectorImpl<Operation *> *through = nullptr) {
  for (Operation *user : value.getUsers()) {
    Operation *owner = block.findAncestorOpInBlock(*user);
    if (owner && owner == user && isCopied(owner)) {
      if (through)
        through->push_back(owner);
      for (Value result : owner->getResults())
        collectUsers(block, result, users, through);
    } else if (owner) {
      users.push_back(owner);
    }
  }
}

/// Whether `value` is defined inside `op` (in one of its regions).
bool isDefinedIn(Value value, Operation *op) {
  return op->isAncestor(value.getParentBlock()->getParentOp());
}

/// The groups of one block: a scheduled op each, with the ops fused into
/// it and the producers in the block its schedule may read (followed
/// through the ops no schedule owns), merged where they share a producer
/// or where one needs the other's results before its own last op. Copied
/// ops belong to no group.
class BlockGroups {
public:
  explicit BlockGroups(Block &block) : block(block) {
    for (auto [i, op] : llvm::enumerate(block))
      position[&op] = i;
  }

  void add(Operation *root, ArrayRef<Operation *> fused) {
    // Fused ops elsewhere: the schedule would not find them in a function.
    if (llvm::any_of(fused, [&](Operation *op) { return op->getBlock() != &block; }))
      return;
    join(root, root);
    for (Operation *member : fused)
      join(member, root);
  }

  /// The groups, each in block order, that move into a function called
  /// where their last op was: pure ops only, none of their results used
  /// by an op outside before that.
  SmallVector<SmallVector<Operation *>> movable() {
    SmallVector<Operation *> work(members.begin(), members.end());
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands()) {
          Operation *producer = operand.getDefiningOp();
          if (!producer || producer->getBlock() != &block || isCopied(producer) ||
              producer->hasAttr(kScheduleAttr) || producer->hasAttr(kFusedIntoAttr))
            continue;
          if (!members.contains(producer))
            work.push_back(producer);
          join(producer, op);
        }
      });
    }
    for (Operation *op : members)
      if (!isMemoryEffectFree(op))
        dropped.insert(leader(op));
    while (settleOrder()) {
    }
    DenseMap<Operation *, unsigned> index;
    SmallVector<SmallVector<Operation *>> groups;
    for (Operation &op : block) {
      if (!members.contains(&op) || dropped.contains(leader(&op)))
        continue;
      auto [it, inserted] = index.try_emplace(leader(&op), groups.size());
      if (inserted)
        groups.emplace_back();
      groups[it->second].push_back(&op);
    }
    return groups;
  }

private:
  /// One step towards groups that can be called where their last op is:
  /// the first group found whose result a later group needs before its own
  /// last op absorbs that group, or one whose result an op outside needs
  /// then is dropped. Whether it found one.
  bool settleOrder() {
    DenseMap<Operation *, size_t> last;
    for (Operation *op : members) {
      size_t &end = last[leader(op)];
      end = std::max(end, position[op]);
    }
    for (Operation *op : members) {
      if (dropped.contains(leader(op)))
        continue;
      size_t end = last[leader(op)];
      SmallVector<Operation *> users;
      for (Value result : op->getResults())
        collectUsers(block, result, users);
      for (Operation *owner : users) {
        bool grouped = members.contains(owner) && !dropped.contains(leader(owner));
        if (grouped && leader(owner) == leader(op))
          continue;
        if (grouped && last[leader(owner)] < end) {
          join(owner, op); // the user's group then ends after this one
          return true;
        }
        if (!grouped && position[owner] < end) {
          dropped.insert(leader(op));
          return true;
        }
      }
    }
    return false;
  }

  void join(Operation *a, Operation *b) {
    members.insert(a);
    members.insert(b);
    classes.unionSets(a, b);
  }
  Operation *leader(Operation *op) { return classes.getLeaderValue(op); }

  Block &block;
  DenseMap<Operation *, size_t> position;
  llvm::SetVector<Operation *> members;
  llvm::EquivalenceClasses<Operation *> classes;
  /// Groups (by leader) that stay where they are.
  DenseSet<Operation *> dropped;
};

/// `ops` (one block's, in order) moved into a new private function after
/// `parent`, called where the last of them was; the tensor.empty and
/// constant ops they read copied into it.
void outline(func::FuncOp parent, ArrayRef<Operation *> ops, SymbolTable &symbols) {
  Block *block = ops.front()->getBlock();
  DenseSet<Operation *> inGroup(ops.begin(), ops.end());
  auto inside = [&](Operation *user) {
    return inGroup.contains(block->findAncestorOpInBlock(*user));
  };
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> copied;
  std::function<void(Value)> use = [&](Value value) {
    Operation *producer = value.getDefiningOp();
    if (producer && inGroup.contains(producer))
      return;
    if (producer && producer->getBlock() == block && isCopied(producer)) {
      if (copied.insert(producer))
        for (Value operand : producer->getOperands())
          use(operand);
      return;
    }
    inputs.insert(value);
  };
  SmallVector<Value> outputs;
  for (Operation *op : ops) {
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (!isDefinedIn(operand, op))
          use(operand);
    });
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) { return !inside(user); }))
        outputs.push_back(result);
  }
  SmallVector<Operation *> copies = copied.takeVector();
  llvm::sort(copies, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  Location loc = ops.back()->getLoc();
  OpBuilder b(parent->getContext());
  auto callee = func::FuncOp::create(
      b, loc, (parent.getSymName() + "_schedule").str(),
      b.getFunctionType(TypeRange(inputs.getArrayRef()), TypeRange(outputs)));
  callee.setPrivate();
  callee->setAttr(kGroupAttr, b.getUnitAttr());
  symbols.insert(callee, std::next(Block::iterator(parent)));
  Block *body = callee.addEntryBlock();
  IRMapping map;
  map.map(inputs.getArrayRef(), body->getArguments());
  // In block order: a copy may read a result of the group.
  SmallVector<Operation *> all(copies);
  all.append(ops.begin(), ops.end());
  llvm::sort(all, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  b.setInsertionPointToStart(body);
  for (Operation *op : all)
    b.clone(*op, map);
  func::ReturnOp::create(b, loc, llvm::map_to_vector(outputs, [&](Value v) {
                           return map.lookup(v);
                         }));

  b.setInsertionPointAfter(ops.back());
  auto call = func::CallOp::create(b, loc, callee, inputs.getArrayRef());
  for (auto [output, result] : llvm::zip(outputs, call.getResults()))
    output.replaceUsesWithIf(result, [&](OpOperand &operand) {
      return !inside(operand.getOwner());
    });
  // Copied ops that stay for other users and read a result: after the call.
  SmallVector<Operation *> users, after;
  for (Value result : call.getResults())
    collectUsers(*block, result, users, &after);
  llvm::sort(after, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  Operation *point = call;
  for (Operation *op : after)
    if (op->isBeforeInBlock(call)) {
      op->moveAfter(point);
      point = op;
    }
  for (Operation *op : llvm::reverse(ops)) {
    op->dropAllUses();
    op->erase();
  }
  for (Operation *op : llvm::reverse(copies))
    if (op->use_empty())
      op->erase();
}

struct MoSplitSchedulesPass
    : public mo::impl::MoSplitSchedulesBase<MoSplitSchedulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto parent : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (parent.isExternal() || parent->hasAttr(kGroupAttr))
        continue;
      llvm::MapVector<Block *, SmallVector<Operation *>> roots;
      DenseMap<Attribute, SmallVector<Operation *>> fused;
      parent.walk([&](Operation *op) {
        if (op->getAttrOfType<DictionaryAttr>(kScheduleAttr))
          roots[op->getBlock()].push_back(op);
        if (Attribute group = op->getAttr(kFusedIntoAttr))
          fused[group].push_back(op);
      });
      // The largest groups first in the module (each function goes right
      // after the parent: the smallest are outlined first), so that the
      // cores do not wait on a large one started last.
      SmallVector<std::pair<size_t, SmallVector<Operation *>>> groups;
      for (auto &[block, blockRoots] : roots) {
        BlockGroups blockGroups(*block);
        for (Operation *root : blockRoots) {
          Attribute group = root->getAttrOfType<DictionaryAttr>(kScheduleAttr).get("fuse");
          auto members = group ? fused.find(group) : fused.end();
          blockGroups.add(root, members != fused.end() ? ArrayRef(members->second)
                                                       : ArrayRef<Operation *>());
        }
        for (SmallVector<Operation *> &ops : blockGroups.movable()) {
          size_t size = 0;
          for (Operation *op : ops)
            op->walk([&](Operation *) { ++size; });
          groups.push_back({size, std::move(ops)});
        }
      }
      llvm::stable_sort(groups, [](auto &a, auto &b) { return a.first < b.first; });
      for (auto &[size, ops] : groups)
        outline(parent, ops, symbols);
    }
  }
};

struct MoInlineSchedulesPass
    : public mo::impl::MoInlineSchedulesBase<MoInlineSchedulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
          callee && callee->hasAttr(kGroupAttr))
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!llvm::hasSingleElement(callee.getBody())) {
        callee.emitOpError("mo: a schedule group of several blocks cannot be inlined");
        return signalPassFailure();
      }
      Block &body = callee.getBody().front();
      for (auto [argument, operand] : llvm::zip(body.getArguments(), call.getOperands()))
        argument.replaceAllUsesWith(operand);
      auto ret = cast<func::ReturnOp>(body.getTerminator());
      call->getBlock()->getOperations().splice(Block::iterator(call), body.getOperations(),
                                               body.begin(), Block::iterator(ret));
      call.replaceAllUsesWith(ret.getOperands());
      call.erase();
      symbols.erase(callee);
    }
  }
};

} // namespace
