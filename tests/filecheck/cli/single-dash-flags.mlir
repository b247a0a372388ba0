// mlir-opt's users write long flags with one dash; mlc-opt reads them the same way
// (pass flags with their options, and its own flags). -o and -p stay short flags.
// RUN: mlc-opt -canonicalize -split-input-file %s | filecheck %s
// RUN: mlc-opt -canonicalize="max-iterations=2" -cse -mlir-print-op-generic %s | filecheck %s --check-prefix=GENERIC
// RUN: mlc-opt -pcanonicalize -o%t %s && filecheck %s < %t
// RUN: not mlc-opt -no-such-flag %s 2>&1 | filecheck %s --check-prefix=UNKNOWN

// CHECK-LABEL: func.func @add_zero
// CHECK-NEXT:    return %a : i32
// GENERIC: "func.return"(%{{.*}}) : (i32) -> ()
// UNKNOWN: mlc-opt: error: unrecognized arguments: -no-such-flag
func.func @add_zero(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = arith.addi %a, %c0 : i32
  return %r : i32
}
