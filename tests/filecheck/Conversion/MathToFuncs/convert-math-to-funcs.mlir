// convert-to-llvm: math.ipowi has neither an LLVM intrinsic nor a C library function;
// it calls @__mlc_math_ipowi_iN, defined once per width in the module (MLIR's
// MathToFuncs outlines it the same way), once per element of a vector. mlir-opt-22 reads
// the result; tests/unit/test_native_lit_examples.py runs it against the interpreter.
// RUN: mlc-opt %s --convert-to-llvm | filecheck %s
// RUN: %if mlir-opt %{ mlc-opt %s --convert-to-llvm | %mlir_opt -o /dev/null %}

// CHECK:       llvm.func internal @__mlc_math_ipowi_i64(%{{.*}}: i64, %{{.*}}: i64) -> i64 {
// CHECK:       llvm.func internal @__mlc_math_ipowi_i32(%{{.*}}: i32, %{{.*}}: i32) -> i32 {
// CHECK:         llvm.icmp "slt"
// CHECK:         llvm.cond_br
// CHECK:         llvm.mul
// CHECK:         llvm.lshr
// CHECK:         llvm.br ^
// CHECK-LABEL: llvm.func @scalar(%a: i32, %b: i32) -> i32 {
// CHECK-NEXT:    %0 = llvm.call @__mlc_math_ipowi_i32(%a, %b) : (i32, i32) -> i32
// CHECK-NEXT:    %1 = llvm.call @__mlc_math_ipowi_i32(%0, %b) : (i32, i32) -> i32
// CHECK-NEXT:    llvm.return %1 : i32
func.func @scalar(%a: i32, %b: i32) -> i32 {
  %p = math.ipowi %a, %b : i32
  %q = math.ipowi %p, %b : i32
  return %q : i32
}

// CHECK-LABEL: llvm.func @vector(%a: vector<2xi64>, %b: vector<2xi64>) -> vector<2xi64> {
// CHECK-COUNT-2: llvm.call @__mlc_math_ipowi_i64
// CHECK-NOT:     llvm.call
// CHECK:         llvm.return
func.func @vector(%a: vector<2xi64>, %b: vector<2xi64>) -> vector<2xi64> {
  %p = math.ipowi %a, %b : vector<2xi64>
  return %p : vector<2xi64>
}
