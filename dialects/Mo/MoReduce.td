//===- MoReduce.td - the reduction op registry -------------*- tablegen -*-===//
//
// One row per reduction: mnemonic, the element kinds it takes, its identity
// (an arith::AtomicRMWKind per kind), its combining step (a scalar map over
// the accumulator `x` and the element `y`), its final step and its numpy
// reference. Every row becomes an ODS op with ReduceOpInterface, one
// lowering pattern serves them all, and the Python package builds
// `ops.sum`, `F.sum`, `Tensor.sum`, ... and the tests from the same rows.
//
//===----------------------------------------------------------------------===//

#ifndef MO_REDUCE_TD
#define MO_REDUCE_TD

include "Mo/MoElementwise.td"

/// The identity per kind, as arith::AtomicRMWKind names ("" if undefined).
class Mo_Identity<string f, string si, string ui = si, string b = ""> {
  string F = f;
  string SI = si;
  string UI = ui;
  string Bool = b;
}

class Mo_ReduceOpInfo<string mnemonic, string cppName, string pythonName,
                      string summaryText, list<string> kinds,
                      Mo_Identity identityKinds, Mo_Scalar combineMap,
                      string numpyName, bit wide = 0, bit isArg = 0,
                      string finalExpr = "args[0]"> {
  string Mnemonic = mnemonic;
  string CppName = cppName;
  string PythonName = pythonName;
  string Summary = summaryText;
  list<string> Kinds = kinds;
  Mo_Identity Identity = identityKinds;
  Mo_Scalar Combine = combineMap;
  string Reference = numpyName;
  bit Wide = wide;
  bit IsArg = isArg;
  string Final = finalExpr;
}

defvar Mo_ArgMax = "::mlir::mo::scalar::isBetter(b, loc, y, x, element, true)";
defvar Mo_ArgMin = "::mlir::mo::scalar::isBetter(b, loc, y, x, element, false)";

defvar Mo_ReduceOps = [
  Mo_ReduceOpInfo<"reduce_sum", "ReduceSum", "sum", "sum", Mo_Numeric,
    Mo_Identity<"addf", "addi">, Mo_ArithScalar<"AddF", "AddI">, "sum", 1>,
  Mo_ReduceOpInfo<"reduce_mean", "ReduceMean", "mean", "mean", Mo_FloatOnly,
    Mo_Identity<"addf", "">, Mo_ArithScalar<"AddF", "AddI">, "mean", 1, 0,
    "::mlir::mo::scalar::mean(b, loc, args[0], args[1])">,
  Mo_ReduceOpInfo<"reduce_prod", "ReduceProd", "prod", "product", Mo_Numeric,
    Mo_Identity<"mulf", "muli">, Mo_ArithScalar<"MulF", "MulI">, "prod", 1>,
  Mo_ReduceOpInfo<"reduce_max", "ReduceMax", "max", "maximum", Mo_AllKinds,
    Mo_Identity<"maximumf", "maxs", "maxu", "ori">,
    Mo_ArithScalar<"MaximumF", "MaxSI", "MaxUI", "OrI">, "max">,
  Mo_ReduceOpInfo<"reduce_min", "ReduceMin", "min", "minimum", Mo_AllKinds,
    Mo_Identity<"minimumf", "mins", "minu", "andi">,
    Mo_ArithScalar<"MinimumF", "MinSI", "MinUI", "AndI">, "min">,
  Mo_ReduceOpInfo<"argmax", "ArgMax", "argmax", "index of the (first) maximum",
    Mo_Numeric, Mo_Identity<"maximumf", "maxs", "maxu">,
    Mo_Scalar<Mo_ArgMax, Mo_ArgMax>, "argmax", 0, 1>,
  Mo_ReduceOpInfo<"argmin", "ArgMin", "argmin", "index of the (first) minimum",
    Mo_Numeric, Mo_Identity<"minimumf", "mins", "minu">,
    Mo_Scalar<Mo_ArgMin, Mo_ArgMin>, "argmin", 0, 1>,
];

class Mo_IdentityFor<string kind> {
  string Code = !if(!empty(kind), "",
      "::mlir::arith::getIdentityValue(::mlir::arith::AtomicRMWKind::" # kind #
      ", type, b, loc)");
}

class Mo_ReduceOp<Mo_ReduceOpInfo info>
    : Mo_Op<info.Mnemonic, [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>,
        DeclareOpInterfaceMethods<Mo_ReduceOpInterface,
                                  ["getReducedAxis", "isArgReduction",
                                   "accumulatesWide", "hasFinalStep",
                                   "buildIdentity",
                                   "buildCombine", "buildFinal"]>]>,
      Mo_RegistryFields<"reduce", info.Kinds, info.Reference, 1> {
  string moPythonName = info.PythonName;
  let summary = "The " # info.Summary # " along one axis (kept, with size 1)";
  let description = [{
    Reduces `input` along `axis`, which stays in the result with size 1.
    Defined on }] # Mo_KindsText<info.Kinds>.Text # [{ elements, like
    `numpy.}] # info.Reference # [{(x, axis, keepdims=True)`}]
    # !if(info.IsArg, " (the result holds si64 indices)", "") # [{.

    ```mlir
    %y = mo.}] # info.Mnemonic # [{ %x {axis = 1 : i64} : !mo.tensor<[n, 4], f32> -> !mo.tensor<[n, 1], }]
    # !if(info.IsArg, "si64", "f32") # [{>
    ```
  }];
  let arguments = (ins Mo_OperandOfKinds<info.Kinds>.T:$input, I64Attr:$axis);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr attrs,
        ::mlir::OpaqueProperties properties, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      Adaptor adaptor(operands, attrs, properties);
      return ::mlir::mo::inferReduceType(loc, operands[0],
                                         adaptor.getAxis(), }]
                                         # !if(info.IsArg, "true", "false") # [{,
                                         inferred);
    }
    int64_t $cppClass::getReducedAxis() { return getAxis(); }
    bool $cppClass::isArgReduction() { return }] # !if(info.IsArg, "true", "false") # [{; }
    bool $cppClass::accumulatesWide() { return }] # !if(info.Wide, "true", "false") # [{; }
    bool $cppClass::hasFinalStep() { return }] # !if(!eq(info.Final, "args[0]"), "false", "true") # [{; }
    ::mlir::Value $cppClass::buildIdentity(::mlir::OpBuilder &b,
        ::mlir::Location loc, ::mlir::Type type, ::mlir::Type element) {
      }] # !if(!empty(info.Identity.F), "", [{
      if (::llvm::isa<::mlir::FloatType>(element))
        return }] # Mo_IdentityFor<info.Identity.F>.Code # [{;}]) # !if(!empty(info.Identity.Bool), "", [{
      if (element.isSignlessInteger(1))
        return }] # Mo_IdentityFor<info.Identity.Bool>.Code # [{;}]) # !if(!empty(info.Identity.UI), "", [{
      if (element.isUnsignedInteger())
        return }] # Mo_IdentityFor<info.Identity.UI>.Code # [{;}]) # !if(!empty(info.Identity.SI), "", [{
      if (element.isSignedInteger())
        return }] # Mo_IdentityFor<info.Identity.SI>.Code # [{;}]) # [{
      llvm_unreachable("the verifier rejects this element type");
    }
    ::mlir::Value $cppClass::buildCombine(::mlir::OpBuilder &b,
        ::mlir::Location loc, ::mlir::ValueRange args, ::mlir::Type element) {
      }] # Mo_ScalarBody<info.Combine>.Code # [{
    }
    ::mlir::Value $cppClass::buildFinal(::mlir::OpBuilder &b,
        ::mlir::Location loc, ::mlir::ValueRange args) {
      return }] # info.Final # [{;
    }
  }];
}

foreach info = Mo_ReduceOps in
  def Mo_ # info.CppName # Op : Mo_ReduceOp<info>;

//===----------------------------------------------------------------------===//
// Scans
//===----------------------------------------------------------------------===//

def Mo_CumsumOp : Mo_Op<"cumsum", [Pure, SameOperandsAndResultType]> {
  let summary = "Cumulative sum along an axis";
  let description = [{
    `result[..., i, ...] = sum(input[..., j, ...] for j <= i)` along `axis`;
    with `exclusive`, `j < i` (the first is 0); with `reverse`, the sums run
    from the end (`j >= i`, or `j > i`). Integers wrap in their own type.

    ```mlir
    %y = mo.cumsum %x {axis = 1 : i64, exclusive = false, reverse = true}
        : !mo.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins Mo_TensorOfKinds<Mo_Numeric>:$input, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

#endif // MO_REDUCE_TD
