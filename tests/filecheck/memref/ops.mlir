// The memref ops read and print as mlir-opt-22 prints them; the generic form is MLIR's.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt | filecheck %s %}

// CHECK: memref.global "private" constant @table : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK: memref.global @scratch : memref<3xi32> = uninitialized
// CHECK: memref.global "private" @external : memref<3xi32>
memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>
memref.global @scratch : memref<3xi32> = uninitialized
memref.global "private" @external : memref<3xi32>

// CHECK-LABEL: func.func @access
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK: memref.alloca() : memref<4xf32>
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK: memref.store %[[V]], %[[A]][%{{.*}}, %{{.*}}] : memref<?x4xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<4x4xf32> to memref<4x4xf32>
// CHECK: memref.get_global @table : memref<2xf32>
// CHECK: memref.dealloc %[[A]] : memref<?x4xf32>
func.func @access(%m: memref<4x4xf32>, %i: index, %j: index, %n: index) -> f32 {
  %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
  %b = memref.alloca() : memref<4xf32>
  %v = memref.load %m[%i, %j] : memref<4x4xf32>
  memref.store %v, %a[%i, %j] : memref<?x4xf32>
  memref.copy %m, %m : memref<4x4xf32> to memref<4x4xf32>
  %t = memref.get_global @table : memref<2xf32>
  memref.dealloc %a : memref<?x4xf32>
  return %v : f32
}

// CHECK-LABEL: func.func @views
// CHECK: memref.subview %{{.*}}[%{{.*}}, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: ?>>
// CHECK: memref.subview %{{.*}}[1, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 4>>
// CHECK: memref.subview %{{.*}}[0, 0] [%{{.*}}, 2] [2, 1] : memref<4x4xf32> to memref<?x2xf32, strided<[8, 1]>>
// CHECK: memref.cast %{{.*}} : memref<4x4xf32> to memref<?x?xf32>
// CHECK: memref.cast %{{.*}} : memref<4x4xf32> to memref<*xf32>
// CHECK: memref.dim %{{.*}}, %{{.*}} : memref<?x?xf32>
// CHECK: memref.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<4x4xf32> into memref<16xf32>
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0], [1]] : memref<2x2xf32, strided<[4, 1], offset: ?>> into memref<2x2xf32, strided<[4, 1], offset: ?>>
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [16], strides: [1] : memref<4x4xf32> to memref<16xf32>
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [2, %{{.*}}], strides: [%{{.*}}, 1] : memref<4x4xf32> to memref<2x?xf32, strided<[?, 1], offset: ?>>
func.func @views(%m: memref<4x4xf32>, %i: index, %v: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %s = memref.subview %m[%i, 1][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: ?>>
  %row = memref.subview %m[1, 0][1, 4][1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  %even = memref.subview %m[0, 0][%i, 2][2, 1] : memref<4x4xf32> to memref<?x2xf32, strided<[8, 1]>>
  %c = memref.cast %m : memref<4x4xf32> to memref<?x?xf32>
  %u = memref.cast %m : memref<4x4xf32> to memref<*xf32>
  %d = memref.dim %c, %c1 : memref<?x?xf32>
  %e = memref.expand_shape %v [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  %f = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %g = memref.collapse_shape %s [[0], [1]] : memref<2x2xf32, strided<[4, 1], offset: ?>> into memref<2x2xf32, strided<[4, 1], offset: ?>>
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [16], strides: [1] : memref<4x4xf32> to memref<16xf32>
  %r2 = memref.reinterpret_cast %m to offset: [%i], sizes: [2, %i], strides: [%i, 1] : memref<4x4xf32> to memref<2x?xf32, strided<[?, 1], offset: ?>>
  return
}

// memref.view: bytes seen as a typed buffer, printed as mlir-opt-22 prints it.
// CHECK-LABEL: func.func @byte_views
func.func @byte_views(%s: memref<64xi8>, %n: index) -> (memref<4x2xf32>, memref<?x2xf32>) {
  %c8 = arith.constant 8 : index
  // CHECK: memref.view %{{.*}}[%{{.*}}][] : memref<64xi8> to memref<4x2xf32>
  %v = memref.view %s[%c8][] : memref<64xi8> to memref<4x2xf32>
  // CHECK: memref.view %{{.*}}[%{{.*}}][%{{.*}}] : memref<64xi8> to memref<?x2xf32>
  %w = memref.view %s[%c8][%n] : memref<64xi8> to memref<?x2xf32>
  return %v, %w : memref<4x2xf32>, memref<?x2xf32>
}
