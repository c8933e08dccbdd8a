//===- MoRuntime.cpp - Python bindings of mo's runtime --------------------===//
//
// `mo._mlir._mlir_libs._moRuntime`: artifacts written and read, models
// loaded, weights bound, calls (mo-c/Runtime.h). It uses none of MLIR's
// Python bindings, so mo.compiler loads it by path, without the package's
// __init__ (MLIR's bindings: 12 ms of a fresh process's engine.read).
//
//===----------------------------------------------------------------------===//

#include "mo-c/Runtime.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace nb = nanobind;
using namespace nanobind::literals;

namespace {

/// A status that raises: ValueError for bad arguments and artifacts,
/// OSError for files, RuntimeError otherwise.
struct Status {
  MoStatus *status = moStatusCreate();
  ~Status() { moStatusDestroy(status); }
  void check() const {
    if (!moStatusIsError(status))
      return;
    switch (moStatusCode(status)) {
    case MO_STATUS_INVALID_ARGUMENT:
    case MO_STATUS_INVALID_ARTIFACT:
      throw nb::value_error(moStatusMessage(status));
    default:
      throw std::runtime_error(moStatusMessage(status));
    }
  }
};

using Array = nb::ndarray<nb::device::cpu>;

/// The runtime's dtype of an array; MO_DTYPE_COUNT for one it lacks.
static MoDType dtypeOf(const nb::dlpack::dtype &t) {
  using Code = nb::dlpack::dtype_code;
  auto code = static_cast<Code>(t.code);
  int bytes = t.bits / 8;
  if (t.lanes != 1)
    return MO_DTYPE_COUNT;
  switch (code) {
  case Code::Float:
    return bytes == 2 ? MO_DTYPE_FLOAT16 : bytes == 4 ? MO_DTYPE_FLOAT32
                                        : bytes == 8 ? MO_DTYPE_FLOAT64
                                                     : MO_DTYPE_COUNT;
  case Code::Bfloat:
    return bytes == 2 ? MO_DTYPE_BFLOAT16 : MO_DTYPE_COUNT;
  case Code::Int:
    return bytes == 1 ? MO_DTYPE_INT8 : bytes == 2 ? MO_DTYPE_INT16
                                      : bytes == 4 ? MO_DTYPE_INT32
                                      : bytes == 8 ? MO_DTYPE_INT64
                                                   : MO_DTYPE_COUNT;
  case Code::UInt:
    return bytes == 1 ? MO_DTYPE_UINT8 : bytes == 2 ? MO_DTYPE_UINT16
                                       : bytes == 4 ? MO_DTYPE_UINT32
                                       : bytes == 8 ? MO_DTYPE_UINT64
                                                    : MO_DTYPE_COUNT;
  case Code::Bool:
    return MO_DTYPE_BOOL;
  default:
    return MO_DTYPE_COUNT;
  }
}

static nb::dlpack::dtype dlpackOf(MoDType t) {
  using Code = nb::dlpack::dtype_code;
  static const std::pair<Code, int> table[MO_DTYPE_COUNT] = {
      {Code::Float, 16}, {Code::Bfloat, 16}, {Code::Float, 32}, {Code::Float, 64},
      {Code::Int, 8},    {Code::Int, 16},    {Code::Int, 32},   {Code::Int, 64},
      {Code::UInt, 8},   {Code::UInt, 16},   {Code::UInt, 32},  {Code::UInt, 64},
      {Code::Bool, 8}};
  return {static_cast<uint8_t>(table[t].first), static_cast<uint8_t>(table[t].second), 1};
}

/// Views of arrays (their shapes and strides live as long as the arrays).
/// `dtypes` overrides an array's dtype where it has an entry in range
/// (bfloat16 arrives as uint16).
struct Views {
  std::vector<MoTensorView> views;
  std::vector<std::vector<int64_t>> strides;
  Views(const std::vector<Array> &arrays, const std::vector<int> *dtypes = nullptr) {
    views.reserve(arrays.size());
    strides.resize(arrays.size());
    for (size_t i = 0; i < arrays.size(); ++i) {
      const Array &a = arrays[i];
      bool given = dtypes && i < dtypes->size() && (*dtypes)[i] >= 0 &&
                   (*dtypes)[i] < MO_DTYPE_COUNT;
      MoDType dtype = given ? static_cast<MoDType>((*dtypes)[i]) : dtypeOf(a.dtype());
      const int64_t *stride = a.stride_ptr();
      bool dense = true;
      int64_t expected = 1;
      for (int64_t axis = static_cast<int64_t>(a.ndim()) - 1; axis >= 0; --axis) {
        if (a.shape(axis) != 1 && stride[axis] != expected)
          dense = false;
        expected *= a.shape(axis);
      }
      if (!dense)
        strides[i].assign(stride, stride + a.ndim());
      views.push_back({a.data(), dtype, static_cast<int64_t>(a.ndim()),
                       reinterpret_cast<const int64_t *>(a.shape_ptr()),
                       dense ? nullptr : strides[i].data()});
    }
  }
};

/// A loaded artifact (mo-c/Runtime.h).
struct ModelHandle {
  MoModel *model;
  ~ModelHandle() { moModelDestroy(model); }
};

void bindRuntime(nb::module_ &m) {
  m.def(
      "write_artifact",
      [](const std::string &manifest, nb::bytes bytecode, nb::bytes object) {
        std::string out;
        moArtifactWrite(
            manifest.data(), manifest.size(), bytecode.c_str(), bytecode.size(),
            object.c_str(), object.size(),
            [](const void *data, size_t size, void *user) {
              static_cast<std::string *>(user)->assign(static_cast<const char *>(data), size);
            },
            &out);
        return nb::bytes(out.data(), out.size());
      },
      "manifest"_a, "bytecode"_a, "object"_a, "A .mef file's bytes (mo-c/Runtime.h).");
  m.def(
      "read_artifact",
      [](nb::bytes data) {
        std::vector<std::string> sections;
        Status status;
        moArtifactRead(
            data.c_str(), data.size(),
            [](const void *bytes, size_t size, void *user) {
              static_cast<std::vector<std::string> *>(user)->emplace_back(
                  static_cast<const char *>(bytes), size);
            },
            &sections, status.status);
        status.check();
        return nb::make_tuple(nb::bytes(sections[0].data(), sections[0].size()),
                              nb::bytes(sections[1].data(), sections[1].size()),
                              nb::bytes(sections[2].data(), sections[2].size()));
      },
      "data"_a, "A verified .mef's (manifest, bytecode, object) sections.");

  nb::class_<ModelHandle>(m, "Model", "A loaded artifact (mo-c/Runtime.h).")
      .def(
          "__init__",
          [](ModelHandle *self, nb::bytes data, const std::vector<std::string> &libraries) {
            std::vector<const char *> paths;
            for (const std::string &p : libraries)
              paths.push_back(p.c_str());
            MoLoadOptions options{paths.size(), paths.data()};
            Status status;
            MoModel *model;
            {
              nb::gil_scoped_release release;
              model = moModelLoad(data.c_str(), data.size(), &options, status.status);
            }
            status.check();
            new (self) ModelHandle{model};
          },
          "data"_a, "shared_libs"_a)
      .def_prop_ro("manifest",
                   [](ModelHandle &self) { return std::string(moModelManifest(self.model)); })
      .def(
          "bind_weights",
          [](ModelHandle &self, const std::vector<std::string> &names,
             const std::vector<Array> &arrays, const std::vector<int> &dtypes) {
            Views views(arrays, &dtypes);
            MoTensorMap *map = moTensorMapCreate();
            Status status;
            for (size_t i = 0; i < names.size() && i < views.views.size(); ++i)
              moTensorMapBorrow(map, names[i].c_str(), views.views[i], nullptr);
            moModelBindWeights(self.model, map, status.status);
            moTensorMapDestroy(map);
            status.check();
          },
          "names"_a, "arrays"_a, "dtypes"_a,
          "Binds weights by name; the arrays must outlive the binding.")
      .def(
          "invoke",
          [](ModelHandle &self, const std::vector<Array> &arrays) {
            Views views(arrays);
            std::vector<int64_t> bound(moModelNumBoundDims(self.model));
            Status status;
            {
              nb::gil_scoped_release release;
              moModelInvoke(self.model, views.views.data(), views.views.size(), bound.data(),
                            status.status);
            }
            status.check();
            return bound;
          },
          "arrays"_a,
          "The entry on inputs, weights and outputs; the bound dims' sizes.")
      .def(
          "invoke_views",
          [](ModelHandle &self,
             const std::vector<std::tuple<uintptr_t, std::vector<int64_t>,
                                          std::vector<int64_t>>> &args) {
            std::vector<MoTensorView> views;
            for (const auto &[ptr, shape, strides] : args)
              views.push_back({reinterpret_cast<void *>(ptr), MO_DTYPE_COUNT,
                               static_cast<int64_t>(shape.size()), shape.data(),
                               strides.data()});
            std::vector<int64_t> bound(moModelNumBoundDims(self.model));
            Status status;
            {
              nb::gil_scoped_release release;
              moModelInvoke(self.model, views.data(), views.size(), bound.data(),
                            status.status);
            }
            status.check();
            return bound;
          },
          "views"_a, "invoke on (address, shape, strides) views.")
      .def(
          "execute",
          [](ModelHandle &self, const std::vector<Array> &arrays,
             const std::vector<int> &dtypes) {
            Views views(arrays, &dtypes);
            size_t n = moModelNumArgs(self.model, MO_ARG_OUTPUT);
            std::vector<MoBuffer *> outputs(n, nullptr);
            Status status;
            {
              nb::gil_scoped_release release;
              moModelExecute(self.model, views.views.data(), views.views.size(),
                             outputs.data(), n, status.status);
            }
            status.check();
            nb::list results;
            for (MoBuffer *b : outputs) {
              nb::capsule owner(b, [](void *p) noexcept {
                moBufferDestroy(static_cast<MoBuffer *>(p));
              });
              MoDType t = moBufferDType(b);
              // numpy has no bfloat16: its bits, viewed by the caller.
              nb::dlpack::dtype dt = dlpackOf(t == MO_DTYPE_BFLOAT16 ? MO_DTYPE_UINT16 : t);
              std::vector<size_t> shape(moBufferShape(b), moBufferShape(b) + moBufferRank(b));
              results.append(nb::ndarray<nb::numpy>(moBufferData(b), shape.size(),
                                                    shape.data(), owner, nullptr, dt)
                                 .cast());
            }
            return results;
          },
          "inputs"_a, "dtypes"_a,
          "Checked inputs in, new arrays (from the model's pool) out.");
}


} // namespace

NB_MODULE(_moRuntime, m) {
  m.doc() = "mo's runtime: artifacts, models, calls (mo-c/Runtime.h)";
  bindRuntime(m);
}
