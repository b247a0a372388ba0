// loop-plan-memory: buffers whose lifetimes do not overlap share storage (t0 and t2
// here); the statistics give the bytes before and after; the results are unchanged.
// RUN: mlc-opt %s -p loop-plan-memory --check-semantics | filecheck %s
// RUN: mlc-opt %s -p loop-plan-memory --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

func.func private @double(%x: memref<4xf32>, %y: memref<4xf32>) {
  loop.for %i = 0 to 4 {
    loop.block "Y"(%v = spatial(4, %i)) {
      %a = loop.load %x[%v] : memref<4xf32>
      %b = arith.addf %a, %a : f32
      loop.store %b, %y[%v] : memref<4xf32>
    }
  }
  return
}
func.func @main(%x: memref<4xf32>, %out: memref<4xf32>) {
  %t0 = loop.alloc_buffer : memref<4xf32>
  %t1 = loop.alloc_buffer : memref<4xf32>
  %t2 = loop.alloc_buffer : memref<4xf32>
  func.call @double(%x, %t0) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @double(%t0, %t1) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @double(%t1, %t2) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @double(%t2, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}

// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[S0:.*]] = loop.alloc_buffer : memref<16xi8>
// CHECK-NEXT: %[[S1:.*]] = loop.alloc_buffer : memref<16xi8>
// CHECK-NEXT: %t0 = loop.view %[[S0]] : memref<16xi8> to memref<4xf32>
// CHECK-NEXT: %t1 = loop.view %[[S1]] : memref<16xi8> to memref<4xf32>
// CHECK-NEXT: %t2 = loop.view %[[S0]] : memref<16xi8> to memref<4xf32>

// STATS: (48) num-bytes-before
// STATS: (32) num-bytes-after
// STATS: (3) num-buffers
// STATS: (2) num-storages

// After loop-lower the storages are memref.allocs and the buffers memref.views of
// them; the interpreter still agrees, and mlir-opt-22 reads the result.
// RUN: mlc-opt %s -p 'loop-plan-memory,loop-lower,canonicalize' --check-semantics | filecheck %s --check-prefix=LOWERED
// RUN: %if mlir-opt %{ mlc-opt %s -p 'loop-plan-memory,loop-lower' | %mlir_opt -o /dev/null %}
// LOWERED-LABEL: func.func @main
// LOWERED: %[[S0:.*]] = memref.alloc() : memref<16xi8>
// LOWERED: %t0 = memref.view %[[S0]][%c0][] : memref<16xi8> to memref<4xf32>
// LOWERED: memref.dealloc %[[S0]] : memref<16xi8>
