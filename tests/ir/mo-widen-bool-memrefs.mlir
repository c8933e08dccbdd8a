// mo-widen-bool-memrefs: every memref of i1 stores bytes (i8); loads truncate,
// stores zero-extend, everything else only changes type.
// RUN: mo-opt %s --split-input-file --mo-widen-bool-memrefs | FileCheck %s

// alloc, store, load and dealloc of an i1 memref use i8 storage.
// CHECK-LABEL: func.func @alloc_store_load(
// CHECK-SAME: %[[N:[a-zA-Z0-9_]+]]: index, %[[B:[a-zA-Z0-9_]+]]: i1) -> i1
// CHECK: %[[M:.+]] = memref.alloc(%[[N]]) : memref<?xi8>
// CHECK: %[[E:.+]] = arith.extui %[[B]] : i1 to i8
// CHECK-NEXT: memref.store %[[E]], %[[M]][%[[I:.+]]] : memref<?xi8>
// CHECK-NEXT: %[[V:.+]] = memref.load %[[M]][%[[I]]] : memref<?xi8>
// CHECK-NEXT: %[[T:.+]] = arith.trunci %[[V]] : i8 to i1
// CHECK-NEXT: memref.dealloc %[[M]] : memref<?xi8>
// CHECK-NEXT: return %[[T]] : i1
// CHECK-NOT: xi1>
func.func @alloc_store_load(%n: index, %b: i1) -> i1 {
  %c0 = arith.constant 0 : index
  %m = memref.alloc(%n) : memref<?xi1>
  memref.store %b, %m[%c0] : memref<?xi1>
  %v = memref.load %m[%c0] : memref<?xi1>
  memref.dealloc %m : memref<?xi1>
  return %v : i1
}

// -----

// Function signatures (declarations too), calls and returns change type.
// CHECK-LABEL: func.func private @callee(memref<4xi8>, i1) -> memref<4xi8>
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[M:[a-zA-Z0-9_]+]]: memref<4xi8>, %[[B:[a-zA-Z0-9_]+]]: i1) -> memref<4xi8>
// CHECK: %[[R:.+]] = call @callee(%[[M]], %[[B]]) : (memref<4xi8>, i1) -> memref<4xi8>
// CHECK: return %[[R]] : memref<4xi8>
func.func private @callee(memref<4xi1>, i1) -> memref<4xi1>
func.func @caller(%m: memref<4xi1>, %b: i1) -> memref<4xi1> {
  %r = call @callee(%m, %b) : (memref<4xi1>, i1) -> memref<4xi1>
  return %r : memref<4xi1>
}

// -----

// no_widen: memrefs of other element types, i1 scalars and i1 tensors keep
// their types, and no byte conversion is inserted.
// CHECK-LABEL: func.func @other_types(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<4xf32>, %{{[a-zA-Z0-9_]+}}: memref<4xi8>, %{{[a-zA-Z0-9_]+}}: tensor<4xi1>, %{{[a-zA-Z0-9_]+}}: i1) -> (f32, i8)
// CHECK: memref.load %{{.+}} : memref<4xf32>
// CHECK: memref.load %{{.+}} : memref<4xi8>
// CHECK-NOT: arith.trunci
// CHECK-NOT: arith.extui
// CHECK: return
func.func @other_types(%f: memref<4xf32>, %i: memref<4xi8>, %t: tensor<4xi1>, %b: i1) -> (f32, i8) {
  %c0 = arith.constant 0 : index
  %x = memref.load %f[%c0] : memref<4xf32>
  %y = memref.load %i[%c0] : memref<4xi8>
  return %x, %y : f32, i8
}

// -----

// Rank-0 and multi-dim i1 memrefs: a scalar load truncates, a 2-D store
// extends.
// CHECK-LABEL: func.func @ranks(
// CHECK-SAME: %[[S:[a-zA-Z0-9_]+]]: memref<i8>, %[[M:[a-zA-Z0-9_]+]]: memref<2x?xi8>)
// CHECK: %[[V:.+]] = memref.load %[[S]][] : memref<i8>
// CHECK-NEXT: %[[T:.+]] = arith.trunci %[[V]] : i8 to i1
// CHECK-NEXT: %[[E:.+]] = arith.extui %[[T]] : i1 to i8
// CHECK-NEXT: memref.store %[[E]], %[[M]][%{{.+}}, %{{.+}}] : memref<2x?xi8>
func.func @ranks(%s: memref<i1>, %m: memref<2x?xi1>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %s[] : memref<i1>
  memref.store %v, %m[%c0, %c0] : memref<2x?xi1>
  return
}

// -----

// Ops nested in loops are widened; a strided subview keeps its layout; a copy
// between i1 memrefs copies bytes.
// CHECK-LABEL: func.func @nested(
// CHECK-SAME: %[[A:[a-zA-Z0-9_]+]]: memref<4xi8>, %[[B:[a-zA-Z0-9_]+]]: memref<4xi8>)
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT: %[[V:.+]] = memref.load %[[A]][%[[I]]] : memref<4xi8>
// CHECK-NEXT: %[[T:.+]] = arith.trunci %[[V]] : i8 to i1
// CHECK-NEXT: %[[N:.+]] = arith.xori %[[T]], %{{.+}} : i1
// CHECK-NEXT: %[[E:.+]] = arith.extui %[[N]] : i1 to i8
// CHECK-NEXT: memref.store %[[E]], %[[B]][%[[I]]] : memref<4xi8>
// CHECK: memref.subview %[[A]][1] [2] [1] : memref<4xi8> to memref<2xi8, strided<[1], offset: 1>>
// CHECK: memref.copy %[[A]], %[[B]] : memref<4xi8> to memref<4xi8>
func.func @nested(%a: memref<4xi1>, %b: memref<4xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xi1>
    %n = arith.xori %v, %true : i1
    memref.store %n, %b[%i] : memref<4xi1>
  }
  %s = memref.subview %a[1][2][1] : memref<4xi1> to memref<2xi1, strided<[1], offset: 1>>
  memref.copy %a, %b : memref<4xi1> to memref<4xi1>
  return
}

// -----

// Casts and views of i1 memrefs change type: memref.cast, reinterpret_cast.
// CHECK-LABEL: func.func @views(
// CHECK-SAME: %[[M:[a-zA-Z0-9_]+]]: memref<4xi8>) -> (memref<?xi8>, memref<2x2xi8>)
// CHECK: %[[C:.+]] = memref.cast %[[M]] : memref<4xi8> to memref<?xi8>
// CHECK: %[[R:.+]] = memref.reinterpret_cast %[[M]] to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<4xi8> to memref<2x2xi8>
// CHECK: return %[[C]], %[[R]] : memref<?xi8>, memref<2x2xi8>
func.func @views(%m: memref<4xi1>) -> (memref<?xi1>, memref<2x2xi1>) {
  %c = memref.cast %m : memref<4xi1> to memref<?xi1>
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<4xi1> to memref<2x2xi1>
  return %c, %r : memref<?xi1>, memref<2x2xi1>
}

// -----

// The helper buffer-deallocation-pipeline emits (memref<?xi1> arguments,
// loads and stores of i1 flags) gets byte storage.
// CHECK-LABEL: func.func private @dealloc_helper_like(
// CHECK-SAME: %[[COND:[a-zA-Z0-9_]+]]: memref<?xi8>, %[[OUT:[a-zA-Z0-9_]+]]: memref<?xi8>)
// CHECK: %[[V:.+]] = memref.load %[[COND]][%{{.+}}] : memref<?xi8>
// CHECK-NEXT: %[[T:.+]] = arith.trunci %[[V]] : i8 to i1
// CHECK: %[[E:.+]] = arith.extui %{{.+}} : i1 to i8
// CHECK-NEXT: memref.store %[[E]], %[[OUT]][%{{.+}}] : memref<?xi8>
func.func private @dealloc_helper_like(%cond: memref<?xi1>, %out: memref<?xi1>) {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %v = memref.load %cond[%c0] : memref<?xi1>
  %r = arith.ori %v, %false : i1
  memref.store %r, %out[%c0] : memref<?xi1>
  return
}

// -----

// i1 globals (bool constants after bufferization) are widened to i8
// together with their uses.
// CHECK-LABEL: memref.global "private" constant @g : memref<2xi8> = dense<[1, 0]>
// CHECK-LABEL: func.func @f() -> memref<2xi8>
// CHECK: memref.get_global @g : memref<2xi8>
memref.global "private" constant @g : memref<2xi1> = dense<[true, false]>
func.func @f() -> memref<2xi1> {
  %m = memref.get_global @g : memref<2xi1>
  return %m : memref<2xi1>
}
