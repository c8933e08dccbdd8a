//===- MoRuntime.cpp - functions JIT-compiled mo code calls ---------------===//
//
// Lowered code calls a few runtime functions (allocation, strided copies,
// prints). They live in mo's own library, which mo's JIT resolves by address
// (forEachRuntimeSymbol), instead of MLIR's runner-utils libraries (which
// would pull in a second MLIR).
//
//===----------------------------------------------------------------------===//

#include "MoRuntime.h"
#include "OpenMP.h"

#include "mlir-c/Support.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
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

//===----------------------------------------------------------------------===//
// Allocation (finalize-memref-to-llvm{use-generic-functions})
//===----------------------------------------------------------------------===//

namespace {
/// Every block starts 64-byte aligned (a cache line, a zmm register) after
/// a header that records its capacity. Freed blocks of 256 KiB or more are
/// kept, up to 512 MiB, and reused by the next allocation they fit without
/// wasting half: a kernel's scratch (packed operands, temporaries) is then
/// the same warm pages call after call, where malloc would map fresh pages
/// and fault on each first touch.
constexpr size_t kHeader = 64;
constexpr size_t kCachedFrom = 256 << 10;
constexpr size_t kCacheLimit = size_t(512) << 20;

struct Header {
  size_t capacity;
  size_t headerSize;
};

struct BlockCache {
  std::mutex mutex;
  std::vector<char *> blocks; // user pointers
  size_t bytes = 0;
};

BlockCache &blockCache() {
  static BlockCache *cache = new BlockCache(); // outlives every JIT'd caller
  return *cache;
}

Header *headerOf(void *block) {
  auto *user = static_cast<char *>(block);
  return reinterpret_cast<Header *>(user - sizeof(Header));
}

thread_local mlir::mo::AllocationFailure *armedFailure = nullptr;

[[noreturn]] void failAllocation(size_t size) {
  mlir::mo::AllocationFailure *failure = armedFailure;
  if (failure && !mlir::mo::runtime::inOpenMPRegion()) {
    failure->bytes = size;
    std::longjmp(failure->target, 1);
  }
  std::fprintf(stderr, "mo: compiled code cannot allocate %zu bytes (out of memory), "
                       "and cannot return an error from a parallel region: aborting\n",
               size);
  std::abort();
}

void *allocate(size_t alignment, size_t size) {
  size_t headerSize = alignment > kHeader ? alignment : kHeader;
  // A size computed from dims that overflowed is huge: it fails like one.
  if (size > (SIZE_MAX >> 1))
    failAllocation(size);
  if (size >= kCachedFrom && headerSize == kHeader) {
    BlockCache &cache = blockCache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    size_t best = cache.blocks.size();
    for (size_t i = 0; i < cache.blocks.size(); ++i) {
      size_t capacity = headerOf(cache.blocks[i])->capacity;
      if (capacity >= size && capacity / 2 <= size &&
          (best == cache.blocks.size() ||
           capacity < headerOf(cache.blocks[best])->capacity))
        best = i;
    }
    if (best != cache.blocks.size()) {
      char *block = cache.blocks[best];
      cache.blocks.erase(cache.blocks.begin() + best);
      cache.bytes -= headerOf(block)->capacity;
      return block;
    }
  }
  void *base = nullptr;
  if (posix_memalign(&base, headerSize, headerSize + (size ? size : 1)) != 0)
    failAllocation(size);
  char *user = static_cast<char *>(base) + headerSize;
  *headerOf(user) = Header{size, headerSize};
  return user;
}
} // namespace

mlir::mo::AllocationFailure *
mlir::mo::armAllocationFailure(AllocationFailure *failure) {
  AllocationFailure *previous = armedFailure;
  armedFailure = failure;
  return previous;
}

extern "C" MLIR_CAPI_EXPORTED void *_mlir_memref_to_llvm_alloc(size_t size) {
  return allocate(kHeader, size);
}

extern "C" MLIR_CAPI_EXPORTED void *
_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  return allocate(alignment, size);
}

extern "C" MLIR_CAPI_EXPORTED void _mlir_memref_to_llvm_free(void *block) {
  if (!block)
    return;
  Header header = *headerOf(block);
  if (header.capacity >= kCachedFrom && header.headerSize == kHeader) {
    BlockCache &cache = blockCache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.bytes + header.capacity <= kCacheLimit) {
      cache.blocks.push_back(static_cast<char *>(block));
      cache.bytes += header.capacity;
      return;
    }
  }
  std::free(static_cast<char *>(block) - header.headerSize);
}

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
// mo.print
//===----------------------------------------------------------------------===//

namespace {
/// How mo.print's lowering names an element type: kind and bit width.
enum class Kind : int64_t { Float = 0, Signed = 1, Unsigned = 2, Bool = 3 };

float halfToFloat(uint16_t h, bool isBF16) {
  if (isBF16) {
    uint32_t bits = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
  }
  _Float16 v;
  std::memcpy(&v, &h, sizeof(v));
  return static_cast<float>(v);
}

void printElement(const char *p, Kind kind, int64_t bits, bool isBF16) {
  switch (kind) {
  case Kind::Bool:
    std::fputs(*p ? "True" : "False", stdout);
    return;
  case Kind::Float: {
    double v;
    if (bits == 64) {
      std::memcpy(&v, p, 8);
    } else if (bits == 32) {
      float f;
      std::memcpy(&f, p, 4);
      v = f;
    } else {
      uint16_t h;
      std::memcpy(&h, p, 2);
      v = halfToFloat(h, isBF16);
    }
    // numpy-style: the shortest digits that read back as the value (of its
    // width; halves as floats), and a point (`2.`) unless there is an exponent.
    char text[32];
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(text, sizeof(text), "%.*g", digits, v);
      double back = std::strtod(text, nullptr);
      if (bits == 64 ? back == v : static_cast<float>(back) == static_cast<float>(v))
        break;
    }
    std::fputs(text, stdout);
    if (!std::strpbrk(text, ".eni"))
      std::fputc('.', stdout);
    return;
  }
  case Kind::Signed:
  case Kind::Unsigned: {
    uint64_t u = 0;
    std::memcpy(&u, p, bits / 8);
    if (kind == Kind::Signed && bits < 64 && (u >> (bits - 1)) & 1)
      u |= ~uint64_t(0) << bits; // sign-extend
    if (kind == Kind::Signed)
      std::printf("%lld", static_cast<long long>(u));
    else
      std::printf("%llu", static_cast<unsigned long long>(u));
    return;
  }
  }
}

void printDims(const char *base, const int64_t *sizes, const int64_t *strides,
               int64_t rank, int64_t dim, int64_t bytes, Kind kind, int64_t bits,
               bool isBF16, int64_t indent) {
  if (dim == rank) {
    printElement(base, kind, bits, isBF16);
    return;
  }
  std::fputc('[', stdout);
  for (int64_t i = 0; i < sizes[dim]; ++i) {
    if (i > 0) {
      if (dim + 1 == rank) {
        std::fputc(' ', stdout);
      } else {
        std::fputc('\n', stdout);
        for (int64_t k = 0; k < indent + 1; ++k)
          std::fputc(' ', stdout);
      }
    }
    printDims(base + i * strides[dim] * bytes, sizes, strides, rank, dim + 1, bytes,
              kind, bits, isBF16, indent + 1);
  }
  std::fputc(']', stdout);
}
} // namespace

/// Prints `label: <elements>` and a newline. `label` is a rank-1 i8 memref
/// (no terminator); kind -1 prints the label alone. `kind` and `bits` name
/// the element type (kind 4 is bfloat16).
static void print(int64_t kind, int64_t bits, UnrankedMemRef *value,
                  UnrankedMemRef *label) {
  Descriptor *l = label->descriptor;
  std::fwrite(l->aligned + l->offset, 1, static_cast<size_t>(l->sizesAndStrides[0]),
              stdout);
  if (kind >= 0) {
    bool isBF16 = kind == 4;
    Kind k = isBF16 ? Kind::Float : static_cast<Kind>(kind);
    int64_t bytes = bits == 1 ? 1 : bits / 8;
    Descriptor *d = value->descriptor;
    std::fputs(": ", stdout);
    printDims(d->aligned + d->offset * bytes, d->sizesAndStrides,
              d->sizesAndStrides + value->rank, value->rank, 0, bytes, k, bits,
              isBF16, std::strlen(": ") + l->sizesAndStrides[0]);
  }
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

// One entry point per storage type (mo.print's lowering declares the one it
// calls, with llvm.emit_c_interface).
#define MO_PRINT(suffix)                                                       \
  extern "C" MLIR_CAPI_EXPORTED void _mlir_ciface_moPrint_##suffix(            \
      int64_t kind, int64_t bits, UnrankedMemRef *value, UnrankedMemRef *label) { \
    print(kind, bits, value, label);                                           \
  }
MO_PRINT(i8)
MO_PRINT(i16)
MO_PRINT(i32)
MO_PRINT(i64)
MO_PRINT(f16)
MO_PRINT(bf16)
MO_PRINT(f32)
MO_PRINT(f64)
#undef MO_PRINT

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

//===----------------------------------------------------------------------===//
// The symbol table
//===----------------------------------------------------------------------===//

namespace mlir::mo {
void forEachRuntimeSymbol(void (*visit)(const char *name, void *address, void *user),
                          void *user) {
#define MO_SYMBOL(name) visit(#name, reinterpret_cast<void *>(&name), user);
  MO_SYMBOL(_mlir_memref_to_llvm_alloc)
  MO_SYMBOL(_mlir_memref_to_llvm_aligned_alloc)
  MO_SYMBOL(_mlir_memref_to_llvm_free)
  MO_SYMBOL(memrefCopy)
  MO_SYMBOL(_mlir_ciface_moPrint_i8)
  MO_SYMBOL(_mlir_ciface_moPrint_i16)
  MO_SYMBOL(_mlir_ciface_moPrint_i32)
  MO_SYMBOL(_mlir_ciface_moPrint_i64)
  MO_SYMBOL(_mlir_ciface_moPrint_f16)
  MO_SYMBOL(_mlir_ciface_moPrint_bf16)
  MO_SYMBOL(_mlir_ciface_moPrint_f32)
  MO_SYMBOL(_mlir_ciface_moPrint_f64)
  MO_SYMBOL(__truncsfbf2)
  MO_SYMBOL(__truncdfbf2)
#undef MO_SYMBOL
}
} // namespace mlir::mo
