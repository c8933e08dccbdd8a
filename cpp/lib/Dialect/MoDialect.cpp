//===- MoDialect.cpp - mo dialect registration and inlining ---------------===//

#include "mo/Dialect/MoOps.h"

#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::mo;

#include "Mo/MoDialect.cpp.inc"

namespace {
/// Lets upstream `-inline` inline `mo.call`s. The call's `prefix` is applied
/// to the placeholder weights the inlined body reads, and to the prefixes of
/// the calls it makes, so weight names stay fully qualified.
struct MoInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }

  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto output = cast<OutputOp>(op);
    for (auto [from, to] : llvm::zip(valuesToRepl, output.getOperands()))
      from.replaceAllUsesWith(to);
  }

  void processInlinedCallBlocks(
      Operation *call,
      iterator_range<Region::iterator> inlinedBlocks) const final {
    auto callOp = dyn_cast<CallOp>(call);
    if (!callOp || callOp.getPrefixOrEmpty().empty())
      return;
    StringRef prefix = callOp.getPrefixOrEmpty();
    Builder b(call->getContext());
    for (Block &block : inlinedBlocks) {
      block.walk([&](Operation *op) {
        // Placeholder names are relative to the call; others are absolute.
        if (auto weight = dyn_cast<ConstantExternalOp>(op)) {
          if (weight.getIsPlaceholder())
            weight.setNameAttr(b.getStringAttr(prefix + weight.getName()));
        } else if (auto inner = dyn_cast<CallOp>(op)) {
          inner.setPrefixAttr(b.getStringAttr(prefix + inner.getPrefixOrEmpty()));
        }
      });
    }
  }
};
} // namespace

void MoDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "Mo/MoOps.cpp.inc"
      >();
  addInterfaces<MoInlinerInterface>();
}

Operation *MoDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  auto tensorType = dyn_cast<mo::TensorType>(type);
  if (!elements || !tensorType)
    return nullptr;
  return ConstantOp::create(builder, loc, tensorType, elements);
}

void mo::registerMoDialect(DialectRegistry &registry) {
  registry.insert<MoDialect>();
}
