// --mo-cpu-pipeline: mo graphs end in the LLVM dialect only, with a C-interface
// wrapper per entry graph that keeps the weight and output annotations, and
// each kernel in a never-inlined function of its own (mo-outline-kernels).
// RUN: mo-opt %s --split-input-file --mo-cpu-pipeline | FileCheck %s
// RUN: mo-opt %s --split-input-file --mo-cpu-pipeline | FileCheck %s --check-prefix=ONLY-LLVM

// Nothing but LLVM-dialect ops is left in any case (attribute names such as
// mo.weight may stay; ops of other dialects may not).
// ONLY-LLVM-NOT: {{^ *(%[^ ]+ = )?"?(mo|memref|linalg|tensor|bufferization|arith|math|scf|cf|func|affine|vector|index|ub)\.[a-z_]+}}
// ONLY-LLVM-NOT: unrealized_conversion_cast

// A shared subgraph (two prefixed calls, so two weights) with a matmul and a
// relu, a reshape to [batch * 2, 2], and a cast to bool and back.
// CHECK-LABEL: llvm.func @block(
// CHECK-SAME: attributes {sym_visibility = "private"}
// CHECK: llvm.call @block_kernel(
// CHECK-LABEL: llvm.func @block_kernel(
// CHECK-SAME: attributes {passthrough = ["noinline"], sym_visibility = "private"}
// CHECK: llvm.intr.fmuladd
// CHECK: llvm.intr.maximum
// The entry returns its status; the prologue's checks are compares of the
// descriptors' sizes, and the body runs in a conditional block.
// CHECK-LABEL: llvm.func @model(
// CHECK-SAME: -> i64 attributes {llvm.emit_c_interface, mo.checks = [
// CHECK-SAME: "argument 0: expected shape [batch, 4], but axis 1 has size {actual}"
// CHECK-SAME: mo.entry}
// CHECK: llvm.icmp "eq"
// CHECK: llvm.cond_br
// CHECK: llvm.call @block(
// CHECK: llvm.call @block(
// CHECK: llvm.call @model_kernel(
// CHECK-LABEL: llvm.func @_mlir_ciface_model(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: !llvm.ptr {mo.type = !mo.tensor<[batch, 4], f32>},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: !llvm.ptr {{\{[^}]*}}mo.weight = "layers.0.w"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: !llvm.ptr {{\{[^}]*}}mo.weight = "layers.1.w"},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: !llvm.ptr {mo.output = 0 : i64},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: !llvm.ptr {mo.output = 1 : i64},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: !llvm.ptr {mo.status}) -> i64
// CHECK-SAME: mo.entry}
// CHECK: %[[S:.+]] = llvm.call @model(
// CHECK: llvm.return %[[S]] : i64
// CHECK-LABEL: llvm.func @model_kernel(
// CHECK: %[[B:.+]] = llvm.fcmp "une" %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: llvm.uitofp %[[B]] : i1 to f32
// The deallocation helper's i1 flags are stored as bytes.
// CHECK-LABEL: llvm.func @dealloc_helper(
// CHECK: %[[FLAG:.+]] = llvm.load %{{.+}} : !llvm.ptr -> i8
// CHECK-NEXT: llvm.trunc %[[FLAG]] : i8 to i1
mo.graph private @block<batch>(%x: !mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32> {
  %w = mo.constant.external "w" placeholder : !mo.tensor<[4, 4], f32>
  %y = mo.matmul(%x, %w) : (!mo.tensor<[batch, 4], f32>, !mo.tensor<[4, 4], f32>) -> !mo.tensor<[batch, 4], f32>
  %r = mo.relu %y : !mo.tensor<[batch, 4], f32>
  mo.output %r : !mo.tensor<[batch, 4], f32>
}
mo.graph @model<batch>(%x: !mo.tensor<[batch, 4], f32>) -> (!mo.tensor<[batch * 2, 2], f32>, !mo.tensor<[batch, 4], f32>) {
  %1 = mo.call @block(%x) {prefix = "layers.0."} : (!mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32>
  %2 = mo.call @block(%1) {prefix = "layers.1."} : (!mo.tensor<[batch, 4], f32>) -> !mo.tensor<[batch, 4], f32>
  %3 = mo.reshape %2 : !mo.tensor<[batch, 4], f32> -> !mo.tensor<[batch * 2, 2], f32>
  %b = mo.cast %2 : !mo.tensor<[batch, 4], f32> -> !mo.tensor<[batch, 4], i1>
  %4 = mo.cast %b : !mo.tensor<[batch, 4], i1> -> !mo.tensor<[batch, 4], f32>
  mo.output %3, %4 : !mo.tensor<[batch * 2, 2], f32>, !mo.tensor<[batch, 4], f32>
}

// -----

// Buffers: a strided store into a mutable buffer and a read of it lower to
// plain loads and stores through the C interface.
// CHECK-LABEL: llvm.func @update(
// CHECK-SAME: -> i64 attributes {llvm.emit_c_interface
// CHECK: llvm.call @update_kernel(
// CHECK-LABEL: llvm.func @_mlir_ciface_update(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: !llvm.ptr {mo.type = !mo.buffer<[n, 8], f32>}, %{{[a-zA-Z0-9_]+}}: !llvm.ptr {mo.type = !mo.tensor<[n, 2], f32>}, %{{[a-zA-Z0-9_]+}}: !llvm.ptr {mo.output = 0 : i64}, %{{[a-zA-Z0-9_]+}}: !llvm.ptr {mo.status}) -> i64
// CHECK: llvm.call @update(
// CHECK-LABEL: llvm.func @update_kernel(
// CHECK: llvm.fadd
// CHECK: llvm.store
mo.graph @update<n>(%buf: !mo.buffer<[n, 8], f32>, %v: !mo.tensor<[n, 2], f32>) -> !mo.tensor<[n, 8], f32> {
  %one = mo.constant dense<1.0> : tensor<f32> : !mo.tensor<[], f32>
  %w = mo.add(%v, %one) : (!mo.tensor<[n, 2], f32>, !mo.tensor<[], f32>) -> !mo.tensor<[n, 2], f32>
  "mo.mutable.store"(%w, %buf) <{starts = array<i64: 0, 2>, steps = array<i64: 1, 3>}> : (!mo.tensor<[n, 2], f32>, !mo.buffer<[n, 8], f32>) -> ()
  %t = mo.mutable.load %buf : !mo.buffer<[n, 8], f32> -> !mo.tensor<[n, 8], f32>
  mo.output %t : !mo.tensor<[n, 8], f32>
}

// -----

// Bools in memory (inputs, results, casts) are bytes: mo-widen-bool-memrefs
// runs after convert-linalg-to-loops. A bool result: the out-parameter holds bytes, the cast stores zext'd i1.
// CHECK-LABEL: llvm.func @_mlir_ciface_is_nonzero(
// CHECK-LABEL: llvm.func @is_nonzero_kernel(
// CHECK: %[[B:.+]] = llvm.fcmp "une" %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: %[[E:.+]] = llvm.zext %[[B]] : i1 to i8
// CHECK: llvm.store %[[E]], %{{.+}} : i8, !llvm.ptr
mo.graph @is_nonzero<n>(%x: !mo.tensor<[n], f32>) -> !mo.tensor<[n], i1> {
  %b = mo.cast %x : !mo.tensor<[n], f32> -> !mo.tensor<[n], i1>
  mo.output %b : !mo.tensor<[n], i1>
}

// -----

// A bool input: loads bytes and truncates them.
// CHECK-LABEL: llvm.func @to_float_kernel(
// CHECK: %[[V:.+]] = llvm.load %{{.+}} : !llvm.ptr -> i8
// CHECK-NEXT: %[[T:.+]] = llvm.trunc %[[V]] : i8 to i1
// CHECK-NEXT: llvm.uitofp %[[T]] : i1 to f32
mo.graph @to_float(%x: !mo.tensor<[4], i1>) -> !mo.tensor<[4], f32> {
  %f = mo.cast %x : !mo.tensor<[4], i1> -> !mo.tensor<[4], f32>
  mo.output %f : !mo.tensor<[4], f32>
}

// -----

// A bool constant result (an i1 global after bufferization) lowers.
// CHECK-LABEL: llvm.func @_mlir_ciface_always(
mo.graph @always() -> !mo.tensor<[], i1> {
  %c = mo.constant dense<true> : tensor<i1> : !mo.tensor<[], i1>
  mo.output %c : !mo.tensor<[], i1>
}
