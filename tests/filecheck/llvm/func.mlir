// The llvm dialect's functions, calls, globals, constants and branches, printed as
// mlir-opt-22 prints them: a function's linkage, visibility, unnamed_addr and calling
// convention before its name (the defaults `external` and `ccc` left out), a global's
// linkage always, a string global's type implied, direct, indirect and variadic calls,
// switch cases one a line. In generic form the defaults appear as MLIR stores them.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir_opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt - | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s | %mlir_opt - | filecheck %s %}

// CHECK-LABEL: llvm.mlir.global internal constant @table(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<2 x f32>
// CHECK-LABEL: llvm.mlir.global private unnamed_addr constant @message("hi\0A\00") {addr_space = 0 : i32}
// CHECK-LABEL: llvm.mlir.global external @counter(0 : i64) {addr_space = 0 : i32} : i64
// CHECK-LABEL: llvm.mlir.global weak hidden thread_local @flag() {addr_space = 0 : i32} : i32
// CHECK-LABEL: llvm.mlir.global internal @computed() {addr_space = 0 : i32} : !llvm.struct<(i32, f32)> {
// CHECK-NEXT:    %0 = llvm.mlir.undef : !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %1 = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT:    %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, f32)> {{$}}
// CHECK-NEXT:    llvm.return %2 : !llvm.struct<(i32, f32)>
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @declared(i32, !llvm.ptr) -> f32
// CHECK-LABEL: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-LABEL: llvm.func extern_weak @maybe()
// CHECK-LABEL: llvm.func @attributes(f32) -> f32 attributes {passthrough = ["nounwind"]}
// CHECK-LABEL: llvm.func internal @arguments(%arg0: !llvm.ptr {llvm.noalias}, %arg1: !llvm.ptr {llvm.readonly}, %arg2: !llvm.ptr {llvm.align = 64 : i64}) -> (f32 {llvm.noundef}) {
// CHECK-NEXT:    %0 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %1 = llvm.call @declared(%0, %arg0) : (i32, !llvm.ptr) -> f32
// CHECK-NEXT:    llvm.return %1 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func linkonce_odr local_unnamed_addr fastcc @keywords() {
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @calls(%arg0: i32, %arg1: !llvm.ptr, %arg2: f32) -> f32 {
// CHECK-NEXT:    %0 = llvm.call @declared(%arg0, %arg1) : (i32, !llvm.ptr) -> f32
// CHECK-NEXT:    %1 = llvm.call tail @attributes(%arg2) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
// CHECK-NEXT:    %2 = llvm.call fastcc @attributes(%1) : (f32) -> f32
// CHECK-NEXT:    %3 = llvm.call @printf(%arg1, %arg0) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
// CHECK-NEXT:    %4 = llvm.mlir.addressof @attributes : !llvm.ptr
// CHECK-NEXT:    %5 = llvm.call %4(%2) : !llvm.ptr, (f32) -> f32
// CHECK-NEXT:    llvm.call @keywords() : () -> ()
// CHECK-NEXT:    llvm.return %5 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @constants() -> i32 {
// CHECK-NEXT:    %0 = llvm.mlir.constant(42 : i32) : i32
// CHECK-NEXT:    %1 = llvm.mlir.constant(true) : i1
// CHECK-NEXT:    %2 = llvm.mlir.constant(1.500000e+00 : f32) : f32
// CHECK-NEXT:    %3 = llvm.mlir.constant(dense<[1, 2, 3, 4]> : vector<4xi32>) : vector<4xi32>
// CHECK-NEXT:    %4 = llvm.mlir.constant(dense<0.000000e+00> : tensor<8xf32>) : !llvm.array<8 x f32>
// CHECK-NEXT:    %5 = llvm.mlir.constant("ab") : !llvm.array<2 x i8>
// CHECK-NEXT:    %6 = llvm.mlir.constant(1.000000e+00 : f32) : i32
// CHECK-NEXT:    %7 = llvm.mlir.undef : i32
// CHECK-NEXT:    %8 = llvm.mlir.poison : vector<4xf32>
// CHECK-NEXT:    %9 = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    %10 = llvm.mlir.addressof @message : !llvm.ptr
// CHECK-NEXT:    llvm.return %0 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @branches(%arg0: i1, %arg1: i32, %arg2: i64) -> i32 {
// CHECK-NEXT:    llvm.cond_br %arg0 weights([3, 5]), ^bb1(%arg1 : i32), ^bb2
// CHECK-NEXT:  ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:    llvm.switch %0 : i32, ^bb2 [
// CHECK-NEXT:      -1: ^bb3(%0, %arg2 : i32, i64),
// CHECK-NEXT:      42: ^bb4
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb2:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    llvm.br ^bb1(%arg1 : i32)
// CHECK-NEXT:  ^bb3(%1: i32, %2: i64):  // pred: ^bb1
// CHECK-NEXT:    llvm.switch %1 : i32, ^bb4 [
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb4:  // 2 preds: ^bb1, ^bb3
// CHECK-NEXT:    llvm.return %arg1 : i32
// CHECK-NEXT:  ^bb5:  // no predecessors
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  }

// GENERIC: "llvm.mlir.global"() <{addr_space = 0 : i32, alignment = 16 : i64, constant, global_type = !llvm.array<2 x f32>, linkage = #llvm.linkage<internal>, sym_name = "table", unnamed_addr = 0 : i64, value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.mlir.global"() <{addr_space = 0 : i32, constant, global_type = !llvm.array<4 x i8>, linkage = #llvm.linkage<private>, sym_name = "message", unnamed_addr = 2 : i64, value = "hi\0A\00", visibility_ = 0 : i64}> ({
// GENERIC: "llvm.mlir.global"() <{addr_space = 0 : i32, global_type = i64, linkage = #llvm.linkage<external>, sym_name = "counter", unnamed_addr = 0 : i64, value = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.mlir.global"() <{addr_space = 0 : i32, global_type = i32, linkage = #llvm.linkage<weak>, sym_name = "flag", thread_local_, unnamed_addr = 0 : i64, visibility_ = 1 : i64}> ({
// GENERIC: "llvm.mlir.global"() <{addr_space = 0 : i32, global_type = !llvm.struct<(i32, f32)>, linkage = #llvm.linkage<internal>, sym_name = "computed", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.mlir.constant"() <{value = 7 : i32}> : () -> i32
// GENERIC: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<f32 (i32, ptr)>, linkage = #llvm.linkage<external>, sym_name = "declared", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (ptr, ...)>, linkage = #llvm.linkage<external>, sym_name = "printf", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<extern_weak>, sym_name = "maybe", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<f32 (f32)>, linkage = #llvm.linkage<external>, passthrough = ["nounwind"], sym_name = "attributes", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.func"() <{CConv = #llvm.cconv<ccc>, arg_attrs = [{llvm.noalias}, {llvm.readonly}, {llvm.align = 64 : i64}], function_type = !llvm.func<f32 (ptr, ptr, ptr)>, linkage = #llvm.linkage<internal>, res_attrs = [{llvm.noundef}], sym_name = "arguments", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.mlir.constant"() <{value = 1 : i32}> : () -> i32
// GENERIC: "llvm.call"({{.*}}) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @declared, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0>}> : (i32, !llvm.ptr) -> f32
// GENERIC: "llvm.func"() <{CConv = #llvm.cconv<fastcc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<linkonce_odr>, sym_name = "keywords", unnamed_addr = 1 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<f32 (i32, ptr, f32)>, linkage = #llvm.linkage<external>, sym_name = "calls", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.call"({{.*}}) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @declared, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0>}> : (i32, !llvm.ptr) -> f32
// GENERIC: "llvm.call"({{.*}}) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<tail>, callee = @attributes, fastmathFlags = #llvm.fastmath<fast>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (f32) -> f32
// GENERIC: "llvm.call"({{.*}}) <{CConv = #llvm.cconv<fastcc>, TailCallKind = #llvm.tailcallkind<none>, callee = @attributes, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (f32) -> f32
// GENERIC: "llvm.call"({{.*}}) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @printf, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0>, var_callee_type = !llvm.func<i32 (ptr, ...)>}> : (!llvm.ptr, i32) -> i32
// GENERIC: "llvm.mlir.addressof"() <{global_name = @attributes}> : () -> !llvm.ptr
// GENERIC: "llvm.call"({{.*}}) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0>}> : (!llvm.ptr, f32) -> f32
// GENERIC: "llvm.call"() <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @keywords, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 0, 0>}> : () -> ()
// GENERIC: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 ()>, linkage = #llvm.linkage<external>, sym_name = "constants", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.mlir.constant"() <{value = 42 : i32}> : () -> i32
// GENERIC: "llvm.mlir.constant"() <{value = true}> : () -> i1
// GENERIC: "llvm.mlir.constant"() <{value = 1.500000e+00 : f32}> : () -> f32
// GENERIC: "llvm.mlir.constant"() <{value = dense<[1, 2, 3, 4]> : vector<4xi32>}> : () -> vector<4xi32>
// GENERIC: "llvm.mlir.constant"() <{value = dense<0.000000e+00> : tensor<8xf32>}> : () -> !llvm.array<8 x f32>
// GENERIC: "llvm.mlir.constant"() <{value = "ab"}> : () -> !llvm.array<2 x i8>
// GENERIC: "llvm.mlir.constant"() <{value = 1.000000e+00 : f32}> : () -> i32
// GENERIC: "llvm.mlir.addressof"() <{global_name = @message}> : () -> !llvm.ptr
// GENERIC: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (i1, i32, i64)>, linkage = #llvm.linkage<external>, sym_name = "branches", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC: "llvm.cond_br"({{.*}})[^bb1, ^bb2] <{branch_weights = array<i32: 3, 5>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
// GENERIC: "llvm.switch"({{.*}})[^bb2, ^bb3, ^bb4] <{case_operand_segments = array<i32: 2, 0>, case_values = dense<[-1, 42]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 0, 2>}> : (i32, i32, i64) -> ()
// GENERIC: "llvm.switch"({{.*}})[^bb4] <{case_operand_segments = array<i32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()

llvm.mlir.global internal constant @table(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<2 x f32>
llvm.mlir.global private unnamed_addr constant @message("hi\0A\00") {addr_space = 0 : i32}
llvm.mlir.global external @counter(0 : i64) {addr_space = 0 : i32} : i64
llvm.mlir.global weak hidden thread_local @flag() {addr_space = 0 : i32} : i32
llvm.mlir.global internal @computed() {addr_space = 0 : i32} : !llvm.struct<(i32, f32)> {
  %0 = llvm.mlir.undef : !llvm.struct<(i32, f32)>
  %1 = llvm.mlir.constant(7 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, f32)> 
  llvm.return %2 : !llvm.struct<(i32, f32)>
}
llvm.func @declared(i32, !llvm.ptr) -> f32
llvm.func @printf(!llvm.ptr, ...) -> i32
llvm.func extern_weak @maybe()
llvm.func @attributes(f32) -> f32 attributes {passthrough = ["nounwind"]}
llvm.func internal @arguments(%arg0: !llvm.ptr {llvm.noalias}, %arg1: !llvm.ptr {llvm.readonly}, %arg2: !llvm.ptr {llvm.align = 64 : i64}) -> (f32 {llvm.noundef}) {
  %0 = llvm.mlir.constant(1 : i32) : i32
  %1 = llvm.call @declared(%0, %arg0) : (i32, !llvm.ptr) -> f32
  llvm.return %1 : f32
}
llvm.func linkonce_odr local_unnamed_addr fastcc @keywords() {
  llvm.return
}
llvm.func @calls(%arg0: i32, %arg1: !llvm.ptr, %arg2: f32) -> f32 {
  %0 = llvm.call @declared(%arg0, %arg1) : (i32, !llvm.ptr) -> f32
  %1 = llvm.call tail @attributes(%arg2) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
  %2 = llvm.call fastcc @attributes(%1) : (f32) -> f32
  %3 = llvm.call @printf(%arg1, %arg0) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  %4 = llvm.mlir.addressof @attributes : !llvm.ptr
  %5 = llvm.call %4(%2) : !llvm.ptr, (f32) -> f32
  llvm.call @keywords() : () -> ()
  llvm.return %5 : f32
}
llvm.func @constants() -> i32 {
  %0 = llvm.mlir.constant(42 : i32) : i32
  %1 = llvm.mlir.constant(true) : i1
  %2 = llvm.mlir.constant(1.500000e+00 : f32) : f32
  %3 = llvm.mlir.constant(dense<[1, 2, 3, 4]> : vector<4xi32>) : vector<4xi32>
  %4 = llvm.mlir.constant(dense<0.000000e+00> : tensor<8xf32>) : !llvm.array<8 x f32>
  %5 = llvm.mlir.constant("ab") : !llvm.array<2 x i8>
  %6 = llvm.mlir.constant(1.000000e+00 : f32) : i32
  %7 = llvm.mlir.undef : i32
  %8 = llvm.mlir.poison : vector<4xf32>
  %9 = llvm.mlir.zero : !llvm.ptr
  %10 = llvm.mlir.addressof @message : !llvm.ptr
  llvm.return %0 : i32
}
llvm.func @branches(%arg0: i1, %arg1: i32, %arg2: i64) -> i32 {
  llvm.cond_br %arg0 weights([3, 5]), ^bb1(%arg1 : i32), ^bb2
^bb1(%0: i32):  // 2 preds: ^bb0, ^bb2
  llvm.switch %0 : i32, ^bb2 [
    -1: ^bb3(%0, %arg2 : i32, i64),
    42: ^bb4
  ]
^bb2:  // 2 preds: ^bb0, ^bb1
  llvm.br ^bb1(%arg1 : i32)
^bb3(%1: i32, %2: i64):  // pred: ^bb1
  llvm.switch %1 : i32, ^bb4 [
  ]
^bb4:  // 2 preds: ^bb1, ^bb3
  llvm.return %arg1 : i32
^bb5:  // no predecessors
  llvm.unreachable
}

// Constructors and destructors: a priority and a datum (a symbol or #llvm.zero) each.
// CHECK-LABEL: llvm.func @run_first() {
// CHECK:       llvm.mlir.global_ctors ctors = [@run_first], priorities = [101 : i32], data = [#llvm.zero]
// CHECK-NEXT:  llvm.mlir.global_dtors dtors = [@run_first], priorities = [65535 : i32], data = [@table]
// GENERIC:     "llvm.mlir.global_ctors"() <{ctors = [@run_first], data = [#llvm.zero], priorities = [101 : i32]}> : () -> ()
llvm.func @run_first() {
  llvm.return
}
llvm.mlir.global_ctors ctors = [@run_first], priorities = [101 : i32], data = [#llvm.zero]
llvm.mlir.global_dtors dtors = [@run_first], priorities = [65535 : i32], data = [@table]

// A call's signature carries argument and result attributes, as the callee's does.
// CHECK-LABEL: llvm.func @pass_aligned(
// CHECK-NEXT:    %{{.*}} = llvm.call @take_aligned(%arg0) : (i32 {llvm.alignstack = 8 : i64}) -> (i32 {llvm.zeroext})
llvm.func @take_aligned(i32 {llvm.alignstack = 8 : i64}) -> (i32 {llvm.zeroext})
llvm.func @pass_aligned(%arg0: i32) -> i32 {
  %0 = llvm.call @take_aligned(%arg0) : (i32 {llvm.alignstack = 8 : i64}) -> (i32 {llvm.zeroext})
  llvm.return %0 : i32
}
