// Unregistered ops (--allow-unregistered-dialect) stay in generic form: operands,
// successors, regions, attributes, multiple results (`%0:2` defined, `%0#1` used),
// several blocks with arguments.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt - --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | mlc-opt - --allow-unregistered-dialect | filecheck %s

// CHECK-LABEL: func.func @branches(%arg0: i32, %arg1: i1) -> i32 {
func.func @branches(%arg0: i32, %arg1: i1) -> i32 {
  // CHECK-NEXT: %0:2 = "foo.two"(%arg0) : (i32) -> (i32, f32)
  %0:2 = "foo.two"(%arg0) : (i32) -> (i32, f32)
  // CHECK-NEXT: %1 = arith.addi %0#0, %0#0 : i32
  %1 = arith.addi %0#0, %0#0 : i32
  // CHECK-NEXT: "foo.cond_br"(%arg1)[^bb1, ^bb2] : (i1) -> ()
  "foo.cond_br"(%arg1) [^bb1, ^bb2] : (i1) -> ()
// CHECK-NEXT: ^bb1:
^bb1:
  // CHECK-NEXT: "foo.br"(%1)[^bb3] : (i32) -> ()
  "foo.br"(%1) [^bb3] : (i32) -> ()
// CHECK-NEXT: ^bb2:
^bb2:
  // CHECK-NEXT: "foo.br"(%arg0)[^bb3] : (i32) -> ()
  "foo.br"(%arg0) [^bb3] : (i32) -> ()
// CHECK-NEXT: ^bb3(%2: i32):
^bb3(%2: i32):
  // CHECK-NEXT: %3 = "foo.use"(%0#1, %2) {attr = 1 : i64} : (f32, i32) -> i32
  %3 = "foo.use"(%0#1, %2) {attr = 1 : i64} : (f32, i32) -> i32
  // CHECK-NEXT: return %3 : i32
  return %3 : i32
}

// A block may branch to itself and to blocks defined further down.
// CHECK-LABEL: func.func @loop(%arg0: index) {
func.func @loop(%arg0: index) {
  // CHECK-NEXT: "foo.br"(%arg0)[^bb1] : (index) -> ()
  "foo.br"(%arg0) [^bb1] : (index) -> ()
// CHECK-NEXT: ^bb1(%0: index, %1: i1):
^bb1(%0: index, %1: i1):
  // CHECK-NEXT: "foo.cond_br"(%1, %0)[^bb1, ^bb2] : (i1, index) -> ()
  "foo.cond_br"(%1, %0) [^bb1, ^bb2] : (i1, index) -> ()
// CHECK-NEXT: ^bb2:
^bb2:
  // CHECK-NEXT: return
  return
}

// Results bound one by one keep their names, groups too: `%a, %b`, `%c:2, %d`.
// CHECK-LABEL: func.func @pair
func.func @pair() -> i1 {
  // CHECK-NEXT: %a, %b = "foo.pair"() : () -> (i1, i1)
  %a, %b = "foo.pair"() : () -> (i1, i1)
  // CHECK-NEXT: %c:2, %d = "foo.triple"() : () -> (i8, i16, i32)
  %c:2, %d = "foo.triple"() : () -> (i8, i16, i32)
  // CHECK-NEXT: "foo.use"(%b, %d, %c#1) : (i1, i32, i16) -> ()
  "foo.use"(%b, %d, %c#1) : (i1, i32, i16) -> ()
  // CHECK-NEXT: return %a : i1
  return %a : i1
}

// Regions: several, with entry block arguments, empty, nested.
// CHECK-LABEL: func.func @regions() {
func.func @regions() {
  // CHECK-NEXT: %0 = "foo.region"() ({
  // CHECK-NEXT:   %1 = "foo.val"() : () -> i32
  // CHECK-NEXT:   "foo.yield"(%1) : (i32) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^bb0(%arg0: index, %arg1: f32):
  // CHECK-NEXT:   "foo.yield"() : () -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: }) {k = "v"} : () -> i64
  %0 = "foo.region"() ({
    %1 = "foo.val"() : () -> i32
    "foo.yield"(%1) : (i32) -> ()
  }, {
  ^bb0(%arg0: index, %arg1: f32):
    "foo.yield"() : () -> ()
  }, {
  }) {k = "v"} : () -> i64
  // CHECK-NEXT: "foo.outer"() ({
  // CHECK-NEXT:   "foo.inner"() ({
  // CHECK-NEXT:     "foo.leaf"(%0) : (i64) -> ()
  // CHECK-NEXT:   }) : () -> ()
  // CHECK-NEXT: }) : () -> ()
  "foo.outer"() ({
    "foo.inner"() ({
      "foo.leaf"(%0) : (i64) -> ()
    }) : () -> ()
  }) : () -> ()
  // CHECK-NEXT: return
  return
}

// Unregistered ops at the top level, with a dialect type and attribute.
// CHECK: %0 = "foo.top"() {a = #foo.attr<1>} : () -> !foo.type<"x">
%0 = "foo.top"() {a = #foo.attr<1>} : () -> !foo.type<"x">
// CHECK: "foo.sink"(%0) : (!foo.type<"x">) -> ()
"foo.sink"(%0) : (!foo.type<"x">) -> ()
