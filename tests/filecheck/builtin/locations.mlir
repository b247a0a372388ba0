// Locations of every kind, printed with --print-debuginfo (and dropped without it).
// Location aliases may be defined after their use, as mlir-opt prints them.
// RUN: mlc-opt %s --print-debuginfo | filecheck %s
// RUN: mlc-opt %s --print-debuginfo | mlc-opt - --print-debuginfo | filecheck %s
// RUN: mlc-opt %s --print-debuginfo --print-op-generic | mlc-opt - --print-debuginfo | filecheck %s
// RUN: mlc-opt %s | filecheck %s --check-prefix=NOLOC

// NOLOC-NOT: loc(
// NOLOC: func.func @f(%arg0: i32) -> i32 {
// NOLOC-NOT: loc(

// CHECK-LABEL: func.func @f(%arg0: i32 loc("arg.mlir":1:5)) -> i32 {
func.func @f(%arg0: i32 loc("arg.mlir":1:5)) -> i32 {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg0 : i32 loc("f.mlir":1:2)
  %0 = arith.addi %arg0, %arg0 : i32 loc("f.mlir":1:2)
  // CHECK-NEXT: %1 = arith.addi %0, %arg0 : i32 loc("name"("f.mlir":3:4))
  %1 = arith.addi %0, %arg0 : i32 loc("name"("f.mlir":3:4))
  // CHECK-NEXT: %2 = arith.addi %1, %arg0 : i32 loc(fused["a.mlir":1:1, "b.mlir":2:2])
  %2 = arith.addi %1, %arg0 : i32 loc(fused["a.mlir":1:1, "b.mlir":2:2])
  // CHECK-NEXT: %3 = arith.addi %2, %arg0 : i32 loc(fused<"meta">["a.mlir":1:1])
  %3 = arith.addi %2, %arg0 : i32 loc(fused<"meta">["a.mlir":1:1])
  // CHECK-NEXT: %4 = arith.addi %3, %arg0 : i32 loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))
  %4 = arith.addi %3, %arg0 : i32 loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))
  // CHECK-NEXT: %5 = arith.addi %4, %arg0 : i32 loc(unknown)
  %5 = arith.addi %4, %arg0 : i32 loc(unknown)
  // An alias defined further down, and an alias used inside another location.
  // CHECK-NEXT: %6 = arith.addi %5, %arg0 : i32 loc("alias.mlir":7:7)
  %6 = arith.addi %5, %arg0 : i32 loc(#loc1)
  // CHECK-NEXT: %7 = arith.addi %6, %arg0 : i32 loc(fused["alias.mlir":7:7, "z.mlir":1:1])
  %7 = arith.addi %6, %arg0 : i32 loc(#loc2)
  // CHECK-NEXT: %8 = arith.addi %7, %arg0 : i32 loc(callsite("alias.mlir":7:7 at "name"("n.mlir":3:3)))
  %8 = arith.addi %7, %arg0 : i32 loc(#loc4)
  // CHECK-NEXT: return %8 : i32 loc("ret.mlir":9:9)
  return %8 : i32 loc("ret.mlir":9:9)
// CHECK-NEXT: } loc("fn.mlir":1:1)
} loc("fn.mlir":1:1)

// An op without a location of its own gets its place in the input.
// CHECK-LABEL: func.func @g()
// CHECK-NEXT: return loc("{{.*}}locations.mlir":[[# @LINE + 2]]:3)
func.func @g() {
  return
}

// The implicit top-level module is at line 0, column 0 of the input, as in MLIR.
// CHECK: } loc("{{.*}}locations.mlir":0:0)

#loc1 = loc("alias.mlir":7:7)
#loc2 = loc(fused[#loc1, "z.mlir":1:1])
#loc3 = loc("name"("n.mlir":3:3))
#loc4 = loc(callsite(#loc1 at #loc3))
