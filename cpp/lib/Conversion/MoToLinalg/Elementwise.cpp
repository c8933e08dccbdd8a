//===- Elementwise.cpp - elementwise mo ops to linalg.generic -------------===//
//
// One pattern for every op with ElementwiseOpInterface: a linalg.generic
// over the result's index space whose operands broadcast numpy-style
// (aligned right, static size-1 dims read at index 0) and whose body is the
// op's own scalar computation (the registry's scalar map).
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::mo;

namespace {

struct ElementwiseToGeneric
    : OpInterfaceConversionPattern<ElementwiseOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;

  LogicalResult
  matchAndRewrite(ElementwiseOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<mo::TensorType>(op->getResult(0).getType());
    ArrayRef<Attribute> resultDims = resultType.getDims();
    int64_t rank = resultType.getRank();
    SmallVector<AffineMap> maps;
    SmallVector<SizeHints> hints(rank);
    for (auto [operand, value] : llvm::zip(op->getOperands(), operands)) {
      SmallVector<AffineExpr> exprs = broadcastExprs(
          rewriter, cast<mo::TensorType>(operand.getType()).getDims(),
          resultDims, value, hints);
      maps.push_back(AffineMap::get(rank, 0, exprs, rewriter.getContext()));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    FailureOr<Value> init = emptyTensor(rewriter, loc, op, resultType, hints);
    if (failed(init))
      return failure();
    Type element =
        cast<mo::TensorType>(op->getOperand(0).getType()).getElementType();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init->getType()}, operands, ValueRange{*init},
        maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> scalars;
          for (auto [operand, arg] : llvm::zip(op->getOperands(), args.drop_back()))
            scalars.push_back(loadScalar(
                b, l, arg, cast<mo::TensorType>(operand.getType()).getElementType()));
          linalg::YieldOp::create(
              b, l, storeScalar(b, l, op.buildScalar(b, l, scalars, element)));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mo::populateMoElementwiseToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<ElementwiseToGeneric>(converter, patterns.getContext());
}
