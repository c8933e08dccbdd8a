//===- MoCustom.td - user kernels -------------------------*- tablegen -*-===//
//
// An op whose body is a user's kernel, found by name among the compile's
// custom extensions: an MLIR function (func.func on builtin tensors or
// memrefs) or a C symbol in a shared library. Parameters (integers,
// floats, bools) become trailing scalar arguments, in name order.
//
//===----------------------------------------------------------------------===//

#ifndef MO_CUSTOM_TD
#define MO_CUSTOM_TD

include "Mo/MoElementwise.td"

class Mo_CustomBase<string mnemonic, list<Trait> traits> : Mo_Op<mnemonic, traits> {
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$symbol,
                       DefaultValuedAttr<DictionaryAttr, "{}">:$parameters);
  let assemblyFormat = [{
    $symbol `(` $inputs `)` attr-dict `:` functional-type($inputs, results)
  }];
  let hasVerifier = 1;
}

def Mo_CustomOp : Mo_CustomBase<"custom", [Pure]> {
  let summary = "Calls a user kernel on tensors, producing new tensors";
  let description = [{
    An MLIR kernel is called with the tensors and returns the results; a C
    kernel gets each input, then a buffer for each result, as `(int64_t rank,
    descriptor *)` pairs (MLIR's unranked memref: allocated and aligned
    pointers, offset, sizes, strides), then the parameters.

    ```mlir
    %y = mo.custom "scale_add"(%x, %b) {parameters = {alpha = 2.0 : f64}}
        : (!mo.tensor<[n], f32>, !mo.tensor<[n], f32>) -> !mo.tensor<[n], f32>
    ```
  }];
  let results = (outs Variadic<Mo_AnyTensor>:$results);
}

def Mo_InplaceCustomOp : Mo_CustomBase<"inplace_custom", [MemoryEffects<[MemWrite]>]> {
  let summary = "Calls a user kernel that writes into buffers";
  let description = [{
    Like mo.custom, but the kernel may write through its buffer operands;
    it produces no tensors.

    ```mlir
    mo.inplace_custom "fill_iota"(%buf) : (!mo.buffer<[8], si64>) -> ()
    ```
  }];
  let results = (outs);
}

#endif // MO_CUSTOM_TD
