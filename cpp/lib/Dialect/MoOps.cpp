//===- MoOps.cpp - mo operations: syntax and verification -----------------===//

#include "mo/Dialect/MoOps.h"
#include "mo/Dialect/MoWeights.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mo;

#include "Mo/MoInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "Mo/MoOps.cpp.inc"

/// Prints a type into a string for diagnostics.
static std::string str(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// A diagnostic at `loc`, or none (inference may run without a location).
static InFlightDiagnostic inferError(std::optional<Location> loc) {
  return loc ? mlir::emitError(*loc) : InFlightDiagnostic();
}

/// Appends the inferred tensor type, checked: dims too large for any tensor
/// are an error at `loc`, not an assertion in the type's constructor.
static LogicalResult pushInferredType(std::optional<Location> loc,
                                      SmallVectorImpl<Type> &inferred,
                                      MLIRContext *ctx,
                                      ArrayRef<Attribute> dims, Type element,
                                      DeviceAttr device) {
  auto type = mo::TensorType::getChecked([&] { return inferError(loc); }, ctx,
                                         dims, element, device);
  if (!type)
    return failure();
  inferred.push_back(type);
  return success();
}

/// Dims and element type of a tensor or buffer type.
static std::optional<std::pair<ArrayRef<Attribute>, Type>>
getDimsAndElementType(Type type) {
  if (auto t = dyn_cast<mo::TensorType>(type))
    return std::make_pair(t.getDims(), t.getElementType());
  if (auto b = dyn_cast<BufferType>(type))
    return std::make_pair(b.getDims(), b.getElementType());
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

void GraphOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                    FunctionType type, ArrayRef<StringRef> parameters) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name),
                     TypeAttr::get(type));
  if (!parameters.empty())
    state.addAttribute(getParametersAttrName(state.name),
                       builder.getStrArrayAttr(parameters));
  state.addRegion();
}

SmallVector<StringRef> GraphOp::getParameterNames() {
  SmallVector<StringRef> names;
  if (ArrayAttr params = getParametersAttr())
    for (Attribute p : params)
      names.push_back(cast<StringAttr>(p).getValue());
  return names;
}

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  // Visibility may lead (`mo.graph private @f`, upstream style) or follow the
  // signature (`mo.graph @f(...) private`, how mo prints it).
  (void)impl::parseOptionalVisibilityKeyword(parser, result.attributes);
  StringAttr nameAttr;
  if (parser.parseSymbolName(nameAttr, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();

  // Declared symbolic dims: `@name<batch, seq>`.
  if (succeeded(parser.parseOptionalLess())) {
    SmallVector<Attribute> params;
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          StringRef name;
          if (parser.parseKeyword(&name))
            return failure();
          params.push_back(builder.getStringAttr(name));
          return success();
        }) ||
        parser.parseGreater())
      return failure();
    result.addAttribute(getParametersAttrName(result.name),
                        builder.getArrayAttr(params));
  }

  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  if (!result.attributes.get(SymbolTable::getVisibilityAttrName()))
    (void)impl::parseOptionalVisibilityKeyword(parser, result.attributes);
  SmallVector<Type> argTypes =
      llvm::map_to_vector(args, [](auto &a) { return a.type; });
  result.addAttribute(
      getFunctionTypeAttrName(result.name),
      TypeAttr::get(builder.getFunctionType(argTypes, resultTypes)));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  call_interface_impl::addArgAndResultAttrs(
      builder, result, args, resultAttrs, getArgAttrsAttrName(result.name),
      getResAttrsAttrName(result.name));

  Region *body = result.addRegion();
  OptionalParseResult parsed =
      parser.parseOptionalRegion(*body, args, /*enableNameShadowing=*/false);
  if (parsed.has_value() && failed(*parsed))
    return failure();
  return success();
}

void GraphOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  if (ArrayAttr params = getParametersAttr()) {
    p << '<';
    llvm::interleaveComma(params, p, [&](Attribute a) {
      p << cast<StringAttr>(a).getValue();
    });
    p << '>';
  }
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  // After the signature, so that `mo.graph @name` reads the same for entry
  // graphs and subgraphs (as MAX prints them).
  if (auto visibility = getSymVisibility())
    p << ' ' << *visibility;
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getParametersAttrName(), getSymVisibilityAttrName(),
       getFunctionTypeAttrName(), getArgAttrsAttrName(),
       getResAttrsAttrName()});
  if (!getBody().empty()) {
    p << ' ';
    p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/true);
  }
}

LogicalResult GraphOp::verify() {
  // A graph is dataflow: one block (control flow is mo.if / mo.while).
  if (!getBody().empty() && !getBody().hasOneBlock())
    return emitOpError("body must be one block, got ")
           << getBody().getBlocks().size() << " (use mo.if or mo.while for control flow)";
  llvm::SmallDenseSet<StringAttr> declared;
  if (ArrayAttr params = getParametersAttr()) {
    for (Attribute p : params) {
      auto name = cast<StringAttr>(p);
      if (failed(verifyDim([&] { return emitOpError(); }, name)))
        return failure();
      if (!declared.insert(name).second)
        return emitOpError("declares symbolic dim '")
               << name.getValue() << "' twice";
    }
  }
  // Every symbolic dim of the signature must be declared.
  auto checkType = [&](Type type, StringRef what, unsigned i) -> LogicalResult {
    auto dimsAndType = getDimsAndElementType(type);
    if (!dimsAndType)
      return success();
    llvm::SetVector<StringAttr> used;
    for (Attribute dim : dimsAndType->first)
      collectDimSymbols(dim, used);
    for (StringAttr name : used)
      if (!declared.contains(name))
        return emitOpError() << what << " " << i << " uses symbolic dim '"
                             << name.getValue()
                             << "' which is not declared in the graph's "
                                "parameters (`@"
                             << getSymName() << "<" << name.getValue()
                             << ">`)";
    return success();
  };
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (failed(checkType(type, "argument", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(getResultTypes()))
    if (failed(checkType(type, "result", i)))
      return failure();
  if (isExternal())
    return emitOpError("must have a body");
  return success();
}

//===----------------------------------------------------------------------===//
// OutputOp
//===----------------------------------------------------------------------===//

LogicalResult OutputOp::verify() {
  auto graph = (*this)->getParentOfType<GraphOp>();
  ArrayRef<Type> results = graph.getResultTypes();
  if (getNumOperands() != results.size())
    return emitOpError("has ")
           << getNumOperands() << " operands, but the enclosing graph @"
           << graph.getSymName() << " returns " << results.size();
  for (auto [i, operand, expected] :
       llvm::enumerate(getOperandTypes(), results))
    if (operand != expected)
      return emitOpError("operand ")
             << i << " has type " << operand
             << ", but the enclosing graph returns " << expected;
  return success();
}

/// One name, one weight: the weights this graph reads, directly and through
/// its calls, agree (see MoWeights.h).
LogicalResult GraphOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return WeightCollector(symbolTable).collect(*this);
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto graph =
      symbolTable.lookupNearestSymbolFrom<GraphOp>(*this, getCalleeAttr());
  if (!graph)
    return emitOpError("'@")
           << getCallee() << "' does not reference a valid mo.graph";
  ArrayRef<Type> inputs = graph.getArgumentTypes();
  ArrayRef<Type> results = graph.getResultTypes();
  if (getNumOperands() != inputs.size())
    return emitOpError("passes ")
           << getNumOperands() << " operands, but @" << getCallee()
           << " takes " << inputs.size();
  if (getNumResults() != results.size())
    return emitOpError("has ")
           << getNumResults() << " results, but @" << getCallee()
           << " returns " << results.size();

  // Types match exactly: a subgraph is traced per distinct input types, so
  // inlining never has to rename symbolic dims.
  for (auto [i, type, expected] : llvm::enumerate(getOperandTypes(), inputs))
    if (type != expected)
      return emitOpError("operand ")
             << i << " has type " << type << ", but @" << getCallee()
             << " expects " << expected;
  for (auto [i, type, expected] : llvm::enumerate(getResultTypes(), results))
    if (type != expected)
      return emitOpError("result ")
             << i << " has type " << type << ", but @" << getCallee()
             << " returns " << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp, ConstantExternalOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  auto type = cast<mo::TensorType>(getType());
  auto valueType = cast<ShapedType>(getValue().getType());
  if (!type.hasStaticShape())
    return emitOpError("result type ")
           << type << " must have a static shape";
  if (valueType.getShape() != ArrayRef<int64_t>(type.getStaticShape()))
    return emitOpError("value shape ")
           << valueType << " does not match result type " << type;
  if (valueType.getElementType() != type.getElementType())
    return emitOpError("value element type ")
           << valueType.getElementType()
           << " does not match result element type " << type.getElementType();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult ConstantExternalOp::verify() {
  if (getName().empty())
    return emitOpError("requires a non-empty weight name");
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

/// Two tensor operands of one op: same element type, same device.
static LogicalResult checkOperandPair(std::optional<Location> loc,
                                      mo::TensorType lhs, mo::TensorType rhs) {
  if (!lhs || !rhs)
    return emitOptionalError(loc, "operands must be !mo.tensor values");
  if (lhs.getElementType() != rhs.getElementType())
    return emitOptionalError(loc, "operands have different element types: ",
                             lhs.getElementType(), " vs ",
                             rhs.getElementType(),
                             " (cast one of them explicitly)");
  if (lhs.getDevice() != rhs.getDevice())
    return emitOptionalError(loc, "operands are on different devices: ",
                             str(lhs), " vs ", str(rhs));
  return success();
}

LogicalResult
mo::inferBinaryElementwiseTypes(std::optional<Location> loc,
                                ValueRange operands,
                                SmallVectorImpl<Type> &inferred,
                                bool isCompare) {
  auto lhs = dyn_cast<mo::TensorType>(operands[0].getType());
  auto rhs = dyn_cast<mo::TensorType>(operands[1].getType());
  if (failed(checkOperandPair(loc, lhs, rhs)))
    return failure();
  auto dims = broadcastDims(lhs.getDims(), rhs.getDims(), [&] { return inferError(loc); });
  if (failed(dims))
    return failure();
  Type element = isCompare ? IntegerType::get(lhs.getContext(), 1)
                           : lhs.getElementType();
  return pushInferredType(loc, inferred, lhs.getContext(), *dims, element,
                          lhs.getDevice());
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferred) {
  auto lhs = dyn_cast<mo::TensorType>(operands[0].getType());
  auto rhs = dyn_cast<mo::TensorType>(operands[1].getType());
  if (failed(checkOperandPair(loc, lhs, rhs)))
    return failure();
  if (lhs.getRank() < 2 || rhs.getRank() < 2)
    return emitOptionalError(loc, "matmul operands must have rank >= 2, got ",
                             formatDims(lhs.getDims()), " and ",
                             formatDims(rhs.getDims()));
  ArrayRef<Attribute> l = lhs.getDims(), r = rhs.getDims();
  Attribute k1 = l.back(), k0 = r[r.size() - 2];
  if (k1 != k0 && !isUnknownDim(k1) && !isUnknownDim(k0))
    return emitOptionalError(loc, "contracting dims differ: ",
                             formatDims(l), " @ ", formatDims(r));
  auto batch = broadcastDims(l.drop_back(2), r.drop_back(2), [&] { return inferError(loc); });
  if (failed(batch))
    return failure();
  SmallVector<Attribute> dims = *batch;
  dims.push_back(l[l.size() - 2]);
  dims.push_back(r.back());
  return pushInferredType(loc, inferred, lhs.getContext(), dims,
                          lhs.getElementType(), lhs.getDevice());
}

//===----------------------------------------------------------------------===//
// ReshapeOp, CastOp
//===----------------------------------------------------------------------===//

/// A shape or type conversion whose result type equals its input's is a no-op.
static OpFoldResult foldNoOpConversion(Operation *op) {
  if (op->getOperand(0).getType() == op->getResult(0).getType())
    return op->getOperand(0);
  return {};
}

/// The product of the dims, when all are static (kDynamic when it does not
/// fit in int64).
static std::optional<int64_t> staticSize(ArrayRef<Attribute> dims) {
  int64_t n = 1;
  for (Attribute d : dims) {
    if (!isStaticDim(d))
      return std::nullopt;
    if (llvm::MulOverflow(n, getStaticDimSize(d), n))
      return std::nullopt; // (types whose dims overflow do not verify)
  }
  return n;
}

/// Shape ops change dims only: element type and device stay.
static LogicalResult verifyKeepsElementAndDevice(Operation *op,
                                                 mo::TensorType in,
                                                 mo::TensorType out) {
  if (in.getElementType() != out.getElementType() ||
      in.getDevice() != out.getDevice())
    return op->emitOpError("must keep the element type and device, got ")
           << in << " -> " << out;
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto in = cast<mo::TensorType>(getInput().getType());
  auto out = cast<mo::TensorType>(getType());
  if (failed(verifyKeepsElementAndDevice(*this, in, out)))
    return failure();
  auto a = staticSize(in.getDims()), b = staticSize(out.getDims());
  if (a && b && *a != *b)
    return emitOpError("cannot reshape ")
           << formatDims(in.getDims()) << " (" << *a << " elements) to "
           << formatDims(out.getDims()) << " (" << *b << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) { return foldNoOpConversion(*this); }

LogicalResult TransposeOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto in = cast<mo::TensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if (static_cast<int64_t>(perm.size()) != in.getRank())
    return inferError(loc) << "permutation has " << perm.size()
                           << " entries for a rank-" << in.getRank() << " tensor";
  SmallVector<bool> seen(perm.size(), false);
  SmallVector<Attribute> dims;
  for (int64_t p : perm) {
    if (p < 0 || p >= in.getRank() || seen[p])
      return inferError(loc) << "permutation must be a permutation of 0.."
                             << in.getRank() - 1;
    seen[p] = true;
    dims.push_back(in.getDims()[p]);
  }
  return pushInferredType(loc, inferred, ctx, dims, in.getElementType(),
                          in.getDevice());
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  if (llvm::equal(getPermutation(),
                  llvm::seq<int64_t>(0, getPermutation().size())))
    return getInput();
  return {};
}

/// Checks a window (starts, steps, result dims) against a source's dims; a
/// negative step (`reverse`, slices only) walks down from its start.
static LogicalResult verifyWindow(Operation *op, ArrayRef<Attribute> source,
                                  ArrayRef<Attribute> window,
                                  ArrayRef<int64_t> starts,
                                  ArrayRef<int64_t> steps, bool reverse) {
  if (starts.size() != source.size() || steps.size() != source.size())
    return op->emitOpError("needs one start and one step per dim (")
           << source.size() << ")";
  for (auto [i, start, step, sdim, wdim] :
       llvm::enumerate(starts, steps, source, window)) {
    if (reverse && (start < 0 || step == 0))
      return op->emitOpError("dim ")
             << i << ": start must be >= 0 and step non-zero, got start "
             << start << " step " << step;
    if (!reverse && (start < 0 || step < 1))
      return op->emitOpError("dim ")
             << i << ": start must be >= 0 and step >= 1, got start " << start
             << " step " << step;
    int64_t size = getStaticDimSize(sdim), count = getStaticDimSize(wdim);
    if (count == ShapedType::kDynamic) {
      // A non-static window is the whole (symbolic) dim.
      if (wdim != sdim || start != 0 || step != 1)
        return op->emitOpError("dim ")
               << i << ": a symbolic window must be the whole dim";
      continue;
    }
    if (step < 0 && size == ShapedType::kDynamic)
      return op->emitOpError("dim ") << i << ": a negative step needs a static dim";
    int64_t last;
    if (size != ShapedType::kDynamic && count > 0 &&
        (llvm::MulOverflow(count - 1, step, last) ||
         llvm::AddOverflow(last, start, last) || last >= size || last < 0 ||
         start >= size))
      return op->emitOpError("dim ") << i << ": window of " << count
                                     << " elements from " << start << " step "
                                     << step << " exceeds size " << size;
  }
  return success();
}

LogicalResult SliceOp::verify() {
  auto in = cast<mo::TensorType>(getInput().getType());
  auto out = cast<mo::TensorType>(getType());
  if (in.getElementType() != out.getElementType() ||
      in.getDevice() != out.getDevice() || in.getRank() != out.getRank())
    return emitOpError("must keep the rank, element type and device, got ")
           << in << " -> " << out;
  return verifyWindow(*this, in.getDims(), out.getDims(), getStarts(), getSteps(),
                      /*reverse=*/true);
}

LogicalResult BroadcastToOp::verify() {
  auto in = cast<mo::TensorType>(getInput().getType());
  auto out = cast<mo::TensorType>(getType());
  if (failed(verifyKeepsElementAndDevice(*this, in, out)))
    return failure();
  auto dims = broadcastDims(in.getDims(), out.getDims());
  if (in.getRank() > out.getRank() || failed(dims) ||
      ArrayRef<Attribute>(*dims) != out.getDims())
    return emitOpError("cannot broadcast ")
           << formatDims(in.getDims()) << " to " << formatDims(out.getDims());
  return success();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor) { return foldNoOpConversion(*this); }

Value BroadcastToOp::buildScalar(OpBuilder &, Location, ValueRange args, Type) {
  return args[0];
}

LogicalResult CastOp::verify() {
  auto in = cast<mo::TensorType>(getInput().getType());
  auto out = cast<mo::TensorType>(getType());
  if (in.getDims() != out.getDims() || in.getDevice() != out.getDevice())
    return emitOpError("must keep the shape and device, got ")
           << in << " -> " << out;
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) { return foldNoOpConversion(*this); }

Value CastOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                          Type element) {
  Type dst = getType().getElementType();
  Type builtinDst = dst;
  if (auto i = dyn_cast<IntegerType>(dst))
    builtinDst = IntegerType::get(getContext(), i.getWidth());
  return scalar::convert(b, loc, args[0], builtinDst,
                         element.isUnsignedInteger() || element.isInteger(1),
                         dst.isUnsignedInteger());
}

//===----------------------------------------------------------------------===//
// MutableLoadOp, MutableStoreOp
//===----------------------------------------------------------------------===//

LogicalResult MutableLoadOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferred) {
  // A buffer's type was checked when it was made: the tensor's is as valid.
  auto buffer = cast<BufferType>(operands[0].getType());
  inferred.push_back(mo::TensorType::get(ctx, buffer.getDims(),
                                         buffer.getElementType(),
                                         buffer.getDevice()));
  return success();
}

LogicalResult MutableStoreOp::verify() {
  auto buffer = cast<BufferType>(getBuffer().getType());
  auto value = cast<mo::TensorType>(getValue().getType());
  if (buffer.getElementType() != value.getElementType() ||
      buffer.getDevice() != value.getDevice())
    return emitOpError("value ")
           << value << " must have the buffer's element type and device ("
           << buffer << ")";
  if (buffer.getRank() != value.getRank())
    return emitOpError("value rank ")
           << value.getRank() << " differs from buffer rank "
           << buffer.getRank();
  if (!getStarts()) {
    if (getSteps())
      return emitOpError("steps require starts");
    if (buffer.getDims() != value.getDims())
      return emitOpError("value shape ")
             << formatDims(value.getDims())
             << " must equal the buffer shape "
             << formatDims(buffer.getDims()) << " (or give starts/steps)";
    return success();
  }
  if (!getSteps())
    return emitOpError("needs one start and one step per buffer dim (")
           << buffer.getRank() << ")";
  return verifyWindow(*this, buffer.getDims(), value.getDims(), *getStarts(),
                      *getSteps(), /*reverse=*/false);
}

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

BlockLayout mo::getBlockLayout(QuantEncoding encoding) {
  switch (encoding) {
  case QuantEncoding::Q4_0:
    return {32, 18};
  case QuantEncoding::Q4_K:
    return {256, 144};
  case QuantEncoding::Q5_K:
    return {256, 176};
  case QuantEncoding::Q6_K:
    return {256, 210};
  }
  llvm_unreachable("unknown encoding");
}

/// Checks quantized rows `[..., bytes]`; returns the values per row.
static FailureOr<int64_t> checkQuantizedRows(std::optional<Location> loc,
                                             StringRef what,
                                             mo::TensorType type,
                                             QuantEncoding encoding) {
  if (!type.getElementType().isUnsignedInteger(8))
    return inferError(loc) << what << " must be uint8, got "
                           << type.getElementType();
  if (type.getRank() < 1)
    return inferError(loc) << what << " must have rank >= 1";
  int64_t bytes = getStaticDimSize(type.getDims().back());
  if (bytes == ShapedType::kDynamic)
    return inferError(loc) << what << " must have a static last dim, got "
                           << formatDims(type.getDims());
  BlockLayout block = getBlockLayout(encoding);
  if (bytes % block.bytes != 0)
    return inferError(loc)
           << what << " last dim " << bytes << " is not a multiple of the "
           << stringifyQuantEncoding(encoding) << " block size (" << block.bytes
           << " bytes per " << block.elements << " values)";
  return bytes / block.bytes * block.elements;
}

LogicalResult DequantizeOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto in = cast<mo::TensorType>(adaptor.getInput().getType());
  FailureOr<int64_t> values =
      checkQuantizedRows(loc, "input", in, adaptor.getEncoding());
  if (failed(values))
    return failure();
  SmallVector<Attribute> dims(in.getDims());
  dims.back() = getStaticDim(ctx, *values);
  return pushInferredType(loc, inferred, ctx, dims, Float32Type::get(ctx),
                          in.getDevice());
}

LogicalResult QMatmulOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto lhs = cast<mo::TensorType>(adaptor.getLhs().getType());
  auto rhs = cast<mo::TensorType>(adaptor.getRhs().getType());
  if (!lhs.getElementType().isF32())
    return inferError(loc) << "lhs must be float32, got " << lhs.getElementType();
  if (lhs.getRank() < 2)
    return inferError(loc) << "lhs must have rank >= 2, got "
                           << formatDims(lhs.getDims());
  if (rhs.getRank() != 2)
    return inferError(loc) << "rhs must be a [N, bytes] matrix, got "
                           << formatDims(rhs.getDims());
  if (rhs.getDevice() != lhs.getDevice())
    return inferError(loc) << "lhs and rhs must be on the same device";
  FailureOr<int64_t> k =
      checkQuantizedRows(loc, "rhs", rhs, adaptor.getEncoding());
  if (failed(k))
    return failure();
  Attribute lhsK = lhs.getDims().back();
  if (getStaticDimSize(lhsK) != *k)
    return inferError(loc) << "lhs has K = " << formatDims(lhsK)
                           << " but rhs rows hold " << *k << " values";
  SmallVector<Attribute> dims(lhs.getDims().drop_back());
  dims.push_back(rhs.getDims().front());
  return pushInferredType(loc, inferred, ctx, dims, Float32Type::get(ctx),
                          lhs.getDevice());
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult mo::inferReduceType(std::optional<Location> loc, Value input,
                                  uint64_t axis, bool isArg,
                                  SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<mo::TensorType>(input.getType());
  if (!type || axis >= static_cast<uint64_t>(type.getRank()))
    return inferError(loc) << "reduction axis " << axis << " is out of range for "
                           << input.getType();
  SmallVector<Attribute> dims(type.getDims());
  dims[axis] = getStaticDim(type.getContext(), 1);
  Type element = isArg ? IntegerType::get(type.getContext(), 64,
                                          IntegerType::Signed)
                       : type.getElementType();
  return pushInferredType(loc, inferred, type.getContext(), dims, element,
                          type.getDevice());
}

LogicalResult CumsumOp::verify() {
  int64_t rank = cast<mo::TensorType>(getInput().getType()).getRank();
  if (getAxis() >= static_cast<uint64_t>(rank))
    return emitOpError("axis ") << getAxis() << " is out of range for a rank-"
                                << rank << " tensor";
  return success();
}

//===----------------------------------------------------------------------===//
// SelectOp
//===----------------------------------------------------------------------===//

LogicalResult SelectOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferred) {
  // (The operand constraints, checked first, make the condition a bool tensor.)
  auto cond = dyn_cast<mo::TensorType>(operands[0].getType());
  if (!cond)
    return failure();
  auto x = dyn_cast<mo::TensorType>(operands[1].getType());
  auto y = dyn_cast<mo::TensorType>(operands[2].getType());
  if (failed(checkOperandPair(loc, x, y)))
    return failure();
  if (cond.getDevice() != x.getDevice())
    return inferError(loc) << "condition and values must be on the same device";
  auto emit = [&] { return inferError(loc); };
  auto dims = broadcastDims(cond.getDims(), x.getDims(), emit);
  if (failed(dims))
    return failure();
  dims = broadcastDims(*dims, y.getDims(), emit);
  if (failed(dims))
    return failure();
  return pushInferredType(loc, inferred, ctx, *dims, x.getElementType(),
                          x.getDevice());
}

Value SelectOp::buildScalar(OpBuilder &b, Location loc, ValueRange args, Type) {
  return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  if (operands.empty())
    return inferError(loc) << "needs at least one input";
  auto first = cast<mo::TensorType>(operands[0].getType());
  uint64_t axis = adaptor.getAxis();
  if (axis >= static_cast<uint64_t>(first.getRank()))
    return inferError(loc) << "axis " << axis << " is out of range for a rank-"
                           << first.getRank() << " tensor";
  SmallVector<Attribute> dims(first.getDims());
  for (auto [i, operand] : llvm::enumerate(operands.drop_front())) {
    auto type = cast<mo::TensorType>(operand.getType());
    if (type.getRank() != first.getRank() ||
        type.getElementType() != first.getElementType() ||
        type.getDevice() != first.getDevice())
      return inferError(loc) << "input " << i + 1 << " is " << type
                             << ", but input 0 is " << first
                             << " (rank, element type and device must agree)";
    for (auto [d, dim] : llvm::enumerate(type.getDims()))
      if (d != axis && dim != dims[d])
        return inferError(loc) << "input " << i + 1 << " has dim " << d << " = "
                               << formatDims(dim) << ", but input 0 has "
                               << formatDims(dims[d]);
    dims[axis] = getDimExpr(DimExprKind::Add, dims[axis], type.getDims()[axis]);
  }
  return pushInferredType(loc, inferred, ctx, dims, first.getElementType(),
                          first.getDevice());
}

//===----------------------------------------------------------------------===//
// PadOp
//===----------------------------------------------------------------------===//

LogicalResult PadOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto in = cast<mo::TensorType>(adaptor.getInput().getType());
  auto value = cast<mo::TensorType>(adaptor.getValue().getType());
  if (value.getRank() != 0 || value.getElementType() != in.getElementType())
    return inferError(loc) << "the padding value must be a 0-d tensor of "
                           << in.getElementType() << ", got " << value;
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh();
  if (static_cast<int64_t>(low.size()) != in.getRank() ||
      static_cast<int64_t>(high.size()) != in.getRank())
    return inferError(loc) << "needs one low and one high padding per dim ("
                           << in.getRank() << ")";
  SmallVector<Attribute> dims(in.getDims());
  for (auto [i, lo, hi] : llvm::enumerate(low, high)) {
    int64_t grow;
    if (lo < 0 || hi < 0)
      return inferError(loc) << "dim " << i
                             << ": paddings must be >= 0, got low " << lo
                             << " high " << hi;
    if (llvm::AddOverflow(lo, hi, grow))
      return inferError(loc) << "dim " << i << ": paddings low " << lo
                             << " and high " << hi << " overflow int64";
    dims[i] = getDimExpr(DimExprKind::Add, dims[i], getStaticDim(ctx, grow));
  }
  return pushInferredType(loc, inferred, ctx, dims, in.getElementType(),
                          in.getDevice());
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

/// `dim + c` for a constant `c` of either sign.
static Attribute addConstant(Attribute dim, int64_t c) {
  MLIRContext *ctx = dim.getContext();
  return c >= 0 ? getDimExpr(DimExprKind::Add, dim, getStaticDim(ctx, c))
                : getDimExpr(DimExprKind::Sub, dim, getStaticDim(ctx, -c));
}

/// Checks a window's attributes against an input of `rank` (2 + spatial
/// dims, 1 to 3 of them); returns the number of spatial dims.
static FailureOr<int64_t> checkWindowAttrs(std::optional<Location> loc,
                                           mo::TensorType input,
                                           ArrayRef<int64_t> strides,
                                           ArrayRef<int64_t> dilations,
                                           ArrayRef<int64_t> paddings) {
  int64_t spatial = input.getRank() - 2;
  if (spatial < 1 || spatial > 3)
    return inferError(loc) << "input must be [N, spatial..., C] with 1 to 3 "
                              "spatial dims, got "
                           << input;
  if (static_cast<int64_t>(strides.size()) != spatial ||
      static_cast<int64_t>(dilations.size()) != spatial ||
      static_cast<int64_t>(paddings.size()) != 2 * spatial)
    return inferError(loc) << "needs " << spatial << " strides, " << spatial
                           << " dilations and " << 2 * spatial
                           << " paddings (low, high per spatial dim), got "
                           << strides.size() << ", " << dilations.size()
                           << " and " << paddings.size();
  for (auto [s, d] : llvm::zip(strides, dilations))
    if (s < 1 || d < 1)
      return inferError(loc) << "strides and dilations must be >= 1";
  if (llvm::any_of(paddings, [](int64_t p) { return p < 0; }))
    return inferError(loc) << "paddings must be >= 0";
  return spatial;
}

/// The number of windows along a spatial dim of size `in` (see MoConv.td),
/// with `kernel` taps `dilation` apart: floor mode, or torch's ceil mode.
static FailureOr<Attribute> windowCount(std::optional<Location> loc, int64_t i,
                                        Attribute in, Attribute kernel,
                                        int64_t stride, int64_t dilation,
                                        int64_t low, int64_t high,
                                        bool ceilMode = false) {
  MLIRContext *ctx = in.getContext();
  Attribute extent = addConstant(
      getDimExpr(DimExprKind::Mul, getStaticDim(ctx, dilation),
                 addConstant(kernel, -1)),
      1);
  if (isStaticDim(in) && isStaticDim(extent)) {
    int64_t size = getStaticDimSize(in), window = getStaticDimSize(extent);
    int64_t padded = size + low + high;
    if (padded < window)
      return inferError(loc) << "spatial dim " << i << ": the window spans "
                             << window << " elements but the padded input has "
                             << padded;
    int64_t span = padded - window;
    int64_t count = (ceilMode ? llvm::divideCeil(span, stride) : span / stride) + 1;
    if (ceilMode && (count - 1) * stride >= size + low)
      --count;
    return getStaticDim(ctx, count);
  }
  if (ceilMode)
    return inferError(loc) << "ceil_mode needs static spatial dims, spatial dim "
                           << i << " is " << formatDims(in);
  // in + low + high - extent, as one constant where the extent is static.
  Attribute span = isStaticDim(extent)
                       ? addConstant(in, low + high - getStaticDimSize(extent))
                       : getDimExpr(DimExprKind::Sub, addConstant(in, low + high),
                                    extent);
  if (stride == 1 && isStaticDim(extent))
    return addConstant(in, low + high - getStaticDimSize(extent) + 1);
  if (stride == 1)
    return addConstant(span, 1);
  return addConstant(
      getDimExpr(DimExprKind::FloorDiv, span, getStaticDim(ctx, stride)), 1);
}

/// Input, filter and window attributes of a convolution (one element type
/// and device, equal ranks); the number of spatial dims.
template <typename Adaptor>
static FailureOr<int64_t> checkConvOperands(std::optional<Location> loc,
                                            Adaptor &adaptor, mo::TensorType input,
                                            mo::TensorType filter) {
  FailureOr<int64_t> spatial =
      checkWindowAttrs(loc, input, adaptor.getStrides(), adaptor.getDilations(),
                       adaptor.getPaddings());
  if (failed(spatial))
    return failure();
  if (input.getElementType() != filter.getElementType() ||
      input.getDevice() != filter.getDevice())
    return inferError(loc) << "input " << input << " and filter " << filter
                           << " must have one element type and device";
  if (filter.getRank() != input.getRank())
    return inferError(loc) << "the filter must be [spatial..., C, F] (rank "
                           << input.getRank() << "), got " << filter;
  return spatial;
}

LogicalResult ConvOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto input = cast<mo::TensorType>(adaptor.getInput().getType());
  auto filter = cast<mo::TensorType>(adaptor.getFilter().getType());
  FailureOr<int64_t> spatial = checkConvOperands(loc, adaptor, input, filter);
  if (failed(spatial))
    return failure();
  ArrayRef<Attribute> in = input.getDims(), f = filter.getDims();
  int64_t groups = adaptor.getNumGroups();
  Attribute channels = in.back(), groupChannels = f[*spatial],
            features = f.back();
  if (groups < 1)
    return inferError(loc) << "num_groups must be >= 1, got " << groups;
  if (groups > 1 && (!isStaticDim(channels) || !isStaticDim(features) ||
                     getStaticDimSize(features) % groups != 0))
    return inferError(loc) << "with " << groups
                           << " groups the channel counts must be static and "
                              "divisible by it, got input channels "
                           << formatDims(channels) << " and filter features "
                           << formatDims(features);
  Attribute expected =
      getDimExpr(DimExprKind::Mul, getStaticDim(ctx, groups), groupChannels);
  if (expected != channels && !isUnknownDim(channels) && !isUnknownDim(expected))
    return inferError(loc) << "the input has " << formatDims(channels)
                           << " channels, but the filter takes "
                           << formatDims(groupChannels) << " per group x "
                           << groups << " groups";
  SmallVector<Attribute> dims{in[0]};
  for (int64_t i = 0; i < *spatial; ++i) {
    FailureOr<Attribute> count = windowCount(
        loc, i, in[i + 1], f[i], adaptor.getStrides()[i],
        adaptor.getDilations()[i], adaptor.getPaddings()[2 * i],
        adaptor.getPaddings()[2 * i + 1]);
    if (failed(count))
      return failure();
    dims.push_back(*count);
  }
  dims.push_back(features);
  return pushInferredType(loc, inferred, ctx, dims, input.getElementType(),
                          input.getDevice());
}

LogicalResult ConvTransposeOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto input = cast<mo::TensorType>(adaptor.getInput().getType());
  auto filter = cast<mo::TensorType>(adaptor.getFilter().getType());
  FailureOr<int64_t> spatial = checkConvOperands(loc, adaptor, input, filter);
  if (failed(spatial))
    return failure();
  ArrayRef<Attribute> in = input.getDims(), f = filter.getDims();
  ArrayRef<int64_t> outputPaddings = adaptor.getOutputPaddings();
  if (static_cast<int64_t>(outputPaddings.size()) != *spatial)
    return inferError(loc) << "needs " << *spatial << " output paddings, got "
                           << outputPaddings.size();
  if (f.back() != in.back() && !isUnknownDim(f.back()) && !isUnknownDim(in.back()))
    return inferError(loc) << "the input has " << formatDims(in.back())
                           << " channels, but the filter [spatial..., F, C] takes "
                           << formatDims(f.back());
  SmallVector<Attribute> dims{in[0]};
  for (int64_t i = 0; i < *spatial; ++i) {
    int64_t stride = adaptor.getStrides()[i], dilation = adaptor.getDilations()[i];
    int64_t low = adaptor.getPaddings()[2 * i], high = adaptor.getPaddings()[2 * i + 1];
    int64_t extra = outputPaddings[i];
    if (!isStaticDim(f[i]) || getStaticDimSize(f[i]) < 1)
      return inferError(loc) << "the filter's spatial dims must be static and "
                                ">= 1, got "
                             << formatDims(f);
    if (extra < 0 || extra >= std::max(stride, dilation))
      return inferError(loc) << "output padding " << extra << " of spatial dim "
                             << i << " must be in [0, max(stride, dilation))";
    // (in - 1) * stride - low - high + dilation * (kernel - 1) + extra + 1.
    int64_t c = -stride - low - high +
                dilation * (getStaticDimSize(f[i]) - 1) + extra + 1;
    if (isStaticDim(in[i + 1]) &&
        (getStaticDimSize(in[i + 1]) < 1 ||
         getStaticDimSize(in[i + 1]) * stride + c < 0))
      return inferError(loc) << "spatial dim " << i << " of size "
                             << formatDims(in[i + 1])
                             << " gives no output with these paddings";
    dims.push_back(addConstant(
        getDimExpr(DimExprKind::Mul, in[i + 1], getStaticDim(ctx, stride)), c));
  }
  dims.push_back(f[*spatial]);
  return pushInferredType(loc, inferred, ctx, dims, input.getElementType(),
                          input.getDevice());
}

/// Result type of a pooling op: the window count per spatial dim.
template <typename PoolOp>
static LogicalResult inferPoolType(MLIRContext *ctx, std::optional<Location> loc,
                                   typename PoolOp::Adaptor adaptor,
                                   SmallVectorImpl<Type> &inferred) {
  auto input = cast<mo::TensorType>(adaptor.getInput().getType());
  FailureOr<int64_t> spatial =
      checkWindowAttrs(loc, input, adaptor.getStrides(), adaptor.getDilations(),
                       adaptor.getPaddings());
  if (failed(spatial))
    return failure();
  ArrayRef<int64_t> kernel = adaptor.getFilterShape();
  if (static_cast<int64_t>(kernel.size()) != *spatial ||
      llvm::any_of(kernel, [](int64_t k) { return k < 1; }))
    return inferError(loc) << "filter_shape needs " << *spatial
                           << " sizes >= 1, got " << kernel.size();
  ArrayRef<Attribute> in = input.getDims();
  SmallVector<Attribute> dims{in[0]};
  for (int64_t i = 0; i < *spatial; ++i) {
    int64_t dilation = adaptor.getDilations()[i];
    int64_t window = dilation * (kernel[i] - 1) + 1;
    int64_t low = adaptor.getPaddings()[2 * i], high = adaptor.getPaddings()[2 * i + 1];
    if (low >= window || high >= window)
      return inferError(loc) << "spatial dim " << i << ": paddings (" << low
                             << ", " << high
                             << ") must be smaller than the window (" << window
                             << ")";
    FailureOr<Attribute> count =
        windowCount(loc, i, in[i + 1], getStaticDim(ctx, kernel[i]),
                    adaptor.getStrides()[i], dilation, low, high,
                    adaptor.getCeilMode());
    if (failed(count))
      return failure();
    dims.push_back(*count);
  }
  dims.push_back(in.back());
  return pushInferredType(loc, inferred, ctx, dims, input.getElementType(),
                          input.getDevice());
}

LogicalResult MaxPoolOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  return inferPoolType<MaxPoolOp>(ctx, loc, Adaptor(operands, attrs, properties, regions),
                                  inferred);
}

LogicalResult AvgPoolOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  return inferPoolType<AvgPoolOp>(ctx, loc, Adaptor(operands, attrs, properties, regions),
                                  inferred);
}

//===----------------------------------------------------------------------===//
// Gathers, scatters, top-k
//===----------------------------------------------------------------------===//

/// `data` and `indices` are on one device.
static LogicalResult checkSameDevice(std::optional<Location> loc,
                                     mo::TensorType data, mo::TensorType indices) {
  if (data.getDevice() != indices.getDevice())
    return inferError(loc) << "indices must be on the input's device";
  return success();
}

/// Two dims that must agree (unknown agrees with anything).
static bool dimsAgree(Attribute a, Attribute b) {
  return a == b || isUnknownDim(a) || isUnknownDim(b);
}

LogicalResult GatherOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto input = cast<mo::TensorType>(adaptor.getInput().getType());
  auto indices = cast<mo::TensorType>(adaptor.getIndices().getType());
  uint64_t axis = adaptor.getAxis();
  if (failed(checkSameDevice(loc, input, indices)))
    return failure();
  if (axis >= static_cast<uint64_t>(input.getRank()))
    return inferError(loc) << "axis " << axis << " is out of range for a rank-"
                           << input.getRank() << " tensor";
  ArrayRef<Attribute> in = input.getDims();
  SmallVector<Attribute> dims(in.take_front(axis));
  llvm::append_range(dims, indices.getDims());
  llvm::append_range(dims, in.drop_front(axis + 1));
  return pushInferredType(loc, inferred, ctx, dims, input.getElementType(),
                          input.getDevice());
}

LogicalResult GatherNdOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto input = cast<mo::TensorType>(adaptor.getInput().getType());
  auto indices = cast<mo::TensorType>(adaptor.getIndices().getType());
  int64_t batch = adaptor.getBatchDims();
  if (failed(checkSameDevice(loc, input, indices)))
    return failure();
  ArrayRef<Attribute> in = input.getDims(), idx = indices.getDims();
  if (idx.empty() || !isStaticDim(idx.back()))
    return inferError(loc) << "indices must be [..., K] with a static K, got "
                           << indices;
  int64_t k = getStaticDimSize(idx.back());
  if (batch < 0 || batch >= indices.getRank() || batch + k > input.getRank())
    return inferError(loc) << "with " << batch << " batch dims, " << k
                           << "-vectors of indices cannot index "
                           << formatDims(in);
  for (int64_t d = 0; d < batch; ++d)
    if (!dimsAgree(in[d], idx[d]))
      return inferError(loc) << "batch dim " << d << " is " << formatDims(in[d])
                             << " in the input but " << formatDims(idx[d])
                             << " in the indices";
  SmallVector<Attribute> dims(idx.drop_back());
  llvm::append_range(dims, in.drop_front(batch + k));
  return pushInferredType(loc, inferred, ctx, dims, input.getElementType(),
                          input.getDevice());
}

/// Input, updates and indices of a scatter: updates of the input's element
/// type, all on one device.
static LogicalResult checkScatterOperands(std::optional<Location> loc,
                                          mo::TensorType input,
                                          mo::TensorType updates,
                                          mo::TensorType indices) {
  if (updates.getElementType() != input.getElementType() ||
      updates.getDevice() != input.getDevice())
    return inferError(loc) << "updates " << updates << " must have the element type "
                           << "and device of the input " << input;
  return checkSameDevice(loc, input, indices);
}

LogicalResult ScatterOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto input = cast<mo::TensorType>(adaptor.getInput().getType());
  auto updates = cast<mo::TensorType>(adaptor.getUpdates().getType());
  auto indices = cast<mo::TensorType>(adaptor.getIndices().getType());
  if (failed(checkScatterOperands(loc, input, updates, indices)))
    return failure();
  uint64_t axis = adaptor.getAxis();
  if (axis >= static_cast<uint64_t>(input.getRank()))
    return inferError(loc) << "axis " << axis << " is out of range for a rank-"
                           << input.getRank() << " tensor";
  if (updates.getRank() != input.getRank() ||
      !llvm::all_of(llvm::zip(updates.getDims(), indices.getDims()),
                    [](auto p) { return dimsAgree(std::get<0>(p), std::get<1>(p)); }) ||
      indices.getRank() != updates.getRank())
    return inferError(loc) << "updates and indices must have one shape of the "
                              "input's rank, got "
                           << updates << " and " << indices;
  for (auto [d, u, i] : llvm::enumerate(updates.getDims(), input.getDims()))
    if (d != axis && isStaticDim(u) && isStaticDim(i) &&
        getStaticDimSize(u) > getStaticDimSize(i))
      return inferError(loc) << "updates dim " << d << " (" << getStaticDimSize(u)
                             << ") is larger than the input's ("
                             << getStaticDimSize(i) << ")";
  inferred.push_back(input);
  return success();
}

LogicalResult ScatterNdOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto input = cast<mo::TensorType>(adaptor.getInput().getType());
  auto updates = cast<mo::TensorType>(adaptor.getUpdates().getType());
  auto indices = cast<mo::TensorType>(adaptor.getIndices().getType());
  if (failed(checkScatterOperands(loc, input, updates, indices)))
    return failure();
  ArrayRef<Attribute> idx = indices.getDims();
  if (idx.empty() || !isStaticDim(idx.back()) ||
      getStaticDimSize(idx.back()) > input.getRank())
    return inferError(loc) << "indices must be [..., K] with a static K <= "
                           << input.getRank() << ", got " << indices;
  int64_t k = getStaticDimSize(idx.back());
  SmallVector<Attribute> expected(idx.drop_back());
  llvm::append_range(expected, input.getDims().drop_front(k));
  if (updates.getRank() != static_cast<int64_t>(expected.size()) ||
      !llvm::all_of(llvm::zip(updates.getDims(), expected),
                    [](auto p) { return dimsAgree(std::get<0>(p), std::get<1>(p)); }))
    return inferError(loc) << "updates must be " << formatDims(expected)
                           << " (indices' leading dims, then the input's after "
                           << k << "), got " << formatDims(updates.getDims());
  inferred.push_back(input);
  return success();
}

LogicalResult TopKOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto input = cast<mo::TensorType>(adaptor.getInput().getType());
  int64_t k = adaptor.getK();
  if (input.getRank() == 0)
    return inferError(loc) << "top_k needs a rank >= 1 input";
  Attribute last = input.getDims().back();
  if (!isStaticDim(last) || k < 0 || k > getStaticDimSize(last))
    return inferError(loc) << "k = " << k
                           << " must be in [0, the last dim], a static size, got "
                           << formatDims(last);
  SmallVector<Attribute> dims(input.getDims());
  dims.back() = getStaticDim(ctx, k);
  if (failed(pushInferredType(loc, inferred, ctx, dims, input.getElementType(),
                              input.getDevice())))
    return failure();
  auto si64 = IntegerType::get(ctx, 64, IntegerType::Signed);
  return pushInferredType(loc, inferred, ctx, dims, si64, input.getDevice());
}

//===----------------------------------------------------------------------===//
// RangeOp, ShapeToTensorOp, RebindOp
//===----------------------------------------------------------------------===//

LogicalResult RangeOp::verify() {
  auto start = cast<mo::TensorType>(getStart().getType());
  auto step = cast<mo::TensorType>(getStep().getType());
  auto result = cast<mo::TensorType>(getType());
  if (start.getRank() != 0 || step != start)
    return emitOpError("start and step must be 0-d tensors of one type, got ")
           << start << " and " << step;
  if (result.getRank() != 1 || result.getElementType() != start.getElementType() ||
      result.getDevice() != start.getDevice())
    return emitOpError("result must be a rank-1 tensor of ")
           << start.getElementType() << ", got " << result;
  return success();
}

ParseResult ShapeToTensorOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<Attribute> dims;
  Type type;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       FailureOr<Attribute> dim = parseDim(parser);
                                       if (failed(dim))
                                         return failure();
                                       dims.push_back(*dim);
                                       return success();
                                     }) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColonType(type))
    return failure();
  result.addAttribute("dims", parser.getBuilder().getArrayAttr(dims));
  result.addTypes(type);
  return success();
}

void ShapeToTensorOp::print(OpAsmPrinter &p) {
  p << " " << formatDims(getDims().getValue());
  p.printOptionalAttrDict((*this)->getAttrs(), {"dims"});
  p << " : " << getType();
}

LogicalResult ShapeToTensorOp::verify() {
  for (Attribute dim : getDims())
    if (failed(verifyDim([&] { return emitOpError(); }, dim)))
      return failure();
  auto result = cast<mo::TensorType>(getType());
  MLIRContext *ctx = getContext();
  if (result.getRank() != 1 ||
      result.getDims()[0] != getStaticDim(ctx, getDims().size()) ||
      result.getElementType() != IntegerType::get(ctx, 64, IntegerType::Signed))
    return emitOpError("result must be !mo.tensor<[")
           << getDims().size() << "], si64>, got " << result;
  return success();
}

OpFoldResult RebindOp::fold(FoldAdaptor) { return foldNoOpConversion(*this); }

LogicalResult RebindOp::verify() {
  auto in = cast<mo::TensorType>(getInput().getType());
  auto out = cast<mo::TensorType>(getType());
  if (failed(verifyKeepsElementAndDevice(*this, in, out)))
    return failure();
  if (in.getRank() != out.getRank())
    return emitOpError("keeps the rank: ") << in << " -> " << out;
  for (auto [i, a, b] : llvm::enumerate(in.getDims(), out.getDims()))
    if (isStaticDim(a) && isStaticDim(b) && !isUnknownDim(a) && !isUnknownDim(b) &&
        a != b)
      return emitOpError("dim ") << i << " is " << formatDims(a)
                                 << ", which can never be " << formatDims(b);
  return success();
}

LogicalResult RandomOp::verify() {
  MLIRContext *ctx = getContext();
  auto si64 = mo::TensorType::get(ctx, {}, IntegerType::get(ctx, 64, IntegerType::Signed),
                                  cast<mo::TensorType>(getType()).getDevice());
  if (getSeed().getType() != si64 || getCounter().getType() != si64)
    return emitOpError("seed and counter must be ") << si64 << ", got "
                                                    << getSeed().getType() << " and "
                                                    << getCounter().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// IfOp, WhileOp
//===----------------------------------------------------------------------===//

/// The terminator of a region's single block as a mo.yield.
static YieldOp yieldOf(Region &region) {
  Block &block = region.front();
  return block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
}

/// `region` yields values of `types` (`what` names it in the message).
static LogicalResult verifyYield(Operation *op, Region &region, TypeRange types,
                                 StringRef what) {
  YieldOp yield = yieldOf(region);
  if (!yield)
    return op->emitOpError() << what << " must end in mo.yield";
  auto text = [](TypeRange ts) {
    std::string s = ts.empty() ? "nothing" : "";
    llvm::raw_string_ostream os(s);
    llvm::interleaveComma(ts, os);
    return s;
  };
  if (yield.getValues().getTypes() != types)
    return op->emitOpError() << what << " yields " << text(yield.getValues().getTypes())
                             << ", but " << text(types) << " is expected";
  return success();
}

LogicalResult IfOp::verify() {
  if (cast<mo::TensorType>(getCondition().getType()).getRank() != 0)
    return emitOpError("condition must be a 0-d bool tensor, got ")
           << getCondition().getType();
  if (failed(verifyYield(*this, getThenRegion(), getResultTypes(), "the then region")) ||
      failed(verifyYield(*this, getElseRegion(), getResultTypes(), "the else region")))
    return failure();
  return success();
}

LogicalResult WhileOp::verify() {
  TypeRange types = getInits().getTypes();
  if (getResultTypes() != types)
    return emitOpError("results ") << getResultTypes()
                                   << " must have the carried values' types " << types;
  for (Region *region : {&getCondRegion(), &getBodyRegion()})
    if (region->front().getArgumentTypes() != types)
      return emitOpError("region arguments ") << region->front().getArgumentTypes()
                                              << " must be the carried values' types "
                                              << types;
  MLIRContext *ctx = getContext();
  auto pred = mo::TensorType::get(ctx, {}, IntegerType::get(ctx, 1));
  if (failed(verifyYield(*this, getCondRegion(), pred, "the condition region")) ||
      failed(verifyYield(*this, getBodyRegion(), types, "the body")))
    return failure();
  return success();
}

ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  FunctionType type;
  if (parser.parseLParen())
    return failure();
  if (failed(parser.parseOptionalRParen())) {
    do {
      OpAsmParser::Argument arg;
      OpAsmParser::UnresolvedOperand init;
      if (parser.parseArgument(arg) || parser.parseEqual() || parser.parseOperand(init))
        return failure();
      args.push_back(arg);
      inits.push_back(init);
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRParen())
      return failure();
  }
  if (parser.parseColonType(type) ||
      parser.resolveOperands(inits, type.getInputs(), parser.getNameLoc(), result.operands))
    return failure();
  result.addTypes(type.getResults());
  for (auto [arg, t] : llvm::zip(args, type.getInputs()))
    arg.type = t;
  Region *cond = result.addRegion(), *body = result.addRegion();
  if (parser.parseRegion(*cond, args) || parser.parseKeyword("do"))
    return failure();
  // The body's arguments: the same names and types, as a second region.
  SmallVector<OpAsmParser::Argument> bodyArgs;
  if (parser.parseArgumentList(bodyArgs, AsmParser::Delimiter::OptionalParen, true) ||
      parser.parseRegion(*body, bodyArgs) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  return success();
}

void WhileOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(llvm::zip(getCondRegion().getArguments(), getInits()), p,
                        [&](auto pair) {
                          p << std::get<0>(pair) << " = " << std::get<1>(pair);
                        });
  p << ") : ";
  p.printFunctionalType(getInits().getTypes(), getResultTypes());
  p << " ";
  p.printRegion(getCondRegion(), /*printEntryBlockArgs=*/false);
  p << " do (";
  llvm::interleaveComma(getBodyRegion().getArguments(), p, [&](BlockArgument arg) {
    p.printRegionArgument(arg);
  });
  p << ") ";
  p.printRegion(getBodyRegion(), /*printEntryBlockArgs=*/false);
  p.printOptionalAttrDict((*this)->getAttrs());
}

//===----------------------------------------------------------------------===//
// CustomOp, InplaceCustomOp
//===----------------------------------------------------------------------===//

/// Operands are mo tensors or buffers; parameters integers, floats or bools.
static LogicalResult verifyCustom(Operation *op, ValueRange inputs,
                                  DictionaryAttr parameters, StringRef symbol) {
  if (symbol.empty())
    return op->emitOpError("needs a kernel name");
  for (auto [i, v] : llvm::enumerate(inputs))
    if (!isa<mo::TensorType, BufferType>(v.getType()))
      return op->emitOpError("operand ") << i << " must be a mo tensor or buffer, got "
                                         << v.getType();
  for (NamedAttribute p : parameters)
    if (!isa<IntegerAttr, FloatAttr, BoolAttr>(p.getValue()))
      return op->emitOpError("parameter '")
             << p.getName().getValue() << "' must be an integer, float or bool, got "
             << p.getValue();
  return success();
}

LogicalResult CustomOp::verify() {
  return verifyCustom(*this, getInputs(), getParameters(), getSymbol());
}

LogicalResult InplaceCustomOp::verify() {
  return verifyCustom(*this, getInputs(), getParameters(), getSymbol());
}

LogicalResult RoiAlignOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, properties, regions);
  auto input = cast<mo::TensorType>(adaptor.getInput().getType());
  auto rois = cast<mo::TensorType>(adaptor.getRois().getType());
  if (input.getRank() != 4)
    return inferError(loc) << "input must be [N, H, W, C], got " << input;
  if (rois.getRank() != 2 || !dimsAgree(rois.getDims()[1], getStaticDim(ctx, 5)) ||
      rois.getElementType() != input.getElementType() ||
      rois.getDevice() != input.getDevice())
    return inferError(loc) << "rois must be [M, 5] of the input's element type and device, got "
                           << rois;
  if (adaptor.getOutputHeight() < 1 || adaptor.getOutputWidth() < 1 ||
      adaptor.getSamplingRatio() < 0)
    return inferError(loc) << "output sizes must be >= 1 and the sampling ratio >= 0";
  StringRef mode = adaptor.getMode();
  if (mode != "avg" && mode != "max")
    return inferError(loc) << "mode must be \"avg\" or \"max\", got \"" << mode << "\"";
  SmallVector<Attribute> dims{rois.getDims()[0], getStaticDim(ctx, adaptor.getOutputHeight()),
                              getStaticDim(ctx, adaptor.getOutputWidth()),
                              input.getDims()[3]};
  return pushInferredType(loc, inferred, ctx, dims, input.getElementType(),
                          input.getDevice());
}

/// The result of an op binding its first dim: `[k, columns]` si64.
static LogicalResult verifyBoundResult(Operation *op, mo::TensorType out,
                                       int64_t columns, mo::DeviceAttr device) {
  MLIRContext *ctx = op->getContext();
  if (out.getRank() != 2 || !isSymbolicDim(out.getDims()[0]) ||
      out.getDims()[1] != getStaticDim(ctx, columns) ||
      out.getElementType() != IntegerType::get(ctx, 64, IntegerType::Signed) ||
      out.getDevice() != device)
    return op->emitOpError("result must be !mo.tensor<[k, ")
           << columns << "], si64> with k a symbolic dim it binds, got " << out;
  return success();
}

LogicalResult NonMaxSuppressionOp::verify() {
  auto boxes = cast<mo::TensorType>(getBoxes().getType());
  auto scores = cast<mo::TensorType>(getScores().getType());
  ArrayRef<Attribute> b = boxes.getDims(), s = scores.getDims();
  if (boxes.getRank() != 3 || scores.getRank() != 3 ||
      !dimsAgree(b[2], getStaticDim(getContext(), 4)) || !dimsAgree(b[0], s[0]) ||
      !dimsAgree(b[1], s[2]) || boxes.getElementType() != scores.getElementType())
    return emitOpError("boxes must be [B, N, 4] and scores [B, C, N] of one float type, got ")
           << boxes << " and " << scores;
  for (Value v : {getMaxOutputBoxesPerClass(), getIouThreshold(), getScoreThreshold()})
    if (cast<mo::TensorType>(v.getType()).getRank() != 0)
      return emitOpError("the limit and thresholds must be 0-d tensors, got ") << v.getType();
  return verifyBoundResult(*this, cast<mo::TensorType>(getType()), 3, boxes.getDevice());
}

LogicalResult NonzeroOp::verify() {
  auto in = cast<mo::TensorType>(getInput().getType());
  if (failed(verifyBoundResult(*this, cast<mo::TensorType>(getType()), in.getRank(),
                               in.getDevice())))
    return failure();
  llvm::SetVector<StringAttr> used;
  for (Attribute dim : in.getDims())
    collectDimSymbols(dim, used);
  if (used.contains(getBoundDim()))
    return emitOpError("binds dim '") << getBoundDim().getValue()
                                      << "', which its input already uses";
  return success();
}
