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

// -----

// The identity permutation folds to the operand, symbolic dims and rank 0 included.
// CHECK-LABEL: mo.graph @fold_transpose_identity
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[n, 4], f32>, %[[S:[^:]+]]: !mo.tensor<[], f32>)
// CHECK-NOT: mo.transpose
// CHECK: mo.output %[[X]], %[[S]] : !mo.tensor<[n, 4], f32>, !mo.tensor<[], f32>
mo.graph @fold_transpose_identity<n>(%x: !mo.tensor<[n, 4], f32>, %s: !mo.tensor<[], f32>) -> (!mo.tensor<[n, 4], f32>, !mo.tensor<[], f32>) {
  %0 = mo.transpose %x [0, 1] : !mo.tensor<[n, 4], f32> -> !mo.tensor<[n, 4], f32>
  %1 = mo.transpose %s [] : !mo.tensor<[], f32> -> !mo.tensor<[], f32>
  mo.output %0, %1 : !mo.tensor<[n, 4], f32>, !mo.tensor<[], f32>
}

// -----

// no_fold: swapping two equal dims keeps the type but moves the elements.
// CHECK-LABEL: mo.graph @no_fold_transpose_swap
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[3, 3], f32>)
// CHECK: %[[T:.+]] = mo.transpose %[[X]] [1, 0] : !mo.tensor<[3, 3], f32> -> !mo.tensor<[3, 3], f32>
// CHECK: mo.output %[[T]]
mo.graph @no_fold_transpose_swap(%x: !mo.tensor<[3, 3], f32>) -> !mo.tensor<[3, 3], f32> {
  %0 = mo.transpose %x [1, 0] : !mo.tensor<[3, 3], f32> -> !mo.tensor<[3, 3], f32>
  mo.output %0 : !mo.tensor<[3, 3], f32>
}

// -----

// A reshape to the operand's own type folds to the operand.
// CHECK-LABEL: mo.graph @fold_reshape_same_type
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[n * 2, 4], f32>)
// CHECK-NOT: mo.reshape
// CHECK: mo.output %[[X]] : !mo.tensor<[n * 2, 4], f32>
mo.graph @fold_reshape_same_type<n>(%x: !mo.tensor<[n * 2, 4], f32>) -> !mo.tensor<[n * 2, 4], f32> {
  %0 = mo.reshape %x : !mo.tensor<[n * 2, 4], f32> -> !mo.tensor<[n * 2, 4], f32>
  mo.output %0 : !mo.tensor<[n * 2, 4], f32>
}

// -----

// no_fold: a reshape to another shape of the same size stays.
// CHECK-LABEL: mo.graph @no_fold_reshape
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[2, 3], f32>)
// CHECK: %[[R:.+]] = mo.reshape %[[X]] : !mo.tensor<[2, 3], f32> -> !mo.tensor<[3, 2], f32>
// CHECK: mo.output %[[R]]
mo.graph @no_fold_reshape(%x: !mo.tensor<[2, 3], f32>) -> !mo.tensor<[3, 2], f32> {
  %0 = mo.reshape %x : !mo.tensor<[2, 3], f32> -> !mo.tensor<[3, 2], f32>
  mo.output %0 : !mo.tensor<[3, 2], f32>
}

// -----

// A broadcast_to the operand's own shape folds to the operand.
// CHECK-LABEL: mo.graph @fold_broadcast_to_same_type
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[n, 2], f32, gpu:0>)
// CHECK-NOT: mo.broadcast_to
// CHECK: mo.output %[[X]] : !mo.tensor<[n, 2], f32, gpu:0>
mo.graph @fold_broadcast_to_same_type<n>(%x: !mo.tensor<[n, 2], f32, gpu:0>) -> !mo.tensor<[n, 2], f32, gpu:0> {
  %0 = mo.broadcast_to %x : !mo.tensor<[n, 2], f32, gpu:0> -> !mo.tensor<[n, 2], f32, gpu:0>
  mo.output %0 : !mo.tensor<[n, 2], f32, gpu:0>
}

// -----

// no_fold: a broadcast that adds a dim or stretches a 1 stays.
// CHECK-LABEL: mo.graph @no_fold_broadcast_to
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[2], f32>, %[[Y:[^:]+]]: !mo.tensor<[1, 2], f32>)
// CHECK: %[[B0:.+]] = mo.broadcast_to %[[X]] : !mo.tensor<[2], f32> -> !mo.tensor<[3, 2], f32>
// CHECK: %[[B1:.+]] = mo.broadcast_to %[[Y]] : !mo.tensor<[1, 2], f32> -> !mo.tensor<[3, 2], f32>
// CHECK: mo.output %[[B0]], %[[B1]]
mo.graph @no_fold_broadcast_to(%x: !mo.tensor<[2], f32>, %y: !mo.tensor<[1, 2], f32>) -> (!mo.tensor<[3, 2], f32>, !mo.tensor<[3, 2], f32>) {
  %0 = mo.broadcast_to %x : !mo.tensor<[2], f32> -> !mo.tensor<[3, 2], f32>
  %1 = mo.broadcast_to %y : !mo.tensor<[1, 2], f32> -> !mo.tensor<[3, 2], f32>
  mo.output %0, %1 : !mo.tensor<[3, 2], f32>, !mo.tensor<[3, 2], f32>
}

// -----

// A cast to the operand's own element type folds to the operand.
// CHECK-LABEL: mo.graph @fold_cast_same_type
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[n], si32>)
// CHECK-NOT: mo.cast
// CHECK: mo.output %[[X]] : !mo.tensor<[n], si32>
mo.graph @fold_cast_same_type<n>(%x: !mo.tensor<[n], si32>) -> !mo.tensor<[n], si32> {
  %0 = mo.cast %x : !mo.tensor<[n], si32> -> !mo.tensor<[n], si32>
  mo.output %0 : !mo.tensor<[n], si32>
}

// -----

// no_fold: casts that change the element type stay, including si32 -> ui32
// (same bits, other type) and f32 -> f16 -> f32 (rounds).
// CHECK-LABEL: mo.graph @no_fold_cast
// CHECK-SAME: (%[[X:[^:]+]]: !mo.tensor<[2], si32>, %[[F:[^:]+]]: !mo.tensor<[2], f32>)
// CHECK: %[[U:.+]] = mo.cast %[[X]] : !mo.tensor<[2], si32> -> !mo.tensor<[2], ui32>
// CHECK: %[[H:.+]] = mo.cast %[[F]] : !mo.tensor<[2], f32> -> !mo.tensor<[2], f16>
// CHECK: %[[B:.+]] = mo.cast %[[H]] : !mo.tensor<[2], f16> -> !mo.tensor<[2], f32>
// CHECK: mo.output %[[U]], %[[B]]
mo.graph @no_fold_cast(%x: !mo.tensor<[2], si32>, %f: !mo.tensor<[2], f32>) -> (!mo.tensor<[2], ui32>, !mo.tensor<[2], f32>) {
  %0 = mo.cast %x : !mo.tensor<[2], si32> -> !mo.tensor<[2], ui32>
  %1 = mo.cast %f : !mo.tensor<[2], f32> -> !mo.tensor<[2], f16>
  %2 = mo.cast %1 : !mo.tensor<[2], f16> -> !mo.tensor<[2], f32>
  mo.output %0, %2 : !mo.tensor<[2], ui32>, !mo.tensor<[2], f32>
}

// -----

// A rebind to the input's own type is the input; one that renames stays.
// CHECK-LABEL: mo.graph @rebind
// CHECK-NEXT: %[[R:.+]] = mo.rebind %arg0 : !mo.tensor<[n], f32> -> !mo.tensor<[m], f32>
// CHECK-NEXT: mo.output %arg0, %[[R]]
mo.graph @rebind<n, m>(%x: !mo.tensor<[n], f32>, %y: !mo.tensor<[m], f32>) -> (!mo.tensor<[n], f32>, !mo.tensor<[m], f32>) {
  %a = mo.rebind %x : !mo.tensor<[n], f32> -> !mo.tensor<[n], f32>
  %b = mo.rebind %x : !mo.tensor<[n], f32> -> !mo.tensor<[m], f32>
  mo.output %a, %b : !mo.tensor<[n], f32>, !mo.tensor<[m], f32>
}
