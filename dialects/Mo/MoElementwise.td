//===- MoElementwise.td - the elementwise op registry ------*- tablegen -*-===//
//
// One row per op. A row states everything about the op: its mnemonic and
// summary, the element kinds it is defined on (the ODS operand constraint,
// so the verifier rejects the others), its scalar computation per kind (the
// lowering's loop body, through ElementwiseOpInterface), its constant folds
// and identities, and the numpy function it matches. The Python package
// reads the same rows (`mo/_opdefs.json`, dumped from these records at build
// time) to build `ops.*`, `F.*`, the Tensor methods and the tests.
//
//===----------------------------------------------------------------------===//

#ifndef MO_ELEMENTWISE_TD
#define MO_ELEMENTWISE_TD

include "Mo/MoInterfaces.td"

//===----------------------------------------------------------------------===//
// Element kinds
//===----------------------------------------------------------------------===//

defvar Mo_AllKinds = ["float", "signed", "unsigned", "bool"];
defvar Mo_Numeric = ["float", "signed", "unsigned"];
defvar Mo_FloatOnly = ["float"];

class Mo_Kind<string kind> {
  // A C++ predicate on `$_elt`, the element type.
  string Pred = !cond(
      !eq(kind, "float"): "::llvm::isa<::mlir::FloatType>($_elt)",
      !eq(kind, "signed"): "$_elt.isSignedInteger()",
      !eq(kind, "unsigned"): "$_elt.isUnsignedInteger()",
      !eq(kind, "bool"): "$_elt.isSignlessInteger(1)");
  string Name = !cond(
      !eq(kind, "float"): "floating-point",
      !eq(kind, "signed"): "signed integer",
      !eq(kind, "unsigned"): "unsigned integer",
      !eq(kind, "bool"): "bool");
}

/// "floating-point or signed integer": how diagnostics (C++ and Python) name
/// a list of kinds.
class Mo_KindsText<list<string> kinds> {
  string Text = !interleave(!foreach(k, kinds, Mo_Kind<k>.Name), " or ");
}

/// A mo tensor whose element type is of one of `kinds`.
class Mo_TensorOfKinds<list<string> kinds> : Type<And<[
    CPred<"::llvm::isa<::mlir::mo::TensorType>($_self)">,
    Or<!foreach(k, kinds, CPred<!subst("$_elt",
        "::llvm::cast<::mlir::mo::TensorType>($_self).getElementType()",
        Mo_Kind<k>.Pred)>)>]>,
    "mo tensor of " # Mo_KindsText<kinds>.Text # " values",
    "::mlir::mo::TensorType">;

class Mo_OperandOfKinds<list<string> kinds> {
  Type T = !if(!eq(!size(kinds), !size(Mo_AllKinds)), Mo_AnyTensor,
               Mo_TensorOfKinds<kinds>);
}

//===----------------------------------------------------------------------===//
// Scalar maps: C++ expressions over `b` (OpBuilder), `loc`, `x`, `y` (the
// operands' scalars) and `element` (the mo element type); "" where the op is
// not defined on that kind.
//===----------------------------------------------------------------------===//

class Mo_Scalar<string f, string si = "", string ui = si, string b = ""> {
  string F = f;
  string SI = si;
  string UI = ui;
  string Bool = b;
}

/// One arith op per kind: "AddF", "AddI" -> arith::AddFOp::create(b, loc, x, y).
class Mo_ArithScalar<string f, string si, string ui = si, string b = "">
    : Mo_Scalar<"::mlir::arith::" # f # "Op::create(b, loc, x, y)",
                "::mlir::arith::" # si # "Op::create(b, loc, x, y)",
                "::mlir::arith::" # ui # "Op::create(b, loc, x, y)",
                !if(!empty(b), "", "::mlir::arith::" # b # "Op::create(b, loc, x, y)")>;

/// Float math computed in f32 for f16/bf16 and rounded once (`fn` is a C++
/// expression over the (widened) `v`).
class Mo_InF32<string fn>
    : Mo_Scalar<"::mlir::mo::scalar::inF32(b, loc, x, [&](::mlir::Value v) "
                "-> ::mlir::Value { return " # fn # "; })">;

/// A float math op on x: "Exp" -> math::ExpOp::create(b, loc, v), in f32
/// for f16/bf16.
class Mo_MathScalar<string op>
    : Mo_InF32<"::mlir::math::" # op # "Op::create(b, loc, v)">;

/// Rounding: a math op for floats; integers are already whole.
class Mo_RoundScalar<string op>
    : Mo_Scalar<"::mlir::math::" # op # "Op::create(b, loc, x)", "x", "x">;

class Mo_CompareScalar<string f, string s, string u>
    : Mo_Scalar<"::mlir::mo::scalar::compare(b, loc, x, y, element, "
                "::mlir::arith::CmpFPredicate::" # f # ", "
                "::mlir::arith::CmpIPredicate::" # s # ", "
                "::mlir::arith::CmpIPredicate::" # u # ")"> {
  let SI = F;
  let UI = F;
  let Bool = F;
}

/// The body of `buildScalar`: one branch per kind the op is defined on.
class Mo_ScalarBody<Mo_Scalar s> {
  string Code = [{
    [[maybe_unused]] ::mlir::Value x = args[0];
    [[maybe_unused]] ::mlir::Value y = args.size() > 1 ? args[1] : ::mlir::Value();
  }] # !if(!empty(s.F), "", [{
    if (::llvm::isa<::mlir::FloatType>(element))
      return ::mlir::Value(}] # s.F # [{);}]) # !if(!empty(s.Bool), "", [{
    if (element.isSignlessInteger(1))
      return ::mlir::Value(}] # s.Bool # [{);}]) # !if(!empty(s.UI), "", [{
    if (element.isUnsignedInteger())
      return ::mlir::Value(}] # s.UI # [{);}]) # !if(!empty(s.SI), "", [{
    if (element.isSignedInteger())
      return ::mlir::Value(}] # s.SI # [{);}]) # [{
    llvm_unreachable("the verifier rejects this element type");
  }];
}

/// Fields every registry op carries for the Python package (read from the
/// records' JSON dump; ODS ignores them).
class Mo_RegistryFields<string family, list<string> kinds, string reference,
                        int arity> {
  string moFamily = family;
  list<string> moKinds = kinds;
  string moKindsText = Mo_KindsText<kinds>.Text;
  string moReference = reference;
  int moArity = arity;
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

/// Constant folding of a binary op: C++ expressions over APFloat `a`, `b`
/// (float), APInt `a`, `b` and bool `u` (unsigned) for integers, giving an
/// std::optional (nullopt: not folded); "" folds nothing.
class Mo_Fold<string f = "", string i = "", string boolean = "",
              string identity = "", bit idempotent = 0> {
  string F = f;
  string I = i;
  string Bool = boolean;
  // `x op e == x` (and `e op x == x` for commutative ops) with e this splat.
  string RightIdentity = identity;
  // `x op x == x`.
  bit Idempotent = idempotent;
}

class Mo_BinaryOpInfo<string mnemonic, string cppName, string summaryText,
                      list<string> kinds, Mo_Scalar scalarMap,
                      string numpyName, Mo_Fold foldRule = Mo_Fold<>,
                      list<Trait> extraTraits = [], bit isCompare = 0> {
  string Mnemonic = mnemonic;
  string CppName = cppName;
  string Summary = summaryText;
  list<string> Kinds = kinds;
  Mo_Scalar Scalar = scalarMap;
  string Reference = numpyName;
  Mo_Fold Fold = foldRule;
  list<Trait> Traits = extraTraits;
  // Comparisons produce i1 (bool) elements.
  bit IsCompare = isCompare;
}

defvar Mo_IntDiv = "::mlir::mo::scalar::intDiv(b, loc, x, y, element.isUnsignedInteger())";

defvar Mo_BinaryOps = [
  Mo_BinaryOpInfo<"add", "Add", "elementwise sum", Mo_AllKinds,
    Mo_ArithScalar<"AddF", "AddI", "AddI", "OrI">, "add",
    Mo_Fold<"a + b", "a + b", "a | b", "0">, [Commutative]>,
  Mo_BinaryOpInfo<"sub", "Sub", "elementwise difference", Mo_Numeric,
    Mo_ArithScalar<"SubF", "SubI">, "subtract", Mo_Fold<"a - b", "a - b", "", "0">>,
  Mo_BinaryOpInfo<"mul", "Mul", "elementwise product", Mo_AllKinds,
    Mo_ArithScalar<"MulF", "MulI", "MulI", "AndI">, "multiply",
    Mo_Fold<"a * b", "a * b", "a & b", "1">, [Commutative]>,
  Mo_BinaryOpInfo<"div", "Div", "elementwise quotient (floored for integers)",
    Mo_Numeric,
    Mo_Scalar<"::mlir::arith::DivFOp::create(b, loc, x, y)", Mo_IntDiv>,
    "true_divide",
    // Integer division floors like numpy; x / 0 and INT_MIN / -1 stay unfolded.
    Mo_Fold<"a / b", "(b.isZero() || (!u && a.isMinSignedValue() && b.isAllOnes())) "
            "? std::optional<::llvm::APInt>() : (u ? a.udiv(b) : "
            "::llvm::APIntOps::RoundingSDiv(a, b, ::llvm::APInt::Rounding::DOWN))",
            "", "1">>,
  Mo_BinaryOpInfo<"floordiv", "FloorDiv", "elementwise floor of the quotient",
    Mo_Numeric,
    Mo_Scalar<"::mlir::mo::scalar::floatFloorDiv(b, loc, x, y)", Mo_IntDiv>,
    "floor_divide">,
  Mo_BinaryOpInfo<"mod", "Mod", "elementwise remainder with the divisor's sign",
    Mo_Numeric,
    Mo_Scalar<"::mlir::mo::scalar::mod(b, loc, x, y, true, false)",
              "::mlir::mo::scalar::mod(b, loc, x, y, false, false)",
              "::mlir::mo::scalar::mod(b, loc, x, y, false, true)">,
    "mod">,
  Mo_BinaryOpInfo<"pow", "Pow", "elementwise power", Mo_Numeric,
    Mo_Scalar<"::mlir::math::PowFOp::create(b, loc, x, y)",
              "::mlir::mo::scalar::intPow(b, loc, x, y, false)",
              "::mlir::mo::scalar::intPow(b, loc, x, y, true)">,
    "power">,
  Mo_BinaryOpInfo<"max", "Max", "elementwise maximum", Mo_AllKinds,
    Mo_ArithScalar<"MaximumF", "MaxSI", "MaxUI", "OrI">, "maximum",
    Mo_Fold<"::llvm::maximum(a, b)",
            "u ? ::llvm::APIntOps::umax(a, b) : ::llvm::APIntOps::smax(a, b)",
            "a | b", "", 1>, [Commutative]>,
  Mo_BinaryOpInfo<"min", "Min", "elementwise minimum", Mo_AllKinds,
    Mo_ArithScalar<"MinimumF", "MinSI", "MinUI", "AndI">, "minimum",
    Mo_Fold<"::llvm::minimum(a, b)",
            "u ? ::llvm::APIntOps::umin(a, b) : ::llvm::APIntOps::smin(a, b)",
            "a & b", "", 1>, [Commutative]>,
  Mo_BinaryOpInfo<"logical_and", "LogicalAnd", "elementwise logical and", ["bool"],
    Mo_Scalar<"", "", "", "::mlir::arith::AndIOp::create(b, loc, x, y)">,
    "logical_and", Mo_Fold<"", "", "a & b">, [Commutative]>,
  Mo_BinaryOpInfo<"logical_or", "LogicalOr", "elementwise logical or", ["bool"],
    Mo_Scalar<"", "", "", "::mlir::arith::OrIOp::create(b, loc, x, y)">,
    "logical_or", Mo_Fold<"", "", "a | b">, [Commutative]>,
  Mo_BinaryOpInfo<"logical_xor", "LogicalXor", "elementwise logical xor", ["bool"],
    Mo_Scalar<"", "", "", "::mlir::arith::XOrIOp::create(b, loc, x, y)">,
    "logical_xor", Mo_Fold<"", "", "a ^ b">, [Commutative]>,
  Mo_BinaryOpInfo<"equal", "Equal", "elementwise ==", Mo_AllKinds,
    Mo_CompareScalar<"OEQ", "eq", "eq">, "equal", Mo_Fold<>, [Commutative], 1>,
  Mo_BinaryOpInfo<"not_equal", "NotEqual", "elementwise !=", Mo_AllKinds,
    Mo_CompareScalar<"UNE", "ne", "ne">, "not_equal", Mo_Fold<>, [Commutative], 1>,
  Mo_BinaryOpInfo<"greater", "Greater", "elementwise >", Mo_AllKinds,
    Mo_CompareScalar<"OGT", "sgt", "ugt">, "greater", Mo_Fold<>, [], 1>,
  Mo_BinaryOpInfo<"greater_equal", "GreaterEqual", "elementwise >=", Mo_AllKinds,
    Mo_CompareScalar<"OGE", "sge", "uge">, "greater_equal", Mo_Fold<>, [], 1>,
  Mo_BinaryOpInfo<"less", "Less", "elementwise <", Mo_AllKinds,
    Mo_CompareScalar<"OLT", "slt", "ult">, "less", Mo_Fold<>, [], 1>,
  Mo_BinaryOpInfo<"less_equal", "LessEqual", "elementwise <=", Mo_AllKinds,
    Mo_CompareScalar<"OLE", "sle", "ule">, "less_equal", Mo_Fold<>, [], 1>,
];

/// A fold lambda, or nullptr where the rule is "".
class Mo_FoldFn<string expr, string valueType, string params> {
  string Code = !if(!empty(expr), "nullptr",
      "+[](" # params # ") -> std::optional<" # valueType # "> { return " # expr # "; }");
}

class Mo_BinaryElementwiseOp<Mo_BinaryOpInfo info>
    : Mo_Op<info.Mnemonic, !listconcat([Pure,
        DeclareOpInterfaceMethods<InferTypeOpInterface>,
        DeclareOpInterfaceMethods<Mo_ElementwiseOpInterface>], info.Traits)>,
      Mo_RegistryFields<"binary", info.Kinds, info.Reference, 2> {
  bit moBoolResult = info.IsCompare;
  let summary = info.Summary # " with numpy broadcasting";
  let description = [{
    Operands broadcast like numpy (dims are aligned from the right; a dim of
    size 1 stretches; symbolic dims must be equal). Element types and devices
    must match: dtype promotion happens in the tracer. Defined on }]
    # Mo_KindsText<info.Kinds>.Text # [{ elements, like `numpy.}]
    # info.Reference # [{`.

    ```mlir
    %z = mo.}] # info.Mnemonic # [{(%x, %y) : (!mo.tensor<[batch, 2], f32>,
        !mo.tensor<[], f32>) -> !mo.tensor<[batch, 2], f32>
    ```
  }];
  let arguments = (ins Mo_OperandOfKinds<info.Kinds>.T:$lhs,
                       Mo_OperandOfKinds<info.Kinds>.T:$rhs);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $lhs `,` $rhs `)` attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr,
        ::mlir::OpaqueProperties, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      return ::mlir::mo::inferBinaryElementwiseTypes(loc, operands, inferred,
                                                     }] # !if(info.IsCompare, "true", "false") # [{);
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
      ::mlir::mo::BinaryFold rule;
      rule.f = }] # Mo_FoldFn<info.Fold.F, "::llvm::APFloat",
                              "::llvm::APFloat a, ::llvm::APFloat b">.Code # [{;
      rule.i = }] # Mo_FoldFn<info.Fold.I, "::llvm::APInt",
                              "::llvm::APInt a, ::llvm::APInt b, [[maybe_unused]] bool u">.Code # [{;
      rule.boolean = }] # Mo_FoldFn<info.Fold.Bool, "::llvm::APInt",
                              "::llvm::APInt a, ::llvm::APInt b, bool">.Code # [{;
      rule.rightIdentity = }] # !if(!empty(info.Fold.RightIdentity), "std::nullopt",
                                     info.Fold.RightIdentity) # [{;
      rule.idempotent = }] # !if(info.Fold.Idempotent, "true", "false") # [{;
      return ::mlir::mo::foldBinaryElementwise(*this, adaptor.getLhs(),
                                               adaptor.getRhs(), rule);
    }
    ::mlir::Value $cppClass::buildScalar(::mlir::OpBuilder &b,
        ::mlir::Location loc, ::mlir::ValueRange args, ::mlir::Type element) {
      }] # Mo_ScalarBody<info.Scalar>.Code # [{
    }
  }];
}

foreach info = Mo_BinaryOps in
  def Mo_ # info.CppName # Op : Mo_BinaryElementwiseOp<info>;

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

class Mo_UnaryOpInfo<string mnemonic, string cppName, string summaryText,
                     list<string> kinds, Mo_Scalar scalarMap,
                     string numpyName, bit isPredicate = 0> {
  string Mnemonic = mnemonic;
  string CppName = cppName;
  string Summary = summaryText;
  list<string> Kinds = kinds;
  Mo_Scalar Scalar = scalarMap;
  string Reference = numpyName;
  // Predicates (is_nan) produce bool elements.
  bit IsPredicate = isPredicate;
}

defvar Mo_Zero = "::mlir::mo::scalar::constant(b, loc, x.getType(), 0)";

defvar Mo_UnaryOps = [
  Mo_UnaryOpInfo<"abs", "Abs", "absolute value", Mo_AllKinds,
    Mo_Scalar<"::mlir::math::AbsFOp::create(b, loc, x)",
              "::mlir::math::AbsIOp::create(b, loc, x)", "x", "x">, "absolute">,
  Mo_UnaryOpInfo<"negative", "Negative", "negation", Mo_Numeric,
    Mo_Scalar<"::mlir::arith::NegFOp::create(b, loc, x)",
              !strconcat("::mlir::arith::SubIOp::create(b, loc, ", Mo_Zero, ", x)")>,
    "negative">,
  Mo_UnaryOpInfo<"relu", "Relu", "max(x, 0)", Mo_Numeric,
    Mo_Scalar<!strconcat("::mlir::arith::MaximumFOp::create(b, loc, x, ", Mo_Zero, ")"),
              !strconcat("::mlir::arith::MaxSIOp::create(b, loc, x, ", Mo_Zero, ")"), "x">,
    "">,
  Mo_UnaryOpInfo<"square", "Square", "x * x", Mo_Numeric,
    Mo_Scalar<"::mlir::arith::MulFOp::create(b, loc, x, x)",
              "::mlir::arith::MulIOp::create(b, loc, x, x)">, "square">,
  // Rounding returns integers unchanged (same dtype).
  Mo_UnaryOpInfo<"ceil", "Ceil", "round up", Mo_Numeric, Mo_RoundScalar<"Ceil">, "ceil">,
  Mo_UnaryOpInfo<"floor", "Floor", "round down", Mo_Numeric,
    Mo_RoundScalar<"Floor">, "floor">,
  Mo_UnaryOpInfo<"round", "Round", "round half to even", Mo_Numeric,
    Mo_RoundScalar<"RoundEven">, "round">,
  Mo_UnaryOpInfo<"trunc", "Trunc", "round toward zero", Mo_Numeric,
    Mo_RoundScalar<"Trunc">, "trunc">,
  Mo_UnaryOpInfo<"exp", "Exp", "e to the x", Mo_FloatOnly, Mo_MathScalar<"Exp">, "exp">,
  Mo_UnaryOpInfo<"exp2", "Exp2", "2 to the x", Mo_FloatOnly, Mo_MathScalar<"Exp2">, "exp2">,
  Mo_UnaryOpInfo<"log", "Log", "natural logarithm", Mo_FloatOnly,
    Mo_MathScalar<"Log">, "log">,
  Mo_UnaryOpInfo<"log1p", "Log1p", "log(1 + x)", Mo_FloatOnly,
    Mo_InF32<"::mlir::mo::scalar::log1p(b, loc, v)">, "log1p">,
  Mo_UnaryOpInfo<"log2", "Log2", "base-2 logarithm", Mo_FloatOnly,
    Mo_MathScalar<"Log2">, "log2">,
  Mo_UnaryOpInfo<"sqrt", "Sqrt", "square root", Mo_FloatOnly,
    Mo_MathScalar<"Sqrt">, "sqrt">,
  Mo_UnaryOpInfo<"rsqrt", "Rsqrt", "1 / sqrt(x)", Mo_FloatOnly,
    Mo_MathScalar<"Rsqrt">, "">,
  Mo_UnaryOpInfo<"sin", "Sin", "sine", Mo_FloatOnly, Mo_MathScalar<"Sin">, "sin">,
  Mo_UnaryOpInfo<"cos", "Cos", "cosine", Mo_FloatOnly, Mo_MathScalar<"Cos">, "cos">,
  Mo_UnaryOpInfo<"tan", "Tan", "tangent", Mo_FloatOnly, Mo_MathScalar<"Tan">, "tan">,
  Mo_UnaryOpInfo<"asin", "Asin", "inverse sine", Mo_FloatOnly,
    Mo_MathScalar<"Asin">, "arcsin">,
  Mo_UnaryOpInfo<"acos", "Acos", "inverse cosine", Mo_FloatOnly,
    Mo_MathScalar<"Acos">, "arccos">,
  Mo_UnaryOpInfo<"atan", "Atan", "inverse tangent", Mo_FloatOnly,
    Mo_MathScalar<"Atan">, "arctan">,
  Mo_UnaryOpInfo<"sinh", "Sinh", "hyperbolic sine", Mo_FloatOnly,
    Mo_MathScalar<"Sinh">, "sinh">,
  Mo_UnaryOpInfo<"cosh", "Cosh", "hyperbolic cosine", Mo_FloatOnly,
    Mo_MathScalar<"Cosh">, "cosh">,
  Mo_UnaryOpInfo<"tanh", "Tanh", "hyperbolic tangent", Mo_FloatOnly,
    Mo_MathScalar<"Tanh">, "tanh">,
  Mo_UnaryOpInfo<"atanh", "Atanh", "inverse hyperbolic tangent", Mo_FloatOnly,
    Mo_MathScalar<"Atanh">, "arctanh">,
  Mo_UnaryOpInfo<"erf", "Erf", "error function", Mo_FloatOnly,
    Mo_MathScalar<"Erf">, "">,
  Mo_UnaryOpInfo<"sigmoid", "Sigmoid", "1 / (1 + exp(-x))", Mo_FloatOnly,
    Mo_InF32<"::mlir::mo::scalar::sigmoid(b, loc, v)">, "">,
  Mo_UnaryOpInfo<"silu", "Silu", "x * sigmoid(x)", Mo_FloatOnly,
    Mo_InF32<"::mlir::arith::MulFOp::create(b, loc, v, "
             "::mlir::mo::scalar::sigmoid(b, loc, v))">, "">,
  Mo_UnaryOpInfo<"gelu", "Gelu", "GELU, x * Phi(x) (erf form)", Mo_FloatOnly,
    Mo_InF32<"::mlir::mo::scalar::gelu(b, loc, v, ::mlir::mo::scalar::Gelu::Erf)">, "">,
  Mo_UnaryOpInfo<"gelu_tanh", "GeluTanh", "GELU, tanh approximation", Mo_FloatOnly,
    Mo_InF32<"::mlir::mo::scalar::gelu(b, loc, v, ::mlir::mo::scalar::Gelu::Tanh)">, "">,
  Mo_UnaryOpInfo<"gelu_quick", "GeluQuick", "GELU, x * sigmoid(1.702 x)",
    Mo_FloatOnly,
    Mo_InF32<"::mlir::mo::scalar::gelu(b, loc, v, ::mlir::mo::scalar::Gelu::Quick)">, "">,
  Mo_UnaryOpInfo<"logical_not", "LogicalNot", "logical not", ["bool"],
    Mo_Scalar<"", "", "", "::mlir::arith::XOrIOp::create(b, loc, x, "
              "::mlir::arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1))">,
    "logical_not">,
  Mo_UnaryOpInfo<"is_nan", "IsNan", "x is NaN", Mo_FloatOnly,
    Mo_Scalar<"::mlir::arith::CmpFOp::create(b, loc, "
              "::mlir::arith::CmpFPredicate::UNO, x, x)">, "isnan", 1>,
  Mo_UnaryOpInfo<"is_inf", "IsInf", "x is +inf or -inf", Mo_FloatOnly,
    Mo_Scalar<"::mlir::mo::scalar::isInf(b, loc, x)">, "isinf", 1>,
];

class Mo_UnaryElementwiseOp<Mo_UnaryOpInfo info>
    : Mo_Op<info.Mnemonic, !listconcat([Pure,
        DeclareOpInterfaceMethods<Mo_ElementwiseOpInterface>],
        !if(info.IsPredicate, [DeclareOpInterfaceMethods<InferTypeOpInterface>],
            [SameOperandsAndResultType]))>,
      Mo_RegistryFields<"unary", info.Kinds, info.Reference, 1> {
  bit moBoolResult = info.IsPredicate;
  let summary = "elementwise " # info.Summary;
  let description = [{
    Defined on }] # Mo_KindsText<info.Kinds>.Text # [{ elements}]
    # !if(info.IsPredicate, "; the result holds bools", "") # [{.

    ```mlir
    %y = mo.}] # info.Mnemonic # !if(info.IsPredicate,
        " %x : !mo.tensor<[batch, 2], f32> -> !mo.tensor<[batch, 2], i1>",
        " %x : !mo.tensor<[batch, 2], f32>") # [{
    ```
  }];
  let arguments = (ins Mo_OperandOfKinds<info.Kinds>.T:$input);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = !if(info.IsPredicate,
      "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))",
      "$input attr-dict `:` qualified(type($result))");
  let extraClassDefinition = !if(info.IsPredicate, [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *ctx, std::optional<::mlir::Location>,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr,
        ::mlir::OpaqueProperties, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      auto type = ::llvm::cast<::mlir::mo::TensorType>(operands[0].getType());
      inferred.push_back(::mlir::mo::TensorType::get(
          ctx, type.getDims(), ::mlir::IntegerType::get(ctx, 1), type.getDevice()));
      return ::mlir::success();
    }
  }], "") # [{
    ::mlir::Value $cppClass::buildScalar(::mlir::OpBuilder &b,
        ::mlir::Location loc, ::mlir::ValueRange args, ::mlir::Type element) {
      }] # Mo_ScalarBody<info.Scalar>.Code # [{
    }
  }];
}

foreach info = Mo_UnaryOps in
  def Mo_ # info.CppName # Op : Mo_UnaryElementwiseOp<info>;

//===----------------------------------------------------------------------===//
// Ternary select
//===----------------------------------------------------------------------===//

def Mo_SelectOp : Mo_Op<"select", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    DeclareOpInterfaceMethods<Mo_ElementwiseOpInterface>]> {
  let summary = "Elementwise choice: on_true where condition holds, else on_false";
  let description = [{
    numpy's `where`: the three operands broadcast together (dims aligned from
    the right, size-1 dims stretched); `on_true` and `on_false` have one
    element type, the result's.

    ```mlir
    %z = mo.select(%c, %x, %y) : (!mo.tensor<[n, 1], i1>, !mo.tensor<[n, 4], f32>,
        !mo.tensor<[], f32>) -> !mo.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins Mo_TensorOfKinds<["bool"]>:$condition,
                       Mo_AnyTensor:$on_true, Mo_AnyTensor:$on_false);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $condition `,` $on_true `,` $on_false `)` attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // MO_ELEMENTWISE_TD
