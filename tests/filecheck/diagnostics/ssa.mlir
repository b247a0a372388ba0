// SSA values and blocks: undefined values (reported at the use), redefinitions (with a
// note at the first definition), uses whose types disagree, bad result numbers,
// undefined and redefined blocks.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @f(%arg0: f32) -> f32 {
  // expected-error@+1 {{use of undeclared SSA value name}}
  %0 = arith.addf %arg0, %undefined : f32
  return %0 : f32
}

// -----

func.func @f() {
  // expected-error@+1 {{use of undeclared SSA value name}}
  "foo.use"(%never) : (i32) -> ()
  return
}

// -----

func.func @f(%arg0: f32) -> f32 {
  %0 = arith.addf %arg0, %arg0 : f32
  // expected-note@-1 {{previously defined here}}
  // expected-error@+1 {{redefinition of SSA value '%0'}}
  %0 = arith.addf %arg0, %arg0 : f32
  return %0 : f32
}

// -----

// A block argument redefined by an op.
func.func @f(%arg0: f32) -> f32 {
  // expected-note@-1 {{previously defined here}}
  // expected-error@+1 {{redefinition of SSA value '%arg0'}}
  %arg0 = arith.addf %arg0, %arg0 : f32
  return %arg0 : f32
}

// -----

// The use's type disagrees with the definition above it.
func.func @f(%arg0: f32) -> f32 {
  %0 = arith.addf %arg0, %arg0 : f32
  // expected-note@-1 {{prior use here}}
  // expected-error@+1 {{use of value '%0' expects different type than prior uses: 'i32' vs 'f32'}}
  %1 = arith.addi %0, %0 : i32
  return %0 : f32
}

// -----

// A forward reference (in a graph region) whose definition has another type.
%1 = "foo.use"(%0) : (i32) -> i32
// expected-note@-1 {{previously used here with type 'i32'}}
// expected-error@+1 {{definition of SSA value '%0#0' has type 'f32'}}
%0 = "foo.def"() : () -> f32

// -----

func.func @f() {
  %0:2 = "foo.two"() : () -> (i32, i32)
  // expected-error@+1 {{reference to invalid result number}}
  "foo.use"(%0#5) : (i32) -> ()
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{reference to an undefined block}}
  "foo.br"() [^nope] : () -> ()
}

// -----

func.func @f() {
  "foo.br"() [^bb1] : () -> ()
^bb1:
  "foo.br"() [^bb1] : () -> ()
// expected-error@+1 {{redefinition of block '^bb1'}}
^bb1:
  return
}

// -----

// A value defined inside a region is not visible after it.
func.func @f() {
  "foo.region"() ({
    %1 = arith.constant 1 : i32
    "foo.yield"() : () -> ()
  }) : () -> ()
  // expected-error@+1 {{use of undeclared SSA value name}}
  %2 = arith.addi %1, %1 : i32
  return
}
