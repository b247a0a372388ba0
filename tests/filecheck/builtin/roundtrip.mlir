// builtin.module: named, with attributes, nested, given in generic form.
// (builtin.unrealized_conversion_cast: unrealized-cast.mlir.)
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// A single top-level module is the top-level op: it is not wrapped in another.
// CHECK-NOT: module {
// CHECK: module @m attributes {foo.attr = 1 : i64, foo.other = "x"} {
// GENERIC: "builtin.module"() <{sym_name = "m"}> ({
module @m attributes {foo.other = "x", foo.attr = 1 : i64} {
  // CHECK-NEXT: module @inner {
  // CHECK-NEXT: }
  // GENERIC: "builtin.module"() <{sym_name = "inner"}> ({
  // GENERIC-NEXT: ^bb0:
  // GENERIC-NEXT: }) : () -> ()
  module @inner {
  }
  // CHECK-NEXT: module {
  // CHECK-NEXT:   func.func private @in_anonymous()
  // CHECK-NEXT: }
  module {
    func.func private @in_anonymous()
  }
  // CHECK-NEXT: module @from_generic attributes {foo.k} {
  // CHECK-NEXT:   func.func private @g()
  // CHECK-NEXT: }
  "builtin.module"() <{sym_name = "from_generic"}> ({
    "func.func"() <{function_type = () -> (), sym_name = "g", sym_visibility = "private"}> ({
    }) : () -> ()
  }) {foo.k} : () -> ()

// CHECK: }
}
// CHECK-NOT: module
