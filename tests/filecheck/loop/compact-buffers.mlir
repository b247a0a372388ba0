// loop-compact-buffers: a buffer whose accesses all sit under one loop shrinks to the
// box one iteration uses (TVM's CompactBufferAllocation), indexed modulo the box.
// RUN: mlc-opt %s --split-input-file -p loop-compact-buffers | filecheck %s

// A row's temporary under a serial loop: one row, reused by every iteration.
// CHECK-LABEL: func.func @serial(
// CHECK:         %T = loop.alloc_buffer {scope = "local"} : memref<1x32768xf32>
// CHECK:         loop.store %{{.*}}, %T[0, %vj] : memref<1x32768xf32>
func.func @serial(%A: memref<4x32768xf32>, %C: memref<4x32768xf32>) {
  %T = loop.alloc_buffer : memref<4x32768xf32>
  loop.for %i = 0 to 4 {
    loop.for %j = 0 to 32768 {
      loop.block "T"(%vi = spatial(4, %i), %vj = spatial(32768, %j)) reads(%A[%vi, %vj]) writes(%T[%vi, %vj]) {
        %0 = loop.load %A[%vi, %vj] : memref<4x32768xf32>
        loop.store %0, %T[%vi, %vj] : memref<4x32768xf32>
      }
    }
    loop.for %j = 0 to 32768 {
      loop.block "C"(%vi = spatial(4, %i), %vj = spatial(32768, %j)) reads(%T[%vi, %vj]) writes(%C[%vi, %vj]) {
        %0 = loop.load %T[%vi, %vj] : memref<4x32768xf32>
        loop.store %0, %C[%vi, %vj] : memref<4x32768xf32>
      }
    }
  }
  return
}

// -----

// Under a parallel loop the iterations sharing the box run at once: a box small
// enough for the stack becomes each thread's own (convert-scf-parallel-to-gomp), a
// larger one (here 128 KB) would be one heap buffer for all threads, so it stays.
// CHECK-LABEL: func.func @parallel_large(
// CHECK:         %T = loop.alloc_buffer : memref<4x32768xf32>
func.func @parallel_large(%A: memref<4x32768xf32>, %C: memref<4x32768xf32>) {
  %T = loop.alloc_buffer : memref<4x32768xf32>
  loop.for parallel %i = 0 to 4 {
    loop.for %j = 0 to 32768 {
      loop.block "T"(%vi = spatial(4, %i), %vj = spatial(32768, %j)) reads(%A[%vi, %vj]) writes(%T[%vi, %vj]) {
        %0 = loop.load %A[%vi, %vj] : memref<4x32768xf32>
        loop.store %0, %T[%vi, %vj] : memref<4x32768xf32>
      }
    }
    loop.for %j = 0 to 32768 {
      loop.block "C"(%vi = spatial(4, %i), %vj = spatial(32768, %j)) reads(%T[%vi, %vj]) writes(%C[%vi, %vj]) {
        %0 = loop.load %T[%vi, %vj] : memref<4x32768xf32>
        loop.store %0, %C[%vi, %vj] : memref<4x32768xf32>
      }
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @parallel_small(
// CHECK:         %T = loop.alloc_buffer {scope = "local"} : memref<1x1024xf32>
func.func @parallel_small(%A: memref<4x1024xf32>, %C: memref<4x1024xf32>) {
  %T = loop.alloc_buffer : memref<4x1024xf32>
  loop.for parallel %i = 0 to 4 {
    loop.for %j = 0 to 1024 {
      loop.block "T"(%vi = spatial(4, %i), %vj = spatial(1024, %j)) reads(%A[%vi, %vj]) writes(%T[%vi, %vj]) {
        %0 = loop.load %A[%vi, %vj] : memref<4x1024xf32>
        loop.store %0, %T[%vi, %vj] : memref<4x1024xf32>
      }
    }
    loop.for %j = 0 to 1024 {
      loop.block "C"(%vi = spatial(4, %i), %vj = spatial(1024, %j)) reads(%T[%vi, %vj]) writes(%C[%vi, %vj]) {
        %0 = loop.load %T[%vi, %vj] : memref<4x1024xf32>
        loop.store %0, %C[%vi, %vj] : memref<4x1024xf32>
      }
    }
  }
  return
}
