//===- Graphs.cpp - mo graphs, calls and constants to func/arith ----------===//
//
// A private graph becomes a private func.func that returns its results. The
// public graph becomes the entry point, with an ABI a runtime can call
// without knowing anything else about the graph:
//
//   (inputs..., weights..., outputs..., record: memref<2xi64>) -> i64
//
// every shaped argument with all dims dynamic, the results written into the
// caller's output memrefs, and a prologue that checks every size the body
// relies on (Sizes.h) and returns a status instead of running when one fails.
// Every argument keeps its mo type (`mo.type`): patterns size symbolic dims
// from the function's arguments.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mo;

namespace {


/// `type` with every dim dynamic: what an entry function receives.
Type dynamicShape(Type type) {
  if (auto t = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(
        SmallVector<int64_t>(t.getRank(), ShapedType::kDynamic),
        t.getElementType());
  if (auto m = dyn_cast<MemRefType>(type))
    return MemRefType::get(
        SmallVector<int64_t>(m.getRank(), ShapedType::kDynamic),
        m.getElementType());
  return type;
}

/// The memref an entry result is written into.
MemRefType outParamType(mo::TensorType type) {
  return MemRefType::get(type.getStaticShape(),
                         convertElementType(type.getElementType()));
}

/// `value` (as the caller passed it) cast to the graph's own `type`.
Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (isa<MemRefType>(type))
    return memref::CastOp::create(b, loc, type, value);
  return tensor::CastOp::create(b, loc, type, value);
}

/// The dims of `graph`'s results that its ops bind at run time, in order.
static SmallVector<Attribute> boundOutputDims(GraphOp graph) {
  llvm::SetVector<Attribute> byOps, used;
  graph.walk([&](BindsDimOpInterface op) { byOps.insert(op.getBoundDim()); });
  for (Type t : graph.getResultTypes())
    for (Attribute d : moDims(t))
      if (byOps.contains(d))
        used.insert(d);
  return SmallVector<Attribute>(used.begin(), used.end());
}

struct GraphToFunc : OpConversionPattern<GraphOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GraphOp graph, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return graph.isPublic() ? lowerEntry(graph, rewriter)
                            : lowerSubgraph(graph, rewriter);
  }

  /// Keeps each argument's mo type (and weight name) on the function. Tensor
  /// arguments are the caller's (inputs, weights): bufferization must copy
  /// before writing (a scatter's result, say), never write through them.
  static void setArgAttrs(GraphOp graph, func::FuncOp func) {
    for (auto [i, type] : llvm::enumerate(graph.getArgumentTypes())) {
      func.setArgAttr(i, "mo.type", TypeAttr::get(type));
      if (isa<mo::TensorType>(type))
        func.setArgAttr(i, "bufferization.writable",
                        BoolAttr::get(func.getContext(), false));
      if (auto name = graph.getArgAttrOfType<StringAttr>(i, "mo.weight"))
        func.setArgAttr(i, "mo.weight", name);
    }
  }

  LogicalResult lowerSubgraph(GraphOp graph,
                              ConversionPatternRewriter &rewriter) const {
    TypeConverter::SignatureConversion signature(graph.getNumArguments());
    for (auto [i, type] : llvm::enumerate(graph.getArgumentTypes()))
      signature.addInputs(i, getTypeConverter()->convertType(type));
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(graph.getResultTypes(), results)))
      return failure();
    auto func = func::FuncOp::create(
        rewriter, graph.getLoc(), graph.getSymName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), results));
    func.setPrivate();
    setArgAttrs(graph, func);
    rewriter.inlineRegionBefore(graph.getBody(), func.getBody(), func.end());
    rewriter.applySignatureConversion(&func.getBody().front(), signature,
                                      getTypeConverter());
    rewriter.eraseOp(graph);
    return success();
  }

  LogicalResult lowerEntry(GraphOp graph,
                           ConversionPatternRewriter &rewriter) const {
    Location loc = graph.getLoc();
    const TypeConverter &converter = *getTypeConverter();
    size_t numArgs = graph.getNumArguments();
    SmallVector<Type> inputs;
    // Static weights keep their types: the runtime checks them when they
    // are bound or passed, so the entry neither reads nor checks their sizes.
    auto staticWeight = [&](unsigned i) {
      auto type = dyn_cast<mo::TensorType>(graph.getArgumentTypes()[i]);
      return graph.getArgAttr(i, "mo.weight") && type && type.hasStaticShape();
    };
    for (auto [i, t] : llvm::enumerate(graph.getArgumentTypes()))
      inputs.push_back(staticWeight(i) ? converter.convertType(t)
                                       : dynamicShape(converter.convertType(t)));
    for (Type t : graph.getResultTypes())
      inputs.push_back(dynamicShape(outParamType(cast<mo::TensorType>(t))));
    // Dims that ops bind at run time (nonzero's count) and outputs use: the
    // record reports their sizes after the two a failed check fills.
    SmallVector<Attribute> bound = boundOutputDims(graph);
    inputs.push_back(MemRefType::get({2 + static_cast<int64_t>(bound.size())},
                                     rewriter.getI64Type()));
    auto func = func::FuncOp::create(
        rewriter, loc, graph.getSymName(),
        rewriter.getFunctionType(inputs, rewriter.getI64Type()));
    func->setAttr("llvm.emit_c_interface", rewriter.getUnitAttr());
    func->setAttr("mo.entry", rewriter.getUnitAttr());
    if (!bound.empty())
      func->setAttr("mo.bound_dims", rewriter.getArrayAttr(bound));
    setArgAttrs(graph, func);
    for (size_t i = 0; i < graph.getNumResults(); ++i)
      func.setArgAttr(numArgs + i, "mo.output", rewriter.getI64IntegerAttr(i));
    func.setArgAttr(inputs.size() - 1, "mo.status", rewriter.getUnitAttr());
    Block *entry = func.addEntryBlock();
    rewriter.setInsertionPointToStart(entry);

    // The prologue: every size checked, the status and record set.
    SmallVector<EntryOperand> operands;
    for (auto [i, t] : llvm::enumerate(graph.getArgumentTypes())) {
      auto weight = graph.getArgAttrOfType<StringAttr>(i, "mo.weight");
      if (!staticWeight(i))
        operands.push_back({entry->getArgument(i), moDims(t),
                            weight ? ("weight '" + weight.getValue() + "'").str()
                                   : "argument " + std::to_string(i)});
    }
    // An output's bound dims are checked when it is written, not here.
    SmallVector<SmallVector<Attribute>> outputDims;
    for (Type t : graph.getResultTypes()) {
      outputDims.emplace_back(moDims(t));
      for (Attribute &d : outputDims.back())
        if (llvm::is_contained(bound, d))
          d = getUnknownDim(rewriter.getContext());
    }
    for (auto [i, dims] : llvm::enumerate(outputDims))
      operands.push_back({entry->getArgument(numArgs + i), dims,
                          "output " + std::to_string(i), /*isOutput=*/true});
    SmallVector<ReshapeCheck> reshapes;
    if (auto checks = graph->getAttrOfType<ArrayAttr>("mo.reshape_checks"))
      for (auto check : checks.getAsRange<DictionaryAttr>())
        reshapes.push_back(
            {cast<mo::TensorType>(check.getAs<TypeAttr>("from").getValue()),
             cast<mo::TensorType>(check.getAs<TypeAttr>("to").getValue()),
             cast<LocationAttr>(check.get("loc"))});
    SmallVector<DimCheck> dims;
    if (auto checks = graph->getAttrOfType<ArrayAttr>("mo.dim_checks"))
      for (auto check : checks.getAsRange<DictionaryAttr>()) {
        auto message = check.getAs<StringAttr>("message");
        dims.push_back({check.get("dim"), check.get("expected"),
                        cast<LocationAttr>(check.get("loc")),
                        message ? message.getValue() : StringRef()});
      }
    SymbolSizes sizes;
    SmallVector<Attribute> messages;
    FailureOr<Value> status = buildEntryChecks(
        rewriter, loc, operands, reshapes, dims, entry->getArguments().back(),
        sizes, messages);
    if (failed(status))
      return failure();
    func->setAttr("mo.checks", rewriter.getArrayAttr(messages));
    Value ok = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, *status,
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 0));
    auto guarded = scf::IfOp::create(rewriter, loc, ok, /*withElseRegion=*/false);
    func::ReturnOp::create(rewriter, loc, *status);

    // The body runs under the guard, on the arguments cast to the graph's
    // own types (static dims static again).
    rewriter.setInsertionPoint(guarded.thenBlock()->getTerminator());
    TypeConverter::SignatureConversion signature(numArgs);
    for (auto [i, t] : llvm::enumerate(graph.getArgumentTypes())) {
      Value own =
          castTo(rewriter, loc, entry->getArgument(i), converter.convertType(t));
      signature.remapInput(i, own);
    }
    Block *body = rewriter.applySignatureConversion(&graph.getBody().front(),
                                                    signature, &converter);
    rewriter.inlineBlockBefore(body, guarded.thenBlock()->getTerminator());
    rewriter.eraseOp(graph);
    return success();
  }
};

/// A subgraph returns its results; the entry writes them into its outputs.
struct OutputToReturn : OpConversionPattern<OutputOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OutputOp output, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = output->getParentOfType<func::FuncOp>();
    if (!func || !func->hasAttr("mo.entry")) {
      rewriter.replaceOpWithNewOp<func::ReturnOp>(output, adaptor.getOperands());
      return success();
    }
    unsigned firstOutput = func.getNumArguments() - 1 - output.getNumOperands();
    auto bound = func->getAttrOfType<ArrayAttr>("mo.bound_dims");
    Value record = func.getArguments().back();
    Location loc = output.getLoc();
    for (auto [i, value] : llvm::enumerate(adaptor.getOperands())) {
      auto type = cast<mo::TensorType>(output.getOperand(i).getType());
      Value dest = castTo(rewriter, loc, func.getArgument(firstOutput + i),
                          outParamType(type));
      // A dim bound at run time: report its size; write only into a buffer
      // the caller made large enough (a prefix of it).
      Value fits;
      for (auto [axis, dim] : llvm::enumerate(type.getDims())) {
        auto at = bound ? llvm::find(bound.getValue(), dim) : nullptr;
        if (!bound || at == bound.end())
          continue;
        Value size = tensor::DimOp::create(rewriter, loc, value, axis);
        Value slot = arith::ConstantIndexOp::create(rewriter, loc,
                                                    2 + (at - bound.begin()));
        memref::StoreOp::create(
            rewriter, loc,
            arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), size),
            record, ValueRange{slot});
        Value ok = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ule, size,
                                         memref::DimOp::create(rewriter, loc, dest, axis));
        fits = fits ? Value(arith::AndIOp::create(rewriter, loc, fits, ok)) : ok;
      }
      if (fits && llvm::is_contained(type.getStaticShape(), 0))
        continue; // nothing to write (and no prefix view of an empty dim)
      if (!fits) {
        bufferization::MaterializeInDestinationOp::create(
            rewriter, loc, TypeRange{}, value, dest, /*restrict=*/true, /*writable=*/true);
        continue;
      }
      auto write = scf::IfOp::create(rewriter, loc, fits, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(write.thenBlock()->getTerminator());
      int64_t rank = type.getRank();
      SmallVector<OpFoldResult> zeros(rank, rewriter.getIndexAttr(0)),
          ones(rank, rewriter.getIndexAttr(1));
      Value prefix = memref::SubViewOp::create(
          rewriter, loc, dest, zeros, tensor::getMixedSizes(rewriter, loc, value), ones);
      bufferization::MaterializeInDestinationOp::create(
          rewriter, loc, TypeRange{}, value, prefix, /*restrict=*/true, /*writable=*/true);
    }
    rewriter.eraseOp(output);
    return success();
  }
};

struct CallToFuncCall : OpConversionPattern<CallOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CallOp call, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(call.getResultTypes(), results)))
      return failure();
    rewriter.replaceOpWithNewOp<func::CallOp>(call, call.getCallee(), results,
                                              adaptor.getOperands());
    return success();
  }
};

struct ConstantToArith : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp c, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!dense)
      return rewriter.notifyMatchFailure(c, "only dense constants are lowered");
    Type element = convertElementType(dense.getElementType());
    if (dense.getElementType().isInteger(1)) // bools are stored as bytes
      dense = dense.mapValues(element, [](const APInt &v) { return v.zext(8); });
    else if (element != dense.getElementType())
      dense = dense.bitcast(element);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(c, dense);
    return success();
  }
};

/// Chains only order effects: a dummy true.
struct ChainToConstant : OpConversionPattern<ChainCreateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ChainCreateOp c, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(c, rewriter.getBoolAttr(true));
    return success();
  }
};

} // namespace

void mo::populateMoGraphToFuncPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<GraphToFunc, OutputToReturn, CallToFuncCall, ConstantToArith,
               ChainToConstant>(converter, patterns.getContext());
}
