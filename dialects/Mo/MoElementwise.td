//===- MoElementwise.td - generated elementwise op family --*- tablegen -*-===//
//
// One table row per op; every row becomes an ODS op with the same traits,
// syntax, broadcasting verifier and result-type inference.
//
//===----------------------------------------------------------------------===//

#ifndef MO_ELEMENTWISE_TD
#define MO_ELEMENTWISE_TD

class Mo_BinaryOpInfo<string mnemonic, string cppName, string summaryText,
                      list<Trait> extraTraits = [], bit isCompare = 0> {
  string Mnemonic = mnemonic;
  string CppName = cppName;
  string Summary = summaryText;
  list<Trait> Traits = extraTraits;
  // Comparisons produce i1 (bool) elements.
  bit IsCompare = isCompare;
}

// name, C++ class stem, summary, extra traits, is a comparison.
defvar Mo_BinaryOps = [
  Mo_BinaryOpInfo<"add", "Add", "elementwise sum", [Commutative]>,
  Mo_BinaryOpInfo<"sub", "Sub", "elementwise difference">,
  Mo_BinaryOpInfo<"mul", "Mul", "elementwise product", [Commutative]>,
  Mo_BinaryOpInfo<"div", "Div", "elementwise quotient (floored for integers)">,
  Mo_BinaryOpInfo<"floordiv", "FloorDiv", "elementwise floor of the quotient">,
  Mo_BinaryOpInfo<"mod", "Mod", "elementwise remainder with the divisor's sign">,
  Mo_BinaryOpInfo<"pow", "Pow", "elementwise power">,
  Mo_BinaryOpInfo<"max", "Max", "elementwise maximum", [Commutative]>,
  Mo_BinaryOpInfo<"min", "Min", "elementwise minimum", [Commutative]>,
  Mo_BinaryOpInfo<"equal", "Equal", "elementwise ==", [Commutative], 1>,
  Mo_BinaryOpInfo<"not_equal", "NotEqual", "elementwise !=", [Commutative], 1>,
  Mo_BinaryOpInfo<"greater", "Greater", "elementwise >", [], 1>,
  Mo_BinaryOpInfo<"greater_equal", "GreaterEqual", "elementwise >=", [], 1>,
  Mo_BinaryOpInfo<"less", "Less", "elementwise <", [], 1>,
  Mo_BinaryOpInfo<"less_equal", "LessEqual", "elementwise <=", [], 1>,
];

class Mo_BinaryElementwiseOp<Mo_BinaryOpInfo info>
    : Mo_Op<info.Mnemonic, !listconcat([Pure, Elementwise,
        DeclareOpInterfaceMethods<InferTypeOpInterface>], info.Traits)> {
  let summary = info.Summary # " with numpy broadcasting";
  let description = [{
    Operands broadcast like numpy (dims are aligned from the right; a dim of
    size 1 stretches; symbolic dims must be equal). Element types and devices
    must match: dtype promotion happens in the tracer.

    ```mlir
    %z = mo.}] # info.Mnemonic # [{(%x, %y) : (!mo.tensor<[batch, 2], f32>,
        !mo.tensor<[], f32>) -> !mo.tensor<[batch, 2], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$lhs, Mo_AnyTensor:$rhs);
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
      return ::mlir::mo::foldBinaryElementwise(*this, adaptor.getLhs(),
                                               adaptor.getRhs());
    }
  }];
}

foreach info = Mo_BinaryOps in
  def Mo_ # info.CppName # Op : Mo_BinaryElementwiseOp<info>;

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

class Mo_UnaryOpInfo<string mnemonic, string cppName, string summaryText,
                     bit isFloatOnly = 0> {
  string Mnemonic = mnemonic;
  string CppName = cppName;
  string Summary = summaryText;
  bit FloatOnly = isFloatOnly;
}

// name, C++ class stem, summary, float-only.
defvar Mo_UnaryOps = [
  Mo_UnaryOpInfo<"abs", "Abs", "absolute value">,
  Mo_UnaryOpInfo<"negative", "Negative", "negation">,
  Mo_UnaryOpInfo<"relu", "Relu", "max(x, 0)">,
  Mo_UnaryOpInfo<"ceil", "Ceil", "round up", 1>,
  Mo_UnaryOpInfo<"cos", "Cos", "cosine", 1>,
  Mo_UnaryOpInfo<"erf", "Erf", "error function", 1>,
  Mo_UnaryOpInfo<"exp", "Exp", "e to the x", 1>,
  Mo_UnaryOpInfo<"floor", "Floor", "round down", 1>,
  Mo_UnaryOpInfo<"log", "Log", "natural logarithm", 1>,
  Mo_UnaryOpInfo<"log1p", "Log1p", "log(1 + x)", 1>,
  Mo_UnaryOpInfo<"round", "Round", "round half to even", 1>,
  Mo_UnaryOpInfo<"rsqrt", "Rsqrt", "1 / sqrt(x)", 1>,
  Mo_UnaryOpInfo<"sigmoid", "Sigmoid", "1 / (1 + exp(-x))", 1>,
  Mo_UnaryOpInfo<"silu", "Silu", "x * sigmoid(x)", 1>,
  Mo_UnaryOpInfo<"sin", "Sin", "sine", 1>,
  Mo_UnaryOpInfo<"sqrt", "Sqrt", "square root", 1>,
  Mo_UnaryOpInfo<"tanh", "Tanh", "hyperbolic tangent", 1>,
  Mo_UnaryOpInfo<"trunc", "Trunc", "round toward zero", 1>,
];

def Mo_FloatTensor : Type<And<[
    CPred<"::llvm::isa<::mlir::mo::TensorType>($_self)">,
    CPred<"::llvm::isa<::mlir::FloatType>(::llvm::cast<::mlir::mo::TensorType>($_self).getElementType())">]>,
    "mo tensor of floating-point values", "::mlir::mo::TensorType">;

class Mo_UnaryElementwiseOp<Mo_UnaryOpInfo info>
    : Mo_Op<info.Mnemonic, [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "elementwise " # info.Summary;
  let description = [{
    ```mlir
    %y = mo.}] # info.Mnemonic # [{ %x : !mo.tensor<[batch, 2], f32>
    ```
  }];
  let arguments = (ins !if(info.FloatOnly, Mo_FloatTensor, Mo_AnyTensor):$input);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($result))";
}

foreach info = Mo_UnaryOps in
  def Mo_ # info.CppName # Op : Mo_UnaryElementwiseOp<info>;

#endif // MO_ELEMENTWISE_TD
