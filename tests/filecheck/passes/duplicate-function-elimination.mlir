// duplicate-function-elimination (MLIR's): functions equal but for their names are
// merged into the first, public ones too, and every reference is renamed (calls,
// references in arrays and dictionaries, `@f::@g` paths, nested modules). Value
// names, block names and locations do not matter; attributes (visibility, argument
// attributes, discardable ones), operand order, block order and branch targets do.
// Declarations are never merged.
// RUN: mlc-opt %s --duplicate-function-elimination --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --duplicate-function-elimination --allow-unregistered-dialect --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
//
// Interop: mlir-opt's pass keeps the same functions and renames the same references.
// RUN: %if mlir-opt %{ mlc-opt %s --duplicate-function-elimination --allow-unregistered-dialect | grep -oE '@[a-z_0-9]+' > %t.mlc-syms %}
// RUN: %if mlir-opt %{ %mlir_opt %s --duplicate-function-elimination --allow-unregistered-dialect | grep -oE '@[a-z_0-9]+' > %t.mlir-syms %}
// RUN: %if mlir-opt %{ diff %t.mlc-syms %t.mlir-syms %}

// STATS:      duplicate-function-elimination
// STATS-NEXT:   (5) num-duplicates - functions erased

// CHECK-LABEL: func.func @sub(
// CHECK-NOT:   func.func @also_sub(
// CHECK-NOT:   func.func @sub_renamed(
func.func @sub(%a: i32, %b: i32) -> i32 {
  %0 = arith.subi %a, %b : i32
  return %0 : i32
}
func.func @also_sub(%a: i32, %b: i32) -> i32 {
  %0 = arith.subi %a, %b : i32
  return %0 : i32
}
func.func @sub_renamed(%x: i32, %y: i32) -> i32 {
  %d = arith.subi %x, %y : i32 loc("elsewhere")
  return %d : i32
}
// CHECK: func.func @sub_swapped(
func.func @sub_swapped(%a: i32, %b: i32) -> i32 {
  %0 = arith.subi %b, %a : i32
  return %0 : i32
}
// CHECK: func.func private @sub_private(
func.func private @sub_private(%a: i32, %b: i32) -> i32 {
  %0 = arith.subi %a, %b : i32
  return %0 : i32
}
// CHECK: func.func @sub_arg_attr(
func.func @sub_arg_attr(%a: i32 {test.tag}, %b: i32) -> i32 {
  %0 = arith.subi %a, %b : i32
  return %0 : i32
}
// CHECK: func.func @sub_discardable(
func.func @sub_discardable(%a: i32, %b: i32) -> i32 attributes {test.tag} {
  %0 = arith.subi %a, %b : i32
  return %0 : i32
}

// Control flow: branch targets are compared by position, block names ignored.
// CHECK: func.func @pick(
// CHECK-NOT: func.func @also_pick(
// CHECK: func.func @pick_other(
func.func @pick(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^then, ^else
^then:
  cf.br ^join(%a : i32)
^else:
  cf.br ^join(%b : i32)
^join(%r: i32):
  return %r : i32
}
func.func @also_pick(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb3(%a : i32)
^bb2:
  cf.br ^bb3(%b : i32)
^bb3(%r: i32):
  return %r : i32
}
func.func @pick_other(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb2, ^bb1
^bb1:
  cf.br ^bb3(%a : i32)
^bb2:
  cf.br ^bb3(%b : i32)
^bb3(%r: i32):
  return %r : i32
}

// Nested regions.
// CHECK: func.func @nested(
// CHECK-NOT: func.func @also_nested(
func.func @nested(%c: i1, %a: i32) -> i32 {
  %0 = scf.if %c -> i32 {
    %1 = arith.addi %a, %a : i32
    scf.yield %1 : i32
  } else {
    scf.yield %a : i32
  }
  return %0 : i32
}
func.func @also_nested(%c: i1, %a: i32) -> i32 {
  %0 = scf.if %c -> i32 {
    %1 = arith.addi %a, %a : i32
    scf.yield %1 : i32
  } else {
    scf.yield %a : i32
  }
  return %0 : i32
}

// CHECK: func.func private @decl(i32) -> i32
// CHECK: func.func private @also_decl(i32) -> i32
func.func private @decl(i32) -> i32
func.func private @also_decl(i32) -> i32

// CHECK-LABEL: func.func @user(
// CHECK:         call @sub(
// CHECK-NEXT:    call @sub(
// CHECK-NEXT:    call @sub(
// CHECK-NEXT:    call @sub_swapped(
// CHECK-NEXT:    call @sub_private(
// CHECK-NEXT:    call @pick(
// CHECK-NEXT:    call @pick_other(
// CHECK-NEXT:    call @nested(
// CHECK-NEXT:    call @decl(
// CHECK-NEXT:    call @also_decl(
// CHECK-NEXT:    "test.refs"() {path = @sub::@inner, refs = [@sub, {key = @nested}]} : () -> ()
func.func @user(%c: i1, %a: i32) -> i32 {
  %0 = call @sub(%a, %a) : (i32, i32) -> i32
  %1 = call @also_sub(%0, %a) : (i32, i32) -> i32
  %2 = call @sub_renamed(%1, %a) : (i32, i32) -> i32
  %3 = call @sub_swapped(%2, %a) : (i32, i32) -> i32
  %4 = call @sub_private(%3, %a) : (i32, i32) -> i32
  %5 = call @also_pick(%c, %4, %a) : (i1, i32, i32) -> i32
  %6 = call @pick_other(%c, %5, %a) : (i1, i32, i32) -> i32
  %7 = call @also_nested(%c, %6) : (i1, i32) -> i32
  %8 = call @decl(%7) : (i32) -> i32
  %9 = call @also_decl(%8) : (i32) -> i32
  "test.refs"() {refs = [@also_sub, {key = @also_nested}], path = @sub_renamed::@inner} : () -> ()
  return %9 : i32
}

// Duplicates inside a nested module merge too, and calls to them are renamed.
// CHECK-LABEL: module @inner {
// CHECK:         func.func @inner_neg(
// CHECK-NOT:     func.func @inner_also_neg(
// CHECK:         func.func @inner_user(
// CHECK-NEXT:      call @inner_neg(
// CHECK-NEXT:      call @inner_neg(
module @inner {
  func.func @inner_neg(%a: i64) -> i64 {
    %0 = arith.subi %a, %a : i64
    return %0 : i64
  }
  func.func @inner_also_neg(%b: i64) -> i64 {
    %1 = arith.subi %b, %b : i64
    return %1 : i64
  }
  func.func @inner_user(%a: i64) -> i64 {
    %0 = call @inner_neg(%a) : (i64) -> i64
    %1 = call @inner_also_neg(%0) : (i64) -> i64
    return %1 : i64
  }
}
