// --pass-config KEY=VALUE sets a PassContext configuration key. An unknown key is
// an error that lists the known keys; a value of the wrong type, or no `=`, is an
// error too. The run stops before any pass (exit status 1, no output).
// RUN: not mlc-opt %s -p cse --pass-config no.such.key=1 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN:     mlc-opt: error: unknown PassContext config key 'no.such.key'; known keys: canonicalize.max-iterations
// UNKNOWN-NOT: module
//
// RUN: not mlc-opt %s -p cse --pass-config canonicalize.max-iteration=3 2>&1 | filecheck %s --check-prefix=CLOSE
// CLOSE: mlc-opt: error: unknown PassContext config key 'canonicalize.max-iteration'; known keys: {{.*}}; did you mean 'canonicalize.max-iterations'?
//
// A key backed by a pass option has the option's type and domain.
// RUN: not mlc-opt %s -p cse --pass-config canonicalize.max-iterations=many 2>&1 | filecheck %s --check-prefix=TYPE
// TYPE: mlc-opt: error: invalid value for config key 'canonicalize.max-iterations': expected an int >= -1, got 'many'
// RUN: not mlc-opt %s -p cse --pass-config graph.fuse-ops.max-depth=-1 2>&1 | filecheck %s --check-prefix=DOMAIN
// DOMAIN: mlc-opt: error: invalid value for config key 'graph.fuse-ops.max-depth': expected an int >= 0, got '-1'
//
// RUN: not mlc-opt %s -p cse --pass-config canonicalize.max-iterations 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX: mlc-opt: error: --pass-config takes KEY=VALUE, got 'canonicalize.max-iterations'
//
// A known key with a good value is accepted (the key is repeatable; the last one
// counts).
// RUN: mlc-opt %s -p canonicalize --pass-config canonicalize.max-iterations=1 --pass-config canonicalize.max-iterations=5 | filecheck %s
// CHECK-LABEL: func.func @f(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %arg0, %[[C]] : i32
//
// canonicalize.max-iterations is the default of canonicalize's max-iterations:
// one iteration does not converge here ...
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize{test-convergence=true}))' --pass-config canonicalize.max-iterations=1 --verify-diagnostics
// ... and an explicit option overrides it, also one equal to the default (10):
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize{test-convergence=true max-iterations=10}))' --pass-config canonicalize.max-iterations=1 | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize{test-convergence=true max-iterations=2}))' --pass-config canonicalize.max-iterations=1 | filecheck %s

// expected-error@+1 {{greedy rewriting did not converge after 1 iterations}}
func.func @f(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %arg0, %c3 : i32
  %1 = arith.addi %0, %c4 : i32
  return %1 : i32
}
