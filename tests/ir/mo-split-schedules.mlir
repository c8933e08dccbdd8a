// mo-split-schedules: each scheduled op, with the ops fused into it and the
// producers its schedule may read, in a function of its own, called where
// the last of them was; mo-inline-schedules puts them back.
// RUN: mo-opt %s --split-input-file --mo-split-schedules | FileCheck %s
// Split and inlined again, each function is as it was (op for op, in order).
// RUN: mo-opt %s --split-input-file --mo-split-schedules --mo-inline-schedules | FileCheck %s --check-prefix=BACK

#id = affine_map<(d0) -> (d0)>

// Two kernels: a function each, the largest first, the empty tensors each
// writes copied in; the second reads the first's result through its call.
// CHECK-LABEL: func.func @two(
// CHECK-NOT: linalg.generic
// CHECK: %[[A:.+]] = call @two_schedule(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
// CHECK: %[[B:.+]] = call @two_schedule_0(%[[A]]) : (tensor<64xf32>) -> tensor<64xf32>
// CHECK: return %[[B]]
// CHECK: func.func private @two_schedule_0(%{{.+}}: tensor<64xf32>) -> tensor<64xf32> attributes {mo.schedule_group}
// CHECK: tensor.empty() : tensor<64xf32>
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: func.func private @two_schedule(
// CHECK: tensor.empty() : tensor<64xf32>
// CHECK: arith.mulf
// BACK-LABEL: func.func @two(
// BACK-NEXT: tensor.empty
// BACK-NEXT: linalg.generic
// BACK: arith.mulf
// BACK: tensor.empty
// BACK-NEXT: linalg.generic
// BACK: math.exp
// BACK: linalg.generic
// BACK: arith.addf
// BACK: return
// BACK-NOT: func.func private
func.func @two(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"],
      mo.schedule = {kind = "rows", sizes = [[1]]}}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"],
      mo.fused_into = 3 : i64}
      ins(%a : tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = math.exp %in : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"],
      mo.schedule = {kind = "rows", sizes = [[1]], fuse = 3 : i64}}
      ins(%p, %a : tensor<64xf32>, tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// A producer no schedule owns, read by both kernels: one function for the
// three.
// CHECK-LABEL: func.func @shared(
// CHECK: %[[R:.+]]:2 = call @shared_schedule(%arg0)
// CHECK: return %[[R]]#0, %[[R]]#1
// CHECK: func.func private @shared_schedule(
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: func.func private
func.func @shared(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"],
      mo.schedule = {kind = "rows", sizes = [[1]]}}
      ins(%p : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = math.exp %in : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"],
      mo.schedule = {kind = "rows", sizes = [[1]]}}
      ins(%p : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = math.log %in : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// The producer's result is read between it and the kernel by an op that
// stays (it is no kernel's producer): the group would be called after that
// read, so it stays where it is. So does a kernel whose fused op is in
// another block.
// CHECK-LABEL: func.func @read_between(
// CHECK: linalg.generic
// CHECK: tensor.extract
// CHECK: linalg.generic {{.+}}mo.schedule
// CHECK: linalg.generic {{.+}}mo.fused_into = 5
// CHECK: scf.if
// CHECK: linalg.generic {{.+}}mo.schedule
// CHECK-NOT: call
// CHECK-NOT: func.func private
func.func @read_between(%x: tensor<64xf32>, %c: i1) -> (tensor<64xf32>, f32, tensor<64xf32>) {
  %i = arith.constant 0 : index
  %e = tensor.empty() : tensor<64xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %v = tensor.extract %p[%i] : tensor<64xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"],
      mo.schedule = {kind = "rows", sizes = [[1]]}}
      ins(%p : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = math.exp %in : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %f = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"],
      mo.fused_into = 5 : i64}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = math.log %in : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %r = scf.if %c -> tensor<64xf32> {
    %k = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"],
        mo.schedule = {kind = "rows", sizes = [[1]], fuse = 5 : i64}}
        ins(%f : tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = math.exp %in : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    scf.yield %k : tensor<64xf32>
  } else {
    scf.yield %x : tensor<64xf32>
  }
  return %a, %v, %r : tensor<64xf32>, f32, tensor<64xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// A reshape (a copied op) of a kernel's producer, read by the return
// from before the kernel: it moves after the call, reading its result.
// CHECK-LABEL: func.func @reshaped(
// CHECK-NEXT: %[[G:.+]]:2 = call @reshaped_schedule(%arg0) : (tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>)
// CHECK-NEXT: %[[R:.+]] = tensor.expand_shape %[[G]]#0
// CHECK-NEXT: return %[[R]], %[[G]]#1
// CHECK: func.func private @reshaped_schedule
// CHECK: arith.mulf
// CHECK: math.exp
// BACK-LABEL: func.func @reshaped(
// BACK: arith.mulf
// BACK: math.exp
// BACK: tensor.expand_shape
// BACK-NOT: func.func private
func.func @reshaped(%x: tensor<64xf32>) -> (tensor<8x8xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %r = tensor.expand_shape %p [[0, 1]] output_shape [8, 8] : tensor<64xf32> into tensor<8x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"],
      mo.schedule = {kind = "rows", sizes = [[1]]}}
      ins(%p : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = math.exp %in : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  return %r, %a : tensor<8x8xf32>, tensor<64xf32>
}
