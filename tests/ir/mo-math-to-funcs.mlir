// mo-math-to-funcs: upstream's convert-math-to-funcs (integer powers as
// functions), one fresh instance per run; each module gets its own
// function, called by name. (mo-opt builds a pass manager per split: a
// reused one, where upstream's pass crashed, is tested by test_jit.py's
// test_pass_managers_are_reused_per_thread_and_dropped_at_exit.)
// RUN: mo-opt %s --split-input-file --mo-math-to-funcs | FileCheck %s

// CHECK-LABEL: func.func @first
// CHECK: call @__mlir_math_ipowi_i32(%{{.+}}, %{{.+}}) : (i32, i32) -> i32
// CHECK: func.func private @__mlir_math_ipowi_i32
func.func @first(%a: i32, %b: i32) -> i32 {
  %c = math.ipowi %a, %b : i32
  return %c : i32
}

// -----

// CHECK-LABEL: func.func @second
// CHECK: call @__mlir_math_ipowi_i32(%{{.+}}, %{{.+}}) : (i32, i32) -> i32
// CHECK: func.func private @__mlir_math_ipowi_i32
// CHECK-NOT: math.ipowi
func.func @second(%a: i32, %b: i32) -> i32 {
  %c = math.ipowi %a, %b : i32
  return %c : i32
}
