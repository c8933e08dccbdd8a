//===- Prepare.cpp - what must hold before mo is lowered ------------------===//
//
// Conditions the lowering needs that the mo verifiers do not demand (mo IR
// may call a public graph or use a `?` dim; lowered code cannot), reported
// before any pattern runs so that a failure leaves one clear diagnostic; and
// the sizes each entry's prologue checks (reshapes, dims that may fall
// below zero, rebinds), gathered across its callees.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::mo;


/// Every symbolic name a type's dims use that `bound` lacks.
static std::optional<StringAttr> unboundSymbol(Type type,
                                               const DenseSet<StringAttr> &bound) {
  llvm::SetVector<StringAttr> used;
  for (Attribute dim : moDims(type))
    collectDimSymbols(dim, used);
  for (StringAttr name : used)
    if (!bound.contains(name))
      return name;
  return std::nullopt;
}

static LogicalResult unknownSize(Operation *op, StringAttr name) {
  return op->emitError("cannot determine the size of symbolic dim '")
         << name.getValue() << "' from the graph's arguments";
}

static LogicalResult checkGraph(GraphOp graph, SymbolTable &symbols) {
  // The sizes a graph knows are the plain dims of its arguments.
  DenseSet<StringAttr> bound;
  for (Type t : graph.getArgumentTypes())
    for (Attribute dim : moDims(t))
      if (auto name = dyn_cast<StringAttr>(dim))
        bound.insert(name);
  for (Type t : graph.getArgumentTypes())
    if (std::optional<StringAttr> name = unboundSymbol(t, bound))
      return unknownSize(graph, *name);
  if (graph.isPublic())
    for (Type t : graph.getResultTypes())
      if (!isa<mo::TensorType>(t))
        return graph.emitOpError("entry graph results must be tensors, got ") << t;
  // An output sized by a dim an op binds must use that dim whole: the caller
  // allocates it at an upper bound and keeps the prefix the entry reports.
  DenseSet<StringAttr> byOps;
  graph.walk([&](BindsDimOpInterface op) { byOps.insert(op.getBoundDim()); });
  for (Type t : graph.getResultTypes())
    for (Attribute dim : moDims(t)) {
      llvm::SetVector<StringAttr> used;
      collectDimSymbols(dim, used);
      for (StringAttr name : used)
        if (byOps.contains(name) && dim != name)
          return graph.emitOpError("result dim ")
                 << formatDims(dim) << " uses '" << name.getValue()
                 << "', which an op binds at run time: a result may only use it whole";
    }
  WalkResult walk = graph.walk([&](Operation *op) -> WalkResult {
    if (auto binder = dyn_cast<BindsDimOpInterface>(op)) {
      if (!bound.insert(binder.getBoundDim()).second)
        return op->emitError("dim '")
               << binder.getBoundDim().getValue()
               << "' is bound twice: the graph's arguments or another op already size it";
    }
    if (auto call = dyn_cast<CallOp>(op)) {
      auto callee = symbols.lookup<GraphOp>(call.getCalleeAttr().getAttr());
      if (callee && callee.isPublic())
        return call.emitOpError("calls the entry graph @")
               << call.getCallee()
               << "; only private graphs (subgraphs) can be called";
    }
    if (auto c = dyn_cast<ConstantOp>(op); c && !isa<DenseElementsAttr>(c.getValue()))
      return c.emitOpError("only dense constants can be lowered");
    if (auto r = dyn_cast<ReshapeOp>(op))
      for (Attribute dim : cast<mo::TensorType>(r.getType()).getDims())
        if (isUnknownDim(dim))
          return r.emitError("cannot determine the size of an unknown ('?') dim");
    for (Type t : op->getResultTypes())
      if (std::optional<StringAttr> name = unboundSymbol(t, bound))
        return unknownSize(op, *name);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Whether `dim` holds a subtraction (only those can fall below zero).
static bool mayBeNegative(Attribute dim) {
  auto expr = dyn_cast<DimExprAttr>(dim);
  return expr && (expr.getKind() == DimExprKind::Sub ||
                  mayBeNegative(expr.getLhs()) || mayBeNegative(expr.getRhs()));
}

/// What the entry must check at run time, in `graph` and the graphs it
/// calls (each graph once): the reshapes whose element counts may differ,
/// and each dim expression of a result that may fall below zero (a window
/// larger than its input), once per expression.
static void collectRuntimeChecks(GraphOp graph, SymbolTable &symbols,
                                 SmallVectorImpl<Attribute> &reshapes,
                                 llvm::MapVector<Attribute, Location> &dims,
                                 SmallVectorImpl<Attribute> &rebinds,
                                 llvm::SmallPtrSetImpl<Operation *> &seen) {
  if (!seen.insert(graph).second)
    return;
  MLIRContext *ctx = graph.getContext();
  auto named = [&](StringRef name, Attribute value) {
    return NamedAttribute(StringAttr::get(ctx, name), value);
  };
  graph.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      for (Attribute dim : moDims(t))
        if (mayBeNegative(dim))
          dims.insert({dim, op->getLoc()});
    // A transposed convolution spreads each spatial dim to (in - 1) * stride
    // + 1 elements: an empty one has no such size.
    if (auto conv = dyn_cast<ConvTransposeOp>(op))
      for (Attribute dim : moDims(conv.getInput().getType()).drop_front().drop_back())
        if (!isStaticDim(dim))
          dims.insert({getDimExpr(DimExprKind::Sub, dim, getStaticDim(ctx, 1)),
                       conv.getLoc()});
    if (auto rebind = dyn_cast<RebindOp>(op))
      for (auto [from, to] : llvm::zip(moDims(rebind.getInput().getType()),
                                       moDims(rebind.getType())))
        if (from != to)
          rebinds.push_back(DictionaryAttr::get(
              ctx, {named("dim", from), named("expected", to),
                    named("loc", rebind.getLoc()),
                    named("message", rebind.getMessageAttr())}));
    if (auto reshape = dyn_cast<ReshapeOp>(op)) {
      auto from = cast<mo::TensorType>(reshape.getInput().getType());
      auto to = cast<mo::TensorType>(reshape.getType());
      if (!sameElementCount(from.getDims(), to.getDims()))
        reshapes.push_back(DictionaryAttr::get(
            ctx, {NamedAttribute(StringAttr::get(ctx, "from"), TypeAttr::get(from)),
                  NamedAttribute(StringAttr::get(ctx, "to"), TypeAttr::get(to)),
                  NamedAttribute(StringAttr::get(ctx, "loc"), reshape.getLoc())}));
    } else if (auto call = dyn_cast<CallOp>(op)) {
      if (auto callee = symbols.lookup<GraphOp>(call.getCalleeAttr().getAttr()))
        collectRuntimeChecks(callee, symbols, reshapes, dims, rebinds, seen);
    }
  });
}

LogicalResult mo::prepareForLowering(ModuleOp module) {
  SymbolTable symbols(module);
  for (GraphOp graph : module.getOps<GraphOp>()) {
    if (failed(checkGraph(graph, symbols)))
      return failure();
    if (!graph.isPublic())
      continue;
    MLIRContext *ctx = module.getContext();
    SmallVector<Attribute> reshapes;
    llvm::MapVector<Attribute, Location> dims;
    llvm::SmallPtrSet<Operation *, 8> seen;
    SmallVector<Attribute> dimChecks;
    collectRuntimeChecks(graph, symbols, reshapes, dims, dimChecks, seen);
    graph->setAttr("mo.reshape_checks", ArrayAttr::get(ctx, reshapes));
    for (auto &[dim, loc] : dims)
      dimChecks.push_back(DictionaryAttr::get(
          ctx, {NamedAttribute(StringAttr::get(ctx, "dim"), dim),
                NamedAttribute(StringAttr::get(ctx, "loc"), loc)}));
    graph->setAttr("mo.dim_checks", ArrayAttr::get(ctx, dimChecks));
  }
  return success();
}
