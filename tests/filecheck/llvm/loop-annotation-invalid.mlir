// A loop attribute's parameters are MLIR's: an unknown one is an error at it.
// RUN: mlc-opt %s --verify-diagnostics -o /dev/null

// expected-error@+1 {{'llvm.loop_unroll' has no parameter 'speed'}}
func.func @g() attributes {a = #llvm.loop_annotation<unroll = <speed = 4 : i32>>} {
  return
}
