// canonicalize: folding, constant uniquing and hoisting, and every arith
// canonicalization pattern (the DRR patterns of arith_canonicalization.py).
// Options are in canonicalize-options.mlir.
// RUN: mlc-opt %s --canonicalize | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize))' | filecheck %s
// Bottom-up reaches the same fixpoint:
// RUN: mlc-opt %s -p 'canonicalize{top-down=false}' | filecheck %s
// Canonicalized IR is a fixpoint: a second run changes nothing.
// RUN: mlc-opt %s --canonicalize > %t.once
// RUN: mlc-opt %t.once --canonicalize > %t.twice
// RUN: diff %t.once %t.twice
//
// Interop: mlc leaves the same ops, of each name, as mlir-opt's canonicalizer
// (both outputs are printed by mlir-opt, so only the op names are compared).
// RUN: %if mlir-opt %{ mlc-opt %s --canonicalize | %mlir_opt | grep -oE '(arith|func)\.[a-z_]+|return' | sort | uniq -c > %t.mlc-ops %}
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | grep -oE '(arith|func)\.[a-z_]+|return' | sort | uniq -c > %t.mlir-ops %}
// RUN: %if mlir-opt %{ diff %t.mlc-ops %t.mlir-ops %}

// -----------------------------------------------------------------------------
// Float identities. x + 0.0, x * 0.0 and x - (-0.0) are not identities in IEEE
// arithmetic (x = -0.0, NaN, infinities) and must stay.

// CHECK-LABEL: func.func @float_identities(%arg0: f32)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[NZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NOT:     arith.constant
// CHECK:         %[[SUB:.*]] = arith.subf %arg0, %[[NZERO]] : f32
// CHECK-NEXT:    %[[MUL:.*]] = arith.mulf %arg0, %[[ZERO]] : f32
// CHECK-NEXT:    %[[ADD:.*]] = arith.addf %arg0, %[[ZERO]] : f32
// CHECK-NEXT:    return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %[[SUB]], %[[MUL]], %[[ADD]] :
func.func @float_identities(%arg0: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %nzero = arith.constant -0.0 : f32
  %0 = arith.mulf %arg0, %one : f32    // x * 1.0 -> x
  %1 = arith.mulf %one, %arg0 : f32    // 1.0 * x -> x (constant moved right, then folded)
  %2 = arith.subf %arg0, %zero : f32   // x - 0.0 -> x
  %3 = arith.addf %arg0, %nzero : f32  // x + (-0.0) -> x
  %4 = arith.addf %nzero, %arg0 : f32  // (-0.0) + x -> x
  %5 = arith.divf %arg0, %one : f32    // x / 1.0 -> x
  %6 = arith.subf %arg0, %nzero : f32  // kept
  %7 = arith.mulf %arg0, %zero : f32   // kept
  %8 = arith.addf %zero, %arg0 : f32   // kept, constant moved to the right
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// -----------------------------------------------------------------------------
// Integer identities.

// CHECK-LABEL: func.func @int_identities(%arg0: i32)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[C0]], %arg0, %arg0, %arg0, %[[C0]], %[[C0]], %arg0, %arg0, %[[C0]], %arg0, %[[C0]] :
func.func @int_identities(%arg0: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.muli %arg0, %c0 : i32   // x * 0 -> 0
  %1 = arith.addi %arg0, %c0 : i32   // x + 0 -> x
  %2 = arith.addi %c0, %arg0 : i32   // 0 + x -> x
  %3 = arith.muli %arg0, %c1 : i32   // x * 1 -> x
  %4 = arith.subi %arg0, %arg0 : i32 // x - x -> 0
  %5 = arith.xori %arg0, %arg0 : i32 // x ^ x -> 0
  %6 = arith.andi %arg0, %arg0 : i32 // x & x -> x
  %7 = arith.ori %arg0, %c0 : i32    // x | 0 -> x
  %8 = arith.andi %c0, %arg0 : i32   // 0 & x -> 0
  %9 = arith.divsi %arg0, %c1 : i32  // x / 1 -> x
  %10 = arith.remui %arg0, %c1 : i32 // x % 1 -> 0
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// -----------------------------------------------------------------------------
// Constant folding: results wrap around, and division by zero is not folded.

// CHECK-LABEL: func.func @constant_folding(%arg0: i32)
// CHECK-DAG:     %[[F:.*]] = arith.constant 3.750000e+00 : f32
// CHECK-DAG:     %[[NEG:.*]] = arith.constant -1.500000e+00 : f32
// CHECK-DAG:     %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK-DAG:     %[[WRAP:.*]] = arith.constant -128 : i8
// CHECK-DAG:     %[[MUL:.*]] = arith.constant 42 : i32
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK:         %[[DIV:.*]] = arith.divsi %arg0, %[[C0]] : i32
// CHECK-NEXT:    return %[[F]], %[[NEG]], %[[INF]], %[[WRAP]], %[[MUL]], %[[TRUE]], %[[TRUE]], %[[DIV]] :
func.func @constant_folding(%arg0: i32) -> (f32, f32, f32, i8, i32, i1, i1, i32) {
  %a = arith.constant 1.5 : f32
  %b = arith.constant 2.25 : f32
  %zero = arith.constant 0.0 : f32
  %0 = arith.addf %a, %b : f32
  %1 = arith.negf %a : f32
  %2 = arith.divf %a, %zero : f32
  %max = arith.constant 127 : i8
  %one = arith.constant 1 : i8
  %3 = arith.addi %max, %one : i8
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %4 = arith.muli %c6, %c7 : i32
  %5 = arith.cmpi ult, %c6, %c7 : i32
  %6 = arith.cmpi sle, %arg0, %arg0 : i32
  %c0 = arith.constant 0 : i32
  %7 = arith.divsi %arg0, %c0 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, i8, i32, i1, i1, i32
}

// Splat constants of shaped types fold like scalars. (Non-splat ones do not:
// xfail-canonicalize-non-splat-constants.mlir.)

// CHECK-LABEL: func.func @splats(%arg0: tensor<4xf32>, %arg1: vector<2xi32>)
// CHECK-DAG:     %[[P:.*]] = arith.constant dense<42> : vector<2xi32>
// CHECK-DAG:     %[[C:.*]] = arith.constant dense<true> : vector<2xi1>
// CHECK-NOT:     arith.
// CHECK:         return %arg0, %arg1, %[[P]], %[[C]] :
func.func @splats(%arg0: tensor<4xf32>, %arg1: vector<2xi32>) -> (tensor<4xf32>, vector<2xi32>, vector<2xi32>, vector<2xi1>) {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %0 = arith.mulf %arg0, %one : tensor<4xf32>
  %zero = arith.constant dense<0> : vector<2xi32>
  %1 = arith.addi %arg1, %zero : vector<2xi32>
  %a = arith.constant dense<6> : vector<2xi32>
  %b = arith.constant dense<7> : vector<2xi32>
  %2 = arith.muli %a, %b : vector<2xi32>
  %3 = arith.cmpi slt, %a, %b : vector<2xi32>
  return %0, %1, %2, %3 : tensor<4xf32>, vector<2xi32>, vector<2xi32>, vector<2xi1>
}

// -----------------------------------------------------------------------------
// select folds.

// CHECK-LABEL: func.func @select_folds(%arg0: i32, %arg1: i32, %arg2: i1)
// CHECK-NEXT:    return %arg0, %arg1, %arg1 : i32, i32, i32
func.func @select_folds(%arg0: i32, %arg1: i32, %arg2: i1) -> (i32, i32, i32) {
  %true = arith.constant true
  %false = arith.constant false
  %0 = arith.select %true, %arg0, %arg1 : i32
  %1 = arith.select %false, %arg0, %arg1 : i32
  %2 = arith.select %arg2, %arg1, %arg1 : i32
  return %0, %1, %2 : i32, i32, i32
}

// -----------------------------------------------------------------------------
// Constants are uniqued (one per value and type) and hoisted to the start of the
// entry block; commutative ops get their constant operand on the right; dead ops
// are erased.

// CHECK-LABEL: func.func @unique_and_hoist(%arg0: i32, %arg1: i64)
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : i32
// CHECK-DAG:     %[[C5_64:.*]] = arith.constant 5 : i64
// CHECK-NOT:     arith.constant
// CHECK:         %[[A:.*]] = arith.addi %arg0, %[[C5]] : i32
// CHECK-NEXT:    %[[B:.*]] = arith.muli %[[A]], %[[C5]] : i32
// CHECK-NEXT:    %[[C:.*]] = arith.addi %arg1, %[[C5_64]] : i64
// CHECK-NEXT:    return %[[B]], %[[C]] : i32, i64
func.func @unique_and_hoist(%arg0: i32, %arg1: i64) -> (i32, i64) {
  %dead = arith.addi %arg0, %arg0 : i32
  %c5 = arith.constant 5 : i32
  %0 = arith.addi %c5, %arg0 : i32
  %c5_again = arith.constant 5 : i32
  %1 = arith.muli %0, %c5_again : i32
  %c5_i64 = arith.constant 5 : i64
  %2 = arith.addi %arg1, %c5_i64 : i64
  %unused = arith.constant 99 : i32
  return %1, %2 : i32, i64
}

// -----------------------------------------------------------------------------
// The DRR patterns, one function each (named after the pattern).

// CHECK-LABEL: func.func @AddIAddConstant(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[R]]
func.func @AddIAddConstant(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %arg0, %c3 : i32
  %1 = arith.addi %0, %c4 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @AddISubConstantRHS(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[R]]
func.func @AddISubConstantRHS(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %0 = arith.subi %arg0, %c3 : i32
  %1 = arith.addi %0, %c10 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @AddISubConstantLHS(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 13 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.subi %[[C]], %arg0 : i32
// CHECK-NEXT:    return %[[R]]
func.func @AddISubConstantLHS(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %0 = arith.subi %c3, %arg0 : i32
  %1 = arith.addi %0, %c10 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @AddIMulNegativeOneRhs(%arg0: i32, %arg1: i32)
// CHECK-NEXT:    %[[R:.*]] = arith.subi %arg0, %arg1 : i32
// CHECK-NEXT:    return %[[R]]
func.func @AddIMulNegativeOneRhs(%arg0: i32, %arg1: i32) -> i32 {
  %m1 = arith.constant -1 : i32
  %0 = arith.muli %arg1, %m1 : i32
  %1 = arith.addi %arg0, %0 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @AddIMulNegativeOneLhs(%arg0: i32, %arg1: i32)
// CHECK-NEXT:    %[[R:.*]] = arith.subi %arg1, %arg0 : i32
// CHECK-NEXT:    return %[[R]]
func.func @AddIMulNegativeOneLhs(%arg0: i32, %arg1: i32) -> i32 {
  %m1 = arith.constant -1 : i32
  %0 = arith.muli %arg0, %m1 : i32
  %1 = arith.addi %0, %arg1 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @SubIRHSAddConstant(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant -7 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[R]]
func.func @SubIRHSAddConstant(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %0 = arith.addi %arg0, %c3 : i32
  %1 = arith.subi %0, %c10 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @SubILHSAddConstant(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.subi %[[C]], %arg0 : i32
// CHECK-NEXT:    return %[[R]]
func.func @SubILHSAddConstant(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %0 = arith.addi %arg0, %c3 : i32
  %1 = arith.subi %c10, %0 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @SubIRHSSubConstantRHS(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 13 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.subi %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[R]]
func.func @SubIRHSSubConstantRHS(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %0 = arith.subi %arg0, %c3 : i32
  %1 = arith.subi %0, %c10 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @SubIRHSSubConstantLHS(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant -7 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.subi %[[C]], %arg0 : i32
// CHECK-NEXT:    return %[[R]]
func.func @SubIRHSSubConstantLHS(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %0 = arith.subi %c3, %arg0 : i32
  %1 = arith.subi %0, %c10 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @SubILHSSubConstantRHS(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 13 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.subi %[[C]], %arg0 : i32
// CHECK-NEXT:    return %[[R]]
func.func @SubILHSSubConstantRHS(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %0 = arith.subi %arg0, %c3 : i32
  %1 = arith.subi %c10, %0 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @SubILHSSubConstantLHS(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[R]]
func.func @SubILHSSubConstantLHS(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %0 = arith.subi %c3, %arg0 : i32
  %1 = arith.subi %c10, %0 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @MulIMulIConstant(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 15 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.muli %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[R]]
func.func @MulIMulIConstant(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %0 = arith.muli %arg0, %c3 : i32
  %1 = arith.muli %0, %c5 : i32
  return %1 : i32
}

// The constant arithmetic wraps around in the operand type.
// CHECK-LABEL: func.func @MulIMulIConstantWraps(%arg0: i8)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 64 : i8
// CHECK-NEXT:    %[[R:.*]] = arith.muli %arg0, %[[C]] : i8
// CHECK-NEXT:    return %[[R]]
func.func @MulIMulIConstantWraps(%arg0: i8) -> i8 {
  %c16 = arith.constant 16 : i8
  %c20 = arith.constant 20 : i8
  %0 = arith.muli %arg0, %c16 : i8
  %1 = arith.muli %0, %c20 : i8
  return %1 : i8
}

// CHECK-LABEL: func.func @XOrINotCmpI(%arg0: i32, %arg1: i32)
// CHECK-NEXT:    %[[A:.*]] = arith.cmpi sge, %arg0, %arg1 : i32
// CHECK-NEXT:    %[[B:.*]] = arith.cmpi ne, %arg0, %arg1 : i32
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi ule, %arg0, %arg1 : i32
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]]
func.func @XOrINotCmpI(%arg0: i32, %arg1: i32) -> (i1, i1, i1) {
  %true = arith.constant true
  %0 = arith.cmpi slt, %arg0, %arg1 : i32
  %1 = arith.xori %0, %true : i1
  %2 = arith.cmpi eq, %arg0, %arg1 : i32
  %3 = arith.xori %2, %true : i1
  %4 = arith.cmpi ugt, %arg0, %arg1 : i32
  %5 = arith.xori %true, %4 : i1
  return %1, %3, %5 : i1, i1, i1
}

// CHECK-LABEL: func.func @SelectNotCond(%arg0: i1, %arg1: i32, %arg2: i32)
// CHECK-NEXT:    %[[R:.*]] = arith.select %arg0, %arg2, %arg1 : i32
// CHECK-NEXT:    return %[[R]]
func.func @SelectNotCond(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
  %true = arith.constant true
  %0 = arith.xori %arg0, %true : i1
  %1 = arith.select %0, %arg1, %arg2 : i32
  return %1 : i32
}

// Only a round trip folds: i32 -> index -> i64 stays.
// CHECK-LABEL: func.func @IndexCastOfIndexCast(%arg0: i32)
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %arg0 : i32 to index
// CHECK-NEXT:    %[[W:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:    return %arg0, %[[W]] : i32, i64
func.func @IndexCastOfIndexCast(%arg0: i32) -> (i32, i64) {
  %0 = arith.index_cast %arg0 : i32 to index
  %1 = arith.index_cast %0 : index to i32
  %2 = arith.index_cast %0 : index to i64
  return %1, %2 : i32, i64
}

// Patterns and folds chain to a fixpoint: ((x + 1) + 2) - 3 is x.
// CHECK-LABEL: func.func @chained(%arg0: i32)
// CHECK-NEXT:    return %arg0 : i32
func.func @chained(%arg0: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %arg0, %c1 : i32
  %1 = arith.addi %0, %c2 : i32
  %2 = arith.subi %1, %c3 : i32
  return %2 : i32
}

// AddIMulNegativeOneRhs needs the multiplier to be -1.
// CHECK-LABEL: func.func @no_match(%arg0: i32, %arg1: i32)
// CHECK-NEXT:    %[[M:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.muli %arg1, %[[M]] : i32
// CHECK-NEXT:    %[[B:.*]] = arith.addi %arg0, %[[A]] : i32
// CHECK-NEXT:    return %[[B]]
func.func @no_match(%arg0: i32, %arg1: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = arith.muli %arg1, %c2 : i32
  %1 = arith.addi %arg0, %0 : i32
  return %1 : i32
}
