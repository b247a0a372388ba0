// mlc-translate --verify-diagnostics: each chunk's errors are checked against the
// expected-error comments (the syntax and code of mlc-opt's); the chunks that translate
// print. mlir-translate-22 is held to the same expectations.
// RUN: mlc-translate %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: %if mlir-translate %{ %mlir_translate --mlir-to-llvmir %s --split-input-file --verify-diagnostics | filecheck %s %}

// CHECK-LABEL: define i32 @fine(
// CHECK: add nuw i32
llvm.func @fine(%a: i32) -> i32 {
  %0 = llvm.add %a, %a overflow<nuw> : i32
  llvm.return %0 : i32
}

// -----

// expected-error @below{{cannot be converted to LLVM IR}}
func.func @not_lowered() {
  return
}

// -----

// expected-error @below{{LLVM attribute 'noinline' does not expect a value}}
llvm.func @valued() attributes {passthrough = [["noinline", "1"]]}

// -----

// expected-error @below{{LLVM attribute 'alignstack' expects a value}}
llvm.func @unvalued() attributes {passthrough = ["alignstack"]}

// -----

// expected-error @below{{expected arrays within 'passthrough' to contain two strings}}
llvm.func @malformed() attributes {passthrough = [["a", 1 : i32]]}

// -----

// expected-error @below{{expected 'passthrough' to contain string or array attributes}}
llvm.func @triple() attributes {passthrough = [["a", "b", "c"]]}

// -----

// CHECK-LABEL: define void @after_the_errors()
llvm.func @after_the_errors() {
  llvm.return
}
