//===- Reduce.cpp - mo reductions and scans to linalg ---------------------===//
//
// One pattern for every op with ReduceOpInterface: a reduction
// linalg.generic over the axis (not linalg.reduce, so that elementwise
// producers fuse into it) into an identity-filled init (f16/bf16 sums
// accumulate in f32), the op's final step (the mean divides), then an
// expand_shape that puts the axis back with size 1. Arg reductions carry
// (best, index) through the generic, which reads the axis' index.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mo;

namespace {

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
    // A float max only ever subtracted from the values it reduces (softmax's
    // shift) needs no care for NaN or the sign of zero: a NaN among them
    // makes its difference, and so the row's exp-sum, NaN whatever the max
    // is. Without the care, LLVM's max of a vector is one vmaxps, not five
    // instructions of blends and compares (w5's max pass: a third of it).
    bool shiftOnly =
        isa<ReduceMaxOp>(op.getOperation()) && isa<FloatType>(element) &&
        llvm::all_of(op->getResult(0).getUsers(), [&](Operation *user) {
          auto sub = dyn_cast<SubOp>(user);
          return sub && sub->getOperand(0) == op->getOperand(0) &&
                 sub->getOperand(1) == op->getResult(0);
        });
    // A float sum or product may be reassociated, so that LLVM vectorizes
    // it with partial sums per lane (a serial chain is slower and no more
    // accurate).
    arith::FastMathFlags combineFlags =
        arith::FastMathFlags::reassoc |
        (shiftOnly ? arith::FastMathFlags::nnan | arith::FastMathFlags::nsz
                   : arith::FastMathFlags::none);
    Type acc = wide ? rewriter.getF32Type() : element;
    // Bools are reduced as i1 and stored as bytes.
    Value identity = storeScalar(
        rewriter, loc,
        op.buildIdentity(rewriter, loc,
                         moElement.isInteger(1) ? rewriter.getI1Type() : acc,
                         moElement));
    Value init = filled(rewriter, loc,
                        tensor::EmptyOp::create(rewriter, loc, shape, acc, dynamic),
                        identity);
    Value reduced;
    // A linalg.generic (not linalg.reduce): elementwise producers fuse into it.
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < rank; ++i)
      if (i != axis)
        outExprs.push_back(rewriter.getAffineDimExpr(i));
    AffineMap in = rewriter.getMultiDimIdentityMap(rank);
    AffineMap out = AffineMap::get(rank, 0, outExprs, rewriter.getContext());
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    iterators[axis] = utils::IteratorType::reduction;
    if (op.isArgReduction()) {
      Type i64 = rewriter.getI64Type();
      Value indices = filled(
          rewriter, loc, tensor::EmptyOp::create(rewriter, loc, shape, i64, dynamic),
          arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(0)));
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
      reduced = linalg::GenericOp::create(
                    rewriter, loc, TypeRange{init.getType()}, ValueRange{input},
                    ValueRange{init}, {in, out}, iterators,
                    [&](OpBuilder &b, Location l, ValueRange args) {
                      Value x = loadScalar(b, l, args[0], moElement);
                      Value sum = loadScalar(b, l, args[1], moElement);
                      if (wide)
                        x = arith::ExtFOp::create(b, l, acc, x);
                      Value combined =
                          op.buildCombine(b, l, ValueRange{sum, x}, moElement);
                      if (auto fm = combined.getDefiningOp<arith::ArithFastMathInterface>())
                        fm->setAttr(fm.getFastMathAttrName(),
                                    arith::FastMathFlagsAttr::get(
                                        b.getContext(),
                                        fm.getFastMathFlagsAttr().getValue() | combineFlags));
                      linalg::YieldOp::create(b, l, storeScalar(b, l, combined));
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

/// A scan: an scf.for along the axis carries the running sum (a slice
/// without the axis) and writes it, before or after adding each slice
/// (exclusive or not), into the result, from either end.
struct CumsumToLoop : OpConversionPattern<CumsumOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t axis = op.getAxis(), rank = type.getRank();
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamic, all;
    for (int64_t i = 0; i < rank; ++i) {
      if (type.isDynamicDim(i))
        all.push_back(tensor::DimOp::create(rewriter, loc, input, i));
      if (i == axis)
        continue;
      shape.push_back(type.getDimSize(i));
      if (type.isDynamicDim(i))
        dynamic.push_back(all.back());
    }
    Type element = type.getElementType();
    auto sliceType = RankedTensorType::get(shape, element);
    Value zero = filled(rewriter, loc,
                        tensor::EmptyOp::create(rewriter, loc, shape, element, dynamic),
                        arith::ConstantOp::create(rewriter, loc,
                                                  rewriter.getZeroAttr(element)));
    Value out = tensor::EmptyOp::create(rewriter, loc, type.getShape(), element, all);
    Value n = tensor::DimOp::create(rewriter, loc, input, axis);
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    bool exclusive = op.getExclusive(), reverse = op.getReverse();
    auto loop = scf::ForOp::create(
        rewriter, loc, c0, n, c1, ValueRange{zero, out},
        [&](OpBuilder &b, Location l, Value i, ValueRange iter) {
          Value at = reverse ? Value(arith::SubIOp::create(
                                   b, l, arith::SubIOp::create(b, l, n, c1), i))
                             : i;
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
              strides(rank, b.getIndexAttr(1));
          offsets[axis] = at;
          for (int64_t d = 0; d < rank; ++d)
            sizes.push_back(d == axis ? OpFoldResult(b.getIndexAttr(1))
                                      : tensor::getMixedSize(b, l, input, d));
          Value slice = tensor::ExtractSliceOp::create(b, l, sliceType, input,
                                                       offsets, sizes, strides);
          // The running sum is updated in place (bufferization keeps the
          // loop's buffers); an exclusive scan writes it before the update.
          Value written;
          if (exclusive)
            written = tensor::InsertSliceOp::create(b, l, iter[0], iter[1],
                                                    offsets, sizes, strides);
          Value sum = linalg::AddOp::create(b, l, ValueRange{iter[0], slice},
                                            ValueRange{iter[0]})
                          .getResult(0);
          if (!exclusive)
            written = tensor::InsertSliceOp::create(b, l, sum, iter[1], offsets,
                                                    sizes, strides);
          scf::YieldOp::create(b, l, ValueRange{sum, written});
        });
    rewriter.replaceOp(op, loop.getResult(1));
    return success();
  }
};

} // namespace

void mo::populateMoReduceToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<ReduceToLinalg, CumsumToLoop>(converter, patterns.getContext());
}
