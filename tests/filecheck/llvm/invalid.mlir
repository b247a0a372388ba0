// Invalid llvm ops: both tools report each with the same words.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

llvm.func @float_op_on_integers(%arg0: i32) {
  // expected-error@+1 {{'llvm.fadd' op operand #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type, but got 'i32'}}
  %0 = llvm.fadd %arg0, %arg0 : i32
  llvm.return
}

// -----

llvm.func @integer_op_on_floats(%arg0: f32) {
  // expected-error@+1 {{'llvm.add' op operand #0 must be signless integer or LLVM dialect-compatible vector of signless integer, but got 'f32'}}
  %0 = llvm.add %arg0, %arg0 : f32
  llvm.return
}

// -----

llvm.func @mixed_types(%arg0: i32, %arg1: i64) {
  // expected-error@+1 {{'llvm.add' op requires the same type for all operands and results}}
  %0 = "llvm.add"(%arg0, %arg1) : (i32, i64) -> i32
  llvm.return
}

// -----

llvm.func @load_from_integer(%arg0: i32) {
  // expected-error@+1 {{'llvm.load' op operand #0 must be LLVM pointer type, but got 'i32'}}
  %0 = llvm.load %arg0 : i32 -> f32
  llvm.return
}

// -----

llvm.func @compare_mixed(%arg0: i32, %arg1: i64) {
  // expected-error@+1 {{'llvm.icmp' op requires all operands to have the same type}}
  %0 = "llvm.icmp"(%arg0, %arg1) <{predicate = 0 : i64}> : (i32, i64) -> i1
  llvm.return
}

// -----

llvm.func @compare_result(%arg0: i32) {
  // expected-error@+1 {{'llvm.icmp' op result #0 must be 1-bit signless integer or LLVM dialect-compatible vector of 1-bit signless integer, but got 'i32'}}
  %0 = "llvm.icmp"(%arg0, %arg0) <{predicate = 0 : i64}> : (i32, i32) -> i32
  llvm.return
}

// -----

llvm.func @select_mixed(%arg0: i1, %arg1: i32, %arg2: i64) {
  // expected-error@+1 {{'llvm.select' op failed to verify that all of {trueValue, falseValue, res} have same type}}
  %0 = "llvm.select"(%arg0, %arg1, %arg2) : (i1, i32, i64) -> i32
  llvm.return
}

// -----

llvm.func @cast_from_float(%arg0: f32) {
  // expected-error@+1 {{'llvm.zext' op operand #0 must be signless integer or LLVM dialect-compatible vector of signless integer, but got 'f32'}}
  %0 = llvm.zext %arg0 : f32 to i64
  llvm.return
}

// -----

llvm.func @callee(i32) -> i32

llvm.func @call_argument_type(%arg0: f32) {
  // expected-error@+1 {{'llvm.call' op operand type mismatch for operand 0: 'f32' != 'i32'}}
  %0 = llvm.call @callee(%arg0) : (f32) -> i32
  llvm.return
}

// -----

llvm.func @callee(i32) -> i32

llvm.func @call_argument_count() {
  // expected-error@+1 {{'llvm.call' op incorrect number of operands (0) for callee (expecting: 1)}}
  %0 = llvm.call @callee() : () -> i32
  llvm.return
}

// -----

llvm.func @callee(i32) -> i32

llvm.func @call_result_type(%arg0: i32) {
  // expected-error@+1 {{'llvm.call' op result type mismatch: 'f32' != 'i32'}}
  %0 = llvm.call @callee(%arg0) : (i32) -> f32
  llvm.return
}

// -----

llvm.func @callee(i32) -> i32

llvm.func @call_no_result(%arg0: i32) {
  // expected-error@+1 {{'llvm.call' op expected function call to produce a value}}
  llvm.call @callee(%arg0) : (i32) -> ()
  llvm.return
}

// -----

llvm.func @call_unknown(%arg0: i32) {
  // expected-error@+1 {{'llvm.call' op 'nowhere' does not reference a symbol in the current scope}}
  llvm.call @nowhere(%arg0) : (i32) -> ()
  llvm.return
}

// -----

// expected-note@+1 {{when returning from function}}
llvm.func @return_type(%arg0: f32) -> i32 {
  // expected-error@+1 {{'llvm.return' op mismatching result types}}
  llvm.return %arg0 : f32
}

// -----

// expected-note@+1 {{when returning from function}}
llvm.func @return_nothing() -> i32 {
  // expected-error@+1 {{'llvm.return' op expected 1 operand}}
  llvm.return
}

// -----

// expected-note@+1 {{when returning from function}}
llvm.func @return_from_void(%arg0: i32) {
  // expected-error@+1 {{'llvm.return' op expected no operands}}
  llvm.return %arg0 : i32
}

// -----

// expected-error@+1 {{'llvm.func' op external functions must have 'external' or 'extern_weak' linkage}}
llvm.func internal @declared_internal()

// -----

// expected-error@+1 {{'llvm.func' op type of entry block argument #0('f32') must match the type of the corresponding argument in function signature('i32')}}
"llvm.func"() <{function_type = !llvm.func<void (i32)>, sym_name = "entry_block"}> ({
^bb0(%arg0: f32):
  "llvm.return"() : () -> ()
}) : () -> ()

// -----

llvm.func @branch_operands(%arg0: i32) {
  // expected-error@+1 {{branch has 1 operands for successor #0, but target block has 0}}
  llvm.br ^bb1(%arg0 : i32)
^bb1:
  llvm.return
}

// -----

llvm.func @struct_index(%arg0: !llvm.ptr, %arg1: i32) {
  // expected-error@+1 {{'llvm.getelementptr' op expected index 1 indexing a struct to be constant}}
  %0 = llvm.getelementptr %arg0[0, %arg1] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

llvm.func @gep_flag(%arg0: !llvm.ptr) {
  // expected-error@+1 {{'llvm.getelementptr' op 'inbounds_flag' cannot be used directly.}}
  %0 = "llvm.getelementptr"(%arg0) <{elem_type = i8, noWrapFlags = 1 : i32, rawConstantIndices = array<i32: 1>}> : (!llvm.ptr) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @address_of_nothing() {
  // expected-error@+1 {{'llvm.mlir.addressof' op must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'}}
  %0 = llvm.mlir.addressof @nowhere : !llvm.ptr
  llvm.return
}

// -----

llvm.func @constant_elements() {
  // expected-error@+1 {{'llvm.mlir.constant' op type and attribute have a different number of elements: 8 vs. 4}}
  %0 = llvm.mlir.constant(dense<1.0> : vector<4xf32>) : vector<8xf32>
  llvm.return
}

// -----

llvm.func @constant_string() {
  // expected-error@+1 {{'llvm.mlir.constant' op expected array type of 1 i8 elements for the string constant}}
  %0 = llvm.mlir.constant("x") : i32
  llvm.return
}

// -----

llvm.func @constant_float_semantics() {
  // expected-error@+1 {{'llvm.mlir.constant' op attribute and type have different float semantics}}
  %0 = llvm.mlir.constant(1.0 : f32) : f64
  llvm.return
}

// -----

llvm.func @constant_float_bits() {
  // expected-error@+1 {{'llvm.mlir.constant' op expected integer type of width 32}}
  %0 = llvm.mlir.constant(1.0 : f32) : i64
  llvm.return
}

// -----

llvm.func @constant_integer() {
  // expected-error@+1 {{'llvm.mlir.constant' op expected integer type}}
  %0 = llvm.mlir.constant(1 : i32) : f32
  llvm.return
}

// -----

llvm.func @powi_exponent(%arg0: f32) {
  // expected-error@+1 {{'llvm.intr.powi' op operand #1 must be signless integer, but got 'f32'}}
  %0 = llvm.intr.powi(%arg0, %arg0) : (f32, f32) -> f32
  llvm.return
}

// -----

llvm.func @string_global_type() {
  llvm.return
}
// expected-error@+1 {{'llvm.mlir.global' op requires an i8 array type of the length equal to that of the string attribute}}
llvm.mlir.global internal constant @message("abc") : !llvm.array<2 x i8>

// -----

llvm.func @too_many_results() {
  llvm.return
}
// expected-error@+1 {{failed to construct function type: expected zero or one function result}}
llvm.func @pair() -> (i32, i32)

// -----

llvm.func @atomicrmw_integer_op_on_float(%p: !llvm.ptr, %v: f32) {
  // expected-error@+1 {{'llvm.atomicrmw' op expected LLVM IR integer type}}
  %0 = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, f32
  llvm.return
}

// -----

llvm.func @atomicrmw_float_op_on_integer(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{'llvm.atomicrmw' op expected LLVM IR floating point type}}
  %0 = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @atomicrmw_unordered(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{'llvm.atomicrmw' op expected at least 'monotonic' ordering}}
  %0 = llvm.atomicrmw add %p, %v unordered : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @atomicrmw_xchg_i1(%p: !llvm.ptr, %v: i1) {
  // expected-error@+1 {{'llvm.atomicrmw' op unexpected LLVM IR type for 'xchg' bin_op}}
  %0 = llvm.atomicrmw xchg %p, %v monotonic : !llvm.ptr, i1
  llvm.return
}

// -----

llvm.func @cmpxchg_failure_release(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{'llvm.cmpxchg' op failure ordering cannot be 'release' or 'acq_rel'}}
  %0 = llvm.cmpxchg %p, %v, %v acq_rel release : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @cmpxchg_unordered(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{'llvm.cmpxchg' op ordering must be at least 'monotonic'}}
  %0 = llvm.cmpxchg %p, %v, %v unordered monotonic : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @cmpxchg_i1(%p: !llvm.ptr, %v: i1) {
  // expected-error@+1 {{'llvm.cmpxchg' op unexpected LLVM IR type}}
  %0 = llvm.cmpxchg %p, %v, %v monotonic monotonic : !llvm.ptr, i1
  llvm.return
}

// -----

llvm.func @atomic_load_without_alignment(%p: !llvm.ptr) -> i32 {
  // expected-error@+1 {{'llvm.load' op expected alignment for atomic access}}
  %0 = llvm.load %p atomic acquire : !llvm.ptr -> i32
  llvm.return %0 : i32
}

// -----

llvm.func @atomic_store_that_acquires(%p: !llvm.ptr, %v: i64) {
  // expected-error@+1 {{'llvm.store' op unsupported ordering 'acquire'}}
  llvm.store %v, %p atomic acquire {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.return
}

// -----

llvm.func @atomic_load_of_odd_width(%p: !llvm.ptr) -> i24 {
  // expected-error@+1 {{'llvm.load' op unsupported type 'i24' for atomic access}}
  %0 = llvm.load %p atomic seq_cst {alignment = 4 : i64} : !llvm.ptr -> i24
  llvm.return %0 : i24
}

// -----

llvm.func @sync_scope_without_atomic(%p: !llvm.ptr, %v: f64) {
  // expected-error@+1 {{'llvm.store' op expected syncscope to be null for non-atomic access}}
  "llvm.store"(%v, %p) {syncscope = "agent"} : (f64, !llvm.ptr) -> ()
  llvm.return
}

// -----

llvm.func @zext_to_narrower(%a: i64) -> i32 {
  // expected-error@+1 {{integer width of the output type is smaller or equal to the integer width of the input type}}
  %0 = llvm.zext %a : i64 to i32
  llvm.return %0 : i32
}

// -----

llvm.func @sext_between_vector_lengths(%a: vector<4xi8>) -> vector<8xi16> {
  // expected-error@+1 {{input and output vectors are of incompatible shape}}
  %0 = llvm.sext %a : vector<4xi8> to vector<8xi16>
  llvm.return %0 : vector<8xi16>
}

// -----

llvm.func @bitcast_pointer_to_integer(%p: !llvm.ptr) -> i64 {
  // expected-error@+1 {{'llvm.bitcast' op can only cast pointers from and to pointers}}
  %0 = llvm.bitcast %p : !llvm.ptr to i64
  llvm.return %0 : i64
}

// -----

llvm.func @bitcast_across_address_spaces(%p: !llvm.ptr<3>) -> !llvm.ptr {
  // expected-error@+1 {{'llvm.bitcast' op cannot cast pointers of different address spaces, use 'llvm.addrspacecast' instead}}
  %0 = llvm.bitcast %p : !llvm.ptr<3> to !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// -----

// expected-error@+1 {{alignment attribute is not a power of 2}}
llvm.mlir.global internal @badly_aligned(0 : i32) {alignment = 12 : i64} : i32

// -----

// expected-error@+1 {{'llvm.mlir.global' op expected array type for 'appending' linkage}}
llvm.mlir.global appending @appended(0 : i32) : i32

// -----

llvm.func @struct_constant_of_wrong_field_type() -> !llvm.struct<(i32, f32)> {
  // expected-error@+1 {{'llvm.mlir.constant' op struct element at index 1 is of wrong type}}
  %0 = llvm.mlir.constant([1 : i32, 2.0 : f64]) : !llvm.struct<(i32, f32)>
  llvm.return %0 : !llvm.struct<(i32, f32)>
}

// -----

llvm.func @struct_constant_of_wrong_size() -> !llvm.struct<(i32, i32, i32)> {
  // expected-error@+1 {{'llvm.mlir.constant' op expected array attribute of size 3}}
  %0 = llvm.mlir.constant([1 : i32, 2 : i32]) : !llvm.struct<(i32, i32, i32)>
  llvm.return %0 : !llvm.struct<(i32, i32, i32)>
}

// -----

llvm.func @array_of_structs_constant_too_short() -> !llvm.array<3 x struct<(i8)>> {
  // expected-error@+1 {{'llvm.mlir.constant' op array attribute size does not match array type size in dimension 0: 2 vs. 3}}
  %0 = llvm.mlir.constant([[1 : i8], [2 : i8]]) : !llvm.array<3x!llvm.struct<(i8)>>
  llvm.return %0 : !llvm.array<3 x struct<(i8)>>
}

// -----

llvm.func @elements_constant_of_wrong_length() -> !llvm.array<3 x i32> {
  // expected-error@+1 {{'llvm.mlir.constant' op type and attribute have a different number of elements: 3 vs. 4}}
  %0 = llvm.mlir.constant(dense<[1, 2, 3, 4]> : tensor<4xi32>) : !llvm.array<3 x i32>
  llvm.return %0 : !llvm.array<3 x i32>
}

// -----

llvm.func @variadic(i32, ...)

llvm.func @vararg_type_with_too_many_parameters(%a: i32) {
  // expected-error@+1 {{'llvm.call' op expected var_callee_type to have at most 1 parameters}}
  llvm.call @variadic(%a) vararg(!llvm.func<void (i32, i32, ...)>) : (i32) -> ()
  llvm.return
}

// -----

llvm.func @returns_nothing()

llvm.func @void_call_with_a_result() -> i32 {
  // expected-error@+1 {{'llvm.call' op calling function with void result must not produce values}}
  %0 = llvm.call @returns_nothing() : () -> i32
  llvm.return %0 : i32
}

// -----

llvm.func @call_through_an_integer(%f: i64) {
  // expected-error@+1 {{'llvm.call' op indirect call expects a pointer as callee: 'i64'}}
  llvm.call %f() : i64, () -> ()
  llvm.return
}

// -----

llvm.func @extract_with_declared_wrong_type(%s: !llvm.struct<(i32, f32)>) -> i32 {
  // expected-error@+1 {{'llvm.extractvalue' op Type mismatch: extracting from '!llvm.struct<(i32, f32)>' should produce 'f32' but this op returns 'i32'}}
  %0 = "llvm.extractvalue"(%s) {position = array<i64: 1>} : (!llvm.struct<(i32, f32)>) -> i32
  llvm.return %0 : i32
}

// -----

llvm.func @first_node(!llvm.struct<"node", (i32, ptr)>)
// expected-error@+1 {{identified type already used with a different body}}
llvm.func @second_node(!llvm.struct<"node", (i64, ptr)>)

// -----

// expected-error@+1 {{invalid array element type}}
llvm.func @array_of_functions(!llvm.array<2 x func<void ()>>)

// -----

// expected-error@+1 {{unexpected type, expected keyword}}
llvm.func @builtin_type_in_llvm_namespace(!llvm.i32)

// -----

// expected-error@+1 {{unknown LLVM type: pointer}}
llvm.func @misspelt_llvm_type(!llvm.pointer)

// -----

// expected-error@+1 {{'llvm.mlir.global' op expects type to be a valid element type for an LLVM global}}
llvm.mlir.global internal @of_void_type() : !llvm.void

// -----

// expected-error@+1 {{'llvm.mlir.global' op attribute 'addr_space' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
"llvm.mlir.global"() ({}) {sym_name = "negative_space", global_type = i8, addr_space = -3 : i32, linkage = #llvm.linkage<internal>} : () -> ()

// -----

// expected-error@+1 {{type can only be omitted for string globals}}
llvm.mlir.global internal @untyped_number(7 : i16)

// -----

llvm.func @declared_only()

// expected-error@+1 {{'llvm.mlir.global_ctors' op 'declared_only' does not have a definition}}
llvm.mlir.global_ctors ctors = [@declared_only], priorities = [1 : i32], data = [#llvm.zero]
