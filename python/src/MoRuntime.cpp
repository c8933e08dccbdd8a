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
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL mo_runtime_ARRAY_API
#include <numpy/arrayobject.h>

namespace nb = nanobind;
using namespace nanobind::literals;

namespace {

/// A status that raises: ValueError for bad arguments and artifacts,
/// RuntimeError otherwise (Python reads files itself: OSError is its own). One per thread, reused (each
/// call sets it).
struct Status {
  MoStatus *status = threadStatus();
  static MoStatus *threadStatus() {
    static thread_local std::unique_ptr<MoStatus, void (*)(MoStatus *)> status(
        moStatusCreate(), moStatusDestroy);
    return status.get();
  }
  void check() const {
    if (!moStatusIsError(status))
      return;
    switch (moStatusCode(status)) {
    case MO_STATUS_INVALID_ARGUMENT:
    case MO_STATUS_INVALID_ARTIFACT:
      throw nb::value_error(moStatusMessage(status));
    case MO_STATUS_OUT_OF_MEMORY:
      PyErr_SetString(PyExc_MemoryError, moStatusMessage(status));
      throw nb::python_error();
    default:
      throw std::runtime_error(moStatusMessage(status));
    }
  }
};

static_assert(sizeof(npy_intp) == sizeof(int64_t), "numpy's sizes are the runtime's");

/// The runtime's dtype of an array; MO_DTYPE_COUNT for one it lacks (or
/// in the other byte order).
MoDType dtypeOf(PyArrayObject *a) {
  PyArray_Descr *d = PyArray_DESCR(a);
  if (!PyArray_ISNOTSWAPPED(a))
    return MO_DTYPE_COUNT;
  switch (d->type_num) {
  case NPY_HALF:
    return MO_DTYPE_FLOAT16;
  case NPY_FLOAT:
    return MO_DTYPE_FLOAT32;
  case NPY_DOUBLE:
    return MO_DTYPE_FLOAT64;
  case NPY_BOOL:
    return MO_DTYPE_BOOL;
  default:
    break;
  }
  // Integers by size (long and long long are both 8 bytes here).
  int64_t size = PyDataType_ELSIZE(d);
  if (PyTypeNum_ISSIGNED(d->type_num))
    return size == 1 ? MO_DTYPE_INT8 : size == 2 ? MO_DTYPE_INT16
                     : size == 4 ? MO_DTYPE_INT32 : size == 8 ? MO_DTYPE_INT64 : MO_DTYPE_COUNT;
  if (PyTypeNum_ISUNSIGNED(d->type_num))
    return size == 1 ? MO_DTYPE_UINT8 : size == 2 ? MO_DTYPE_UINT16
                     : size == 4 ? MO_DTYPE_UINT32 : size == 8 ? MO_DTYPE_UINT64 : MO_DTYPE_COUNT;
  // ml_dtypes' bfloat16, a user type numpy spells 'E'.
  if (d->type == 'E' && size == 2)
    return MO_DTYPE_BFLOAT16;
  return MO_DTYPE_COUNT;
}

/// numpy's type of a runtime dtype; bfloat16 as its bits (the caller views
/// them as ml_dtypes' type).
int numpyType(MoDType t) {
  static const int table[MO_DTYPE_COUNT] = {NPY_HALF,   NPY_UINT16, NPY_FLOAT,  NPY_DOUBLE,
                                            NPY_INT8,   NPY_INT16,  NPY_INT32,  NPY_INT64,
                                            NPY_UINT8,  NPY_UINT16, NPY_UINT32, NPY_UINT64,
                                            NPY_BOOL};
  return table[t];
}

/// Views of a list or tuple of numpy arrays (their shapes are the arrays';
/// strides in elements where not contiguous).
struct Views {
  std::vector<MoTensorView> views;
  std::vector<int64_t> strides;

  /// mo Buffers (a numpy array in `_array`) held while the views are used.
  std::vector<nb::object> held;

  explicit Views(nb::handle sequence) {
    PyObject *seq = sequence.ptr();
    if (!PyList_Check(seq) && !PyTuple_Check(seq))
      throw nb::type_error("expected a list of numpy arrays");
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **given = PySequence_Fast_ITEMS(seq);
    std::vector<PyObject *> items(given, given + n);
    size_t rank = 0;
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (!PyArray_Check(items[i])) {
        // A host Buffer is read through its array (execute_raw's Buffers
        // unwrapped here, not by a Python loop per call).
        nb::object array = nb::steal(PyObject_GetAttrString(items[i], "_array"));
        if (!array.is_valid())
          PyErr_Clear();
        if (!array.is_valid() || !PyArray_Check(array.ptr()))
          throw nb::type_error(("argument " + std::to_string(i) +
                                ": expected a numpy array, got " + Py_TYPE(items[i])->tp_name)
                                   .c_str());
        items[i] = array.ptr();
        held.push_back(std::move(array));
      }
      rank += PyArray_NDIM(reinterpret_cast<PyArrayObject *>(items[i]));
    }
    strides.reserve(rank); // never reallocated: views point into it
    views.reserve(n);
    for (Py_ssize_t i = 0; i < n; ++i) {
      auto *a = reinterpret_cast<PyArrayObject *>(items[i]);
      int ndim = PyArray_NDIM(a);
      const int64_t *stride = nullptr;
      if (!PyArray_IS_C_CONTIGUOUS(a)) {
        int64_t size = PyArray_ITEMSIZE(a);
        stride = strides.data() + strides.size();
        for (int axis = 0; axis < ndim; ++axis) {
          int64_t bytes = PyArray_STRIDE(a, axis);
          if (bytes % size != 0)
            throw nb::value_error(("argument " + std::to_string(i) +
                                   ": its strides are not whole elements")
                                      .c_str());
          strides.push_back(bytes / size);
        }
      }
      views.push_back({PyArray_DATA(a), dtypeOf(a), ndim,
                       reinterpret_cast<const int64_t *>(PyArray_DIMS(a)), stride,
                       !PyArray_ISWRITEABLE(a)});
    }
  }
};

/// A result as a numpy array that frees (returns to the pool) its buffer.
nb::object wrap(MoBuffer *buffer) {
  int rank = static_cast<int>(moBufferRank(buffer));
  PyObject *array = PyArray_SimpleNewFromData(
      rank, reinterpret_cast<npy_intp *>(const_cast<int64_t *>(moBufferShape(buffer))),
      numpyType(moBufferDType(buffer)), moBufferData(buffer));
  if (!array) {
    moBufferDestroy(buffer);
    throw nb::python_error();
  }
  PyObject *owner = PyCapsule_New(buffer, "mo.buffer", [](PyObject *capsule) {
    moBufferDestroy(static_cast<MoBuffer *>(PyCapsule_GetPointer(capsule, "mo.buffer")));
  });
  if (!owner || PyArray_SetBaseObject(reinterpret_cast<PyArrayObject *>(array), owner) < 0) {
    Py_DECREF(array);
    throw nb::python_error();
  }
  return nb::steal(array);
}

/// A loaded artifact (mo-c/Runtime.h).
struct ModelHandle {
  MoModel *model;
  int64_t weightElements = 0;
  ~ModelHandle() { moModelDestroy(model); }
};

/// Whether a call on `views` is worth releasing the GIL for (as numpy, for
/// large arrays only: releasing and taking it back costs about 0.1 us, a
/// tenth of a tiny graph's call).
bool releasesGil(const ModelHandle &model, const Views &views) {
  constexpr int64_t kElements = 16384;
  int64_t elements = model.weightElements;
  for (const MoTensorView &v : views.views) {
    int64_t n = 1;
    for (int64_t axis = 0; axis < v.rank; ++axis)
      n *= v.shape[axis];
    elements += n;
  }
  return elements >= kElements;
}

void bindRuntime(nb::module_ &m) {
  m.def(
      "write_artifact",
      [](const std::string &manifest, nb::bytes bytecode, const std::vector<nb::bytes> &objects) {
        std::vector<const void *> data;
        std::vector<size_t> sizes;
        for (const nb::bytes &o : objects) {
          data.push_back(o.c_str());
          sizes.push_back(o.size());
        }
        std::string out;
        moArtifactWrite(
            manifest.data(), manifest.size(), bytecode.c_str(), bytecode.size(), data.size(),
            data.data(), sizes.data(),
            [](const void *bytes, size_t size, void *user) {
              static_cast<std::string *>(user)->assign(static_cast<const char *>(bytes), size);
            },
            &out);
        return nb::bytes(out.data(), out.size());
      },
      "manifest"_a, "bytecode"_a, "objects"_a, "A .mef file's bytes (mo-c/Runtime.h).");
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
        nb::list objects;
        for (size_t i = 2; i < sections.size(); ++i)
          objects.append(nb::bytes(sections[i].data(), sections[i].size()));
        return nb::make_tuple(nb::bytes(sections[0].data(), sections[0].size()),
                              nb::bytes(sections[1].data(), sections[1].size()), objects);
      },
      "data"_a, "A verified .mef's (manifest, bytecode, [objects]).");
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
            for (size_t i = 0; i < moModelNumArgs(model, MO_ARG_WEIGHT); ++i) {
              int64_t n = 1;
              for (int64_t axis = 0; axis < moModelArgRank(model, MO_ARG_WEIGHT, i); ++axis)
                n *= moModelArgDim(model, MO_ARG_WEIGHT, i, axis);
              self->weightElements += n;
            }
          },
          "data"_a, "shared_libs"_a)
      .def_prop_ro("manifest",
                   [](ModelHandle &self) { return std::string(moModelManifest(self.model)); })
      .def(
          "bind_weights",
          [](ModelHandle &self, const std::vector<std::string> &names, nb::handle arrays) {
            Views views(arrays);
            MoTensorMap *map = moTensorMapCreate();
            Status status;
            for (size_t i = 0; i < names.size() && i < views.views.size(); ++i)
              moTensorMapBorrow(map, names[i].c_str(), views.views[i], nullptr);
            moModelBindWeights(self.model, map, status.status);
            moTensorMapDestroy(map);
            status.check();
          },
          "names"_a, "arrays"_a,
          "Binds weights by name; the arrays must outlive the binding.")
      .def(
          "invoke",
          [](ModelHandle &self, nb::handle arrays) {
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
                               strides.data(), false});
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
          [](ModelHandle &self, nb::handle inputs) {
            Views views(inputs);
            size_t n = moModelNumArgs(self.model, MO_ARG_OUTPUT);
            MoBuffer *outputs[16] = {};
            std::vector<MoBuffer *> many(n > 16 ? n : 0, nullptr);
            MoBuffer **out = n > 16 ? many.data() : outputs;
            Status status;
            {
              std::optional<nb::gil_scoped_release> release;
              if (releasesGil(self, views))
                release.emplace();
              moModelExecute(self.model, views.views.data(), views.views.size(), out, n,
                             status.status);
            }
            status.check();
            nb::list results;
            for (size_t i = 0; i < n; ++i)
              results.append(wrap(out[i]));
            return results;
          },
          "inputs"_a,
          "Checked inputs in, new arrays (from the model's pool) out.");
}


} // namespace

NB_MODULE(_moRuntime, m) {
  m.doc() = "mo's runtime: artifacts, models, calls (mo-c/Runtime.h)";
  if (_import_array() < 0)
    throw nb::python_error();
  bindRuntime(m);
}
