// mo-outline-kernels: each kernel on buffers (an outermost linalg op, loop
// nest or OpenMP region) becomes a private, never-inlined function of the
// values it uses from outside, called in its place; constants are cloned in.
// RUN: mo-opt %s --split-input-file --mo-outline-kernels | FileCheck %s

// CHECK-LABEL: func.func @two_kernels(
// CHECK-SAME: %[[A:.+]]: memref<8xf32>, %[[B:.+]]: memref<8xf32>, %[[N:.+]]: index)
// CHECK: %[[ALLOC:.+]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: call @two_kernels_kernel(%[[A]], %[[ALLOC]]) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: call @two_kernels_kernel_0(%[[N]], %[[ALLOC]], %[[B]]) : (index, memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: %[[SUM:.+]] = scf.for
// CHECK: memref.dealloc %[[ALLOC]]
// CHECK-NEXT: return %[[SUM]]
// The kernels follow their function, in order.
// CHECK: func.func private @two_kernels_kernel(%{{.+}}: memref<8xf32>, %{{.+}}: memref<8xf32>)
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK-NEXT: linalg.generic
// CHECK: return
// CHECK: func.func private @two_kernels_kernel_0(%[[KN:.+]]: index, %[[KT:.+]]: memref<8xf32>, %[[KB:.+]]: memref<8xf32>)
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %[[I:.+]] = %[[C0]] to %[[KN]] step %[[C1]] {
// CHECK: memref.store %{{.+}}, %[[KB]][%[[I]]]
func.func @two_kernels(%a: memref<8xf32>, %b: memref<8xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]} ins(%a : memref<8xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %t[%i] : memref<8xf32>
    memref.store %v, %b[%i] : memref<8xf32>
  }
  // A loop carrying a value stays (an outlined kernel returns nothing).
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %t[%i] : memref<8xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  memref.dealloc %t : memref<8xf32>
  return %sum : f32
}

// -----

// A function that is a kernel itself (noinline) and declarations are left.
// CHECK-LABEL: func.func private @already(
// CHECK: linalg.fill
// CHECK-NOT: call
// CHECK: func.func private @external(memref<4xf32>)
func.func private @already(%m: memref<4xf32>) attributes {passthrough = ["noinline"]} {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%m : memref<4xf32>)
  return
}
func.func private @external(memref<4xf32>)

// -----

// Equal kernels (a transformer's Q, K and V projections) are one function,
// called for each; a kernel that differs (another constant) is its own.
// CHECK-LABEL: func.func @equal_kernels(
// CHECK-SAME: %[[A:.+]]: memref<8xf32>, %[[B:.+]]: memref<8xf32>, %[[C:.+]]: memref<8xf32>)
// CHECK: call @equal_kernels_kernel(%[[A]], %[[B]])
// CHECK-NEXT: call @equal_kernels_kernel(%[[B]], %[[C]])
// CHECK-NEXT: call @equal_kernels_kernel_0(%[[C]], %[[A]])
// CHECK-NEXT: return
// CHECK: func.func private @equal_kernels_kernel(
// CHECK: arith.constant 2.000000e+00
// CHECK: func.func private @equal_kernels_kernel_0(
// CHECK: arith.constant 3.000000e+00
// CHECK-NOT: func.func private
func.func @equal_kernels(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]} ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %two : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]} ins(%b : memref<8xf32>) outs(%c : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %two : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]} ins(%c : memref<8xf32>) outs(%a : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %three : f32
    linalg.yield %s : f32
  }
  return
}
