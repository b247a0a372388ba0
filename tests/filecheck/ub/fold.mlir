// Folding through poison, as mlir-opt-22 does: an op computing from poison gives
// poison (materialised as ub.poison of the op's result type); a select takes its other
// value; shifts and comparisons stay (a constant left operand of cmpi moves right).
// RUN: mlc-opt %s --canonicalize --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize --split-input-file | filecheck %s %}

// CHECK-LABEL: func.func @arith_on_poison
// CHECK-SAME: (%[[X:[^:]*]]: i32
// CHECK-DAG: %[[I:.*]] = ub.poison : i32
// CHECK-DAG: %[[F:.*]] = ub.poison : f32
// CHECK-DAG: %[[L:.*]] = ub.poison : i64
// CHECK-NOT: arith.addi
// CHECK-NOT: arith.mulf
// CHECK-NOT: arith.extsi
// CHECK: %[[S:.*]] = arith.shli %[[I]], %[[X]] : i32
// CHECK: %[[C:.*]] = arith.cmpi sgt, %[[X]], %[[I]] : i32
// CHECK: return %[[I]], %[[F]], %[[L]], %[[S]], %[[C]], %[[X]] : i32, f32, i64, i32, i1, i32
func.func @arith_on_poison(%x: i32, %y: f32, %c: i1) -> (i32, f32, i64, i32, i1, i32) {
  %p = ub.poison : i32
  %q = ub.poison : f32
  %0 = arith.addi %x, %p : i32
  %1 = arith.mulf %q, %y : f32
  %2 = arith.extsi %p : i32 to i64
  %3 = arith.shli %p, %x : i32
  %4 = arith.cmpi slt, %p, %x : i32
  %5 = arith.select %c, %p, %x : i32
  return %0, %1, %2, %3, %4, %5 : i32, f32, i64, i32, i1, i32
}

// -----

// CHECK-LABEL: func.func @math_and_vector_on_poison
// CHECK-DAG: %[[F:.*]] = ub.poison : f32
// CHECK-DAG: %[[V:.*]] = ub.poison : vector<4xf32>
// CHECK: %[[R:.*]] = math.rsqrt %[[F]] : f32
// CHECK: return %[[F]], %[[R]], %[[V]] : f32, f32, vector<4xf32>
func.func @math_and_vector_on_poison() -> (f32, f32, vector<4xf32>) {
  %q = ub.poison : f32
  %0 = math.sin %q : f32
  %1 = math.rsqrt %q : f32
  %2 = vector.broadcast %q : f32 to vector<4xf32>
  return %0, %1, %2 : f32, f32, vector<4xf32>
}
