//===- SmallParallel.cpp - OpenMP regions over little data run serially ---===//
//
// Each omp.parallel without an `if` gets one: the largest memref its region
// uses from outside has at least `min-elements` elements. The sizes of a
// memref with run-time dims are read where the region starts.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::mo {
#define GEN_PASS_DEF_MOSERIALIZESMALLPARALLEL
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

struct MoSerializeSmallParallelPass
    : public mo::impl::MoSerializeSmallParallelBase<MoSerializeSmallParallelPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](omp::ParallelOp op) {
      if (op.getIfExpr())
        return;
      SetVector<Value> captured;
      getUsedValuesDefinedAbove(op.getRegion(), captured);
      SmallVector<Value> dynamic;
      for (Value v : captured) {
        auto type = dyn_cast<MemRefType>(v.getType());
        if (!type)
          continue;
        if (!type.hasStaticShape())
          dynamic.push_back(v);
        else if (type.getNumElements() >= minElements)
          return; // parallel whatever the run-time sizes
      }
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value cond;
      if (dynamic.empty()) {
        cond = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
      } else {
        Value largest;
        for (Value v : dynamic) {
          auto type = cast<MemRefType>(v.getType());
          Value size;
          for (int64_t axis = 0; axis < type.getRank(); ++axis) {
            Value dim = type.isDynamicDim(axis)
                            ? memref::DimOp::create(b, loc, v, axis).getResult()
                            : arith::ConstantIndexOp::create(b, loc, type.getDimSize(axis))
                                  .getResult();
            size = size ? arith::MulIOp::create(b, loc, size, dim).getResult() : dim;
          }
          largest = largest ? arith::MaxUIOp::create(b, loc, largest, size).getResult() : size;
        }
        Value min = arith::ConstantIndexOp::create(b, loc, minElements);
        cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, largest, min);
      }
      op.getIfExprMutable().assign(cond);
    });
  }
};

} // namespace
