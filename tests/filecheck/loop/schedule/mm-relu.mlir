// The MLC course's mm_relu, scheduled step by step as the course does:
// split(j, [None, 4]), reorder(j0, k, j1), reverse_compute_at(C, j0),
// decompose_reduction(Y, k); each step's trace applied with loop-apply-trace.
// RUN: echo '[["get_block", ["Y"], {"func_name": "mm_relu"}, [{"rv": "b0"}]], ["get_loops", [{"rv": "b0"}], {}, [{"rv": "l1"}, {"rv": "l2"}, {"rv": "l3"}]], ["split", [{"rv": "l2"}], {"factors": [null, 4]}, [{"rv": "l4"}, {"rv": "l5"}]]]' > %t.split.json
// RUN: mlc-opt %s -p 'loop-apply-trace{file=%t.split.json}' | filecheck %s --check-prefix=SPLIT
// RUN: echo '[["get_block", ["Y"], {"func_name": "mm_relu"}, [{"rv": "b0"}]], ["get_loops", [{"rv": "b0"}], {}, [{"rv": "l1"}, {"rv": "l2"}, {"rv": "l3"}]], ["split", [{"rv": "l2"}], {"factors": [null, 4]}, [{"rv": "l4"}, {"rv": "l5"}]], ["reorder", [{"rv": "l4"}, {"rv": "l3"}, {"rv": "l5"}], {}, []]]' > %t.reorder.json
// RUN: mlc-opt %s -p 'loop-apply-trace{file=%t.reorder.json}' | filecheck %s --check-prefix=REORDER
// RUN: echo '[["get_block", ["Y"], {"func_name": "mm_relu"}, [{"rv": "b0"}]], ["get_loops", [{"rv": "b0"}], {}, [{"rv": "l1"}, {"rv": "l2"}, {"rv": "l3"}]], ["split", [{"rv": "l2"}], {"factors": [null, 4]}, [{"rv": "l4"}, {"rv": "l5"}]], ["reorder", [{"rv": "l4"}, {"rv": "l3"}, {"rv": "l5"}], {}, []], ["get_block", ["C"], {"func_name": "mm_relu"}, [{"rv": "b6"}]], ["reverse_compute_at", [{"rv": "b6"}, {"rv": "l4"}], {}, []]]' > %t.compute-at.json
// RUN: mlc-opt %s -p 'loop-apply-trace{file=%t.compute-at.json}' | filecheck %s --check-prefix=COMPUTE-AT
// RUN: echo '[["get_block", ["Y"], {"func_name": "mm_relu"}, [{"rv": "b0"}]], ["get_loops", [{"rv": "b0"}], {}, [{"rv": "l1"}, {"rv": "l2"}, {"rv": "l3"}]], ["split", [{"rv": "l2"}], {"factors": [null, 4]}, [{"rv": "l4"}, {"rv": "l5"}]], ["reorder", [{"rv": "l4"}, {"rv": "l3"}, {"rv": "l5"}], {}, []], ["get_block", ["C"], {"func_name": "mm_relu"}, [{"rv": "b6"}]], ["reverse_compute_at", [{"rv": "b6"}, {"rv": "l4"}], {}, []], ["decompose_reduction", [{"rv": "b0"}, {"rv": "l3"}], {}, [{"rv": "b7"}]]]' > %t.decompose.json
// RUN: mlc-opt %s -p 'loop-apply-trace{file=%t.decompose.json}' | filecheck %s --check-prefix=DECOMPOSE

func.func @mm_relu(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) {
  %Y = loop.alloc_buffer : memref<128x128xf32>
  loop.for %i = 0 to 128 {
    loop.for %j = 0 to 128 {
      loop.for %k = 0 to 128 {
        loop.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k)) {
          loop.init {
            %zero = arith.constant 0.0 : f32
            loop.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
          }
          %a = loop.load %A[%vi, %vk] : memref<128x128xf32>
          %b = loop.load %B[%vk, %vj] : memref<128x128xf32>
          %y = loop.load %Y[%vi, %vj] : memref<128x128xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %y, %p : f32
          loop.store %s, %Y[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  loop.for %i = 0 to 128 {
    loop.for %j = 0 to 128 {
      loop.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j)) {
        %y = loop.load %Y[%vi, %vj] : memref<128x128xf32>
        %zero = arith.constant 0.0 : f32
        %r = arith.maximumf %y, %zero : f32
        loop.store %r, %C[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
  return
}

// split(j, [None, 4]): j becomes j_0 (32) around j_1 (4); vj = j_0 * 4 + j_1.
// SPLIT:      loop.for %i = 0 to 128 {
// SPLIT-NEXT:   loop.for %j_0 = 0 to 32 {
// SPLIT-NEXT:     loop.for %j_1 = 0 to 4 {
// SPLIT-NEXT:       loop.for %k = 0 to 128 {
// SPLIT-NEXT:         loop.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j_0 * 4 + %j_1), %vk = reduce(128, %k))

// reorder(j0, k, j1): k moves between j_0 and j_1.
// REORDER:      loop.for %i = 0 to 128 {
// REORDER-NEXT:   loop.for %j_0 = 0 to 32 {
// REORDER-NEXT:     loop.for %k = 0 to 128 {
// REORDER-NEXT:       loop.for %j_1 = 0 to 4 {
// REORDER-NEXT:         loop.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j_0 * 4 + %j_1), %vk = reduce(128, %k))

// reverse_compute_at(C, j0): C computes the 4 columns of each j_0 iteration, after Y.
// COMPUTE-AT:      loop.for %j_0 = 0 to 32 {
// COMPUTE-AT-NEXT:   loop.for %k = 0 to 128 {
// COMPUTE-AT:        loop.for %ax0 = 0 to 4 {
// COMPUTE-AT-NEXT:     loop.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j_0 * 4 + %ax0)) reads(%Y[%vi, %vj]) writes(%C[%vi, %vj])
// COMPUTE-AT:      return

// decompose_reduction(Y, k): the init becomes block Y_init under j_1_init, before k.
// DECOMPOSE:      loop.for %i = 0 to 128 {
// DECOMPOSE-NEXT:   loop.for %j_0 = 0 to 32 {
// DECOMPOSE-NEXT:     loop.for %j_1_init = 0 to 4 {
// DECOMPOSE-NEXT:       loop.block "Y_init"(%vi = spatial(128, %i), %vj = spatial(128, %j_0 * 4 + %j_1_init)) reads() writes(%Y[%vi, %vj]) {
// DECOMPOSE-NEXT:         %zero = arith.constant 0.000000e+00 : f32
// DECOMPOSE-NEXT:         loop.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
// DECOMPOSE-NEXT:       }
// DECOMPOSE-NEXT:     }
// DECOMPOSE-NEXT:     loop.for %k = 0 to 128 {
// DECOMPOSE-NEXT:       loop.for %j_1 = 0 to 4 {
// DECOMPOSE-NEXT:         loop.block "Y_update"(%vi = spatial(128, %i), %vj = spatial(128, %j_0 * 4 + %j_1), %vk = reduce(128, %k))
// DECOMPOSE-NOT:          loop.init
// DECOMPOSE:            }
// DECOMPOSE:          loop.for %ax0 = 0 to 4 {
// DECOMPOSE-NEXT:       loop.block "C"
