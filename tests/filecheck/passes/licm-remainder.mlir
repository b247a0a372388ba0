// A remainder by zero is undefined behaviour (a trap on most targets), as is a signed
// one of MIN by -1, and so is arith.floordivsi's division: loop-invariant-code-motion
// leaves them in a loop that may not run unless the divisor is known to be safe. Here
// mlc departs from mlir-opt-22 on purpose: MLIR 22 declares arith.remsi, remui,
// floordivsi and llvm.srem, urem pure and hoists them, by zero too.
// RUN: mlc-opt %s --loop-invariant-code-motion | filecheck %s

// CHECK-LABEL: func.func @remainders
// CHECK:         %r3 = arith.remsi %x, %c3 : i32
// CHECK-NEXT:    %l3 = llvm.urem %x, %c3 : i32
// CHECK-NEXT:    %f3 = arith.floordivsi %x, %c3 : i32
// CHECK-NEXT:    %um1 = arith.remui %x, %cm1 : i32
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %a = arith.remui %x, %c0 : i32
// CHECK-NEXT:      %b = arith.remsi %x, %cm1 : i32
// CHECK-NEXT:      %c = arith.floordivsi %x, %y : i32
// CHECK-NEXT:      %d = llvm.urem %x, %y : i32
// CHECK-NEXT:      %e = llvm.srem %x, %cm1 : i32
// CHECK-NEXT:      func.call @use
func.func private @use(i32, i32, i32, i32, i32, i32, i32, i32, i32)
func.func @remainders(%lb: index, %ub: index, %x: i32, %y: i32) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %cm1 = llvm.mlir.constant(-1 : i32) : i32
  scf.for %i = %lb to %ub step %c1 {
    %a = arith.remui %x, %c0 : i32
    %b = arith.remsi %x, %cm1 : i32
    %c = arith.floordivsi %x, %y : i32
    %d = llvm.urem %x, %y : i32
    %e = llvm.srem %x, %cm1 : i32
    %r3 = arith.remsi %x, %c3 : i32
    %l3 = llvm.urem %x, %c3 : i32
    %f3 = arith.floordivsi %x, %c3 : i32
    %um1 = arith.remui %x, %cm1 : i32
    func.call @use(%a, %b, %c, %d, %e, %r3, %l3, %f3, %um1) : (i32, i32, i32, i32, i32, i32, i32, i32, i32) -> ()
  }
  return
}
