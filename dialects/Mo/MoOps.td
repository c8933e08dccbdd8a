//===- MoOps.td - mo dialect operations --------------------*- tablegen -*-===//
//
// Structural ops (graphs, calls, constants, chains) are written by hand here;
// op families (elementwise, ...) are generated from tables in their own files.
//
//===----------------------------------------------------------------------===//

#ifndef MO_OPS_TD
#define MO_OPS_TD

include "Mo/MoBase.td"
include "Mo/MoTypes.td"
include "Mo/MoInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Graphs and calls
//===----------------------------------------------------------------------===//

def Mo_GraphOp : Mo_Op<"graph", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove, Symbol,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A named tensor graph: the unit of tracing, calling and compiling";
  let description = [{
    A function-like symbol whose body computes its results from its
    arguments. Symbolic dims used in the signature are declared after the
    name; the public graph is the entry point, private graphs are subgraphs
    reached through `mo.call`.

    ```mlir
    mo.graph @step<batch>(%x: !mo.tensor<[batch, 2], f32>)
        -> !mo.tensor<[batch, 2], f32> {
      %c = mo.constant dense<3.0> : tensor<f32> : !mo.tensor<[], f32>
      %y = mo.mul(%x, %c) : (!mo.tensor<[batch, 2], f32>, !mo.tensor<[], f32>)
          -> !mo.tensor<[batch, 2], f32>
      mo.output %y : !mo.tensor<[batch, 2], f32>
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypeAttrOf<FunctionType>:$function_type,
    OptionalAttr<StrAttr>:$sym_visibility,
    OptionalAttr<StrArrayAttr>:$parameters,
    OptionalAttr<DictArrayAttr>:$arg_attrs,
    OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
      "::mlir::FunctionType":$type,
      CArg<"::llvm::ArrayRef<::llvm::StringRef>", "{}">:$parameters)>];
  let extraClassDeclaration = [{
    /// Symbolic dim names declared on the graph (`@f<batch, seq>`).
    ::llvm::SmallVector<::llvm::StringRef> getParameterNames();

    //===- CallableOpInterface / FunctionOpInterface ----------------------===//
    ::mlir::Region *getCallableRegion() {
      return isExternal() ? nullptr : &getBody();
    }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    bool isDeclaration() { return isExternal(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Mo_OutputOp : Mo_Op<"output", [
    Pure, HasParent<"GraphOp">, ReturnLike, Terminator]> {
  let summary = "Returns the results of the enclosing graph";
  let description = [{
    ```mlir
    mo.output %y, %z : !mo.tensor<[4], f32>, !mo.tensor<[], si64>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

def Mo_CallOp : Mo_Op<"call", [
    CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls a (shared) graph";
  let description = [{
    Calls `@callee` with the given operands, whose types must equal the
    callee's argument types (symbolic dims included: a subgraph is traced
    once per distinct input types). `prefix` is prepended to the names of the external
    constants (weights) the callee reads: `layers.0.` + `w` = `layers.0.w`.

    ```mlir
    %y = mo.call @block(%x) {prefix = "layers.0."}
        : (!mo.tensor<[8], f32>) -> !mo.tensor<[8], f32>
    ```
  }];
  let arguments = (ins
    FlatSymbolRefAttr:$callee,
    Variadic<AnyType>:$operands,
    OptionalAttr<StrAttr>:$prefix,
    OptionalAttr<DictArrayAttr>:$arg_attrs,
    OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    /// The prefix applied to weight names inside the callee ("" if none).
    ::llvm::StringRef getPrefixOrEmpty() {
      return getPrefix() ? *getPrefix() : ::llvm::StringRef();
    }
    operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(
                                     callee.get<::mlir::SymbolRefAttr>()));
    }
  }];
}

//===----------------------------------------------------------------------===//
// Constants and chains
//===----------------------------------------------------------------------===//

def Mo_ConstantOp : Mo_Op<"constant", [ConstantLike, Pure]> {
  let summary = "A tensor constant baked into the graph";
  let description = [{
    ```mlir
    %c = mo.constant dense<[1.0, 2.0]> : tensor<2xf32> : !mo.tensor<[2], f32>
    ```
    The value's shape and element type must equal the (static) result's.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Mo_ConstantExternalOp : Mo_Op<"constant.external", [Pure]> {
  let summary = "A named weight supplied when the graph is compiled";
  let description = [{
    Reads the external constant `name` (a weight bound once per compiled
    graph). `placeholder` marks a name declared by a subgraph body, which the
    calling `mo.call`'s `prefix` completes when it is inlined.

    ```mlir
    %w = mo.constant.external "w" placeholder : !mo.tensor<[1], f32>
    ```
  }];
  let arguments = (ins StrAttr:$name, UnitAttr:$isPlaceholder);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $name (`placeholder` $isPlaceholder^)? attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Mo_ChainCreateOp : Mo_Op<"chain.create", [Pure]> {
  let summary = "Starts a chain of side effects";
  let description = [{
    ```mlir
    %0 = mo.chain.create
    ```
  }];
  let results = (outs Mo_ChainType:$result);
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Linear algebra and shapes
//===----------------------------------------------------------------------===//

def Mo_MatmulOp : Mo_Op<"matmul", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Batched matrix product with numpy broadcasting";
  let description = [{
    `[..., M, K] x [..., K, N] -> [..., M, N]`; the leading (batch) dims
    broadcast like numpy. Both operands have rank >= 2.

    ```mlir
    %y = mo.matmul(%x, %w) : (!mo.tensor<[batch, 4], f32>,
        !mo.tensor<[4, 8], f32>) -> !mo.tensor<[batch, 8], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$lhs, Mo_AnyTensor:$rhs);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $lhs `,` $rhs `)` attr-dict `:` functional-type(operands, results)
  }];
}

def Mo_ReshapeOp : Mo_Op<"reshape", [Pure]> {
  let summary = "Reinterprets a tensor with a new shape of the same size";
  let description = [{
    The result type carries the new shape, whose dims may be expressions of
    the operand's (`[batch * seq, 4]`).

    ```mlir
    %y = mo.reshape %x : !mo.tensor<[batch, seq, 4], f32>
        -> !mo.tensor<[batch * seq, 4], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$input);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Mo_TransposeOp : Mo_Op<"transpose", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Permutes the dims of a tensor";
  let description = [{
    Result dim `i` is operand dim `permutation[i]`.

    ```mlir
    %y = mo.transpose %x [1, 0] : !mo.tensor<[n, 4], f32> -> !mo.tensor<[4, n], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $input $permutation attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasFolder = 1;
}

def Mo_SliceOp : Mo_Op<"slice", [Pure]> {
  let summary = "A strided window of a tensor (basic slicing, `x[1:5:2]`)";
  let description = [{
    Result dim `i` holds `size[i]` elements of operand dim `i` from
    `starts[i]`, every `steps[i]`; `size` is the result's shape.

    ```mlir
    %y = mo.slice %x {starts = array<i64: 1, 0>, steps = array<i64: 2, 1>}
        : !mo.tensor<[8, n], f32> -> !mo.tensor<[3, n], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$steps);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Mo_BroadcastToOp : Mo_Op<"broadcast_to", [Pure,
    DeclareOpInterfaceMethods<Mo_ElementwiseOpInterface>]> {
  let summary = "Broadcasts a tensor to a shape (numpy rules)";
  let description = [{
    ```mlir
    %y = mo.broadcast_to %x : !mo.tensor<[], f32> -> !mo.tensor<[n, 2], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$input);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Mo_CastOp : Mo_Op<"cast", [Pure,
    DeclareOpInterfaceMethods<Mo_ElementwiseOpInterface>]> {
  let summary = "Converts elements to another element type";
  let description = [{
    Numeric conversion like numpy's `astype` (floats truncate toward zero
    when cast to integers; any non-zero value casts to true).

    ```mlir
    %y = mo.cast %x : !mo.tensor<[4], si32> -> !mo.tensor<[4], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$input);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Mo_ConcatOp : Mo_Op<"concat", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Joins tensors along an axis";
  let description = [{
    The inputs agree on every dim but `axis`; the result's `axis` dim is the
    sum of theirs (a dim expression when they are symbolic).

    ```mlir
    %z = mo.concat(%x, %y) {axis = 0 : i64} : (!mo.tensor<[n, 4], f32>,
        !mo.tensor<[2, 4], f32>) -> !mo.tensor<[n + 2, 4], f32>
    ```
  }];
  let arguments = (ins Variadic<Mo_AnyTensor>:$inputs, I64Attr:$axis);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, results)
  }];
}

def Mo_PadOp : Mo_Op<"pad", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Pads a tensor with a constant";
  let description = [{
    Dim `i` grows by `low[i]` elements before and `high[i]` after, filled with
    the 0-d `value` (of the input's element type).

    ```mlir
    %y = mo.pad %x, %zero {high = array<i64: 1, 0>, low = array<i64: 1, 2>}
        : (!mo.tensor<[n, 4], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[n + 2, 6], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$input, Mo_AnyTensor:$value,
                       DenseI64ArrayAttr:$low, DenseI64ArrayAttr:$high);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $input `,` $value attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

def Mo_AnyBuffer : Type<CPred<"::llvm::isa<::mlir::mo::BufferType>($_self)">,
                        "mo buffer", "::mlir::mo::BufferType">;

def Mo_PrintOp : Mo_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "Prints a tensor (or just its label) to stdout when the graph runs";
  let description = [{
    The output is `label: ` followed by the elements, numpy-style (nested
    brackets, one row per line), and is flushed at once, so it interleaves
    correctly with the caller's output.

    ```mlir
    mo.print %x {label = "logits"} : !mo.tensor<[2, 3], f32>
    mo.print {label = "reached the loop"}
    ```
  }];
  let arguments = (ins Optional<Mo_AnyTensor>:$value, StrAttr:$label);
  let assemblyFormat = "($value^)? attr-dict (`:` qualified(type($value))^)?";
}

def Mo_BufferCreateOp : Mo_Op<"buffer.create", [MemoryEffects<[MemAlloc]>]> {
  let summary = "A new buffer, local to the graph (contents undefined until stored)";
  let description = [{
    ```mlir
    %b = mo.buffer.create : !mo.buffer<[n, 4], f32>
    ```
  }];
  let results = (outs Mo_AnyBuffer:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Mo_MutableLoadOp : Mo_Op<"mutable.load", [
    MemoryEffects<[MemRead]>, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Reads the current contents of a buffer as a tensor";
  let description = [{
    ```mlir
    %t = mo.mutable.load %buf : !mo.buffer<[4], f32> -> !mo.tensor<[4], f32>
    ```
  }];
  let arguments = (ins Mo_AnyBuffer:$buffer);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $buffer attr-dict `:` qualified(type($buffer)) `->` qualified(type($result))
  }];
}

def Mo_MutableStoreOp : Mo_Op<"mutable.store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Writes a tensor into (a strided window of) a buffer";
  let description = [{
    Without `starts`, the value fills the whole buffer (same shape). With
    `starts` and `steps` (one per dim), it fills the window
    `buffer[starts[i] : starts[i] + steps[i] * size[i] : steps[i]]` where
    `size` is the value's shape — `x[2:4] = v` in Python.

    ```mlir
    mo.mutable.store %v, %buf : !mo.tensor<[4], f32>, !mo.buffer<[4], f32>
    mo.mutable.store %w, %buf {starts = array<i64: 2>, steps = array<i64: 1>}
        : !mo.tensor<[2], f32>, !mo.buffer<[4], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$value, Mo_AnyBuffer:$buffer,
                       OptionalAttr<DenseI64ArrayAttr>:$starts,
                       OptionalAttr<DenseI64ArrayAttr>:$steps);
  let assemblyFormat = [{
    $value `,` $buffer attr-dict `:`
    qualified(type($value)) `,` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Quantization (GGUF block formats)
//===----------------------------------------------------------------------===//

def Mo_QuantEncoding : I32EnumAttr<"QuantEncoding", "GGUF block encoding", [
    I32EnumAttrCase<"Q4_0", 0, "q4_0">,
    I32EnumAttrCase<"Q4_K", 1, "q4_k">,
    I32EnumAttrCase<"Q5_K", 2, "q5_k">,
    I32EnumAttrCase<"Q6_K", 3, "q6_k">]> {
  let cppNamespace = "::mlir::mo";
  let genSpecializedAttr = 0;
}
def Mo_QuantEncodingAttr : EnumAttr<Mo_Dialect, Mo_QuantEncoding, "encoding">;

def Mo_DequantizeOp : Mo_Op<"dequantize", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Expands GGUF-quantized rows to float32";
  let description = [{
    Each row of `input` (uint8, `[..., bytes]`) holds whole blocks of the
    encoding (Q4_0: 32 values in 18 bytes; Q4_K: 256 in 144; Q5_K: 256 in
    176; Q6_K: 256 in 210), bit for bit as ggml lays them out.

    ```mlir
    %w = mo.dequantize q4_0 %q : !mo.tensor<[4, 18], ui8> -> !mo.tensor<[4, 32], f32>
    ```
  }];
  let arguments = (ins Mo_QuantEncodingAttr:$encoding, Mo_AnyTensor:$input);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $encoding $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
}

def Mo_QMatmulOp : Mo_Op<"qmatmul", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "lhs @ dequantize(rhs).T without materializing the weights";
  let description = [{
    `lhs` is float32 `[..., M, K]`; `rhs` holds the quantized weight stored
    transposed, uint8 `[N, K / elements_per_block * block_bytes]`. The result
    is `[..., M, N]`. Lowerings dequantize inside the matmul's inner loop.

    ```mlir
    %y = mo.qmatmul q4_k(%x, %w) : (!mo.tensor<[batch, 256], f32>,
        !mo.tensor<[4096, 144], ui8>) -> !mo.tensor<[batch, 4096], f32>
    ```
  }];
  let arguments = (ins Mo_QuantEncodingAttr:$encoding, Mo_AnyTensor:$lhs,
                       Mo_AnyTensor:$rhs);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $encoding `(` $lhs `,` $rhs `)` attr-dict `:` functional-type(operands, results)
  }];
}

include "Mo/MoElementwise.td"
include "Mo/MoReduce.td"
include "Mo/MoConv.td"
include "Mo/MoIndex.td"
include "Mo/MoShape.td"
include "Mo/MoRandom.td"
include "Mo/MoControl.td"
include "Mo/MoCustom.td"

#endif // MO_OPS_TD
