//===- Reduce.cpp - mo reductions to linalg.reduce / linalg.generic -------===//
//
// One pattern for every op with ReduceOpInterface: a linalg.reduce over the
// axis into an identity-filled init (f16/bf16 sums accumulate in f32), the
// op's final step (the mean divides), then an expand_shape that puts the
// axis back with size 1. Arg reductions carry (best, index) through a
// linalg.generic that reads the axis' index.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mo;

namespace {

/// `init` filled with `value`.
Value filled(OpBuilder &b, Location loc, Value init, Value value) {
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{init})
      .getResult(0);
}

/// An elementwise map of `source` into a new tensor of element `element`.
Value mapElements(OpBuilder &b, Location loc, Value source, Type element,
                  function_ref<Value(OpBuilder &, Location, Value)> fn) {
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
               linalg::YieldOp::create(nb, l, fn(nb, l, args[0]));
             })
      .getResult(0);
}

struct ReduceToLinalg : OpInterfaceConversionPattern<ReduceOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = operands[0];
    auto inType = cast<mo::TensorType>(op->getOperand(0).getType());
    auto resultType = cast<mo::TensorType>(op->getResult(0).getType());
    Type moElement = inType.getElementType();
    Type element = convertElementType(moElement);
    int64_t axis = op.getReducedAxis(), rank = inType.getRank();

    // The reduced shape: the input's without the axis.
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamic;
    for (int64_t i = 0; i < rank; ++i) {
      if (i == axis)
        continue;
      int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(i);
      shape.push_back(size);
      if (size == ShapedType::kDynamic)
        dynamic.push_back(tensor::DimOp::create(rewriter, loc, input, i));
    }
    bool wide = op.accumulatesWide() && isa<Float16Type, BFloat16Type>(element);
    Type acc = wide ? rewriter.getF32Type() : element;
    Value identity = op.buildIdentity(rewriter, loc, acc, moElement);
    Value init = filled(rewriter, loc,
                        tensor::EmptyOp::create(rewriter, loc, shape, acc, dynamic),
                        identity);
    Value reduced;
    if (op.isArgReduction()) {
      Type i64 = rewriter.getI64Type();
      Value indices = filled(
          rewriter, loc, tensor::EmptyOp::create(rewriter, loc, shape, i64, dynamic),
          arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(0)));
      SmallVector<AffineExpr> outExprs;
      for (int64_t i = 0; i < rank; ++i)
        if (i != axis)
          outExprs.push_back(rewriter.getAffineDimExpr(i));
      AffineMap in = rewriter.getMultiDimIdentityMap(rank);
      AffineMap out = AffineMap::get(rank, 0, outExprs, rewriter.getContext());
      SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
      iterators[axis] = utils::IteratorType::reduction;
      auto generic = linalg::GenericOp::create(
          rewriter, loc, TypeRange{init.getType(), indices.getType()},
          ValueRange{input}, ValueRange{init, indices}, {in, out, out}, iterators,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value x = args[0], best = args[1], at = args[2];
            Value here = arith::IndexCastOp::create(
                b, l, i64, linalg::IndexOp::create(b, l, axis));
            Value better = op.buildCombine(b, l, ValueRange{best, x}, moElement);
            linalg::YieldOp::create(
                b, l,
                ValueRange{arith::SelectOp::create(b, l, better, x, best),
                           arith::SelectOp::create(b, l, better, here, at)});
          });
      reduced = generic.getResult(1);
    } else {
      reduced = linalg::ReduceOp::create(
                    rewriter, loc, ValueRange{input}, ValueRange{init},
                    SmallVector<int64_t>{axis},
                    [&](OpBuilder &b, Location l, ValueRange args) {
                      Value x = args[0];
                      if (wide)
                        x = arith::ExtFOp::create(b, l, acc, x);
                      linalg::YieldOp::create(
                          b, l, op.buildCombine(b, l, ValueRange{args[1], x},
                                                moElement));
                    })
                    .getResult(0);
      Value count = tensor::DimOp::create(rewriter, loc, input, axis);
      if (wide || op.hasFinalStep())
        reduced = mapElements(rewriter, loc, reduced, element,
                            [&](OpBuilder &b, Location l, Value v) {
                              v = op.buildFinal(b, l, ValueRange{v, count});
                              return wide ? Value(arith::TruncFOp::create(
                                                b, l, element, v))
                                          : v;
                            });
    }

    // The axis back, with size 1: it joins its neighbour's group.
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(resultType));
    SmallVector<ReassociationIndices> groups;
    for (int64_t i = 0; i < rank; ++i) {
      if (i == axis && !groups.empty()) {
        groups.back().push_back(i);
        continue;
      }
      if (i == axis + 1 && axis == 0) {
        groups.push_back({0, 1});
        continue;
      }
      if (i != axis)
        groups.push_back({i});
    }
    if (rank == 1)
      groups.clear();
    SmallVector<OpFoldResult> sizes;
    for (int64_t i = 0; i < rank; ++i)
      sizes.push_back(i == axis ? OpFoldResult(rewriter.getIndexAttr(1))
                                : tensor::getMixedSize(rewriter, loc, input, i));
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, type, reduced, groups,
                                                       sizes);
    return success();
  }
};

} // namespace

void mo::populateMoReduceToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<ReduceToLinalg>(converter, patterns.getContext());
}
