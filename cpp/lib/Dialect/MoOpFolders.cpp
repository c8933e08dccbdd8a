//===- MoOpFolders.cpp - folders of mo operations -------------------------===//

#include "mo/Dialect/MoOps.h"

using namespace mlir;
using namespace mlir::mo;

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
                                       Attribute rhs, const BinaryFold &rule) {
  Value x = op->getOperand(0), y = op->getOperand(1);
  Type resultType = op->getResult(0).getType();
  // Booleans fold only through their own rule (+ is `or`, * is `and`).
  bool isBool =
      cast<mo::TensorType>(x.getType()).getElementType().isInteger(1);
  if (isBool && !rule.boolean)
    return {};

  if (rule.idempotent && x == y)
    return x;
  // x + 0, x - 0, x * 1, x / 1 (and 0 + x, 1 * x for commutative ops), as
  // long as broadcasting does not change the type.
  if (std::optional<double> e = rule.rightIdentity) {
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

  auto intFn = isBool ? rule.boolean : rule.i;
  if (isa<FloatType>(type.getElementType()) ? !rule.f : !intFn)
    return {};

  int64_t n = valueType.getNumElements();
  auto at = [](DenseElementsAttr a, int64_t k) { return a.isSplat() ? 0 : k; };
  Type elementType = type.getElementType();
  if (isa<FloatType>(elementType)) {
    auto lv = l.getValues<APFloat>(), rv = r.getValues<APFloat>();
    SmallVector<APFloat> out;
    out.reserve(n);
    for (int64_t k = 0; k < n; ++k) {
      std::optional<APFloat> v = rule.f(lv[at(l, k)], rv[at(r, k)]);
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
    std::optional<APInt> v = intFn(lv[at(l, k)], rv[at(r, k)], isUnsigned);
    if (!v)
      return {};
    out.push_back(*v);
  }
  return DenseElementsAttr::get(valueType, out);
}
