// Regression (fixed): a name location without a child location, `loc("name")`, crashes the parser:
// "mlc-opt: internal error: ValueError: not enough values to unpack (expected 2,
// got 1)" (parser.name_loc unpacks two children; the optional child is absent).
// mlir-opt-22 prints it back as `loc("name")`; it is what MLIR's importers emit for
// named values.
// RUN: mlc-opt %s --print-debuginfo | filecheck %s
// RUN: mlc-opt %s | filecheck %s --check-prefix=NOLOC

// CHECK-LABEL: func.func @f(%arg0: i32 loc("x")) -> i32 {
// NOLOC-LABEL: func.func @f(%arg0: i32) -> i32 {
func.func @f(%arg0: i32 loc("x")) -> i32 {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg0 : i32 loc("name")
  %0 = arith.addi %arg0, %arg0 : i32 loc("name")
  // CHECK-NEXT: %1 = arith.addi %0, %0 : i32 loc(fused["a", "b"("c":1:2)])
  %1 = arith.addi %0, %0 : i32 loc(fused["a", "b"("c":1:2)])
  // CHECK-NEXT: return %1 : i32 loc("outer"("inner"))
  return %1 : i32 loc("outer"("inner"))
}
