// The scf ops in custom and generic form, printed as mlir-opt-22 prints them: a
// terminator that yields nothing is left out (scf.for without iter_args, scf.if
// without results), an integer induction variable is spelled after the bounds, and
// the values of nested regions are numbered after those of the region around them.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt - | filecheck %s %}

// CHECK-LABEL: func.func @f(%arg0: index, %arg1: index, %arg2: index, %arg3: i1, %arg4: f32, %arg5: i32, %arg6: i32) -> f32 {
// CHECK-NEXT:    scf.for %arg7 = %arg0 to %arg1 step %arg2 {
// CHECK-NEXT:    }
// CHECK-NEXT:    %0 = scf.for %arg7 = %arg0 to %arg1 step %arg2 iter_args(%arg8 = %arg4) -> (f32) {
// CHECK-NEXT:      %8 = arith.addf %arg8, %arg8 : f32
// CHECK-NEXT:      scf.yield %8 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %arg7 = %arg5 to %arg6 step %arg5  : i32 {
// CHECK-NEXT:    }
// CHECK-NEXT:    %1:2 = scf.for %arg7 = %arg5 to %arg6 step %arg5 iter_args(%arg8 = %arg5, %arg9 = %arg4) -> (i32, f32)  : i32 {
// CHECK-NEXT:      scf.yield %arg8, %arg9 : i32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %arg3 {
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %arg3 {
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %8 = arith.addf %arg4, %arg4 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = scf.if %arg3 -> (f32) {
// CHECK-NEXT:      scf.yield %arg4 : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %0 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %3:2 = scf.if %arg3 -> (f32, i32) {
// CHECK-NEXT:      scf.yield %arg4, %arg5 : f32, i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %0, %arg6 : f32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %4 = scf.while (%arg7 = %arg5) : (i32) -> f32 {
// CHECK-NEXT:      %8 = arith.cmpi slt, %arg7, %arg6 : i32
// CHECK-NEXT:      scf.condition(%8) %arg4 : f32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%arg7: f32):
// CHECK-NEXT:      %8 = arith.addi %arg5, %arg5 : i32
// CHECK-NEXT:      scf.yield %8 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.parallel (%arg7, %arg8) = (%arg0, %arg0) to (%arg1, %arg1) step (%arg2, %arg2) {
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK-NEXT:    %5 = scf.parallel (%arg7) = (%arg0) to (%arg1) step (%arg2) init (%arg4) -> f32 {
// CHECK-NEXT:      scf.reduce(%arg4 : f32) {
// CHECK-NEXT:      ^bb0(%arg8: f32, %arg9: f32):
// CHECK-NEXT:        %8 = arith.addf %arg8, %arg9 : f32
// CHECK-NEXT:        scf.reduce.return %8 : f32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %6 = scf.execute_region -> i32 {
// CHECK-NEXT:      scf.yield %arg5 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %7 = scf.index_switch %arg0 -> i32
// CHECK-NEXT:    case 2 {
// CHECK-NEXT:      scf.yield %arg5 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    case 5 {
// CHECK-NEXT:      scf.yield %arg6 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    default {
// CHECK-NEXT:      scf.yield %arg5 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.index_switch %arg0
// CHECK-NEXT:    default {
// CHECK-NEXT:    }
// CHECK-NEXT:    return %2 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @more(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: index, %arg4: index, %arg5: index, %arg6: i1, %arg7: i64, %arg8: i64) -> i64 {
// CHECK-NEXT:    scf.for unsigned %arg9 = %arg0 to %arg1 step %arg2  : i32 {
// CHECK-NEXT:    }
// CHECK-NEXT:    %0 = scf.execute_region -> i64 {
// CHECK-NEXT:      cf.cond_br %arg6, ^bb1, ^bb2
// CHECK-NEXT:    ^bb1:  // pred: ^bb0
// CHECK-NEXT:      scf.yield %arg7 : i64
// CHECK-NEXT:    ^bb2:  // pred: ^bb0
// CHECK-NEXT:      scf.yield %arg8 : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.execute_region no_inline {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = scf.while : () -> i64 {
// CHECK-NEXT:      scf.condition(%arg6) %arg7 : i64
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%arg9: i64):
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } attributes {tag = 1 : i32}
// CHECK-NEXT:    %2:2 = scf.parallel (%arg9) = (%arg3) to (%arg4) step (%arg5) init (%arg7, %arg8) -> (i64, i64) {
// CHECK-NEXT:      scf.reduce(%arg7, %arg8 : i64, i64) {
// CHECK-NEXT:      ^bb0(%arg10: i64, %arg11: i64):
// CHECK-NEXT:        scf.reduce.return %arg10 : i64
// CHECK-NEXT:      }, {
// CHECK-NEXT:      ^bb0(%arg10: i64, %arg11: i64):
// CHECK-NEXT:        scf.reduce.return %arg11 : i64
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0 : i64
// CHECK-NEXT:  }

func.func @f(%arg0: index, %arg1: index, %arg2: index, %arg3: i1, %arg4: f32, %arg5: i32, %arg6: i32) -> f32 {
  scf.for %arg7 = %arg0 to %arg1 step %arg2 {
  }
  %0 = scf.for %arg7 = %arg0 to %arg1 step %arg2 iter_args(%arg8 = %arg4) -> (f32) {
    %8 = arith.addf %arg8, %arg8 : f32
    scf.yield %8 : f32
  }
  scf.for %arg7 = %arg5 to %arg6 step %arg5  : i32 {
  }
  %1:2 = scf.for %arg7 = %arg5 to %arg6 step %arg5 iter_args(%arg8 = %arg5, %arg9 = %arg4) -> (i32, f32)  : i32 {
    scf.yield %arg8, %arg9 : i32, f32
  }
  scf.if %arg3 {
  }
  scf.if %arg3 {
  } else {
    %8 = arith.addf %arg4, %arg4 : f32
  }
  %2 = scf.if %arg3 -> (f32) {
    scf.yield %arg4 : f32
  } else {
    scf.yield %0 : f32
  }
  %3:2 = scf.if %arg3 -> (f32, i32) {
    scf.yield %arg4, %arg5 : f32, i32
  } else {
    scf.yield %0, %arg6 : f32, i32
  }
  %4 = scf.while (%arg7 = %arg5) : (i32) -> f32 {
    %8 = arith.cmpi slt, %arg7, %arg6 : i32
    scf.condition(%8) %arg4 : f32
  } do {
  ^bb0(%arg7: f32):
    %8 = arith.addi %arg5, %arg5 : i32
    scf.yield %8 : i32
  }
  scf.parallel (%arg7, %arg8) = (%arg0, %arg0) to (%arg1, %arg1) step (%arg2, %arg2) {
    scf.reduce 
  }
  %5 = scf.parallel (%arg7) = (%arg0) to (%arg1) step (%arg2) init (%arg4) -> f32 {
    scf.reduce(%arg4 : f32) {
    ^bb0(%arg8: f32, %arg9: f32):
      %8 = arith.addf %arg8, %arg9 : f32
      scf.reduce.return %8 : f32
    }
  }
  %6 = scf.execute_region -> i32 {
    scf.yield %arg5 : i32
  }
  %7 = scf.index_switch %arg0 -> i32 
  case 2 {
    scf.yield %arg5 : i32
  }
  case 5 {
    scf.yield %arg6 : i32
  }
  default {
    scf.yield %arg5 : i32
  }
  scf.index_switch %arg0 
  default {
  }
  return %2 : f32
}
func.func @more(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: index, %arg4: index, %arg5: index, %arg6: i1, %arg7: i64, %arg8: i64) -> i64 {
  scf.for unsigned %arg9 = %arg0 to %arg1 step %arg2  : i32 {
  }
  %0 = scf.execute_region -> i64 {
    cf.cond_br %arg6, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    scf.yield %arg7 : i64
  ^bb2:  // pred: ^bb0
    scf.yield %arg8 : i64
  }
  scf.execute_region no_inline {
    scf.yield
  }
  %1 = scf.while : () -> i64 {
    scf.condition(%arg6) %arg7 : i64
  } do {
  ^bb0(%arg9: i64):
    scf.yield
  } attributes {tag = 1 : i32}
  %2:2 = scf.parallel (%arg9) = (%arg3) to (%arg4) step (%arg5) init (%arg7, %arg8) -> (i64, i64) {
    scf.reduce(%arg7, %arg8 : i64, i64) {
    ^bb0(%arg10: i64, %arg11: i64):
      scf.reduce.return %arg10 : i64
    }, {
    ^bb0(%arg10: i64, %arg11: i64):
      scf.reduce.return %arg11 : i64
    }
  }
  return %0 : i64
}
