// symbol-dce: erases private symbols that nothing live references, in every
// symbol table (nested modules too). Public symbols and non-symbol ops are live
// roots; references in attributes (nested in arrays and dictionaries too) count;
// dead cycles go. A dead table's symbols count as erased with it (6 here).
// RUN: mlc-opt %s --symbol-dce --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --symbol-dce --allow-unregistered-dialect --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
//
// Interop: mlir-opt's symbol-dce keeps the same symbols.
// RUN: %if mlir-opt %{ mlc-opt %s --symbol-dce --allow-unregistered-dialect | grep -oE '@[a-z_]+' | sort -u > %t.mlc-syms %}
// RUN: %if mlir-opt %{ %mlir_opt %s --symbol-dce --allow-unregistered-dialect | grep -oE '@[a-z_]+' | sort -u > %t.mlir-syms %}
// RUN: %if mlir-opt %{ diff %t.mlc-syms %t.mlir-syms %}

// STATS:      symbol-dce
// STATS-NEXT:   (6) num-dce - symbols erased

// CHECK-LABEL: module {
// CHECK-NOT:     @dead_private
// CHECK:         func.func private @live_private() -> i32 {
// CHECK-NEXT:      %{{.*}} = call @chain() : () -> i32
// CHECK:         func.func private @chain() -> i32
// CHECK-NOT:     @dead_cycle
// CHECK:         func.func @public() -> i32
// CHECK:         module @inner {
// CHECK-NOT:       @inner_dead
// CHECK:           func.func @inner_public()
// CHECK:         "foo.ref"() {refs = [@in_array, {key = @in_dict}]} : () -> ()
// CHECK-NEXT:    func.func private @in_array()
// CHECK-NEXT:    func.func private @in_dict()
// CHECK-NOT:     @private_module
// CHECK-NOT:     @inside_private_module

func.func private @dead_private()

func.func private @live_private() -> i32 {
  %0 = func.call @chain() : () -> i32
  return %0 : i32
}

// Live only because @live_private is.
func.func private @chain() -> i32 {
  %c = arith.constant 1 : i32
  return %c : i32
}

// They reference each other, but nothing live references them.
func.func private @dead_cycle_a() {
  func.call @dead_cycle_b() : () -> ()
  return
}
func.func private @dead_cycle_b() {
  func.call @dead_cycle_a() : () -> ()
  return
}

func.func @public() -> i32 {
  %0 = func.call @live_private() : () -> i32
  return %0 : i32
}

module @inner {
  func.func private @inner_dead()
  func.func @inner_public() {
    return
  }
}

"foo.ref"() {refs = [@in_array, {key = @in_dict}]} : () -> ()
func.func private @in_array()
func.func private @in_dict()

// A private nested symbol table that nothing references goes, with its contents.
module @private_module attributes {sym_visibility = "private"} {
  func.func @inside_private_module() {
    return
  }
}
