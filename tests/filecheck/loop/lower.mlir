// loop-lower: loops to scf, blocks inlined with their bindings computed, inits
// predicated, padded loads guarded, buffers allocated and freed, vectorized loops as
// vector ops (or left serial with a remark). A buffer of several dimensions is
// accessed through a one-dimensional view (memref.collapse_shape) at one linear
// offset. mlir-opt-22 reads the result.
// RUN: mlc-opt %s --split-input-file -p 'loop-lower,canonicalize' | filecheck %s
// RUN: mlc-opt %s --split-input-file -p 'loop-lower' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: %if mlir-opt %{ mlc-opt %s --split-input-file -p 'loop-lower' -o %t.mlir && %mlir_opt %t.mlir --split-input-file -o /dev/null %}

// CHECK-LABEL: func.func @reduction
func.func @reduction(%X: memref<4x8xf32>, %S: memref<4xf32>) {
  // CHECK: scf.for %i = %c0 to %c4 step %c1 {
  loop.for %i = 0 to 4 {
    // CHECK-NEXT: scf.for %k = %c0 to %c8 step %c1 {
    loop.for %k = 0 to 8 {
      // CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %k, %c0 : index
      // CHECK-NEXT: scf.if %[[FIRST]] {
      // CHECK-NEXT:   memref.store %zero, %S[%i] : memref<4xf32>
      // CHECK-NEXT: }
      // CHECK-NEXT: memref.load %S[%i]
      // CHECK-NEXT: %[[ROW:.*]] = arith.muli %i, %c8 : index
      // CHECK-NEXT: %[[AT:.*]] = arith.addi %k, %[[ROW]] : index
      // CHECK-NEXT: memref.load %X_flat[%[[AT]]] : memref<32xf32>
      loop.block "S"(%vi = spatial(4, %i), %vk = reduce(8, %k)) {
        loop.init {
          %zero = arith.constant 0.0 : f32
          loop.store %zero, %S[%vi] : memref<4xf32>
        }
        %s = loop.load %S[%vi] : memref<4xf32>
        %x = loop.load %X[%vi, %vk] : memref<4x8xf32>
        %t = arith.addf %s, %x : f32
        loop.store %t, %S[%vi] : memref<4xf32>
      }
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @split_and_padded
func.func @split_and_padded(%X: memref<8xf32>, %Y: memref<8xf32>) {
  // A small buffer lives on the stack (no dealloc).
  // CHECK: %[[T:.*]] = memref.alloca() : memref<8xf32>
  %T = loop.alloc_buffer : memref<8xf32>
  // CHECK: scf.parallel (%o) = (%c0) to (%c2) step (%c1) {
  loop.for parallel %o = 0 to 2 {
    loop.for %n = 0 to 4 {
      // CHECK: %[[V:.*]] = arith.addi %{{.*}}, %n : index
      // CHECK: %[[M:.*]] = arith.subi %[[V]], %c1 : index
      // CHECK: arith.cmpi sge, %[[M]], %c0 : index
      // CHECK: scf.if %{{.*}} -> (f32) {
      // CHECK:   memref.load %X[%{{.*}}]
      // CHECK: } else {
      // CHECK:   scf.yield %cst : f32
      loop.block "T"(%v = spatial(8, %o * 4 + %n)) {
        %x = loop.load %X[%v - 1] padding(0.0 : f32) : memref<8xf32>
        loop.store %x, %T[%v] : memref<8xf32>
      }
    }
  }
  // The unrolled loop is gone: two stores at constant indices.
  // CHECK-NOT: scf.for
  // CHECK: memref.store %{{.*}}, %Y[%c0]
  // CHECK: memref.store %{{.*}}, %Y[%c1]
  loop.for unrolled %u = 0 to 2 {
    loop.block "Y"(%v = spatial(8, %u)) {
      %t = loop.load %T[%v] : memref<8xf32>
      loop.store %t, %Y[%v] : memref<8xf32>
    }
  }
  // CHECK-NOT: memref.dealloc
  // CHECK: return
  return
}

// -----

// CHECK-LABEL: func.func @vectorized
func.func @vectorized(%X: memref<4x8xf32>, %b: memref<4xf32>, %Y: memref<4x8xf32>) {
  loop.for %i = 0 to 4 {
    // CHECK: %[[B:.*]] = memref.load %b[%i] : memref<4xf32>
    // CHECK: %[[ROW:.*]] = arith.muli %i, %c8 : index
    // CHECK: %[[X:.*]] = vector.load %X_flat[%[[ROW]]] : memref<32xf32>, vector<8xf32>
    // CHECK: %[[BB:.*]] = vector.broadcast %[[B]] : f32 to vector<8xf32>
    // CHECK: %[[S:.*]] = arith.addf %[[X]], %[[BB]] : vector<8xf32>
    // CHECK: vector.store %[[S]], %Y_flat[%[[ROW]]] : memref<32xf32>, vector<8xf32>
    loop.for vectorized %j = 0 to 8 {
      loop.block "Y"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %bias = loop.load %b[%vi] : memref<4xf32>
        %x = loop.load %X[%vi, %vj] : memref<4x8xf32>
        %s = arith.addf %x, %bias : f32
        loop.store %s, %Y[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  return
}

// -----

// An iteration variable used as a value (a concat's channel against its split
// point) is uniform along the loop: computed once, from the bindings.
// CHECK-LABEL: func.func @uniform_iteration_value
func.func @uniform_iteration_value(%A: memref<4x8xf32>, %B: memref<4x8xf32>, %Y: memref<4x8xf32>) {
  loop.for %i = 0 to 4 {
    // CHECK: %[[I:.*]] = arith.index_cast %i : index to i64
    // CHECK: %[[LOW:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : i64
    // CHECK: %[[LANES:.*]] = vector.broadcast %[[LOW]] : i1 to vector<8xi1>
    // CHECK: arith.select %[[LANES]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
    loop.for vectorized %j = 0 to 8 {
      loop.block "Y"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %c = arith.index_cast %vi : index to i64
        %two = arith.constant 2 : i64
        %low = arith.cmpi slt, %c, %two : i64
        %a = loop.load %A[%vi, %vj] : memref<4x8xf32>
        %b = loop.load %B[%vi, %vj] : memref<4x8xf32>
        %y = arith.select %low, %a, %b : f32
        loop.store %y, %Y[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  return
}

// -----

// REMARK: lower.mlir:[[# @LINE + 4]]:3: remark: loop-lower: the vectorized loop stays a serial loop: 'arith.index_cast' uses an iteration variable that varies along the loop as a value
// CHECK-LABEL: func.func @varying_iteration_value
func.func @varying_iteration_value(%Y: memref<8xi64>) {
  // CHECK: scf.for %i
  loop.for vectorized %i = 0 to 8 {
    loop.block "Y"(%vi = spatial(8, %i)) {
      %c = arith.index_cast %vi : index to i64
      loop.store %c, %Y[%vi] : memref<8xi64>
    }
  }
  return
}

// -----

// REMARK: lower.mlir:[[# @LINE + 4]]:3: remark: loop-lower: the vectorized loop stays a serial loop: 'loop.load' of memref<16xf32> is not contiguous along the loop
// CHECK-LABEL: func.func @strided
func.func @strided(%X: memref<16xf32>, %Y: memref<8xf32>) {
  // CHECK: scf.for %i
  loop.for vectorized %i = 0 to 8 {
    loop.block "Y"(%vi = spatial(8, %i)) {
      %x = loop.load %X[%vi * 2] : memref<16xf32>
      loop.store %x, %Y[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// A constant buffer (weights) becomes a private constant memref.global.
// CHECK-LABEL: memref.global "private" constant @__constant_w : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-LABEL: func.func @weights
func.func @weights(%Y: memref<2xf32>) {
  // CHECK: %w = memref.get_global @__constant_w : memref<2xf32>
  %w = loop.constant dense<[1.0, 2.0]> : tensor<2xf32> -> memref<2xf32>
  loop.for %i = 0 to 2 {
    loop.block "Y"(%vi = spatial(2, %i)) {
      %x = loop.load %w[%vi] : memref<2xf32>
      loop.store %x, %Y[%vi] : memref<2xf32>
    }
  }
  return
}

// -----

// A block's predicate is an scf.if around its body where peeling cannot take it out
// (here the tail of %i1, whose rows hold for some %i0 only).
// CHECK-LABEL: func.func @predicate
// CHECK:       scf.for %i1 = %c0 to %c2 step %c1 {
// CHECK-NOT:     scf.if
// CHECK:       scf.for %i1 = %c0 to %c2 step %c1 {
// CHECK:         scf.for %i0 = %c0 to %c4 step %c1 {
// CHECK:           %[[IN:.*]] = arith.cmpi slt, %{{.*}}, %c10 : index
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK:             memref.load %X
func.func @predicate(%X: memref<16xf32>, %Y: memref<16xf32>) {
  loop.for %i1 = 0 to 4 {
    loop.for %i0 = 0 to 4 {
      loop.block "Y"(%vi = spatial(16, %i1 * 4 + %i0)) where(%i1 * 4 + %i0 < 10) {
        %x = loop.load %X[%vi] : memref<16xf32>
        loop.store %x, %Y[%vi] : memref<16xf32>
      }
    }
  }
  return
}
