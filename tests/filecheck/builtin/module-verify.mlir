// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}
// A module's one region has at most one block (SingleBlock), which takes no arguments
// (NoRegionArguments); in MLIR's words (checked against mlir-opt-22).

// expected-error@+1 {{'builtin.module' op region should have no arguments}}
"builtin.module"() ({
^bb0(%x : f16):
}) : () -> ()

// -----

// expected-error@+1 {{'builtin.module' op expects region #0 to have 0 or 1 blocks}}
"builtin.module"() ({
^bb0:
  "builtin.module"() ({}) : () -> ()
^bb1:
  "builtin.module"() ({}) : () -> ()
}) : () -> ()

// -----

// A nested module is checked too.
module {
  // expected-error@+1 {{'builtin.module' op region should have no arguments}}
  "builtin.module"() ({
  ^bb0(%x : i1, %y : i1):
  }) : () -> ()
}
