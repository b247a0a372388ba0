// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect %}
// --allow-unregistered-dialect accepts the ops of dialects that are not there, not
// unknown ops of a registered dialect (checked against mlir-opt-22).

func.func @f(%a : f16) {
  "nowhere.op"(%a) : (f16) -> ()
  // expected-error@+1 {{unregistered operation 'arith.halve' found in dialect ('arith') that does not allow unknown operations}}
  %0 = "arith.halve"(%a) : (f16) -> f16
  return
}
