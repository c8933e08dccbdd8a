// mo-stream-stores: a kernel whose buffers together are at least min-bytes
// and that only writes one of at least half of it (static, contiguous, rows
// of whole 64-byte lines) calls a streaming twin when the buffer is 64-byte
// aligned; the twin's stores into it are nontemporal (1-D transfer writes that are stores become stores) and
// it carries "mo-streaming". Buffers that are read, small, strided, of
// ragged rows, of run-time sizes or of elements other than numbers (index,
// vectors), or written by masked transfers only, and functions that are not
// kernels, keep their stores.
// RUN: mo-opt %s --pass-pipeline='builtin.module(mo-stream-stores{min-bytes=4096})' | FileCheck %s
// Twice is once: no twin of a twin.
// RUN: mo-opt %s --pass-pipeline='builtin.module(mo-stream-stores{min-bytes=4096},mo-stream-stores{min-bytes=4096})' | FileCheck %s

// CHECK-LABEL: func.func private @eltwise
// CHECK-SAME: (%[[X:.*]]: memref<32x64xf32>, %[[Y:.*]]: memref<32x64xf32>)
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: %[[MASK:.*]] = arith.constant 63 : index
// CHECK: %[[LOW:.*]] = arith.andi %[[P]], %[[MASK]]
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[LOW]]
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: func.call @eltwise_streaming(%[[X]], %[[Y]])
// CHECK-NEXT: } else {
// CHECK: omp.parallel {
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x64xf32
// CHECK-NOT: nontemporal
// CHECK: return
// CHECK-LABEL: func.func private @eltwise_streaming
// CHECK-SAME: passthrough = ["noinline", "mo-streaming"]
// CHECK-NOT: scf.if
// CHECK: omp.parallel {
// CHECK: memref.load %{{.*}} : memref<16x64xf32
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {nontemporal = true} : memref<16x64xf32
func.func private @eltwise(%x: memref<32x64xf32>, %y: memref<32x64xf32>)
    attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%t) : index = (%c0) to (%c2) step (%c1) {
        %row = arith.muli %t, %c16 : index
        %xs = memref.subview %x[%row, 0] [16, 64] [1, 1]
            : memref<32x64xf32> to memref<16x64xf32, strided<[64, 1], offset: ?>>
        %ys = memref.subview %y[%row, 0] [16, 64] [1, 1]
            : memref<32x64xf32> to memref<16x64xf32, strided<[64, 1], offset: ?>>
        scf.for %i = %c0 to %c16 step %c1 {
          scf.for %j = %c0 to %c64 step %c1 {
            %v = memref.load %xs[%i, %j] : memref<16x64xf32, strided<[64, 1], offset: ?>>
            %w = arith.addf %v, %v : f32
            memref.store %w, %ys[%i, %j] : memref<16x64xf32, strided<[64, 1], offset: ?>>
          }
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// Vector stores too; a buffer stored into that is also read keeps its
// stores, and one that is only written is streamed.
// CHECK-LABEL: func.func private @vectors
// CHECK-SAME: (%[[A:.*]]: memref<16x64xf32>, %[[B:.*]]: memref<16x64xf32>)
// CHECK: memref.extract_aligned_pointer_as_index %[[B]]
// CHECK-NOT: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: func.call @vectors_streaming(%[[A]], %[[B]])
// CHECK-LABEL: func.func private @vectors_streaming
// CHECK: %[[V:.*]] = vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x64xf32>, vector<16xf32>
// CHECK: vector.store %[[V]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x64xf32>, vector<16xf32>
// CHECK: vector.store %[[V]], %{{.*}}[%{{.*}}, %{{.*}}] {nontemporal = true} : memref<16x64xf32>, vector<16xf32>
func.func private @vectors(%a: memref<16x64xf32>, %b: memref<16x64xf32>)
    attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0, %c0] : memref<16x64xf32>, vector<16xf32>
  vector.store %v, %a[%c0, %c0] : memref<16x64xf32>, vector<16xf32>
  vector.store %v, %b[%c0, %c0] : memref<16x64xf32>, vector<16xf32>
  return
}

// 1-D transfer writes in bounds, unmasked, become nontemporal stores in the
// twin; a masked one stays a transfer.
// CHECK-LABEL: func.func private @transfers
// CHECK: func.call @transfers_streaming(
// CHECK: } else {
// CHECK: vector.transfer_write
// CHECK: vector.transfer_write
// CHECK-LABEL: func.func private @transfers_streaming
// CHECK: vector.store %{{.*}} {nontemporal = true} : memref<16x64xf32>, vector<32xf32>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}} : vector<32xf32>, memref<16x64xf32>
func.func private @transfers(%b: memref<16x64xf32>, %v: vector<32xf32>, %m: vector<32xi1>)
    attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  vector.transfer_write %v, %b[%c0, %c0] {in_bounds = [true]} : vector<32xf32>, memref<16x64xf32>
  vector.transfer_write %v, %b[%c0, %c32], %m {in_bounds = [true]} : vector<32xf32>, memref<16x64xf32>
  return
}

// CHECK-LABEL: func.func private @not_streamed
// CHECK-NOT: scf.if
// CHECK-NOT: nontemporal
// CHECK: return
func.func private @not_streamed(%small: memref<4x64xf32>, %ragged: memref<32x60xf32>,
                                %strided: memref<32x64xf32, strided<[128, 1]>>,
                                %rows: memref<?x64xf32>, %indices: memref<64x64xindex>,
                                %vectors: memref<64x64xvector<4xf32>>,
                                %masked: memref<64x64xf32>, %m: vector<32xi1>, %v: f32)
    attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %v4 = vector.broadcast %v : f32 to vector<4xf32>
  %v32 = vector.broadcast %v : f32 to vector<32xf32>
  vector.transfer_write %v32, %masked[%c0, %c0], %m {in_bounds = [true]} : vector<32xf32>, memref<64x64xf32>
  memref.store %c0, %indices[%c0, %c0] : memref<64x64xindex>
  memref.store %v4, %vectors[%c0, %c0] : memref<64x64xvector<4xf32>>
  memref.store %v, %small[%c0, %c0] : memref<4x64xf32>
  memref.store %v, %ragged[%c0, %c0] : memref<32x60xf32>
  memref.store %v, %strided[%c0, %c0] : memref<32x64xf32, strided<[128, 1]>>
  memref.store %v, %rows[%c0, %c0] : memref<?x64xf32>
  return
}

// The threshold is the kernel's footprint: a result of half of it (2 KiB
// written, 2 KiB read) streams; the same result alone does not (its lines
// would still be in the cache when a consumer reads them).
// CHECK-LABEL: func.func private @half_of_footprint
// CHECK: func.call @half_of_footprint_streaming(
// CHECK-LABEL: func.func private @half_of_footprint_streaming
// CHECK: memref.store %{{.*}} {nontemporal = true} : memref<8x64xf32>
func.func private @half_of_footprint(%x: memref<8x64xf32>, %y: memref<8x64xf32>)
    attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0, %c0] : memref<8x64xf32>
  memref.store %v, %y[%c0, %c0] : memref<8x64xf32>
  return
}

// CHECK-LABEL: func.func private @small_footprint
// CHECK-NOT: scf.if
// CHECK-NOT: nontemporal
// CHECK: return
func.func private @small_footprint(%y: memref<8x64xf32>, %v: f32)
    attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  memref.store %v, %y[%c0, %c0] : memref<8x64xf32>
  return
}

// Not a kernel (no noinline passthrough): left alone.
// CHECK-LABEL: func.func @entry
// CHECK-NOT: scf.if
// CHECK-NOT: nontemporal
// CHECK: return
func.func @entry(%y: memref<32x64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  memref.store %v, %y[%c0, %c0] : memref<32x64xf32>
  return
}

// CHECK-NOT: _streaming
