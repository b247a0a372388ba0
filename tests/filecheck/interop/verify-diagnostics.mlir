// --verify-diagnostics reports what it finds wrong as mlir-opt-22 does, byte for
// byte: expectations not met (offsets out of the file, dangling @below, @above on the
// first line, offsets into another chunk), a near miss of severity, a regex with no
// end. mlc's verifier messages differ from MLIR's (mlc names operands), so the inputs
// expect them only through text both share.
// REQUIRES: mlir-opt
// RUN: not %mlir_opt %S/../cli/Inputs/expected-unmet.mlir --verify-diagnostics 2> %t.theirs > /dev/null
// RUN: not mlc-opt %S/../cli/Inputs/expected-unmet.mlir --verify-diagnostics 2> %t.ours > /dev/null
// RUN: diff %t.ours %t.theirs
// RUN: not %mlir_opt %S/../cli/Inputs/expected-unmet.mlir --split-input-file --verify-diagnostics 2> %t.theirs > /dev/null
// RUN: not mlc-opt %S/../cli/Inputs/expected-unmet.mlir --split-input-file --verify-diagnostics 2> %t.ours > /dev/null
// RUN: diff %t.ours %t.theirs
// RUN: not %mlir_opt %S/../cli/Inputs/diag-mismatch.mlir --split-input-file --verify-diagnostics 2>&1 > /dev/null | grep -v "unexpected error" > %t.theirs
// RUN: not mlc-opt %S/../cli/Inputs/diag-mismatch.mlir --split-input-file --verify-diagnostics 2>&1 > /dev/null | grep -v "unexpected error" > %t.ours
// RUN: diff %t.ours %t.theirs
