// mo-fuse-elementwise: elementwise producers fuse where their consumer reads
// each element once; contractions keep their operands (and stay named).
// RUN: mo-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(mo-fuse-elementwise))" | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// Two elementwise ops become one generic computing tanh(exp(x)).
// CHECK-LABEL: func.func @chain(
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK-NEXT: math.tanh
// CHECK-NOT: linalg.generic
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// no_fusion: an elementwise producer of a matmul is not recomputed inside it
// (once per element of the reduction), and the matmul stays a named op.
// CHECK-LABEL: func.func @into_matmul(
// CHECK: %[[E:.+]] = linalg.generic
// CHECK: math.exp
// CHECK: linalg.matmul ins(%[[E]], %{{.+}} : tensor<4x8xf32>, tensor<8x2xf32>)
func.func @into_matmul(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m = linalg.matmul ins(%e, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A reduction over the producer's own loops reads each element once: fused.
// CHECK-LABEL: func.func @into_reduction(
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<4x8xf32>)
// CHECK: math.exp
// CHECK-NEXT: arith.addf
// CHECK-NOT: linalg.generic
func.func @into_reduction(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// An elementwise producer with a later use fuses into a reduction, which
// also yields it for that use (softmax's exp stored and summed in one
// pass): one exp, not one per use.
// CHECK-LABEL: func.func @shared_into_reduction(
// CHECK: %[[BOTH:.+]]:2 = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<4x8xf32>) outs(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: %[[E:.+]] = math.exp
// CHECK-NEXT: %[[S:.+]] = arith.addf
// CHECK-NEXT: linalg.yield %[[E]], %[[S]]
// CHECK: linalg.generic {{.+}} ins(%[[BOTH]]#0, %[[BOTH]]#1 : tensor<4x8xf32>, tensor<4xf32>)
// CHECK-NOT: math.exp
// CHECK: arith.divf
func.func @shared_into_reduction(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A use before the reduction could not read the fused op's result: the
// producer stays, computed once, and fuses into neither consumer.
// CHECK-LABEL: func.func @shared_used_before(
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp
// CHECK-NOT: math.exp
// CHECK: return
func.func @shared_used_before(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y, %s : tensor<4x8xf32>, tensor<4xf32>
}
