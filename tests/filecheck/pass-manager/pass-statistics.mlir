// --pass-statistics prints, to stderr, the counters each pass that ran declares,
// in the order the passes first ran, summed over all the ops a pass ran on; a pass
// that declares none is listed without any.
// RUN: mlc-opt %s -p 'func.func(cse,canonicalize),symbol-dce,dce,print-ir' --pass-statistics 2>&1 >/dev/null | filecheck %s
// Skipped passes are not listed:
// RUN: mlc-opt %s -p 'cse,dce' --opt-level 2 --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=SKIPPED
// stdout is the result alone:
// RUN: mlc-opt %s -p 'cse' --pass-statistics 2>/dev/null | filecheck %s --check-prefix=OUT

// CHECK:      ===-------------------------------------------------------------------------===
// CHECK-NEXT:                          ... Pass statistics report ...
// CHECK-NEXT: ===-------------------------------------------------------------------------===
// Two duplicates in @f, one in @g:
// CHECK-NEXT: cse
// CHECK-NEXT:   (3) num-cse - ops erased as duplicates
// canonicalize folds x + 0 in @f and x | 0 in @g, two iterations each, and one
// for the declaration @dead.
// CHECK-NEXT: canonicalize
// CHECK-NEXT:   (2) num-folds - ops folded
// CHECK-NEXT:   (0) num-patterns - patterns applied
// CHECK-NEXT:   (2) num-dead - dead ops erased
// CHECK-NEXT:   (5) num-iterations - greedy iterations
// CHECK-NEXT: symbol-dce
// CHECK-NEXT:   (1) num-dce - symbols erased
// CHECK-NEXT: dce
// CHECK-NEXT:   (0) num-dead-ops - ops erased
// CHECK-NEXT:   (0) num-dead-blocks - blocks erased
// CHECK-NEXT: print-ir
// CHECK-NOT:  {{.}}

// SKIPPED:      Pass statistics report
// SKIPPED:      dce
// SKIPPED-NOT:  cse

// OUT-NOT: Pass statistics report
// OUT:     module {

func.func @f(%arg0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c0_0 = arith.constant 0 : i32
  %0 = arith.addi %arg0, %c0 : i32
  %1 = arith.addi %arg0, %c0_0 : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
func.func @g(%arg0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.ori %arg0, %c0 : i32
  %1 = arith.ori %arg0, %c0 : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
func.func private @dead()
