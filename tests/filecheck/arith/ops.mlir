// Every arith op in custom form, on scalars, vectors and tensors, with fastmath and
// overflow flags: printed back unchanged (custom, custom twice, generic -> custom).
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s

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
