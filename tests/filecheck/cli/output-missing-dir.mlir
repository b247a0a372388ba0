// Regression (fixed): -o into a directory that does not exist (or is not writable) is an internal
// error: "mlc-opt: internal error: FileNotFoundError: [Errno 2] No such file or
// directory: '.../.out.mlir.<pid>.tmp'", exit status 2 ("This is a bug in mlc").
// Expected: one `mlc-opt: error: cannot write '...'` line and exit status 1.
// RUN: not mlc-opt %S/Inputs/good.mlir -o %t.no-such-dir/out.mlir 2>&1 | filecheck %s

// CHECK: mlc-opt: error: cannot write '{{.*}}out.mlir'
// CHECK-NOT: internal error
