//===- Contraction.cpp - mo.matmul to linalg named contractions -----------===//
//
// Named ops where the shapes allow, so that the pipeline (tiling, packing,
// mmt4d) sees a contraction rather than loops: 2-D x 2-D is linalg.matmul,
// equal batches are linalg.batch_matmul, and a batched lhs against a 2-D
// rhs (`x @ W` of an MLP) is one linalg.matmul over the collapsed batch.
// Broadcast batch dims fall back to a linalg.generic. f16/bf16 accumulate in
// f32, as numpy and torch do, and are rounded once at the end.
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

struct MatmulToLinalg : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto lhsType = cast<mo::TensorType>(op.getLhs().getType());
    auto rhsType = cast<mo::TensorType>(op.getRhs().getType());
    auto resultType = cast<mo::TensorType>(op.getType());
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    int64_t rank = resultType.getRank(), batch = rank - 2;
    Type element = convertElementType(resultType.getElementType());
    Type acc = accumulatorType(element);
    bool narrow = acc != element;
    Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(acc));
    auto zeros = [&](mo::TensorType type,
                     ArrayRef<SizeHints> hints) -> FailureOr<Value> {
      FailureOr<Value> empty = emptyTensor(rewriter, loc, op, type, hints, acc);
      if (failed(empty))
        return failure();
      return filled(rewriter, loc, *empty, zero);
    };
    SmallVector<SizeHints> hints(rank);
    hints[rank - 2].push_back({lhs, lhsType.getRank() - 2});
    hints[rank - 1].push_back({rhs, rhsType.getRank() - 1});

    Value product;
    if (lhsType.getRank() == 2 && rhsType.getRank() == 2) {
      FailureOr<Value> init = zeros(resultType, hints);
      if (failed(init))
        return failure();
      product = linalg::MatmulOp::create(rewriter, loc, ValueRange{lhs, rhs},
                                         ValueRange{*init})
                    .getResult(0);
    } else if (rank == 3 && lhsType.getRank() == 3 && rhsType.getRank() == 3 &&
               lhsType.getDims()[0] == rhsType.getDims()[0]) {
      hints[0].push_back({lhs, 0});
      FailureOr<Value> init = zeros(resultType, hints);
      if (failed(init))
        return failure();
      product = linalg::BatchMatmulOp::create(rewriter, loc, ValueRange{lhs, rhs},
                                              ValueRange{*init})
                    .getResult(0);
    } else if (rhsType.getRank() == 2 &&
               lhsType.getDims().drop_back(2) == resultType.getDims().drop_back(2)) {
      // [b..., m, k] @ [k, n]: one matmul over the rows of all batches.
      SmallVector<ReassociationIndices> rows(2);
      for (int64_t i = 0; i < rank - 1; ++i)
        rows[0].push_back(i);
      rows[1].push_back(rank - 1);
      Value flat = tensor::CollapseShapeOp::create(rewriter, loc, lhs, rows);
      auto flatType = cast<RankedTensorType>(flat.getType());
      SmallVector<Value> dynamic;
      if (flatType.isDynamicDim(0))
        dynamic.push_back(tensor::DimOp::create(rewriter, loc, flat, 0));
      int64_t n = rhsType.getStaticShape()[1];
      if (n == ShapedType::kDynamic)
        dynamic.push_back(tensor::DimOp::create(rewriter, loc, rhs, 1));
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, {flatType.getShape()[0], n}, acc, dynamic);
      Value init = filled(rewriter, loc, empty, zero);
      Value flatProduct =
          linalg::MatmulOp::create(rewriter, loc, ValueRange{flat, rhs},
                                   ValueRange{init})
              .getResult(0);
      SmallVector<SizeHints> outHints(rank);
      for (int64_t i = 0; i < rank - 1; ++i)
        outHints[i].push_back({lhs, i});
      outHints[rank - 1].push_back({rhs, 1});
      FailureOr<SmallVector<OpFoldResult>> shape =
          mixedSizes(rewriter, loc, op, resultType.getDims(), outHints);
      if (failed(shape))
        return failure();
      auto type = RankedTensorType::get(resultType.getStaticShape(), acc);
      product = tensor::ExpandShapeOp::create(rewriter, loc, type, flatProduct,
                                              rows, *shape);
    } else {
      product = broadcastBatches(op, lhs, rhs, resultType, hints, zeros, rewriter);
      if (!product)
        return failure();
    }
    rewriter.replaceOp(op, narrow ? truncateElements(rewriter, loc, product, element)
                                  : product);
    return success();
  }

  /// Batch dims that broadcast: loops (batch..., m, k, n) in a generic.
  Value broadcastBatches(
      MatmulOp op, Value lhs, Value rhs, mo::TensorType resultType,
      SmallVectorImpl<SizeHints> &hints,
      function_ref<FailureOr<Value>(mo::TensorType, ArrayRef<SizeHints>)> zeros,
      ConversionPatternRewriter &rewriter) const {
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = resultType.getRank(), batch = rank - 2;
    auto operandMap = [&](mo::TensorType type, Value value, AffineExpr row,
                          AffineExpr col) {
      SmallVector<AffineExpr> exprs =
          broadcastExprs(rewriter, type.getDims().drop_back(2),
                         resultType.getDims().drop_back(2), value, hints);
      exprs.push_back(row);
      exprs.push_back(col);
      return AffineMap::get(rank + 1, 0, exprs, ctx);
    };
    AffineExpr m = rewriter.getAffineDimExpr(batch),
               k = rewriter.getAffineDimExpr(batch + 1),
               n = rewriter.getAffineDimExpr(batch + 2);
    AffineMap lhsMap =
        operandMap(cast<mo::TensorType>(op.getLhs().getType()), lhs, m, k);
    AffineMap rhsMap =
        operandMap(cast<mo::TensorType>(op.getRhs().getType()), rhs, k, n);
    FailureOr<Value> init = zeros(resultType, hints);
    if (failed(init))
      return {};
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < batch; ++i)
      outExprs.push_back(rewriter.getAffineDimExpr(i));
    outExprs.append({m, n});
    SmallVector<utils::IteratorType> iterators(rank + 1,
                                               utils::IteratorType::parallel);
    iterators[batch + 1] = utils::IteratorType::reduction;
    return genericContraction(
        rewriter, op.getLoc(), lhs, rhs, *init,
        {lhsMap, rhsMap, AffineMap::get(rank + 1, 0, outExprs, ctx)}, iterators);
  }
};

} // namespace

void mo::populateMoContractionToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<MatmulToLinalg>(converter, patterns.getContext());
}
