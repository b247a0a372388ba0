// The llvm dialect's arithmetic, comparisons and casts as LLVM instructions, with their
// flags. The second RUN line holds mlir-translate-22 to the same checks.
// RUN: mlc-translate %s | filecheck %s
// RUN: %if mlir-translate %{ %mlir_translate --mlir-to-llvmir %s | filecheck %s %}

// CHECK-LABEL: define i32 @{{"?}}int_ops{{"?}}(i32 %{{.*}}, i32 %{{.*}})
// CHECK: add nsw i32
// CHECK: sub {{nsw nuw|nuw nsw}} i32
// CHECK: mul i32
// CHECK: sdiv i32
// CHECK: urem i32
// CHECK: shl i32
// CHECK: ashr i32
// CHECK: xor i32
// CHECK: ret i32
llvm.func @int_ops(%a: i32, %b: i32) -> i32 {
  %0 = llvm.add %a, %b overflow<nsw> : i32
  %1 = llvm.sub %0, %b overflow<nsw, nuw> : i32
  %2 = llvm.mul %1, %a : i32
  %3 = llvm.sdiv %2, %b : i32
  %4 = llvm.urem %3, %b : i32
  %5 = llvm.shl %4, %a : i32
  %6 = llvm.ashr %5, %b : i32
  %7 = llvm.xor %6, %a : i32
  llvm.return %7 : i32
}

// CHECK-LABEL: define float @{{"?}}float_ops{{"?}}(
// CHECK: fadd fast float
// CHECK: fmul nnan ninf float
// CHECK: fneg float
// CHECK: fdiv float

llvm.func @float_ops(%x: f32, %y: f32) -> f32 {
  %0 = llvm.fadd %x, %y {fastmathFlags = #llvm.fastmath<fast>} : f32
  %1 = llvm.fmul %0, %y {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
  %2 = llvm.fneg %1 : f32
  %3 = llvm.fdiv %2, %x : f32
  llvm.return %3 : f32
}

// CHECK-LABEL: define double @{{"?}}compare_select{{"?}}(
// CHECK: icmp ult i64
// CHECK: fcmp olt double
// CHECK: and i1
// CHECK: select i1 %{{.*}}, double %{{.*}}, double %{{.*}}

llvm.func @compare_select(%a: i64, %b: i64, %x: f64, %y: f64) -> f64 {
  %0 = llvm.icmp "ult" %a, %b : i64
  %1 = llvm.fcmp "olt" %x, %y : f64
  %2 = llvm.and %0, %1 : i1
  %3 = llvm.select %2, %x, %y : i1, f64
  llvm.return %3 : f64
}

// CHECK-LABEL: define i64 @{{"?}}casts{{"?}}(
// CHECK: sext i32 %{{.*}} to i64
// CHECK: fptosi float %{{.*}} to i64
// CHECK: ptrtoint ptr %{{.*}} to i64
// CHECK: trunc i64 %{{.*}} to i16
// CHECK: zext i16 %{{.*}} to i64

llvm.func @casts(%a: i32, %x: f32, %p: !llvm.ptr) -> i64 {
  %0 = llvm.sext %a : i32 to i64
  %1 = llvm.fptosi %x : f32 to i64
  %2 = llvm.ptrtoint %p : !llvm.ptr to i64
  %3 = llvm.add %0, %1 : i64
  %4 = llvm.add %3, %2 : i64
  %5 = llvm.trunc %4 : i64 to i16
  %6 = llvm.zext %5 : i16 to i64
  llvm.return %6 : i64
}
