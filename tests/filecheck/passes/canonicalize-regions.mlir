// canonicalize in nested regions: constants are uniqued and hoisted up to the
// entry block of the closest region whose op is isolated from above, or may be:
// an unregistered op might be, so a constant in its region stays in it, at the
// start of the region's entry block (as mlir-opt does; mlc once hoisted it out to
// the function's entry block).
// RUN: mlc-opt %s --canonicalize --allow-unregistered-dialect | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize --allow-unregistered-dialect | filecheck %s %}

// The outer 7 stays: the region uses it. The region's own 7 is not merged with it.
// CHECK-LABEL: func.func @f(%arg0: i32)
// CHECK-DAG:     %[[C14:.*]] = arith.constant 14 : i32
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : i32
// CHECK:         %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    %[[B:.*]] = arith.addi %[[A]], %[[C14]] : i32
// CHECK-NEXT:    "foo.region"() ({
// CHECK-NEXT:      %[[IN:.*]] = arith.constant 7 : i32
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[B]], %[[C7]] : i32
// CHECK-NEXT:      "foo.use"(%[[M]]) : (i32) -> ()
// CHECK-NEXT:      "foo.use"(%[[IN]]) : (i32) -> ()
// CHECK-NEXT:      "foo.yield"() : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    return %[[B]] : i32
func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32
  %c7 = arith.constant 7 : i32
  %c7_0 = arith.constant 7 : i32
  %1 = arith.addi %0, %c7 : i32
  %2 = arith.addi %1, %c7_0 : i32
  "foo.region"() ({
    %3 = arith.muli %2, %c7 : i32
    "foo.use"(%3) : (i32) -> ()
    %c7_1 = arith.constant 7 : i32
    "foo.use"(%c7_1) : (i32) -> ()
    "foo.yield"() : () -> ()
  }) : () -> ()
  return %2 : i32
}
