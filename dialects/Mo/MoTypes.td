//===- MoTypes.td - mo dialect types -----------------------*- tablegen -*-===//

#ifndef MO_TYPES_TD
#define MO_TYPES_TD

include "Mo/MoAttrs.td"

class Mo_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Mo_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// `!mo.tensor` and `!mo.buffer` share parameters, syntax and verification;
// they differ only in mutability.
class Mo_ShapedTypeBase<string name, string typeMnemonic, string kindDoc>
    : Mo_Type<name, typeMnemonic> {
  let summary = kindDoc;
  let parameters = (ins
    ArrayRefParameter<"::mlir::Attribute", "dims">:$dims,
    "::mlir::Type":$elementType,
    OptionalParameter<"::mlir::mo::DeviceAttr">:$device);
  let builders = [
    TypeBuilder<(ins "::llvm::ArrayRef<::mlir::Attribute>":$dims,
                     "::mlir::Type":$elementType), [{
      return $_get($_ctxt, dims, elementType, DeviceAttr());
    }]>];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of dims.
    int64_t getRank() const { return getDims().size(); }
    /// Sizes with ShapedType::kDynamic for every non-static dim.
    ::llvm::SmallVector<int64_t> getStaticShape() const {
      return ::mlir::mo::getStaticShape(getDims());
    }
    /// True if every dim is a static integer.
    bool hasStaticShape() const {
      return ::llvm::all_of(getDims(), ::mlir::mo::isStaticDim);
    }
    /// The builtin tensor type with the same static shape and element type.
    ::mlir::RankedTensorType toBuiltinTensor() const {
      return ::mlir::RankedTensorType::get(getStaticShape(), getElementType());
    }
  }];
}

def Mo_TensorType : Mo_ShapedTypeBase<"Tensor", "tensor",
    "An immutable tensor value with static, symbolic or unknown dims"> {
  let description = [{
    `!mo.tensor<[batch, 2], f32>` or, placed on a device,
    `!mo.tensor<[4], f16, gpu:0>`. Dims are integers, symbolic names (same name
    = same size within a graph), `?` (unknown) or expressions such as
    `batch * seq`.
  }];
}

def Mo_BufferType : Mo_ShapedTypeBase<"Buffer", "buffer",
    "A mutable buffer (writes reach the caller's memory)"> {
  let description = [{
    `!mo.buffer<[4], f32>`: the type of a graph argument the graph may write
    through (`mo.mutable.store`). Same dims and devices as `!mo.tensor`.
  }];
}

def Mo_ChainType : Mo_Type<"Chain", "chain"> {
  let summary = "Orders side effects";
  let description = [{
    `!mo.chain` threads side-effecting ops (buffer writes, prints) so that
    their order survives optimization.
  }];
}

def Mo_AnyTensor : Type<CPred<"::llvm::isa<::mlir::mo::TensorType>($_self)">,
                        "mo tensor", "::mlir::mo::TensorType">;

#endif // MO_TYPES_TD
