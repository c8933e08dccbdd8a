//===- MoRandom.td - counter-based random numbers ----------*- tablegen -*-===//
//
// Random tensors are a pure function of (seed, counter, element index): a
// 64-bit hash (SplitMix64 rounds) per element, so they are the same on any
// thread count, in any order, compiled or eager, and two ops of one graph
// differ by their counter.
//
//===----------------------------------------------------------------------===//

#ifndef MO_RANDOM_TD
#define MO_RANDOM_TD

include "Mo/MoElementwise.td"

def Mo_RandomDistribution : I32EnumAttr<"RandomDistribution",
    "the distribution of mo.random", [
    I32EnumAttrCase<"Uniform", 0, "uniform">,
    I32EnumAttrCase<"Normal", 1, "normal">]> {
  let cppNamespace = "::mlir::mo";
  let genSpecializedAttr = 0;
}
def Mo_RandomDistributionAttr : EnumAttr<Mo_Dialect, Mo_RandomDistribution, "distribution">;

def Mo_RandomOp : Mo_Op<"random", [Pure]> {
  let summary = "A tensor of random floats: uniform in [0, 1) or standard normal";
  let description = [{
    `seed` and `counter` are 0-d si64 tensors. A uniform element keeps as
    many high bits of its hash as the float type has significand bits (so it
    is below 1 exactly); a normal element is Box-Muller over two uniforms
    (computed in f32 for f16/bf16, rounded once).

    ```mlir
    %r = mo.random normal(%seed, %counter) : (!mo.tensor<[], si64>,
        !mo.tensor<[], si64>) -> !mo.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins Mo_RandomDistributionAttr:$distribution,
                       Mo_TensorOfKinds<["signed"]>:$seed,
                       Mo_TensorOfKinds<["signed"]>:$counter);
  let results = (outs Mo_TensorOfKinds<["float"]>:$result);
  let assemblyFormat = [{
    $distribution `(` $seed `,` $counter `)` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // MO_RANDOM_TD
