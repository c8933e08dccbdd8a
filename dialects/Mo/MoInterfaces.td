//===- MoInterfaces.td - mo op interfaces ------------------*- tablegen -*-===//

#ifndef MO_INTERFACES_TD
#define MO_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Mo_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let cppNamespace = "::mlir::mo";
  let description = [{
    An op whose result element at an index is a function of its operands'
    elements at that index, operands broadcast numpy-style to the result's
    shape (aligned right, static size-1 dims stretched). Lowerings build one
    loop nest over the result and ask the op for the scalar computation; the
    op families of the registry generate it from their scalar map.
  }];
  let methods = [
    InterfaceMethod<[{
        The scalar result from the operands' scalars `args` (builtin,
        signless types); `element` is the first operand's mo element type,
        which carries the signedness the builtin types lost.
      }],
      "::mlir::Value", "buildScalar",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
           "::mlir::ValueRange":$args, "::mlir::Type":$element)>,
  ];
}

def Mo_ReduceOpInterface : OpInterface<"ReduceOpInterface"> {
  let cppNamespace = "::mlir::mo";
  let description = [{
    An op that reduces its input along one axis, keeping the axis with size
    1 (MAX semantics). Lowerings build one reduction loop nest and ask the op
    for its identity, its combining step and its final step; an arg
    reduction (argmax, argmin) yields the si64 index of the first best
    element instead of the element.
  }];
  let methods = [
    InterfaceMethod<"The reduced axis.", "int64_t", "getReducedAxis">,
    InterfaceMethod<"Whether the result is the index of the best element.",
      "bool", "isArgReduction">,
    InterfaceMethod<[{
        Whether f16/bf16 accumulate in f32 (sums, means, products).
      }], "bool", "accumulatesWide">,
    InterfaceMethod<[{
        The identity of the combining step for builtin element `type`.
      }], "::mlir::Value", "buildIdentity",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
           "::mlir::Type":$type, "::mlir::Type":$element)>,
    InterfaceMethod<[{
        Combines accumulator `args[0]` with element `args[1]`; for an arg
        reduction, whether `args[1]` is better than `args[0]` (an i1).
      }], "::mlir::Value", "buildCombine",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
           "::mlir::ValueRange":$args, "::mlir::Type":$element)>,
    InterfaceMethod<"Whether buildFinal does more than return the accumulator.",
      "bool", "hasFinalStep">,
    InterfaceMethod<[{
        The result from the accumulator `args[0]` and the reduced axis' size
        `args[1]` (an index): the accumulator itself, or the mean.
      }], "::mlir::Value", "buildFinal",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
           "::mlir::ValueRange":$args)>,
  ];
}

def Mo_BindsDimOpInterface : OpInterface<"BindsDimOpInterface"> {
  let description = [{
    An op whose result's first dim is a symbolic dim it binds when it runs
    (a count that depends on the data: nonzero, non-maximum suppression).
    Later ops size that dim from the op's lowered result; an entry output
    that has it is allocated at `boundOf`'s upper bound.
  }];
  let cppNamespace = "::mlir::mo";
  let methods = [
    InterfaceMethod<"The dim this op binds.", "::mlir::StringAttr", "getBoundDim", (ins), [{}],
      [{
        return ::llvm::cast<::mlir::StringAttr>(
            ::llvm::cast<::mlir::mo::TensorType>($_op->getResult(0).getType()).getDims()[0]);
      }]>,
  ];
}

#endif // MO_INTERFACES_TD
