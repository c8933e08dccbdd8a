// mo.mutable.store with starts/steps round-trips in its pretty form (the
// window is in the attribute dictionary).
// RUN: mo-opt %s | mo-opt | FileCheck %s

// CHECK-LABEL: mo.graph @window(
// CHECK: mo.mutable.store {{.*}}2{{.*}}1{{.*}} : !mo.tensor<[2], f32>, !mo.buffer<[4], f32>
mo.graph @window(%buf: !mo.buffer<[4], f32>, %w: !mo.tensor<[2], f32>) {
  "mo.mutable.store"(%w, %buf) <{starts = array<i64: 2>, steps = array<i64: 1>}> : (!mo.tensor<[2], f32>, !mo.buffer<[4], f32>) -> ()
  mo.output
}
