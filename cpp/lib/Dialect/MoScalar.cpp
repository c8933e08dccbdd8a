//===- MoScalar.cpp - scalar semantics of mo ops --------------------------===//

#include "mo/Dialect/MoScalar.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mo;

Value scalar::constant(OpBuilder &b, Location loc, Type type, double value) {
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

Value scalar::sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = constant(b, loc, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one, arith::AddFOp::create(b, loc, one, e));
}

/// log(1 + x) without cancellation for small x: with u = 1 + x,
/// log(u) * x / (u - 1) is exact to rounding (u == 1 gives x; u == inf, inf).
Value scalar::log1p(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value one = constant(b, loc, t, 1.0);
  Value u = arith::AddFOp::create(b, loc, one, x);
  Value ratio = arith::DivFOp::create(
      b, loc, arith::MulFOp::create(b, loc, math::LogOp::create(b, loc, u), x),
      arith::SubFOp::create(b, loc, u, one));
  Value isOne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, u, one);
  Value inf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(t, APFloat::getInf(cast<FloatType>(t).getFloatSemantics())));
  Value isInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, u, inf);
  Value r = arith::SelectOp::create(b, loc, isInf, u, ratio);
  return arith::SelectOp::create(b, loc, isOne, x, r);
}

/// numpy-style `astype` between builtin scalar types; `srcUnsigned` and
/// `dstUnsigned` carry the signedness the signless types lost.
Value scalar::convert(OpBuilder &b, Location loc, Value x, Type dst,
                    bool srcUnsigned, bool dstUnsigned) {
  Type src = x.getType();
  if (src == dst)
    return x;
  auto srcInt = dyn_cast<IntegerType>(src), dstInt = dyn_cast<IntegerType>(dst);
  auto srcFloat = dyn_cast<FloatType>(src), dstFloat = dyn_cast<FloatType>(dst);
  if (dstInt && dstInt.getWidth() == 1) { // Anything non-zero is true.
    Value zero = constant(b, loc, src, 0);
    if (srcFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  bool srcIsUnsigned = srcUnsigned || (srcInt && srcInt.getWidth() == 1);
  if (srcFloat && dstFloat) {
    if (srcFloat.getWidth() < dstFloat.getWidth())
      return arith::ExtFOp::create(b, loc, dst, x);
    if (srcFloat.getWidth() > dstFloat.getWidth())
      return arith::TruncFOp::create(b, loc, dst, x);
    // f16 <-> bf16: through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, dst, wide);
  }
  if (srcInt && dstFloat)
    return srcIsUnsigned ? Value(arith::UIToFPOp::create(b, loc, dst, x))
                         : Value(arith::SIToFPOp::create(b, loc, dst, x));
  if (srcFloat && dstInt)
    return dstUnsigned ? Value(arith::FPToUIOp::create(b, loc, dst, x))
                       : Value(arith::FPToSIOp::create(b, loc, dst, x));
  if (srcInt.getWidth() < dstInt.getWidth())
    return srcIsUnsigned ? Value(arith::ExtUIOp::create(b, loc, dst, x))
                         : Value(arith::ExtSIOp::create(b, loc, dst, x));
  return arith::TruncIOp::create(b, loc, dst, x);
}

/// Integer division that floors like numpy's `//` and never traps: x / 0 is
/// 0 (numpy warns and gives 0) and INT_MIN / -1 wraps to INT_MIN.
Value scalar::intDiv(OpBuilder &b, Location loc, Value x, Value y,
                 bool isUnsigned) {
  Type t = x.getType();
  auto width = cast<IntegerType>(t).getWidth();
  Value zero = constant(b, loc, t, 0), one = constant(b, loc, t, 1);
  Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value trap = isZero;
  Value overflow;
  if (!isUnsigned) {
    Value minusOne = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, -1));
    Value intMin = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(t, APInt::getSignedMinValue(width)));
    overflow = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, intMin),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, minusOne));
    trap = arith::OrIOp::create(b, loc, isZero, overflow);
  }
  Value safe = arith::SelectOp::create(b, loc, trap, one, y);
  Value q = isUnsigned ? Value(arith::DivUIOp::create(b, loc, x, safe))
                       : Value(arith::FloorDivSIOp::create(b, loc, x, safe));
  if (overflow)
    q = arith::SelectOp::create(b, loc, overflow, x, q);
  return arith::SelectOp::create(b, loc, isZero, zero, q);
}

/// numpy's float divmod (npy_divmod): (floor division, remainder with the
/// divisor's sign), exact where floor(x / y) would round wrongly.
static std::pair<Value, Value> floatDivmod(OpBuilder &b, Location loc, Value x,
                                    Value y) {
  using P = arith::CmpFPredicate;
  Type t = x.getType();
  Value zero = scalar::constant(b, loc, t, 0.0), one = scalar::constant(b, loc, t, 1.0);
  Value half = scalar::constant(b, loc, t, 0.5);
  Value mod = arith::RemFOp::create(b, loc, x, y);
  Value div = arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, x, mod), y);
  Value modNonZero = arith::CmpFOp::create(b, loc, P::UNE, mod, zero);
  Value signsDiffer = arith::XOrIOp::create(
      b, loc, arith::CmpFOp::create(b, loc, P::OLT, y, zero),
      arith::CmpFOp::create(b, loc, P::OLT, mod, zero));
  Value fix = arith::AndIOp::create(b, loc, modNonZero, signsDiffer);
  mod = arith::SelectOp::create(b, loc, fix, arith::AddFOp::create(b, loc, mod, y), mod);
  div = arith::SelectOp::create(b, loc, fix, arith::SubFOp::create(b, loc, div, one), div);
  mod = arith::SelectOp::create(b, loc, modNonZero, mod,
                                math::CopySignOp::create(b, loc, zero, y));
  Value floored = math::FloorOp::create(b, loc, div);
  Value roundUp = arith::CmpFOp::create(
      b, loc, P::OGT, arith::SubFOp::create(b, loc, div, floored), half);
  floored = arith::SelectOp::create(
      b, loc, roundUp, arith::AddFOp::create(b, loc, floored, one), floored);
  Value quotient = arith::DivFOp::create(b, loc, x, y);
  Value divZero = arith::CmpFOp::create(b, loc, P::OEQ, div, zero);
  floored = arith::SelectOp::create(b, loc, divZero,
                                    math::CopySignOp::create(b, loc, zero, quotient),
                                    floored);
  // x // 0 is x / 0 (inf or nan), as numpy gives.
  Value yZero = arith::CmpFOp::create(b, loc, P::OEQ, y, zero);
  floored = arith::SelectOp::create(b, loc, yZero, quotient, floored);
  return {floored, mod};
}

Value scalar::floatFloorDiv(OpBuilder &b, Location loc, Value x, Value y) {
  return floatDivmod(b, loc, x, y).first;
}

/// Python's `%`: the remainder has the divisor's sign; x % 0 is 0 for
/// integers (numpy) and NaN for floats.
Value scalar::mod(OpBuilder &b, Location loc, Value x, Value y, bool isFloat,
            bool isUnsigned) {
  if (isFloat)
    return floatDivmod(b, loc, x, y).second;
  Type t = x.getType();
  Value zero = constant(b, loc, t, 0), one = constant(b, loc, t, 1);
  Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value safe = arith::SelectOp::create(b, loc, isZero, one, y);
  if (isUnsigned)
    return arith::SelectOp::create(
        b, loc, isZero, zero, arith::RemUIOp::create(b, loc, x, safe));
  // x % -1 is 0, but remsi(INT_MIN, -1) traps (x86's idiv overflows): divide
  // by 1 instead, which gives the same 0 for every x.
  Value minusOne = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, -1));
  Value isMinusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, minusOne);
  safe = arith::SelectOp::create(b, loc, isMinusOne, one, safe);
  Value r = arith::RemSIOp::create(b, loc, x, safe);
  Value rNeg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, zero);
  Value yNeg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, safe, zero);
  Value rNonZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, zero);
  Value fix = arith::AndIOp::create(
      b, loc, rNonZero,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rNeg, yNeg));
  Value adjusted = arith::SelectOp::create(
      b, loc, fix, arith::AddIOp::create(b, loc, r, safe), r);
  return arith::SelectOp::create(b, loc, isZero, zero, adjusted);
}

Value scalar::intPow(OpBuilder &b, Location loc, Value x, Value y,
                     bool isUnsigned) {
  Type wide = b.getI64Type(), narrow = x.getType();
  if (!isUnsigned || narrow == wide)
    return math::IPowIOp::create(b, loc, x, y);
  Value p = math::IPowIOp::create(b, loc, arith::ExtUIOp::create(b, loc, wide, x),
                                  arith::ExtUIOp::create(b, loc, wide, y));
  return arith::TruncIOp::create(b, loc, narrow, p);
}

Value scalar::compare(OpBuilder &b, Location loc, Value x, Value y,
                      Type element, arith::CmpFPredicate f,
                      arith::CmpIPredicate s, arith::CmpIPredicate u) {
  if (isa<FloatType>(element))
    return arith::CmpFOp::create(b, loc, f, x, y);
  bool isUnsigned = element.isUnsignedInteger() || element.isInteger(1);
  return arith::CmpIOp::create(b, loc, isUnsigned ? u : s, x, y);
}

Value scalar::isBetter(OpBuilder &b, Location loc, Value x, Value best,
                       Type element, bool isMax) {
  using FP = arith::CmpFPredicate;
  using IP = arith::CmpIPredicate;
  if (!isa<FloatType>(element))
    return compare(b, loc, x, best, element, FP::OGT, isMax ? IP::sgt : IP::slt,
                   isMax ? IP::ugt : IP::ult);
  Value beats = arith::CmpFOp::create(b, loc, isMax ? FP::OGT : FP::OLT, x, best);
  Value xNan = arith::CmpFOp::create(b, loc, FP::UNO, x, x);
  Value bestNumber = arith::CmpFOp::create(b, loc, FP::ORD, best, best);
  return arith::OrIOp::create(b, loc, beats,
                              arith::AndIOp::create(b, loc, xNan, bestNumber));
}

Value scalar::mean(OpBuilder &b, Location loc, Value sum, Value count) {
  Value n = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  Value nf = arith::SIToFPOp::create(b, loc, sum.getType(), n);
  return arith::DivFOp::create(b, loc, sum, nf);
}

Value scalar::inF32(OpBuilder &b, Location loc, Value x,
                    function_ref<Value(Value)> fn) {
  Type type = x.getType();
  if (!isa<Float16Type, BFloat16Type>(type))
    return fn(x);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return arith::TruncFOp::create(b, loc, type, fn(wide));
}

Value scalar::gelu(OpBuilder &b, Location loc, Value x, Gelu form) {
  Type t = x.getType();
  auto c = [&](double v) { return constant(b, loc, t, v); };
  auto mul = [&](Value p, Value q) { return arith::MulFOp::create(b, loc, p, q); };
  Value half = c(0.5), one = c(1.0);
  switch (form) {
  case Gelu::Erf: {
    Value phi = math::ErfOp::create(b, loc, mul(x, c(M_SQRT1_2)));
    return mul(mul(half, x), arith::AddFOp::create(b, loc, one, phi));
  }
  case Gelu::Tanh: {
    Value cube = mul(mul(x, x), x);
    Value inner = mul(c(std::sqrt(2.0 / M_PI)),
                      arith::AddFOp::create(b, loc, x, mul(c(0.044715), cube)));
    return mul(mul(half, x),
               arith::AddFOp::create(b, loc, one, math::TanhOp::create(b, loc, inner)));
  }
  case Gelu::Quick:
    return mul(x, sigmoid(b, loc, mul(c(1.702), x)));
  }
  llvm_unreachable("unknown GELU form");
}

Value scalar::isInf(OpBuilder &b, Location loc, Value x) {
  auto type = cast<FloatType>(x.getType());
  Value inf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics())));
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                               math::AbsFOp::create(b, loc, x), inf);
}
