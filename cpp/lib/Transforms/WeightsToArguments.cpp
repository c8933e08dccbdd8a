//===- WeightsToArguments.cpp - mo.constant.external to graph arguments ---===//
//
// A weight is a value the caller binds: once it is a graph argument, lowering
// a graph needs no knowledge of the weights its callees read. Each graph
// takes the weights its body reads, directly or through calls, in first-use
// order; a call passes, for each weight of its callee, the caller's value of
// the name the call's prefix resolves it to.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/MoToLinalg.h"
#include "mo/Conversion/Passes.h"
#include "mo/Dialect/MoOps.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <map>

namespace mlir::mo {
#define GEN_PASS_DEF_MOWEIGHTSTOARGUMENTS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;
using namespace mlir::mo;

namespace {

/// A weight read by a graph (directly or through calls), by its local name.
struct Weight {
  StringAttr name;
  mo::TensorType type;
  /// Relative to the calling `mo.call`'s prefix (else an absolute name).
  bool isPlaceholder;
};

class WeightCollector {
public:
  explicit WeightCollector(ModuleOp module) {
    for (GraphOp g : module.getOps<GraphOp>())
      graphByName[g.getSymNameAttr()] = g;
  }

  /// The caller-side name of a weight the callee of `call` reads.
  static StringAttr resolve(CallOp call, const Weight &w) {
    if (!w.isPlaceholder)
      return w.name;
    return StringAttr::get(call.getContext(),
                           call.getPrefixOrEmpty() + w.name.getValue());
  }

  GraphOp lookup(CallOp call) {
    return graphByName.lookup(call.getCalleeAttr().getAttr());
  }

  FailureOr<ArrayRef<Weight>> collect(GraphOp graph) {
    auto it = weights.find(graph);
    if (it != weights.end())
      return ArrayRef<Weight>(it->second);
    if (!visiting.insert(graph).second)
      return graph.emitOpError("calls itself (recursion is not supported)");
    SmallVector<Weight> list;
    llvm::StringMap<size_t> index;
    auto add = [&](Operation *at, StringAttr name, mo::TensorType type,
                   bool isPlaceholder) -> LogicalResult {
      auto [entry, inserted] = index.try_emplace(name.getValue(), list.size());
      if (inserted)
        list.push_back({name, type, isPlaceholder});
      else if (list[entry->second].isPlaceholder != isPlaceholder)
        return at->emitOpError("reads weight '")
               << name.getValue()
               << "' both as a placeholder and as an absolute name";
      else if (list[entry->second].type != type)
        return at->emitOpError("reads weight '")
               << name.getValue() << "' as " << type << " but also as "
               << list[entry->second].type;
      return success();
    };
    WalkResult walk = graph.walk([&](Operation *op) {
      if (auto w = dyn_cast<ConstantExternalOp>(op))
        return failed(add(op, w.getNameAttr(), cast<mo::TensorType>(w.getType()),
                          w.getIsPlaceholder()))
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      if (auto call = dyn_cast<CallOp>(op)) {
        GraphOp callee = lookup(call);
        if (!callee)
          return WalkResult::advance();
        FailureOr<ArrayRef<Weight>> calleeWeights = collect(callee);
        if (failed(calleeWeights))
          return WalkResult::interrupt();
        for (const Weight &w : *calleeWeights)
          if (failed(add(op, resolve(call, w), w.type, w.isPlaceholder)))
            return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    visiting.erase(graph);
    if (walk.wasInterrupted())
      return failure();
    return ArrayRef<Weight>(weights[graph] = std::move(list));
  }

private:
  DenseMap<StringAttr, GraphOp> graphByName;
  // Node-based: the lists handed out stay valid while others are added.
  std::map<Operation *, SmallVector<Weight>> weights;
  llvm::SmallPtrSet<Operation *, 4> visiting;
};

} // namespace

LogicalResult mo::moveWeightsToArguments(ModuleOp module) {
  WeightCollector collector(module);
  SmallVector<GraphOp> graphs(module.getOps<GraphOp>());
  SmallVector<SmallVector<Weight>> lists;
  for (GraphOp g : graphs) {
    FailureOr<ArrayRef<Weight>> list = collector.collect(g);
    if (failed(list))
      return failure();
    lists.emplace_back(list->begin(), list->end());
  }
  // Add the arguments first: calls below pass the callers' new arguments.
  DenseMap<Operation *, llvm::StringMap<Value>> argumentOf;
  for (auto [graph, list] : llvm::zip(graphs, lists)) {
    if (list.empty())
      continue;
    MLIRContext *ctx = graph.getContext();
    for (const Weight &w : list) {
      unsigned i = graph.getNumArguments();
      auto attrs = DictionaryAttr::get(
          ctx, {NamedAttribute(StringAttr::get(ctx, "mo.weight"), w.name)});
      if (failed(graph.insertArgument(i, w.type, attrs, graph.getLoc())))
        return failure();
      argumentOf[graph][w.name.getValue()] = graph.getArgument(i);
    }
  }
  for (GraphOp graph : graphs) {
    auto &args = argumentOf[graph];
    SmallVector<Operation *> dead;
    graph.walk([&](Operation *op) {
      if (auto w = dyn_cast<ConstantExternalOp>(op)) {
        w.replaceAllUsesWith(args.lookup(w.getName()));
        dead.push_back(w);
      } else if (auto call = dyn_cast<CallOp>(op)) {
        GraphOp callee = collector.lookup(call);
        FailureOr<ArrayRef<Weight>> calleeWeights =
            callee ? collector.collect(callee) : ArrayRef<Weight>{};
        if (failed(calleeWeights) || calleeWeights->empty())
          return;
        SmallVector<Value> operands(call.getOperands());
        for (const Weight &w : *calleeWeights)
          operands.push_back(args.lookup(WeightCollector::resolve(call, w).getValue()));
        call->setOperands(operands);
      }
    });
    for (Operation *op : dead)
      op->erase();
  }
  return success();
}

namespace {
struct MoWeightsToArgumentsPass
    : public mo::impl::MoWeightsToArgumentsBase<MoWeightsToArgumentsPass> {
  void runOnOperation() override {
    if (failed(moveWeightsToArguments(getOperation())))
      signalPassFailure();
  }
};
} // namespace
