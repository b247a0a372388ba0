// Builtin attributes of every kind, on unregistered ops, printed back in MLIR's form.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt - --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | mlc-opt - --allow-unregistered-dialect | filecheck %s

// Integers: `i64` is the default type and is printed; other types are printed too.
// CHECK: "foo.int"() {a = 42 : i8, b = -1 : i64, c = 1 : i64, d = 31 : i32, e = 5 : index, f = 2 : ui8, g = -2 : si8} : () -> ()
"foo.int"() {a = 42 : i8, b = -1 : i64, c = 1, d = 0x1F : i32, e = 5 : index, f = 2 : ui8, g = -2 : si8} : () -> ()

// Booleans are i1 integers printed as keywords.
// CHECK: "foo.bool"() {a = true, b = false, c = true} : () -> ()
"foo.bool"() {a = true, b = false, c = 1 : i1} : () -> ()

// Floats: %e with six digits, or the shortest form that reads back; f64 is the default.
// CHECK: "foo.float"() {a = 1.500000e+00 : f64, b = 1.000000e-01 : f32, c = 1.000000e+20 : f32, d = 1.000000e+00 : bf16, e = 3.000000e+00 : f16, f = -0.000000e+00 : f64, g = 3.14159265358979 : f64}
"foo.float"() {a = 1.5, b = 0.1 : f32, c = 1.0e+20 : f32, d = 1.0 : bf16, e = 3.0 : f16, f = -0.0 : f64, g = 3.14159265358979 : f64} : () -> ()

// Hexadecimal floats are bit patterns; NaN and infinities print that way.
// CHECK: "foo.special"() {inf = 0x7F800000 : f32, nan = 0x7FC00000 : f32, ninf = 0xFF800000 : f32, one = 1.000000e+00 : f16}
"foo.special"() {nan = 0x7FC00000 : f32, inf = 0x7F800000 : f32, ninf = 0xFF800000 : f32, one = 0x3C00 : f16} : () -> ()

// Strings: escapes for quotes, backslashes and non-printable or non-ASCII bytes.
// CHECK: "foo.string"() {a = "plain", b = "tab\09nl\0Abackslash\\", c = "quote{{\\22|\\"}}", d = "caf\C3\A9", e = "", f = "caf\C3\A9"}
"foo.string"() {a = "plain", b = "tab\09nl\0Abackslash\\", c = "quote\22", d = "caf\C3\A9", e = "", f = "café"} : () -> ()

// Unit attributes, written bare or as `unit`.
// CHECK: "foo.unit"() {a, b, c = [unit]} : () -> ()
"foo.unit"() {a, b = unit, c = [unit]} : () -> ()

// Symbol references: flat, nested, quoted.
// CHECK: "foo.symbols"() {a = @f, b = @outer::@inner::@leaf, c = @"with space", d = @a::@"b c"} : () -> ()
"foo.symbols"() {a = @f, b = @outer::@inner::@leaf, c = @"with space", d = @a::@"b c"} : () -> ()

// Types as attributes.
// CHECK: "foo.types"() {a = i32, b = tensor<4xf32>, c = (i32) -> (), d = !foo.ty} : () -> ()
"foo.types"() {a = i32, b = tensor<4xf32>, c = (i32) -> (), d = !foo.ty} : () -> ()

// Arrays (heterogeneous, nested, empty) and dictionaries (sorted by key, nested, empty).
// CHECK: "foo.arrays"() {a = [1, "two", 3.000000e+00 : f16, @sym, i32, [], unit], b = [[@a], {k = [1]}], c = []} : () -> ()
"foo.arrays"() {a = [1, "two", 3.0 : f16, @sym, i32, [], unit], b = [[@a], {k = [1]}], c = []} : () -> ()
// CHECK: "foo.dicts"() {a = {x = 1 : i64, y = "s", z = {}}, b = {a.b, "quoted key" = 1 : i32}, c = {}} : () -> ()
"foo.dicts"() {a = {z = {}, y = "s", x = 1}, b = {"quoted key" = 1 : i32, "a.b" = unit}, c = {}} : () -> ()
// CHECK: "foo.dict_keys"() {a = 1 : i64, b = 2 : i64, c = 3 : i64} : () -> ()
"foo.dict_keys"() {c = 3, a = 1, b = 2} : () -> ()

// Dense arrays.
// CHECK: "foo.dense_array"() {a = array<i32: 1, 2, 3>, b = array<f32: 1.000000e+00, 2.500000e+00>, c = array<i64>, d = array<i1: true, false>, e = array<i8: -1, 127>, f = array<f64: 1.000000e+00, -5.000000e-01>}
"foo.dense_array"() {a = array<i32: 1, 2, 3>, b = array<f32: 1.0, 2.5>, c = array<i64>, d = array<i1: true, false>, e = array<i8: -1, 127>, f = array<f64: 1.0, -0.5>} : () -> ()

// Dense elements: splat, nested, hex (a splat when the bytes repeat), booleans, index.
// CHECK: "foo.dense"() {a = dense<1.000000e+00> : tensor<2x3xf32>, b = dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>, c = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, d = dense<1> : tensor<4xi32>, e = dense<[true, false, true]> : tensor<3xi1>, f = dense<[1, 2]> : tensor<2xindex>}
"foo.dense"() {a = dense<1.0> : tensor<2x3xf32>, b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, c = dense<"0x0000803F00000040"> : tensor<2xf32>, d = dense<"0x01000000"> : tensor<4xi32>, e = dense<[true, false, true]> : tensor<3xi1>, f = dense<[1, 2]> : tensor<2xindex>} : () -> ()
// CHECK: "foo.dense2"() {a = dense<[0x7FC00000, 1.000000e+00]> : tensor<2xf32>, b = dense<{{\[}}[1.500000e+00, 2.500000e+00]]> : vector<1x2xf16>, c = dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>, d = dense<-1> : tensor<i32>, e = dense<{{(\[\])?}}> : tensor<0xf32>}
"foo.dense2"() {a = dense<[0x7FC00000, 1.0]> : tensor<2xf32>, b = dense<[[1.5, 2.5]]> : vector<1x2xf16>, c = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>, d = dense<-1> : tensor<i32>, e = dense<> : tensor<0xf32>} : () -> ()

// Builtin attributes with opaque bodies (mlir-opt prints the affine map as an alias),
// and dialect attributes.
// CHECK: "foo.opaque"() {a = {{affine_map<\(d0\) -> \(d0 \+ 1\)>|#map}}, b = strided<[?, 1], offset: ?>, c = #foo.attr<"x", 1>, d = #foo<"opaque">} : () -> ()
"foo.opaque"() {a = affine_map<(d0) -> (d0 + 1)>, b = strided<[?, 1], offset: ?>, c = #foo.attr<"x", 1>, d = #foo<"opaque">} : () -> ()

// Attribute aliases are resolved where they are used.
#dict = {k = "v"}
#arr = [1, 2]
// CHECK: "foo.alias"() {a = {k = "v"}, b = [1, 2]} : () -> ()
"foo.alias"() {a = #dict, b = #arr} : () -> ()
