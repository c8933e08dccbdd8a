//===- MoElementwise.td - generated elementwise op family --*- tablegen -*-===//
//
// One table row per op; every row becomes an ODS op with the same traits,
// syntax, broadcasting verifier and result-type inference.
//
//===----------------------------------------------------------------------===//

#ifndef MO_ELEMENTWISE_TD
#define MO_ELEMENTWISE_TD

class Mo_BinaryOpInfo<string mnemonic, string cppName, string summaryText,
                      list<Trait> extraTraits = []> {
  string Mnemonic = mnemonic;
  string CppName = cppName;
  string Summary = summaryText;
  list<Trait> Traits = extraTraits;
}

// name, C++ class stem, summary, extra traits.
defvar Mo_BinaryOps = [
  Mo_BinaryOpInfo<"add", "Add", "elementwise sum", [Commutative]>,
  Mo_BinaryOpInfo<"sub", "Sub", "elementwise difference">,
  Mo_BinaryOpInfo<"mul", "Mul", "elementwise product", [Commutative]>,
  Mo_BinaryOpInfo<"div", "Div", "elementwise quotient">,
  Mo_BinaryOpInfo<"max", "Max", "elementwise maximum", [Commutative]>,
  Mo_BinaryOpInfo<"min", "Min", "elementwise minimum", [Commutative]>,
];

class Mo_BinaryElementwiseOp<Mo_BinaryOpInfo info>
    : Mo_Op<info.Mnemonic, !listconcat([Pure,
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
      return ::mlir::mo::inferBinaryElementwiseTypes(loc, operands, inferred);
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
      return ::mlir::mo::foldBinaryElementwise(*this, adaptor.getLhs(),
                                               adaptor.getRhs());
    }
  }];
}

foreach info = Mo_BinaryOps in
  def Mo_ # info.CppName # Op : Mo_BinaryElementwiseOp<info>;

#endif // MO_ELEMENTWISE_TD
