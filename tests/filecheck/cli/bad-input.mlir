// Inputs that cannot be read: a missing file, a directory, text that is not UTF-8.
// Each is one `mlc-opt: error:` line, without a traceback.
// RUN: not mlc-opt %t.does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not mlc-opt %S/Inputs 2>&1 | filecheck %s --check-prefix=DIR
// RUN: not mlc-opt %S/Inputs/latin1.mlir 2>&1 | filecheck %s --check-prefix=LATIN1
// RUN: not mlc-opt %t.does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=NOTRACE
// RUN: not mlc-opt %S/Inputs 2>&1 | filecheck %s --check-prefix=NOTRACE
// RUN: not mlc-opt %S/Inputs/latin1.mlir 2>&1 | filecheck %s --check-prefix=NOTRACE
// A failed read does not touch the output file.
// RUN: echo "keep me" > %t.out
// RUN: not mlc-opt %t.does-not-exist.mlir -o %t.out
// RUN: filecheck %s --check-prefix=KEPT --input-file %t.out

// MISSING: mlc-opt: error: cannot read '{{.*}}does-not-exist.mlir': No such file or directory
// DIR: mlc-opt: error: cannot read '{{.*}}Inputs': Is a directory
// LATIN1: {{.*}}latin1.mlir:4:7: error: invalid UTF-8 byte 0xE9
// NOTRACE: error:
// NOTRACE-NOT: Traceback
// NOTRACE-NOT: internal error
// KEPT: keep me
