//===- Print.cpp - mo.print to a call of mo's runtime ---------------------===//
//
// The tensor is read as a buffer (bufferization.to_buffer, read-only) and
// passed unranked, with its label (a constant memref.global of bytes), to
// `moPrint_<element>` (cpp/lib/Runtime/MoRuntime.cpp), which formats it.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"
#include "mo/Conversion/MoToLinalg.h"
#include "mo/Dialect/MoOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::mo;

namespace {

/// (kind, bits) as the runtime reads them: 0 float, 1 signed, 2 unsigned,
/// 3 bool, 4 bfloat16.
std::pair<int64_t, int64_t> elementCode(Type element) {
  if (element.isBF16())
    return {4, 16};
  if (auto f = dyn_cast<FloatType>(element))
    return {0, f.getWidth()};
  if (element.isSignlessInteger(1))
    return {3, 8};
  return {element.isUnsignedInteger() ? 2 : 1, element.getIntOrFloatBitWidth()};
}

/// The runtime function for memrefs of `storage` elements, declared once.
func::FuncOp printFunction(OpBuilder &b, ModuleOp module, Type storage) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "moPrint_" << storage;
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  Type i64 = b.getI64Type();
  auto type = b.getFunctionType(
      {i64, i64, UnrankedMemRefType::get(storage, 0),
       UnrankedMemRefType::get(b.getI8Type(), 0)},
      {});
  auto f = func::FuncOp::create(b, module.getLoc(), name, type);
  f.setPrivate();
  f->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  return f;
}

struct PrintToCall : OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    // The label: a private constant global of its bytes.
    StringRef text = op.getLabel();
    auto labelType = MemRefType::get({static_cast<int64_t>(text.size())},
                                     rewriter.getI8Type());
    memref::GlobalOp global;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      auto bytes = DenseElementsAttr::get(
          RankedTensorType::get(labelType.getShape(), rewriter.getI8Type()),
          ArrayRef<char>(text.data(), text.size()));
      std::string name;
      for (int i = 0; name.empty() || module.lookupSymbol(name); ++i)
        name = "mo_print_label_" + std::to_string(i);
      global = memref::GlobalOp::create(rewriter, loc, name,
                                        rewriter.getStringAttr("private"), labelType,
                                        bytes, /*constant=*/true, IntegerAttr());
    }
    Value label = memref::GetGlobalOp::create(rewriter, loc, labelType, global.getSymName());
    Value unrankedLabel = memref::CastOp::create(
        rewriter, loc, UnrankedMemRefType::get(rewriter.getI8Type(), 0), label);
    Type storage = rewriter.getI8Type();
    Value value = unrankedLabel;
    int64_t kind = -1, bits = 8; // -1: the label alone
    if (Value tensor = adaptor.getValue()) {
      auto type = cast<RankedTensorType>(tensor.getType());
      storage = type.getElementType();
      std::tie(kind, bits) =
          elementCode(cast<mo::TensorType>(op.getValue().getType()).getElementType());
      Value buffer = bufferization::ToBufferOp::create(
          rewriter, loc, MemRefType::get(type.getShape(), storage), tensor,
          /*read_only=*/true);
      value = memref::CastOp::create(rewriter, loc, UnrankedMemRefType::get(storage, 0),
                                     buffer);
    }
    func::FuncOp callee = printFunction(rewriter, module, storage);
    auto c = [&](int64_t v) {
      return arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(v));
    };
    rewriter.replaceOpWithNewOp<func::CallOp>(
        op, callee, ValueRange{c(kind), c(bits), value, unrankedLabel});
    return success();
  }
};

} // namespace

void mo::populateMoPrintToCallPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<PrintToCall>(converter, patterns.getContext());
}
