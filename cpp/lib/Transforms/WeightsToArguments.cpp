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
#include "mo/Dialect/MoWeights.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOWEIGHTSTOARGUMENTS
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;
using namespace mlir::mo;

LogicalResult mo::moveWeightsToArguments(ModuleOp module) {
  SymbolTableCollection symbols;
  WeightCollector collector(symbols);
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
