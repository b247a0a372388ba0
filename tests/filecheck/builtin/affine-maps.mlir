// Affine maps and integer sets are real attributes: read with any dimension and symbol
// names, simplified on construction as mlir-opt simplifies them, and printed once each
// as `#map`, `#map1`, ..., `#set`, ... aliases before the module, numbered in the order
// mlir-opt-22 numbers them (its output for this file is the same, up to SSA names).
// User alias names are not kept, an unused alias is dropped, an identity memref layout
// disappears, and a map only inside an unregistered op's properties stays in place
// (mlir-opt does not look there). --print-local-scope prints every map in place.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt - --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: mlc-opt %s --allow-unregistered-dialect --print-local-scope | filecheck %s --check-prefix=LOCAL

// CHECK:      #map = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map1 = affine_map<(d0) -> (d0 + 1)>
// CHECK-NEXT: #map2 = affine_map<(d0) -> (d0 * 2 + 3)>
// CHECK-NEXT: #map3 = affine_map<(d0, d1)[s0] -> (d0 * 4 + d1, s0 floordiv 2)>
// CHECK-NEXT: #map4 = affine_map<(d0) -> (d0 mod 4)>
// CHECK-NEXT: #map5 = affine_map<(d0) -> (d0 * 2)>
// CHECK-NEXT: #map6 = affine_map<(d0)[s0] -> (d0 + s0)>
// CHECK-NEXT: #map7 = affine_map<() -> ()>
// CHECK-NEXT: #map8 = affine_map<(d0) -> (d0 + 20)>
// CHECK-NEXT: #map9 = affine_map<(d0) -> (d0 + 30)>
// CHECK-NEXT: #set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
// CHECK-NEXT: #set1 = affine_set<(d0, d1) : (d0 - d1 == 0, d0 >= 0)>
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%a: memref<16x4xf32, #map>, %b: memref<8xf32, #map1>) -> memref<16x4xf32, #map> {
// CHECK-NEXT:     "test.op"() {a = #map2, arr = [#map3, {k = #map4}], s = #set, z = #map3} : () -> ()
// CHECK-NEXT:     %0 = "unreg.load"(%b) {m = #map1} : (memref<8xf32, #map1>) -> memref<2xf32, #map5>
// CHECK-NEXT:     "test.region"() ({
// CHECK-NEXT:     ^bb0(%x: memref<2xf32, #map6>):
// CHECK-NEXT:       "test.op"() {q = #set1} : () -> ()
// CHECK-NEXT:     }) {r = #map7, t = memref<4xf32>} : () -> ()
// CHECK-NEXT:     "test.props"() <{p = affine_map<(d0) -> (d0 + 7)>, q = #map1}> : () -> ()
// CHECK-NEXT:     return %a : memref<16x4xf32, #map>
// CHECK:        func.func @g() -> memref<2xf32, #map8> {
// CHECK-NEXT:     "test.op"() {m = #map9} : () -> ()

// The generic form meets a region before its op's attributes, so @g's body map comes
// before its result type's map, unlike in the custom form.
// GENERIC:      #map = affine_map<(d0, d1) -> (d1, d0)>
// GENERIC-NEXT: #map1 = affine_map<(d0) -> (d0 + 1)>
// GENERIC-NEXT: #map2 = affine_map<(d0) -> (d0 * 2 + 3)>
// GENERIC:      #map8 = affine_map<(d0) -> (d0 + 30)>
// GENERIC-NEXT: #map9 = affine_map<(d0) -> (d0 + 20)>
// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{function_type = (memref<16x4xf32, #map>, memref<8xf32, #map1>) -> memref<16x4xf32, #map>, sym_name = "f"}> ({

// LOCAL-NOT:  #map
// LOCAL:      func.func @f(%a: memref<16x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, %b: memref<8xf32, affine_map<(d0) -> (d0 + 1)>>)
// LOCAL:      "test.op"() {a = affine_map<(d0) -> (d0 * 2 + 3)>, arr = [affine_map<(d0, d1)[s0] -> (d0 * 4 + d1, s0 floordiv 2)>, {k = affine_map<(d0) -> (d0 mod 4)>}], s = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>, z = affine_map<(d0, d1)[s0] -> (d0 * 4 + d1, s0 floordiv 2)>}
// LOCAL-NOT:  #map

#tile = affine_map<(i, j)[N] -> (i * 4 + j, N floordiv 2)>
#unused = affine_map<(d0) -> (d0 + 100)>
#box = affine_set<(d0)[s0] : (d0 >= 0, s0 - 1 >= d0)>

func.func @f(%a: memref<16x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, %b: memref<8xf32, affine_map<(d0) -> (d0 + 1)>>) -> memref<16x4xf32, affine_map<(d0, d1) -> (d1, d0)>> {
  "test.op"() {z = #tile, a = affine_map<(d0) -> (d0 + d0 + 3)>, s = #box, arr = [#tile, {k = affine_map<(d0) -> (d0 - (d0 floordiv 4) * 4)>}]} : () -> ()
  %0 = "unreg.load"(%b) {m = affine_map<(d0) -> (d0 + 1)>} : (memref<8xf32, affine_map<(d0) -> (d0 + 1)>>) -> memref<2xf32, affine_map<(d0) -> (d0 * 2)>>
  "test.region"() ({
  ^bb0(%x: memref<2xf32, affine_map<(d0)[s0] -> (d0 + s0)>>):
    "test.op"() {q = affine_set<(d0, d1) : (d0 - d1 == 0, d0 >= 0)>} : () -> ()
  }) {r = affine_map<() -> ()>, t = memref<4xf32, affine_map<(d0) -> (d0)>>} : () -> ()
  "test.props"() <{p = affine_map<(d0) -> (d0 + 7)>, q = affine_map<(d0) -> (d0 + 1)>}> : () -> ()
  return %a : memref<16x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
}

func.func @g() -> memref<2xf32, affine_map<(d0) -> (d0 + 20)>> {
  "test.op"() {m = affine_map<(d0) -> (d0 + 30)>} : () -> ()
  %0 = "test.make"() : () -> memref<2xf32, affine_map<(d0) -> (d0 + 20)>>
  return %0 : memref<2xf32, affine_map<(d0) -> (d0 + 20)>>
}
