// Interoperation with MLIR's own mlir-opt on IR of the builtin, func and arith
// dialects. The IR below is as mlir-opt prints it (its value names), so both tools
// name values alike.
// REQUIRES: mlir-opt
//
// mlc's generic form, and its custom form, are read by mlir-opt as the same IR:
// RUN: %mlir_opt %s > %t.theirs
// RUN: mlc-opt %s --print-op-generic | %mlir_opt > %t.ours-generic
// RUN: diff %t.ours-generic %t.theirs
// RUN: mlc-opt %s | %mlir_opt > %t.ours-custom
// RUN: diff %t.ours-custom %t.theirs
// RUN: mlc-opt %s --print-op-generic | %mlir_opt --mlir-print-op-generic > %t.ours-gg
// RUN: %mlir_opt %s --mlir-print-op-generic > %t.theirs-gg
// RUN: diff %t.ours-gg %t.theirs-gg
//
// mlc reads what mlir-opt prints in custom form, and prints it as it prints the
// original:
// RUN: mlc-opt %s > %t.mlc
// RUN: %mlir_opt %s | mlc-opt - > %t.from-custom
// RUN: diff %t.from-custom %t.mlc
// RUN: mlc-opt %s --print-op-generic > %t.mlc-generic
// RUN: %mlir_opt %s | mlc-opt - --print-op-generic > %t.from-custom-generic
// RUN: diff %t.from-custom-generic %t.mlc-generic
//
// mlc reads what mlir-opt prints in generic form. mlir-opt's generic form names values
// %0, %1, ... where its custom form says %cst, %c0, ..., and mlc keeps the names it
// reads, so the comparison goes through mlir-opt once more:
// RUN: %mlir_opt %s --mlir-print-op-generic | mlc-opt - | %mlir_opt > %t.from-generic
// RUN: diff %t.from-generic %t.theirs
// RUN: %mlir_opt %s --mlir-print-op-generic | mlc-opt - | filecheck %s --check-prefix=FROM-GENERIC
// FROM-GENERIC-LABEL: func.func @multi(%arg0: i32) -> (i32, f32) {
// FROM-GENERIC-NEXT: %[[C2:.+]] = arith.constant 2.000000e+00 : f32
// FROM-GENERIC-NEXT: %{{.+}} = arith.constant 0 : index
// FROM-GENERIC-NEXT: %[[C7:.+]] = arith.constant 7 : i32
// FROM-GENERIC: %[[SUM:.+]] = arith.addi %arg0, %[[C7]] overflow<nsw> : i32
// FROM-GENERIC-NEXT: return %[[SUM]], %[[C2]] : i32, f32
//
// The same with locations: mlir-opt's `#loc` aliases (defined after their uses) are
// read, and every location survives both ways.
// RUN: mlc-opt %s --print-debuginfo > %t.mlc-loc
// RUN: %mlir_opt %s --mlir-print-debuginfo | mlc-opt - --print-debuginfo > %t.from-loc
// RUN: diff %t.from-loc %t.mlc-loc
// RUN: %mlir_opt %s --mlir-print-debuginfo > %t.theirs-loc
// RUN: %mlir_opt %s --mlir-print-debuginfo --mlir-print-op-generic | mlc-opt - --print-debuginfo | %mlir_opt --mlir-print-debuginfo > %t.from-loc-generic
// RUN: diff %t.from-loc-generic %t.theirs-loc
// RUN: mlc-opt %s --print-op-generic --print-debuginfo | %mlir_opt --mlir-print-debuginfo > %t.ours-loc
// RUN: diff %t.ours-loc %t.theirs-loc
//
// And what mlir-opt makes of mlc's generic output, checked directly:
// RUN: mlc-opt %s --print-op-generic | %mlir_opt | filecheck %s
// CHECK-LABEL: module @m attributes {foo.attr = 1 : i64} {
// CHECK: func.func @args(%arg0: i32 {foo.a = 1 : i64}, %arg1: memref<4xf32> {foo.b, foo.c = "x"}) -> (i32 {foo.r}, f32) attributes {foo.fn = "y"} {
// CHECK: %cst_2 = arith.constant dense_resource<blob1> : tensor<2xi32>
// CHECK: %13 = arith.muli %arg2, %arg3 overflow<nsw, nuw> : i32
// CHECK: blob1: "0x040000000100000002000000"

module @m attributes {foo.attr = 1 : i64} {
  func.func private @decl(i32, f32) -> (i1, index)
  func.func nested @nested_decl()
  func.func @args(%arg0: i32 {foo.a = 1 : i64}, %arg1: memref<4xf32> {foo.b, foo.c = "x"}) -> (i32 {foo.r}, f32) attributes {foo.fn = "y"} {
    %cst = arith.constant 1.000000e+00 : f32
    %0:2 = call @multi(%arg0) : (i32) -> (i32, f32)
    %1:2 = call @multi(%0#0) : (i32) -> (i32, f32)
    return %1#0, %cst : i32, f32
  }
  func.func @multi(%arg0: i32) -> (i32, f32) {
    %cst = arith.constant 2.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c7_i32 = arith.constant 7 : i32
    %cst_0 = arith.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
    %cst_1 = arith.constant dense<5.000000e-01> : vector<4xf16>
    %true = arith.constant true
    %cst_2 = arith.constant dense_resource<blob1> : tensor<2xi32>
    %cst_3 = arith.constant 0x7FC00000 : f32
    %0 = arith.addi %arg0, %c7_i32 overflow<nsw> : i32
    return %0, %cst : i32, f32
  }
  func.func @all(%arg0: f32, %arg1: f32, %arg2: i32, %arg3: i32, %arg4: index, %arg5: vector<4xf32>, %arg6: tensor<2x?xi64>, %arg7: i1, %arg8: vector<4xi1>, %arg9: f16, %arg10: bf16, %arg11: i64, %arg12: f64, %arg13: vector<4xi32>) -> f32 {
    %0 = arith.addf %arg0, %arg1 : f32
    %1 = arith.subf %arg0, %arg1 fastmath<fast> : f32
    %2 = arith.mulf %arg0, %arg1 fastmath<nnan,ninf> : f32
    %3 = arith.divf %arg0, %arg1 : f32
    %4 = arith.remf %arg0, %arg1 : f32
    %5 = arith.maximumf %arg0, %arg1 : f32
    %6 = arith.minimumf %arg0, %arg1 : f32
    %7 = arith.negf %arg0 : f32
    %8 = arith.addf %arg5, %arg5 fastmath<nnan> : vector<4xf32>
    %9 = arith.cmpf olt, %arg5, %arg5 : vector<4xf32>
    %10 = arith.cmpf une, %arg0, %arg1 fastmath<nsz> : f32
    %11 = arith.addi %arg2, %arg3 : i32
    %12 = arith.subi %arg2, %arg3 overflow<nuw> : i32
    %13 = arith.muli %arg2, %arg3 overflow<nsw, nuw> : i32
    %14 = arith.divsi %arg2, %arg3 : i32
    %15 = arith.divui %arg2, %arg3 : i32
    %16 = arith.remsi %arg2, %arg3 : i32
    %17 = arith.remui %arg2, %arg3 : i32
    %18 = arith.andi %arg2, %arg3 : i32
    %19 = arith.ori %arg2, %arg3 : i32
    %20 = arith.xori %arg2, %arg3 : i32
    %21 = arith.addi %arg4, %arg4 : index
    %22 = arith.muli %arg6, %arg6 : tensor<2x?xi64>
    %23 = arith.cmpi eq, %arg6, %arg6 : tensor<2x?xi64>
    %24 = arith.cmpi sge, %arg4, %arg4 : index
    %25 = arith.select %arg7, %arg0, %arg1 : f32
    %26 = arith.select %arg8, %arg5, %arg5 : vector<4xi1>, vector<4xf32>
    %27 = arith.select %arg7, %arg5, %arg5 : vector<4xf32>
    %28 = arith.index_cast %arg4 : index to i32
    %29 = arith.index_cast %arg2 : i32 to index
    %30 = arith.sitofp %arg2 : i32 to f32
    %31 = arith.uitofp %arg2 : i32 to f64
    %32 = arith.fptosi %arg0 : f32 to i32
    %33 = arith.fptoui %arg0 : f32 to i64
    %34 = arith.extf %arg9 : f16 to f32
    %35 = arith.extf %arg10 : bf16 to f64
    %36 = arith.truncf %arg12 : f64 to f16
    %37 = arith.extsi %arg2 : i32 to i64
    %38 = arith.extui %arg2 : i32 to i64
    %39 = arith.trunci %arg11 : i64 to i8
    %40 = arith.sitofp %arg13 : vector<4xi32> to vector<4xf32>
    %41 = arith.divf %arg12, %arg12 fastmath<reassoc,contract> : f64
    %42 = arith.cmpi ne, %arg13, %arg13 : vector<4xi32>
    return %0 : f32
  }
  module @inner {
    func.func @deep(%arg0: tensor<2xf32>) -> tensor<2xf32> {
      %0 = call @deep(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32>
    }
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000"
    }
  }
#-}

