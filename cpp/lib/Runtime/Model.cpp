//===- Model.cpp - a loaded mo artifact: signature, weights, calls --------===//
//
// The manifest (JSON, written by mo.compiler) holds:
//   format: 1; entry: the entry graph's name;
//   inputs/outputs: [{name, dtype, shape, dims, buffer}], a dim an int, a
//     symbol's name or [op, lhs, rhs] (op add/sub/mul/floordiv/mod), `dims`
//     the same as written;
//   weights: [{name, dtype, shape, alignment}];
//   checks: the compiled code's messages by status - 1 ({actual} and
//     {expected} replaced by the sizes the code saw);
//   bound_dims: output dims sized by the data; bounds: {dim: expr}, the size
//     to allocate;
//   target: {triple, cpu, features}; threads; libraries; compiler;
//   content_hash; opt_level.
//
//===----------------------------------------------------------------------===//

#include "Model.h"
#include "MoRuntime.h"
#include "OpenMP.h"

#include "Artifact.h"
#include "mo-c/Jit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Memory.h"

#include <cstdlib>
#include <cstring>

using namespace mlir::mo;
using namespace mlir::mo::runtime;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using llvm::StringRef;

namespace {

/// Results below this are plain allocations: malloc reuses warm memory by
/// itself; above it a fresh block is fresh pages, each first write a fault.
constexpr size_t kPooledBytes = 1 << 16;
constexpr size_t kAlign = 64;

Failure fail(MoStatusCode code, std::string message) { return {code, std::move(message)}; }
Failure invalidArgument(std::string message) {
  return fail(MO_STATUS_INVALID_ARGUMENT, std::move(message));
}
Failure invalidArtifact(std::string message) {
  return fail(MO_STATUS_INVALID_ARTIFACT, std::move(message));
}

std::string shapeText(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [i, size] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(size);
  return text + "]";
}

ArrayRef<int64_t> viewShape(const MoTensorView &view) {
  return view.rank > 0 && view.shape ? ArrayRef<int64_t>(view.shape, view.rank)
                                     : ArrayRef<int64_t>();
}

int64_t elements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t size : shape)
    n *= size;
  return n;
}

/// Whether the view is row-major contiguous (sizes of 1 may have any
/// stride, and an empty view is).
bool contiguous(const MoTensorView &view) {
  if (!view.strides || elements(ArrayRef<int64_t>(view.shape, view.rank)) == 0)
    return true;
  int64_t expected = 1;
  for (int64_t axis = view.rank - 1; axis >= 0; --axis) {
    if (view.shape[axis] != 1 && view.strides[axis] != expected)
      return false;
    expected *= view.shape[axis];
  }
  return true;
}

/// The value of `e`, or a message: a symbol unbound, a negative result, a
/// division by zero (as mo.graph.dim evaluates).
bool evaluate(const DimExpr &e, ArrayRef<int64_t> bindings, int64_t &out) {
  switch (e.kind) {
  case DimExpr::Static:
    out = e.value;
    return true;
  case DimExpr::Symbol:
    out = bindings[e.value];
    return out >= 0;
  default:
    break;
  }
  int64_t a, b;
  if (!evaluate(*e.lhs, bindings, a) || !evaluate(*e.rhs, bindings, b))
    return false;
  // A size that overflows cannot be allocated: it is no size at all.
  switch (e.kind) {
  case DimExpr::Add:
    if (llvm::AddOverflow(a, b, out))
      return false;
    break;
  case DimExpr::Sub:
    if (llvm::SubOverflow(a, b, out))
      return false;
    break;
  case DimExpr::Mul:
    if (llvm::MulOverflow(a, b, out))
      return false;
    break;
  case DimExpr::FloorDiv:
  case DimExpr::Mod:
    if (b == 0)
      return false;
    out = e.kind == DimExpr::FloorDiv ? a / b : a % b;
    break;
  default:
    return false;
  }
  return out >= 0;
}

void collectSymbols(const DimExpr &e, SmallVector<int64_t> &out) {
  if (e.kind == DimExpr::Symbol)
    out.push_back(e.value);
  if (e.lhs)
    collectSymbols(*e.lhs, out);
  if (e.rhs)
    collectSymbols(*e.rhs, out);
}

/// Reads the manifest's fields, naming the first one missing or mistyped.
class ManifestReader {
public:
  explicit ManifestReader(std::vector<std::string> &symbols) : symbols(symbols) {}
  std::string error;

  const llvm::json::Value *field(const llvm::json::Object &o, StringRef key, StringRef what) {
    const llvm::json::Value *v = o.get(key);
    if (!v && error.empty())
      error = ("the manifest's " + what + " has no '" + key + "'").str();
    return v;
  }
  std::string string(const llvm::json::Object &o, StringRef key, StringRef what) {
    const llvm::json::Value *v = field(o, key, what);
    if (!v)
      return "";
    if (auto s = v->getAsString())
      return s->str();
    mistyped(key, what, "a string");
    return "";
  }
  int64_t integer(const llvm::json::Object &o, StringRef key, StringRef what) {
    const llvm::json::Value *v = field(o, key, what);
    if (!v)
      return 0;
    if (auto i = v->getAsInteger())
      return *i;
    mistyped(key, what, "an integer");
    return 0;
  }
  const llvm::json::Array *array(const llvm::json::Object &o, StringRef key, StringRef what) {
    const llvm::json::Value *v = field(o, key, what);
    if (!v)
      return nullptr;
    if (auto *a = v->getAsArray())
      return a;
    mistyped(key, what, "an array");
    return nullptr;
  }
  void mistyped(StringRef key, StringRef what, StringRef expected) {
    if (error.empty())
      error = ("the manifest's " + what + " '" + key + "' is not " + expected).str();
  }

  int64_t symbol(StringRef name) {
    for (auto [i, s] : llvm::enumerate(symbols))
      if (s == name)
        return i;
    symbols.push_back(name.str());
    return symbols.size() - 1;
  }

  bool dim(const llvm::json::Value &v, DimExpr &out, int depth = 0) {
    if (auto i = v.getAsInteger(); i && *i >= 0) {
      out = {DimExpr::Static, *i, nullptr, nullptr};
      return true;
    }
    if (auto s = v.getAsString()) {
      out = {DimExpr::Symbol, symbol(*s), nullptr, nullptr};
      return true;
    }
    const llvm::json::Array *a = v.getAsArray();
    static const StringRef ops[] = {"add", "sub", "mul", "floordiv", "mod"};
    if (!a || a->size() != 3 || depth > 64 || !(*a)[0].getAsString())
      return false;
    StringRef op = *(*a)[0].getAsString();
    auto it = llvm::find(ops, op);
    if (it == std::end(ops))
      return false;
    out.kind = static_cast<DimExpr::Kind>(DimExpr::Add + (it - std::begin(ops)));
    out.lhs = std::make_shared<DimExpr>();
    out.rhs = std::make_shared<DimExpr>();
    return dim((*a)[1], *out.lhs, depth + 1) && dim((*a)[2], *out.rhs, depth + 1);
  }

  void args(const llvm::json::Object &manifest, StringRef key, std::vector<ArgSpec> &out) {
    const llvm::json::Array *list = array(manifest, key, "top level");
    if (!list)
      return;
    for (auto [i, v] : llvm::enumerate(*list)) {
      std::string what = (key + " " + llvm::Twine(i)).str();
      const llvm::json::Object *o = v.getAsObject();
      if (!o) {
        if (error.empty())
          error = "the manifest's " + what + " is not an object";
        return;
      }
      ArgSpec spec;
      spec.name = string(*o, "name", what);
      std::string dtype = string(*o, "dtype", what);
      auto found = llvm::find(kDTypeNames, dtype);
      if (found == std::end(kDTypeNames) && error.empty())
        error = "the manifest's " + what + " has an unknown dtype '" + dtype + "'";
      spec.dtype = static_cast<MoDType>(found - std::begin(kDTypeNames));
      const llvm::json::Array *shape = array(*o, "shape", what);
      const llvm::json::Array *dims = o->get("dims") ? array(*o, "dims", what) : nullptr;
      if (!error.empty())
        return;
      spec.shapeText = "[";
      for (auto [axis, d] : llvm::enumerate(*shape)) {
        DimExpr e;
        if (!dim(d, e)) {
          error = "the manifest's " + what + " has a malformed dim at axis " +
                  std::to_string(axis);
          return;
        }
        spec.shape.push_back(e);
        std::string text;
        if (dims && axis < dims->size() && (*dims)[axis].getAsString())
          text = (*dims)[axis].getAsString()->str();
        else if (auto n = d.getAsInteger())
          text = std::to_string(*n);
        else if (auto s = d.getAsString())
          text = s->str();
        else
          text = "?";
        spec.shapeText += (axis ? ", " : "") + text;
        spec.dimNames.push_back(std::move(text));
      }
      spec.shapeText += "]";
      if (auto b = o->getBoolean("buffer"))
        spec.buffer = *b;
      if (auto a = o->getInteger("alignment"))
        spec.alignment = std::max<int64_t>(1, *a);
      out.push_back(std::move(spec));
    }
  }

private:
  std::vector<std::string> &symbols;
};

/// "+avx2,-sse4a,..." as the set of features enabled.
llvm::StringSet<> enabledFeatures(StringRef features) {
  llvm::StringSet<> set;
  SmallVector<StringRef> parts;
  features.split(parts, ',', -1, false);
  for (StringRef f : parts)
    if (f.consume_front("+"))
      set.insert(f);
  return set;
}

void appendTo(MlirStringRef text, void *user) {
  static_cast<std::string *>(user)->append(text.data, text.length);
}

} // namespace

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

struct MoBuffer {
  std::shared_ptr<Pool> pool;
  void *data = nullptr;
  size_t capacity = 0; // bytes allocated
  size_t bytes = 0;    // bytes of the result
  MoDType dtype = MO_DTYPE_FLOAT32;
  std::vector<int64_t> shape;
};

namespace mlir::mo::runtime {
/// The last large results freed, handed out again for results of the same
/// size: a loop that drops each result before it makes the next writes to
/// warm memory.
class Pool {
public:
  explicit Pool(size_t keep) : keep(keep) {}
  ~Pool() {
    for (auto &[size, data] : free)
      std::free(data);
  }
  void *take(size_t bytes) {
    if (bytes >= kPooledBytes) {
      std::lock_guard<std::mutex> lock(mutex);
      for (size_t i = 0; i < free.size(); ++i)
        if (free[i].first == bytes) {
          void *data = free[i].second;
          free.erase(free.begin() + i);
          return data;
        }
    }
    return std::aligned_alloc(kAlign, llvm::alignTo(std::max<size_t>(bytes, 1), kAlign));
  }
  void give(void *data, size_t bytes) {
    if (bytes >= kPooledBytes) {
      std::lock_guard<std::mutex> lock(mutex);
      if (free.size() >= keep) {
        std::free(free.front().second);
        free.erase(free.begin());
      }
      free.push_back({bytes, data});
      return;
    }
    std::free(data);
  }

private:
  size_t keep;
  std::mutex mutex;
  std::vector<std::pair<size_t, void *>> free;
};
} // namespace mlir::mo::runtime

void *moBufferData(const MoBuffer *buffer) { return buffer->data; }
MoDType moBufferDType(const MoBuffer *buffer) { return buffer->dtype; }
int64_t moBufferRank(const MoBuffer *buffer) { return buffer->shape.size(); }
const int64_t *moBufferShape(const MoBuffer *buffer) { return buffer->shape.data(); }
size_t moBufferBytes(const MoBuffer *buffer) { return buffer->bytes; }
void moBufferDestroy(MoBuffer *buffer) {
  if (!buffer)
    return;
  buffer->pool->give(buffer->data, buffer->capacity);
  delete buffer;
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

Model::~Model() {
  if (jit_)
    moJitDestroy(jit_);
}

const std::vector<ArgSpec> &Model::args(MoArgKind kind) const {
  return kind == MO_ARG_INPUT ? inputs_ : kind == MO_ARG_OUTPUT ? outputs_ : weights_;
}

Failure Model::parseManifest(StringRef text) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return invalidArtifact("malformed manifest: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *manifest = parsed->getAsObject();
  if (!manifest)
    return invalidArtifact("malformed manifest: not a JSON object");
  ManifestReader read(symbols_);
  int64_t format = read.integer(*manifest, "format", "top level");
  if (read.error.empty() && format != 1)
    return invalidArtifact("the manifest is of format " + std::to_string(format) +
                           "; this runtime reads format 1");
  name_ = read.string(*manifest, "entry", "top level");
  read.args(*manifest, "inputs", inputs_);
  read.args(*manifest, "outputs", outputs_);
  read.args(*manifest, "weights", weights_);
  if (const llvm::json::Array *checks = read.array(*manifest, "checks", "top level"))
    for (const llvm::json::Value &c : *checks)
      checks_.push_back(c.getAsString() ? c.getAsString()->str() : "?");
  if (const llvm::json::Array *bound = read.array(*manifest, "bound_dims", "top level"))
    for (const llvm::json::Value &b : *bound)
      boundDims_.push_back(b.getAsString() ? b.getAsString()->str() : "?");
  if (!read.error.empty())
    return invalidArtifact(read.error);
  threads_ = manifest->getInteger("threads").value_or(1);
  if (const llvm::json::Array *custom = manifest->getArray("libraries"))
    for (const llvm::json::Value &l : *custom)
      if (auto s = l.getAsString())
        customLibraries_.push_back(s->str());
  const llvm::json::Object *bounds = manifest->getObject("bounds");
  for (const std::string &dim : boundDims_) {
    const llvm::json::Value *bound = bounds ? bounds->get(dim) : nullptr;
    DimExpr e;
    if (!bound || !read.dim(*bound, e))
      return invalidArtifact("the manifest has no bound for the output dim '" + dim + "'");
    bounds_.push_back(e);
  }
  for (const ArgSpec &out : outputs_)
    for (const DimExpr &d : out.shape) {
      int bound = -1;
      if (d.kind == DimExpr::Symbol)
        for (auto [i, name] : llvm::enumerate(boundDims_))
          if (symbols_[d.value] == name)
            bound = i;
      outputBound_.push_back(bound);
    }
  for (const ArgSpec &w : weights_)
    for (const DimExpr &d : w.shape)
      if (d.kind != DimExpr::Static)
        return invalidArtifact("the manifest's weight '" + w.name + "' has a symbolic shape");
  // The target: code for features the host lacks would fault at its first
  // such instruction, so it is refused here.
  std::string host, error;
  if (!moJitHostTarget(appendTo, &host, appendTo, &error))
    return fail(MO_STATUS_INTERNAL, "cannot identify the host: " + error);
  SmallVector<StringRef, 3> hostParts;
  StringRef(host).split(hostParts, ' ', 2);
  const llvm::json::Object *target = manifest->getObject("target");
  if (!target)
    return invalidArtifact("the manifest has no 'target'");
  std::string triple = read.string(*target, "triple", "target");
  std::string features = read.string(*target, "features", "target");
  if (!read.error.empty())
    return invalidArtifact(read.error);
  if (hostParts.size() < 3 || triple != hostParts[0])
    return invalidArtifact("compiled for " + triple + ", this host is " +
                           (hostParts.empty() ? "unknown" : hostParts[0].str()));
  llvm::StringSet<> have = enabledFeatures(hostParts[2]);
  std::string missing;
  for (const auto &f : enabledFeatures(features))
    if (!have.contains(f.getKey()))
      missing += (missing.empty() ? "+" : ", +") + f.getKey().str();
  if (!missing.empty())
    return invalidArtifact("compiled for CPU features this host lacks (" + missing +
                           "): compile it again on this machine");
  return {};
}

std::unique_ptr<Model> Model::load(StringRef data, ArrayRef<std::string> libraries,
                                   Failure &failure) {
  llvm::Expected<artifact::Contents> contents = artifact::read(data);
  if (!contents) {
    failure = invalidArtifact(llvm::toString(contents.takeError()));
    return nullptr;
  }
  std::unique_ptr<Model> model(new Model());
  model->manifest_ = contents->manifest.str();
  if ((failure = model->parseManifest(contents->manifest)))
    return nullptr;
  // The libraries the code calls into: the caller's, else LLVM's OpenMP
  // runtime by name for a model of several threads; then custom kernels'.
  std::vector<std::string> paths(libraries.begin(), libraries.end());
  if (paths.empty() && model->threads_ > 1)
    paths.push_back("libomp.so");
  llvm::append_range(paths, model->customLibraries_);
  SmallVector<MlirStringRef> refs, objects;
  for (const std::string &p : paths)
    refs.push_back(mlirStringRefCreate(p.data(), p.size()));
  for (StringRef object : contents->objects)
    objects.push_back(mlirStringRefCreate(object.data(), object.size()));
  std::string error;
  model->jit_ = moJitLoad(static_cast<int>(objects.size()), objects.data(),
                          static_cast<int>(refs.size()), refs.data(), appendTo, &error);
  if (!model->jit_) {
    failure = fail(MO_STATUS_INTERNAL, "linking the artifact's code failed: " + error);
    return nullptr;
  }
  std::string symbol = "_mo_packed_" + model->name_;
  model->entry_ = reinterpret_cast<void (*)(void **)>(
      moJitLookup(model->jit_, mlirStringRefCreate(symbol.data(), symbol.size())));
  if (!model->entry_) {
    failure = invalidArtifact("the artifact's code has no entry function '" + model->name_ + "'");
    return nullptr;
  }
  if (model->threads_ > 1 && forksTeams(contents->objects))
    model->openmp_ = findOpenMP(paths);
  model->boundWeights_.resize(model->weights_.size());
  model->weightShapes_.resize(model->weights_.size());
  model->weightsBound_ = model->weights_.empty();
  model->pool_ = std::make_shared<Pool>(2 * model->outputs_.size() + 2);
  return model;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// Checks a view's data: not null (unless empty), aligned to `alignment`.
static Failure checkData(const MoTensorView &view, StringRef what, int64_t alignment) {
  if (!view.data && elements(viewShape(view)) != 0)
    return invalidArgument((what + ": its data is null").str());
  if (reinterpret_cast<uintptr_t>(view.data) % alignment != 0)
    return invalidArgument((what + ": its data at " +
                            llvm::utohexstr(reinterpret_cast<uintptr_t>(view.data)) +
                            " is not aligned to " + llvm::Twine(alignment) + " bytes")
                               .str());
  if (!contiguous(view))
    return invalidArgument(
        (what + ": expected row-major contiguous data, got strides " +
         shapeText(ArrayRef<int64_t>(view.strides, view.rank)) + " (in elements)")
            .str());
  return {};
}

/// "argument x: expected float32 shape [n, 3] on cpu:0, got float64 shape
/// [2, 3] on cpu:0", as mo.sharding's layout check says it.
static Failure layoutMismatch(const ArgSpec &spec, const MoTensorView &view,
                              const std::string &extra = "") {
  return invalidArgument("argument " + spec.name + ": expected " + kDTypeNames[spec.dtype] +
                         " shape " + spec.shapeText + " on cpu:0, got " +
                         moDTypeName(view.dtype) +
                         " shape " + shapeText(viewShape(view)) + " on cpu:0" + extra);
}

Failure Model::checkInputs(ArrayRef<MoTensorView> inputs,
                           SmallVectorImpl<int64_t> &bindings) const {
  if (inputs.size() != inputs_.size())
    return invalidArgument(name_ + ": expected " + std::to_string(inputs_.size()) +
                           " inputs, got " + std::to_string(inputs.size()));
  bindings.assign(symbols_.size(), -1);
  // Which argument and axis bound each symbol, for the messages.
  SmallVector<std::pair<int, int>, 8> source(symbols_.size(), {-1, -1});
  for (auto [i, view] : llvm::enumerate(inputs)) {
    const ArgSpec &spec = inputs_[i];
    std::string what = "argument " + spec.name;
    auto mismatch = [&] { return layoutMismatch(spec, view); };
    if (view.dtype != spec.dtype || view.rank != static_cast<int64_t>(spec.shape.size()) ||
        (view.rank > 0 && !view.shape))
      return mismatch();
    for (int64_t axis = 0; axis < view.rank; ++axis) {
      const DimExpr &d = spec.shape[axis];
      int64_t size = view.shape[axis];
      if (size < 0)
        return mismatch();
      if (d.kind == DimExpr::Static && d.value != size)
        return mismatch();
      if (d.kind != DimExpr::Symbol)
        continue;
      int64_t &bound = bindings[d.value];
      if (bound < 0) {
        bound = size;
        source[d.value] = {static_cast<int>(i), static_cast<int>(axis)};
      } else if (bound != size) {
        const std::string &sym = symbols_[d.value];
        auto [arg, at] = source[d.value];
        if (arg == static_cast<int>(i))
          return invalidArgument("dim '" + sym + "' is " + std::to_string(bound) +
                                 " at axis " + std::to_string(at) + " but " +
                                 std::to_string(size) + " at axis " + std::to_string(axis) +
                                 " of " + what);
        return invalidArgument("dim '" + sym + "' is " + std::to_string(bound) +
                               " in argument " + inputs_[arg].name + " but " +
                               std::to_string(size) + " in " + what);
      }
    }
    if (Failure f = checkData(view, what, kDTypeSizes[spec.dtype]))
      return f;
    if (spec.buffer && view.readOnly)
      return invalidArgument(what + ": a buffer argument must be writable (the code writes "
                                    "it), got read-only memory");
  }
  // Dim expressions, once every argument has bound its symbols.
  for (auto [i, view] : llvm::enumerate(inputs)) {
    const ArgSpec &spec = inputs_[i];
    for (auto [axis, d] : llvm::enumerate(spec.shape)) {
      if (d.kind == DimExpr::Static || d.kind == DimExpr::Symbol)
        continue;
      SmallVector<int64_t> used;
      collectSymbols(d, used);
      if (llvm::any_of(used, [&](int64_t s) { return bindings[s] < 0; }))
        continue; // the compiled code checks it
      int64_t expected;
      std::string with;
      llvm::sort(used);
      used.erase(std::unique(used.begin(), used.end()), used.end());
      for (int64_t s : used)
        with += (with.empty() ? "" : ", ") + symbols_[s] + "=" + std::to_string(bindings[s]);
      if (!evaluate(d, bindings, expected))
        return invalidArgument("argument " + spec.name + ": dim " + std::to_string(axis) +
                               " is " + spec.dimNames[axis] +
                               ", which is negative or divides by zero with " + with);
      if (expected != view.shape[axis])
        return layoutMismatch(spec, view,
                              " (dim " + std::to_string(axis) + " is " + spec.dimNames[axis] +
                                  " = " + std::to_string(expected) + " with " + with + ")");
    }
  }
  // A buffer the code writes must not share memory with another argument.
  for (auto [i, view] : llvm::enumerate(inputs)) {
    if (!inputs_[i].buffer || !view.data)
      continue;
    auto begin = reinterpret_cast<uintptr_t>(view.data);
    auto end = begin + elements(viewShape(view)) * kDTypeSizes[view.dtype];
    for (auto [j, other] : llvm::enumerate(inputs)) {
      if (j == i || !other.data)
        continue;
      auto b = reinterpret_cast<uintptr_t>(other.data);
      auto e = b + elements(viewShape(other)) * kDTypeSizes[other.dtype];
      if (b < end && begin < e)
        return invalidArgument("argument " + inputs_[i].name +
                               " is a buffer that shares memory with argument " +
                               inputs_[j].name + "; pass a copy of one of them");
    }
  }
  return {};
}

Failure Model::allocationShapes(ArrayRef<int64_t> bindings,
                                SmallVectorImpl<int64_t> &shapes) const {
  SmallVector<int64_t, 8> full(bindings.begin(), bindings.end());
  for (auto [i, name] : llvm::enumerate(boundDims_)) {
    int64_t size;
    if (!evaluate(bounds_[i], bindings, size))
      return fail(MO_STATUS_INTERNAL, "cannot bound the output dim '" + name + "'");
    for (auto [s, symbol] : llvm::enumerate(symbols_))
      if (symbol == name)
        full[s] = size;
  }
  shapes.clear();
  for (auto [i, out] : llvm::enumerate(outputs_))
    for (auto [axis, d] : llvm::enumerate(out.shape)) {
      int64_t size;
      if (!evaluate(d, full, size))
        return invalidArgument("output " + std::to_string(i) + ": cannot size " +
                               out.shapeText + " from the inputs' dims (dim " +
                               std::to_string(axis) + " is " + out.dimNames[axis] + ")");
      shapes.push_back(size);
    }
  return {};
}

void Model::actualShapes(ArrayRef<int64_t> allocated, ArrayRef<int64_t> boundSizes,
                         SmallVectorImpl<int64_t> &shapes) const {
  shapes.assign(allocated.begin(), allocated.end());
  for (auto [k, bound] : llvm::enumerate(outputBound_))
    if (bound >= 0)
      shapes[k] = std::min(shapes[k], boundSizes[bound]);
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

Failure Model::call(ArrayRef<MoTensorView> inputs, ArrayRef<MoTensorView> weights,
                    ArrayRef<MoTensorView> outputs, SmallVectorImpl<int64_t> &boundSizes) const {
  // Descriptors: allocated, aligned, offset, sizes, strides; the record last.
  SmallVector<int64_t, 128> storage;
  SmallVector<size_t, 16> offsets;
  SmallVector<int64_t, 8> record(2 + boundDims_.size(), 0);
  auto add = [&](void *data, int64_t rank, const int64_t *shape, const int64_t *strides) {
    offsets.push_back(storage.size());
    auto ptr = static_cast<int64_t>(reinterpret_cast<intptr_t>(data));
    storage.append({ptr, ptr, 0});
    storage.append(shape, shape + rank);
    size_t first = storage.size();
    storage.resize(first + rank);
    int64_t stride = 1;
    for (int64_t axis = rank - 1; axis >= 0; --axis) {
      storage[first + axis] = strides ? strides[axis] : stride;
      stride *= shape[axis];
    }
  };
  for (const MoTensorView &v : inputs)
    add(v.data, v.rank, v.shape, v.strides);
  for (const MoTensorView &v : weights)
    add(v.data, v.rank, v.shape, v.strides);
  for (const MoTensorView &v : outputs)
    add(v.data, v.rank, v.shape, v.strides);
  int64_t recordSize = record.size();
  add(record.data(), 1, &recordSize, nullptr);
  SmallVector<void *, 16> descriptors, packed;
  for (size_t offset : offsets)
    descriptors.push_back(storage.data() + offset);
  for (void *&d : descriptors)
    packed.push_back(&d);
  int64_t status = 0;
  packed.push_back(&status);
  TeamCall team(openmp_, static_cast<int>(threads_));
  AllocationFailure failure;
  AllocationFailure *previous = armAllocationFailure(&failure);
  if (setjmp(failure.target) != 0) {
    armAllocationFailure(previous);
    return fail(MO_STATUS_OUT_OF_MEMORY, name_ + ": cannot allocate " +
                                             std::to_string(failure.bytes) +
                                             " bytes for a temporary (out of memory)");
  }
  entry_(packed.data());
  armAllocationFailure(previous);
  if (status) {
    if (status < 0 || status > static_cast<int64_t>(checks_.size()))
      return invalidArgument(name_ + ": the compiled code returned an unknown status " +
                             std::to_string(status));
    std::string message = checks_[status - 1];
    auto replace = [&](StringRef key, int64_t value) {
      for (size_t at; (at = message.find(key.str())) != std::string::npos;)
        message.replace(at, key.size(), std::to_string(value));
    };
    replace("{actual}", record[0]);
    replace("{expected}", record[1]);
    return invalidArgument(message);
  }
  boundSizes.assign(record.begin() + 2, record.end());
  return {};
}

Failure Model::bindWeights(ArrayRef<std::pair<std::string, MoTensorView>> weights) {
  std::vector<MoTensorView> views(weights_.size());
  std::vector<std::vector<int64_t>> shapes(weights_.size());
  for (auto [i, spec] : llvm::enumerate(weights_)) {
    auto it = llvm::find_if(weights, [&](const auto &w) { return w.first == spec.name; });
    SmallVector<int64_t> want;
    for (const DimExpr &d : spec.shape)
      want.push_back(d.value);
    std::string expected = std::string(kDTypeNames[spec.dtype]) + " shape " + spec.shapeText;
    if (it == weights.end())
      return invalidArgument("missing weight '" + spec.name + "' (" + expected + ")");
    const MoTensorView &view = it->second;
    if (view.dtype != spec.dtype || viewShape(view) != ArrayRef<int64_t>(want) ||
        (view.rank > 0 && !view.shape))
      return invalidArgument("weight '" + spec.name + "': expected " + expected + ", got " +
                             moDTypeName(view.dtype) +
                             " shape " + shapeText(viewShape(view)));
    if (Failure f = checkData(view, "weight '" + spec.name + "'", spec.alignment))
      return f;
    shapes[i].assign(want.begin(), want.end());
    views[i] = {view.data, view.dtype, view.rank, nullptr, nullptr, true};
  }
  weightShapes_ = std::move(shapes);
  boundWeights_ = std::move(views);
  for (auto [view, shape] : llvm::zip(boundWeights_, weightShapes_))
    view.shape = shape.data();
  weightsBound_ = true;
  return {};
}

Failure Model::outputShape(ArrayRef<MoTensorView> inputs, size_t i, int64_t *shape) {
  SmallVector<int64_t, 8> bindings, shapes;
  if (i >= outputs_.size())
    return invalidArgument(name_ + ": no output " + std::to_string(i) + " (it has " +
                           std::to_string(outputs_.size()) + ")");
  if (Failure f = checkInputs(inputs, bindings))
    return f;
  if (Failure f = allocationShapes(bindings, shapes))
    return f;
  size_t at = 0;
  for (size_t k = 0; k < i; ++k)
    at += outputs_[k].shape.size();
  std::copy_n(shapes.begin() + at, outputs_[i].shape.size(), shape);
  return {};
}

/// Moves the leading `actual` part of a row-major array allocated at
/// `allocated` to the front, row-major at `actual` (in place: every element
/// moves towards the start).
static void compact(char *data, ArrayRef<int64_t> allocated, ArrayRef<int64_t> actual,
                    size_t itemSize) {
  size_t rank = allocated.size();
  if (rank < 2 || elements(actual) == 0)
    return;
  SmallVector<int64_t, 8> index(rank - 1, 0);
  size_t row = actual.back() * itemSize, dst = 0;
  while (true) {
    size_t src = 0;
    for (size_t axis = 0; axis + 1 < rank; ++axis)
      src = src * allocated[axis] + index[axis];
    src *= allocated.back() * itemSize;
    if (src != dst)
      std::memmove(data + dst, data + src, row);
    dst += row;
    int64_t axis = rank - 2;
    while (axis >= 0 && ++index[axis] == actual[axis])
      index[axis--] = 0;
    if (axis < 0)
      return;
  }
}

Failure Model::prepare(ArrayRef<MoTensorView> inputs, size_t numOutputs,
                       SmallVectorImpl<int64_t> &allocated) const {
  if (numOutputs != outputs_.size())
    return invalidArgument(name_ + ": expected " + std::to_string(outputs_.size()) +
                           " outputs, got " + std::to_string(numOutputs));
  if (!weightsBound_)
    return invalidArgument(name_ + ": its weights are not bound");
  SmallVector<int64_t, 8> bindings;
  if (Failure f = checkInputs(inputs, bindings))
    return f;
  return allocationShapes(bindings, allocated);
}

Failure Model::execute(ArrayRef<MoTensorView> inputs, llvm::MutableArrayRef<MoBuffer *> outputs) {
  SmallVector<int64_t, 8> allocated, bound, actual;
  if (Failure f = prepare(inputs, outputs.size(), allocated))
    return f;
  SmallVector<MoTensorView, 4> views;
  SmallVector<MoBuffer *, 4> buffers;
  size_t at = 0;
  auto release = [&] {
    for (MoBuffer *b : buffers)
      moBufferDestroy(b);
  };
  for (auto [i, out] : llvm::enumerate(outputs_)) {
    ArrayRef<int64_t> shape(allocated.begin() + at, out.shape.size());
    // Sizes computed from the inputs' dims can exceed memory, or even size_t.
    int64_t bytes = kDTypeSizes[out.dtype];
    bool overflows = false;
    for (int64_t size : shape)
      overflows |= size < 0 || llvm::MulOverflow(bytes, size, bytes);
    void *data = overflows ? nullptr : pool_->take(bytes);
    if (!data) {
      release();
      return fail(MO_STATUS_OUT_OF_MEMORY,
                  "output " + std::to_string(i) + ": cannot allocate " + kDTypeNames[out.dtype] +
                      " shape " + shapeText(shape) +
                      (overflows ? std::string(" (its size in bytes overflows int64)")
                                 : " (" + std::to_string(bytes) + " bytes)"));
    }
    auto *b = new MoBuffer();
    b->pool = pool_;
    b->dtype = out.dtype;
    b->shape.assign(shape.begin(), shape.end());
    b->capacity = bytes;
    b->data = data;
    at += out.shape.size();
    buffers.push_back(b);
    views.push_back({b->data, b->dtype, static_cast<int64_t>(b->shape.size()), b->shape.data(),
                     nullptr, false});
  }
  if (Failure f = call(inputs, boundWeights_, views, bound)) {
    release();
    return f;
  }
  actualShapes(allocated, bound, actual);
  at = 0;
  for (auto [i, b] : llvm::enumerate(buffers)) {
    ArrayRef<int64_t> real(actual.begin() + at, b->shape.size());
    if (real != ArrayRef<int64_t>(b->shape)) {
      compact(static_cast<char *>(b->data), b->shape, real, kDTypeSizes[b->dtype]);
      b->shape.assign(real.begin(), real.end());
    }
    b->bytes = elements(b->shape) * kDTypeSizes[b->dtype];
    at += b->shape.size();
    outputs[i] = b;
  }
  return {};
}

Failure Model::executeInto(ArrayRef<MoTensorView> inputs, ArrayRef<MoTensorView> outputs,
                           int64_t *outputShapes) {
  SmallVector<int64_t, 8> allocated, bound, actual;
  if (Failure f = prepare(inputs, outputs.size(), allocated))
    return f;
  size_t at = 0;
  for (auto [i, view] : llvm::enumerate(outputs)) {
    const ArgSpec &out = outputs_[i];
    ArrayRef<int64_t> want(allocated.begin() + at, out.shape.size());
    std::string what = "output " + std::to_string(i);
    if (view.dtype != out.dtype || viewShape(view) != want || (view.rank > 0 && !view.shape))
      return invalidArgument(what + ": expected " + kDTypeNames[out.dtype] + " shape " +
                             shapeText(want) + ", got " +
                             moDTypeName(view.dtype) +
                             " shape " + shapeText(viewShape(view)));
    if (Failure f = checkData(view, what, kDTypeSizes[out.dtype]))
      return f;
    at += out.shape.size();
  }
  if (Failure f = call(inputs, boundWeights_, outputs, bound))
    return f;
  // Outputs sized by the data are laid out for their actual sizes, as
  // execute's results are (the caller's buffers are contiguous).
  actualShapes(allocated, bound, actual);
  at = 0;
  for (auto [i, view] : llvm::enumerate(outputs)) {
    ArrayRef<int64_t> want(allocated.begin() + at, view.rank);
    ArrayRef<int64_t> real(actual.begin() + at, view.rank);
    if (real != want)
      compact(static_cast<char *>(view.data), want, real, kDTypeSizes[view.dtype]);
    at += view.rank;
  }
  if (outputShapes)
    llvm::copy(actual, outputShapes);
  return {};
}

Failure Model::invoke(ArrayRef<MoTensorView> args, int64_t *boundSizes) {
  size_t expected = inputs_.size() + weights_.size() + outputs_.size();
  if (args.size() != expected)
    return invalidArgument(name_ + ": expected " + std::to_string(expected) +
                           " arguments (inputs, weights, outputs), got " +
                           std::to_string(args.size()));
  for (auto [i, view] : llvm::enumerate(args))
    if (view.rank < 0 || (view.rank > 0 && !view.shape))
      return invalidArgument(name_ + ": argument " + std::to_string(i) + " has no shape");
  // Weights are static: checked here, as bindWeights does, not by the
  // compiled code (whose checks of a 24-layer stack's 72 weights were a
  // third of its entry).
  for (auto [spec, view] : llvm::zip(weights_, args.slice(inputs_.size(), weights_.size()))) {
    ArrayRef<int64_t> shape = viewShape(view);
    if (shape.size() != spec.shape.size())
      return invalidArgument("weight '" + spec.name + "': expected shape " + spec.shapeText +
                             ", got shape " + shapeText(shape));
    for (auto [axis, d] : llvm::enumerate(spec.shape))
      if (shape[axis] != d.value)
        return invalidArgument("weight '" + spec.name + "': expected shape " + spec.shapeText +
                               ", but axis " + std::to_string(axis) + " has size " +
                               std::to_string(shape[axis]));
  }
  SmallVector<int64_t, 8> bound;
  Failure f = call(args.take_front(inputs_.size()),
                   args.slice(inputs_.size(), weights_.size()),
                   args.take_back(outputs_.size()), bound);
  if (!f && boundSizes)
    llvm::copy(bound, boundSizes);
  return f;
}
