// symbol-dce on a nested symbol table erases a `nested` symbol only when nothing
// outside the table can see it: the table is private (or has no name, or no parent).
// A module in the region of an op that is not a symbol table keeps its own symbols
// alive (an op with two regions: an unregistered op with one region may be a symbol
// table mlc cannot read, which is an error).
// RUN: mlc-opt %s --split-input-file --allow-unregistered-dialect -p 'builtin.module(builtin.module(symbol-dce))' | filecheck %s --check-prefix=NESTED
// RUN: mlc-opt %s --split-input-file --allow-unregistered-dialect --symbol-dce --verify-diagnostics | filecheck %s
// Interop: mlir-opt-22 keeps the same symbols.
// RUN: %if mlir-opt %{ mlc-opt %s --split-input-file --allow-unregistered-dialect -p 'builtin.module(builtin.module(symbol-dce))' | grep -oE '(func|module)[a-z. ]* @[a-z_]+' > %t.mlc %}
// RUN: %if mlir-opt %{ %mlir_opt %s -split-input-file --allow-unregistered-dialect -pass-pipeline='builtin.module(builtin.module(symbol-dce))' | grep -oE '(func|module)[a-z. ]* @[a-z_]+' > %t.mlir %}
// RUN: %if mlir-opt %{ diff %t.mlc %t.mlir %}

// NESTED-LABEL: module attributes {test.outer}
module attributes {test.outer} {
  // NESTED: module @visible
  // NESTED-NEXT: func.func nested @kept_in_visible()
  module @visible {
    func.func nested @kept_in_visible()
  }
  // NESTED: module @hidden attributes {sym_visibility = "private"} {
  // NESTED-NEXT: }
  module @hidden attributes {sym_visibility = "private"} {
    func.func nested @erased_in_hidden()
  }
  "user.op"() {uses = [@hidden]} : () -> ()
}

// -----

// CHECK-LABEL: module attributes {test.module_in_a_region}
// CHECK-NOT: @unused_nested
// CHECK: func.func @kept_public
module attributes {test.module_in_a_region} {
  "user.op"() ({
    module {
      func.func nested @unused_nested() {
        return
      }
      func.func @kept_public() {
        return
      }
    }
  }, {
  }) : () -> ()
}

// -----

module {
  func.func private @private_symbol()
  // expected-error@+1 {{operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses}}
  "user.maybe_a_symbol_table"() ({
  }) : () -> ()
}
