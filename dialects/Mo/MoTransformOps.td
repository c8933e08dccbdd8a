//===- MoTransformOps.td - mo's transform dialect ops ------*- tablegen -*-===//
//
// Transform ops of mo's schedule library (cpp/lib/Transforms/Schedules.mlir)
// that upstream's do not provide as needed.
//
//===----------------------------------------------------------------------===//

#ifndef MO_TRANSFORM_OPS
#define MO_TRANSFORM_OPS

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def MoFuseIntoContainingOp : Op<Transform_Dialect, "mo.fuse_into_containing_op",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Fuses producers into the loop that uses them";
  let description = [{
    As `transform.structured.fuse_into_containing_op`, and to the same IR:
    each producer is tiled at each slice the containing loop (`scf.forall`
    or `scf.for`) takes of its results, its destinations that are the loop's
    outputs replaced by the loop's region arguments (the tile written into
    the output); tiled through the loop's outputs where it initializes them
    (a fill of the accumulator, by `scf::tileAndFuseProducerOfSlice`); and
    cloned before a use inside the loop that is not a slice.

    Upstream's op builds a diagnostic for every producer, printing the
    producer and the whole loop after verifying both: over half of the
    schedules' compile time in a transformer block. This op builds no
    message unless it fails.

    Returns the tiled (or cloned) producers and the containing loop.
  }];
  let arguments = (ins TransformHandleTypeInterface:$producer_op,
                       TransformHandleTypeInterface:$containing_op);
  let results = (outs TransformHandleTypeInterface:$fused_op,
                      TransformHandleTypeInterface:$new_containing_op);
  let assemblyFormat = [{
    $producer_op `into` $containing_op attr-dict `:` functional-type(operands, results)
  }];
  let cppNamespace = "::mlir::mo";
}

def MoDropPaddedRowsOp : Op<Transform_Dialect, "mo.drop_padded_rows",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Drops the rows a register tile's padding adds";
  let description = [{
    `pads` pad their sources up to a register tile, for a product whose
    rows past the source are never written back: what the padded rows hold
    does not matter, so they are not built.

    * A pad of a `linalg.fill` or of a slice of one (the accumulator's
      init) becomes a fill of the padded shape.
    * Every other pad must pad only rows (dim 0, at the end) and be read only by `vector.transfer_read`s (of it or
      of a unit-stride slice of it; in bounds, unmasked, the rows as the
      vector's first dim): each
      read becomes one read per row of the source, row `i` clamped to the
      source's last row. So a partial tile reads its rows in place: no copy
      into a zero-padded tile, and the same code as a full one.

    The sources must have a row (a thread tile's); rows past the source read
    the last one, so the padded rows' results are finite but meaningless.

    Consumes `pads`; returns the new fills (to vectorize).
  }];
  let arguments = (ins TransformHandleTypeInterface:$pads);
  let results = (outs TransformHandleTypeInterface:$fills);
  let assemblyFormat = "$pads attr-dict `:` functional-type(operands, results)";
  let cppNamespace = "::mlir::mo";
}

#endif // MO_TRANSFORM_OPS
