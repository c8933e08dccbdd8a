//===- MoModule.cpp - Python bindings of the mo types ---------------------===//
//
// `mo._mlir._mlir_libs._moDialects`: TensorType, BufferType, ChainType, dim
// construction and the registration hook `_site_initialize_0` calls.
//
//===----------------------------------------------------------------------===//

#include "mo-c/Dialects.h"
#include "mo-c/Jit.h"

#include "mlir-c/IR.h"
#include "mlir/Bindings/Python/Diagnostics.h"
#include "mlir/Bindings/Python/IRCore.h"
#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

#include <nanobind/stl/vector.h>

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

/// An object file passed to it appended to a std::vector<std::string>.
static void appendObject(MlirStringRef text, void *user) {
  static_cast<std::vector<std::string> *>(user)->emplace_back(text.data, text.length);
}

/// Object files as a list of bytes.
static nb::list objectList(const std::vector<std::string> &objects) {
  nb::list out;
  for (const std::string &o : objects)
    out.append(nb::bytes(o.data(), o.size()));
  return out;
}

/// Owns a linked object; its code lives as long as this does.
struct JitHandle {
  MoJit *jit;
  ~JitHandle() { moJitDestroy(jit); }
};

static void populateModule(nb::module_ &m) {
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
      "find_excess_nesting",
      [](const std::string &source) -> std::optional<int64_t> {
        int64_t at = moSourceFindExcessNesting(
            mlirStringRefCreate(source.data(), source.size()));
        return at < 0 ? std::nullopt : std::optional(at);
      },
      "source"_a,
      "The offset of the first bracket nesting deeper than max_nesting() in "
      "MLIR text (MLIR's parser would overflow the stack), or None.");
  m.def(
      "mo_source_errors",
      [](const std::string &source) -> std::optional<std::string> {
        PyPrintAccumulator acc;
        if (moSourceParsesAsMo(mlirStringRefCreate(source.data(), source.size()),
                               acc.getCallback(), acc.getUserData()))
          return std::nullopt;
        return nb::cast<std::string>(acc.join());
      },
      "source"_a,
      "None if MLIR text parses with only the mo, func and builtin dialects "
      "known, else the parser's diagnostics.");
  m.def("max_nesting", &moSourceMaxNesting,
        "The deepest bracket nesting mo's text entry points accept.");
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
        std::vector<std::string> objects;
        std::string error;
        bool compiled;
        {
          // LLVM's work needs no Python: other threads trace and compile.
          nb::gil_scoped_release unlocked;
          compiled = moJitCompile(module, optLevel, appendObject, &objects, appendTo, &error);
        }
        if (!compiled)
          throw std::runtime_error(error);
        return objectList(objects);
      },
      "module"_a, "opt_level"_a,
      "The object files of an LLVM-dialect module (mo-c/Jit.h: packed "
      "wrappers `_mo_packed_<f>`, identical functions merged, -O<opt_level>, "
      "a large module split over the cores).");
  m.def(
      "jit_compile_graph",
      [](MlirModule module, std::vector<MlirPassManager> managers, int optLevel) {
        std::vector<std::string> objects;
        std::string error;
        bool compiled, pipelineFailed;
        {
          nb::gil_scoped_release unlocked;
          compiled = moJitCompileGraph(module, static_cast<int>(managers.size()),
                                       managers.data(), optLevel, &pipelineFailed,
                                       appendObject, &objects, appendTo, &error);
        }
        if (!compiled)
          throw std::runtime_error((pipelineFailed ? "pipeline: " : "codegen: ") + error);
        return objectList(objects);
      },
      "module"_a, "managers"_a, "opt_level"_a,
      "The object files of a graph through mo-cpu-kernels (mo-c/Jit.h): its "
      "kernels split over `managers` (mo-cpu-kernels-to-llvm, one per "
      "thread), each part lowered and compiled on a thread. Raises "
      "RuntimeError, its message starting `pipeline: ` if a pass failed, "
      "`codegen: ` otherwise.");
  nb::class_<JitHandle>(m, "Jit", "The object files of one jit_compile linked into the process.")
      .def(
          "__init__",
          [](JitHandle *self, const std::vector<nb::bytes> &objects,
             const std::vector<std::string> &libraries) {
            std::vector<MlirStringRef> paths, parts;
            for (const std::string &path : libraries)
              paths.push_back(mlirStringRefCreate(path.data(), path.size()));
            for (const nb::bytes &o : objects)
              parts.push_back(mlirStringRefCreate(o.c_str(), o.size()));
            std::string error;
            MoJit *jit = moJitLoad(static_cast<int>(parts.size()), parts.data(),
                                   static_cast<int>(paths.size()), paths.data(), appendTo,
                                   &error);
            if (!jit)
              throw std::runtime_error(error);
            new (self) JitHandle{jit};
          },
          "objects"_a, "shared_libs"_a)
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
