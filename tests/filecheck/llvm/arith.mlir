// The llvm dialect's arithmetic, comparisons, select and casts, printed as mlir-opt-22
// prints them: flags as keywords (`overflow<nsw>`, `exact`, `disjoint`, `nneg`), fast-math
// flags in the attribute dictionary when not `none`, predicates as strings; in generic
// form the flags are integers (`overflowFlags = 3 : i32`) and predicates `i64`s, as MLIR
// stores them.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir_opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt - | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s | %mlir_opt - | filecheck %s %}

// CHECK-LABEL: llvm.func @integer(%arg0: i32, %arg1: i32, %arg2: vector<4xi64>) -> i32 {
// CHECK-NEXT:    %0 = llvm.add %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = llvm.add %0, %arg1 overflow<nsw> : i32
// CHECK-NEXT:    %2 = llvm.sub %1, %arg1 overflow<nsw, nuw> : i32
// CHECK-NEXT:    %3 = llvm.mul %2, %2 overflow<nuw> : i32
// CHECK-NEXT:    %4 = llvm.shl %3, %arg1 overflow<nsw> : i32
// CHECK-NEXT:    %5 = llvm.sdiv exact %4, %arg1 : i32
// CHECK-NEXT:    %6 = llvm.udiv %5, %arg1 : i32
// CHECK-NEXT:    %7 = llvm.srem %6, %arg1 : i32
// CHECK-NEXT:    %8 = llvm.urem %7, %arg1 : i32
// CHECK-NEXT:    %9 = llvm.and %8, %arg1 : i32
// CHECK-NEXT:    %10 = llvm.or disjoint %9, %arg1 : i32
// CHECK-NEXT:    %11 = llvm.xor %10, %arg1 : i32
// CHECK-NEXT:    %12 = llvm.lshr exact %11, %arg1 : i32
// CHECK-NEXT:    %13 = llvm.ashr %12, %arg1 : i32
// CHECK-NEXT:    %14 = llvm.add %arg2, %arg2 : vector<4xi64>
// CHECK-NEXT:    llvm.return %13 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @float(%arg0: f32, %arg1: f32, %arg2: vector<2xf64>) -> f32 {
// CHECK-NEXT:    %0 = llvm.fadd %arg0, %arg1 : f32
// CHECK-NEXT:    %1 = llvm.fsub %0, %arg1 {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK-NEXT:    %2 = llvm.fmul %1, %1 {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
// CHECK-NEXT:    %3 = llvm.fdiv %2, %arg1 : f32
// CHECK-NEXT:    %4 = llvm.frem %3, %arg1 : f32
// CHECK-NEXT:    %5 = llvm.fneg %4 {fastmathFlags = #llvm.fastmath<nsz>} : f32
// CHECK-NEXT:    %6 = llvm.fmul %arg2, %arg2 {fastmathFlags = #llvm.fastmath<contract>} : vector<2xf64>
// CHECK-NEXT:    llvm.return %5 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @compare(%arg0: i32, %arg1: f32, %arg2: !llvm.ptr, %arg3: vector<4xi32>) -> i32 {
// CHECK-NEXT:    %0 = llvm.icmp "slt" %arg0, %arg0 : i32
// CHECK-NEXT:    %1 = llvm.icmp "uge" %arg3, %arg3 : vector<4xi32>
// CHECK-NEXT:    %2 = llvm.icmp "eq" %arg2, %arg2 : !llvm.ptr
// CHECK-NEXT:    %3 = llvm.fcmp "olt" %arg1, %arg1 : f32
// CHECK-NEXT:    %4 = llvm.fcmp "uno" %arg1, %arg1 {fastmathFlags = #llvm.fastmath<nnan>} : f32
// CHECK-NEXT:    %5 = llvm.fcmp "_true" %arg1, %arg1 : f32
// CHECK-NEXT:    %6 = llvm.select %0, %arg0, %arg0 : i1, i32
// CHECK-NEXT:    %7 = llvm.select %1, %arg3, %arg3 : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:    %8 = llvm.select %3, %arg1, %arg1 {fastmathFlags = #llvm.fastmath<fast>} : i1, f32
// CHECK-NEXT:    llvm.return %6 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @casts(%arg0: i32, %arg1: f32, %arg2: !llvm.ptr, %arg3: vector<2xi16>) {
// CHECK-NEXT:    %0 = llvm.trunc %arg0 : i32 to i8
// CHECK-NEXT:    %1 = llvm.trunc %arg0 overflow<nsw, nuw> : i32 to i16
// CHECK-NEXT:    %2 = llvm.zext %0 : i8 to i32
// CHECK-NEXT:    %3 = llvm.zext nneg %0 : i8 to i64
// CHECK-NEXT:    %4 = llvm.sext %0 : i8 to i64
// CHECK-NEXT:    %5 = llvm.sext %arg3 : vector<2xi16> to vector<2xi32>
// CHECK-NEXT:    %6 = llvm.fpext %arg1 : f32 to f64
// CHECK-NEXT:    %7 = llvm.fptrunc %6 : f64 to f16
// CHECK-NEXT:    %8 = llvm.sitofp %arg0 : i32 to f32
// CHECK-NEXT:    %9 = llvm.uitofp nneg %arg0 : i32 to f64
// CHECK-NEXT:    %10 = llvm.fptosi %arg1 : f32 to i32
// CHECK-NEXT:    %11 = llvm.fptoui %arg1 : f32 to i64
// CHECK-NEXT:    %12 = llvm.bitcast %arg1 : f32 to i32
// CHECK-NEXT:    %13 = llvm.ptrtoint %arg2 : !llvm.ptr to i64
// CHECK-NEXT:    %14 = llvm.inttoptr %13 : i64 to !llvm.ptr
// CHECK-NEXT:    %15 = llvm.addrspacecast %14 : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  }

// GENERIC: "llvm.add"({{.*}}) <{overflowFlags = 0 : i32}> : (i32, i32) -> i32
// GENERIC: "llvm.add"({{.*}}) <{overflowFlags = 1 : i32}> : (i32, i32) -> i32
// GENERIC: "llvm.sub"({{.*}}) <{overflowFlags = 3 : i32}> : (i32, i32) -> i32
// GENERIC: "llvm.mul"({{.*}}) <{overflowFlags = 2 : i32}> : (i32, i32) -> i32
// GENERIC: "llvm.shl"({{.*}}) <{overflowFlags = 1 : i32}> : (i32, i32) -> i32
// GENERIC: "llvm.sdiv"({{.*}}) <{isExact}> : (i32, i32) -> i32
// GENERIC: "llvm.or"({{.*}}) <{isDisjoint}> : (i32, i32) -> i32
// GENERIC: "llvm.lshr"({{.*}}) <{isExact}> : (i32, i32) -> i32
// GENERIC: "llvm.add"({{.*}}) <{overflowFlags = 0 : i32}> : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// GENERIC: "llvm.fadd"({{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32
// GENERIC: "llvm.fsub"({{.*}}) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
// GENERIC: "llvm.icmp"({{.*}}) <{predicate = 2 : i64}> : (i32, i32) -> i1
// GENERIC: "llvm.icmp"({{.*}}) <{predicate = 9 : i64}> : (vector<4xi32>, vector<4xi32>) -> vector<4xi1>
// GENERIC: "llvm.icmp"({{.*}}) <{predicate = 0 : i64}> : (!llvm.ptr, !llvm.ptr) -> i1
// GENERIC: "llvm.fcmp"({{.*}}) <{fastmathFlags = #llvm.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
// GENERIC: "llvm.fcmp"({{.*}}) <{fastmathFlags = #llvm.fastmath<nnan>, predicate = 14 : i64}> : (f32, f32) -> i1
// GENERIC: "llvm.fcmp"({{.*}}) <{fastmathFlags = #llvm.fastmath<none>, predicate = 15 : i64}> : (f32, f32) -> i1
// GENERIC: "llvm.select"({{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (i1, i32, i32) -> i32
// GENERIC: "llvm.select"({{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (vector<4xi1>, vector<4xi32>, vector<4xi32>) -> vector<4xi32>
// GENERIC: "llvm.select"({{.*}}) <{fastmathFlags = #llvm.fastmath<fast>}> : (i1, f32, f32) -> f32
// GENERIC: "llvm.trunc"({{.*}}) <{overflowFlags = 0 : i32}> : (i32) -> i8
// GENERIC: "llvm.trunc"({{.*}}) <{overflowFlags = 3 : i32}> : (i32) -> i16
// GENERIC: "llvm.zext"({{.*}}) : (i8) -> i32
// GENERIC: "llvm.zext"({{.*}}) <{nonNeg}> : (i8) -> i64
// GENERIC: "llvm.uitofp"({{.*}}) <{nonNeg}> : (i32) -> f64

llvm.func @integer(%arg0: i32, %arg1: i32, %arg2: vector<4xi64>) -> i32 {
  %0 = llvm.add %arg0, %arg1 : i32
  %1 = llvm.add %0, %arg1 overflow<nsw> : i32
  %2 = llvm.sub %1, %arg1 overflow<nsw, nuw> : i32
  %3 = llvm.mul %2, %2 overflow<nuw> : i32
  %4 = llvm.shl %3, %arg1 overflow<nsw> : i32
  %5 = llvm.sdiv exact %4, %arg1 : i32
  %6 = llvm.udiv %5, %arg1 : i32
  %7 = llvm.srem %6, %arg1 : i32
  %8 = llvm.urem %7, %arg1 : i32
  %9 = llvm.and %8, %arg1 : i32
  %10 = llvm.or disjoint %9, %arg1 : i32
  %11 = llvm.xor %10, %arg1 : i32
  %12 = llvm.lshr exact %11, %arg1 : i32
  %13 = llvm.ashr %12, %arg1 : i32
  %14 = llvm.add %arg2, %arg2 : vector<4xi64>
  llvm.return %13 : i32
}
llvm.func @float(%arg0: f32, %arg1: f32, %arg2: vector<2xf64>) -> f32 {
  %0 = llvm.fadd %arg0, %arg1 : f32
  %1 = llvm.fsub %0, %arg1 {fastmathFlags = #llvm.fastmath<fast>} : f32
  %2 = llvm.fmul %1, %1 {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
  %3 = llvm.fdiv %2, %arg1 : f32
  %4 = llvm.frem %3, %arg1 : f32
  %5 = llvm.fneg %4 {fastmathFlags = #llvm.fastmath<nsz>} : f32
  %6 = llvm.fmul %arg2, %arg2 {fastmathFlags = #llvm.fastmath<contract>} : vector<2xf64>
  llvm.return %5 : f32
}
llvm.func @compare(%arg0: i32, %arg1: f32, %arg2: !llvm.ptr, %arg3: vector<4xi32>) -> i32 {
  %0 = llvm.icmp "slt" %arg0, %arg0 : i32
  %1 = llvm.icmp "uge" %arg3, %arg3 : vector<4xi32>
  %2 = llvm.icmp "eq" %arg2, %arg2 : !llvm.ptr
  %3 = llvm.fcmp "olt" %arg1, %arg1 : f32
  %4 = llvm.fcmp "uno" %arg1, %arg1 {fastmathFlags = #llvm.fastmath<nnan>} : f32
  %5 = llvm.fcmp "_true" %arg1, %arg1 : f32
  %6 = llvm.select %0, %arg0, %arg0 : i1, i32
  %7 = llvm.select %1, %arg3, %arg3 : vector<4xi1>, vector<4xi32>
  %8 = llvm.select %3, %arg1, %arg1 {fastmathFlags = #llvm.fastmath<fast>} : i1, f32
  llvm.return %6 : i32
}
llvm.func @casts(%arg0: i32, %arg1: f32, %arg2: !llvm.ptr, %arg3: vector<2xi16>) {
  %0 = llvm.trunc %arg0 : i32 to i8
  %1 = llvm.trunc %arg0 overflow<nsw, nuw> : i32 to i16
  %2 = llvm.zext %0 : i8 to i32
  %3 = llvm.zext nneg %0 : i8 to i64
  %4 = llvm.sext %0 : i8 to i64
  %5 = llvm.sext %arg3 : vector<2xi16> to vector<2xi32>
  %6 = llvm.fpext %arg1 : f32 to f64
  %7 = llvm.fptrunc %6 : f64 to f16
  %8 = llvm.sitofp %arg0 : i32 to f32
  %9 = llvm.uitofp nneg %arg0 : i32 to f64
  %10 = llvm.fptosi %arg1 : f32 to i32
  %11 = llvm.fptoui %arg1 : f32 to i64
  %12 = llvm.bitcast %arg1 : f32 to i32
  %13 = llvm.ptrtoint %arg2 : !llvm.ptr to i64
  %14 = llvm.inttoptr %13 : i64 to !llvm.ptr
  %15 = llvm.addrspacecast %14 : !llvm.ptr to !llvm.ptr<1>
  llvm.return
}
