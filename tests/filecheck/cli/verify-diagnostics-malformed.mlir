// --verify-diagnostics with a line that starts an expectation but is not one: a bad
// designator, no `{{`, or a `}}` that does not end the line. mlir-opt-22 ignores such
// a line, so a typo turns the check off unseen (here it would report only the error
// the first line meant to expect); mlc reports each one where it goes wrong, fails
// the run, and does not write -o.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: not mlc-opt %S/Inputs/expected-malformed.mlir --split-input-file --verify-diagnostics -o %t.d/out.mlir 2>&1 | filecheck %s
// RUN: not mlc-opt %S/Inputs/expected-malformed.mlir --verify-diagnostics -o %t.d/out.mlir 2>&1 | filecheck %s
// RUN: ls -A %t.d | filecheck %s --allow-empty --check-prefix=EMPTY
// EMPTY-NOT: {{.}}

// CHECK:      expected-malformed.mlir:2:24: error: the expected text must end its line with '}}'
// CHECK-NEXT: {{^}}  // expected-error@+1 {{[{][{]}}unterminated{{$}}
// CHECK-NEXT: {{^}}                       ^~{{$}}
// CHECK-NEXT: expected-malformed.mlir:8:20: error: invalid designator '@x': expected @+N, @-N, @above, @below or @unknown
// CHECK-NEXT: {{^}}  // expected-error@x
// CHECK-NEXT: {{^}}                   ^~{{$}}
// CHECK-NEXT: expected-malformed.mlir:9:20: error: invalid designator '@+': expected
// CHECK:      expected-malformed.mlir:10:20: error: invalid designator '@above1': expected
// CHECK:      {{^}}                   ^~~~~~~{{$}}
// CHECK-NEXT: expected-malformed.mlir:11:20: error: invalid designator '@below:': expected
// CHECK:      expected-malformed.mlir:12:26: error: expected '{{[{][{]}}' after 'expected-warning@+1'
// CHECK:      expected-malformed.mlir:13:20: error: the expected text must end its line with '}}'
// The line the first expectation meant: its diagnostic is unexpected.
// CHECK:      expected-malformed.mlir:3:8: error: unexpected error: 'arith.addf' op operand #0 must be floating-point-like
// CHECK-NOT:  error
