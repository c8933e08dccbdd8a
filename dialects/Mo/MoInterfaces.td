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

#endif // MO_INTERFACES_TD
