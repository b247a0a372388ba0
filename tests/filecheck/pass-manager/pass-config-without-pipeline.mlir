// Regression (fixed): --pass-config is only checked when there is a pipeline: without -p or a
// pass flag, an unknown key (or a malformed KEY=VALUE) is silently accepted and
// the run succeeds. With a pipeline the same flag is
//   mlc-opt: error: unknown PassContext config key 'no.such.key'; known keys: ...
// RUN: not mlc-opt %s --pass-config no.such.key=1 2>&1 | filecheck %s

// CHECK: mlc-opt: error: unknown PassContext config key 'no.such.key'
func.func @f() {
  return
}
