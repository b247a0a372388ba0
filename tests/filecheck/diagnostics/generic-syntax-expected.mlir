// Where the generic syntax stops, mlc says what MLIR's parser says there: what it
// expected, in the words of the construct it was reading (an operand list, a region
// list, a block's arguments, a tensor type, a location...), located as mlir-opt-22
// locates it (just after the text before the offending token).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect %}

// expected-error@+1 {{expected '(' to start operand list}}
"test.no_operands" : () -> ()

// -----

func.func @f(%v: i32) {
  // expected-error@+1 {{expected ')' to end operand list}}
  "test.unclosed"(%v : (i32) -> ()
  return
}

// -----

func.func @f(%v: i32) {
  // expected-error@+1 {{expected SSA operand}}
  "test.trailing_comma"(%v, ) : (i32) -> ()
  return
}

// -----

// expected-error@+1 {{expected block name}}
"test.branch"() [7] : () -> ()

// -----

// expected-error@+1 {{expected ',' or ']'}}
"test.branch"() [^exit : () -> ()

// -----

// expected-error@+1 {{expected '>' to close properties}}
"test.props"() <{width = 8} : () -> ()

// -----

// expected-error@+1 {{expected ')' to end region list}}
"test.regions"() ({}, {} : () -> ()

// -----

// expected-error@+1 {{expected attribute name}}
"test.attrs"() {42} : () -> ()

// -----

// expected-error@+1 {{expected '}' in attribute dictionary}}
"test.attrs"() {outer = {inner = 1} : () -> ()

// -----

// expected-error@+1 {{expected ',' or ']'}}
"test.attrs"() {list = [1, 2} : () -> ()

// -----

// expected-error@+1 {{expected attribute value}}
"test.attrs"() {list = [1, )]} : () -> ()

// -----

// expected-error@+1 {{expected nested symbol reference identifier}}
"test.attrs"() {ref = @outer::} : () -> ()

// -----

// expected-error@+1 {{expected function type}}
"test.not_a_function_type"() : f32

// -----

// expected-error@+1 {{expected '->' in function type}}
"test.arrowless"() : (f32) f32

// -----

// expected-error@+1 {{expected ')'}}
"test.unclosed_inputs"() : (f32, f64 -> ()

// -----

// expected-error@+1 {{expected '<' in tensor type}}
"test.t"() : () -> tensor f32

// -----

// expected-error@+1 {{expected '>' in vector type}}
"test.t"() : () -> (vector<4xf32)

// -----

// expected-error@+1 {{expected ',' or '>' in memref type}}
"test.t"() : () -> (memref<4xf32)

// -----

// expected-error@+1 {{expected '<' in complex type}}
"test.t"() : () -> complex f32

// -----

// expected-error@+1 {{expected non-function type}}
"test.t"() : () -> (tuple<f32, )

// -----

// expected-error@+1 {{expected '(' in location}}
"test.loc"() : () -> () loc "file"

// -----

// expected-error@+1 {{expected location instance}}
"test.loc"() : () -> () loc(42)

// -----

// expected-error@+1 {{expected ')' in location}}
"test.loc"() : () -> () loc("name" 42

// -----

// expected-error@+1 {{expected 'at' in callsite location}}
"test.loc"() : () -> () loc(callsite("callee" "caller"))

// -----

// expected-error@+1 {{expected ']' in fused location}}
"test.loc"() : () -> () loc(fused["a" "b"])

// -----

// expected-error@+1 {{expected integer column number in FileLineColRange}}
"test.loc"() : () -> () loc("file.mlir":3:)

// -----

"test.region"() ({
// expected-error@+1 {{expected SSA operand}}
^entry(f32):
  "test.op"() : () -> ()
}) : () -> ()

// -----

"test.region"() ({
// expected-error@+1 {{expected ':' and type for SSA operand}}
^entry(%x):
  "test.op"() : () -> ()
}) : () -> ()

// -----

"test.region"() ({
// expected-error@+1 {{expected ':' after block name}}
^entry(%x: f32)
  "test.op"() : () -> ()
}) : () -> ()

// -----

// A result list that does not end in '='.
// expected-error@+1 {{expected '=' after SSA name}}
%a, %b "test.two"() : () -> (f32, f32)

// -----

// expected-error@+1 {{expected valid ssa identifier}}
%a, = "test.two"() : () -> (f32, f32)

// -----

// expected-error@+1 {{expected integer number of results}}
%a: = "test.two"() : () -> (f32, f32)

// -----

// Where an op may start, only an op name (or a result list, or a block) may come; the
// error is at the end of the text before the token, comments skipped.
// expected-error@+1 {{expected operation name in quotes}}
func.func @f() {
  @symbol
  return
}

// -----

// expected-error@+1 {{expected '=' in type alias definition}}
!alias f32

// -----

// expected-error@+1 {{expected '=' in attribute alias definition}}
#alias 7

// -----

// expected-error@+1 {{expected attribute value}}
#alias = )

// -----

// expected-error@+1 {{type names with a '.' are reserved for dialect-defined names}}
!dialect.alias = f32

// -----

// expected-error@+1 {{attribute names with a '.' are reserved for dialect-defined names}}
#dialect.alias = 7

// -----

// expected-error@+1 {{expected named operation to have at least 1 result}}
%none:0 = "test.two"() : () -> (f32, f32)

// -----

// expected-error@+1 {{cannot name an operation with no results}}
%x = "test.nothing"() : () -> ()

// -----

// expected-error@+1 {{empty operation name is invalid}}
""() : () -> ()

// -----

// expected-error@+1 {{expected valid attribute name}}
"test.attrs"() {"" = 1} : () -> ()

// -----

func.func @f() {
  // expected-error@+2 {{Dialect `nodialect' not found for custom op 'nodialect.op'}}
  // expected-note-re@+1 {{Available dialects: {{.*}}builtin{{.*}}func}}
  nodialect.op
  return
}
