// --split-input-file: each chunk is parsed and verified on its own, every failing
// chunk is reported (with lines of the whole file), the outputs of the others are
// printed joined by `// -----`, and the exit status is 1 if any chunk failed.
// RUN: mlc-opt %s --split-input-file | filecheck %s
// RUN: not mlc-opt %S/Inputs/split-one-bad.mlir --split-input-file 2>&1 | filecheck %s --check-prefix=ONEBAD
// RUN: not mlc-opt %s 2>&1 | filecheck %s --check-prefix=NOSPLIT

// CHECK:      module {
// CHECK-NEXT:   func.func private @a()
// CHECK-NEXT: }
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func private @a()
// CHECK-NEXT: }
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: }
// CHECK-NOT:  // -----

// Without the flag the chunks are one module, and @a is defined twice.
// NOSPLIT: split-input-file.mlir:[[# @LINE + 5]]:1: error: 'func.func' op redefinition of symbol named 'a'
func.func private @a()

// -----

func.func private @a()

// -----

// ONEBAD: split-one-bad.mlir:6:8: error: 'arith.addf' op operand #0 must be floating-point-like
