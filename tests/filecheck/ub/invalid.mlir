// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @wrong_value() -> i32 {
  // expected-error@+1 {{'ub.poison' op attribute 'value' failed to satisfy constraint: poison attribute}}
  %0 = "ub.poison"() <{value = 1 : i32}> : () -> i32
  return %0 : i32
}

// -----

func.func @no_result() {
  // expected-error@+1 {{'ub.poison' op requires one result}}
  "ub.poison"() : () -> ()
  return
}
