// Invalid scf ops: both tools report each with the same words.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect %}

func.func @parallel_step_zero(%a: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{constant step operand must be positive}}
  scf.parallel (%i) = (%a) to (%a) step (%c0) {
  }
  return
}

// -----

func.func @bound_types(%a: index, %b: i32) {
  // expected-error@+1 {{failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%a, %b, %a) ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @yield_type(%a: index, %x: f32) {
  // expected-error@+1 {{0-th region iter_arg and 0-th yielded value have different type: 'f32' != 'i32'}}
  %r = scf.for %i = %a to %a step %a iter_args(%acc = %x) -> (f32) {
    %c = arith.constant 1 : i32
    scf.yield %c : i32
  }
  return
}

// -----

func.func @if_needs_else(%c: i1, %x: f32) {
  // expected-error@+1 {{must have an else block if defining values}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @if_yield_count(%c: i1, %x: f32) {
  // expected-error@+1 {{along control flow edge from Operation scf.yield to parent: region branch point has 1 operands, but region successor needs 2 inputs}}
  %r:2 = scf.if %c -> (f32, f32) {
    // expected-note@+1 {{region branch point}}
    scf.yield %x : f32
  } else {
    scf.yield %x, %x : f32, f32
  }
  return
}

// -----

func.func @while_before(%c: i1) {
  // expected-error@+1 {{expects the 'before' region to terminate with 'scf.condition'}}
  scf.while : () -> () {
    // expected-note@+1 {{terminator here}}
    scf.yield
  } do {
    scf.yield
  }
  return
}

// -----

func.func @while_types(%x: f32) {
  // expected-error@+2 {{along control flow edge from parent to Region #0: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  // expected-note@+1 {{region branch point}}
  %r = "scf.while"(%x) ({
  ^bb0(%a: i32):
    %c = arith.constant true
    "scf.condition"(%c, %a) : (i1, i32) -> ()
  }, {
  ^bb0(%a: i32):
    "scf.yield"(%a) : (i32) -> ()
  }) : (f32) -> i32
  return
}

// -----

func.func @parallel_reductions(%a: index, %x: f32) {
  // expected-error@+1 {{expects number of results: 1 to be the same as number of reductions: 0}}
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
  }
  return
}

// -----

func.func @reduce_block(%a: index, %x: f32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    // expected-error@+1 {{expected two block arguments with type 'f32' in the 0-th reduction region}}
    scf.reduce(%x : f32) {
    ^bb0(%l: f32):
      scf.reduce.return %l : f32
    }
  }
  return
}

// -----

func.func @switch_duplicate(%i: index) {
  // expected-error@+1 {{has duplicate case value: 1}}
  scf.index_switch %i
  case 1 {
    scf.yield
  }
  case 1 {
    scf.yield
  }
  default {
  }
  return
}

// -----

func.func @execute_region_args() {
  // expected-error@+1 {{region cannot have any arguments}}
  "scf.execute_region"() ({
  ^bb0(%a: i32):
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @yield_parent() {
  "test.wrapper"() ({
    // expected-error@+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
    scf.yield
  }) : () -> ()
  return
}
