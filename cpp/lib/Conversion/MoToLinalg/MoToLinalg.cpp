//===- MoToLinalg.cpp - mo graphs to func/linalg/tensor/arith/math --------===//
//
// A translation over each graph, in program order (lowering is a separate
// interpreter over the IR): every mo op maps to upstream ops on builtin
// tensors, with symbolic dims turned into `index` values computed once from
// the function's arguments.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/Passes.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOLOWERTOLINALG
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;
using namespace mlir::mo;

namespace {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Builtin element type: signed/unsigned integers become signless.
Type convertElementType(Type type) {
  if (auto i = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), i.getWidth());
  return type;
}

Type convertType(Type type) {
  if (auto t = dyn_cast<mo::TensorType>(type))
    return RankedTensorType::get(t.getStaticShape(),
                                 convertElementType(t.getElementType()));
  if (auto b = dyn_cast<BufferType>(type))
    return MemRefType::get(b.getStaticShape(),
                           convertElementType(b.getElementType()));
  if (isa<ChainType>(type)) // Chains only order effects: a dummy i1.
    return IntegerType::get(type.getContext(), 1);
  return type;
}

MemRefType outParamType(mo::TensorType type) {
  return MemRefType::get(type.getStaticShape(),
                         convertElementType(type.getElementType()));
}

/// `out += lhs * rhs` over the loops the maps and iterators describe. Inputs
/// narrower than the accumulator (f16/bf16 into f32) are extended first.
Value contraction(OpBuilder &b, Location loc, Type resultType, Value lhs,
                  Value rhs, Value init, ArrayRef<AffineMap> maps,
                  ArrayRef<utils::IteratorType> iterators) {
  Type acc = cast<ShapedType>(resultType).getElementType();
  bool isFloat = isa<FloatType>(acc);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{lhs, rhs},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value x = args[0], y = args[1];
               if (x.getType() != acc) {
                 x = arith::ExtFOp::create(nb, l, acc, x);
                 y = arith::ExtFOp::create(nb, l, acc, y);
               }
               Value p = isFloat ? Value(arith::MulFOp::create(nb, l, x, y))
                                 : Value(arith::MulIOp::create(nb, l, x, y));
               Value s = isFloat
                             ? Value(arith::AddFOp::create(nb, l, args[2], p))
                             : Value(arith::AddIOp::create(nb, l, args[2], p));
               linalg::YieldOp::create(nb, l, s);
             })
      .getResult(0);
}

/// `source` with its elements truncated to `element` (f32 -> f16/bf16).
Value truncateElements(OpBuilder &b, Location loc, Value source, Type element) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(tensor::DimOp::create(b, loc, source, i));
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), element, sizes);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{source},
             ValueRange{init}, {id, id},
             SmallVector<utils::IteratorType>(type.getRank(),
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   nb, l, Value(arith::TruncFOp::create(nb, l, element, args[0])));
             })
      .getResult(0);
}

/// The (offsets, sizes, strides) of a strided window whose shape is `dims`;
/// non-static sizes are read from `sizeSource`.
void windowSlices(OpBuilder &b, Location loc, ArrayRef<int64_t> starts,
                  ArrayRef<int64_t> steps, ArrayRef<Attribute> dims,
                  Value sizeSource, SmallVectorImpl<OpFoldResult> &offsets,
                  SmallVectorImpl<OpFoldResult> &sizes,
                  SmallVectorImpl<OpFoldResult> &strides) {
  for (auto [i, start, step, dim] : llvm::enumerate(starts, steps, dims)) {
    offsets.push_back(b.getIndexAttr(start));
    strides.push_back(b.getIndexAttr(step));
    if (isStaticDim(dim))
      sizes.push_back(b.getIndexAttr(getStaticDimSize(dim)));
    else
      sizes.push_back(tensor::getMixedSize(b, loc, sizeSource, i));
  }
}

//===----------------------------------------------------------------------===//
// GGUF dequantization of one element, op for op as ggml's dequantize_row_*
//===----------------------------------------------------------------------===//

class Dequantizer {
public:
  /// `rows` is the quantized tensor (i8 elements), `row` its leading indices.
  Dequantizer(OpBuilder &b, Location loc, Value rows, ValueRange row,
              QuantEncoding encoding)
      : b(b), loc(loc), rows(rows), row(row.begin(), row.end()),
        encoding(encoding) {}

  /// The f32 value of element `k` of the row.
  Value at(Value k) {
    BlockLayout layout = getBlockLayout(encoding);
    Value block = arith::DivUIOp::create(b, loc, k, idx(layout.elements));
    Value j = arith::RemUIOp::create(b, loc, k, idx(layout.elements));
    Value base = arith::MulIOp::create(b, loc, block, idx(layout.bytes));
    switch (encoding) {
    case QuantEncoding::Q4_0:
      return q4_0(base, j);
    case QuantEncoding::Q4_K:
    case QuantEncoding::Q5_K:
      return k4k5(base, j);
    case QuantEncoding::Q6_K:
      return q6_k(base, j);
    }
    llvm_unreachable("unknown encoding");
  }

private:
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value divu(Value x, int64_t y) { return arith::DivUIOp::create(b, loc, x, idx(y)); }
  Value remu(Value x, int64_t y) { return arith::RemUIOp::create(b, loc, x, idx(y)); }
  Value shr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value band(Value x, int64_t m) { return arith::AndIOp::create(b, loc, x, i32(m)); }
  Value toI32(Value index) {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
  }
  Value rawByte(Value offset) {
    SmallVector<Value> indices(row);
    indices.push_back(offset);
    return tensor::ExtractOp::create(b, loc, rows, indices);
  }
  /// The byte at `offset` of the row, zero-extended to i32.
  Value byte(Value offset) {
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), rawByte(offset));
  }
  /// The little-endian f16 at `offset`, as f32.
  Value half(Value offset) {
    Value lo = byte(offset);
    Value hi = byte(add(offset, idx(1)));
    Value bits = arith::OrIOp::create(b, loc, lo, shl(hi, i32(8)));
    Value i16 = arith::TruncIOp::create(b, loc, b.getI16Type(), bits);
    Value f16 = arith::BitcastOp::create(b, loc, b.getF16Type(), i16);
    return arith::ExtFOp::create(b, loc, b.getF32Type(), f16);
  }
  Value toF32(Value i, bool isSigned) {
    if (isSigned)
      return arith::SIToFPOp::create(b, loc, b.getF32Type(), i);
    return arith::UIToFPOp::create(b, loc, b.getF32Type(), i);
  }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }

  // 32 values: f16 d, then 16 bytes of nibbles (low: 0..15, high: 16..31).
  Value q4_0(Value base, Value j) {
    Value d = half(base);
    Value qb = byte(add(add(base, idx(2)), remu(j, 16)));
    Value q = band(shr(qb, toI32(mul(divu(j, 16), idx(4)))), 15);
    Value centered = arith::SubIOp::create(b, loc, q, i32(8));
    return fmul(toF32(centered, true), d);
  }

  // Q4_K / Q5_K: f16 d, f16 dmin, 12 bytes of 6-bit scales and mins for the
  // 8 sub-blocks, [Q5_K: 32 bytes of high bits], 128 bytes of nibbles.
  Value k4k5(Value base, Value j) {
    bool five = encoding == QuantEncoding::Q5_K;
    Value d = half(base), dmin = half(add(base, idx(2)));
    Value chunk = divu(j, 64), upper = divu(remu(j, 64), 32), l = remu(j, 32);
    Value qs = add(base, idx(five ? 48 : 16));
    Value qb = byte(add(add(qs, mul(chunk, idx(32))), l));
    Value q = band(shr(qb, toI32(mul(upper, idx(4)))), 15);
    if (five) {
      Value qh = byte(add(add(base, idx(16)), l));
      Value shift = toI32(add(mul(chunk, idx(2)), upper));
      Value bit = band(shr(qh, shift), 1);
      q = add(q, shl(bit, i32(4)));
    }
    // get_scale_min_k4(is, scales).
    Value is = add(mul(chunk, idx(2)), upper);
    Value scales = add(base, idx(4));
    Value low = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, is,
                                      idx(4));
    Value a = byte(add(scales, is)), bb = byte(add(add(scales, is), idx(4)));
    Value back = arith::SelectOp::create(
        b, loc, low, is, arith::SubIOp::create(b, loc, is, idx(4)));
    Value c = byte(add(scales, back));
    Value six = i32(6), four = i32(4);
    Value scHigh = arith::OrIOp::create(b, loc, band(bb, 15),
                                        shl(shr(c, six), four));
    Value mHigh = arith::OrIOp::create(b, loc, shr(bb, four),
                                       shl(shr(a, six), four));
    Value sc = arith::SelectOp::create(b, loc, low, band(a, 63), scHigh);
    Value m = arith::SelectOp::create(b, loc, low, band(bb, 63), mHigh);
    Value d1 = fmul(d, toF32(sc, false)), m1 = fmul(dmin, toF32(m, false));
    return arith::SubFOp::create(b, loc, fmul(d1, toF32(q, false)), m1);
  }

  // 256 values: 128 bytes of low nibbles, 64 bytes of 2-bit highs, 16 int8
  // scales, f16 d.
  Value q6_k(Value base, Value j) {
    Value half128 = divu(j, 128), t = remu(j, 128);
    Value g = divu(t, 32), l = remu(t, 32);
    Value ql = byte(add(add(base, mul(half128, idx(64))),
                        add(l, mul(remu(g, 2), idx(32)))));
    Value nib = band(shr(ql, toI32(mul(divu(g, 2), idx(4)))), 15);
    Value qh = byte(add(add(base, idx(128)), add(mul(half128, idx(32)), l)));
    Value hbits = band(shr(qh, toI32(mul(g, idx(2)))), 3);
    Value q = arith::SubIOp::create(
        b, loc, arith::OrIOp::create(b, loc, nib, shl(hbits, i32(4))), i32(32));
    Value scOffset = add(add(base, idx(192)),
                         add(mul(half128, idx(8)), add(divu(l, 16), mul(g, idx(2)))));
    Value sc = arith::ExtSIOp::create(b, loc, b.getI32Type(), rawByte(scOffset));
    Value d = half(add(base, idx(208)));
    return fmul(fmul(d, toF32(sc, true)), toF32(q, true));
  }

  OpBuilder &b;
  Location loc;
  Value rows;
  SmallVector<Value> row;
  QuantEncoding encoding;
};

//===----------------------------------------------------------------------===//
// The translation
//===----------------------------------------------------------------------===//

/// A weight read by a graph (directly or through calls), by its local name.
struct Weight {
  StringAttr name;
  mo::TensorType type;
  /// Relative to the calling `mo.call`'s prefix (else an absolute name).
  bool isPlaceholder;
};

class GraphLowering {
public:
  explicit GraphLowering(ModuleOp module) : module(module), b(module) {}

  LogicalResult run() {
    SmallVector<GraphOp> graphs(module.getOps<GraphOp>());
    for (GraphOp g : graphs)
      graphByName[g.getSymNameAttr()] = g;
    for (GraphOp g : graphs)
      if (failed(collectWeights(g)))
        return failure();
    for (GraphOp g : graphs)
      if (failed(lowerGraph(g)))
        return failure();
    for (GraphOp g : graphs)
      g.erase();
    return success();
  }

private:
  //===--- Weights ------------------------------------------------------===//

  /// The caller-side name of a weight the callee of `call` reads.
  StringAttr resolve(CallOp call, const Weight &w) {
    if (!w.isPlaceholder)
      return w.name;
    return b.getStringAttr(call.getPrefixOrEmpty() + w.name.getValue());
  }

  LogicalResult collectWeights(GraphOp graph) {
    if (weights.count(graph.getSymNameAttr()))
      return success();
    if (!visiting.insert(graph).second)
      return graph.emitOpError("calls itself (recursion is not supported)");
    SmallVector<Weight> list;
    llvm::StringMap<size_t> index;
    auto add = [&](Operation *at, StringAttr name, mo::TensorType type,
                   bool isPlaceholder) -> LogicalResult {
      auto [it, inserted] = index.try_emplace(name.getValue(), list.size());
      if (inserted)
        list.push_back({name, type, isPlaceholder});
      else if (list[it->second].isPlaceholder != isPlaceholder)
        return at->emitOpError("reads weight '")
               << name.getValue()
               << "' both as a placeholder and as an absolute name";
      else if (list[it->second].type != type)
        return at->emitOpError("reads weight '")
               << name.getValue() << "' as " << type << " but also as "
               << list[it->second].type;
      return success();
    };
    WalkResult walk = graph.walk([&](Operation *op) {
      if (auto w = dyn_cast<ConstantExternalOp>(op))
        return failed(add(op, w.getNameAttr(),
                          cast<mo::TensorType>(w.getType()),
                          w.getIsPlaceholder()))
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      if (auto call = dyn_cast<CallOp>(op)) {
        GraphOp callee = graphByName.lookup(call.getCalleeAttr().getAttr());
        if (!callee || failed(collectWeights(callee)))
          return WalkResult::interrupt();
        for (const Weight &w : weights[callee.getSymNameAttr()])
          if (failed(add(op, resolve(call, w), w.type, w.isPlaceholder)))
            return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    visiting.erase(graph);
    if (walk.wasInterrupted())
      return failure();
    weights[graph.getSymNameAttr()] = std::move(list);
    return success();
  }

  //===--- Dims ---------------------------------------------------------===//

  /// An `index` value for `dim`; `hints` are (value, axis) pairs whose size
  /// is known to equal it.
  FailureOr<Value> materializeDim(Location loc, Attribute dim,
                                  ArrayRef<std::pair<Value, int64_t>> hints) {
    if (!isStaticDim(dim) && !hints.empty())
      return dimOf(loc, hints.front().first, hints.front().second);
    return mo::materializeDim(b, loc, dim, symbolSizes);
  }

  Value dimOf(Location loc, Value value, int64_t axis) {
    if (isa<MemRefType>(value.getType()))
      return memref::DimOp::create(b, loc, value, axis);
    return tensor::DimOp::create(b, loc, value, axis);
  }

  /// tensor.empty of the converted `type` (or of `element`), sized from
  /// `hints` per result dim.
  FailureOr<Value>
  emptyTensor(Location loc, mo::TensorType type,
              ArrayRef<SmallVector<std::pair<Value, int64_t>>> hints,
              Type element = {}) {
    SmallVector<Value> dynamic;
    for (auto [i, dim] : llvm::enumerate(type.getDims())) {
      if (isStaticDim(dim))
        continue;
      FailureOr<Value> size = materializeDim(loc, dim, hints[i]);
      if (failed(size))
        return failure();
      dynamic.push_back(*size);
    }
    return Value(tensor::EmptyOp::create(
        b, loc, type.getStaticShape(),
        element ? element : convertElementType(type.getElementType()), dynamic));
  }

  //===--- Ops ----------------------------------------------------------===//

  /// Indexing exprs of an operand with `dims` broadcast numpy-style (aligned
  /// right, static size-1 dims stretched) to the loops of `resultDims`;
  /// records `value` as a size hint where a dim equals the result's.
  SmallVector<AffineExpr>
  broadcastExprs(ArrayRef<Attribute> dims, ArrayRef<Attribute> resultDims,
                 Value value,
                 MutableArrayRef<SmallVector<std::pair<Value, int64_t>>> hints) {
    SmallVector<AffineExpr> exprs;
    int64_t offset = resultDims.size() - dims.size();
    for (auto [i, dim] : llvm::enumerate(dims)) {
      Attribute resultDim = resultDims[i + offset];
      if (getStaticDimSize(dim) == 1 && getStaticDimSize(resultDim) != 1) {
        exprs.push_back(b.getAffineConstantExpr(0));
        continue;
      }
      exprs.push_back(b.getAffineDimExpr(i + offset));
      if (dim == resultDim)
        hints[i + offset].push_back({value, static_cast<int64_t>(i)});
    }
    return exprs;
  }

  /// linalg.generic over the result's index space; operands broadcast
  /// numpy-style (aligned right, static size-1 dims stretched).
  LogicalResult lowerElementwise(Operation *op) {
    Location loc = op->getLoc();
    auto resultType = cast<mo::TensorType>(op->getResult(0).getType());
    int64_t rank = resultType.getRank();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<SmallVector<std::pair<Value, int64_t>>> hints(rank);
    for (Value operand : op->getOperands()) {
      auto type = cast<mo::TensorType>(operand.getType());
      Value input = mapping.lookup(operand);
      SmallVector<AffineExpr> exprs =
          broadcastExprs(type.getDims(), resultType.getDims(), input, hints);
      inputs.push_back(input);
      maps.push_back(AffineMap::get(rank, 0, exprs, b.getContext()));
    }
    maps.push_back(b.getMultiDimIdentityMap(rank));
    FailureOr<Value> init = emptyTensor(loc, resultType, hints);
    if (failed(init))
      return failure();
    Type moElement =
        cast<mo::TensorType>(op->getOperand(0).getType()).getElementType();
    auto elementwise = cast<ElementwiseOpInterface>(op);
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{convertType(resultType)}, inputs, ValueRange{*init},
        maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
          linalg::YieldOp::create(
              nested, nestedLoc,
              elementwise.buildScalar(nested, nestedLoc, args.drop_back(),
                                      moElement));
        });
    mapping.map(op->getResult(0), generic.getResult(0));
    return success();
  }

  LogicalResult lowerMatmul(MatmulOp op) {
    Location loc = op.getLoc();
    auto lhsType = cast<mo::TensorType>(op.getLhs().getType());
    auto rhsType = cast<mo::TensorType>(op.getRhs().getType());
    auto resultType = cast<mo::TensorType>(op.getType());
    Value lhs = mapping.lookup(op.getLhs()), rhs = mapping.lookup(op.getRhs());
    int64_t rank = resultType.getRank(), batch = rank - 2;
    SmallVector<SmallVector<std::pair<Value, int64_t>>> hints(rank);
    hints[rank - 2].push_back({lhs, lhsType.getRank() - 2});
    hints[rank - 1].push_back({rhs, rhsType.getRank() - 1});
    // Batch dims are loops 0..batch-1.
    auto operandMap = [&](mo::TensorType type, Value value, AffineExpr row,
                          AffineExpr col) {
      SmallVector<AffineExpr> exprs =
          broadcastExprs(type.getDims().drop_back(2),
                         resultType.getDims().drop_back(2), value, hints);
      exprs.push_back(row);
      exprs.push_back(col);
      return AffineMap::get(rank + 1, 0, exprs, b.getContext());
    };
    // Loops batch..., m, k, n: the innermost loop walks rows of rhs and of
    // the result contiguously, which LLVM vectorizes.
    AffineExpr m = b.getAffineDimExpr(batch), k = b.getAffineDimExpr(batch + 1),
               n = b.getAffineDimExpr(batch + 2);
    AffineMap lhsMap = operandMap(lhsType, lhs, m, k);
    AffineMap rhsMap = operandMap(rhsType, rhs, k, n);
    // f16/bf16 products accumulate in f32, as numpy and torch do.
    Type element = convertElementType(resultType.getElementType());
    bool narrow = isa<Float16Type, BFloat16Type>(element);
    Type accElement = narrow ? b.getF32Type() : element;
    FailureOr<Value> empty = emptyTensor(loc, resultType, hints, accElement);
    if (failed(empty))
      return failure();
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accElement));
    Value init =
        linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{*empty})
            .getResult(0);
    Type resultTensor = empty->getType();
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < batch; ++i)
      outExprs.push_back(b.getAffineDimExpr(i));
    outExprs.append({m, n});
    SmallVector<utils::IteratorType> iterators(rank + 1,
                                               utils::IteratorType::parallel);
    iterators[batch + 1] = utils::IteratorType::reduction;
    Value product = contraction(
        b, loc, resultTensor, lhs, rhs, init,
        {lhsMap, rhsMap, AffineMap::get(rank + 1, 0, outExprs, b.getContext())},
        iterators);
    mapping.map(op, narrow ? truncateElements(b, loc, product, element) : product);
    return success();
  }

  /// Every element of the f32 result dequantized from its row and index.
  LogicalResult lowerDequantize(DequantizeOp op) {
    Location loc = op.getLoc();
    auto type = cast<mo::TensorType>(op.getType());
    int64_t rank = type.getRank();
    Value rows = mapping.lookup(op.getInput());
    SmallVector<SmallVector<std::pair<Value, int64_t>>> hints(rank);
    for (int64_t i = 0; i + 1 < rank; ++i)
      hints[i].push_back({rows, i});
    FailureOr<Value> init = emptyTensor(loc, type, hints);
    if (failed(init))
      return failure();
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{convertType(type)}, ValueRange{}, ValueRange{*init},
        {b.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange) {
          SmallVector<Value> indices;
          for (int64_t i = 0; i < rank; ++i)
            indices.push_back(linalg::IndexOp::create(nb, l, i));
          Dequantizer dq(nb, l, rows, ArrayRef(indices).drop_back(),
                         op.getEncoding());
          linalg::YieldOp::create(nb, l, dq.at(indices.back()));
        });
    mapping.map(op, generic.getResult(0));
    return success();
  }

  /// An scf.for over tiles of the last dim of `init` ([n0, n0 + tile), the
  /// last tile shorter): `body` returns the new value of the tile's slice of
  /// the accumulator, which the loop inserts back.
  Value forEachColumnTile(
      Location loc, Value init, Value n, int64_t tileSize,
      function_ref<Value(OpBuilder &, Location, Value, Value, Value)> body) {
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value cTile = arith::ConstantIndexOp::create(b, loc, tileSize);
    int64_t rank = cast<RankedTensorType>(init.getType()).getRank();
    auto loop = scf::ForOp::create(
        b, loc, c0, n, cTile, ValueRange{init},
        [&](OpBuilder &lb, Location l, Value n0, ValueRange iterArgs) {
          Value acc = iterArgs[0];
          Value tile = arith::MinSIOp::create(
              lb, l, arith::SubIOp::create(lb, l, n, n0), cTile);
          SmallVector<OpFoldResult> offsets(rank, lb.getIndexAttr(0)), sizes,
              strides(rank, lb.getIndexAttr(1));
          offsets.back() = n0;
          for (int64_t i = 0; i < rank - 1; ++i)
            sizes.push_back(tensor::getMixedSize(lb, l, acc, i));
          sizes.push_back(tile);
          Value slice =
              tensor::ExtractSliceOp::create(lb, l, acc, offsets, sizes, strides);
          Value updated = body(lb, l, n0, tile, slice);
          scf::YieldOp::create(lb, l,
                               Value(tensor::InsertSliceOp::create(
                                   lb, l, updated, acc, offsets, sizes, strides)));
        });
    return loop.getResult(0);
  }

  /// A matmul over tiles of the weight: each tile of rows is dequantized
  /// into a small [K, tile] scratch (never the whole float32 matrix) and
  /// multiplied with the innermost loop running along contiguous rows.
  LogicalResult lowerQMatmul(QMatmulOp op) {
    constexpr int64_t kTile = 128;
    Location loc = op.getLoc();
    auto resultType = cast<mo::TensorType>(op.getType());
    Value lhs = mapping.lookup(op.getLhs()), rhs = mapping.lookup(op.getRhs());
    int64_t rank = resultType.getRank(), batch = rank - 2;
    int64_t kSize = getStaticDimSize(
        cast<mo::TensorType>(op.getLhs().getType()).getDims().back());
    SmallVector<SmallVector<std::pair<Value, int64_t>>> hints(rank);
    for (int64_t i = 0; i < rank - 1; ++i)
      hints[i].push_back({lhs, i});
    hints[rank - 1].push_back({rhs, 0});
    FailureOr<Value> empty = emptyTensor(loc, resultType, hints);
    if (failed(empty))
      return failure();
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    Value init =
        linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{*empty})
            .getResult(0);
    Value n = tensor::DimOp::create(b, loc, rhs, 0);
    Value result = forEachColumnTile(
        loc, init, n, kTile,
        [&](OpBuilder &lb, Location l, Value n0, Value tile, Value slice) {
          // Scratch [K, tile]: w[k, i] = dequantize(row n0 + i, element k).
          auto scratchType =
              RankedTensorType::get({kSize, ShapedType::kDynamic}, lb.getF32Type());
          Value scratch = tensor::EmptyOp::create(lb, l, scratchType.getShape(),
                                                  lb.getF32Type(), ValueRange{tile});
          Value w =
              linalg::GenericOp::create(
                  lb, l, TypeRange{scratchType}, ValueRange{}, ValueRange{scratch},
                  {lb.getMultiDimIdentityMap(2)},
                  {utils::IteratorType::parallel, utils::IteratorType::parallel},
                  [&](OpBuilder &nb, Location nl, ValueRange) {
                    Value k = linalg::IndexOp::create(nb, nl, 0);
                    Value i = linalg::IndexOp::create(nb, nl, 1);
                    Value row = arith::AddIOp::create(nb, nl, n0, i);
                    Dequantizer dq(nb, nl, rhs, ValueRange{row}, op.getEncoding());
                    linalg::YieldOp::create(nb, nl, dq.at(k));
                  })
                  .getResult(0);
          // A materialized copy: elementwise fusion must not pull the
          // dequantization into the M-times-longer product loop.
          w = bufferization::MaterializeInDestinationOp::create(
                  lb, l, w,
                  tensor::EmptyOp::create(lb, l, scratchType.getShape(),
                                          lb.getF32Type(), ValueRange{tile}))
                  .getResult();
          // slice[..., m, j] += lhs[..., m, k] * w[k, j]; loops batch, m, k, j.
          SmallVector<AffineExpr> lhsExprs, wExprs, outExprs;
          for (int64_t i = 0; i < batch; ++i) {
            lhsExprs.push_back(lb.getAffineDimExpr(i));
            outExprs.push_back(lb.getAffineDimExpr(i));
          }
          AffineExpr m = lb.getAffineDimExpr(batch),
                     k = lb.getAffineDimExpr(batch + 1),
                     j = lb.getAffineDimExpr(batch + 2);
          lhsExprs.append({m, k});
          wExprs.append({k, j});
          outExprs.append({m, j});
          SmallVector<utils::IteratorType> iterators(
              rank + 1, utils::IteratorType::parallel);
          iterators[batch + 1] = utils::IteratorType::reduction;
          MLIRContext *ctx = lb.getContext();
          return contraction(lb, l, slice.getType(), lhs, w, slice,
                             {AffineMap::get(rank + 1, 0, lhsExprs, ctx),
                              AffineMap::get(rank + 1, 0, wExprs, ctx),
                              AffineMap::get(rank + 1, 0, outExprs, ctx)},
                             iterators);
        });
    mapping.map(op, result);
    return success();
  }

  LogicalResult lowerReshape(ReshapeOp op) {
    Location loc = op.getLoc();
    auto type = cast<mo::TensorType>(op.getType());
    SmallVector<Value> sizes;
    for (Attribute dim : type.getDims()) {
      FailureOr<Value> size = materializeDim(loc, dim, {});
      if (failed(size))
        return failure();
      sizes.push_back(*size);
    }
    Value shape = tensor::FromElementsOp::create(
        b, loc,
        RankedTensorType::get({type.getRank()}, b.getIndexType()), sizes);
    mapping.map(op, tensor::ReshapeOp::create(b, loc, convertType(type),
                                              mapping.lookup(op.getInput()),
                                              shape)
                        .getResult());
    return success();
  }

  LogicalResult lowerStore(MutableStoreOp op) {
    Location loc = op.getLoc();
    Value value = mapping.lookup(op.getValue());
    Value dest = mapping.lookup(op.getBuffer());
    if (std::optional<ArrayRef<int64_t>> starts = op.getStarts()) {
      auto valueType = cast<mo::TensorType>(op.getValue().getType());
      SmallVector<OpFoldResult> offsets, sizes, strides;
      windowSlices(b, loc, *starts, *op.getSteps(), valueType.getDims(), value,
                   offsets, sizes, strides);
      dest = memref::SubViewOp::create(b, loc, dest, offsets, sizes, strides);
    }
    bufferization::MaterializeInDestinationOp::create(
        b, loc, TypeRange{}, value, dest, /*restrict=*/true,
        /*writable=*/true);
    return success();
  }

  LogicalResult lowerOp(Operation *op) {
    Location loc = op->getLoc();
    return TypeSwitch<Operation *, LogicalResult>(op)
        .Case([&](ConstantOp c) -> LogicalResult {
          auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
          if (!dense)
            return c.emitOpError("only dense constants can be lowered");
          Type element = convertElementType(dense.getElementType());
          if (element != dense.getElementType())
            dense = dense.bitcast(element);
          mapping.map(c, arith::ConstantOp::create(b, loc, dense).getResult());
          return success();
        })
        .Case([&](ConstantExternalOp w) -> LogicalResult {
          mapping.map(w, weightArgs.lookup(w.getNameAttr()));
          return success();
        })
        .Case([&](ChainCreateOp c) -> LogicalResult {
          mapping.map(c, arith::ConstantOp::create(b, loc, b.getBoolAttr(true))
                             .getResult());
          return success();
        })
        .Case([&](CallOp call) -> LogicalResult {
          GraphOp callee = graphByName.lookup(call.getCalleeAttr().getAttr());
          if (callee && callee.isPublic())
            return call.emitOpError("calls the entry graph @")
                   << call.getCallee()
                   << "; only private graphs (subgraphs) can be called";
          SmallVector<Value> operands;
          for (Value v : call.getOperands())
            operands.push_back(mapping.lookup(v));
          for (const Weight &w : weights[call.getCalleeAttr().getAttr()])
            operands.push_back(weightArgs.lookup(resolve(call, w)));
          SmallVector<Type> types =
              llvm::map_to_vector(call.getResultTypes(), convertType);
          auto lowered = func::CallOp::create(b, loc, call.getCallee(), types,
                                              operands);
          mapping.map(call.getResults(), lowered.getResults());
          return success();
        })
        .Case([&](MatmulOp m) { return lowerMatmul(m); })
        .Case([&](DequantizeOp d) { return lowerDequantize(d); })
        .Case([&](SliceOp sl) -> LogicalResult {
          auto type = cast<mo::TensorType>(sl.getType());
          Value input = mapping.lookup(sl.getInput());
          SmallVector<OpFoldResult> offsets, sizes, strides;
          windowSlices(b, loc, sl.getStarts(), sl.getSteps(), type.getDims(),
                       input, offsets, sizes, strides);
          mapping.map(sl, tensor::ExtractSliceOp::create(
                              b, loc, cast<RankedTensorType>(convertType(type)),
                              input, offsets, sizes, strides)
                              .getResult());
          return success();
        })
        .Case([&](TransposeOp t) -> LogicalResult {
          auto type = cast<mo::TensorType>(t.getType());
          Value input = mapping.lookup(t.getInput());
          SmallVector<SmallVector<std::pair<Value, int64_t>>> hints(
              type.getRank());
          for (auto [i, p] : llvm::enumerate(t.getPermutation()))
            hints[i].push_back({input, p});
          FailureOr<Value> init = emptyTensor(loc, type, hints);
          if (failed(init))
            return failure();
          mapping.map(t, linalg::TransposeOp::create(b, loc, input, *init,
                                                     t.getPermutation())
                             .getResult()[0]);
          return success();
        })
        .Case([&](QMatmulOp q) { return lowerQMatmul(q); })
        .Case([&](ReshapeOp r) { return lowerReshape(r); })
        .Case([&](MutableLoadOp l) -> LogicalResult {
          // A load is a snapshot: copy it, so that later stores to the
          // buffer do not change the loaded value.
          auto type = cast<RankedTensorType>(convertType(l.getType()));
          Value view = bufferization::ToTensorOp::create(
              b, loc, type, mapping.lookup(l.getBuffer()),
              /*restrict=*/true, /*writable=*/true);
          auto copy = bufferization::AllocTensorOp::create(
              b, loc, type, ValueRange{}, /*copy=*/view);
          mapping.map(l, copy.getResult());
          return success();
        })
        .Case([&](MutableStoreOp s) { return lowerStore(s); })
        .Default([&](Operation *other) -> LogicalResult {
          if (isa<ElementwiseOpInterface>(other))
            return lowerElementwise(other);
          return other->emitOpError("has no lowering to linalg");
        });
  }

  //===--- Graphs -------------------------------------------------------===//

  /// Every reshape in `graph` and in the graphs it calls, each graph once.
  void collectReshapes(GraphOp graph, SmallVectorImpl<ReshapeOp> &reshapes,
                       llvm::SmallPtrSetImpl<Operation *> &seen) {
    if (!seen.insert(graph).second)
      return;
    graph.walk([&](Operation *op) {
      if (auto reshape = dyn_cast<ReshapeOp>(op))
        reshapes.push_back(reshape);
      else if (auto call = dyn_cast<CallOp>(op))
        if (GraphOp callee = graphByName.lookup(call.getCalleeAttr().getAttr()))
          collectReshapes(callee, reshapes, seen);
    });
  }

  /// `type` with every dim dynamic: what an entry function receives.
  static Type dynamicShape(Type type) {
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

  /// `value` (as the caller passed it) cast to the graph's own `type`.
  Value castTo(Location loc, Value value, Type type) {
    if (value.getType() == type)
      return value;
    if (isa<MemRefType>(type))
      return memref::CastOp::create(b, loc, type, value);
    return tensor::CastOp::create(b, loc, type, value);
  }

  static ArrayRef<Attribute> moDims(Type type) {
    if (auto t = dyn_cast<mo::TensorType>(type))
      return t.getDims();
    if (auto t = dyn_cast<BufferType>(type))
      return t.getDims();
    return {};
  }

  /// The entry's prologue: checks every size its arguments, weights and
  /// outputs must have (binding the symbolic dims), stores the outcome in
  /// the status record and returns the status; the graph's body then runs
  /// under `if status == 0`, on arguments cast to the graph's own types.
  FailureOr<Value> buildEntryPrologue(GraphOp graph, func::FuncOp func,
                                      ArrayRef<Weight> graphWeights) {
    Location loc = graph.getLoc();
    Block *entry = &func.getBody().front();
    size_t numArgs = graph.getNumArguments();
    size_t numWeights = graphWeights.size();
    SmallVector<EntryOperand> operands;
    for (auto [i, t] : llvm::enumerate(graph.getArgumentTypes()))
      operands.push_back({entry->getArgument(i), moDims(t),
                          "argument " + std::to_string(i)});
    for (auto [i, w] : llvm::enumerate(graphWeights))
      operands.push_back({entry->getArgument(numArgs + i), w.type.getDims(),
                          ("weight '" + w.name.getValue() + "'").str()});
    for (auto [i, t] : llvm::enumerate(graph.getResultTypes()))
      operands.push_back({entry->getArgument(numArgs + numWeights + i),
                          moDims(t), "output " + std::to_string(i),
                          /*isOutput=*/true});
    SmallVector<ReshapeOp> reshapes;
    llvm::SmallPtrSet<Operation *, 8> seen;
    collectReshapes(graph, reshapes, seen);
    SmallVector<Attribute> messages;
    FailureOr<Value> status =
        buildEntryChecks(b, loc, operands, reshapes, entry->getArguments().back(),
                         symbolSizes, messages);
    if (failed(status))
      return failure();
    func->setAttr("mo.checks", b.getArrayAttr(messages));
    Value ok = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, *status,
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0));
    auto guarded = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
    b.setInsertionPoint(guarded.thenBlock()->getTerminator());
    return *status;
  }

  LogicalResult lowerGraph(GraphOp graph) {
    bool isEntry = graph.isPublic();
    const SmallVector<Weight> &graphWeights = weights[graph.getSymNameAttr()];
    // The entry receives every shaped argument with dynamic dims (its
    // prologue checks them) and returns a status; subgraphs keep their types.
    auto abiType = [&](Type t) {
      return isEntry ? dynamicShape(convertType(t)) : convertType(t);
    };
    SmallVector<Type> inputs = llvm::map_to_vector(graph.getArgumentTypes(), abiType);
    for (const Weight &w : graphWeights)
      inputs.push_back(abiType(w.type));
    SmallVector<Type> results;
    for (Type t : graph.getResultTypes()) {
      if (!isEntry) {
        results.push_back(convertType(t));
        continue;
      }
      auto tensor = dyn_cast<mo::TensorType>(t);
      if (!tensor)
        return graph.emitOpError("entry graph results must be tensors, got ")
               << t;
      inputs.push_back(dynamicShape(outParamType(tensor)));
    }
    if (isEntry) {
      inputs.push_back(MemRefType::get({2}, b.getI64Type()));
      results.push_back(b.getI64Type());
    }

    b.setInsertionPoint(graph);
    auto func = func::FuncOp::create(b, graph.getLoc(), graph.getSymName(),
                                     b.getFunctionType(inputs, results));
    if (!isEntry)
      func.setPrivate();
    Block *entry = func.addEntryBlock();
    size_t numArgs = graph.getNumArguments();
    size_t firstOutput = numArgs + graphWeights.size();
    if (isEntry) {
      func->setAttr("llvm.emit_c_interface", b.getUnitAttr());
      func->setAttr("mo.entry", b.getUnitAttr());
      // Name and mo type of each weight: the runtime binds and checks them.
      for (auto [i, w] : llvm::enumerate(graphWeights)) {
        func.setArgAttr(numArgs + i, "mo.weight", w.name);
        func.setArgAttr(numArgs + i, "mo.type", TypeAttr::get(w.type));
      }
      for (size_t i = 0; i < graph.getNumResults(); ++i)
        func.setArgAttr(firstOutput + i, "mo.output", b.getI64IntegerAttr(i));
      func.setArgAttr(inputs.size() - 1, "mo.status", b.getUnitAttr());
    }

    mapping.clear();
    symbolSizes.clear();
    weightArgs.clear();
    b.setInsertionPointToStart(entry);
    Value status;
    if (isEntry) {
      FailureOr<Value> s = buildEntryPrologue(graph, func, graphWeights);
      if (failed(s))
        return failure();
      status = *s;
    }
    // The graph's view of argument `i`, of mo type `t`.
    auto argument = [&](size_t i, Type t) {
      Value arg = entry->getArgument(i);
      return isEntry ? castTo(graph.getLoc(), arg, convertType(t)) : arg;
    };
    Block &body = graph.getBody().front();
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      Value value = argument(i, arg.getType());
      mapping.map(arg, value);
      if (isEntry)
        continue; // the prologue bound the symbols
      for (auto [axis, dim] : llvm::enumerate(moDims(arg.getType())))
        if (auto name = dyn_cast<StringAttr>(dim); name && !symbolSizes.count(name))
          symbolSizes[name] = dimOf(arg.getLoc(), value, axis);
    }
    for (auto [i, w] : llvm::enumerate(graphWeights))
      weightArgs[w.name] = argument(numArgs + i, w.type);

    for (Operation &op : body.without_terminator())
      if (failed(lowerOp(&op)))
        return failure();

    auto output = cast<OutputOp>(body.getTerminator());
    SmallVector<Value> values =
        llvm::map_to_vector(output.getOperands(), [&](Value v) {
          return mapping.lookup(v);
        });
    if (!isEntry) {
      func::ReturnOp::create(b, output.getLoc(), values);
      return success();
    }
    for (auto [i, v] : llvm::enumerate(values)) {
      auto type = cast<mo::TensorType>(graph.getResultTypes()[i]);
      Value dest = castTo(output.getLoc(), entry->getArgument(firstOutput + i),
                          outParamType(type));
      bufferization::MaterializeInDestinationOp::create(
          b, output.getLoc(), TypeRange{}, v, dest,
          /*restrict=*/true, /*writable=*/true);
    }
    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(b, output.getLoc(), status);
    return success();
  }

  ModuleOp module;
  OpBuilder b;
  DenseMap<StringAttr, GraphOp> graphByName;
  DenseMap<StringAttr, SmallVector<Weight>> weights;
  llvm::SmallPtrSet<Operation *, 4> visiting;
  // Per-graph state.
  IRMapping mapping;
  DenseMap<StringAttr, Value> symbolSizes;
  DenseMap<StringAttr, Value> weightArgs;
};

struct MoLowerToLinalgPass
    : public mo::impl::MoLowerToLinalgBase<MoLowerToLinalgPass> {
  void runOnOperation() override {
    if (failed(GraphLowering(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
