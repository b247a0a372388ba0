// --verify-diagnostics: expectations no diagnostic meets, in mlir-opt-22's words and
// places (interop/verify-diagnostics.mlir checks that the two print the same): at
// `expected-`, the expected text underlined. Offsets may point outside the file, or
// into another chunk of a split input (the expectations are read from the whole
// file); `@above` on the first line points at it; a `@below` with no line below
// points past the last line. A diagnostic of another severity than the expected one
// is a near miss. Every such run fails and does not write -o, split or not.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: not mlc-opt %S/Inputs/expected-unmet.mlir --split-input-file --verify-diagnostics -o %t.d/out.mlir 2>&1 | filecheck %s
// RUN: not mlc-opt %S/Inputs/expected-unmet.mlir --verify-diagnostics -o %t.d/out.mlir 2>&1 | filecheck %s
// RUN: ls -A %t.d | filecheck %s --allow-empty --check-prefix=EMPTY
// EMPTY-NOT: {{.}}

// First what is wrong in the expectations themselves, then what the chunks emit,
// then what was not met.
// CHECK:      expected-unmet.mlir:17:6: error: found start of regex with no end '}}'
// CHECK-NEXT: {{^}}  // expected-error-re {{[{][{]}}{{[{][{]}}unclosed regex}}
// CHECK-NEXT: {{^}}     ^~~~~~~~~~~~~~~~{{$}}
// CHECK-NEXT: expected-unmet.mlir:4:6: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK-NEXT: {{^}}  // expected-warning@+1
// CHECK-NEXT: {{^}}     ^{{$}}
// CHECK-NEXT: expected-unmet.mlir:1:4: error: expected error "above the first line" was not produced
// CHECK-NEXT: {{^}}// expected-error@above
// CHECK-NEXT: {{^}}   ^~~~~~~~~~~~~~~~~~~~{{$}}
// CHECK-NEXT: expected-unmet.mlir:3:6: error: expected error "past the end of the file" was not produced
// CHECK-NEXT: {{^}}  // expected-error@+100
// CHECK-NEXT: {{^}}     ^~~~~~~~~~~~~~~~~~~~~~~~{{$}}
// CHECK-NEXT: expected-unmet.mlir:4:6: error: expected warning "must be floating-point-like" was not produced
// CHECK:      expected-unmet.mlir:15:4: error: expected error "before the first line" was not produced
// CHECK:      expected-unmet.mlir:20:4: error: expected remark "no line below holds code" was not produced
// CHECK:      expected-unmet.mlir:21:4: error: expected remark "nor for this one" was not produced
// The error at line 10 is expected from line 14, in the next chunk.
// CHECK-NOT:  error
