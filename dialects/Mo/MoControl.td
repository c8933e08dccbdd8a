//===- MoControl.td - conditionals and loops ---------------*- tablegen -*-===//
//
// Regions over tensors, lowered to scf: mo.if chooses one of two regions by
// a 0-d bool; mo.while repeats its body while its condition region yields
// true. Both end their regions with mo.yield.
//
//===----------------------------------------------------------------------===//

#ifndef MO_CONTROL_TD
#define MO_CONTROL_TD

include "Mo/MoElementwise.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def Mo_IfOp : Mo_Op<"if", [RecursiveMemoryEffects, NoRegionArguments,
    SingleBlock]> {
  let summary = "Runs one of two regions, chosen by a 0-d bool tensor";
  let description = [{
    Each region ends in a mo.yield of values whose types are the results'.

    ```mlir
    %r = mo.if %p -> (!mo.tensor<[n], f32>) {
      mo.yield %a : !mo.tensor<[n], f32>
    } else {
      mo.yield %b : !mo.tensor<[n], f32>
    }
    ```
  }];
  let arguments = (ins Mo_TensorOfKinds<["bool"]>:$condition);
  let results = (outs Variadic<Mo_AnyTensor>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $condition `:` qualified(type($condition)) (`->` `(` type($results)^ `)`)?
    $thenRegion `else` $elseRegion attr-dict
  }];
  let hasVerifier = 1;
}

def Mo_WhileOp : Mo_Op<"while", [RecursiveMemoryEffects]> {
  let summary = "Repeats a body while a condition holds, carrying tensors";
  let description = [{
    Both regions take the carried values as block arguments (the operands
    first, then each body's yield). The condition region yields one 0-d
    bool; the body yields the next values, of the operands' types. The
    results are the values when the condition first yields false.

    ```mlir
    %r = mo.while (%i = %zero) : (!mo.tensor<[], si64>) -> !mo.tensor<[], si64> {
      %p = mo.less(%i, %ten) : ... -> !mo.tensor<[], i1>
      mo.yield %p : !mo.tensor<[], i1>
    } do {
      %j = mo.add(%i, %one) : ...
      mo.yield %j : !mo.tensor<[], si64>
    }
    ```
  }];
  let arguments = (ins Variadic<Mo_AnyTensor>:$inits);
  let results = (outs Variadic<Mo_AnyTensor>:$results);
  let regions = (region SizedRegion<1>:$condRegion, SizedRegion<1>:$bodyRegion);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Mo_YieldOp : Mo_Op<"yield", [Pure, ReturnLike, Terminator,
    ParentOneOf<["IfOp", "WhileOp"]>]> {
  let summary = "Ends a region of mo.if or mo.while with its values";
  let description = [{
    ```mlir
    mo.yield %x : !mo.tensor<[4], f32>
    ```
  }];
  let arguments = (ins Variadic<Mo_AnyTensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // MO_CONTROL_TD
