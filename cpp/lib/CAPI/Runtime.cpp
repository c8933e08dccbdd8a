//===- Runtime.cpp - C API of mo's runtime --------------------------------===//
//
// Thin wrappers over runtime::Model (lib/Runtime/Model.h): statuses, tensor
// maps and models as the C API's handles (buffers are the model's pool's,
// in Model.cpp).
//
//===----------------------------------------------------------------------===//

#include "mo-c/Runtime.h"

#include "../Runtime/Artifact.h"
#include "../Runtime/Model.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace mlir::mo;
using runtime::Failure;
using runtime::Model;

struct MoStatus {
  Failure failure;
};

struct MoModel {
  std::unique_ptr<Model> model;
};

struct MoTensorMap {
  std::vector<std::string> names;
  std::vector<MoTensorView> views;
  std::vector<std::vector<int64_t>> shapes, strides;
};

namespace {

/// Records `f` in `status`; true when it is no failure.
bool report(MoStatus *status, Failure f) {
  bool ok = !f;
  if (status)
    status->failure = std::move(f);
  return ok;
}

} // namespace

const char *moDTypeName(MoDType dtype) {
  return dtype >= 0 && dtype < MO_DTYPE_COUNT ? runtime::kDTypeNames[dtype] : "?";
}
size_t moDTypeSize(MoDType dtype) {
  return dtype >= 0 && dtype < MO_DTYPE_COUNT ? runtime::kDTypeSizes[dtype] : 0;
}

MoStatus *moStatusCreate(void) { return new MoStatus(); }
void moStatusDestroy(MoStatus *status) { delete status; }
bool moStatusIsError(const MoStatus *status) { return status && status->failure; }
MoStatusCode moStatusCode(const MoStatus *status) {
  return status ? status->failure.code : MO_STATUS_OK;
}
const char *moStatusMessage(const MoStatus *status) {
  return status ? status->failure.message.c_str() : "";
}

//===----------------------------------------------------------------------===//
// Tensor maps and buffers
//===----------------------------------------------------------------------===//

MoTensorMap *moTensorMapCreate(void) { return new MoTensorMap(); }
void moTensorMapDestroy(MoTensorMap *map) { delete map; }

bool moTensorMapBorrow(MoTensorMap *map, const char *name, MoTensorView view,
                       MoStatus *status) {
  if (!map || !name)
    return report(status, {MO_STATUS_INVALID_ARGUMENT, "moTensorMapBorrow: null map or name"});
  if (view.rank < 0 || (view.rank > 0 && !view.shape) || moDTypeSize(view.dtype) == 0)
    return report(status, {MO_STATUS_INVALID_ARGUMENT,
                           std::string("tensor '") + name + "': a malformed view"});
  auto it = std::find(map->names.begin(), map->names.end(), name);
  size_t i = it - map->names.begin();
  if (it == map->names.end()) {
    map->names.push_back(name);
    map->views.emplace_back();
    map->shapes.emplace_back();
    map->strides.emplace_back();
  }
  map->shapes[i].assign(view.shape, view.shape + view.rank);
  if (view.strides)
    map->strides[i].assign(view.strides, view.strides + view.rank);
  else
    map->strides[i].clear();
  map->views[i] = {view.data, view.dtype, view.rank, map->shapes[i].data(),
                   view.strides ? map->strides[i].data() : nullptr, view.readOnly};
  return report(status, {});
}

size_t moTensorMapSize(const MoTensorMap *map) { return map ? map->names.size() : 0; }

const char **moTensorMapKeys(const MoTensorMap *map, size_t *size) {
  size_t n = moTensorMapSize(map);
  if (size)
    *size = n;
  auto **keys = new const char *[n + 1];
  for (size_t i = 0; i < n; ++i)
    keys[i] = strdup(map->names[i].c_str());
  keys[n] = nullptr;
  return keys;
}

void moTensorMapKeysDestroy(const char **keys) {
  if (!keys)
    return;
  for (const char **k = keys; *k; ++k)
    free(const_cast<char *>(*k));
  delete[] keys;
}

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

static std::vector<std::string> libraries(const MoLoadOptions *options) {
  std::vector<std::string> paths;
  if (options)
    for (size_t i = 0; i < options->numSharedLibs; ++i)
      if (options->sharedLibs[i])
        paths.push_back(options->sharedLibs[i]);
  return paths;
}

MoModel *moModelLoad(const void *data, size_t size, const MoLoadOptions *options,
                     MoStatus *status) {
  if (!data && size)
    return report(status, {MO_STATUS_INVALID_ARGUMENT, "moModelLoad: null data"}), nullptr;
  Failure failure;
  auto model = Model::load(llvm::StringRef(static_cast<const char *>(data), size),
                           libraries(options), failure);
  report(status, std::move(failure));
  return model ? new MoModel{std::move(model)} : nullptr;
}

MoModel *moModelLoadFile(const char *path, const MoLoadOptions *options, MoStatus *status) {
  auto file = llvm::MemoryBuffer::getFile(path ? path : "", /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    report(status, {MO_STATUS_IO_ERROR, std::string("cannot read '") + (path ? path : "") +
                                            "': " + file.getError().message()});
    return nullptr;
  }
  MoModel *model = moModelLoad((*file)->getBufferStart(), (*file)->getBufferSize(), options,
                               status);
  if (!model && status)
    status->failure.message =
        std::string(path) + ": " + status->failure.message;
  return model;
}

void moModelDestroy(MoModel *model) { delete model; }

const char *moModelName(const MoModel *model) { return model->model->name().c_str(); }
const char *moModelManifest(const MoModel *model) {
  return model->model->manifest().c_str();
}

static const runtime::ArgSpec *arg(const MoModel *model, MoArgKind kind, size_t i) {
  const auto &args = model->model->args(kind);
  return i < args.size() ? &args[i] : nullptr;
}

size_t moModelNumArgs(const MoModel *model, MoArgKind kind) {
  return model->model->args(kind).size();
}
const char *moModelArgName(const MoModel *model, MoArgKind kind, size_t i) {
  const runtime::ArgSpec *a = arg(model, kind, i);
  return a ? a->name.c_str() : nullptr;
}
MoDType moModelArgDType(const MoModel *model, MoArgKind kind, size_t i) {
  const runtime::ArgSpec *a = arg(model, kind, i);
  return a ? a->dtype : MO_DTYPE_COUNT;
}
int64_t moModelArgRank(const MoModel *model, MoArgKind kind, size_t i) {
  const runtime::ArgSpec *a = arg(model, kind, i);
  return a ? static_cast<int64_t>(a->shape.size()) : -1;
}
int64_t moModelArgDim(const MoModel *model, MoArgKind kind, size_t i, int64_t axis) {
  const runtime::ArgSpec *a = arg(model, kind, i);
  if (!a || axis < 0 || axis >= static_cast<int64_t>(a->shape.size()))
    return -1;
  const runtime::DimExpr &d = a->shape[axis];
  return d.kind == runtime::DimExpr::Static ? d.value : -1;
}
const char *moModelArgDimName(const MoModel *model, MoArgKind kind, size_t i, int64_t axis) {
  const runtime::ArgSpec *a = arg(model, kind, i);
  if (!a || axis < 0 || axis >= static_cast<int64_t>(a->shape.size()))
    return nullptr;
  return a->dimNames[axis].c_str();
}

bool moModelBindWeights(MoModel *model, const MoTensorMap *weights, MoStatus *status) {
  std::vector<std::pair<std::string, MoTensorView>> named;
  if (weights)
    for (auto [name, view] : llvm::zip(weights->names, weights->views))
      named.push_back({name, view});
  return report(status, model->model->bindWeights(named));
}

bool moModelExecute(MoModel *model, const MoTensorView *inputs, size_t numInputs,
                    MoBuffer **outputs, size_t numOutputs, MoStatus *status) {
  return report(status, model->model->execute(llvm::ArrayRef(inputs, numInputs),
                                              llvm::MutableArrayRef(outputs, numOutputs)));
}

bool moModelExecuteInto(MoModel *model, const MoTensorView *inputs, size_t numInputs,
                        const MoTensorView *outputs, size_t numOutputs, int64_t *outputShapes,
                        MoStatus *status) {
  return report(status, model->model->executeInto(llvm::ArrayRef(inputs, numInputs),
                                                  llvm::ArrayRef(outputs, numOutputs),
                                                  outputShapes));
}

bool moModelOutputShape(MoModel *model, const MoTensorView *inputs, size_t numInputs, size_t i,
                        int64_t *shape, MoStatus *status) {
  return report(status,
                model->model->outputShape(llvm::ArrayRef(inputs, numInputs), i, shape));
}

bool moModelInvoke(MoModel *model, const MoTensorView *args, size_t numArgs,
                   int64_t *boundSizes, MoStatus *status) {
  return report(status, model->model->invoke(llvm::ArrayRef(args, numArgs), boundSizes));
}

size_t moModelNumBoundDims(const MoModel *model) { return model->model->numBoundDims(); }

void moArtifactWrite(const char *manifest, size_t manifestSize, const void *bytecode,
                     size_t bytecodeSize, size_t numObjects, const void *const *objects,
                     const size_t *objectSizes, MoBytesCallback callback, void *userData) {
  artifact::Contents contents{llvm::StringRef(manifest, manifestSize),
                              llvm::StringRef(static_cast<const char *>(bytecode), bytecodeSize),
                              {}};
  for (size_t i = 0; i < numObjects; ++i)
    contents.objects.push_back(
        llvm::StringRef(static_cast<const char *>(objects[i]), objectSizes[i]));
  std::string file = artifact::write(contents);
  callback(file.data(), file.size(), userData);
}

size_t moArtifactRead(const void *data, size_t size, MoBytesCallback callback, void *userData,
                      MoStatus *status) {
  auto contents =
      artifact::read(llvm::StringRef(static_cast<const char *>(data), data ? size : 0));
  if (!contents) {
    report(status, {MO_STATUS_INVALID_ARTIFACT, llvm::toString(contents.takeError())});
    return 0;
  }
  callback(contents->manifest.data(), contents->manifest.size(), userData);
  callback(contents->bytecode.data(), contents->bytecode.size(), userData);
  for (llvm::StringRef object : contents->objects)
    callback(object.data(), object.size(), userData);
  report(status, {});
  return contents->objects.size();
}
