// mo's SubsetOpInterface models (cpp/lib/Transforms/Subsets.cpp) decide a
// pair of slices from their operands where they can, and by value bounds
// where they cannot; one-shot bufferization writes a slice in place exactly
// when the slice it reads back is the same one.
// RUN: mo-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s

// Same constant offsets: written in place, no copy.
// CHECK-LABEL: func.func @same_constants
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @same_constants(%t: tensor<16xf32> {bufferization.writable = true},
                          %v: vector<4xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %s = tensor.extract_slice %t[4] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %w = vector.transfer_write %v, %s[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<4xf32>
  %r = tensor.insert_slice %w into %t[4] [4] [1] : tensor<4xf32> into tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Different constant offsets: the slice read is not the one written back,
// so the write goes to a copy.
// CHECK-LABEL: func.func @different_constants
// CHECK: memref.alloc
// CHECK: return
func.func @different_constants(%t: tensor<16xf32> {bufferization.writable = true},
                               %v: vector<4xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %s = tensor.extract_slice %t[4] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %w = vector.transfer_write %v, %s[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<4xf32>
  %r = tensor.insert_slice %w into %t[8] [4] [1] : tensor<4xf32> into tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// The same loop index: in place.
// CHECK-LABEL: func.func @same_value
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @same_value(%t: tensor<16xf32> {bufferization.writable = true},
                      %v: vector<4xf32>, %i: index) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %s = tensor.extract_slice %t[%i] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %w = vector.transfer_write %v, %s[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<4xf32>
  %r = tensor.insert_slice %w into %t[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Offsets the operands leave open (2 + 2 against 4) are equal by value
// bounds: in place.
// CHECK-LABEL: func.func @equal_by_bounds
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @equal_by_bounds(%t: tensor<16xf32> {bufferization.writable = true},
                           %v: vector<4xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %o = arith.addi %c2, %c2 : index
  %s = tensor.extract_slice %t[%o] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %w = vector.transfer_write %v, %s[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<4xf32>
  %r = tensor.insert_slice %w into %t[%c4] [4] [1] : tensor<4xf32> into tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Two loop indices nothing relates: not provably the same slice, a copy.
// CHECK-LABEL: func.func @unrelated_values
// CHECK: memref.alloc
// CHECK: return
func.func @unrelated_values(%t: tensor<16xf32> {bufferization.writable = true},
                            %v: vector<4xf32>, %i: index, %j: index) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %s = tensor.extract_slice %t[%i] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %w = vector.transfer_write %v, %s[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<4xf32>
  %r = tensor.insert_slice %w into %t[%j] [4] [1] : tensor<4xf32> into tensor<16xf32>
  return %r : tensor<16xf32>
}
