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
    As `transform.structured.fuse_into_containing_op`: each producer is
    tiled at each slice the containing loop (`scf.forall` or `scf.for`)
    takes of its results, directly or through the loop's outputs (a fill of
    the accumulator), and cloned before a use inside the loop that is not a
    slice. Upstream's op builds a diagnostic for every producer, printing the
    producer and the whole loop after verifying both: over half of the
    schedules' compile time in a transformer block. This op does the fusion
    with upstream's `scf::tileAndFuseProducerOfSlice` and builds no message
    unless it fails.

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

#endif // MO_TRANSFORM_OPS
