// Regression (fixed): a nested pipeline is scheduled on ops that are not isolated from above, and
// verify-each then verifies such an op on its own, so the values it uses from
// outside "do not dominate" it: -p 'func.func(arith.addi(cse))' fails with
//   error: verification failed after running pass 'cse'
//   error: 'arith.addi' op operand #0 does not dominate this use
// although cse changed nothing; any(any(canonicalize)) fails the same way.
// mlir-opt-22 rejects the first with "'arith.addi' op trying to schedule a pass on
// an operation not marked as 'IsolatedFromAbove'" (mlc-opt says so when it parses the
// pipeline, as arith.addi is a registered op), and runs an any(...) pipeline only on
// the ops that are isolated from above: in builtin.module(any(any(canonicalize))),
// the function of the nested module (which it canonicalizes), not the ops in the
// functions' bodies. A pipeline that is one any(...) runs on the module itself, so
// any(any(canonicalize)) canonicalizes both functions (as mlir-opt-22 does).
// RUN: not mlc-opt %s -p 'builtin.module(func.func(arith.addi(cse)))' 2>&1 | filecheck %s --check-prefix=ERR
// RUN: mlc-opt %s -p 'builtin.module(any(any(canonicalize)))' | filecheck %s
// RUN: mlc-opt %s -p 'any(any(canonicalize))' | filecheck %s --check-prefix=ROOT-ANY

// ERR: <pipeline>:1:26: error: can't schedule passes on 'arith.addi' ops: they are not marked 'IsolatedFromAbove'
// ERR-NOT: does not dominate

// CHECK-LABEL: func.func @outer(%arg0: i32)
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : i32
// CHECK-LABEL: func.func @inner(%arg0: i32)
// CHECK-NEXT:    return %arg0 : i32

// ROOT-ANY-LABEL: func.func @outer(%arg0: i32)
// ROOT-ANY-NEXT:    return %arg0 : i32
// ROOT-ANY-LABEL: func.func @inner(%arg0: i32)
// ROOT-ANY-NEXT:    return %arg0 : i32

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
