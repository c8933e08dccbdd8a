//===- Custom.cpp - mo.custom / mo.inplace_custom to calls ----------------===//
//
// A kernel defined in the module (an MLIR custom extension merged in before
// lowering) is called with the converted tensors (or buffers), cast to its
// parameter types where they are compatible, and its results cast back; a
// mismatch is an error naming the argument. Any other name is a C symbol:
// declared once with unranked memref arguments (each passed as rank and
// descriptor pointer), inputs read as buffers, one new buffer per result.
// Parameters follow as i64 (integers, bools) or f64 scalars, in name order.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mo;

/// The parameters as scalars (i64 or f64), in name order.
static SmallVector<Value> parameterValues(OpBuilder &b, Location loc,
                                          DictionaryAttr parameters) {
  SmallVector<Value> values;
  for (NamedAttribute p : parameters) {
    Attribute a = p.getValue();
    if (auto f = dyn_cast<FloatAttr>(a))
      values.push_back(arith::ConstantOp::create(
          b, loc, b.getF64FloatAttr(f.getValueAsDouble())));
    else if (auto flag = dyn_cast<BoolAttr>(a))
      values.push_back(arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(flag.getValue())));
    else
      values.push_back(arith::ConstantOp::create(
          b, loc, b.getI64IntegerAttr(cast<IntegerAttr>(a).getValue().getSExtValue())));
  }
  return values;
}

/// `v` as `type` when they are cast-compatible tensors or memrefs.
static std::optional<Value> castTo(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  if (isa<mlir::TensorType>(type) && tensor::CastOp::areCastCompatible(v.getType(), type))
    return Value(tensor::CastOp::create(b, loc, type, v));
  if (isa<BaseMemRefType>(type) && memref::CastOp::areCastCompatible(v.getType(), type))
    return Value(memref::CastOp::create(b, loc, type, v));
  return std::nullopt;
}

/// Calls `kernel` (defined in the module) on `operands`; the results, cast
/// to `resultTypes`.
static FailureOr<SmallVector<Value>>
callMlirKernel(OpBuilder &b, Operation *op, func::FuncOp kernel, ValueRange operands,
               TypeRange resultTypes, SmallVector<Value> params) {
  Location loc = op->getLoc();
  FunctionType type = kernel.getFunctionType();
  size_t expected = operands.size() + params.size();
  if (type.getNumInputs() != expected || type.getNumResults() != resultTypes.size())
    return op->emitError("custom kernel @")
           << kernel.getSymName() << " has type " << type << ", but the op passes "
           << operands.size() << " operands and " << params.size()
           << " parameters and takes " << resultTypes.size() << " results";
  SmallVector<Value> values(operands), args;
  llvm::append_range(values, params);
  for (auto [i, v] : llvm::enumerate(values)) {
    std::optional<Value> arg = castTo(b, loc, v, type.getInput(i));
    if (!arg)
      return op->emitError("custom kernel @")
             << kernel.getSymName() << " takes " << type.getInput(i) << " as argument "
             << i << ", but the op passes " << v.getType();
    args.push_back(*arg);
  }
  auto call = func::CallOp::create(b, loc, kernel, args);
  SmallVector<Value> results;
  for (auto [i, r] : llvm::enumerate(call.getResults())) {
    std::optional<Value> v = castTo(b, loc, r, resultTypes[i]);
    if (!v)
      return op->emitError("custom kernel @")
             << kernel.getSymName() << " returns " << r.getType() << " as result " << i
             << ", but the op expects " << resultTypes[i];
    results.push_back(*v);
  }
  return results;
}

/// Calls the C kernel `symbol`: inputs as read-only buffers, then a new
/// buffer per result, then the parameters.
static FailureOr<SmallVector<Value>>
callCKernel(OpBuilder &b, Operation *op, StringRef symbol, ValueRange operands,
            ArrayRef<mo::TensorType> results, const TypeConverter &converter,
            SmallVector<Value> params) {
  Location loc = op->getLoc();
  auto unranked = [](Type element) { return UnrankedMemRefType::get(element, 0); };
  SmallVector<Value> args, outputs;
  for (Value v : operands) {
    Value buffer = v;
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      buffer = bufferization::ToBufferOp::create(
          b, loc, MemRefType::get(t.getShape(), t.getElementType()), v, /*read_only=*/true);
    auto m = cast<MemRefType>(buffer.getType());
    args.push_back(memref::CastOp::create(b, loc, unranked(m.getElementType()), buffer));
  }
  for (mo::TensorType t : results) {
    auto type = cast<RankedTensorType>(converter.convertType(t));
    FailureOr<Value> buffer = allocBuffer(
        b, loc, op, MemRefType::get(type.getShape(), type.getElementType()), t.getDims());
    if (failed(buffer))
      return failure();
    outputs.push_back(*buffer);
    args.push_back(memref::CastOp::create(b, loc, unranked(type.getElementType()), *buffer));
  }
  llvm::append_range(args, params);
  auto module = op->getParentOfType<ModuleOp>();
  SmallVector<Type> types(ValueRange(args).getTypes());
  auto fnType = b.getFunctionType(types, {});
  auto callee = module.lookupSymbol<func::FuncOp>(symbol);
  if (!callee) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    callee = func::FuncOp::create(b, module.getLoc(), symbol, fnType);
    callee.setPrivate();
  } else if (callee.getFunctionType() != fnType) {
    return op->emitError("custom kernel '")
           << symbol << "' is called with " << fnType << " here but "
           << callee.getFunctionType() << " elsewhere (one C symbol, one signature)";
  }
  func::CallOp::create(b, loc, callee, args);
  SmallVector<Value> values;
  for (auto [buffer, t] : llvm::zip(outputs, results))
    values.push_back(bufferization::ToTensorOp::create(
        b, loc, cast<RankedTensorType>(converter.convertType(t)), buffer,
        /*restrict=*/true, /*writable=*/true));
  return values;
}

namespace {

template <typename OpT>
struct CustomToCall : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *this->getTypeConverter();
    SmallVector<Value> params =
        parameterValues(rewriter, op.getLoc(), op.getParameters());
    SmallVector<mo::TensorType> moResults;
    SmallVector<Type> resultTypes;
    for (Type t : op->getResultTypes()) {
      moResults.push_back(cast<mo::TensorType>(t));
      resultTypes.push_back(converter.convertType(t));
    }
    auto module = op->template getParentOfType<ModuleOp>();
    auto kernel = module.template lookupSymbol<func::FuncOp>(op.getSymbol());
    FailureOr<SmallVector<Value>> results =
        kernel && !kernel.isDeclaration()
            ? callMlirKernel(rewriter, op, kernel, adaptor.getInputs(), resultTypes, params)
            : callCKernel(rewriter, op, op.getSymbol(), adaptor.getInputs(), moResults,
                          converter, params);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, *results);
    return success();
  }
};

} // namespace

void mo::populateMoCustomToCallPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<CustomToCall<CustomOp>, CustomToCall<InplaceCustomOp>>(
      converter, patterns.getContext());
}
