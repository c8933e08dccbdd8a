//===- MoIndex.td - gathers, scatters and top-k -------------*- tablegen -*-===//
//
// Indices are integer tensors of any width and signedness. A negative index
// counts from the end (numpy, MAX). What is still out of range after that
// is defined, never an out-of-bounds access: a gather clamps it to the
// nearest valid index (JAX's default) and a scatter drops that update (as
// JAX's scatters do).
//
//===----------------------------------------------------------------------===//

#ifndef MO_INDEX_TD
#define MO_INDEX_TD

include "Mo/MoElementwise.td"

defvar Mo_IndexTensor = Mo_OperandOfKinds<["signed", "unsigned"]>.T;

def Mo_GatherOp : Mo_Op<"gather", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Takes slices of a tensor at indices along an axis (numpy's take)";
  let description = [{
    `result[a..., i..., b...] = input[a..., indices[i...], b...]` with `a`
    the dims before `axis`: the result is `input.shape[:axis] +
    indices.shape + input.shape[axis + 1:]`.

    ```mlir
    %y = mo.gather(%table, %ids) {axis = 0 : i64} : (!mo.tensor<[vocab, 64], f32>,
        !mo.tensor<[batch, seq], si64>) -> !mo.tensor<[batch, seq, 64], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$input, Mo_IndexTensor:$indices, I64Attr:$axis);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $input `,` $indices `)` attr-dict `:` functional-type(operands, results)
  }];
}

def Mo_GatherNdOp : Mo_Op<"gather_nd", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Takes slices of a tensor at N-dimensional indices (TF's gather_nd)";
  let description = [{
    `indices` is `[B..., I..., K]` (static `K`): each of its `K`-vectors
    indexes the `K` dims of `input` after its `batch_dims` leading ones
    (`B...`, shared with `indices`). The result is `B... + I... +
    input.shape[batch_dims + K:]`.

    ```mlir
    %y = mo.gather_nd(%x, %i) {batch_dims = 0 : i64} : (!mo.tensor<[4, 5, 6], f32>,
        !mo.tensor<[3, 2], si64>) -> !mo.tensor<[3, 6], f32>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$input, Mo_IndexTensor:$indices,
                       I64Attr:$batch_dims);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $input `,` $indices `)` attr-dict `:` functional-type(operands, results)
  }];
}

def Mo_ScatterReduction : I32EnumAttr<"ScatterReduction",
    "how a scatter combines an update with what is there", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Add", 1, "add">,
    I32EnumAttrCase<"Mul", 2, "mul">,
    I32EnumAttrCase<"Max", 3, "max">,
    I32EnumAttrCase<"Min", 4, "min">]> {
  let cppNamespace = "::mlir::mo";
  let genSpecializedAttr = 0;
}
def Mo_ScatterReductionAttr : EnumAttr<Mo_Dialect, Mo_ScatterReduction, "reduction">;

def Mo_ScatterOp : Mo_Op<"scatter", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Writes updates into a copy of a tensor at indices along an axis";
  let description = [{
    ONNX ScatterElements: `indices` has the shape of `updates` (rank of
    `input`, no dim larger than `input`'s); update `u` at position `p` goes
    to `p` with dim `axis` replaced by `indices[p]`, combined with what is
    there by `reduction` (`none` replaces; with repeated indices the last
    update wins). Updates are applied in row-major order.

    ```mlir
    %y = mo.scatter add(%x, %u, %i) {axis = 1 : i64} : (!mo.tensor<[2, 5], f32>,
        !mo.tensor<[2, 3], f32>, !mo.tensor<[2, 3], si64>) -> !mo.tensor<[2, 5], f32>
    ```
  }];
  let arguments = (ins Mo_ScatterReductionAttr:$reduction, Mo_AnyTensor:$input,
                       Mo_AnyTensor:$updates, Mo_IndexTensor:$indices, I64Attr:$axis);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $reduction `(` $input `,` $updates `,` $indices `)` attr-dict `:`
    functional-type(operands, results)
  }];
}

def Mo_ScatterNdOp : Mo_Op<"scatter_nd", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Writes slices into a copy of a tensor at N-dimensional indices";
  let description = [{
    ONNX ScatterND: `indices` is `[I..., K]` (static `K`), `updates` `I... +
    input.shape[K:]`; each `K`-vector names the slice of `input` its update
    slice combines into (`reduction` as for mo.scatter).

    ```mlir
    %y = mo.scatter_nd none(%x, %u, %i) : (!mo.tensor<[4, 3], f32>,
        !mo.tensor<[2, 3], f32>, !mo.tensor<[2, 1], si64>) -> !mo.tensor<[4, 3], f32>
    ```
  }];
  let arguments = (ins Mo_ScatterReductionAttr:$reduction, Mo_AnyTensor:$input,
                       Mo_AnyTensor:$updates, Mo_IndexTensor:$indices);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $reduction `(` $input `,` $updates `,` $indices `)` attr-dict `:`
    functional-type(operands, results)
  }];
}

def Mo_TopKOp : Mo_Op<"top_k", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "The k largest (or smallest) elements of the last dim, in order";
  let description = [{
    Values and their `si64` indices along the last dim, best first: the
    largest with `largest`, else the smallest. Ties keep index order (a
    stable sort); NaN counts as larger than every number, as in torch. `k`
    is at most the last dim's (static) size.

    ```mlir
    %v, %i = mo.top_k(%x) {k = 2 : i64, largest = true} : (!mo.tensor<[n, 8], f32>)
        -> (!mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], si64>)
    ```
  }];
  let arguments = (ins Mo_OperandOfKinds<Mo_Numeric>.T:$input, I64Attr:$k,
                       BoolAttr:$largest);
  let results = (outs Mo_AnyTensor:$values, Mo_AnyTensor:$indices);
  let assemblyFormat = [{
    `(` $input `)` attr-dict `:` functional-type(operands, results)
  }];
}

def Mo_RoiAlignOp : Mo_Op<"roi_align", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Bilinearly sampled bins of regions of an NHWC image (ROI Align)";
  let description = [{
    `rois` is `[M, 5]`: a batch index and the corners `(x0, y0, x1, y1)` in
    input coordinates times `spatial_scale`. Each of the `output_height x
    output_width` bins of a region averages (`mode = "avg"`) or takes the
    maximum (`"max"`) of bilinear samples on a `sampling_ratio` grid (0: as
    many as the bin spans, rounded up); `aligned` shifts by half a pixel
    (torchvision's semantics). Samples outside the image are 0; a batch
    index out of range is clamped. The result is `[M, output_height,
    output_width, C]`.

    ```mlir
    %y = mo.roi_align(%x, %r) {aligned = false, mode = "avg", output_height = 7 : i64,
        output_width = 7 : i64, sampling_ratio = 2 : i64, spatial_scale = 0.25 : f64}
        : (!mo.tensor<[2, 32, 32, 8], f32>, !mo.tensor<[m, 5], f32>)
        -> !mo.tensor<[m, 7, 7, 8], f32>
    ```
  }];
  let arguments = (ins Mo_TensorOfKinds<["float"]>:$input,
                       Mo_TensorOfKinds<["float"]>:$rois, I64Attr:$output_height,
                       I64Attr:$output_width, F64Attr:$spatial_scale,
                       I64Attr:$sampling_ratio, BoolAttr:$aligned, StrAttr:$mode);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` $input `,` $rois `)` attr-dict `:` functional-type(operands, results)
  }];
}

def Mo_NonzeroOp : Mo_Op<"nonzero", [Pure, Mo_BindsDimOpInterface]> {
  let summary = "The coordinates of the non-zero elements, in row-major order";
  let description = [{
    The result is `[k, rank]` si64, where `k` is a symbolic dim this op
    binds: its size is the number of non-zero (true) elements, known when
    the op has run. Ops after it size `k` from the result; an entry output
    with `k` is allocated by the caller at an upper bound (the input's
    element count) and the entry reports `k` (numpy's `argwhere`).

    ```mlir
    %i = mo.nonzero %x : !mo.tensor<[n, 4], f32> -> !mo.tensor<[k, 2], si64>
    ```
  }];
  let arguments = (ins Mo_AnyTensor:$input);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Mo_NonMaxSuppressionOp : Mo_Op<"non_maximum_suppression", [Pure,
    Mo_BindsDimOpInterface]> {
  let summary = "Greedy non-maximum suppression per batch and class (ONNX's)";
  let description = [{
    `boxes` is `[B, N, 4]` (corners `(y1, x1, y2, x2)`, either diagonal),
    `scores` `[B, C, N]`. Per batch and class, boxes with a score above
    `score_threshold` are taken best first (ties by index) unless their
    IoU with one already taken exceeds `iou_threshold`, at most
    `max_output_boxes_per_class` of them (0-d si64; the thresholds 0-d
    floats). The result `[k, 3]` si64 lists `(batch, class, box)`; `k`, the
    number selected, is a symbolic dim the op binds.

    ```mlir
    %s = mo.non_maximum_suppression(%b, %sc, %max, %iou, %thr)
        : (!mo.tensor<[1, 6, 4], f32>, !mo.tensor<[1, 2, 6], f32>, !mo.tensor<[], si64>,
           !mo.tensor<[], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[k, 3], si64>
    ```
  }];
  let arguments = (ins Mo_TensorOfKinds<["float"]>:$boxes,
                       Mo_TensorOfKinds<["float"]>:$scores,
                       Mo_TensorOfKinds<["signed"]>:$max_output_boxes_per_class,
                       Mo_TensorOfKinds<["float"]>:$iou_threshold,
                       Mo_TensorOfKinds<["float"]>:$score_threshold);
  let results = (outs Mo_AnyTensor:$result);
  let assemblyFormat = [{
    `(` operands `)` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // MO_INDEX_TD
