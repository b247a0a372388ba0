// A malformed pipeline is one error, with a caret into the pipeline string, and
// exit status 1; the input is not printed.
// RUN: not mlc-opt %s -p 'bad{' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN:      <pipeline>:1:1: error: 'bad' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT: bad{
// UNKNOWN-NEXT: ^
// UNKNOWN-NOT:  module
//
// Unknown pass names, nested too.
// RUN: not mlc-opt %s -p 'func.func(cse,nope)' 2>&1 | filecheck %s --check-prefix=NESTED-UNKNOWN
// NESTED-UNKNOWN:      <pipeline>:1:15: error: 'nope' does not refer to a registered pass or pass pipeline
// NESTED-UNKNOWN-NEXT: func.func(cse,nope)
// NESTED-UNKNOWN-NEXT: {{^              \^$}}
//
// RUN: not mlc-opt %s -p 'canonicalize{max-iterations=3' 2>&1 | filecheck %s --check-prefix=UNTERMINATED
// UNTERMINATED:      <pipeline>:1:30: error: unterminated '{' in pass options
// UNTERMINATED-NEXT: canonicalize{max-iterations=3
// UNTERMINATED-NEXT: {{^                             \^$}}
//
// RUN: not mlc-opt %s -p 'canonicalize{bogus=1}' 2>&1 | filecheck %s --check-prefix=NO-OPTION
// NO-OPTION:      <pipeline>:1:14: error: pass 'canonicalize' has no option 'bogus' (options: max-iterations, max-num-rewrites, top-down, fold, enable-patterns, disable-patterns, test-convergence)
// NO-OPTION-NEXT: canonicalize{bogus=1}
// NO-OPTION-NEXT: {{^             \^$}}
//
// RUN: not mlc-opt %s -p 'cse{x=1}' 2>&1 | filecheck %s --check-prefix=NO-OPTIONS
// NO-OPTIONS: <pipeline>:1:5: error: pass 'cse' has no option 'x' (options: none)
//
// RUN: not mlc-opt %s -p 'cse,canonicalize{max-iterations=many}' 2>&1 | filecheck %s --check-prefix=BAD-INT
// BAD-INT: <pipeline>:1:18: error: invalid value for option 'max-iterations' of 'canonicalize': {{.*}}'many'
//
// RUN: not mlc-opt %s -p 'canonicalize{top-down=maybe}' 2>&1 | filecheck %s --check-prefix=BAD-BOOL
// BAD-BOOL: <pipeline>:1:14: error: invalid value for option 'top-down' of 'canonicalize': expected true or false, got 'maybe'
//
// RUN: not mlc-opt %s -p 'func.func(cse' 2>&1 | filecheck %s --check-prefix=UNCLOSED
// UNCLOSED:      <pipeline>:1:14: error: expected ')', found end of pipeline
// UNCLOSED-NEXT: func.func(cse
// UNCLOSED-NEXT: {{^             \^$}}
//
// RUN: not mlc-opt %s -p 'cse)' 2>&1 | filecheck %s --check-prefix=EXTRA
// EXTRA: <pipeline>:1:4: error: unexpected ')' in pipeline
//
// RUN: not mlc-opt %s -p 'cse,,dce' 2>&1 | filecheck %s --check-prefix=EMPTY-ELEMENT
// EMPTY-ELEMENT: <pipeline>:1:5: error: expected a pass or op name, found ','
//
// RUN: not mlc-opt %s -p 'cse,' 2>&1 | filecheck %s --check-prefix=TRAILING
// TRAILING: <pipeline>:1:5: error: expected a pass or op name, found end of pipeline
//
// RUN: not mlc-opt %s -p 'print-ir{label=a} dce' 2>&1 | filecheck %s --check-prefix=JUNK
// JUNK: <pipeline>:1:19: error: unexpected 'd' in pipeline
//
// Not an error: a pipeline anchored on another op than the top-level one is nested
// in builtin.module(...). (mlir-opt-22 rejects -p 'func.func(cse)': "can't run
// 'func.func' pass manager on 'builtin.module' op".)
// RUN: mlc-opt %s -p 'func.func(cse)' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=WRAPPED
// WRAPPED: builtin.module(func.func(cse))

func.func @f() {
  return
}
