// Vectors, intrinsics and aggregates: each intrinsic op is a call of the LLVM intrinsic
// of its name, overloaded on its types (`llvm.fmuladd.v8f32`). mlc's LLVM (llvmlite's)
// takes masked.load/store's alignment as an i32 operand, LLVM 22 as a parameter
// attribute, so those checks stop at the pointer. The second RUN line holds
// mlir-translate-22 to the same checks.
// RUN: mlc-translate %s | filecheck %s
// RUN: %if mlir-translate %{ %mlir_translate --mlir-to-llvmir %s | filecheck %s %}

// CHECK-LABEL: define float @{{"?}}vectors{{"?}}(
// CHECK: load <8 x float>, ptr %{{.*}}, align 4
// CHECK: insertelement <8 x float>
// CHECK: shufflevector <8 x float>
// CHECK: call <8 x float> @{{"?}}llvm.fmuladd.v8f32{{"?}}(<8 x float>
// CHECK: call <8 x float> @{{"?}}llvm.sqrt.v8f32{{"?}}(<8 x float>
// CHECK: call <8 x float> @{{"?}}llvm.masked.load.v8f32.p0{{"?}}(ptr
// CHECK: call void @{{"?}}llvm.masked.store.v8f32.p0{{"?}}(<8 x float>
// CHECK: call reassoc float @{{"?}}llvm.vector.reduce.fadd.v8f32{{"?}}(float
// CHECK: extractelement <8 x float>
llvm.func @vectors(%p: !llvm.ptr, %x: f32, %m: vector<8xi1>) -> f32 {
  %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
  %poison = llvm.mlir.poison : vector<8xf32>
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.insertelement %x, %poison[%c0 : i32] : vector<8xf32>
  %splat = llvm.shufflevector %one, %poison [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xf32>
  %fma = llvm.intr.fmuladd(%v, %splat, %v) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  %s = llvm.intr.sqrt(%fma) : (vector<8xf32>) -> vector<8xf32>
  %ml = llvm.intr.masked.load %p, %m, %s {alignment = 4 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  llvm.intr.masked.store %ml, %p, %m {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into !llvm.ptr
  %r = "llvm.intr.vector.reduce.fadd"(%x, %ml) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<8xf32>) -> f32
  %e = llvm.extractelement %ml[%c0 : i32] : vector<8xf32>
  %t = llvm.fadd %r, %e : f32
  llvm.return %t : f32
}

// CHECK-LABEL: define i32 @{{"?}}integers{{"?}}(
// CHECK: call i32 @{{"?}}llvm.smax.i32{{"?}}(i32
// CHECK: call i32 @{{"?}}llvm.ctlz.i32{{"?}}(i32 %{{.*}}, i1 {{0|false}})
// CHECK: call i32 @{{"?}}llvm.vector.reduce.add.v4i32{{"?}}(<4 x i32>
// CHECK: insertvalue {{[{] ?}}i32, float{{ ?[}]}} undef, i32 %{{.*}}, 0
// CHECK: extractvalue {{[{] ?}}i32, float{{ ?[}]}} %{{.*}}, 0

llvm.func @integers(%a: i32, %b: i32, %v: vector<4xi32>) -> i32 {
  %m = llvm.intr.smax(%a, %b) : (i32, i32) -> i32
  %c = "llvm.intr.ctlz"(%m) <{is_zero_poison = false}> : (i32) -> i32
  %r = "llvm.intr.vector.reduce.add"(%v) : (vector<4xi32>) -> i32
  %s = llvm.add %c, %r : i32
  %agg = llvm.mlir.undef : !llvm.struct<(i32, f32)>
  %agg1 = llvm.insertvalue %s, %agg[0] : !llvm.struct<(i32, f32)>
  %back = llvm.extractvalue %agg1[0] : !llvm.struct<(i32, f32)>
  llvm.return %back : i32
}
