// Regression (fixed): an alias may be defined twice (the second silently wins); mlir-opt-22:
// "redefinition of attribute alias id 'a'" / "redefinition of type alias id 't'".
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

#a = 1 : i32
// expected-error@+1 {{redefinition of attribute alias id 'a'}}
#a = 2 : i32

// -----

!t = i32
// expected-error@+1 {{redefinition of type alias id 't'}}
!t = f32
