// Regression (fixed): a resource blob that is not hex is accepted and dropped: `b: "0xZZ"` in the
// `{-# dialect_resources #-}` section gives no error and the resource is gone from
// the output. mlir-opt-22: "expected hex string blob for key 'b'".
// RUN: mlc-opt %s --verify-diagnostics

{-#
  dialect_resources: {
    builtin: {
      // expected-error@+1 {{expected hex string blob for key 'b'}}
      b: "0xZZ"
    }
  }
#-}
