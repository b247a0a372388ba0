// -o FILE: written on success; on failure an existing FILE is left untouched and no
// temporary file is left behind.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: mlc-opt %S/Inputs/good.mlir -o %t.d/out.mlir
// RUN: filecheck %s --check-prefix=GOOD --input-file %t.d/out.mlir
// GOOD: func.func @good(%arg0: f32) -> f32 {
// GOOD-NEXT: %0 = arith.addf %arg0, %arg0 : f32

// Nothing is written to stdout when -o names a file.
// RUN: mlc-opt %S/Inputs/good.mlir -o %t.d/out2.mlir > %t.d/stdout.txt
// RUN: echo -n > %t.d/empty.txt
// RUN: diff %t.d/stdout.txt %t.d/empty.txt

// A failing run: the error on stderr, the old file kept as it was.
// RUN: echo "keep me" > %t.d/out.mlir
// RUN: not mlc-opt %S/Inputs/bad.mlir -o %t.d/out.mlir 2>&1 | filecheck %s --check-prefix=ERR
// RUN: filecheck %s --check-prefix=KEPT --input-file %t.d/out.mlir
// ERR: bad.mlir:2:8: error: 'arith.addf' op operand #1 must be floating-point-like, but got 'i32'
// KEPT: {{^}}keep me{{$}}
// KEPT-NOT: func

// One failing chunk of a split input fails the run: nothing is written.
// RUN: not mlc-opt %S/Inputs/split-one-bad.mlir --split-input-file -o %t.d/out.mlir 2>&1 | filecheck %s --check-prefix=SPLIT-ERR
// RUN: filecheck %s --check-prefix=KEPT --input-file %t.d/out.mlir
// SPLIT-ERR: split-one-bad.mlir:6:8: error: 'arith.addf' op operand #0 must be floating-point-like

// A failing run does not create the file either, and leaves no temporary file.
// RUN: not mlc-opt %S/Inputs/bad.mlir -o %t.d/new.mlir
// RUN: ls -A %t.d | filecheck %s --check-prefix=LS
// LS-NOT: {{new.mlir|tmp}}
// LS: out.mlir
// LS-NOT: {{new.mlir|tmp}}

// -o - is stdout.
// RUN: mlc-opt %S/Inputs/good.mlir -o - | filecheck %s --check-prefix=GOOD
