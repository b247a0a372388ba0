// Regression (fixed): symbol-dce never erases symbols of `nested` visibility. A nested symbol is
// visible only to its own symbol table and the tables nested in it, so when
// nothing there references it, it is dead. mlir-opt-22 --symbol-dce erases
// @dead_nested and @dead_nested_in_module (as MLIR's own symbol-dce.mlir test
// expects), and keeps @used_nested, which a nested reference
// (@public_module::@used_nested) keeps live. mlc keeps all three.
// RUN: mlc-opt %s --symbol-dce --allow-unregistered-dialect | filecheck %s

// CHECK-LABEL: module {
// CHECK-NOT:     @dead_nested
// CHECK:         module @public_module {
// CHECK-NOT:       @dead_nested_in_module
// CHECK:           func.func nested @used_nested()
// CHECK:         func.func @live()
// CHECK-NEXT:      "foo.call"() {callee = @public_module::@used_nested} : () -> ()
func.func nested @dead_nested()

module @public_module {
  func.func nested @dead_nested_in_module()
  func.func nested @used_nested() {
    return
  }
}

func.func @live() {
  "foo.call"() {callee = @public_module::@used_nested} : () -> ()
  return
}
