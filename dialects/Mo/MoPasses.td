//===- MoPasses.td - mo passes -----------------------------*- tablegen -*-===//

#ifndef MO_PASSES_TD
#define MO_PASSES_TD

include "mlir/Pass/PassBase.td"

def MoLowerToLinalg : Pass<"mo-lower-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers mo graphs to func/linalg/tensor/arith/math";
  let description = [{
    Every `mo.graph` becomes a `func.func` and every `mo.call` a `func.call`
    (subgraphs stay shared functions). `!mo.tensor` becomes a builtin tensor
    (symbolic and `?` dims dynamic, signed/unsigned integers signless) and
    `!mo.buffer` a memref. Weights (`mo.constant.external`) become function
    arguments: a subgraph takes the weights its body reads, and each call
    passes the ones its prefix names. The public graph is the entry point:
    its weights follow its inputs (`{mo.weight = "name", mo.type = ...}`, the
    name and mo type a runtime binds and checks), and its results
    are written into trailing out-parameter memrefs (`{mo.output = i}`) so the
    caller owns all memory.

    Before:
    ```mlir
    mo.graph @f<n>(%x: !mo.tensor<[n], f32>) -> !mo.tensor<[n], f32> {
      %w = mo.constant.external "w" : !mo.tensor<[n], f32>
      %y = mo.mul(%x, %w) : (!mo.tensor<[n], f32>, !mo.tensor<[n], f32>)
          -> !mo.tensor<[n], f32>
      mo.output %y : !mo.tensor<[n], f32>
    }
    ```
    After:
    ```mlir
    func.func @f(%x: tensor<?xf32>, %w: tensor<?xf32> {mo.weight = "w"},
                 %out: memref<?xf32> {mo.output = 0 : i64})
        attributes {llvm.emit_c_interface, mo.entry} {
      %y = linalg.generic ... arith.mulf ...
      bufferization.materialize_in_destination %y in restrict writable %out
      return
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"];
}

def MoWidenBoolMemrefs : Pass<"mo-widen-bool-memrefs", "::mlir::ModuleOp"> {
  let summary = "Stores booleans as bytes: memref<...xi1> becomes memref<...xi8>";
  let description = [{
    The memref-to-LLVM lowering of LLVM 22 rejects sub-byte element types, and
    both bool tensors and the deallocation helper that
    `bufferization-lower-deallocations` emits use `memref<?xi1>`. This pass
    gives every i1 memref byte storage (numpy's bool layout): loads truncate
    to i1, stores zero-extend, and every other op, function signature and
    call just changes type.

    ```mlir
    memref.store %b, %m[%i] : memref<?xi1>
    ```
    becomes
    ```mlir
    %e = arith.extui %b : i1 to i8
    memref.store %e, %m[%i] : memref<?xi8>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // MO_PASSES_TD
