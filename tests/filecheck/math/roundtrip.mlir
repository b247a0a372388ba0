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
