// A diagnostic at a call site location is shown at the callee (or, when it has no
// file position, the caller), then a "called from" note at each caller, innermost
// first and at most ten; a name's child and the first call site among fused
// locations count. As mlir-opt-22 shows them.
// RUN: not mlc-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: %if mlir-opt %{ not %mlir_opt %s --split-input-file 2>&1 | filecheck %s %}

// CHECK: inner.c:3:1: error: 'func.return' op has 1 operands, but enclosing function (@nested) returns 0
// CHECK-NEXT: middle.c:2:1: note: called from
// CHECK-NEXT: outer.c:1:1: note: called from
func.func @nested(%a: i32) {
  "func.return"(%a) : (i32) -> () loc(callsite("inner.c":3:1 at callsite("middle.c":2:1 at "outer.c":1:1)))
}

// -----

// CHECK: in_name.c:7:7: error: 'func.return' op has 1 operands, but enclosing function (@fused) returns 0
// CHECK-NEXT: caller.c:8:8: note: called from
// CHECK-NOT: called from
func.func @fused(%a: i32) {
  "func.return"(%a) : (i32) -> () loc(fused["no_file", "site"(callsite("in_name.c":7:7 at "caller.c":8:8)), callsite("other.c":1:1 at "other.c":2:2)])
}

// -----

// CHECK: caller_only.c:5:5: error: 'func.return' op has 1 operands, but enclosing function (@unknown_callee) returns 0
// CHECK-NEXT: caller_only.c:5:5: note: called from
func.func @unknown_callee(%a: i32) {
  "func.return"(%a) : (i32) -> () loc(callsite(unknown at "caller_only.c":5:5))
}

// -----

// CHECK: d0.c:0:1: error: 'func.return' op has 1 operands, but enclosing function (@deep) returns 0
// CHECK-NEXT: d1.c:1:1: note: called from
// CHECK-NEXT: d2.c:2:1: note: called from
// CHECK-NEXT: d3.c:3:1: note: called from
// CHECK-NEXT: d4.c:4:1: note: called from
// CHECK-NEXT: d5.c:5:1: note: called from
// CHECK-NEXT: d6.c:6:1: note: called from
// CHECK-NEXT: d7.c:7:1: note: called from
// CHECK-NEXT: d8.c:8:1: note: called from
// CHECK-NEXT: d9.c:9:1: note: called from
// CHECK-NEXT: d10.c:10:1: note: called from
// CHECK-NOT: d11.c
func.func @deep(%a: i32) {
  "func.return"(%a) : (i32) -> () loc(callsite("d0.c":0:1 at callsite("d1.c":1:1 at callsite("d2.c":2:1 at callsite("d3.c":3:1 at callsite("d4.c":4:1 at callsite("d5.c":5:1 at callsite("d6.c":6:1 at callsite("d7.c":7:1 at callsite("d8.c":8:1 at callsite("d9.c":9:1 at callsite("d10.c":10:1 at "d11.c":11:1))))))))))))
}
