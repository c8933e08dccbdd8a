//===- Contraction.cpp - mo.matmul to linalg named contractions -----------===//
//
// Named ops where the shapes allow, so that the pipeline (tiling, packing,
// mmt4d) sees a contraction rather than loops: 2-D x 2-D is linalg.matmul,
// equal batch dims (collapsed into one) are linalg.batch_matmul, and a
// batched lhs against a 2-D rhs (`x @ W` of an MLP) is one linalg.matmul
// over the collapsed batch.
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

    FailureOr<Value> product;
    if (lhsType.getRank() == 2 && rhsType.getRank() == 2) {
      product = flatProduct(op, lhs, {{0}, {1}}, rhs, {{0}, {1}}, resultType, zero, rewriter);
    } else if (rank >= 3 && lhsType.getRank() == rank && rhsType.getRank() == rank &&
               lhsType.getDims().drop_back(2) == rhsType.getDims().drop_back(2)) {
      // Equal batch dims: one linalg.batch_matmul over them collapsed.
      SmallVector<ReassociationIndices> groups(3);
      for (int64_t i = 0; i < batch; ++i)
        groups[0].push_back(i);
      groups[1].push_back(batch);
      groups[2].push_back(batch + 1);
      product = flatProduct(op, lhs, groups, rhs, groups, resultType, zero, rewriter);
    } else if (rhsType.getRank() == 2 &&
               lhsType.getDims().drop_back(2) == resultType.getDims().drop_back(2)) {
      // [b..., m, k] @ [k, n]: one matmul over the rows of all batches.
      SmallVector<ReassociationIndices> rows(2);
      for (int64_t i = 0; i < rank - 1; ++i)
        rows[0].push_back(i);
      rows[1].push_back(rank - 1);
      product = flatProduct(op, lhs, rows, rhs, {{0}, {1}}, resultType, zero, rewriter);
    } else {
      product = broadcastBatches(op, lhs, rhs, resultType, hints, zeros, rewriter);
    }
    if (failed(product) || !*product)
      return failure();
    rewriter.replaceOp(op, narrow ? truncateElements(rewriter, loc, *product, element)
                                  : *product);
    return success();
  }

  /// linalg.matmul (2-D operands) or linalg.batch_matmul (3-D) of the
  /// operands collapsed by their groups, expanded back to the result's
  /// shape by the lhs's groups (trivial groupings reshape nothing).
  FailureOr<Value> flatProduct(MatmulOp op, Value lhs,
                               ArrayRef<ReassociationIndices> lhsGroups, Value rhs,
                               ArrayRef<ReassociationIndices> rhsGroups,
                               mo::TensorType resultType, Value zero,
                               ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    auto collapse = [&](Value v, ArrayRef<ReassociationIndices> groups) -> Value {
      if (groups.size() == size_t(cast<RankedTensorType>(v.getType()).getRank()))
        return v;
      return tensor::CollapseShapeOp::create(rewriter, loc, v, groups);
    };
    Value l = collapse(lhs, lhsGroups), r = collapse(rhs, rhsGroups);
    bool batched = lhsGroups.size() == 3;
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d + 1 < int64_t(lhsGroups.size()); ++d)
      sizes.push_back(tensor::getMixedSize(rewriter, loc, l, d));
    sizes.push_back(tensor::getMixedSize(rewriter, loc, r, batched ? 2 : 1));
    Type acc = zero.getType();
    Value init = filled(rewriter, loc, tensor::EmptyOp::create(rewriter, loc, sizes, acc), zero);
    Value flat = batched ? linalg::BatchMatmulOp::create(rewriter, loc, ValueRange{l, r},
                                                         ValueRange{init})
                               .getResult(0)
                         : linalg::MatmulOp::create(rewriter, loc, ValueRange{l, r},
                                                    ValueRange{init})
                               .getResult(0);
    int64_t rank = resultType.getRank();
    if (int64_t(lhsGroups.size()) == rank)
      return flat;
    SmallVector<SizeHints> outHints(rank);
    for (int64_t i = 0; i < rank - 1; ++i)
      outHints[i].push_back({lhs, i});
    outHints[rank - 1].push_back({rhs, cast<RankedTensorType>(rhs.getType()).getRank() - 1});
    FailureOr<SmallVector<OpFoldResult>> shape =
        mixedSizes(rewriter, loc, op, resultType.getDims(), outHints);
    if (failed(shape))
      return failure();
    auto type = RankedTensorType::get(resultType.getStaticShape(), acc);
    return expandTo(rewriter, loc, type, flat, lhsGroups, *shape);
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
