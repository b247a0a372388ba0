// Dominance across the blocks of a CFG (branches are unregistered `foo.br` and
// `foo.cond_br`, as MLIR's own tests write them). A value defined in one arm of a
// diamond does not dominate the join block, nor what is nested in it, nor a region
// nested in the other arm; a loop body's value does not dominate the loop exit; a
// block's argument does not dominate a sibling block. Values of the entry block, and
// those passed as block arguments, do. Errors and notes are worded as mlir-opt-22
// words them (interop/verify-dominance.mlir runs it on this file).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect | filecheck %s

// A value of one arm of a diamond used in the join block.
func.func @diamond(%c: i1, %a: i32) -> i32 {
  "foo.cond_br"(%c)[^left, ^right] : (i1) -> ()
^left:
  // expected-note@+1 {{operand defined here (op in the same region)}}
  %l = arith.addi %a, %a : i32
  "foo.br"()[^join] : () -> ()
^right:
  "foo.br"()[^join] : () -> ()
^join:
  // expected-error@+1 {{operand #1 does not dominate this use}}
  %j = arith.addi %a, %l : i32
  return %j : i32
}

// -----

// The same, the other arm.
func.func @diamond_right(%c: i1, %a: i32) -> i32 {
  "foo.cond_br"(%c)[^left, ^right] : (i1) -> ()
^left:
  "foo.br"()[^join] : () -> ()
^right:
  // expected-note@+1 {{operand defined here (op in the same region)}}
  %r = arith.addi %a, %a : i32
  "foo.br"()[^join] : () -> ()
^join:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %j = arith.addi %r, %a : i32
  return %j : i32
}

// -----

// A value of one arm used in a region nested in the join block.
func.func @diamond_nested(%c: i1, %a: i32) {
  "foo.cond_br"(%c)[^left, ^right] : (i1) -> ()
^left:
  // expected-note@+1 {{operand defined here (op in a parent region)}}
  %l = arith.addi %a, %a : i32
  "foo.br"()[^join] : () -> ()
^right:
  "foo.br"()[^join] : () -> ()
^join:
  "foo.region"() ({
    // expected-error@+1 {{operand #0 does not dominate this use}}
    %n = arith.addi %l, %a : i32
    "foo.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// A value of a sibling block used in a region of the other arm.
func.func @sibling_nested(%c: i1, %a: i32) {
  "foo.cond_br"(%c)[^left, ^right] : (i1) -> ()
^left:
  // expected-note@+1 {{operand defined here (op in a parent region)}}
  %l = arith.addi %a, %a : i32
  return
^right:
  "foo.region"() ({
    "foo.region"() ({
      // expected-error@+1 {{operand #1 does not dominate this use}}
      %n = arith.addi %a, %l : i32
      "foo.yield"() : () -> ()
    }) : () -> ()
    "foo.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// A loop: the header's value is used in the body, not the other way round.
func.func @loop(%a: i32) {
  "foo.br"()[^header] : () -> ()
^header:
  %h = arith.addi %a, %a : i32
  "foo.cond_br"(%h)[^body, ^exit] : (i32) -> ()
^body:
  // expected-note@+1 {{operand defined here (op in the same region)}}
  %b = arith.addi %h, %a : i32
  "foo.br"()[^header] : () -> ()
^exit:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %e = arith.addi %b, %a : i32
  return
}

// -----

// What does dominate: the entry block's values in both arms, the join and regions
// nested in it; the arms' values through the join block's argument.
// CHECK-LABEL: func.func @diamond_fine(%c: i1, %a: i32) -> i32 {
// CHECK:         %e = arith.addi %a, %a : i32
// CHECK:       ^bb3(%m: i32):
// CHECK-NEXT:    %j = arith.addi %e, %m : i32
// CHECK:             %k = arith.addi %n, %j : i32
func.func @diamond_fine(%c: i1, %a: i32) -> i32 {
  %e = arith.addi %a, %a : i32
  "foo.cond_br"(%c)[^left, ^right] : (i1) -> ()
^left:
  %l = arith.addi %e, %a : i32
  "foo.br"(%l)[^join] : (i32) -> ()
^right:
  %r = arith.muli %e, %a : i32
  "foo.br"(%r)[^join] : (i32) -> ()
^join(%m: i32):
  %j = arith.addi %e, %m : i32
  "foo.region"() ({
    %n = arith.addi %e, %m : i32
    "foo.region"() ({
      %k = arith.addi %n, %j : i32
      "foo.yield"() : () -> ()
    }) : () -> ()
    "foo.yield"() : () -> ()
  }) : () -> ()
  return %j : i32
}

// -----

// A block argument used in a block it does not dominate: the note points at the op
// holding the region, and counts the block (as mlir-opt-22 does).
// expected-note@+1 {{operand defined as a block argument (block #2 in the same region)}}
func.func @block_argument(%c: i1, %a: i32) {
  "foo.cond_br"(%c)[^left, ^right] : (i1) -> ()
^left:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %l = arith.addi %r, %a : i32
  return
^right(%r: i32):
  return
}

// -----

// The same, from a region nested in the other arm.
// expected-note@+1 {{operand defined as a block argument (block #2 in a parent region)}}
func.func @block_argument_nested(%c: i1, %a: i32) {
  "foo.cond_br"(%c)[^left, ^right] : (i1) -> ()
^left:
  "foo.region"() ({
    // expected-error@+1 {{operand #0 does not dominate this use}}
    %l = arith.addi %r, %a : i32
    "foo.end"() : () -> ()
  }) : () -> ()
  return
^right(%r: i32):
  return
}

// -----

// An unregistered op's region of several blocks has SSA dominance.
func.func @unregistered_cfg(%a: i32) {
  "foo.region"() ({
    "foo.br"()[^bb1] : () -> ()
  ^bb1:
    // expected-error@+1 {{operand #0 does not dominate this use}}
    "foo.use"(%late) : (i32) -> ()
    "foo.br"()[^bb2] : () -> ()
  ^bb2:
    // expected-note@+1 {{operand defined here (op in the same region)}}
    %late = arith.muli %a, %a : i32
    "foo.end"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Nothing is known of an unregistered op, so a region of it with one block may be a
// graph region: a use before the definition is accepted there (as by mlir-opt-22).
// CHECK-LABEL: func.func @unregistered_graph(%a: i32) {
// CHECK-NEXT:    "foo.region"() ({
// CHECK-NEXT:      "foo.use"(%late) : (i32) -> ()
// CHECK-NEXT:      %late = arith.muli %a, %a : i32
func.func @unregistered_graph(%a: i32) {
  "foo.region"() ({
    "foo.use"(%late) : (i32) -> ()
    %late = arith.muli %a, %a : i32
  }) : () -> ()
  return
}
