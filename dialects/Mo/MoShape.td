//===- MoShape.td - ops on shapes: ranges, sizes, rebinds --*- tablegen -*-===//
//
// Ops whose results are made from dims: the values of a range sized by its
// result type, the sizes of dims as a tensor, and a checked change of the
// dims a tensor is known by.
//
//===----------------------------------------------------------------------===//

#ifndef MO_SHAPE_TD
#define MO_SHAPE_TD

include "Mo/MoElementwise.td"

def Mo_RangeOp : Mo_Op<"range", [Pure]> {
  let summary = "start, start + step, ...: as many values as the result holds";
  let description = [{
    Element `i` is `start + i * step` (numpy's `arange`, float steps
    multiplied, not accumulated); the result's one dim (static, symbolic or
    an expression) is the count, so a symbolic length is sized at run time.

    ```mlir
    %r = mo.range(%zero, %one) : (!mo.tensor<[], si64>, !mo.tensor<[], si64>)
        -> !mo.tensor<[n], si64>
    ```
  }];
  let arguments = (ins Mo_OperandOfKinds<Mo_Numeric>.T:$start,
                       Mo_OperandOfKinds<Mo_Numeric>.T:$step);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $start `,` $step `)` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mo_ShapeToTensorOp : Mo_Op<"shape_to_tensor", [Pure]> {
  let summary = "The sizes of a list of dims, as a rank-1 si64 tensor";
  let description = [{
    Symbolic dims and expressions are their run-time sizes.

    ```mlir
    %s = mo.shape_to_tensor [batch, 4, batch * seq] : !mo.tensor<[3], si64>
    ```
  }];
  let arguments = (ins ArrayAttr:$dims);
  let results = (outs Mo_AnyTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Mo_RebindOp : Mo_Op<"rebind", [Pure]> {
  let summary = "Asserts that a tensor has the result's shape (checked at run time)";
  let description = [{
    The result is the input with its dims renamed to the result's: dims
    that are not the same attribute are compared when the entry starts, and
    a mismatch fails the call with `message`. A rebind to the input's own
    type folds away.

    ```mlir
    %y = mo.rebind %x {message = "rows"} : !mo.tensor<[a + b, 4], f32> -> !mo.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$input, DefaultValuedStrAttr<StrAttr, "">:$message);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // MO_SHAPE_TD
