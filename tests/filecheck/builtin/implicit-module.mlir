// Ops at the top level go into an implicit builtin.module; a file holding one module
// and nothing else has that module as its top-level op; an empty input is an empty
// module.
// RUN: mlc-opt %s --split-input-file | filecheck %s
// RUN: mlc-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK:      module {
// CHECK-NEXT:   func.func private @a()
// CHECK-NEXT:   func.func private @b()
// CHECK-NEXT: }
// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{function_type = () -> (), sym_name = "a", sym_visibility = "private"}> ({
// GENERIC-NEXT:   }) : () -> ()
func.func private @a()
func.func private @b()

// -----

// Top-level values: the module's region is a graph region, so a use may come first.
// CHECK:      module {
// CHECK-NEXT:   %0 = arith.addi %c1_i32, %c1_i32 : i32
// CHECK-NEXT:   %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: }
%0 = arith.addi %c1_i32, %c1_i32 : i32
%c1_i32 = arith.constant 1 : i32

// -----

// CHECK:      module @named {
// CHECK-NEXT:   func.func private @c()
// CHECK-NEXT: }
// CHECK-NOT:  }
// CHECK:      // -----
// GENERIC:      "builtin.module"() <{sym_name = "named"}> ({
module @named {
  func.func private @c()
}

// -----

// Two modules: both go into an implicit one.
// CHECK:      module {
// CHECK-NEXT:   module {
// CHECK-NEXT:   }
// CHECK-NEXT:   module @second {
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() <{sym_name = "second"}> ({
module {
}
module @second {
}

// -----

// A chunk with comments only.
// CHECK:      module {
// CHECK-NEXT: }
// GENERIC:      // -----
// GENERIC-NEXT: "builtin.module"() ({
// GENERIC-NEXT: ^bb0:
// GENERIC-NEXT: }) : () -> ()
