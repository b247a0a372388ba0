// vector.load/store, transfer_read/write, fma and reduction read and print as
// mlir-opt-22 prints them; the generic form is MLIR's.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt | filecheck %s %}

// CHECK-LABEL: func.func @memory
// CHECK: %[[V:.*]] = vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x4xf32>, vector<4xf32>
// CHECK: vector.store %[[V]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x4xf32>, vector<4xf32>
// CHECK: vector.fma %[[V]], %[[V]], %[[V]] : vector<4xf32>
// CHECK: vector.reduction <add>, %[[V]], %{{.*}} : vector<4xf32> into f32
// CHECK: vector.reduction <maxsi>, %{{.*}} : vector<4xi32> into i32
// CHECK: vector.reduction <minimumf>, %[[V]] fastmath<fast> : vector<4xf32> into f32
// CHECK: %[[T:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<4x4xf32>, vector<4xf32>
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<4x4xf32>, vector<4xf32>
// CHECK: %[[P:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} {permutation_map = #{{.*}}} : memref<4x4xf32>, vector<4x2xf32>
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, false], permutation_map = #{{.*}}} : memref<4x4xf32>, vector<4x2xf32>
// CHECK: vector.transfer_write %[[T]], %{{.*}}[%{{.*}}, %{{.*}}] : vector<4xf32>, memref<4x4xf32>
// CHECK: vector.transfer_write %[[P]], %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {permutation_map = #{{.*}}} : vector<4x2xf32>, memref<4x4xf32>
func.func @memory(%m: memref<4x4xf32>, %i: index, %j: index, %p: f32, %k: vector<2x4xi1>, %q: vector<4xi32>) -> f32 {
  %vl = vector.load %m[%i, %j] : memref<4x4xf32>, vector<4xf32>
  vector.store %vl, %m[%i, %j] : memref<4x4xf32>, vector<4xf32>
  %fm = vector.fma %vl, %vl, %vl : vector<4xf32>
  %red = vector.reduction <add>, %vl, %p : vector<4xf32> into f32
  %red2 = vector.reduction <maxsi>, %q : vector<4xi32> into i32
  %red3 = vector.reduction <minimumf>, %vl fastmath<fast> : vector<4xf32> into f32
  %tr = vector.transfer_read %m[%i, %j], %p : memref<4x4xf32>, vector<4xf32>
  %tr2 = vector.transfer_read %m[%i, %j], %p {in_bounds = [true]} : memref<4x4xf32>, vector<4xf32>
  %tr3 = vector.transfer_read %m[%i, %j], %p, %k {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x4xf32>, vector<4x2xf32>
  %tr4 = vector.transfer_read %m[%i, %j], %p {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<4x4xf32>, vector<4x2xf32>
  vector.transfer_write %tr, %m[%i, %j] : vector<4xf32>, memref<4x4xf32>
  vector.transfer_write %tr3, %m[%i, %j], %k {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<4x2xf32>, memref<4x4xf32>
  return %red : f32
}
