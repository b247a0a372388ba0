// Module constructors and destructors become LLVM's appending arrays of {priority,
// function, datum}, the datum null for #llvm.zero. The second RUN line holds
// mlir-translate-22 to the same checks (it writes null for a symbol datum too, so the
// case here has none).
// RUN: mlc-translate %s | filecheck %s
// RUN: %if mlir-translate %{ %mlir_translate --mlir-to-llvmir %s | filecheck %s %}

// CHECK-DAG: @{{"?}}llvm.global_ctors{{"?}} = appending global [2 x {{.*}}i32, ptr, ptr{{.*}} 65535, {{.*}}@{{"?}}first{{"?}}, ptr null{{.*}} 7, {{.*}}@{{"?}}second{{"?}}, ptr null
// CHECK-DAG: @{{"?}}llvm.global_dtors{{"?}} = appending global [1 x {{.*}}i32, ptr, ptr{{.*}} 0, {{.*}}@{{"?}}second{{"?}}, ptr null
llvm.func @first() {
  llvm.return
}
llvm.func @second() {
  llvm.return
}
llvm.mlir.global_ctors ctors = [@first, @second], priorities = [65535 : i32, 7 : i32], data = [#llvm.zero, #llvm.zero]
llvm.mlir.global_dtors dtors = [@second], priorities = [0 : i32], data = [#llvm.zero]
