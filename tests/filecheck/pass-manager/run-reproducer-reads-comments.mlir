// Regression (fixed): --run-reproducer takes the pipeline from the first text in the file that
// looks like an mlir_reproducer resource naming a pipeline, comments included,
// instead of from the file's `{-# external_resources ... #-}` section. Below, the comment
// names `builtin.module(cse)`, so mlc runs cse and succeeds; the resource names
// test-legalize-full, which fails on test.unknown.
// RUN: not mlc-opt %s --run-reproducer 2>&1 | filecheck %s

// CHECK: error: failed to legalize operation 'test.unknown'

// An old note: mlir_reproducer: { pipeline: "builtin.module(cse)" }
func.func @f(%arg0: i32) {
  test.unknown %arg0 : i32
  return
}

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(test-legalize-full)",
      disable_threading: true,
      verify_each: true
    }
  }
#-}
