// mo-lower-to-linalg, print: a call of mo's runtime with the tensor as a
// read-only unranked buffer and the label as a constant global of bytes.
// RUN: mo-opt %s --mo-lower-to-linalg --cse | FileCheck %s

// CHECK-DAG: func.func private @moPrint_i8(i64, i64, memref<*xi8>, memref<*xi8>) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @moPrint_f32(i64, i64, memref<*xf32>, memref<*xi8>) attributes {llvm.emit_c_interface}
// CHECK-DAG: memref.global "private" constant @[[HI:mo_print_label_[0-9]+]] : memref<2xi8> = dense<[104, 105]>
// CHECK-DAG: memref.global "private" constant @[[X:mo_print_label_[0-9]+]] : memref<1xi8> = dense<120>
// CHECK-LABEL: func.func @show(
// CHECK: %[[L:.+]] = memref.get_global @[[HI]] : memref<2xi8>
// CHECK: %[[UL:.+]] = memref.cast %[[L]] : memref<2xi8> to memref<*xi8>
// CHECK: call @moPrint_i8(%c-1_i64, %c8_i64, %[[UL]], %[[UL]])
// CHECK: %[[B:.+]] = bufferization.to_buffer %{{.+}} read_only : tensor<?x2xf32> to memref<?x2xf32>
// CHECK: %[[UB:.+]] = memref.cast %[[B]] : memref<?x2xf32> to memref<*xf32>
// CHECK: call @moPrint_f32(%c0_i64, %c32_i64, %[[UB]], %{{.+}})
mo.graph @show<n>(%x: !mo.tensor<[n, 2], f32>) {
  mo.print {label = "hi"}
  mo.print %x {label = "x"} : !mo.tensor<[n, 2], f32>
  mo.output
}
