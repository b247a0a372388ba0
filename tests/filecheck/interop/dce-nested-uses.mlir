// Ops used only in regions nested in unregistered ops: mlc-opt's dce and canonicalize
// leave what mlir-opt-22's canonicalize leaves (mlir has no dce pass; canonicalize
// erases dead ops), and its cse what mlir-opt-22's cse leaves. The outputs are read
// back by mlir-opt, so value names do not matter.
// REQUIRES: mlir-opt
// RUN: %mlir_opt %s --allow-unregistered-dialect --canonicalize > %t.theirs
// RUN: mlc-opt %s --allow-unregistered-dialect --dce | %mlir_opt --allow-unregistered-dialect > %t.ours
// RUN: diff %t.ours %t.theirs
// RUN: mlc-opt %s --allow-unregistered-dialect --canonicalize | %mlir_opt --allow-unregistered-dialect > %t.ours
// RUN: diff %t.ours %t.theirs
// RUN: %mlir_opt %s --allow-unregistered-dialect --cse > %t.theirs
// RUN: mlc-opt %s --allow-unregistered-dialect --cse | %mlir_opt --allow-unregistered-dialect > %t.ours
// RUN: diff %t.ours %t.theirs
// The inputs still hold the ops that die, so the passes did something.
// RUN: %mlir_opt %s --allow-unregistered-dialect > %t.input
// RUN: not diff %t.input %t.theirs > /dev/null

module {
  func.func @nested_use(%arg0: i32) {
    %0 = arith.addi %arg0, %arg0 : i32
    "foo.region"() ({
      "foo.use"(%0) : (i32) -> ()
    }) : () -> ()
    return
  }
  func.func @deeply_nested_use(%arg0: i32) {
    %0 = arith.addi %arg0, %arg0 : i32
    %1 = arith.muli %arg0, %arg0 : i32
    "foo.region"() ({
      "foo.region"() ({
        %2 = arith.subi %0, %1 : i32
        "foo.use"(%2) : (i32) -> ()
      }) : () -> ()
    }) : () -> ()
    return
  }
  func.func @dead_users_beside_nested_use(%arg0: i32) {
    %0 = arith.addi %arg0, %arg0 : i32
    %1 = arith.muli %0, %0 : i32
    "foo.region"() ({
      %3 = arith.muli %0, %arg0 : i32
      %4 = arith.xori %3, %0 : i32
      "foo.use"(%3) : (i32) -> ()
    }) : () -> ()
    %2 = arith.andi %0, %0 : i32
    return
  }
  func.func @nested_use_in_graph_region(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32
    %1 = "foo.graph"() ({
      "foo.yield"(%2) : (i32) -> ()
      %2 = arith.muli %0, %0 : i32
    }) : () -> i32
    return %1 : i32
  }
  func.func @nested_use_from_entry_block(%arg0: i32, %arg1: i1) {
    %0 = arith.addi %arg0, %arg0 : i32
    "foo.region"() ({
      %1 = arith.muli %0, %0 : i32
      "foo.region"() ({
        "foo.use"(%1) : (i32) -> ()
      }) : () -> ()
    }) : () -> ()
    return
  }
}
