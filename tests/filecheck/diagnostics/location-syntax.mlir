// The messages of a malformed `loc(...)`, after an op in custom form as after one in
// generic form, in the words and at the places mlir-opt-22 gives them: the construct
// being read (a name, call site or fused location, its metadata), or the alias that
// is never defined or is no location.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @custom_form_missing_open() {
  // expected-error@+1 {{expected '(' in location}}
  return loc "here"
}

// -----

func.func @custom_form_missing_close() {
  // expected-error@+1 {{expected ')' in location}}
  return loc("here":1:2 "there"
}

// -----

// expected-error@+1 {{expected ')' after child location of NameLoc}}
"test.loc"() : () -> () loc("outer"("inner":3:4 unknown))

// -----

// expected-error@+1 {{expected '(' in callsite location}}
"test.loc"() : () -> () loc(callsite["callee" at "caller"])

// -----

// expected-error@+1 {{expected ')' in callsite location}}
"test.loc"() : () -> () loc(callsite("callee" at "caller" "extra"))

// -----

// expected-error@+1 {{expected '>' after fused location metadata}}
"test.loc"() : () -> () loc(fused<"meta" ["a"]>)

// -----

// expected-error@+1 {{expected '[' in fused location}}
"test.loc"() : () -> () loc(fused<"meta">("a"))

// -----

// expected-error@+1 {{expected '[' in fused location}}
"test.loc"() : () -> () loc(fused "a")

// -----

func.func @alias_never_defined() {
  // expected-error@+1 {{operation location alias was never defined}}
  return loc(#nowhere)
}

// -----

// An alias defined after its use must turn out to be a location.
func.func @alias_defined_later_not_location() {
  // expected-error@+1 {{expected location, but found '42 : i32'}}
  return loc(#answer)
}

#answer = 42 : i32

// -----

// One defined before its use is checked at once.
#flag = true

// expected-error@+1 {{expected location, but found 'true'}}
"test.loc"() : () -> () loc(#flag)
