// Regression (fixed): a nested pipeline is scheduled on ops that are not isolated from above, and
// verify-each then verifies such an op on its own, so the values it uses from
// outside "do not dominate" it: -p 'func.func(arith.addi(cse))' fails with
//   error: verification failed after running pass 'cse'
//   error: 'arith.addi' op operand #0 does not dominate this use
// although cse changed nothing; any(any(canonicalize)) fails the same way.
// mlir-opt-22 rejects the first with "'arith.addi' op trying to schedule a pass on
// an operation not marked as 'IsolatedFromAbove'", and runs an any(...) pipeline
// only on the ops that are isolated from above: here the function of the nested
// module (which it canonicalizes), not the ops in the functions' bodies.
// RUN: not mlc-opt %s -p 'func.func(arith.addi(cse))' 2>&1 | filecheck %s --check-prefix=ERR
// RUN: mlc-opt %s -p 'any(any(canonicalize))' | filecheck %s

// ERR: error: 'arith.addi' op trying to schedule a pass on an operation not marked as 'IsolatedFromAbove'
// ERR-NOT: does not dominate

// CHECK-LABEL: func.func @outer(%arg0: i32)
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : i32
// CHECK-LABEL: func.func @inner(%arg0: i32)
// CHECK-NEXT:    return %arg0 : i32

func.func @outer(%arg0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %arg0, %c0 : i32
  return %0 : i32
}
module @nested {
  func.func @inner(%arg0: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %0 = arith.addi %arg0, %c0 : i32
    return %0 : i32
  }
}
