//===- Model.h - a loaded mo artifact: signature, weights, calls ----------===//
//
// What the C API (mo-c/Runtime.h) wraps. A Model is an artifact's manifest
// read into a signature (dtypes, dims as expressions over the inputs'
// symbols), its object code linked, the weights bound and a pool that
// results are allocated from. Calls build the entry's memref descriptors on
// the stack, so one model runs on several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef MO_RUNTIME_MODEL_H
#define MO_RUNTIME_MODEL_H

#include "mo-c/Runtime.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct MoJit;

namespace mlir::mo::runtime {

struct OpenMP;

inline constexpr const char *kDTypeNames[MO_DTYPE_COUNT] = {
    "float16", "bfloat16", "float32", "float64", "int8",   "int16", "int32",
    "int64",   "uint8",    "uint16",  "uint32",  "uint64", "bool"};
inline constexpr size_t kDTypeSizes[MO_DTYPE_COUNT] = {2, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 1};

/// An error with the C API's code.
struct Failure {
  MoStatusCode code = MO_STATUS_OK;
  std::string message;
  explicit operator bool() const { return code != MO_STATUS_OK; }
};

/// A dim: a static size, a symbol (by index into the model's symbols) or
/// `lhs <op> rhs`.
struct DimExpr {
  enum Kind { Static, Symbol, Add, Sub, Mul, FloorDiv, Mod } kind = Static;
  int64_t value = 0; // the size, or the symbol's index
  std::shared_ptr<DimExpr> lhs, rhs;
};

struct ArgSpec {
  std::string name;
  MoDType dtype = MO_DTYPE_FLOAT32;
  std::vector<DimExpr> shape;
  std::vector<std::string> dimNames; // as written: "4", "batch", "n + 1"
  std::string shapeText;             // "[batch, 2]"
  bool buffer = false;               // an input the code writes
  int64_t alignment = 1;             // bytes (weights)
};

/// Memory of the runtime's pool, handed out as a result.
class Pool;

class Model {
public:
  static std::unique_ptr<Model> load(llvm::StringRef data, llvm::ArrayRef<std::string> libraries,
                                     Failure &failure);
  ~Model();

  const std::string &name() const { return name_; }
  const std::string &manifest() const { return manifest_; }
  const std::vector<ArgSpec> &args(MoArgKind kind) const;
  size_t numBoundDims() const { return boundDims_.size(); }

  Failure bindWeights(llvm::ArrayRef<std::pair<std::string, MoTensorView>> weights);
  Failure execute(llvm::ArrayRef<MoTensorView> inputs, llvm::MutableArrayRef<MoBuffer *> outputs);
  Failure executeInto(llvm::ArrayRef<MoTensorView> inputs, llvm::ArrayRef<MoTensorView> outputs,
                      int64_t *outputShapes);
  Failure outputShape(llvm::ArrayRef<MoTensorView> inputs, size_t i, int64_t *shape);
  Failure invoke(llvm::ArrayRef<MoTensorView> args, int64_t *boundSizes);

private:
  Model() = default;
  Failure parseManifest(llvm::StringRef text);
  /// The inputs checked; `bindings` gets each symbol's size (-1: unbound).
  Failure checkInputs(llvm::ArrayRef<MoTensorView> inputs,
                      llvm::SmallVectorImpl<int64_t> &bindings) const;
  /// The checks before a call (output count, weights bound, inputs) and
  /// every output's allocation shape, concatenated.
  Failure prepare(llvm::ArrayRef<MoTensorView> inputs, size_t numOutputs,
                  llvm::SmallVectorImpl<int64_t> &allocated) const;
  /// Every output's allocation shape, concatenated.
  Failure allocationShapes(llvm::ArrayRef<int64_t> bindings,
                           llvm::SmallVectorImpl<int64_t> &shapes) const;
  /// Calls the entry; `boundSizes` gets the sizes of the dims ops bound.
  Failure call(llvm::ArrayRef<MoTensorView> inputs, llvm::ArrayRef<MoTensorView> weights,
               llvm::ArrayRef<MoTensorView> outputs,
               llvm::SmallVectorImpl<int64_t> &boundSizes) const;
  /// Each output's sizes with its bound dims at their run-time sizes.
  void actualShapes(llvm::ArrayRef<int64_t> allocated, llvm::ArrayRef<int64_t> boundSizes,
                    llvm::SmallVectorImpl<int64_t> &shapes) const;

  std::string manifest_, name_;
  std::vector<ArgSpec> inputs_, outputs_, weights_;
  std::vector<std::string> symbols_, checks_, boundDims_;
  /// The threads the code was compiled for, and the OpenMP runtime it
  /// forks teams of them on (null where it forks none: a small graph runs
  /// on the caller's thread alone); the custom kernels' libraries.
  int64_t threads_ = 1;
  const OpenMP *openmp_ = nullptr;
  std::vector<std::string> customLibraries_;
  /// Per output dim (concatenated): the bound dim it is, or -1.
  std::vector<int> outputBound_;
  /// Per bound dim: its upper bound over the inputs' symbols.
  std::vector<DimExpr> bounds_;
  std::vector<MoTensorView> boundWeights_;
  std::vector<std::vector<int64_t>> weightShapes_;
  bool weightsBound_ = false;
  MoJit *jit_ = nullptr;
  void (*entry_)(void **) = nullptr;
  std::shared_ptr<Pool> pool_;
};

} // namespace mlir::mo::runtime

#endif // MO_RUNTIME_MODEL_H
