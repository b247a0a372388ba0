// An op whose only uses are inside a region nested in another op (unregistered, or a
// registered op with regions as test.if and test.for) is live: dce, canonicalize and
// cse keep it, erase what is dead around it, and do not fail. A dead op with regions
// of its own (test.if has the effects of its body: none) dies with what only it used
// (cse, as MLIR's, erases an op dead when it gets there, and keeps what a later
// erasure leaves unused). interop/dce-nested-uses.mlir checks the unregistered
// cases against mlir-opt-22.
// RUN: mlc-opt %s --split-input-file --allow-unregistered-dialect --dce | filecheck %s --check-prefixes=CHECK,ERASE
// RUN: mlc-opt %s --split-input-file --allow-unregistered-dialect --canonicalize | filecheck %s --check-prefixes=CHECK,ERASE
// RUN: mlc-opt %s --split-input-file --allow-unregistered-dialect --cse | filecheck %s --check-prefixes=CHECK,CSE

// CHECK-LABEL: func.func @nested_use(%a: i32) {
// CHECK-NEXT:    %0 = arith.addi %a, %a : i32
// CHECK-NEXT:    "foo.region"() ({
// CHECK-NEXT:      "foo.use"(%0) : (i32) -> ()
func.func @nested_use(%a: i32) {
  %0 = arith.addi %a, %a : i32
  "foo.region"() ({
    "foo.use"(%0) : (i32) -> ()
  }) : () -> ()
  return
}

// -----

// Two levels down, through an op that is itself pure.
// CHECK-LABEL: func.func @deeply_nested_use(%a: i32) {
// CHECK-NEXT:    %0 = arith.addi %a, %a : i32
// CHECK-NEXT:    %1 = arith.muli %a, %a : i32
// CHECK-NEXT:    "foo.region"() ({
// CHECK-NEXT:      "foo.region"() ({
// CHECK-NEXT:        %2 = arith.subi %0, %1 : i32
// CHECK-NEXT:        "foo.use"(%2) : (i32) -> ()
func.func @deeply_nested_use(%a: i32) {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %a, %a : i32
  "foo.region"() ({
    "foo.region"() ({
      %2 = arith.subi %0, %1 : i32
      "foo.use"(%2) : (i32) -> ()
    }) : () -> ()
  }) : () -> ()
  return
}

// -----

// Dead users of the same value, outside the region and in it, go.
// CHECK-LABEL: func.func @dead_users_beside_nested_use(%a: i32) {
// CHECK-NEXT:    %0 = arith.addi %a, %a : i32
// CHECK-NEXT:    "foo.region"() ({
// CHECK-NEXT:      %1 = arith.muli %0, %a : i32
// CHECK-NEXT:      "foo.use"(%1) : (i32) -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    return
func.func @dead_users_beside_nested_use(%a: i32) {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %0, %0 : i32
  "foo.region"() ({
    %3 = arith.muli %0, %a : i32
    %4 = arith.xori %3, %0 : i32
    "foo.use"(%3) : (i32) -> ()
  }) : () -> ()
  %2 = arith.andi %0, %0 : i32
  return
}

// -----

// A graph region: the use comes before the definition.
// CHECK-LABEL: func.func @nested_use_in_graph_region(%a: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %a, %a : i32
// CHECK-NEXT:    %1 = "foo.graph"() ({
// CHECK-NEXT:      "foo.yield"(%2) : (i32) -> ()
// CHECK-NEXT:      %2 = arith.muli %0, %0 : i32
func.func @nested_use_in_graph_region(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = "foo.graph"() ({
    "foo.yield"(%2) : (i32) -> ()
    %2 = arith.muli %0, %0 : i32
  }) : () -> i32
  return %1 : i32
}

// -----

// CHECK-LABEL: func.func @use_in_live_if(%a: i32, %c: i1) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %a, %a : i32
// CHECK-NEXT:    %1 = test.if %c {
// CHECK-NEXT:      %2 = arith.muli %0, %0 : i32
func.func @use_in_live_if(%a: i32, %c: i1) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = test.if %c {
    %2 = arith.muli %0, %0 : i32
    test.yield %2 : i32
  } else {
    test.yield %a : i32
  } -> i32
  return %1 : i32
}

// -----

// CHECK-LABEL: func.func @use_in_loop_body(%a: i32, %n: index) -> i32 {
// CHECK:         %0 = arith.addi %a, %a : i32
// CHECK:         %1 = test.for
// CHECK-NEXT:    ^bb0(%i: index, %acc: i32):
// CHECK-NEXT:      %2 = arith.muli %acc, %0 : i32
func.func @use_in_loop_body(%a: i32, %n: index) -> i32 {
  %0 = arith.addi %a, %a : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %1 = test.for %c0 to %n step %c1 iter_args(%a : i32) {
  ^bb0(%i: index, %acc: i32):
    %2 = arith.muli %acc, %0 : i32
    test.yield %2 : i32
  } -> i32
  return %1 : i32
}

// -----

// The use is in a region of an op of another block.
// CHECK-LABEL: func.func @use_in_successor_block(%a: i32, %c: i1) {
// CHECK-NEXT:    %0 = arith.addi %a, %a : i32
// CHECK:         %1 = test.if %c {
// CHECK-NEXT:      test.yield %0 : i32
func.func @use_in_successor_block(%a: i32, %c: i1) {
  %0 = arith.addi %a, %a : i32
  "foo.br"()[^bb1] : () -> ()
^bb1:
  "foo.region"() ({
    %1 = test.if %c {
      test.yield %0 : i32
    } else {
      test.yield %a : i32
    } -> i32
    "foo.use"(%1) : (i32) -> ()
  }) : () -> ()
  return
}

// -----

// CHECK-LABEL: func.func @dead_if(%a: i32, %c: i1) {
// ERASE-NEXT:    return
// CSE-NEXT:      %0 = arith.addi %a, %a : i32
// CSE-NEXT:      return
func.func @dead_if(%a: i32, %c: i1) {
  %0 = arith.addi %a, %a : i32
  %1 = test.if %c {
    %2 = arith.muli %0, %0 : i32
    test.yield %2 : i32
  } else {
    test.yield %0 : i32
  } -> i32
  return
}
