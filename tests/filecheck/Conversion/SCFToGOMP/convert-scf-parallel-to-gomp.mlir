// convert-scf-parallel-to-gomp: each outermost scf.parallel becomes a function run on
// every thread of an OpenMP team (GOMP_parallel), which takes its thread's share of
// the iterations (a static schedule) and calls the loop's outlined body. mlir-opt-22
// reads and verifies what the pass writes.
// RUN: mlc-opt %s --split-input-file -p 'convert-scf-parallel-to-gomp{num-threads=4},canonicalize' | filecheck %s
// RUN: mlc-opt %s --split-input-file -p 'convert-scf-parallel-to-gomp{num-threads=4}' | filecheck %s --check-prefix=RAW
// RUN: %if mlir-opt %{ mlc-opt %s --split-input-file -p 'convert-scf-parallel-to-gomp{num-threads=4}' | %mlir_opt --split-input-file | filecheck %s --check-prefix=RAW %}
// RUN: mlc-opt %s --split-input-file -p 'convert-scf-parallel-to-gomp{num-threads=4 schedule=dynamic},canonicalize' | filecheck %s --check-prefix=DYNAMIC
// RUN: %if mlir-opt %{ mlc-opt %s --split-input-file -p 'convert-scf-parallel-to-gomp{schedule=dynamic}' | %mlir_opt --split-input-file -o /dev/null %}

// A loop with a dynamic bound, reading two buffers and a scalar: the captured values
// go into a struct on the stack, in order of first use (the bound first); constants
// are copied into the outlined function. noalias arguments stay noalias.
// CHECK-LABEL: llvm.func @GOMP_parallel(!llvm.ptr, !llvm.ptr, i32, i32)
// CHECK-NEXT:  llvm.func @omp_get_thread_num() -> i32
// CHECK-NEXT:  llvm.func @omp_get_num_threads() -> i32
// CHECK-LABEL: func.func @scale(
// The function's address is a constant: canonicalize hoists it with the others, as
// mlir-opt-22 does.
// CHECK:         %[[FN:.*]] = llvm.mlir.addressof @scale_parallel_0_omp_fn : !llvm.ptr
// CHECK:         %[[DATA:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, ptr, f32, ptr)> : (i64) -> !llvm.ptr
// CHECK:         %[[N:.*]] = builtin.unrealized_conversion_cast %n : index to i64
// CHECK-NEXT:    %[[F0:.*]] = llvm.getelementptr %[[DATA]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, ptr, f32, ptr)>
// CHECK-NEXT:    llvm.store %[[N]], %[[F0]] : i64, !llvm.ptr
// CHECK:         llvm.store %s, %{{.*}} : f32, !llvm.ptr
// CHECK:         llvm.call @GOMP_parallel(%[[FN]], %[[DATA]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, i32) -> ()
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @scale_parallel_0(
// CHECK-SAME:      %thread: index, %team: index, %n: index, %A: memref<100xf32> {llvm.noalias}, %s: f32, %B: memref<100xf32> {llvm.noalias})
// CHECK-SAME:      attributes {llvm.linkage = #llvm.linkage<internal>}
// Thread t of a team of T takes [t*q + min(t, r), +q + (t < r)) of the n iterations,
// q = n / T, r = n % T.
// CHECK:         %[[TRIPS:.*]] = arith.maxsi %{{.*}}, %c0 : index
// CHECK-NEXT:    %[[Q:.*]] = arith.divui %[[TRIPS]], %team : index
// CHECK-NEXT:    %[[R:.*]] = arith.remui %[[TRIPS]], %team : index
// CHECK-NEXT:    %[[TQ:.*]] = arith.muli %thread, %[[Q]] : index
// CHECK-NEXT:    %[[MIN:.*]] = arith.minui %thread, %[[R]] : index
// CHECK-NEXT:    %[[BEGIN:.*]] = arith.addi %[[TQ]], %[[MIN]] : index
// CHECK:         %[[END:.*]] = arith.addi %[[BEGIN]], %{{.*}} : index
// CHECK-NEXT:    scf.for %iteration = %[[BEGIN]] to %[[END]] step %c1 {
// CHECK-NEXT:      %v = memref.load %A[%iteration] : memref<100xf32>
// CHECK-NEXT:      %w = arith.mulf %v, %s : f32
// CHECK-NEXT:      memref.store %w, %B[%iteration] : memref<100xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-LABEL: llvm.func internal @scale_parallel_0_omp_fn(%data: !llvm.ptr) {
// CHECK-NEXT:    %[[T:.*]] = llvm.call @omp_get_thread_num() : () -> i32
// CHECK-NEXT:    %[[TI:.*]] = arith.index_cast %[[T]] : i32 to index
// CHECK-NEXT:    %[[TEAM:.*]] = llvm.call @omp_get_num_threads() : () -> i32
// CHECK-NEXT:    %[[TEAMI:.*]] = arith.index_cast %[[TEAM]] : i32 to index
// CHECK-NEXT:    %[[P0:.*]] = llvm.getelementptr %data[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, ptr, f32, ptr)>
// CHECK-NEXT:    %[[V0:.*]] = llvm.load %[[P0]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[C0:.*]] = builtin.unrealized_conversion_cast %[[V0]] : i64 to index
// CHECK:         func.call @scale_parallel_0(%[[TI]], %[[TEAMI]], %[[C0]], %{{.*}}, %{{.*}}, %{{.*}}) : (index, index, index, memref<100xf32>, f32, memref<100xf32>) -> ()
// CHECK-NEXT:    llvm.return
// The dynamic schedule: chunks of the iterations (about 8 a thread) taken from the
// team's shared counter until none is left.
// DYNAMIC-LABEL: llvm.func @GOMP_parallel(!llvm.ptr, !llvm.ptr, i32, i32)
// DYNAMIC:       llvm.func @GOMP_loop_dynamic_start(i64, i64, i64, i64, !llvm.ptr, !llvm.ptr) -> i8
// DYNAMIC-NEXT:  llvm.func @GOMP_loop_dynamic_next(!llvm.ptr, !llvm.ptr) -> i8
// DYNAMIC-NEXT:  llvm.func @GOMP_loop_end_nowait()
// DYNAMIC-LABEL: func.func private @scale_parallel_0(
// DYNAMIC:         %[[TEAM8:.*]] = arith.muli %team, %c8 : index
// DYNAMIC-NEXT:    %[[CHUNK:.*]] = arith.ceildivsi %[[TRIPS:.*]], %[[TEAM8]] : index
// DYNAMIC-NEXT:    %[[CHUNK1:.*]] = arith.maxsi %[[CHUNK]], %c1 : index
// DYNAMIC-NEXT:    %[[BOUNDS:.*]] = llvm.alloca %{{.*}} x i64 : (i64) -> !llvm.ptr
// The constant index folds into the getelementptr, as mlir-opt-22's canonicalize does.
// DYNAMIC-NEXT:    %[[END_AT:.*]] = llvm.getelementptr inbounds %[[BOUNDS]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// DYNAMIC:         %[[MORE:.*]] = llvm.call @GOMP_loop_dynamic_start(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[BOUNDS]], %[[END_AT]]) : (i64, i64, i64, i64, !llvm.ptr, !llvm.ptr) -> i8
// DYNAMIC-NEXT:    scf.while (%[[GOING:.*]] = %[[MORE]]) : (i8) -> () {
// DYNAMIC-NEXT:      %[[C:.*]] = arith.cmpi ne, %[[GOING]], %c0_i8 : i8
// DYNAMIC-NEXT:      scf.condition(%[[C]])
// DYNAMIC-NEXT:    } do {
// DYNAMIC-NEXT:      %[[B:.*]] = llvm.load %[[BOUNDS]] : !llvm.ptr -> i64
// DYNAMIC-NEXT:      %[[BI:.*]] = arith.index_cast %[[B]] : i64 to index
// DYNAMIC-NEXT:      %[[E:.*]] = llvm.load %[[END_AT]] : !llvm.ptr -> i64
// DYNAMIC-NEXT:      %[[EI:.*]] = arith.index_cast %[[E]] : i64 to index
// DYNAMIC-NEXT:      scf.for %iteration = %[[BI]] to %[[EI]] step %c1 {
// DYNAMIC-NEXT:        %v = memref.load %A[%iteration] : memref<100xf32>
// DYNAMIC-NEXT:        %w = arith.mulf %v, %s : f32
// DYNAMIC-NEXT:        memref.store %w, %B[%iteration] : memref<100xf32>
// DYNAMIC-NEXT:      }
// DYNAMIC-NEXT:      %[[NEXT:.*]] = llvm.call @GOMP_loop_dynamic_next(%[[BOUNDS]], %[[END_AT]]) : (!llvm.ptr, !llvm.ptr) -> i8
// DYNAMIC-NEXT:      scf.yield %[[NEXT]] : i8
// DYNAMIC-NEXT:    }
// DYNAMIC-NEXT:    llvm.call @GOMP_loop_end_nowait() : () -> ()
// DYNAMIC-NEXT:    return
// A reduction keeps the static schedule: its result must not depend on timing.
// DYNAMIC-LABEL: func.func private @sum_parallel_0(
// DYNAMIC-NOT:     GOMP_loop
// DYNAMIC:         return
// RAW-LABEL: func.func @scale(
// RAW:         llvm.call @GOMP_parallel
// RAW-LABEL: func.func private @scale_parallel_0(
// RAW-LABEL: llvm.func internal @scale_parallel_0_omp_fn(
func.func @scale(%A: memref<100xf32> {llvm.noalias}, %B: memref<100xf32> {llvm.noalias}, %s: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %A[%i] : memref<100xf32>
    %w = arith.mulf %v, %s : f32
    memref.store %w, %B[%i] : memref<100xf32>
    scf.reduce
  }
  return
}

// -----

// A reduction: each thread folds its range from its first iteration's value and keeps
// it in its slot, flagged; after the call the initial value is combined with each
// flagged slot in thread order.
// CHECK-LABEL: func.func @sum(
// CHECK:         %has_partial = memref.alloca() : memref<4xi1>
// CHECK-NEXT:    %partial = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    scf.for %[[T0:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:      memref.store %false, %has_partial[%[[T0]]] : memref<4xi1>
// CHECK-NEXT:    }
// CHECK:         llvm.call @GOMP_parallel
// CHECK-NEXT:    %[[R:.*]] = scf.for %[[T:.*]] = %c0 to %c4 step %c1 iter_args(%[[ACC:.*]] = %init) -> (f32) {
// CHECK-NEXT:      %[[HAS:.*]] = memref.load %has_partial[%[[T]]] : memref<4xi1>
// CHECK-NEXT:      %[[NEXT:.*]] = scf.if %[[HAS]] -> (f32) {
// CHECK-NEXT:        %[[P:.*]] = memref.load %partial[%[[T]]] : memref<4xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[ACC]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[NEXT]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : f32
// CHECK-LABEL: func.func private @sum_parallel_0(
// CHECK-SAME:      %thread: index, %team: index, %A: memref<64xf32>, %has_partial: memref<4xi1> {llvm.noalias}, %partial: memref<4xf32> {llvm.noalias})
// A team larger than the slots uses as many threads as there are slots.
// CHECK:         %[[WORKERS:.*]] = arith.minui %team, %c4 : index
// CHECK:         %[[FOLD:.*]] = scf.for %iteration = %[[BEGIN:.*]] to %[[END:.*]] step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:      %v = memref.load %A[%iteration] : memref<64xf32>
// CHECK-NEXT:      %[[FIRST:.*]] = arith.cmpi eq, %iteration, %[[BEGIN]] : index
// CHECK-NEXT:      %[[NEXT:.*]] = scf.if %[[FIRST]] -> (f32) {
// CHECK-NEXT:        scf.yield %v : f32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %v : f32
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[NEXT]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[NONEMPTY:.*]] = arith.cmpi ult, %[[BEGIN]], %[[END]] : index
// CHECK-NEXT:    scf.if %[[NONEMPTY]] {
// CHECK-NEXT:      memref.store %true, %has_partial[%thread] : memref<4xi1>
// CHECK-NEXT:      memref.store %[[FOLD]], %partial[%thread] : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @sum(%A: memref<64xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %r = scf.parallel (%i) = (%c0) to (%c64) step (%c1) init (%init) -> f32 {
    %v = memref.load %A[%i] : memref<64xf32>
    scf.reduce(%v : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

// -----

// Two dimensions are collapsed into one iteration space (the last varies fastest).
// Nested parallel loops: the outer one is outlined; the inner one, with 32 outer
// iterations enough for 4 threads, stays in its body (convert-scf-to-cf makes it a
// serial loop of each thread, which LLVM can vectorise).
// CHECK-LABEL: func.func @nested(
// CHECK-COUNT-1: llvm.call @GOMP_parallel
// CHECK-NOT:     llvm.call @GOMP_parallel
// CHECK-LABEL: func.func private @nested_parallel_0(
// CHECK:         %[[TOTAL:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:         scf.for %iteration = %{{.*}} to %{{.*}} step %c1 {
// CHECK-NEXT:      %[[J:.*]] = arith.remui %iteration, %c8 : index
// CHECK-NEXT:      %[[I:.*]] = arith.divui %iteration, %c8 : index
// CHECK-NEXT:      scf.parallel (%k) = (%c0) to (%c16) step (%c1) {
// CHECK-NEXT:        memref.store %one, %A[%[[I]], %[[J]], %k] : memref<4x8x16xf32>
// CHECK-NEXT:        scf.reduce
// CHECK-NEXT:      }
// CHECK-NEXT:    }
func.func @nested(%A: memref<4x8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    scf.parallel (%k) = (%c0) to (%c16) step (%c1) {
      memref.store %one, %A[%i, %j, %k] : memref<4x8x16xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// An outer loop too short to feed the team (a batch of 1; fewer than 4 iterations per
// thread) takes in the parallel loop that is its whole body: one space of 1 x 64.
// CHECK-LABEL: func.func private @batch_parallel_0(
// CHECK:         scf.for %iteration = %{{.*}} to %{{.*}} step %c1 {
// CHECK-NEXT:      %[[C:.*]] = arith.remui %iteration, %c64 : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %iteration, %c64 : index
// CHECK-NEXT:      memref.store %one, %A[%[[N]], %[[C]]] : memref<1x64xf32>
// CHECK-NEXT:    }
// A bound that depends on the outer loop keeps the inner loop inside.
// CHECK-LABEL: func.func private @triangle_parallel_0(
// CHECK:         scf.for %iteration = %{{.*}} to %{{.*}} step %c1 {
// CHECK:           scf.parallel (%j) = (%c0) to (%{{.*}}) step (%c1) {
func.func @batch(%A: memref<1x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%n) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%c) = (%c0) to (%c64) step (%c1) {
      memref.store %one, %A[%n, %c] : memref<1x64xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}
func.func @triangle(%A: memref<2x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %end = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%c0) to (%end) step (%c1) {
      memref.store %one, %A[%i, %j] : memref<2x2xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// Two views of one buffer may overlap: neither is noalias in the outlined function,
// though the buffer is. A buffer the function allocated is.
// CHECK-LABEL: func.func private @views_parallel_0(
// CHECK-SAME:      %[[LOW:.*]]: memref<8xf32, strided<[1]>>, %[[HIGH:.*]]: memref<8xf32, strided<[1], offset: 8>>, %local: memref<8xf32> {llvm.noalias})
func.func @views(%A: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %low = memref.subview %A[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  %high = memref.subview %A[8] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 8>>
  %local = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %low[%i] : memref<8xf32, strided<[1]>>
    memref.store %v, %high[%i] : memref<8xf32, strided<[1], offset: 8>>
    memref.store %v, %local[%i] : memref<8xf32>
    scf.reduce
  }
  memref.dealloc %local : memref<8xf32>
  return
}

// A buffer of unknown origin (here a loop's iter_arg, which is %A again) may alias
// any other: then no captured buffer is noalias.
// CHECK-LABEL: func.func private @carried_parallel_0(
// CHECK-SAME:      %A: memref<8xf32>, %[[B:.*]]: memref<8xf32>)
func.func @carried(%A: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %t = %c0 to %c1 step %c1 iter_args(%b = %A) -> (memref<8xf32>) {
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %v = memref.load %A[%i] : memref<8xf32>
      memref.store %v, %b[%i] : memref<8xf32>
      scf.reduce
    }
    scf.yield %b : memref<8xf32>
  }
  return
}

// -----

// A global's address is computed in the outlined function, not passed to it.
// CHECK-LABEL: func.func private @weights_parallel_0(
// CHECK-SAME:      %thread: index, %team: index, %out: memref<4xf32>)
// CHECK:         %[[W:.*]] = memref.get_global @w : memref<4xf32>
// CHECK:           memref.load %[[W]][%iteration] : memref<4xf32>
memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @weights(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = memref.get_global @w : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %w[%i] : memref<4xf32>
    memref.store %v, %out[%i] : memref<4xf32>
    scf.reduce
  }
  return
}

// -----

// A stack buffer used only inside the loop (a tile loop-compact-buffers shrank to one
// iteration's use, here seen through a view) is private to each thread: its
// allocation moves into the outlined function, whose frame is the thread's own. A
// buffer also used after the loop stays shared.
// CHECK-LABEL: func.func @scratch(
// CHECK-NOT:     memref.alloca() : memref<4x4xf32>
// CHECK:         %[[KEPT:.*]] = memref.alloca() : memref<8xf32>
// CHECK:         llvm.call @GOMP_parallel(
// CHECK-NEXT:    memref.load %[[KEPT]]
// CHECK-LABEL: func.func private @scratch_parallel_0(
// CHECK-SAME:      %thread: index, %team: index, %in: memref<8x16xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}, %kept: memref<8xf32> {llvm.noalias})
// CHECK:         %[[TILE:.*]] = memref.alloca() : memref<4x4xf32>
// CHECK-NEXT:    %[[FLAT:.*]] = memref.collapse_shape %[[TILE]] {{\[}}[0, 1]] : memref<4x4xf32> into memref<16xf32>
// CHECK:           memref.store %{{.*}}, %[[FLAT]][%{{.*}}] : memref<16xf32>
func.func @scratch(%in: memref<8x16xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %tile = memref.alloca() : memref<4x4xf32>
  %flat = memref.collapse_shape %tile [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %kept = memref.alloca() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %in[%i, %j] : memref<8x16xf32>
      memref.store %v, %flat[%j] : memref<16xf32>
    }
    %a = memref.load %flat[%c0] : memref<16xf32>
    memref.store %a, %out[%i] : memref<8xf32>
    memref.store %a, %kept[%i] : memref<8xf32>
    scf.reduce
  }
  %r = memref.load %kept[%c0] : memref<8xf32>
  return %r : f32
}
