//===- MoScalar.h - scalar semantics of mo ops ------------------*- C++ -*-===//
//
// The arith/math computations behind mo's elementwise ops, numpy-exact where
// a single arith op is not (floor division, Python's modulo, bool casts,
// division that never traps). The op registry's scalar maps call these; any
// lowering that builds loop bodies shares them.
//
//===----------------------------------------------------------------------===//

#ifndef MO_DIALECT_MOSCALAR_H
#define MO_DIALECT_MOSCALAR_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::mo::scalar {

/// A constant of builtin scalar `type` (float or integer).
Value constant(OpBuilder &b, Location loc, Type type, double value);
/// 1 / (1 + exp(-x)).
Value sigmoid(OpBuilder &b, Location loc, Value x);
/// log(1 + x) without cancellation for small x.
Value log1p(OpBuilder &b, Location loc, Value x);
/// numpy's `astype` between builtin scalar types; the flags carry the
/// signedness the signless types lost.
Value convert(OpBuilder &b, Location loc, Value x, Type dst, bool srcUnsigned,
              bool dstUnsigned);
/// Integer division flooring like numpy's `//` that never traps: x / 0 is 0
/// and INT_MIN / -1 wraps to INT_MIN.
Value intDiv(OpBuilder &b, Location loc, Value x, Value y, bool isUnsigned);
/// numpy's float floor division (npy_divmod's quotient).
Value floatFloorDiv(OpBuilder &b, Location loc, Value x, Value y);
/// Python's `%` (the remainder has the divisor's sign; x % 0 is 0 for
/// integers and NaN for floats).
Value mod(OpBuilder &b, Location loc, Value x, Value y, bool isFloat,
          bool isUnsigned);
/// Integer power; unsigned operands are widened so that large exponents stay
/// positive (the wrapped result is the same modulo 2^width).
Value intPow(OpBuilder &b, Location loc, Value x, Value y, bool isUnsigned);
/// Comparison with numpy semantics (NaN compares unequal to everything):
/// the float predicate for floats, else the signed or unsigned one.
Value compare(OpBuilder &b, Location loc, Value x, Value y, Type element,
              arith::CmpFPredicate f, arith::CmpIPredicate s,
              arith::CmpIPredicate u);

/// Whether `x` beats the best so far `best` (greater for a max, less for a
/// min; the first NaN beats everything, as numpy's argmax/argmin).
Value isBetter(OpBuilder &b, Location loc, Value x, Value best, Type element,
               bool isMax);
/// `sum` divided by `count` (an index), in the float type of `sum`.
Value mean(OpBuilder &b, Location loc, Value sum, Value count);

/// `fn(x)` computed in f32 when `x` is f16/bf16, rounded once to its type.
Value inF32(OpBuilder &b, Location loc, Value x, function_ref<Value(Value)> fn);
/// The GELU forms: x * Phi(x) with erf, its tanh approximation, and
/// x * sigmoid(1.702 x).
enum class Gelu { Erf, Tanh, Quick };
Value gelu(OpBuilder &b, Location loc, Value x, Gelu form);
/// |x| == inf.
Value isInf(OpBuilder &b, Location loc, Value x);

} // namespace mlir::mo::scalar

#endif // MO_DIALECT_MOSCALAR_H
