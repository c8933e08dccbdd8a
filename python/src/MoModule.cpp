//===- MoModule.cpp - Python bindings of the mo types ---------------------===//
//
// `mo._mlir._mlir_libs._moDialects`: TensorType, BufferType, ChainType, dim
// construction and the registration hook `_site_initialize_0` calls.
//
//===----------------------------------------------------------------------===//

#include "mo-c/Dialects.h"
#include "mo-c/Jit.h"
#include "mo-c/Runtime.h"

#include "mlir-c/IR.h"
#include "mlir/Bindings/Python/Diagnostics.h"
#include "mlir/Bindings/Python/IRCore.h"
#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>

#include <optional>
#include <string>
#include <vector>

namespace nb = nanobind;
using namespace nanobind::literals;
using namespace mlir::python::nanobind_adaptors;

namespace mlir::python::MLIR_BINDINGS_PYTHON_DOMAIN::mo {

/// Methods shared by TensorType and BufferType.
template <typename Derived, bool IsBuffer>
struct ShapedTypeBinding : PyConcreteType<Derived> {
  using Base = PyConcreteType<Derived>;
  using Base::Base;

  static void bindDerived(typename Base::ClassTy &c) {
    c.def_static(
        "get",
        [](const std::vector<PyAttribute> &dims, const PyType &elementType,
           const std::string &deviceKind, int64_t deviceId,
           DefaultingPyLocation loc) {
          CollectDiagnosticsToStringScope scope(mlirLocationGetContext(loc));
          std::vector<MlirAttribute> raw(dims.begin(), dims.end());
          MlirType type = moShapedTypeGetChecked(
              loc, IsBuffer, raw.size(), raw.data(), elementType,
              mlirStringRefCreate(deviceKind.data(), deviceKind.size()),
              deviceId);
          if (mlirTypeIsNull(type))
            throw nb::value_error(scope.takeMessage().c_str());
          return Derived(loc->getContext(), type);
        },
        "dims"_a, "element_type"_a, "device_kind"_a = "", "device_id"_a = 0,
        "loc"_a = nb::none(),
        "Builds the type from dim attributes (see `dim_*`), an element type "
        "and an optional device ('cpu'/'gpu', id).");
    c.def_prop_ro("rank",
                  [](Derived &self) { return moShapedTypeGetRank(self); });
    c.def_prop_ro("dims", [](Derived &self) {
      std::vector<PyAttribute> dims;
      for (intptr_t i = 0, e = moShapedTypeGetRank(self); i < e; ++i)
        dims.emplace_back(self.getContext(), moShapedTypeGetDim(self, i));
      return dims;
    });
    c.def_prop_ro("element_type", [](Derived &self) {
      return PyType(self.getContext(), moShapedTypeGetElementType(self))
          .maybeDownCast();
    });
    c.def_prop_ro("device", [](Derived &self) -> std::optional<std::string> {
      MlirStringRef kind = moShapedTypeGetDeviceKind(self);
      if (!kind.length)
        return std::nullopt;
      return std::string(kind.data, kind.length) + ":" +
             std::to_string(moShapedTypeGetDeviceId(self));
    });
  }
};

struct TensorType : ShapedTypeBinding<TensorType, false> {
  static constexpr IsAFunctionTy isaFunction = moTypeIsATensor;
  static constexpr GetTypeIDFunctionTy getTypeIdFunction =
      moTensorTypeGetTypeID;
  static constexpr const char *pyClassName = "TensorType";
  using ShapedTypeBinding::ShapedTypeBinding;
};

struct BufferType : ShapedTypeBinding<BufferType, true> {
  static constexpr IsAFunctionTy isaFunction = moTypeIsABuffer;
  static constexpr GetTypeIDFunctionTy getTypeIdFunction =
      moBufferTypeGetTypeID;
  static constexpr const char *pyClassName = "BufferType";
  using ShapedTypeBinding::ShapedTypeBinding;
};

struct ChainType : PyConcreteType<ChainType> {
  static constexpr IsAFunctionTy isaFunction = moTypeIsAChain;
  static constexpr GetTypeIDFunctionTy getTypeIdFunction =
      moChainTypeGetTypeID;
  static constexpr const char *pyClassName = "ChainType";
  using Base::Base;

  static void bindDerived(ClassTy &c) {
    c.def_static(
        "get",
        [](DefaultingPyMlirContext context) {
          return ChainType(context->getRef(),
                           moChainTypeGet(context.get()->get()));
        },
        "context"_a = nb::none());
  }
};

/// An MlirStringCallback appending to the std::string at `user`.
static void appendTo(MlirStringRef text, void *user) {
  static_cast<std::string *>(user)->append(text.data, text.length);
}

/// Owns a linked object; its code lives as long as this does.
struct JitHandle {
  MoJit *jit;
  ~JitHandle() { moJitDestroy(jit); }
};

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

static void bindRuntime(nb::module_ &m) {
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

static void populateModule(nb::module_ &m) {
  bindRuntime(m);
  TensorType::bind(m);
  BufferType::bind(m);
  ChainType::bind(m);

  m.def(
      "dim_static",
      [](int64_t size, DefaultingPyMlirContext context) {
        return PyAttribute(context->getRef(),
                           moDimGetStatic(context.get()->get(), size))
            .maybeDownCast();
      },
      "size"_a, "context"_a = nb::none(), "A static dim.");
  m.def(
      "dim_unknown",
      [](DefaultingPyMlirContext context) {
        return PyAttribute(context->getRef(),
                           moDimGetUnknown(context.get()->get()))
            .maybeDownCast();
      },
      "context"_a = nb::none(), "The unknown dim `?`.");
  m.def(
      "dim_symbolic",
      [](const std::string &name, DefaultingPyMlirContext context) {
        return PyAttribute(
                   context->getRef(),
                   moDimGetSymbolic(context.get()->get(),
                                    mlirStringRefCreate(name.data(),
                                                        name.size())))
            .maybeDownCast();
      },
      "name"_a, "context"_a = nb::none(), "A symbolic dim.");
  m.def(
      "dim_expr",
      [](const std::string &op, PyAttribute &lhs, PyAttribute &rhs) {
        static const char *ops[] = {"add", "sub", "mul", "floordiv", "mod"};
        for (int kind = 0; kind < 5; ++kind)
          if (op == ops[kind])
            return PyAttribute(lhs.getContext(),
                               moDimGetExpr(kind, lhs, rhs))
                .maybeDownCast();
        throw nb::value_error(
            ("unknown dim operator '" + op +
             "', expected add, sub, mul, floordiv or mod")
                .c_str());
      },
      "op"_a, "lhs"_a, "rhs"_a,
      "`lhs <op> rhs`, folded where possible (x*1 -> x, 2*3 -> 6).");
  m.def(
      "dim_str",
      [](PyAttribute &dim) {
        PyPrintAccumulator acc;
        moDimPrint(dim, acc.getCallback(), acc.getUserData());
        return acc.join();
      },
      "dim"_a, "The dim as written in a type: `batch * seq`.");

  m.def(
      "host_target",
      [] {
        std::string text, error;
        if (!moJitHostTarget(appendTo, &text, appendTo, &error))
          throw std::runtime_error(error);
        return text;
      },
      "The triple, CPU and features code is generated for.");
  m.def(
      "jit_compile",
      [](MlirModule module, int optLevel) {
        std::string object, error;
        if (!moJitCompile(module, optLevel, appendTo, &object, appendTo, &error))
          throw std::runtime_error(error);
        return nb::bytes(object.data(), object.size());
      },
      "module"_a, "opt_level"_a,
      "The object file of an LLVM-dialect module (mo-c/Jit.h: packed "
      "wrappers `_mo_packed_<f>`, identical functions merged, -O<opt_level>).");
  nb::class_<JitHandle>(m, "Jit", "An object file linked into the process.")
      .def(
          "__init__",
          [](JitHandle *self, nb::bytes object, const std::vector<std::string> &libraries) {
            std::vector<MlirStringRef> paths;
            for (const std::string &path : libraries)
              paths.push_back(mlirStringRefCreate(path.data(), path.size()));
            std::string error;
            MoJit *jit = moJitLoad(object.c_str(), object.size(),
                                   static_cast<int>(paths.size()), paths.data(), appendTo,
                                   &error);
            if (!jit)
              throw std::runtime_error(error);
            new (self) JitHandle{jit};
          },
          "object"_a, "shared_libs"_a)
      .def(
          "lookup",
          [](JitHandle &self, const std::string &name) {
            return reinterpret_cast<uintptr_t>(
                moJitLookup(self.jit, mlirStringRefCreate(name.data(), name.size())));
          },
          "name"_a, "The symbol's address, 0 if the object has none.");

  m.def("register_dialects", [](MlirDialectRegistry registry) {
    moRegisterDialects(registry);
  });
  // Passes are registered once per process, like upstream's.
  moRegisterPasses();
}

} // namespace mlir::python::MLIR_BINDINGS_PYTHON_DOMAIN::mo

NB_MODULE(_moDialects, m) {
  m.doc() = "mo dialect types and registration";
  mlir::python::MLIR_BINDINGS_PYTHON_DOMAIN::mo::populateModule(m);
}
