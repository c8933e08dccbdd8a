//===- StreamStores.cpp - Large write-only results stored past the caches -===//
//
// A kernel whose buffers together outgrow the last-level cache, and which
// writes a static result of at least half that size without reading it,
// gets a streaming twin, called instead of its body where each such result
// is 64-byte aligned: the twin's stores into them are nontemporal, and it
// carries the "mo-streaming" attribute, which tells code generation
// (moJitCompile) that those buffers are aligned. There the stores it
// vectorized into whole aligned cache lines become streaming stores (no read
// of each line before its write, the caches left to the inputs); the mark
// comes off the others.
//
//===----------------------------------------------------------------------===//

#include "mo/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <fstream>
#include <string>

namespace mlir::mo {
#define GEN_PASS_DEF_MOSTREAMSTORES
#include "Mo/MoPasses.h.inc"
} // namespace mlir::mo

using namespace mlir;

namespace {

/// The size of the last-level cache the first core uses, in bytes: from
/// Linux's sysfs, as lscpu reads it (sysconf's L3 is a whole socket's on
/// some processors: a dozen such caches), else 32 MiB.
int64_t lastLevelCache() {
  int64_t best = 0, bestLevel = 0;
  for (int index = 0;; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream levelFile(dir + "level"), sizeFile(dir + "size");
    int64_t level = 0, size = 0;
    std::string unit;
    if (!(levelFile >> level) || !(sizeFile >> size))
      break;
    sizeFile >> unit;
    size <<= unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : 0;
    if (level > bestLevel || (level == bestLevel && size > best))
      best = size, bestLevel = level;
  }
  return best > 0 ? best : int64_t(32) << 20;
}

/// The memref a store writes through, or null for any other op.
Value storedMemRef(Operation *op) {
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return store.getBase();
  if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    return write.getBase();
  return nullptr;
}

/// Whether `op` (which stores into a memref) can be a nontemporal store:
/// a store, or a 1-D vector transfer in bounds, unmasked, of contiguous
/// elements (a store once convert-vector-to-llvm is done with it).
bool isStreamable(Operation *op) {
  auto write = dyn_cast<vector::TransferWriteOp>(op);
  return !write || (write.getVectorType().getRank() == 1 && !write.getMask() &&
                    write.getInBoundsValues().front() &&
                    write.getPermutationMap().isMinorIdentity() &&
                    cast<MemRefType>(write.getBase().getType()).isLastDimUnitStride());
}

/// Whether every use of `buffer`, through views of it, is a store or a
/// vector transfer into it (memref.dim reads no data), and one of them can
/// be a nontemporal store.
bool isWrittenOnly(Value buffer) {
  SmallVector<Value> worklist{buffer};
  bool stored = false;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::DimOp>(user))
        continue;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == value) {
        worklist.append(user->result_begin(), user->result_end());
        continue;
      }
      if (storedMemRef(user) != value || use.getOperandNumber() == 0)
        return false; // a read, or the buffer stored as a value
      stored |= isStreamable(user);
    }
  }
  return stored;
}

/// The bytes of a static memref of numbers, else 0.
int64_t staticBytes(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape() || !memref.getElementType().isIntOrFloat())
    return 0;
  return memref.getNumElements() * llvm::divideCeil(memref.getElementTypeBitWidth(), 8);
}

/// Whether a buffer of `type` may be streamed: static (a twin for sizes known
/// only at run time would cost every symbolic graph's compile time, for
/// tensors that are mostly small), contiguous, of whole-byte numbers, its
/// rows whole cache lines.
bool mayStream(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() || type.getRank() == 0 ||
      !type.getElementType().isIntOrFloat() || type.getElementTypeBitWidth() % 8)
    return false;
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  return type.getRank() == 1 || type.getShape().back() * bytes % mo::kCacheLineBytes == 0;
}

/// Whether `buffer` starts a cache line.
Value isAligned(OpBuilder &b, Location loc, Value buffer) {
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value offset = arith::AndIOp::create(
      b, loc, address, arith::ConstantIndexOp::create(b, loc, mo::kCacheLineBytes - 1));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, offset,
                               arith::ConstantIndexOp::create(b, loc, 0));
}

/// Whether `func` is a kernel of mo-outline-kernels (one block, no results)
/// and not a twin already.
bool mayHaveTwin(func::FuncOp func) {
  return mo::isKernel(func) && func.getFunctionBody().hasOneBlock() &&
         func.getNumResults() == 0 &&
         !llvm::is_contained(func->getAttrOfType<ArrayAttr>("passthrough").getValue(),
                             StringAttr::get(func.getContext(), mo::kStreamingAttr));
}

/// Marks nontemporal the stores of `func` into `buffers`, through views (the
/// transfers that can be stores made stores; other writes stay as they are).
void markStores(func::FuncOp func, ArrayRef<BlockArgument> buffers) {
  DenseSet<Value> roots(buffers.begin(), buffers.end());
  SmallVector<vector::TransferWriteOp> writes;
  func.walk([&](Operation *op) {
    Value buffer = storedMemRef(op);
    while (buffer && !roots.contains(buffer)) {
      auto view = buffer.getDefiningOp<ViewLikeOpInterface>();
      buffer = view ? view.getViewSource() : nullptr;
    }
    if (!buffer || !isStreamable(op))
      return;
    if (auto store = dyn_cast<memref::StoreOp>(op))
      store.setNontemporal(true);
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      store.setNontemporal(true);
    else
      writes.push_back(cast<vector::TransferWriteOp>(op));
  });
  for (vector::TransferWriteOp write : writes) {
    OpBuilder b(write);
    vector::StoreOp::create(b, write.getLoc(), write.getVector(), write.getBase(),
                            write.getIndices(), /*nontemporal=*/true);
    write.erase();
  }
}

struct MoStreamStoresPass : public mo::impl::MoStreamStoresBase<MoStreamStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    static const int64_t hostCache = lastLevelCache();
    int64_t threshold = minBytes >= 0 ? minBytes : hostCache;
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> kernels(llvm::make_filter_range(
        module.getOps<func::FuncOp>(), mayHaveTwin));
    for (func::FuncOp kernel : kernels) {
      // The kernel's buffers together at least the threshold (they do not
      // fit in the cache together: what it writes leaves the cache before a
      // consumer reads it), the result at least half of it.
      int64_t footprint = 0;
      for (Type type : kernel.getArgumentTypes())
        footprint += staticBytes(type);
      if (footprint < threshold)
        continue;
      SmallVector<unsigned> streamed;
      for (BlockArgument arg : kernel.getArguments())
        if (auto type = dyn_cast<MemRefType>(arg.getType());
            type && mayStream(type) && 2 * staticBytes(type) >= threshold &&
            isWrittenOnly(arg))
          streamed.push_back(arg.getArgNumber());
      if (streamed.empty())
        continue;

      // The twin: the kernel whole, its stores into those buffers marked.
      auto twin = cast<func::FuncOp>(kernel->clone());
      twin.setSymName((kernel.getSymName() + "_streaming").str());
      symbols.insert(twin, std::next(Block::iterator(kernel)));
      SmallVector<Attribute> passthrough(
          kernel->getAttrOfType<ArrayAttr>("passthrough").getValue());
      passthrough.push_back(StringAttr::get(&getContext(), mo::kStreamingAttr));
      twin->setAttr("passthrough", ArrayAttr::get(&getContext(), passthrough));
      markStores(twin, llvm::map_to_vector(streamed, [&](unsigned i) {
                   return twin.getArgument(i);
                 }));

      // The kernel: the twin where every such buffer is aligned, else its body.
      Block &body = kernel.getFunctionBody().front();
      SmallVector<Operation *> ops;
      for (Operation &op : body.without_terminator())
        ops.push_back(&op);
      Location loc = kernel.getLoc();
      OpBuilder b = OpBuilder::atBlockBegin(&body);
      Value aligned;
      for (unsigned i : streamed) {
        Value ok = isAligned(b, loc, kernel.getArgument(i));
        aligned = aligned ? arith::AndIOp::create(b, loc, aligned, ok).getResult() : ok;
      }
      auto branch = scf::IfOp::create(b, loc, TypeRange{}, aligned, /*withElseRegion=*/true);
      OpBuilder then = OpBuilder::atBlockTerminator(branch.thenBlock());
      func::CallOp::create(then, loc, twin, kernel.getArguments());
      for (Operation *op : ops)
        op->moveBefore(branch.elseBlock()->getTerminator());
    }
  }
};

} // namespace
