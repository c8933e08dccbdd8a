//===- MoAttrs.td - mo dialect attributes ------------------*- tablegen -*-===//
//
// Dims of `!mo.tensor`/`!mo.buffer` are attributes: an i64 IntegerAttr for a
// static size (ShapedType::kDynamic for `?`), a StringAttr for a symbolic
// dim, or a `DimExprAttr` for an algebraic expression of those.
//
//===----------------------------------------------------------------------===//

#ifndef MO_ATTRS_TD
#define MO_ATTRS_TD

include "Mo/MoBase.td"
include "mlir/IR/EnumAttr.td"

class Mo_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Mo_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Mo_DimExprKind : I32EnumAttr<"DimExprKind", "dim expression operator", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Sub", 1, "sub">,
    I32EnumAttrCase<"Mul", 2, "mul">,
    I32EnumAttrCase<"FloorDiv", 3, "floordiv">,
    I32EnumAttrCase<"Mod", 4, "mod">]> {
  let cppNamespace = "::mlir::mo";
  let genSpecializedAttr = 0;
}

def Mo_DimExprAttr : Mo_Attr<"DimExpr", "dim_expr"> {
  let summary = "A binary algebraic expression of tensor dims";
  let description = [{
    `lhs <op> rhs` where each side is a dim (static, symbolic or another
    expression). Inside a tensor type it prints infix:
    `!mo.tensor<[batch * seq, 4], f32>`. Build it with `mo::getDimExpr`,
    which folds constants and identities.
  }];
  let parameters = (ins "DimExprKind":$kind, "::mlir::Attribute":$lhs,
                        "::mlir::Attribute":$rhs);
  let assemblyFormat = "`<` $kind `,` $lhs `,` $rhs `>`";
  let genVerifyDecl = 1;
}

def Mo_DeviceAttr : Mo_Attr<"Device", "device"> {
  let summary = "A device a tensor lives on: `cpu:0`, `gpu:1`";
  let parameters = (ins StringRefParameter<"device kind">:$kind,
                        "int64_t":$id);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // MO_ATTRS_TD
