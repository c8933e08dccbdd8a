//===- MoWeights.cpp - the weights a graph reads --------------------------===//

#include "mo/Dialect/MoWeights.h"

using namespace mlir;
using namespace mlir::mo;

StringAttr WeightCollector::resolve(CallOp call, const Weight &w) {
  if (!w.isPlaceholder)
    return w.name;
  return StringAttr::get(call.getContext(),
                         call.getPrefixOrEmpty() + w.name.getValue());
}

GraphOp WeightCollector::lookup(CallOp call) {
  return symbols.lookupNearestSymbolFrom<GraphOp>(call, call.getCalleeAttr());
}

FailureOr<ArrayRef<Weight>> WeightCollector::collect(GraphOp graph) {
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
