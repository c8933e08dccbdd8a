// mo-apply-schedules on records it cannot carry out: a clear error on the
// op, never a crash.
// RUN: mo-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(func.func(mo-apply-schedules))"

func.func @no_sizes(%x: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{has a malformed mo.schedule (expected {kind = "...", sizes = [...]})}}
  %y = linalg.copy {mo.schedule = {kind = "rows"}} ins(%x : tensor<64xf32>) outs(%x : tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

// expected-error @+1 {{mo: no schedule sequence @mo_spiral}}
func.func @unknown_kind(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = linalg.copy {mo.schedule = {kind = "spiral", sizes = [1]}} ins(%x : tensor<64xf32>) outs(%x : tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

// A producer recorded as fused into a tile that does not use it.
func.func @unused_producer(%x: tensor<64xf32>, %z: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  // expected-error @+1 {{cannot be fused into its consumer's loop: no use inside it}}
  %w = linalg.copy {mo.fused_into = 0 : i64} ins(%x : tensor<64xf32>) outs(%z : tensor<64xf32>) -> tensor<64xf32>
  %y = linalg.copy {mo.schedule = {kind = "fused_rows", sizes = [[8]], fuse = 0 : i64}} ins(%x : tensor<64xf32>) outs(%x : tensor<64xf32>) -> tensor<64xf32>
  return %y, %w : tensor<64xf32>, tensor<64xf32>
}
