// RUN: mo-opt %s --pass-pipeline="builtin.module(func.func(mo-vector-rows))" | FileCheck %s

// Rows taken whole, a row repeated (a broadcast): the vectors themselves,
// inserted row by row; no element leaves its vector.
// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %[[A:.+]]: vector<4xf32>, %[[B:.+]]: vector<4xf32>
// CHECK-NOT: to_elements
// CHECK-NOT: from_elements
// CHECK: vector.insert %[[A]], %{{.+}} [0] : vector<4xf32> into vector<3x4xf32>
// CHECK: vector.insert %[[B]], %{{.+}} [1] : vector<4xf32> into vector<3x4xf32>
// CHECK: vector.insert %[[A]], %{{.+}} [2] : vector<4xf32> into vector<3x4xf32>
func.func @rows(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<3x4xf32> {
  %x:4 = vector.to_elements %a : vector<4xf32>
  %y:4 = vector.to_elements %b : vector<4xf32>
  %r = vector.from_elements %x#0, %x#1, %x#2, %x#3, %y#0, %y#1, %y#2, %y#3,
                            %x#0, %x#1, %x#2, %x#3 : vector<3x4xf32>
  return %r : vector<3x4xf32>
}

// A row whose elements are out of order, or from two vectors, stays a
// from_elements of its own.
// CHECK-LABEL: func.func @shuffled(
// CHECK: %[[X:.+]]:4 = vector.to_elements
// CHECK: vector.from_elements %[[X]]#1, %[[X]]#0, %[[X]]#2, %[[X]]#3 : vector<4xf32>
// CHECK: vector.from_elements %[[X]]#0, %[[X]]#1, %{{.+}}#2, %{{.+}}#3 : vector<4xf32>
func.func @shuffled(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<2x4xf32> {
  %x:4 = vector.to_elements %a : vector<4xf32>
  %y:4 = vector.to_elements %b : vector<4xf32>
  %r = vector.from_elements %x#1, %x#0, %x#2, %x#3, %x#0, %x#1, %y#2, %y#3 : vector<2x4xf32>
  return %r : vector<2x4xf32>
}

// A 1-D copy of a vector of another type (a shape cast's) is left.
// CHECK-LABEL: func.func @reshaped(
// CHECK: vector.from_elements
func.func @reshaped(%a: vector<2x2xf32>) -> vector<4xf32> {
  %x:4 = vector.to_elements %a : vector<2x2xf32>
  %r = vector.from_elements %x#0, %x#1, %x#2, %x#3 : vector<4xf32>
  return %r : vector<4xf32>
}
