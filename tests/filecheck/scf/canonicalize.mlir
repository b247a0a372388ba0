// The canonicalization patterns of the scf ops: loops of zero or one iteration,
// iter_args that only pass through, an if on a constant or a negation, results
// nobody uses, results computed outside (selects, the condition itself), the
// condition known inside each region, an empty else, execute_region and
// index_switch inlined, while results nobody uses. The CHECK lines are
// mlir-opt-22's output; both tools pass them.
// RUN: mlc-opt %s --allow-unregistered-dialect --canonicalize | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect --canonicalize | filecheck %s %}

// CHECK-LABEL: func.func @zero(%arg0: f32, %arg1: index) -> f32 {
// CHECK-NEXT:    return %arg0 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @one(%arg0: f32) -> f32 {
// CHECK-NEXT:    %0 = arith.addf %arg0, %arg0 : f32
// CHECK-NEXT:    return %0 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @passthru(%arg0: f32, %arg1: i32, %arg2: index, %arg3: index, %arg4: index) -> (f32, i32) {
// CHECK-NEXT:    %0 = scf.for %arg5 = %arg2 to %arg3 step %arg4 iter_args(%arg6 = %arg0) -> (f32) {
// CHECK-NEXT:      %1 = arith.addf %arg6, %arg6 : f32
// CHECK-NEXT:      scf.yield %1 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0, %arg1 : f32, i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @if_const(%arg0: f32, %arg1: f32) -> f32 {
// CHECK-NEXT:    %0 = arith.addf %arg0, %arg1 : f32
// CHECK-NEXT:    return %0 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @if_select(%arg0: i1, %arg1: f32, %arg2: f32) -> (f32, i1, i1) {
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %0 = arith.select %arg0, %arg1, %arg2 : f32
// CHECK-NEXT:    %1 = arith.xori %arg0, %true : i1
// CHECK-NEXT:    return %0, %arg0, %1 : f32, i1, i1
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @if_unused(%arg0: i1, %arg1: f32, %arg2: f32) -> f32 {
// CHECK-NEXT:    %0 = scf.if %arg0 -> (f32) {
// CHECK-NEXT:      %1 = arith.addf %arg1, %arg2 : f32
// CHECK-NEXT:      scf.yield %1 : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %1 = arith.subf %arg1, %arg2 : f32
// CHECK-NEXT:      scf.yield %1 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @empty_else(%arg0: i1, %arg1: i32) {
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      "test.foo"() : () -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @cond_prop(%arg0: i1) {
// CHECK-DAG:   %false = arith.constant false
// CHECK-DAG:   %true = arith.constant true
// CHECK:         scf.if %arg0 {
// CHECK-NEXT:      "test.use"(%true) : (i1) -> ()
// CHECK-NEXT:    } else {
// CHECK-NEXT:      "test.use"(%false) : (i1) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @switch(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @exec(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @negated(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
// CHECK-NEXT:    %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %1 = arith.muli %arg1, %arg2 : i32
// CHECK-NEXT:      scf.yield %1 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %1 = arith.addi %arg1, %arg2 : i32
// CHECK-NEXT:      scf.yield %1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @loop_forwarding(%arg0: i32, %arg1: index, %arg2: index, %arg3: index) -> i32 {
// CHECK-NEXT:    scf.for %arg4 = %arg1 to %arg2 step %arg3 {
// CHECK-NEXT:      "test.use"(%arg4) : (index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @empty_loop(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:    return %arg1 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @while_unused_result() -> i32 {
// CHECK-NEXT:    %0 = scf.while : () -> i32 {
// CHECK-NEXT:      %1 = "foo.condition"() : () -> i1
// CHECK-NEXT:      %2 = "foo.get_some_value"() : () -> i32
// CHECK-NEXT:      %3 = "foo.get_some_value"() : () -> i64
// CHECK-NEXT:      scf.condition(%1) %2 : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%arg0: i32):
// CHECK-NEXT:      "foo.use"(%arg0) : (i32) -> ()
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }

func.func @zero(%arg0: f32, %arg1: index) -> f32 {
  %0 = scf.for %arg2 = %arg1 to %arg1 step %arg1 iter_args(%arg3 = %arg0) -> (f32) {
    %1 = arith.addf %arg3, %arg3 : f32
    scf.yield %1 : f32
  }
  return %0 : f32
}
func.func @one(%arg0: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %arg1 = %c0 to %c1 step %c1 iter_args(%arg2 = %arg0) -> (f32) {
    %1 = arith.addf %arg2, %arg2 : f32
    scf.yield %1 : f32
  }
  return %0 : f32
}
func.func @passthru(%arg0: f32, %arg1: i32, %arg2: index, %arg3: index, %arg4: index) -> (f32, i32) {
  %0:2 = scf.for %arg5 = %arg2 to %arg3 step %arg4 iter_args(%arg6 = %arg0, %arg7 = %arg1) -> (f32, i32) {
    %1 = arith.addf %arg6, %arg6 : f32
    scf.yield %1, %arg7 : f32, i32
  }
  return %0#0, %0#1 : f32, i32
}
func.func @if_const(%arg0: f32, %arg1: f32) -> f32 {
  %true = arith.constant true
  %0 = scf.if %true -> (f32) {
    %1 = arith.addf %arg0, %arg1 : f32
    scf.yield %1 : f32
  } else {
    scf.yield %arg1 : f32
  }
  return %0 : f32
}
func.func @if_select(%arg0: i1, %arg1: f32, %arg2: f32) -> (f32, i1, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %0:3 = scf.if %arg0 -> (f32, i1, i1) {
    scf.yield %arg1, %true, %false : f32, i1, i1
  } else {
    scf.yield %arg2, %false, %true : f32, i1, i1
  }
  return %0#0, %0#1, %0#2 : f32, i1, i1
}
func.func @if_unused(%arg0: i1, %arg1: f32, %arg2: f32) -> f32 {
  %0:2 = scf.if %arg0 -> (f32, f32) {
    %1 = arith.addf %arg1, %arg2 : f32
    %2 = arith.mulf %arg1, %arg2 : f32
    scf.yield %1, %2 : f32, f32
  } else {
    %1 = arith.subf %arg1, %arg2 : f32
    scf.yield %1, %1 : f32, f32
  }
  return %0#0 : f32
}
func.func @empty_else(%arg0: i1, %arg1: i32) {
  scf.if %arg0 {
    "test.foo"() : () -> ()
  } else {
  }
  return
}
func.func @cond_prop(%arg0: i1) {
  scf.if %arg0 {
    "test.use"(%arg0) : (i1) -> ()
  } else {
    "test.use"(%arg0) : (i1) -> ()
  }
  return
}
func.func @switch(%arg0: i32, %arg1: i32) -> i32 {
  %c2 = arith.constant 2 : index
  %0 = scf.index_switch %c2 -> i32 
  case 2 {
    scf.yield %arg0 : i32
  }
  default {
    scf.yield %arg1 : i32
  }
  return %0 : i32
}
func.func @exec(%arg0: i32) -> i32 {
  %0 = scf.execute_region -> i32 {
    %1 = arith.addi %arg0, %arg0 : i32
    scf.yield %1 : i32
  }
  return %0 : i32
}
func.func @negated(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
  %true = arith.constant true
  %0 = arith.xori %arg0, %true : i1
  %1 = scf.if %0 -> (i32) {
    %2 = arith.addi %arg1, %arg2 : i32
    scf.yield %2 : i32
  } else {
    %2 = arith.muli %arg1, %arg2 : i32
    scf.yield %2 : i32
  }
  return %1 : i32
}
func.func @loop_forwarding(%arg0: i32, %arg1: index, %arg2: index, %arg3: index) -> i32 {
  %0 = scf.for %arg4 = %arg1 to %arg2 step %arg3 iter_args(%arg5 = %arg0) -> (i32) {
    "test.use"(%arg4) : (index) -> ()
    scf.yield %arg5 : i32
  }
  return %0 : i32
}
func.func @empty_loop(%arg0: i32, %arg1: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %arg2 = %c0 to %c4 step %c1 iter_args(%arg3 = %arg0) -> (i32) {
    scf.yield %arg1 : i32
  }
  return %0 : i32
}
func.func @while_unused_result() -> i32 {
  %0:2 = scf.while : () -> (i32, i64) {
    %1 = "foo.condition"() : () -> i1
    %2 = "foo.get_some_value"() : () -> i32
    %3 = "foo.get_some_value"() : () -> i64
    scf.condition(%1) %2, %3 : i32, i64
  } do {
  ^bb0(%arg0: i32, %arg1: i64):
    "foo.use"(%arg0) : (i32) -> ()
    scf.yield
  }
  return %0#0 : i32
}
