// Bad literals: dense elements of the wrong shape or kind, hex data of the wrong size,
// unknown enum keywords and flags, malformed dense arrays.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{inferred shape of elements literal ([3]) does not match type ([2])}}
%0 = arith.constant dense<[1, 2, 3]> : tensor<2xi32>

// -----

// expected-error@+1 {{inferred shape of elements literal ([2, 1]) does not match type ([2, 2])}}
%0 = arith.constant dense<[[1], [2]]> : tensor<2x2xi32>

// -----

// expected-error@+1 {{expected integer elements, but parsed floating-point}}
%0 = arith.constant dense<[1.5]> : tensor<1xi32>

// -----

// expected-error@+1 {{elements hex data size is invalid for provided type: 'tensor<4xi32>'}}
%0 = arith.constant dense<"0x0102"> : tensor<4xi32>

// -----

// The error is at the string, as mlir-opt-22 reports it.
// expected-error@+1 {{expected string containing hex digits starting with `0x`}}
%0 = arith.constant dense<"0xZZ"> : tensor<1xi8>

// -----

// expected-error@+1 {{expected string containing hex digits starting with `0x`}}
%0 = arith.constant dense<"0x123"> : tensor<2xi8>

// -----

// expected-error@+1 {{expected string containing hex digits starting with `0x`}}
%0 = arith.constant dense<"0102"> : tensor<2xi8>

// -----

// expected-error@+1 {{expected integer elements, but parsed floating-point}}
"foo.op"() {a = array<i32: 1.5>} : () -> ()

// -----

// expected-error@+1 {{expected integer or float type, got: 'tensor<2xi32>'}}
"foo.op"() {a = array<tensor<2xi32>: 1>} : () -> ()

// -----

func.func @f(%arg0: i32) -> i32 {
  // expected-error@+1 {{custom op 'arith.addi' expected Overflow to be one of: none, nsw, nuw}}
  %0 = arith.addi %arg0, %arg0 overflow<bogus> : i32
  return %0 : i32
}

// -----

func.func @f(%arg0: f32) -> f32 {
  // expected-error@+1 {{custom op 'arith.addf' expected FastMath to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  %0 = arith.addf %arg0, %arg0 fastmath<bogus> : f32
  return %0 : f32
}

// -----

func.func @f(%arg0: f32) -> i1 {
  // expected-error@+1 {{custom op 'arith.cmpf' expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]}}
  %0 = arith.cmpf bogus, %arg0, %arg0 : f32
  return %0 : i1
}

// -----

func.func @f(%arg0: i32) -> i1 {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne}}
  %0 = arith.cmpi olt, %arg0, %arg0 : i32
  return %0 : i1
}

// -----

// expected-error@+1 {{integer constant out of range for attribute of type 'i1'}}
%0 = arith.constant 2 : i1

// -----

// Hex floats wider than the type: an error at the element (was an internal error).
// expected-error@+1 {{hexadecimal float constant out of range for type}}
%0 = arith.constant dense<[0x3F800000, 0xFFFFFFFFFF]> : tensor<2xf32>

// -----

// expected-error@+1 {{hexadecimal float constant out of range for type}}
"foo.op"() {a = array<f32: 1.0, 0xFFFFFFFFFF>} : () -> ()
