// Folders of mo ops under upstream -canonicalize, and -cse on mo IR.
// RUN: mo-opt %s --split-input-file --canonicalize | FileCheck %s
// RUN: mo-opt %s --split-input-file --cse | FileCheck %s --check-prefix=CSE

// x * 1, x + 0, x - 0, x / 1 and max(x, x) fold to x.
// CHECK-LABEL: mo.graph @identities
// CHECK-SAME: (%[[X:.+]]: !mo.tensor<[n, 2], f32>)
// CHECK-NOT: mo.mul
// CHECK-NOT: mo.add
// CHECK: mo.output %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
mo.graph @identities<n>(%x: !mo.tensor<[n, 2], f32>) -> (!mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>) {
  %one = mo.constant dense<1.0> : tensor<f32> : !mo.tensor<[], f32>
  %zero = mo.constant dense<0.0> : tensor<2xf32> : !mo.tensor<[2], f32>
  %0 = mo.mul(%x, %one) : (!mo.tensor<[n, 2], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[n, 2], f32>
  %1 = mo.mul(%one, %x) : (!mo.tensor<[], f32>, !mo.tensor<[n, 2], f32>) -> !mo.tensor<[n, 2], f32>
  %2 = mo.add(%x, %zero) : (!mo.tensor<[n, 2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[n, 2], f32>
  %3 = mo.sub(%x, %zero) : (!mo.tensor<[n, 2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[n, 2], f32>
  %4 = mo.div(%x, %one) : (!mo.tensor<[n, 2], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[n, 2], f32>
  %5 = mo.max(%x, %x) : (!mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>) -> !mo.tensor<[n, 2], f32>
  mo.output %0, %1, %2, %3, %4, %5 : !mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>, !mo.tensor<[n, 2], f32>
}

// -----

// no_fold: 0 - x is not x; x * ones([2]) broadcasts [] to [2], so the type
// changes and the multiply stays.
// CHECK-LABEL: mo.graph @no_fold
// CHECK: mo.sub
// CHECK: mo.mul
mo.graph @no_fold(%x: !mo.tensor<[2], f32>, %s: !mo.tensor<[], f32>) -> (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) {
  %zero = mo.constant dense<0.0> : tensor<2xf32> : !mo.tensor<[2], f32>
  %ones = mo.constant dense<1.0> : tensor<2xf32> : !mo.tensor<[2], f32>
  %0 = mo.sub(%zero, %x) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %1 = mo.mul(%s, %ones) : (!mo.tensor<[], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  mo.output %0, %1 : !mo.tensor<[2], f32>, !mo.tensor<[2], f32>
}

// -----

// Constant operands fold, broadcasting splats; integer division floors like
// numpy; division by zero is not folded.
// CHECK-LABEL: mo.graph @constants
// CHECK-DAG: mo.constant dense<[4.000000e+00, 7.000000e+00]> : tensor<2xf32> : !mo.tensor<[2], f32>
// CHECK-DAG: mo.constant dense<[-2, 1]> : tensor<2xsi32> : !mo.tensor<[2], si32>
// CHECK-DAG: mo.constant dense<[3, 250]> : tensor<2xui8> : !mo.tensor<[2], ui8>
// CHECK: mo.div
// CHECK-NOT: mo.add
mo.graph @constants() -> (!mo.tensor<[2], f32>, !mo.tensor<[2], si32>, !mo.tensor<[2], ui8>, !mo.tensor<[2], si32>) {
  %a = mo.constant dense<[1.0, 2.0]> : tensor<2xf32> : !mo.tensor<[2], f32>
  %b = mo.constant dense<[3.0, 5.0]> : tensor<2xf32> : !mo.tensor<[2], f32>
  %0 = mo.add(%a, %b) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %i = mo.constant dense<[-7, 7]> : tensor<2xsi32> : !mo.tensor<[2], si32>
  %four = mo.constant dense<4> : tensor<si32> : !mo.tensor<[], si32>
  %1 = mo.div(%i, %four) : (!mo.tensor<[2], si32>, !mo.tensor<[], si32>) -> !mo.tensor<[2], si32>
  %u = mo.constant dense<[3, 200]> : tensor<2xui8> : !mo.tensor<[2], ui8>
  %v = mo.constant dense<[1, 250]> : tensor<2xui8> : !mo.tensor<[2], ui8>
  %2 = mo.max(%u, %v) : (!mo.tensor<[2], ui8>, !mo.tensor<[2], ui8>) -> !mo.tensor<[2], ui8>
  %z = mo.constant dense<0> : tensor<si32> : !mo.tensor<[], si32>
  %3 = mo.div(%i, %z) : (!mo.tensor<[2], si32>, !mo.tensor<[], si32>) -> !mo.tensor<[2], si32>
  mo.output %0, %1, %2, %3 : !mo.tensor<[2], f32>, !mo.tensor<[2], si32>, !mo.tensor<[2], ui8>, !mo.tensor<[2], si32>
}

// -----

// CSE merges identical pure ops and weight reads; unused ones are erased by
// canonicalize.
// CSE-LABEL: mo.graph @cse
// CSE: %[[W:.+]] = mo.constant.external "w"
// CSE-NOT: mo.constant.external
// CSE: %[[A:.+]] = mo.add
// CSE-NOT: mo.add
// CSE: mo.output %[[A]], %[[A]]
// CHECK-LABEL: mo.graph @cse
// CHECK-NOT: mo.chain.create
mo.graph @cse(%x: !mo.tensor<[2], f32>) -> (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) {
  %unused = mo.chain.create
  %w0 = mo.constant.external "w" : !mo.tensor<[2], f32>
  %w1 = mo.constant.external "w" : !mo.tensor<[2], f32>
  %0 = mo.add(%x, %w0) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  %1 = mo.add(%x, %w1) : (!mo.tensor<[2], f32>, !mo.tensor<[2], f32>) -> !mo.tensor<[2], f32>
  mo.output %0, %1 : !mo.tensor<[2], f32>, !mo.tensor<[2], f32>
}

// -----

// Boolean constants fold as the lowering computes them (numpy): add and max
// are or, mul and min are and; comparisons are not folded (sub of bools does
// not verify).
// CHECK-LABEL: mo.graph @bools
// CHECK-DAG: %[[T:.+]] = mo.constant dense<true> : tensor<i1> : !mo.tensor<[], i1>
// CHECK-DAG: %[[F:.+]] = mo.constant dense<false> : tensor<i1> : !mo.tensor<[], i1>
// CHECK: %[[S:.+]] = mo.less
// CHECK: mo.output %[[T]], %[[T]], %[[F]], %[[F]], %[[S]]
mo.graph @bools() -> (!mo.tensor<[], i1>, !mo.tensor<[], i1>, !mo.tensor<[], i1>, !mo.tensor<[], i1>, !mo.tensor<[], i1>) {
  %t = mo.constant dense<true> : tensor<i1> : !mo.tensor<[], i1>
  %f = mo.constant dense<false> : tensor<i1> : !mo.tensor<[], i1>
  %0 = mo.add(%t, %t) : (!mo.tensor<[], i1>, !mo.tensor<[], i1>) -> !mo.tensor<[], i1>
  %1 = mo.max(%t, %f) : (!mo.tensor<[], i1>, !mo.tensor<[], i1>) -> !mo.tensor<[], i1>
  %2 = mo.mul(%t, %f) : (!mo.tensor<[], i1>, !mo.tensor<[], i1>) -> !mo.tensor<[], i1>
  %3 = mo.min(%t, %f) : (!mo.tensor<[], i1>, !mo.tensor<[], i1>) -> !mo.tensor<[], i1>
  %4 = mo.less(%t, %f) : (!mo.tensor<[], i1>, !mo.tensor<[], i1>) -> !mo.tensor<[], i1>
  mo.output %0, %1, %2, %3, %4 : !mo.tensor<[], i1>, !mo.tensor<[], i1>, !mo.tensor<[], i1>, !mo.tensor<[], i1>, !mo.tensor<[], i1>
}
