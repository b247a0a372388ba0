// Builtin types of every kind mlc supports, as function signatures: printed back
// unchanged (custom -> custom, custom -> custom -> custom, generic -> custom).
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt - --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | mlc-opt - --allow-unregistered-dialect | filecheck %s

// The layout map is printed once as an alias, as mlir-opt prints it.
// CHECK: #map = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func private @integers(i1, i8, i32, i64, i1024, si8, ui16, si64, ui1)
func.func private @integers(i1, i8, i32, i64, i1024, si8, ui16, si64, ui1)

// CHECK-LABEL: func.func private @floats(f16, bf16, f32, f64)
func.func private @floats(f16, bf16, f32, f64)

// CHECK-LABEL: func.func private @other_scalars(index, none)
func.func private @other_scalars(index, none)

// CHECK-LABEL: func.func private @tensors
// CHECK-SAME: (tensor<f32>, tensor<0xf32>, tensor<2x?x4xf32>, tensor<4xi1>, tensor<2x3x4x5xbf16>)
func.func private @tensors(tensor<f32>, tensor<0xf32>, tensor<2x?x4xf32>, tensor<4xi1>, tensor<2x3x4x5xbf16>)

// CHECK-LABEL: func.func private @tensor_encodings
// CHECK-SAME: (tensor<4xf32, "enc">, tensor<2xi32, {a = 1 : i64}>, tensor<1x2xf32, #foo.enc<x>>)
func.func private @tensor_encodings(tensor<4xf32, "enc">, tensor<2xi32, {a = 1}>, tensor<1x2xf32, #foo.enc<x>>)

// CHECK-LABEL: func.func private @memrefs
// CHECK-SAME: (memref<f32>, memref<4x?xf32>, memref<0x?xi8>, memref<2xf32, "gpu">)
func.func private @memrefs(memref<f32>, memref<4x?xf32>, memref<0x?xi8>, memref<2xf32, "gpu">)

// CHECK-LABEL: func.func private @memref_layouts
// CHECK-SAME: memref<4x?xf32, strided<[?, 1], offset: ?>>
// CHECK-SAME: memref<2xf32, strided<[1], offset: 2>>
// CHECK-SAME: memref<4x4xf32, #map>
// CHECK-SAME: memref<8xi8, {kind = "shared"}>
func.func private @memref_layouts(memref<4x?xf32, strided<[?, 1], offset: ?>>,
                                  memref<2xf32, strided<[1], offset: 2>>,
                                  memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>,
                                  memref<8xi8, {kind = "shared"}>)

// CHECK-LABEL: func.func private @vectors(vector<4xf32>, vector<2x3xi1>, vector<4xindex>, vector<1x2x3xf16>)
func.func private @vectors(vector<4xf32>, vector<2x3xi1>, vector<4xindex>, vector<1x2x3xf16>)

// CHECK-LABEL: func.func private @tuples(tuple<>, tuple<i32, f32>, tuple<tuple<>, i32>, tuple<(i32) -> i32>)
func.func private @tuples(tuple<>, tuple<i32, f32>, tuple<tuple<>, i32>, tuple<(i32) -> i32>)

// CHECK-LABEL: func.func private @function_types
// CHECK-SAME: (() -> (), (i32) -> f32, (i32, f32) -> (f32, i1), (i32) -> ((i32) -> i32))
func.func private @function_types(() -> (), (i32) -> f32, (i32, f32) -> (f32, i1), (i32) -> ((i32) -> i32))

// CHECK-LABEL: func.func private @dialect_types(!foo.t, !foo.t<1, "a">, !foo<"opaque">, tensor<4x!foo.t>)
func.func private @dialect_types(!foo.t, !foo.t<1, "a">, !foo<"opaque">, tensor<4x!foo.t>)

// Type aliases are resolved where they are used.
!alias = tensor<4xf32>
// CHECK-LABEL: func.func private @aliased(tensor<4xf32>) -> tensor<4xf32>
func.func private @aliased(!alias) -> !alias

// Results: one without parentheses, several with.
// CHECK-LABEL: func.func private @results() -> (i32, tensor<2xf32>, memref<2xi8>)
func.func private @results() -> (i32, tensor<2xf32>, memref<2xi8>)
// CHECK-LABEL: func.func private @one_result() -> vector<2xf64>
func.func private @one_result() -> (vector<2xf64>)
