// Control flow, memory and symbols: block arguments become phi nodes, branches,
// switch, getelementptr/load, string globals, calls. The second RUN line holds
// mlir-translate-22 to the same checks.
// RUN: mlc-translate %s | filecheck %s
// RUN: mlc-translate %s | filecheck %s --check-prefix=SYMBOL
// RUN: %if mlir-translate %{ %mlir_translate --mlir-to-llvmir %s | filecheck %s %}
// RUN: %if mlir-translate %{ %mlir_translate --mlir-to-llvmir %s | filecheck %s --check-prefix=SYMBOL %}

// SYMBOL-DAG: @{{"?}}greeting{{"?}} = internal constant [3 x i8] c"hi\00"
// SYMBOL-DAG: declare i32 @{{"?}}puts{{"?}}(ptr

// CHECK-LABEL: define i64 @{{"?}}abs_sum{{"?}}(i64 %{{.*}}, ptr %{{.*}})
// CHECK: br label
// CHECK: phi i64
// CHECK: phi i64
// CHECK: icmp sge i64
// CHECK: br i1 %{{.*}}, label %{{.*}}, label
// CHECK: getelementptr inbounds i64, ptr %{{.*}}, i64
// CHECK: load i64, ptr %{{.*}}, align 8
// CHECK: select i1
// CHECK: ret i64
llvm.func @abs_sum(%n: i64, %p: !llvm.ptr) -> i64 {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^loop(%zero, %zero : i64, i64)
^loop(%i: i64, %acc: i64):
  %done = llvm.icmp "sge" %i, %n : i64
  llvm.cond_br %done, ^exit, ^body
^body:
  %q = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  %x = llvm.load %q {alignment = 8 : i64} : !llvm.ptr -> i64
  %neg = llvm.icmp "slt" %x, %zero : i64
  %minus = llvm.sub %zero, %x : i64
  %a = llvm.select %neg, %minus, %x : i1, i64
  %next_acc = llvm.add %acc, %a : i64
  %next = llvm.add %i, %one : i64
  llvm.br ^loop(%next, %next_acc : i64, i64)
^exit:
  llvm.return %acc : i64
}

// CHECK-LABEL: define i32 @{{"?}}pick{{"?}}(i32
// CHECK: switch i32 %{{.*}}, label %{{.*}} [
// CHECK: i32 1, label
// CHECK: i32 7, label
// CHECK-DAG: ret i32 10
// CHECK-DAG: ret i32 70
// CHECK-DAG: ret i32 0

llvm.func @pick(%k: i32) -> i32 {
  llvm.switch %k : i32, ^default [
    1: ^one,
    7: ^seven
  ]
^one:
  %c1 = llvm.mlir.constant(10 : i32) : i32
  llvm.return %c1 : i32
^seven:
  %c7 = llvm.mlir.constant(70 : i32) : i32
  llvm.return %c7 : i32
^default:
  %c0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %c0 : i32
}


// CHECK-LABEL: define void @{{"?}}greet{{"?}}()
// CHECK: call i32 @{{"?}}puts{{"?}}(
// CHECK: unreachable
llvm.func @puts(!llvm.ptr) -> i32
llvm.mlir.global internal constant @greeting("hi\00") {addr_space = 0 : i32}

llvm.func @greet() {
  %s = llvm.mlir.addressof @greeting : !llvm.ptr
  %r = llvm.call @puts(%s) : (!llvm.ptr) -> i32
  llvm.unreachable
}
