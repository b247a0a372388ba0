// Every math op of mlc, in its custom form with and without fastmath flags; mlir-opt-22
// reads mlc's generic form as the same IR.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt | filecheck %s %}

// CHECK-LABEL: func.func @unary
func.func @unary(%x: f32, %v: vector<4xf16>, %t: tensor<2xf64>) {
  // CHECK: math.absf %{{.*}} : f32
  %0 = math.absf %x : f32
  // CHECK: math.sin %{{.*}} fastmath<fast> : vector<4xf16>
  %1 = math.sin %v fastmath<fast> : vector<4xf16>
  // CHECK: math.cos %{{.*}} : tensor<2xf64>
  %2 = math.cos %t : tensor<2xf64>
  // CHECK: math.exp %{{.*}} fastmath<nnan,ninf> : f32
  %3 = math.exp %x fastmath<nnan,ninf> : f32
  // CHECK: math.exp2 %{{.*}} : f32
  %4 = math.exp2 %x : f32
  // CHECK: math.log %{{.*}} : f32
  %5 = math.log %x : f32
  // CHECK: math.log2 %{{.*}} : f32
  %6 = math.log2 %x : f32
  // CHECK: math.tanh %{{.*}} : f32
  %7 = math.tanh %x : f32
  // CHECK: math.sqrt %{{.*}} : f32
  %8 = math.sqrt %x : f32
  // CHECK: math.rsqrt %{{.*}} fastmath<afn> : f32
  %9 = math.rsqrt %x fastmath<afn> : f32
  // CHECK: math.erf %{{.*}} : f32
  %10 = math.erf %x : f32
  // CHECK: math.floor %{{.*}} : f32
  %11 = math.floor %x : f32
  // CHECK: math.ceil %{{.*}} : f32
  %12 = math.ceil %x : f32
  // CHECK: math.round %{{.*}} : f32
  %13 = math.round %x : f32
  // CHECK: math.roundeven %{{.*}} : f32
  %14 = math.roundeven %x : f32
  // CHECK: math.tan %{{.*}} fastmath<afn> : vector<4xf16>
  %15 = math.tan %v fastmath<afn> : vector<4xf16>
  // CHECK: math.asin %{{.*}} : f32
  %16 = math.asin %x : f32
  // CHECK: math.acos %{{.*}} : tensor<2xf64>
  %17 = math.acos %t : tensor<2xf64>
  // CHECK: math.atan %{{.*}} : f32
  %18 = math.atan %x : f32
  // CHECK: math.sinh %{{.*}} : f32
  %19 = math.sinh %x : f32
  // CHECK: math.cosh %{{.*}} : f32
  %20 = math.cosh %x : f32
  // CHECK: math.asinh %{{.*}} : f32
  %21 = math.asinh %x : f32
  // CHECK: math.acosh %{{.*}} : f32
  %22 = math.acosh %x : f32
  // CHECK: math.atanh %{{.*}} fastmath<fast> : f32
  %23 = math.atanh %x fastmath<fast> : f32
  return
}

// CHECK-LABEL: func.func @integer_power
func.func @integer_power(%i: i32, %n: index, %v: vector<4xi8>) {
  // CHECK: math.ipowi %{{.*}}, %{{.*}} : i32
  %0 = math.ipowi %i, %i : i32
  // CHECK: math.ipowi %{{.*}}, %{{.*}} : index
  %1 = math.ipowi %n, %n : index
  // CHECK: math.ipowi %{{.*}}, %{{.*}} : vector<4xi8>
  %2 = math.ipowi %v, %v : vector<4xi8>
  return
}

// CHECK-LABEL: func.func @binary_and_ternary
func.func @binary_and_ternary(%x: f32, %y: f32, %z: f32) {
  // CHECK: math.powf %{{.*}}, %{{.*}} : f32
  %0 = math.powf %x, %y : f32
  // CHECK: math.copysign %{{.*}}, %{{.*}} fastmath<nsz> : f32
  %1 = math.copysign %x, %y fastmath<nsz> : f32
  // CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} fastmath<contract> : f32
  %2 = math.fma %x, %y, %z fastmath<contract> : f32
  return
}
