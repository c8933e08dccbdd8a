//===- MoToLinalg.h - mo to linalg/tensor/arith conversion ------*- C++ -*-===//
//
// The mo lowering as upstream dialect conversion: a type converter, and one
// `populate...Patterns` per op family, so that a pipeline (or another
// project) can lower all of mo, or only part of it, with its own target.
//
//===----------------------------------------------------------------------===//

#ifndef MO_CONVERSION_MOTOLINALG_H
#define MO_CONVERSION_MOTOLINALG_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mo {

/// `!mo.tensor` -> builtin tensor (symbolic and `?` dims dynamic, signedness
/// dropped), `!mo.buffer` -> memref, `!mo.chain` -> i1; others unchanged.
class MoToLinalgTypeConverter : public TypeConverter {
public:
  MoToLinalgTypeConverter();
};

/// Graphs to functions (the entry with its checked ABI), outputs, calls,
/// constants and chains.
void populateMoGraphToFuncPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);
/// Every op with ElementwiseOpInterface: one linalg.generic.
void populateMoElementwiseToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);
/// Every op with ReduceOpInterface (sum, mean, max, argmax, ...).
void populateMoReduceToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
/// matmul.
void populateMoContractionToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);
/// conv, conv_transpose, max_pool, avg_pool.
void populateMoConvolutionToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);
/// gather, gather_nd, scatter, scatter_nd, top_k.
void populateMoIndexToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);
/// if, while, yield.
void populateMoControlToScfPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
/// custom, inplace_custom.
void populateMoCustomToCallPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
/// print.
void populateMoPrintToCallPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);
/// random.
void populateMoRandomToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
/// reshape, transpose, slice, concat, pad, range, shape_to_tensor, rebind.
void populateMoShapeToTensorPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);
/// buffer.create, mutable.load, mutable.store.
void populateMoBufferToMemRefPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
/// dequantize, qmatmul.
void populateMoQuantToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);
/// All of the above.
void populateMoToLinalgConversionPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

/// Turns every `mo.constant.external` into a graph argument (what
/// `mo-weights-to-arguments` does): a graph takes the weights it reads,
/// directly or through its callees, as trailing arguments tagged
/// `{mo.weight = name}`, and each call passes the ones its prefix names.
LogicalResult moveWeightsToArguments(ModuleOp module);

/// Rejects, with a diagnostic, mo IR the lowering has no form for (an entry
/// graph returning a chain, a call to the entry graph, a size no argument
/// gives, ...), and records on the entry graph the reshapes its prologue must
/// check (`mo.reshape_checks`). Run after moveWeightsToArguments.
LogicalResult prepareForLowering(ModuleOp module);

} // namespace mlir::mo

#endif // MO_CONVERSION_MOTOLINALG_H
