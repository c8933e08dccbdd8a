//===- MoOpFolders.cpp - folders of mo operations -------------------------===//

#include "mo/Dialect/MoOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mo;

namespace {
/// The arithmetic of one binary op on scalars; nullopt where it is not
/// folded (integer division by zero, ...).
struct ScalarFn {
  std::optional<APFloat> (*f)(APFloat, APFloat) = nullptr;
  std::optional<APInt> (*i)(APInt, APInt, bool isUnsigned) = nullptr;
};
} // namespace

static std::optional<APFloat> fmax(APFloat a, APFloat b) {
  return llvm::maximum(a, b);
}
static std::optional<APFloat> fmin(APFloat a, APFloat b) {
  return llvm::minimum(a, b);
}

/// Identity element on the right (`x op e == x`), if the op has one.
static std::optional<double> rightIdentity(Operation *op) {
  return TypeSwitch<Operation *, std::optional<double>>(op)
      .Case<AddOp, SubOp>([](auto) { return 0.0; })
      .Case<MulOp, DivOp>([](auto) { return 1.0; })
      .Default([](Operation *) { return std::nullopt; });
}

static bool isSplatOf(Attribute attr, double value) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat())
    return false;
  if (isa<FloatType>(dense.getElementType()))
    return dense.getSplatValue<APFloat>().convertToDouble() == value;
  return dense.getSplatValue<APInt>().getSExtValue() ==
         static_cast<int64_t>(value);
}

OpFoldResult mo::foldBinaryElementwise(Operation *op, Attribute lhs,
                                       Attribute rhs) {
  Value x = op->getOperand(0), y = op->getOperand(1);
  Type resultType = op->getResult(0).getType();
  // Only the ops numpy defines on booleans fold on them (see below).
  bool isBool =
      cast<mo::TensorType>(x.getType()).getElementType().isInteger(1);
  if (isBool && !isa<AddOp, MulOp, MaxOp, MinOp>(op))
    return {};

  // max(x, x) == min(x, x) == x.
  if (isa<MaxOp, MinOp>(op) && x == y)
    return x;
  // x + 0, x - 0, x * 1, x / 1 (and 0 + x, 1 * x for commutative ops), as
  // long as broadcasting does not change the type.
  if (std::optional<double> e = rightIdentity(op)) {
    if (isSplatOf(rhs, *e) && x.getType() == resultType)
      return x;
    if (op->hasTrait<OpTrait::IsCommutative>() && isSplatOf(lhs, *e) &&
        y.getType() == resultType)
      return y;
  }

  // Constant operands of the result's (static) shape, or splats.
  auto l = dyn_cast_or_null<DenseElementsAttr>(lhs);
  auto r = dyn_cast_or_null<DenseElementsAttr>(rhs);
  auto type = cast<mo::TensorType>(resultType);
  if (!l || !r || !type.hasStaticShape())
    return {};
  RankedTensorType valueType = type.toBuiltinTensor();
  auto fits = [&](DenseElementsAttr a) {
    return a.isSplat() || a.getType().getShape() == valueType.getShape();
  };
  if (!fits(l) || !fits(r))
    return {};

  ScalarFn fn =
      TypeSwitch<Operation *, ScalarFn>(op)
          .Case([](AddOp) {
            return ScalarFn{[](APFloat a, APFloat b) -> std::optional<APFloat> {
                              return a + b;
                            },
                            [](APInt a, APInt b, bool) -> std::optional<APInt> {
                              return a + b;
                            }};
          })
          .Case([](SubOp) {
            return ScalarFn{[](APFloat a, APFloat b) -> std::optional<APFloat> {
                              return a - b;
                            },
                            [](APInt a, APInt b, bool) -> std::optional<APInt> {
                              return a - b;
                            }};
          })
          .Case([](MulOp) {
            return ScalarFn{[](APFloat a, APFloat b) -> std::optional<APFloat> {
                              return a * b;
                            },
                            [](APInt a, APInt b, bool) -> std::optional<APInt> {
                              return a * b;
                            }};
          })
          .Case([](DivOp) {
            return ScalarFn{
                [](APFloat a, APFloat b) -> std::optional<APFloat> {
                  return a / b;
                },
                [](APInt a, APInt b, bool u) -> std::optional<APInt> {
                  // Integer division follows numpy's floor semantics.
                  if (b.isZero() || (!u && a.isMinSignedValue() &&
                                     b.isAllOnes()))
                    return std::nullopt;
                  return u ? a.udiv(b) : llvm::APIntOps::RoundingSDiv(
                                             a, b, APInt::Rounding::DOWN);
                }};
          })
          .Case([](MaxOp) {
            return ScalarFn{fmax, [](APInt a, APInt b,
                                     bool u) -> std::optional<APInt> {
                              return u ? llvm::APIntOps::umax(a, b)
                                       : llvm::APIntOps::smax(a, b);
                            }};
          })
          .Case([](MinOp) {
            return ScalarFn{fmin, [](APInt a, APInt b,
                                     bool u) -> std::optional<APInt> {
                              return u ? llvm::APIntOps::umin(a, b)
                                       : llvm::APIntOps::smin(a, b);
                            }};
          })
          .Default([](Operation *) { return ScalarFn{}; });
  if (!fn.f)
    return {};
  // Booleans follow numpy (as the lowering does): + and max are `or`,
  // * and min are `and`.
  if (isBool)
    fn.i = isa<AddOp, MaxOp>(op)
               ? +[](APInt a, APInt b, bool) -> std::optional<APInt> { return a | b; }
               : +[](APInt a, APInt b, bool) -> std::optional<APInt> { return a & b; };

  int64_t n = valueType.getNumElements();
  auto at = [](DenseElementsAttr a, int64_t k) { return a.isSplat() ? 0 : k; };
  Type elementType = type.getElementType();
  if (isa<FloatType>(elementType)) {
    auto lv = l.getValues<APFloat>(), rv = r.getValues<APFloat>();
    SmallVector<APFloat> out;
    out.reserve(n);
    for (int64_t k = 0; k < n; ++k) {
      std::optional<APFloat> v = fn.f(lv[at(l, k)], rv[at(r, k)]);
      if (!v)
        return {};
      out.push_back(*v);
    }
    return DenseElementsAttr::get(valueType, out);
  }
  bool isUnsigned = elementType.isUnsignedInteger();
  auto lv = l.getValues<APInt>(), rv = r.getValues<APInt>();
  SmallVector<APInt> out;
  out.reserve(n);
  for (int64_t k = 0; k < n; ++k) {
    std::optional<APInt> v = fn.i(lv[at(l, k)], rv[at(r, k)], isUnsigned);
    if (!v)
      return {};
    out.push_back(*v);
  }
  return DenseElementsAttr::get(valueType, out);
}
