//===- MoBase.td - mo dialect definition -------------------*- tablegen -*-===//
//
// The `mo` dialect: tensor graphs traced from Python. Values are immutable
// `!mo.tensor`s whose dims may be static, symbolic (named) or unknown;
// `mo.graph` is a function-like symbol and `mo.call` shares subgraphs.
//
//===----------------------------------------------------------------------===//

#ifndef MO_BASE_TD
#define MO_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Mo_Dialect : Dialect {
  let name = "mo";
  let cppNamespace = "::mlir::mo";
  let summary = "Tensor graphs with symbolic shapes, traced from Python.";
  let description = [{
    The `mo` dialect is the contract between mo's Python tracer and its
    lowering pipelines. A program is a module of `mo.graph` symbols; the
    public graph is the entry point and private graphs are subgraphs shared
    through `mo.call`. Tensor types carry symbolic dimensions declared on the
    enclosing graph (`mo.graph @f<batch>(...)`).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class Mo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mo_Dialect, mnemonic, traits>;

#endif // MO_BASE_TD
