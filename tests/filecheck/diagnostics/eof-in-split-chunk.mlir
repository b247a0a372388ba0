// Regression (fixed): with --split-input-file, the end of input of a chunk is reported at the end of
// the last token of the whole file, not of the chunk. For
//     func.func @f() {
//       return
//     // -----
//     func.func @g() {
//       return
//     }
// mlc reports "eof.mlir:6:2: error: unexpected end of input, expected '}'" (line 6 is
// the last `}` of the file, in another chunk); mlir-opt-22 reports the error at the
// end of chunk 1 ("2:9: error: expected operation name in quotes").
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @f() {
  // expected-error@+1 {{expected operation name in quotes}}
  return

// -----

func.func @g() {
  return
}
