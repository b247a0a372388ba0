// What a module must be to translate, worded as mlir-translate's (which is held to the
// same expectations).
// RUN: mlc-translate %s --no-implicit-module --split-input-file --verify-diagnostics
// RUN: %if mlir-translate %{ %mlir_translate --mlir-to-llvmir %s --no-implicit-module --split-input-file --verify-diagnostics %}

// expected-error@below {{'llvm.func' op can not be translated to an LLVMIR module}}
llvm.func @outside_a_module() {
  llvm.return
}

// -----

// expected-error@below {{expected an array attribute for a module level asm}}
module attributes {llvm.module_asm = "nop"} {}

// -----

// expected-error@below {{expected a string attribute for each entry of a module level asm}}
module attributes {llvm.module_asm = ["nop", 1 : i32]} {}

// -----

module attributes {llvm.module_asm = ["nop"]} {}
