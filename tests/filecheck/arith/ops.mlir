// Every arith op in custom form, on scalars, vectors and tensors, with fastmath,
// overflow and exact flags and rounding modes: printed back unchanged (custom, custom
// twice, generic -> custom).
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
//
// mlir-opt-22 reads mlc's custom and generic forms as the IR it reads here (both
// printed by it, so that values are named alike):
// RUN: %if mlir-opt %{ %mlir_opt %s > %t.theirs %}
// RUN: %if mlir-opt %{ mlc-opt %s | %mlir_opt > %t.custom %}
// RUN: %if mlir-opt %{ diff %t.custom %t.theirs %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt > %t.generic %}
// RUN: %if mlir-opt %{ diff %t.generic %t.theirs %}
// mlc reads mlir-opt's generic form as the same IR:
// RUN: %if mlir-opt %{ %mlir_opt %s --mlir-print-op-generic | mlc-opt - | %mlir_opt > %t.from-generic %}
// RUN: %if mlir-opt %{ diff %t.from-generic %t.theirs %}

// CHECK-LABEL: func.func @all(%arg0: f32, %arg1: f32, %arg2: i32, %arg3: i32, %arg4: index, %arg5: vector<4xf32>, %arg6: tensor<2x?xi64>, %arg7: i1, %arg8: vector<4xi1>, %arg9: f16, %arg10: bf16, %arg11: i64, %arg12: f64, %arg13: vector<4xi32>) {
func.func @all(%arg0: f32, %arg1: f32, %arg2: i32, %arg3: i32, %arg4: index, %arg5: vector<4xf32>, %arg6: tensor<2x?xi64>, %arg7: i1, %arg8: vector<4xi1>, %arg9: f16, %arg10: bf16, %arg11: i64, %arg12: f64, %arg13: vector<4xi32>) {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg1 : f32
  %0 = arith.addf %arg0, %arg1 : f32
  // CHECK-NEXT: %1 = arith.subf %arg0, %arg1 : f32
  %1 = arith.subf %arg0, %arg1 : f32
  // CHECK-NEXT: %2 = arith.mulf %arg0, %arg1 : f32
  %2 = arith.mulf %arg0, %arg1 : f32
  // CHECK-NEXT: %3 = arith.divf %arg0, %arg1 : f32
  %3 = arith.divf %arg0, %arg1 : f32
  // CHECK-NEXT: %4 = arith.remf %arg0, %arg1 : f32
  %4 = arith.remf %arg0, %arg1 : f32
  // CHECK-NEXT: %5 = arith.maximumf %arg0, %arg1 : f32
  %5 = arith.maximumf %arg0, %arg1 : f32
  // CHECK-NEXT: %6 = arith.minimumf %arg0, %arg1 : f32
  %6 = arith.minimumf %arg0, %arg1 : f32
  // CHECK-NEXT: %7 = arith.negf %arg0 : f32
  %7 = arith.negf %arg0 : f32
  // CHECK-NEXT: %8 = arith.addf %arg5, %arg5 fastmath<nnan> : vector<4xf32>
  %8 = arith.addf %arg5, %arg5 fastmath<nnan> : vector<4xf32>
  // CHECK-NEXT: %9 = arith.negf %arg9 fastmath<fast> : f16
  %9 = arith.negf %arg9 fastmath<fast> : f16
  // CHECK-NEXT: %10 = arith.cmpf olt, %arg5, %arg5 : vector<4xf32>
  %10 = arith.cmpf olt, %arg5, %arg5 : vector<4xf32>
  // CHECK-NEXT: %11 = arith.cmpf une, %arg0, %arg1 fastmath<nsz> : f32
  %11 = arith.cmpf une, %arg0, %arg1 fastmath<nsz> : f32
  // CHECK-NEXT: %12 = arith.addi %arg2, %arg3 : i32
  %12 = arith.addi %arg2, %arg3 : i32
  // CHECK-NEXT: %13 = arith.subi %arg2, %arg3 overflow<nuw> : i32
  %13 = arith.subi %arg2, %arg3 overflow<nuw> : i32
  // CHECK-NEXT: %14 = arith.muli %arg2, %arg3 overflow<nsw, nuw> : i32
  %14 = arith.muli %arg2, %arg3 overflow<nsw, nuw> : i32
  // CHECK-NEXT: %15 = arith.divsi %arg2, %arg3 : i32
  %15 = arith.divsi %arg2, %arg3 : i32
  // CHECK-NEXT: %16 = arith.divui %arg2, %arg3 : i32
  %16 = arith.divui %arg2, %arg3 : i32
  // CHECK-NEXT: %17 = arith.remsi %arg2, %arg3 : i32
  %17 = arith.remsi %arg2, %arg3 : i32
  // CHECK-NEXT: %18 = arith.remui %arg2, %arg3 : i32
  %18 = arith.remui %arg2, %arg3 : i32
  // CHECK-NEXT: %19 = arith.andi %arg2, %arg3 : i32
  %19 = arith.andi %arg2, %arg3 : i32
  // CHECK-NEXT: %20 = arith.ori %arg2, %arg3 : i32
  %20 = arith.ori %arg2, %arg3 : i32
  // CHECK-NEXT: %21 = arith.xori %arg2, %arg3 : i32
  %21 = arith.xori %arg2, %arg3 : i32
  // CHECK-NEXT: %22 = arith.addi %arg4, %arg4 : index
  %22 = arith.addi %arg4, %arg4 : index
  // CHECK-NEXT: %23 = arith.muli %arg6, %arg6 : tensor<2x?xi64>
  %23 = arith.muli %arg6, %arg6 : tensor<2x?xi64>
  // CHECK-NEXT: %24 = arith.cmpi eq, %arg6, %arg6 : tensor<2x?xi64>
  %24 = arith.cmpi eq, %arg6, %arg6 : tensor<2x?xi64>
  // CHECK-NEXT: %25 = arith.cmpi sge, %arg4, %arg4 : index
  %25 = arith.cmpi sge, %arg4, %arg4 : index
  // CHECK-NEXT: %26 = arith.select %arg7, %arg0, %arg1 : f32
  %26 = arith.select %arg7, %arg0, %arg1 : f32
  // CHECK-NEXT: %27 = arith.select %arg8, %arg5, %arg5 : vector<4xi1>, vector<4xf32>
  %27 = arith.select %arg8, %arg5, %arg5 : vector<4xi1>, vector<4xf32>
  // CHECK-NEXT: %28 = arith.select %arg7, %arg5, %arg5 : vector<4xf32>
  %28 = arith.select %arg7, %arg5, %arg5 : vector<4xf32>
  // CHECK-NEXT: %29 = arith.index_cast %arg4 : index to i32
  %29 = arith.index_cast %arg4 : index to i32
  // CHECK-NEXT: %30 = arith.index_cast %arg2 : i32 to index
  %30 = arith.index_cast %arg2 : i32 to index
  // CHECK-NEXT: %31 = arith.sitofp %arg2 : i32 to f32
  %31 = arith.sitofp %arg2 : i32 to f32
  // CHECK-NEXT: %32 = arith.uitofp %arg2 : i32 to f64
  %32 = arith.uitofp %arg2 : i32 to f64
  // CHECK-NEXT: %33 = arith.fptosi %arg0 : f32 to i32
  %33 = arith.fptosi %arg0 : f32 to i32
  // CHECK-NEXT: %34 = arith.fptoui %arg0 : f32 to i64
  %34 = arith.fptoui %arg0 : f32 to i64
  // CHECK-NEXT: %35 = arith.extf %arg9 : f16 to f32
  %35 = arith.extf %arg9 : f16 to f32
  // CHECK-NEXT: %36 = arith.extf %arg10 : bf16 to f64
  %36 = arith.extf %arg10 : bf16 to f64
  // CHECK-NEXT: %37 = arith.truncf %arg12 : f64 to f16
  %37 = arith.truncf %arg12 : f64 to f16
  // CHECK-NEXT: %38 = arith.extsi %arg2 : i32 to i64
  %38 = arith.extsi %arg2 : i32 to i64
  // CHECK-NEXT: %39 = arith.extui %arg2 : i32 to i64
  %39 = arith.extui %arg2 : i32 to i64
  // CHECK-NEXT: %40 = arith.trunci %arg11 : i64 to i8
  %40 = arith.trunci %arg11 : i64 to i8
  // CHECK-NEXT: %41 = arith.sitofp %arg13 : vector<4xi32> to vector<4xf32>
  %41 = arith.sitofp %arg13 : vector<4xi32> to vector<4xf32>
  // CHECK-NEXT: %42 = arith.addi %arg7, %arg7 : i1
  %42 = arith.addi %arg7, %arg7 : i1
  // CHECK-NEXT: %43 = arith.mulf %arg10, %arg10 : bf16
  %43 = arith.mulf %arg10, %arg10 : bf16
  // CHECK-NEXT: %44 = arith.divf %arg12, %arg12 fastmath<reassoc,contract> : f64
  %44 = arith.divf %arg12, %arg12 fastmath<reassoc,contract> : f64
  // CHECK-NEXT: %45 = arith.cmpi ne, %arg13, %arg13 : vector<4xi32>
  %45 = arith.cmpi ne, %arg13, %arg13 : vector<4xi32>
  // CHECK-NEXT: %46 = arith.cmpf true, %arg9, %arg9 : f16
  %46 = arith.cmpf true, %arg9, %arg9 : f16
  // CHECK-NEXT: return
  return
}

// Flags: `none` is the default and not printed; flags print in a fixed order, all
// fastmath flags as `fast`; extra attributes go before the colon.
// CHECK-LABEL: func.func @flags(%arg0: f32, %arg1: i32) {
func.func @flags(%arg0: f32, %arg1: i32) {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg0 : f32
  %0 = arith.addf %arg0, %arg0 fastmath<none> : f32
  // CHECK-NEXT: %1 = arith.mulf %arg0, %arg0 fastmath<nnan,ninf> : f32
  %1 = arith.mulf %arg0, %arg0 fastmath<ninf,nnan> : f32
  // CHECK-NEXT: %2 = arith.subf %arg0, %arg0 fastmath<fast> : f32
  %2 = arith.subf %arg0, %arg0 fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  // CHECK-NEXT: %3 = arith.addi %arg1, %arg1 : i32
  %3 = arith.addi %arg1, %arg1 overflow<none> : i32
  // CHECK-NEXT: %4 = arith.addi %arg1, %arg1 overflow<nsw, nuw> : i32
  %4 = arith.addi %arg1, %arg1 overflow<nuw, nsw> : i32
  // CHECK-NEXT: %5 = arith.addi %arg1, %arg1 {foo.tag = 1 : i64} : i32
  %5 = arith.addi %arg1, %arg1 {foo.tag = 1 : i64} : i32
  // CHECK-NEXT: %6 = arith.negf %arg0 fastmath<afn> {foo.tag} : f32
  %6 = arith.negf %arg0 fastmath<afn> {foo.tag} : f32
  // CHECK-NEXT: %7 = arith.cmpf ord, %arg0, %arg0 fastmath<nnan> : f32
  %7 = arith.cmpf ord, %arg0, %arg0 fastmath<nnan> : f32
  // CHECK-NEXT: %8 = arith.cmpi ule, %arg1, %arg1 {foo.tag} : i32
  %8 = arith.cmpi ule, %arg1, %arg1 {foo.tag} : i32
  // CHECK-NEXT: %9 = arith.extsi %arg1 {foo.tag} : i32 to i64
  %9 = arith.extsi %arg1 {foo.tag} : i32 to i64
  // CHECK-NEXT: %c1_i32 = arith.constant {foo.tag} 1 : i32
  %c1_i32 = arith.constant {foo.tag} 1 : i32
  return
}

// Every predicate of cmpi and cmpf.
// CHECK-LABEL: func.func @predicates(%arg0: i8, %arg1: f64) {
func.func @predicates(%arg0: i8, %arg1: f64) {
  // CHECK-NEXT: arith.cmpi eq, %arg0, %arg0 : i8
  // CHECK-NEXT: arith.cmpi ne, %arg0, %arg0 : i8
  // CHECK-NEXT: arith.cmpi slt, %arg0, %arg0 : i8
  // CHECK-NEXT: arith.cmpi sle, %arg0, %arg0 : i8
  // CHECK-NEXT: arith.cmpi sgt, %arg0, %arg0 : i8
  // CHECK-NEXT: arith.cmpi sge, %arg0, %arg0 : i8
  // CHECK-NEXT: arith.cmpi ult, %arg0, %arg0 : i8
  // CHECK-NEXT: arith.cmpi ule, %arg0, %arg0 : i8
  // CHECK-NEXT: arith.cmpi ugt, %arg0, %arg0 : i8
  // CHECK-NEXT: arith.cmpi uge, %arg0, %arg0 : i8
  %0 = arith.cmpi eq, %arg0, %arg0 : i8
  %1 = arith.cmpi ne, %arg0, %arg0 : i8
  %2 = arith.cmpi slt, %arg0, %arg0 : i8
  %3 = arith.cmpi sle, %arg0, %arg0 : i8
  %4 = arith.cmpi sgt, %arg0, %arg0 : i8
  %5 = arith.cmpi sge, %arg0, %arg0 : i8
  %6 = arith.cmpi ult, %arg0, %arg0 : i8
  %7 = arith.cmpi ule, %arg0, %arg0 : i8
  %8 = arith.cmpi ugt, %arg0, %arg0 : i8
  %9 = arith.cmpi uge, %arg0, %arg0 : i8
  // CHECK-NEXT: arith.cmpf false, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf oeq, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf ogt, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf oge, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf olt, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf ole, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf one, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf ord, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf ueq, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf ugt, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf uge, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf ult, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf ule, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf une, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf uno, %arg1, %arg1 : f64
  // CHECK-NEXT: arith.cmpf true, %arg1, %arg1 : f64
  %10 = arith.cmpf false, %arg1, %arg1 : f64
  %11 = arith.cmpf oeq, %arg1, %arg1 : f64
  %12 = arith.cmpf ogt, %arg1, %arg1 : f64
  %13 = arith.cmpf oge, %arg1, %arg1 : f64
  %14 = arith.cmpf olt, %arg1, %arg1 : f64
  %15 = arith.cmpf ole, %arg1, %arg1 : f64
  %16 = arith.cmpf one, %arg1, %arg1 : f64
  %17 = arith.cmpf ord, %arg1, %arg1 : f64
  %18 = arith.cmpf ueq, %arg1, %arg1 : f64
  %19 = arith.cmpf ugt, %arg1, %arg1 : f64
  %20 = arith.cmpf uge, %arg1, %arg1 : f64
  %21 = arith.cmpf ult, %arg1, %arg1 : f64
  %22 = arith.cmpf ule, %arg1, %arg1 : f64
  %23 = arith.cmpf une, %arg1, %arg1 : f64
  %24 = arith.cmpf uno, %arg1, %arg1 : f64
  %25 = arith.cmpf true, %arg1, %arg1 : f64
  return
}

// Shifts, extrema, rounding divisions and the `exact` flag.
// CHECK-LABEL: func.func @integer_ops(%arg0: i32, %arg1: i32, %arg2: index, %arg3: vector<4xi8>, %arg4: tensor<?xi64>) {
func.func @integer_ops(%arg0: i32, %arg1: i32, %arg2: index, %arg3: vector<4xi8>, %arg4: tensor<?xi64>) {
  // CHECK-NEXT: %0 = arith.shli %arg0, %arg1 : i32
  %0 = arith.shli %arg0, %arg1 : i32
  // CHECK-NEXT: %1 = arith.shli %arg0, %arg1 overflow<nsw, nuw> : i32
  %1 = arith.shli %arg0, %arg1 overflow<nsw, nuw> : i32
  // CHECK-NEXT: %2 = arith.shrui %arg0, %arg1 : i32
  %2 = arith.shrui %arg0, %arg1 : i32
  // CHECK-NEXT: %3 = arith.shrui %arg0, %arg1 exact : i32
  %3 = arith.shrui %arg0, %arg1 exact : i32
  // CHECK-NEXT: %4 = arith.shrsi %arg3, %arg3 exact : vector<4xi8>
  %4 = arith.shrsi %arg3, %arg3 exact : vector<4xi8>
  // CHECK-NEXT: %5 = arith.shrsi %arg2, %arg2 : index
  %5 = arith.shrsi %arg2, %arg2 : index
  // CHECK-NEXT: %6 = arith.maxsi %arg0, %arg1 : i32
  %6 = arith.maxsi %arg0, %arg1 : i32
  // CHECK-NEXT: %7 = arith.maxui %arg3, %arg3 : vector<4xi8>
  %7 = arith.maxui %arg3, %arg3 : vector<4xi8>
  // CHECK-NEXT: %8 = arith.minsi %arg4, %arg4 : tensor<?xi64>
  %8 = arith.minsi %arg4, %arg4 : tensor<?xi64>
  // CHECK-NEXT: %9 = arith.minui %arg2, %arg2 : index
  %9 = arith.minui %arg2, %arg2 : index
  // CHECK-NEXT: %10 = arith.ceildivsi %arg0, %arg1 : i32
  %10 = arith.ceildivsi %arg0, %arg1 : i32
  // CHECK-NEXT: %11 = arith.ceildivui %arg3, %arg3 : vector<4xi8>
  %11 = arith.ceildivui %arg3, %arg3 : vector<4xi8>
  // CHECK-NEXT: %12 = arith.floordivsi %arg2, %arg2 : index
  %12 = arith.floordivsi %arg2, %arg2 : index
  // CHECK-NEXT: %13 = arith.divsi %arg0, %arg1 exact : i32
  %13 = arith.divsi %arg0, %arg1 exact : i32
  // CHECK-NEXT: %14 = arith.divui %arg4, %arg4 exact : tensor<?xi64>
  %14 = arith.divui %arg4, %arg4 exact : tensor<?xi64>
  // CHECK-NEXT: %15 = arith.shli %arg0, %arg1 {foo.tag} : i32
  %15 = arith.shli %arg0, %arg1 {foo.tag} : i32
  // CHECK-NEXT: %16 = arith.shrui %arg0, %arg1 exact {foo.tag} : i32
  %16 = arith.shrui %arg0, %arg1 exact {foo.tag} : i32
  // CHECK-NEXT: return
  return
}

// The extended ops give two results: the sum and its carry, the low and high halves,
// named as their declarations name them (as mlir-opt-22 names them) when the input
// does not name them.
// CHECK-LABEL: func.func @extended(%arg0: i32, %arg1: i32, %arg2: vector<4xi8>, %arg3: index) -> (i1, vector<4xi8>, index) {
func.func @extended(%arg0: i32, %arg1: i32, %arg2: vector<4xi8>, %arg3: index) -> (i1, vector<4xi8>, index) {
  // CHECK-NEXT: %sum, %overflow = arith.addui_extended %arg0, %arg1 : i32, i1
  %0:2 = arith.addui_extended %arg0, %arg1 : i32, i1
  // CHECK-NEXT: %sum_0, %overflow_1 = arith.addui_extended %arg2, %arg2 : vector<4xi8>, vector<4xi1>
  %1:2 = arith.addui_extended %arg2, %arg2 : vector<4xi8>, vector<4xi1>
  // CHECK-NEXT: %low, %high = arith.mulsi_extended %arg0, %arg1 : i32
  %2:2 = arith.mulsi_extended %arg0, %arg1 : i32
  // CHECK-NEXT: %low_2, %high_3 = arith.mului_extended %arg2, %arg2 : vector<4xi8>
  %3:2 = arith.mului_extended %arg2, %arg2 : vector<4xi8>
  // CHECK-NEXT: %x, %y = arith.mulsi_extended %arg3, %arg3 : index
  %x, %y = arith.mulsi_extended %arg3, %arg3 : index
  // CHECK-NEXT: return %overflow, %high_3, %y : i1, vector<4xi8>, index
  return %0#1, %3#1, %y : i1, vector<4xi8>, index
}

// maxnumf and minnumf take fastmath flags like the other float ops.
// CHECK-LABEL: func.func @float_ops(%arg0: f32, %arg1: f32, %arg2: vector<2xf16>) {
func.func @float_ops(%arg0: f32, %arg1: f32, %arg2: vector<2xf16>) {
  // CHECK-NEXT: %0 = arith.maxnumf %arg0, %arg1 : f32
  %0 = arith.maxnumf %arg0, %arg1 : f32
  // CHECK-NEXT: %1 = arith.minnumf %arg0, %arg1 fastmath<nnan,nsz> : f32
  %1 = arith.minnumf %arg0, %arg1 fastmath<nnan,nsz> : f32
  // CHECK-NEXT: %2 = arith.maxnumf %arg2, %arg2 fastmath<fast> : vector<2xf16>
  %2 = arith.maxnumf %arg2, %arg2 fastmath<fast> : vector<2xf16>
  // CHECK-NEXT: return
  return
}

// index_castui, bitcast (also on memrefs), truncf's rounding modes and fastmath,
// extf's fastmath, and the scaling casts.
// CHECK-LABEL: func.func @casts(%arg0: i32, %arg1: index, %arg2: f32, %arg3: vector<4xf16>, %arg4: memref<2xi32>, %arg5: f4E2M1FN, %arg6: f8E8M0FNU, %arg7: vector<4xf32>, %arg8: vector<4xf8E8M0FNU>) {
func.func @casts(%arg0: i32, %arg1: index, %arg2: f32, %arg3: vector<4xf16>, %arg4: memref<2xi32>, %arg5: f4E2M1FN, %arg6: f8E8M0FNU, %arg7: vector<4xf32>, %arg8: vector<4xf8E8M0FNU>) {
  // CHECK-NEXT: %0 = arith.index_castui %arg0 : i32 to index
  %0 = arith.index_castui %arg0 : i32 to index
  // CHECK-NEXT: %1 = arith.index_castui %arg1 : index to i64
  %1 = arith.index_castui %arg1 : index to i64
  // CHECK-NEXT: %2 = arith.bitcast %arg0 : i32 to f32
  %2 = arith.bitcast %arg0 : i32 to f32
  // CHECK-NEXT: %3 = arith.bitcast %arg3 : vector<4xf16> to vector<4xi16>
  %3 = arith.bitcast %arg3 : vector<4xf16> to vector<4xi16>
  // CHECK-NEXT: %4 = arith.bitcast %arg4 : memref<2xi32> to memref<2xf32>
  %4 = arith.bitcast %arg4 : memref<2xi32> to memref<2xf32>
  // CHECK-NEXT: %5 = arith.truncf %arg2 : f32 to f16
  %5 = arith.truncf %arg2 : f32 to f16
  // CHECK-NEXT: %6 = arith.truncf %arg2 to_nearest_even : f32 to bf16
  %6 = arith.truncf %arg2 to_nearest_even : f32 to bf16
  // CHECK-NEXT: %7 = arith.truncf %arg2 downward : f32 to f16
  %7 = arith.truncf %arg2 downward : f32 to f16
  // CHECK-NEXT: %8 = arith.truncf %arg2 upward fastmath<contract> : f32 to f16
  %8 = arith.truncf %arg2 upward fastmath<contract> : f32 to f16
  // CHECK-NEXT: %9 = arith.truncf %arg2 toward_zero : f32 to f8E5M2
  %9 = arith.truncf %arg2 toward_zero : f32 to f8E5M2
  // CHECK-NEXT: %10 = arith.truncf %arg2 to_nearest_away : f32 to f16
  %10 = arith.truncf %arg2 to_nearest_away : f32 to f16
  // CHECK-NEXT: %11 = arith.truncf %arg2 fastmath<fast> : f32 to f16
  %11 = arith.truncf %arg2 fastmath<fast> : f32 to f16
  // CHECK-NEXT: %12 = arith.extf %arg3 fastmath<contract> : vector<4xf16> to vector<4xf32>
  %12 = arith.extf %arg3 fastmath<contract> : vector<4xf16> to vector<4xf32>
  // CHECK-NEXT: %13 = arith.scaling_extf %arg5, %arg6 : f4E2M1FN, f8E8M0FNU to f32
  %13 = arith.scaling_extf %arg5, %arg6 : f4E2M1FN, f8E8M0FNU to f32
  // CHECK-NEXT: %14 = arith.scaling_extf %arg5, %arg6 fastmath<nnan> : f4E2M1FN, f8E8M0FNU to bf16
  %14 = arith.scaling_extf %arg5, %arg6 fastmath<nnan> : f4E2M1FN, f8E8M0FNU to bf16
  // CHECK-NEXT: %15 = arith.scaling_truncf %arg2, %arg6 : f32, f8E8M0FNU to f4E2M1FN
  %15 = arith.scaling_truncf %arg2, %arg6 : f32, f8E8M0FNU to f4E2M1FN
  // CHECK-NEXT: %16 = arith.scaling_truncf %arg7, %arg8 downward fastmath<fast> : vector<4xf32>, vector<4xf8E8M0FNU> to vector<4xf4E2M1FN>
  %16 = arith.scaling_truncf %arg7, %arg8 downward fastmath<fast> : vector<4xf32>, vector<4xf8E8M0FNU> to vector<4xf4E2M1FN>
  // CHECK-NEXT: return
  return
}
