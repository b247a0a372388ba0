// Regression (fixed): integer attributes are not range-checked (only i1 is): `256 : i8`,
// `-129 : i8`, `99999999999999999999999999999 : i32`, `-1 : ui8`, `128 : si8` are all
// accepted and printed back as written. mlir-opt-22 rejects each with "integer
// constant out of range for attribute" ("negative integer literal not valid for
// unsigned integer type" for `-1 : ui8`).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{integer constant out of range for attribute}}
"foo.op"() {a = 256 : i8} : () -> ()

// -----

// expected-error@+1 {{integer constant out of range for attribute}}
"foo.op"() {a = -129 : i8} : () -> ()

// -----

// expected-error@+1 {{integer constant out of range for attribute}}
%0 = arith.constant 99999999999999999999999999999 : i32

// -----

// expected-error@+1 {{negative integer literal not valid for unsigned integer type}}
"foo.op"() {a = -1 : ui8} : () -> ()

// -----

// expected-error@+1 {{integer constant out of range for attribute}}
"foo.op"() {a = 128 : si8} : () -> ()
