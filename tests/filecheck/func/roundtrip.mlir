// The func dialect: func.func (definitions, declarations, visibility, argument and
// result attributes, function attributes), func.call and func.return. Inside a
// function, ops of the func dialect print without their `func.` prefix, and may be
// written either way.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt - --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | mlc-opt - --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func private @decl(i32, f32) -> (i1, index)
// GENERIC: "func.func"() <{function_type = (i32, f32) -> (i1, index), sym_name = "decl", sym_visibility = "private"}> ({
// GENERIC-NEXT: }) : () -> ()
func.func private @decl(i32, f32) -> (i1, index)

// CHECK-LABEL: func.func nested @nested_decl()
func.func nested @nested_decl()

// CHECK-LABEL: func.func private @decl_with_attrs(i32 {foo.a = 1 : i64}, f32) -> (i1 {foo.r})
// GENERIC: "func.func"() <{arg_attrs = [{foo.a = 1{{( : i64)?}}}, {}], function_type = (i32, f32) -> i1, res_attrs = [{foo.r}], sym_name = "decl_with_attrs", sym_visibility = "private"}> ({
func.func private @decl_with_attrs(i32 {foo.a = 1 : i64}, f32) -> (i1 {foo.r})

// `-> ()` is not printed.
// CHECK-LABEL: func.func @empty() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @empty() -> () {
  return
}

// `public` is printed when written.
// CHECK-LABEL: func.func public @pub() {
func.func public @pub() {
  return
}

// CHECK-LABEL: func.func @attrs(%arg0: i32 {foo.a = 1 : i64}, %arg1: memref<4xf32> {foo.b, foo.c = "x"}) -> (i32 {foo.r}, f32) attributes {foo.fn = "y"} {
// GENERIC: "func.func"() <{arg_attrs = [{foo.a = 1{{( : i64)?}}}, {foo.b, foo.c = "x"}], function_type = (i32, memref<4xf32>) -> (i32, f32), res_attrs = [{foo.r}, {}], sym_name = "attrs"}> ({
func.func @attrs(%arg0: i32 {foo.a = 1 : i64}, %arg1: memref<4xf32> {foo.b, foo.c = "x"}) -> (i32 {foo.r = unit}, f32) attributes {foo.fn = "y"} {
  // CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f32
  %cst = arith.constant 1.0 : f32
  // CHECK-NEXT: %0:2 = call @multi(%arg0) : (i32) -> (i32, f32)
  // GENERIC: %{{.+}}:2 = "func.call"(%arg{{[0-9]+}}) <{callee = @multi}> : (i32) -> (i32, f32)
  %0:2 = call @multi(%arg0) : (i32) -> (i32, f32)
  // CHECK-NEXT: %1:2 = call @multi(%0#0) : (i32) -> (i32, f32)
  %1:2 = func.call @multi(%0#0) : (i32) -> (i32, f32)
  // CHECK-NEXT: call @empty() : () -> ()
  call @empty() : () -> ()
  // CHECK-NEXT: %2:2 = call @decl(%1#0, %cst) : (i32, f32) -> (i1, index)
  %2:2 = call @decl(%1#0, %cst) : (i32, f32) -> (i1, index)
  // CHECK-NEXT: %3 = call @attrs_callee() {foo.call_attr} : () -> i8
  %3 = call @attrs_callee() {foo.call_attr} : () -> i8
  // CHECK-NEXT: return %1#0, %cst : i32, f32
  // GENERIC: "func.return"(%{{.+}}#0, %{{.+}}) : (i32, f32) -> ()
  // GENERIC-NEXT: }) {foo.fn = "y"} : () -> ()
  func.return %1#0, %cst : i32, f32
}

// CHECK-LABEL: func.func @multi(%arg0: i32) -> (i32, f32) {
func.func @multi(%arg0: i32) -> (i32, f32) {
  %cst = arith.constant 2.0 : f32
  // CHECK: return %arg0, %cst : i32, f32
  return %arg0, %cst : i32, f32
}

// CHECK-LABEL: func.func private @attrs_callee() -> i8
func.func private @attrs_callee() -> i8

// Recursion, and a call to a function defined further down.
// CHECK-LABEL: func.func @recursive(%arg0: index) -> index {
func.func @recursive(%arg0: index) -> index {
  // CHECK-NEXT: %0 = call @recursive(%arg0) : (index) -> index
  %0 = call @recursive(%arg0) : (index) -> index
  // CHECK-NEXT: %1 = call @later(%0) : (index) -> index
  %1 = call @later(%0) : (index) -> index
  return %1 : index
}
func.func @later(%arg0: index) -> index {
  return %arg0 : index
}

// Returns from several blocks; the func ops keep their short form in every block and
// inside the regions of other ops.
// CHECK-LABEL: func.func @blocks(%arg0: i1, %arg1: f32) -> f32 {
func.func @blocks(%arg0: i1, %arg1: f32) -> f32 {
  // CHECK-NEXT: "foo.cond_br"(%arg0)[^bb1, ^bb2] : (i1) -> ()
  "foo.cond_br"(%arg0) [^bb1, ^bb2] : (i1) -> ()
// CHECK-NEXT: ^bb1:
^bb1:
  // CHECK-NEXT: return %arg1 : f32
  return %arg1 : f32
// CHECK-NEXT: ^bb2:
^bb2:
  // CHECK-NEXT: %0 = arith.negf %arg1 : f32
  %0 = arith.negf %arg1 : f32
  // CHECK-NEXT: return %0 : f32
  return %0 : f32
}

// Functions in nested modules.
// CHECK-LABEL: module @inner {
// CHECK-NEXT:    func.func @deep(%arg0: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:      return %arg0 : tensor<2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @caller(%arg0: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:      %0 = call @deep(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
module @inner {
  func.func @deep(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    return %arg0 : tensor<2xf32>
  }
  func.func @caller(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = call @deep(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// The generic form, printed back in custom form.
// CHECK-LABEL: func.func @from_generic(%arg0: i32 {foo.x}) -> i32 attributes {foo.y} {
// CHECK-NEXT:    %0 = call @from_generic(%arg0) : (i32) -> i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
"func.func"() <{arg_attrs = [{foo.x}], function_type = (i32) -> i32, sym_name = "from_generic"}> ({
^bb0(%arg0: i32):
  %0 = "func.call"(%arg0) <{callee = @from_generic}> : (i32) -> i32
  "func.return"(%0) : (i32) -> ()
}) {foo.y} : () -> ()
