//===- MoRuntime.cpp - functions JIT-compiled mo code calls ---------------===//
//
// Lowered code calls a few runtime functions (strided copies today). They
// live in mo's own library, which the JIT is pointed at, instead of MLIR's
// runner-utils libraries (which would pull in a second MLIR).
//
//===----------------------------------------------------------------------===//

#include "mlir-c/Support.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
/// The ranked memref descriptor behind an unranked memref.
struct Descriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[]; // sizes[rank], then strides[rank]
};
struct UnrankedMemRef {
  int64_t rank;
  Descriptor *descriptor;
};
} // namespace

/// `memref.copy` between memrefs of any (strided) layout, same shape.
extern "C" MLIR_CAPI_EXPORTED void memrefCopy(int64_t elementSize,
                                              UnrankedMemRef *src,
                                              UnrankedMemRef *dst) {
  int64_t rank = src->rank;
  const int64_t *sizes = src->descriptor->sizesAndStrides;
  const int64_t *srcStrides = sizes + rank;
  const int64_t *dstStrides = dst->descriptor->sizesAndStrides + rank;
  char *srcBase = src->descriptor->aligned + src->descriptor->offset * elementSize;
  char *dstBase = dst->descriptor->aligned + dst->descriptor->offset * elementSize;
  for (int64_t i = 0; i < rank; ++i)
    if (sizes[i] == 0)
      return;
  if (rank == 0) {
    std::memcpy(dstBase, srcBase, elementSize);
    return;
  }
  // Odometer over all indices; the innermost dim is copied element-wise.
  std::vector<int64_t> index(rank, 0);
  while (true) {
    int64_t srcOff = 0, dstOff = 0;
    for (int64_t i = 0; i < rank; ++i) {
      srcOff += index[i] * srcStrides[i];
      dstOff += index[i] * dstStrides[i];
    }
    std::memcpy(dstBase + dstOff * elementSize, srcBase + srcOff * elementSize,
                elementSize);
    int64_t d = rank - 1;
    while (d >= 0 && ++index[d] == sizes[d])
      index[d--] = 0;
    if (d < 0)
      return;
  }
}

//===----------------------------------------------------------------------===//
// bfloat16 conversions (compiler-rt builtins LLVM emits calls to)
//===----------------------------------------------------------------------===//

/// f32 -> bf16 bits, rounding to nearest even; NaNs stay (quiet) NaNs.
static uint16_t floatToBF16Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

/// The ABI returns bf16 like half, in the low bits of xmm0: _Float16 has the
/// same register convention.
static _Float16 asReturned(uint16_t bits) {
  _Float16 out;
  std::memcpy(&out, &bits, sizeof(out));
  return out;
}

extern "C" MLIR_CAPI_EXPORTED _Float16 __truncsfbf2(float value) {
  return asReturned(floatToBF16Bits(value));
}

extern "C" MLIR_CAPI_EXPORTED _Float16 __truncdfbf2(double value) {
  // Via float: double rounding differs from a direct rounding only in rare
  // ties, as in most runtimes.
  return asReturned(floatToBF16Bits(static_cast<float>(value)));
}
