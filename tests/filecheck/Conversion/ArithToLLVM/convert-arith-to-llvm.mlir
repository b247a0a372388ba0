// convert-arith-to-llvm: each arith op becomes its LLVM instruction or intrinsic, as
// mlir-opt-22's pass makes it (the same RUN lines run it, and expect the same text):
// index computed as i64 behind unrealized casts, flags carried over (overflow<nsw>,
// exact, fast-math), extrema as intrinsics, index casts as sext/zext/trunc or nothing,
// the rounding divisions expanded first.
// RUN: mlc-opt %s --convert-arith-to-llvm | filecheck %s
// RUN: mlc-opt %s --convert-arith-to-llvm --print-op-generic | mlc-opt - | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --convert-arith-to-llvm | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --convert-arith-to-llvm --print-op-generic | %mlir_opt - | filecheck %s %}
// convert-to-llvm restricted to arith's patterns is the same pass (as in MLIR).
// RUN: mlc-opt %s --convert-to-llvm="filter-dialects=arith allow-pattern-rollback=0" | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --convert-to-llvm="filter-dialects=arith" | filecheck %s %}

// CHECK-LABEL: func.func @ints(%arg0: i32, %arg1: i32, %arg2: index, %arg3: index, %arg4: vector<4xi32>) -> index {
// CHECK-NEXT:    %0 = builtin.unrealized_conversion_cast %arg3 : index to i64
// CHECK-NEXT:    %1 = builtin.unrealized_conversion_cast %arg2 : index to i64
// CHECK-NEXT:    %2 = llvm.mlir.constant(42 : i32) : i32
// CHECK-NEXT:    %3 = llvm.mlir.constant(7 : index) : i64
// CHECK-NEXT:    %4 = llvm.mlir.constant(dense<1> : vector<4xi32>) : vector<4xi32>
// CHECK-NEXT:    %5 = llvm.mlir.constant(true) : i1
// CHECK-NEXT:    %6 = llvm.add %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT:    %7 = llvm.sub %6, %2 : i32
// CHECK-NEXT:    %8 = llvm.mul %1, %0 : i64
// CHECK-NEXT:    %9 = llvm.sdiv %arg0, %arg1 : i32
// CHECK-NEXT:    %10 = llvm.udiv %arg0, %arg1 : i32
// CHECK-NEXT:    %11 = llvm.srem %arg0, %arg1 : i32
// CHECK-NEXT:    %12 = llvm.urem %arg0, %arg1 : i32
// CHECK-NEXT:    %13 = llvm.and %arg0, %arg1 : i32
// CHECK-NEXT:    %14 = llvm.or %arg0, %arg1 : i32
// CHECK-NEXT:    %15 = llvm.xor %arg0, %arg1 : i32
// CHECK-NEXT:    %16 = llvm.shl %arg0, %arg1 : i32
// CHECK-NEXT:    %17 = llvm.ashr %arg0, %arg1 : i32
// CHECK-NEXT:    %18 = llvm.lshr %arg0, %arg1 : i32
// CHECK-NEXT:    %19 = llvm.intr.smax(%arg0, %arg1) : (i32, i32) -> i32
// CHECK-NEXT:    %20 = llvm.intr.umin(%arg0, %arg1) : (i32, i32) -> i32
// CHECK-NEXT:    %21 = llvm.icmp "slt" %arg0, %arg1 : i32
// CHECK-NEXT:    %22 = llvm.icmp "eq" %1, %0 : i64
// CHECK-NEXT:    %23 = llvm.select %21, %arg0, %arg1 : i1, i32
// CHECK-NEXT:    %24 = llvm.sext %arg0 : i32 to i64
// CHECK-NEXT:    %25 = llvm.zext %arg0 : i32 to i64
// CHECK-NEXT:    %26 = llvm.trunc %arg0 : i32 to i16
// CHECK-NEXT:    %27 = llvm.trunc %1 : i64 to i32
// CHECK-NEXT:    %28 = llvm.sext %arg0 : i32 to i64
// CHECK-NEXT:    %29 = llvm.zext %arg0 : i32 to i64
// CHECK-NEXT:    %30 = llvm.add %arg4, %4 : vector<4xi32>
// CHECK-NEXT:    %31 = llvm.add %8, %3 : i64
// CHECK-NEXT:    %32 = builtin.unrealized_conversion_cast %31 : i64 to index
// CHECK-NEXT:    return %32 : index
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @floats(%arg0: f32, %arg1: f32, %arg2: f64, %arg3: vector<4xf32>) -> f32 {
// CHECK-NEXT:    %0 = llvm.mlir.constant(1.500000e+00 : f32) : f32
// CHECK-NEXT:    %1 = llvm.fadd %arg0, %arg1 {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK-NEXT:    %2 = llvm.fsub %1, %0 : f32
// CHECK-NEXT:    %3 = llvm.fmul %2, %arg1 : f32
// CHECK-NEXT:    %4 = llvm.fdiv %3, %arg1 : f32
// CHECK-NEXT:    %5 = llvm.frem %4, %arg1 : f32
// CHECK-NEXT:    %6 = llvm.fneg %5 {fastmathFlags = #llvm.fastmath<nnan>} : f32
// CHECK-NEXT:    %7 = llvm.intr.maximum(%6, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %8 = llvm.intr.minimum(%7, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %9 = llvm.intr.maxnum(%8, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %10 = llvm.intr.minnum(%9, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %11 = llvm.fcmp "olt" %10, %arg1 : f32
// CHECK-NEXT:    %12 = llvm.fcmp "_false" %10, %arg1 : f32
// CHECK-NEXT:    %13 = llvm.fpext %arg0 : f32 to f64
// CHECK-NEXT:    %14 = llvm.fptrunc %arg2 : f64 to f32
// CHECK-NEXT:    %15 = llvm.fptosi %arg0 : f32 to i32
// CHECK-NEXT:    %16 = llvm.fptoui %arg0 : f32 to i64
// CHECK-NEXT:    %17 = llvm.sitofp %15 : i32 to f32
// CHECK-NEXT:    %18 = llvm.uitofp %16 : i64 to f64
// CHECK-NEXT:    %19 = llvm.bitcast %arg0 : f32 to i32
// CHECK-NEXT:    %20 = llvm.fadd %arg3, %arg3 : vector<4xf32>
// CHECK-NEXT:    return %14 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @flags_and_expansions(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: vector<4xindex>, %arg4: index) -> i32 {
// CHECK-NEXT:    %0 = builtin.unrealized_conversion_cast %arg4 : index to i64
// CHECK-NEXT:    %1 = builtin.unrealized_conversion_cast %arg3 : vector<4xindex> to vector<4xi64>
// CHECK-NEXT:    %2 = llvm.sdiv exact %arg0, %arg1 : i32
// CHECK-NEXT:    %3 = llvm.lshr exact %arg0, %arg1 : i32
// CHECK-NEXT:    %4 = llvm.trunc %arg0 overflow<nsw> : i32 to i8
// CHECK-NEXT:    %5 = llvm.fcmp "olt" %arg2, %arg2 {fastmathFlags = #llvm.fastmath<nnan>} : f32
// CHECK-NEXT:    %6 = llvm.mlir.constant(dense<3> : vector<4xindex>) : vector<4xi64>
// CHECK-NEXT:    %7 = llvm.trunc %1 : vector<4xi64> to vector<4xi32>
// CHECK-NEXT:    %8 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %9 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %10 = llvm.sdiv %arg0, %arg1 : i32
// CHECK-NEXT:    %11 = llvm.mul %10, %arg1 : i32
// CHECK-NEXT:    %12 = llvm.icmp "ne" %arg0, %11 : i32
// CHECK-NEXT:    %13 = llvm.icmp "slt" %arg0, %8 : i32
// CHECK-NEXT:    %14 = llvm.icmp "slt" %arg1, %8 : i32
// CHECK-NEXT:    %15 = llvm.icmp "eq" %13, %14 : i1
// CHECK-NEXT:    %16 = llvm.and %12, %15 : i1
// CHECK-NEXT:    %17 = llvm.add %10, %9 : i32
// CHECK-NEXT:    %18 = llvm.select %16, %17, %10 : i1, i32
// CHECK-NEXT:    %19 = llvm.sdiv %arg0, %arg1 : i32
// CHECK-NEXT:    %20 = llvm.mul %19, %arg1 : i32
// CHECK-NEXT:    %21 = llvm.icmp "ne" %arg0, %20 : i32
// CHECK-NEXT:    %22 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %23 = llvm.icmp "slt" %arg0, %22 : i32
// CHECK-NEXT:    %24 = llvm.icmp "slt" %arg1, %22 : i32
// CHECK-NEXT:    %25 = llvm.icmp "ne" %23, %24 : i1
// CHECK-NEXT:    %26 = llvm.and %21, %25 : i1
// CHECK-NEXT:    %27 = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:    %28 = llvm.add %19, %27 : i32
// CHECK-NEXT:    %29 = llvm.select %26, %28, %19 : i1, i32
// CHECK-NEXT:    %30 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %31 = llvm.icmp "eq" %arg0, %30 : i32
// CHECK-NEXT:    %32 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %33 = llvm.sub %arg0, %32 : i32
// CHECK-NEXT:    %34 = llvm.udiv %33, %arg1 : i32
// CHECK-NEXT:    %35 = llvm.add %34, %32 : i32
// CHECK-NEXT:    %36 = llvm.select %31, %30, %35 : i1, i32
// CHECK-NEXT:    %37 = llvm.trunc %0 : i64 to i16
// CHECK-NEXT:    %38 = llvm.add %18, %29 : i32
// CHECK-NEXT:    %39 = llvm.add %38, %36 : i32
// CHECK-NEXT:    return %39 : i32
// CHECK-NEXT:  }

func.func @ints(%arg0: i32, %arg1: i32, %arg2: index, %arg3: index, %arg4: vector<4xi32>) -> index {
  %c = arith.constant 42 : i32
  %ci = arith.constant 7 : index
  %cv = arith.constant dense<1> : vector<4xi32>
  %t = arith.constant true
  %0 = arith.addi %arg0, %arg1 overflow<nsw> : i32
  %1 = arith.subi %0, %c : i32
  %2 = arith.muli %arg2, %arg3 : index
  %3 = arith.divsi %arg0, %arg1 : i32
  %4 = arith.divui %arg0, %arg1 : i32
  %5 = arith.remsi %arg0, %arg1 : i32
  %6 = arith.remui %arg0, %arg1 : i32
  %7 = arith.andi %arg0, %arg1 : i32
  %8 = arith.ori %arg0, %arg1 : i32
  %9 = arith.xori %arg0, %arg1 : i32
  %10 = arith.shli %arg0, %arg1 : i32
  %11 = arith.shrsi %arg0, %arg1 : i32
  %12 = arith.shrui %arg0, %arg1 : i32
  %13 = arith.maxsi %arg0, %arg1 : i32
  %14 = arith.minui %arg0, %arg1 : i32
  %15 = arith.cmpi slt, %arg0, %arg1 : i32
  %16 = arith.cmpi eq, %arg2, %arg3 : index
  %17 = arith.select %15, %arg0, %arg1 : i32
  %18 = arith.extsi %arg0 : i32 to i64
  %19 = arith.extui %arg0 : i32 to i64
  %20 = arith.trunci %18 : i64 to i16
  %21 = arith.index_cast %arg2 : index to i32
  %22 = arith.index_cast %arg0 : i32 to index
  %23 = arith.index_castui %arg0 : i32 to index
  %24 = arith.addi %arg4, %cv : vector<4xi32>
  %25 = arith.addi %2, %ci : index
  return %25 : index
}
func.func @floats(%arg0: f32, %arg1: f32, %arg2: f64, %arg3: vector<4xf32>) -> f32 {
  %c = arith.constant 1.5 : f32
  %0 = arith.addf %arg0, %arg1 fastmath<fast> : f32
  %1 = arith.subf %0, %c : f32
  %2 = arith.mulf %1, %arg1 : f32
  %3 = arith.divf %2, %arg1 : f32
  %4 = arith.remf %3, %arg1 : f32
  %5 = arith.negf %4 fastmath<nnan> : f32
  %6 = arith.maximumf %5, %arg1 : f32
  %7 = arith.minimumf %6, %arg1 : f32
  %8 = arith.maxnumf %7, %arg1 : f32
  %9 = arith.minnumf %8, %arg1 : f32
  %10 = arith.cmpf olt, %9, %arg1 : f32
  %11 = arith.cmpf false, %9, %arg1 : f32
  %12 = arith.extf %arg0 : f32 to f64
  %13 = arith.truncf %arg2 : f64 to f32
  %a = arith.fptosi %arg0 : f32 to i32
  %b = arith.fptoui %arg0 : f32 to i64
  %s = arith.sitofp %a : i32 to f32
  %u = arith.uitofp %b : i64 to f64
  %bc = arith.bitcast %arg0 : f32 to i32
  %vv = arith.addf %arg3, %arg3 : vector<4xf32>
  return %13 : f32
}
func.func @flags_and_expansions(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: vector<4xindex>, %arg4: index) -> i32 {
  %0 = arith.divsi %arg0, %arg1 exact : i32
  %1 = arith.shrui %arg0, %arg1 exact : i32
  %2 = arith.trunci %arg0 overflow<nsw> : i32 to i8
  %3 = arith.cmpf olt, %arg2, %arg2 fastmath<nnan> : f32
  %5 = arith.constant dense<3> : vector<4xindex>
  %6 = arith.index_cast %arg3 : vector<4xindex> to vector<4xi32>
  %8 = arith.ceildivsi %arg0, %arg1 : i32
  %9 = arith.floordivsi %arg0, %arg1 : i32
  %10 = arith.ceildivui %arg0, %arg1 : i32
  %11 = arith.index_cast %arg4 : index to i64
  %12 = arith.index_castui %arg4 : index to i16
  %13 = arith.select %3, %arg2, %arg2 : f32
  %14 = arith.addi %8, %9 : i32
  %15 = arith.addi %14, %10 : i32
  return %15 : i32
}
