//===- MoConv.td - convolution and pooling -----------------*- tablegen -*-===//
//
// Channels-last windows over 1 to 3 spatial dims, as MAX lays them out:
// inputs are `[N, spatial..., C]` (NHWC, NDHWC), conv filters
// `[spatial..., C / groups, F]` (RSCF, QRSCF). `paddings` holds a (low, high)
// pair per spatial dim, MAX's `(top, bottom, left, right)` order. Result
// spatial dims are dim expressions of the input's, so symbolic sizes
// propagate:
//
//   out = (in + low + high - dilation * (kernel - 1) - 1) floordiv stride + 1
//
//===----------------------------------------------------------------------===//

#ifndef MO_CONV_TD
#define MO_CONV_TD

include "Mo/MoElementwise.td"

defvar Mo_WindowArgs = (ins DenseI64ArrayAttr:$strides,
                            DenseI64ArrayAttr:$dilations,
                            DenseI64ArrayAttr:$paddings);

def Mo_ConvOp : Mo_Op<"conv", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Grouped convolution, channels last (NHWC input, RSCF filter)";
  let description = [{
    `result[n, o..., f] = sum over r..., c of
    input[n, o * stride + r * dilation - low, ..., g * C/groups + c] *
    filter[r..., c, f]` with `g = f / (F / groups)` and zeros outside the
    input. `num_groups` divides both channel counts; depthwise convolution
    is `num_groups = C` with a `[spatial..., 1, C * multiplier]` filter.
    f16/bf16 accumulate in f32.

    ```mlir
    %y = mo.conv(%x, %w) {dilations = array<i64: 1, 1>, num_groups = 1 : i64,
        paddings = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
        : (!mo.tensor<[n, 56, 56, 64], f32>, !mo.tensor<[3, 3, 64, 64], f32>)
        -> !mo.tensor<[n, 56, 56, 64], f32>
    ```
  }];
  let arguments = !con(
      (ins Mo_OperandOfKinds<Mo_Numeric>.T:$input,
           Mo_OperandOfKinds<Mo_Numeric>.T:$filter),
      Mo_WindowArgs, (ins I64Attr:$num_groups));
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $input `,` $filter `)` attr-dict `:` functional-type(operands, results)
  }];
}

def Mo_ConvTransposeOp : Mo_Op<"conv_transpose", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Transposed convolution (the gradient of mo.conv), channels last";
  let description = [{
    The filter is `[spatial..., F, C]` (RSCF with F the output channels and C
    the input's, as MAX and TensorFlow lay it out) and its spatial dims are
    static. Each spatial dim of the result is
    `(in - 1) * stride - low - high + dilation * (kernel - 1) + output_padding + 1`,
    `output_padding < max(stride, dilation)`.

    ```mlir
    %y = mo.conv_transpose(%x, %w) {dilations = array<i64: 1, 1>,
        output_paddings = array<i64: 1, 1>, paddings = array<i64: 1, 1, 1, 1>,
        strides = array<i64: 2, 2>}
        : (!mo.tensor<[1, 8, 8, 16], f32>, !mo.tensor<[3, 3, 4, 16], f32>)
        -> !mo.tensor<[1, 16, 16, 4], f32>
    ```
  }];
  let arguments = !con(
      (ins Mo_OperandOfKinds<Mo_Numeric>.T:$input,
           Mo_OperandOfKinds<Mo_Numeric>.T:$filter),
      Mo_WindowArgs, (ins DenseI64ArrayAttr:$output_paddings));
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $input `,` $filter `)` attr-dict `:` functional-type(operands, results)
  }];
}

/// Pooling: one window (`filter_shape`) per spatial dim. With `ceil_mode`
/// the last partial window counts (when it starts inside the input or its
/// low padding, torch's rule); that needs static spatial dims.
class Mo_PoolOp<string mnemonic, string what, dag extra, string example>
    : Mo_Op<mnemonic, [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = what # " pooling, channels last (NHWC)";
  let description = example;
  let arguments = !con(
      (ins Mo_OperandOfKinds<Mo_FloatOnly>.T:$input,
           DenseI64ArrayAttr:$filter_shape),
      Mo_WindowArgs, (ins BoolAttr:$ceil_mode), extra);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $input `)` attr-dict `:` functional-type(operands, results)
  }];
}

def Mo_MaxPoolOp : Mo_PoolOp<"max_pool", "Max", (ins), [{
    The maximum of each window; padding never wins (NaN propagates).

    ```mlir
    %y = mo.max_pool(%x) {ceil_mode = false, dilations = array<i64: 1, 1>,
        filter_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>,
        strides = array<i64: 2, 2>}
        : (!mo.tensor<[1, 8, 8, 3], f32>) -> !mo.tensor<[1, 4, 4, 3], f32>
    ```
  }]>;

def Mo_AvgPoolOp : Mo_PoolOp<"avg_pool", "Average", (ins BoolAttr:$count_boundary), [{
    The mean of each window. With `count_boundary` (torch's
    `count_include_pad`) the padding counts in the divisor; without it only
    the input's elements do. f16/bf16 sum in f32.

    ```mlir
    %y = mo.avg_pool(%x) {ceil_mode = false, count_boundary = true,
        dilations = array<i64: 1, 1>, filter_shape = array<i64: 3, 3>,
        paddings = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
        : (!mo.tensor<[1, 8, 8, 3], f32>) -> !mo.tensor<[1, 8, 8, 3], f32>
    ```
  }]>;

#endif // MO_CONV_TD
