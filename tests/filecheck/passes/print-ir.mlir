// print-ir: prints the IR it runs on to stderr, at its point in the pipeline,
// under an optional label, and leaves the IR (and stdout) alone.
// RUN: mlc-opt %s -p 'print-ir,canonicalize,print-ir{label=after}' 2>&1 >/dev/null | filecheck %s --check-prefix=ERR
// RUN: mlc-opt %s -p 'builtin.module(func.func(print-ir{label={in func}}))' 2>&1 >/dev/null | filecheck %s --check-prefix=NESTED
// RUN: mlc-opt %s -p 'print-ir{label=x}' 2>/dev/null | filecheck %s --check-prefix=OUT
// Interop: mlir-opt's print-ir prints the same header.
// RUN: %if mlir-opt %{ %mlir_opt %s -p 'builtin.module(print-ir{label={in func}})' 2>&1 >/dev/null | filecheck %s --check-prefix=MLIR %}

// The IR before canonicalize, then after it.
// ERR:      // -----// IR Dump //----- //
// ERR-NEXT: module {
// ERR-NEXT:   func.func @f(%arg0: i32) -> i32 {
// ERR-NEXT:     %c0 = arith.constant 0 : i32
// ERR-NEXT:     %0 = arith.addi %arg0, %c0 : i32
// ERR-NEXT:     return %0 : i32
// ERR-NEXT:   }
// ERR-NEXT:   func.func @g() {
// ERR:      // -----// IR Dump after //----- //
// ERR-NEXT: module {
// ERR-NEXT:   func.func @f(%arg0: i32) -> i32 {
// ERR-NEXT:     return %arg0 : i32
// ERR-NEXT:   }
// ERR-NOT:  IR Dump

// Nested: once per function, each printed on its own.
// NESTED:      // -----// IR Dump in func //----- //
// NESTED-NEXT: func.func @f(%arg0: i32) -> i32 {
// NESTED:      // -----// IR Dump in func //----- //
// NESTED-NEXT: func.func @g() {
// NESTED-NEXT:   return
// NESTED-NEXT: }
// NESTED-NOT:  module

// OUT-NOT:  IR Dump
// OUT:      module {
// OUT-NEXT:   func.func @f(%arg0: i32) -> i32 {
// OUT-NEXT:     %c0 = arith.constant 0 : i32

// MLIR: // -----// IR Dump in func //----- //

func.func @f(%arg0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %arg0, %c0 : i32
  return %0 : i32
}
func.func @g() {
  return
}
