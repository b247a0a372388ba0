// arith ops given in MLIR's generic form (properties in `<{...}>`, or inherent
// attributes in the attribute dictionary as older MLIR wrote them) print in custom
// form; the custom form prints back to the same generic form.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - --print-op-generic | filecheck %s --check-prefix=GENERIC
//
// The unit `isExact`, the i32 `roundingmode` and the optional `fastmath` of extf and
// truncf (absent unless given, unlike the other ops' default `none`): the CHECK lines
// of @properties are what mlir-opt-22 prints in custom form, the PROPS lines what it
// prints in generic form.
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=PROPS
// RUN: %if mlir-opt %{ %mlir_opt %s --mlir-print-op-generic | filecheck %s --check-prefix=PROPS %}

// CHECK-LABEL: func.func @f(%arg0: f32, %arg1: i32, %arg2: i1) {
func.func @f(%arg0: f32, %arg1: i32, %arg2: i1) {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg0 fastmath<fast> : f32
  // GENERIC: %0 = "arith.addf"(%arg0, %arg0) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
  %0 = "arith.addf"(%arg0, %arg0) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
  // A missing property takes its default.
  // CHECK-NEXT: %1 = arith.addf %arg0, %arg0 : f32
  // GENERIC-NEXT: %1 = "arith.addf"(%arg0, %arg0) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %1 = "arith.addf"(%arg0, %arg0) : (f32, f32) -> f32
  // CHECK-NEXT: %2 = arith.addi %arg1, %arg1 overflow<nsw> : i32
  // GENERIC-NEXT: %2 = "arith.addi"(%arg1, %arg1) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  %2 = "arith.addi"(%arg1, %arg1) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  // Predicates are integers in the generic form.
  // CHECK-NEXT: %3 = arith.cmpi slt, %arg1, %arg1 : i32
  // GENERIC-NEXT: %3 = "arith.cmpi"(%arg1, %arg1) <{predicate = 2 : i64}> : (i32, i32) -> i1
  %3 = "arith.cmpi"(%arg1, %arg1) <{predicate = 2 : i64}> : (i32, i32) -> i1
  // CHECK-NEXT: %4 = arith.cmpf une, %arg0, %arg0 : f32
  // GENERIC-NEXT: %4 = "arith.cmpf"(%arg0, %arg0) <{fastmath = #arith.fastmath<none>, predicate = 13 : i64}> : (f32, f32) -> i1
  %4 = "arith.cmpf"(%arg0, %arg0) <{fastmath = #arith.fastmath<none>, predicate = 13 : i64}> : (f32, f32) -> i1
  // An inherent attribute in the attribute dictionary becomes the property.
  // CHECK-NEXT: %5 = arith.cmpi uge, %arg1, %arg1 : i32
  // GENERIC-NEXT: %5 = "arith.cmpi"(%arg1, %arg1) <{predicate = 9 : i64}> : (i32, i32) -> i1
  %5 = "arith.cmpi"(%arg1, %arg1) {predicate = 9 : i64} : (i32, i32) -> i1
  // CHECK-NEXT: %6 = arith.select %arg2, %arg1, %arg1 : i32
  // GENERIC-NEXT: %6 = "arith.select"(%arg2, %arg1, %arg1) : (i1, i32, i32) -> i32
  %6 = "arith.select"(%arg2, %arg1, %arg1) : (i1, i32, i32) -> i32
  // CHECK-NEXT: %cst = arith.constant dense<1.000000e+00> : tensor<2xf32>
  // GENERIC-NEXT: %cst = "arith.constant"() <{value = dense<1.000000e+00> : tensor<2xf32>}> : () -> tensor<2xf32>
  %cst = "arith.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  // CHECK-NEXT: %c3_i8 = arith.constant 3 : i8
  // GENERIC-NEXT: %c3_i8 = "arith.constant"() <{value = 3 : i8}> : () -> i8
  %c3_i8 = "arith.constant"() {value = 3 : i8} : () -> i8
  // CHECK-NEXT: %7 = arith.extui %arg2 : i1 to i32
  // GENERIC-NEXT: %7 = "arith.extui"(%arg2) : (i1) -> i32
  %7 = "arith.extui"(%arg2) : (i1) -> i32
  // Discardable attributes stay in the attribute dictionary.
  // CHECK-NEXT: %8 = arith.mulf %arg0, %arg0 fastmath<nnan,contract> {foo.x} : f32
  // GENERIC-NEXT: %8 = "arith.mulf"(%arg0, %arg0) <{fastmath = #arith.fastmath<nnan,contract>}> {foo.x} : (f32, f32) -> f32
  %8 = "arith.mulf"(%arg0, %arg0) <{fastmath = #arith.fastmath<nnan,contract>}> {foo.x} : (f32, f32) -> f32
  // CHECK-NEXT: %9 = arith.index_cast %arg1 : i32 to index
  // GENERIC-NEXT: %9 = "arith.index_cast"(%arg1) : (i32) -> index
  %9 = "arith.index_cast"(%arg1) : (i32) -> index
  // CHECK-NEXT: %10 = arith.select %arg2, %cst, %cst : tensor<2xf32>
  %10 = "arith.select"(%arg2, %cst, %cst) : (i1, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK-NEXT: %11 = arith.negf %arg0 fastmath<afn> : f32
  // GENERIC: %11 = "arith.negf"(%arg0) <{fastmath = #arith.fastmath<afn>}> : (f32) -> f32
  %11 = "arith.negf"(%arg0) <{fastmath = #arith.fastmath<afn>}> : (f32) -> f32
  // CHECK-NEXT: return
  "func.return"() : () -> ()
}

// CHECK-LABEL: func.func @properties(%arg0: i32, %arg1: f32, %arg2: f16) {
// PROPS-LABEL: ^bb0(%arg0: i32, %arg1: f32, %arg2: f16):
func.func @properties(%arg0: i32, %arg1: f32, %arg2: f16) {
  // CHECK-NEXT: %0 = arith.divsi %arg0, %arg0 exact : i32
  // PROPS-NEXT: %0 = "arith.divsi"(%arg0, %arg0) <{isExact}> : (i32, i32) -> i32
  %0 = "arith.divsi"(%arg0, %arg0) <{isExact}> : (i32, i32) -> i32
  // CHECK-NEXT: %1 = arith.shrui %arg0, %arg0 exact : i32
  // PROPS-NEXT: %1 = "arith.shrui"(%arg0, %arg0) <{isExact}> : (i32, i32) -> i32
  %1 = "arith.shrui"(%arg0, %arg0) <{isExact}> : (i32, i32) -> i32
  // CHECK-NEXT: %2 = arith.shli %arg0, %arg0 overflow<nuw> : i32
  // PROPS-NEXT: %2 = "arith.shli"(%arg0, %arg0) <{overflowFlags = #arith.overflow<nuw>}> : (i32, i32) -> i32
  %2 = "arith.shli"(%arg0, %arg0) <{overflowFlags = #arith.overflow<nuw>}> : (i32, i32) -> i32
  // CHECK-NEXT: %3 = arith.truncf %arg1 to_nearest_away : f32 to f16
  // PROPS-NEXT: %3 = "arith.truncf"(%arg1) <{roundingmode = 4 : i32}> : (f32) -> f16
  %3 = "arith.truncf"(%arg1) <{roundingmode = 4 : i32}> : (f32) -> f16
  // CHECK-NEXT: %4 = arith.truncf %arg1 toward_zero fastmath<fast> : f32 to bf16
  // PROPS-NEXT: %4 = "arith.truncf"(%arg1) <{fastmath = #arith.fastmath<fast>, roundingmode = 3 : i32}> : (f32) -> bf16
  %4 = "arith.truncf"(%arg1) <{fastmath = #arith.fastmath<fast>, roundingmode = 3 : i32}> : (f32) -> bf16
  // CHECK-NEXT: %5 = arith.truncf %arg1 : f32 to f16
  // PROPS-NEXT: %5 = "arith.truncf"(%arg1) : (f32) -> f16
  %5 = "arith.truncf"(%arg1) : (f32) -> f16
  // CHECK-NEXT: %6 = arith.extf %arg2 fastmath<contract> : f16 to f32
  // PROPS-NEXT: %6 = "arith.extf"(%arg2) <{fastmath = #arith.fastmath<contract>}> : (f16) -> f32
  %6 = "arith.extf"(%arg2) <{fastmath = #arith.fastmath<contract>}> : (f16) -> f32
  // CHECK-NEXT: %7 = arith.extf %arg2 : f16 to f32
  // PROPS-NEXT: %7 = "arith.extf"(%arg2) : (f16) -> f32
  %7 = "arith.extf"(%arg2) : (f16) -> f32
  // CHECK-NEXT: %sum, %overflow = arith.addui_extended %arg0, %arg0 : i32, i1
  // PROPS-NEXT: %8:2 = "arith.addui_extended"(%arg0, %arg0) : (i32, i32) -> (i32, i1)
  %8:2 = "arith.addui_extended"(%arg0, %arg0) : (i32, i32) -> (i32, i1)
  // CHECK-NEXT: %low, %high = arith.mului_extended %arg0, %arg0 : i32
  // PROPS-NEXT: %9:2 = "arith.mului_extended"(%arg0, %arg0) : (i32, i32) -> (i32, i32)
  %9:2 = "arith.mului_extended"(%arg0, %arg0) : (i32, i32) -> (i32, i32)
  // CHECK-NEXT: %8 = arith.maxnumf %arg1, %arg1 : f32
  // PROPS-NEXT: %10 = "arith.maxnumf"(%arg1, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %10 = "arith.maxnumf"(%arg1, %arg1) : (f32, f32) -> f32
  // CHECK-NEXT: %9 = arith.index_castui %arg0 : i32 to index
  // PROPS-NEXT: %11 = "arith.index_castui"(%arg0) : (i32) -> index
  %11 = "arith.index_castui"(%arg0) : (i32) -> index
  // CHECK-NEXT: %10 = arith.bitcast %arg0 : i32 to f32
  // PROPS-NEXT: %12 = "arith.bitcast"(%arg0) : (i32) -> f32
  %12 = "arith.bitcast"(%arg0) : (i32) -> f32
  "func.return"() : () -> ()
}
