// Regression (fixed): cse treats an unregistered op as not isolated from above, so it makes the
// op's regions use values defined outside of it: the `arith.constant 7` inside
// "foo.isolated" is replaced by the equal constant before it. An unregistered op
// might be isolated from above (MLIR checks `mightHaveTrait<IsIsolatedFromAbove>`,
// true for unregistered ops): mlir-opt-22 --cse --allow-unregistered-dialect keeps
// the inner constant. (canonicalize gets this right now: canonicalize-regions.mlir.)
// RUN: mlc-opt %s --cse --allow-unregistered-dialect | filecheck %s

// CHECK-LABEL: func.func @f(%arg0: i32)
// CHECK:         "foo.isolated"() ({
// CHECK-NEXT:      %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT:      "foo.use"(%[[C]]) : (i32) -> ()
// CHECK-NEXT:    }) : () -> ()
func.func @f(%arg0: i32) -> i32 {
  %c7 = arith.constant 7 : i32
  %0 = arith.addi %arg0, %c7 : i32
  "foo.isolated"() ({
    %c7_0 = arith.constant 7 : i32
    "foo.use"(%c7_0) : (i32) -> ()
  }) : () -> ()
  return %0 : i32
}
