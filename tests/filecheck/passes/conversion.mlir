// Dialect conversion through the test passes: test-legalize-partial and
// test-legalize-full on the same input. Both rewrite the chain
// test.source -> test.middle -> test.sink (only sink is legal, so a source takes
// two rewrites), and apply the 1:N type conversion tuple<a, b> -> (a, b) to
// function signatures (block arguments) and to test.use_tuple (which becomes
// test.use_parts). test.unknown has no legality rule: partial conversion keeps it,
// full conversion fails on it.
// RUN: mlc-opt %s --test-legalize-partial --allow-unregistered-dialect | filecheck %s --check-prefix=PARTIAL
// RUN: not mlc-opt %s --test-legalize-full --allow-unregistered-dialect 2>&1 | filecheck %s --check-prefix=FULL
// RUN: mlc-opt %s --test-legalize-full --allow-unregistered-dialect --verify-diagnostics
// A failed conversion leaves the IR as it was (the chain is not half converted):
// RUN: not mlc-opt %s --test-legalize-full --allow-unregistered-dialect --print-ir-after-failure 2>&1 | filecheck %s --check-prefix=ROLLBACK
// A successful partial conversion, then reconcile-unrealized-casts: the casts of
// @materializations are still in use, so it fails on them, each at its location:
// the op it was made for, or the block argument it rebuilds.
// RUN: not mlc-opt %s -p 'test-legalize-partial,reconcile-unrealized-casts' --allow-unregistered-dialect 2>&1 | filecheck %s --check-prefix=RECONCILE
// RUN: mlc-opt %s --test-legalize-partial --allow-unregistered-dialect --print-debuginfo | filecheck %s --check-prefix=LOCS

// ROLLBACK:      IR Dump After Failed test-legalize-full (test-legalize-full) on 'builtin.module'
// ROLLBACK-NEXT: module {
// ROLLBACK-NEXT:   func.func @chain(%arg0: i32) -> i32 {
// ROLLBACK-NEXT:     %0 = test.source %arg0 : i32 -> i32
// ROLLBACK-NEXT:     %1 = test.middle %0 : i32 -> i32
// ROLLBACK:        func.func @signature(%arg0: tuple<i32, f32>, %arg1: i64) {
// ROLLBACK-NEXT:     test.use_tuple %arg0 : tuple<i32, f32>

// RECONCILE: conversion.mlir:[[# @LINE + 43]]:29: error: failed to legalize operation 'builtin.unrealized_conversion_cast' that was explicitly marked illegal
// RECONCILE: conversion.mlir:[[# @LINE + 45]]:3: error: failed to legalize operation 'builtin.unrealized_conversion_cast' that was explicitly marked illegal
// RECONCILE-NOT: error:
// LOCS: builtin.unrealized_conversion_cast %arg0, %{{.*}} : i32, f32 to tuple<i32, f32> loc("{{.*}}conversion.mlir":[[# @LINE + 40]]:29)

// PARTIAL-LABEL: func.func @chain(%arg0: i32) -> i32 {
// PARTIAL-NEXT:    %[[A:.*]] = test.sink %arg0 : i32 -> i32
// PARTIAL-NEXT:    %[[B:.*]] = test.sink %[[A]] : i32 -> i32
// PARTIAL-NEXT:    %[[C:.*]] = test.sink %[[B]] : i32 -> i32
// PARTIAL-NEXT:    return %[[C]] : i32
func.func @chain(%arg0: i32) -> i32 {
  %0 = test.source %arg0 : i32 -> i32
  %1 = test.middle %0 : i32 -> i32
  %2 = test.sink %1 : i32 -> i32
  return %2 : i32
}

// The signature and the entry block's arguments become (i32, f32, i64), and the
// tuple's uses take the parts.
// PARTIAL-LABEL: func.func @signature(
// PARTIAL-SAME:    %arg0: i32, %[[F:[^:]*]]: f32, %[[I:[^:]*]]: i64) {
// PARTIAL-NEXT:    test.use_parts %arg0, %[[F]] : i32, f32
// PARTIAL-NEXT:    "foo.use"(%[[I]]) : (i64) -> ()
// PARTIAL-NEXT:    return
// PARTIAL-NEXT:  }
func.func @signature(%arg0: tuple<i32, f32>, %arg1: i64) {
  test.use_tuple %arg0 : tuple<i32, f32>
  // expected-error@+1 {{failed to legalize operation 'foo.use'}}
  "foo.use"(%arg1) : (i64) -> ()
  return
}

// A tuple that an unconverted op produces is split by a cast (a target
// materialization); one that an unconverted op consumes is rebuilt from the parts
// (a source materialization).
// PARTIAL-LABEL: func.func @materializations(
// PARTIAL-SAME:    %arg0: i32, %[[F:[^:]*]]: f32) {
// PARTIAL-NEXT:    %[[U:.*]] = builtin.unrealized_conversion_cast %arg0, %[[F]] : i32, f32 to tuple<i32, f32>
// PARTIAL-NEXT:    %[[T:.*]] = "foo.make"() : () -> tuple<i1, i8>
// PARTIAL-NEXT:    %[[P:.*]]:2 = builtin.unrealized_conversion_cast %[[T]] : tuple<i1, i8> to i1, i8
// PARTIAL-NEXT:    test.use_parts %[[P]]#0, %[[P]]#1 : i1, i8
// PARTIAL-NEXT:    "foo.keep"(%[[U]]) : (tuple<i32, f32>) -> ()
// PARTIAL-NEXT:    return
func.func @materializations(%arg0: tuple<i32, f32>) {
  // expected-error@+1 {{failed to legalize operation 'foo.make'}}
  %0 = "foo.make"() : () -> tuple<i1, i8>
  test.use_tuple %0 : tuple<i1, i8>
  // expected-error@+1 {{failed to legalize operation 'foo.keep'}}
  "foo.keep"(%arg0) : (tuple<i32, f32>) -> ()
  return
}

// Partial conversion keeps the ops it has no rule for (converting the rest);
// full conversion reports each one, at its location, and changes nothing.
// PARTIAL-LABEL: func.func @unknown(%arg0: i32) {
// PARTIAL-NEXT:    %[[S:.*]] = test.sink %arg0 : i32 -> i32
// PARTIAL-NEXT:    test.unknown %[[S]] : i32
// PARTIAL-NEXT:    test.unknown %arg0 : i32
// PARTIAL-NEXT:    %{{.*}} = "foo.bar"(%arg0) : (i32) -> i32
// PARTIAL-NEXT:    return
func.func @unknown(%arg0: i32) {
  %0 = test.source %arg0 : i32 -> i32
  // expected-error@+1 {{failed to legalize operation 'test.unknown'}}
  test.unknown %0 : i32
  // expected-error@+1 {{failed to legalize operation 'test.unknown'}}
  test.unknown %arg0 : i32
  // expected-error@+1 {{failed to legalize operation 'foo.bar'}}
  %1 = "foo.bar"(%arg0) : (i32) -> i32
  return
}

// Full conversion: the unregistered "foo.*" ops above are illegal too. Every op
// left illegal is reported (the --verify-diagnostics run checks where), and the
// run fails without output.
// FULL:      error: failed to legalize operation 'foo.use'
// FULL:      error: failed to legalize operation 'foo.make'
// FULL:      error: failed to legalize operation 'foo.keep'
// FULL:      error: failed to legalize operation 'test.unknown'
// FULL-NEXT:   test.unknown %0 : i32
// FULL:      error: failed to legalize operation 'test.unknown'
// FULL-NEXT:   test.unknown %arg0 : i32
// FULL:      error: failed to legalize operation 'foo.bar'
// FULL-NOT:  error:
// FULL-NOT:  module

// Function signatures: results convert too, and so do calls and returns (the
// library's function-signature conversion); a tuple<> argument becomes nothing.
// PARTIAL-LABEL: func.func @results(
// PARTIAL-SAME:    %arg0: i32, %[[F:[^:]*]]: f32, %arg2: i8) -> (i32, f32, i8) {
// PARTIAL-NEXT:    %[[C:.*]]:3 = call @results(%arg0, %[[F]], %arg2) : (i32, f32, i8) -> (i32, f32, i8)
// PARTIAL-NEXT:    return %[[C]]#0, %[[C]]#1, %arg2 : i32, f32, i8
// PARTIAL-NEXT:  }
func.func @results(%arg0: tuple<i32, f32>, %arg1: tuple<>, %arg2: i8) -> (tuple<i32, f32>, i8) {
  %0:2 = call @results(%arg0, %arg1, %arg2) : (tuple<i32, f32>, tuple<>, i8) -> (tuple<i32, f32>, i8)
  return %0#0, %arg2 : tuple<i32, f32>, i8
}
