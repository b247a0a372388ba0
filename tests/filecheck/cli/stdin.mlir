// Standard input: `-`, or no input argument at all; diagnostics then name <stdin>.
// RUN: mlc-opt - < %S/Inputs/good.mlir | filecheck %s
// RUN: mlc-opt < %S/Inputs/good.mlir | filecheck %s
// RUN: cat %S/Inputs/good.mlir | mlc-opt - --print-op-generic | mlc-opt | filecheck %s
// RUN: not mlc-opt - < %S/Inputs/bad.mlir 2>&1 | filecheck %s --check-prefix=ERR
// RUN: echo -n | mlc-opt - | filecheck %s --check-prefix=EMPTY

// CHECK:      module {
// CHECK-NEXT:   func.func @good(%arg0: f32) -> f32 {
// CHECK-NEXT:     %0 = arith.addf %arg0, %arg0 : f32
// CHECK-NEXT:     return %0 : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }

// ERR:      <stdin>:2:8: error: 'arith.addf' op operand #1 must be floating-point-like, but got 'i32'
// ERR-NEXT:   %0 = "arith.addf"(%arg0, %arg1) : (f32, i32) -> f32
// ERR-NEXT:        ^

// EMPTY:      module {
// EMPTY-NEXT: }
