// An op in custom form is printed without its dialect's name where it is the default
// dialect of the op around it: `builtin` at the top level and in a module, `func` in a
// function; an op that declares none (here an unregistered one) has no default, so
// every name keeps its dialect there. As mlir-opt-22 prints them.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt --allow-unregistered-dialect | filecheck %s

// CHECK:      module {
// CHECK-NEXT:   module @inner {
// CHECK-NEXT:     %[[A:.*]] = unrealized_conversion_cast to i32
// CHECK-NEXT:     func.func @f() {
// CHECK-NEXT:       builtin.module {
// CHECK-NEXT:       }
// CHECK-NEXT:       %{{.*}} = builtin.unrealized_conversion_cast to i64
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   "test.region"() ({
// CHECK-NEXT:     builtin.module {
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func @g() {
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:     "test.end"() : () -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT: }
module {
  module @inner {
    %0 = unrealized_conversion_cast to i32
    func.func @f() {
      builtin.module {}
      %1 = builtin.unrealized_conversion_cast to i64
      func.return
    }
  }
  "test.region"() ({
    builtin.module {}
    func.func @g() {
      return
    }
    "test.end"() : () -> ()
  }) : () -> ()
}
