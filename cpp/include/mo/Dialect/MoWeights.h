//===- MoWeights.h - the weights a graph reads ------------------*- C++ -*-===//
//
// A weight is named by `mo.constant.external`, absolutely or (placeholder)
// relative to the prefix of the `mo.call` that reaches it. A graph reads the
// weights of its body and, resolved through each call's prefix, of its
// callees; one name must have one type everywhere. The graph verifier checks
// that (so a conflict is an error when a graph is built, not in a pass), and
// mo-weights-to-arguments turns the list into graph arguments.
//
//===----------------------------------------------------------------------===//
#ifndef MO_DIALECT_MOWEIGHTS_H
#define MO_DIALECT_MOWEIGHTS_H

#include "mo/Dialect/MoOps.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <map>

namespace mlir::mo {

/// A weight read by a graph (directly or through calls), by its local name.
struct Weight {
  StringAttr name;
  mo::TensorType type;
  /// Relative to the calling `mo.call`'s prefix (else an absolute name).
  bool isPlaceholder;
};

/// The weights of graphs, in first-use order, memoized per graph.
class WeightCollector {
public:
  explicit WeightCollector(SymbolTableCollection &symbols) : symbols(symbols) {}

  /// The caller-side name of a weight the callee of `call` reads.
  static StringAttr resolve(CallOp call, const Weight &w);
  /// The callee of `call`, or null.
  GraphOp lookup(CallOp call);
  /// The weights `graph` reads; fails (with an error on the op at fault) on a
  /// name read with two types or both as a placeholder and absolutely, and on
  /// recursion.
  FailureOr<ArrayRef<Weight>> collect(GraphOp graph);

private:
  SymbolTableCollection &symbols;
  // Node-based: the lists handed out stay valid while others are added.
  std::map<Operation *, SmallVector<Weight>> weights;
  llvm::SmallPtrSet<Operation *, 4> visiting;
};

} // namespace mlir::mo

#endif // MO_DIALECT_MOWEIGHTS_H
