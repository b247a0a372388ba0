// Regression (message): a ragged dense literal reports numpy's error text: "setting an array
// element with a sequence. The requested array has an inhomogeneous shape after 1
// dimensions. ...". mlir-opt-22: "tensor literal is invalid; ranks are not consistent
// between elements".
// RUN: mlc-opt %s --verify-diagnostics

// expected-error@+1 {{ranks are not consistent between elements}}
%0 = arith.constant dense<[[1, 2], [3]]> : tensor<2x2xi32>
