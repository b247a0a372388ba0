// Syntax errors, one per chunk, located as mlir-opt-22 locates them: at the offending
// token, or just after the text before it when that token starts a later line. (End of
// input: eof-*.mlir.)
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{expected non-function type}}
func.func @f( {

// -----

func.func @f() {
  return
}
// expected-error@-1 {{expected operation name in quotes}}
}

// -----

// expected-error@+1 {{expected operation name in quotes}}
=

// -----

%
// expected-error@-1 {{invalid SSA name}}

// -----

// expected-error@+1 {{expected '"' in string literal}}
"foo.op"() {a = "unterminated} : () -> ()

// -----

// expected-error@+1 {{unknown escape '\z' in string}}
"foo.op"() {a = "\zz"} : () -> ()

// -----

// expected-error@+1 {{expected ']'}}
%0 = arith.constant dense<[1, 2> : tensor<2xi32>

// -----

// At the end of the input, which is the blank line below (as mlir-opt-22 reports it).
// expected-error@+2 {{expected identifier key for 'resource' entry}}
{-# dialect_resources: {

// -----

// expected-error@+1 {{undefined symbol alias id 'undefined_alias'}}
func.func private @f(!undefined_alias)

// -----

// expected-error@+1 {{undefined symbol alias id 'nope'}}
"foo.op"() {a = #nope} : () -> ()

// -----

func.func @f() {
  // expected-error@+1 {{operation location alias was never defined}}
  return loc(#loc9)
}

// -----

// expected-error@+1 {{expected non-function type}}
func.func private @f(tensor<-1xf32>)

// -----

func.func @f() {
  // expected-error@+1 {{cannot name an operation with no results}}
  %r = call @f() : () -> ()
  return
}

// -----

// expected-error@+1 {{operation defines 1 results but was provided 3 to bind}}
%0:3 = "arith.constant"() <{value = 1 : i32}> : () -> i32
