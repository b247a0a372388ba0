// canonicalize folds and rewrites memref ops as mlir-opt-22 does; the CHECK lines,
// written from its output, hold for it too.
// RUN: mlc-opt %s --canonicalize --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize --split-input-file | filecheck %s %}

// A dim of a static size is a constant, of an alloc's dynamic size its operand (also
// through a cast); an out-of-range dim stays.
// CHECK-LABEL: func.func @dims
// CHECK-SAME: (%[[M:[^:]*]]: memref<4x4xf32>, %[[N:[^:]*]]: index)
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[D:.*]] = memref.dim %[[M]], %[[C2]] : memref<4x4xf32>
// CHECK: return %[[N]], %[[C4]], %[[N]], %[[D]]
func.func @dims(%m: memref<4x4xf32>, %n: index) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.alloc(%n) : memref<?x4xf32>
  %d0 = memref.dim %a, %c0 : memref<?x4xf32>
  %d1 = memref.dim %a, %c1 : memref<?x4xf32>
  %cast = memref.cast %a : memref<?x4xf32> to memref<?x?xf32>
  %d2 = memref.dim %cast, %c0 : memref<?x?xf32>
  %d3 = memref.dim %m, %c2 : memref<4x4xf32>
  return %d0, %d1, %d2, %d3 : index, index, index, index
}

// -----

// A cast to its own type, a subview of all of its source and a collapse undone by
// an expand give their source; a copy onto itself goes.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[M:[^:]*]]: memref<4x4xf32>)
// CHECK-NOT: memref.
// CHECK: return %[[M]], %[[M]], %[[M]]
func.func @identities(%m: memref<4x4xf32>) -> (memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>) {
  %id = memref.cast %m : memref<4x4xf32> to memref<4x4xf32>
  %sv = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<4x4xf32> to memref<4x4xf32>
  memref.copy %m, %m : memref<4x4xf32> to memref<4x4xf32>
  %f = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %e = memref.expand_shape %f [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  return %id, %sv, %e : memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>
}

// -----

// A buffer only written and freed is never allocated; one that is read stays, its
// constant size made static, and the loads read through the cast.
// CHECK-LABEL: func.func @allocs
// CHECK-SAME: (%[[X:[^:]*]]: f32)
// CHECK-NOT: memref<4xf32>
// CHECK: %[[A:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT: memref.store %[[X]], %[[A]][%{{.*}}] : memref<2xf32>
// CHECK-NEXT: %[[V:.*]] = memref.load %[[A]][%{{.*}}] : memref<2xf32>
// CHECK-NEXT: return %[[V]]
func.func @allocs(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %dead = memref.alloc() : memref<4xf32>
  memref.store %x, %dead[%c0] : memref<4xf32>
  memref.dealloc %dead : memref<4xf32>
  %stack = memref.alloca() : memref<4xf32>
  memref.store %x, %stack[%c1] : memref<4xf32>
  %a = memref.alloc(%c2) : memref<?xf32>
  memref.store %x, %a[%c0] : memref<?xf32>
  %v = memref.load %a[%c1] : memref<?xf32>
  return %v : f32
}

// -----

// Constant subview arguments become static: the new view type is cast back, and the
// load reads through the cast.
// CHECK-LABEL: func.func @subview_constants
// CHECK-SAME: (%[[M:[^:]*]]: memref<4x4xf32>, %[[I:[^:]*]]: index)
// CHECK: %[[S:.*]] = memref.subview %[[M]][1, %[[I]]] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: ?>>
// CHECK-NEXT: %[[V:.*]] = memref.load %[[S]][%{{.*}}, %{{.*}}] : memref<2x2xf32, strided<[4, 1], offset: ?>>
// CHECK-NEXT: return %[[V]]
func.func @subview_constants(%m: memref<4x4xf32>, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memref.subview %m[%c1, %i] [%c2, 2] [1, %c1] : memref<4x4xf32> to memref<?x2xf32, strided<[4, ?], offset: ?>>
  %v = memref.load %s[%c0, %c0] : memref<?x2xf32, strided<[4, ?], offset: ?>>
  return %v : f32
}

// -----

// A load, a store and a dealloc read through casts of ranked memrefs; a cast of a
// cast is one cast.
// CHECK-LABEL: func.func @through_casts
// CHECK-SAME: (%[[M:[^:]*]]: memref<4xf32>, %[[X:[^:]*]]: f32)
// CHECK: memref.store %[[X]], %[[M]][%{{.*}}] : memref<4xf32>
// CHECK: %[[V:.*]] = memref.load %[[M]][%{{.*}}] : memref<4xf32>
// CHECK: %[[C:.*]] = memref.cast %[[M]] : memref<4xf32> to memref<*xf32>
// CHECK: return %[[V]], %[[C]]
func.func @through_casts(%m: memref<4xf32>, %x: f32) -> (f32, memref<*xf32>) {
  %c0 = arith.constant 0 : index
  %d = memref.cast %m : memref<4xf32> to memref<?xf32>
  memref.store %x, %d[%c0] : memref<?xf32>
  %v = memref.load %d[%c0] : memref<?xf32>
  %u = memref.cast %d : memref<?xf32> to memref<*xf32>
  return %v, %u : f32, memref<*xf32>
}

// -----

// A subview of a cast that only forgot static sizes views the cast's source; its
// more static type is cast back.
// CHECK-LABEL: func.func @subview_of_cast
// CHECK-SAME: (%[[M:[^:]*]]: memref<4x6x16x32xi8>)
// CHECK: %[[S:.*]] = memref.subview %[[M]][1, 1, 0, 0] [1, 1, 16, 32] [1, 1, 1, 1] : memref<4x6x16x32xi8> to memref<16x32xi8, strided<[32, 1], offset: 3584>>
// CHECK: %[[C:.*]] = memref.cast %[[S]] : memref<16x32xi8, strided<[32, 1], offset: 3584>> to memref<16x32xi8, strided<[32, 1], offset: ?>>
// CHECK: return %[[C]]
func.func @subview_of_cast(%m: memref<4x6x16x32xi8>) -> memref<16x32xi8, strided<[32, 1], offset: ?>> {
  %c = memref.cast %m : memref<4x6x16x32xi8> to memref<4x?x16x32xi8>
  %s = memref.subview %c[1, 1, 0, 0] [1, 1, 16, 32] [1, 1, 1, 1] : memref<4x?x16x32xi8> to memref<16x32xi8, strided<[32, 1], offset: ?>>
  return %s : memref<16x32xi8, strided<[32, 1], offset: ?>>
}

// -----

// Reshapes compose; a reshape to its own type is its source.
// CHECK-LABEL: func.func @reshapes
// CHECK-SAME: (%[[A:[^:]*]]: memref<2x3x4x5xf32>, %[[B:[^:]*]]: memref<24xf32>, %[[N:[^:]*]]: memref<5xi8>)
// CHECK: %[[C:.*]] = memref.collapse_shape %[[A]] {{\[}}[0, 1, 2], [3]] : memref<2x3x4x5xf32> into memref<24x5xf32>
// CHECK: %[[E:.*]] = memref.expand_shape %[[B]] {{\[}}[0, 1, 2]] output_shape [2, 3, 4] : memref<24xf32> into memref<2x3x4xf32>
// CHECK: return %[[C]], %[[E]], %[[N]]
func.func @reshapes(%a: memref<2x3x4x5xf32>, %b: memref<24xf32>, %n: memref<5xi8>)
    -> (memref<24x5xf32>, memref<2x3x4xf32>, memref<5xi8>) {
  %c1 = memref.collapse_shape %a [[0, 1], [2], [3]] : memref<2x3x4x5xf32> into memref<6x4x5xf32>
  %c2 = memref.collapse_shape %c1 [[0, 1], [2]] : memref<6x4x5xf32> into memref<24x5xf32>
  %e1 = memref.expand_shape %b [[0, 1]] output_shape [6, 4] : memref<24xf32> into memref<6x4xf32>
  %e2 = memref.expand_shape %e1 [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>
  %same = memref.collapse_shape %n [[0]] : memref<5xi8> into memref<5xi8>
  return %c2, %e2, %same : memref<24x5xf32>, memref<2x3x4xf32>, memref<5xi8>
}
