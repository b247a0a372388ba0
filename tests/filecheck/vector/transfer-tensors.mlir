// vector.transfer_read and transfer_write on ranked tensors (a write gives the updated
// tensor) and on memrefs of vectors (the element vector fills the trailing dims; the
// permutation map places the others), read and printed as mlir-opt-22 does.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt | filecheck %s %}
// A read of a tensor has no effect and cannot trap: loop-invariant-code-motion hoists
// it, as mlir-opt does; a read of a memref stays.
// RUN: mlc-opt %s --loop-invariant-code-motion | filecheck %s --check-prefix=LICM

// CHECK-LABEL: func.func @tensors
// CHECK:         %[[R:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<4x8xf32>, vector<4xf32>
// CHECK:         %[[W:.*]] = vector.transfer_write %[[R]], %{{.*}}[%{{.*}}, %{{.*}}] : vector<4xf32>, tensor<4x8xf32>
// CHECK:         %{{.*}} = vector.transfer_read %[[W]][%{{.*}}, %{{.*}}], %{{.*}} {permutation_map = #{{.*}}} : tensor<4x8xf32>, vector<8x4xf32>
func.func @tensors(%t: tensor<4x8xf32>, %i: index) -> (tensor<4x8xf32>, vector<8x4xf32>) {
  %pad = arith.constant 0.0 : f32
  %r = vector.transfer_read %t[%i, %i], %pad {in_bounds = [true]} : tensor<4x8xf32>, vector<4xf32>
  %w = vector.transfer_write %r, %t[%i, %i] : vector<4xf32>, tensor<4x8xf32>
  %x = vector.transfer_read %w[%i, %i], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : tensor<4x8xf32>, vector<8x4xf32>
  return %w, %x : tensor<4x8xf32>, vector<8x4xf32>
}

// CHECK-LABEL: func.func @memref_of_vectors
// CHECK:         %{{.*}} = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [false, true]} : memref<?x?xvector<4x3xf32>>, vector<1x1x4x3xf32>
// CHECK:         vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : vector<1x1x4x3xf32>, memref<?x?xvector<4x3xf32>>
func.func @memref_of_vectors(%m: memref<?x?xvector<4x3xf32>>, %i: index, %pad: vector<4x3xf32>) {
  %v = vector.transfer_read %m[%i, %i], %pad {in_bounds = [false, true]} : memref<?x?xvector<4x3xf32>>, vector<1x1x4x3xf32>
  vector.transfer_write %v, %m[%i, %i] : vector<1x1x4x3xf32>, memref<?x?xvector<4x3xf32>>
  return
}

// LICM-LABEL: func.func @hoist
// LICM:         vector.transfer_read %{{.*}} : tensor<4x8xf32>, vector<4xf32>
// LICM-NEXT:    scf.for
// LICM-NEXT:      vector.transfer_read %{{.*}} : memref<4x8xf32>, vector<4xf32>
func.func @hoist(%t: tensor<4x8xf32>, %m: memref<4x8xf32>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  scf.for %k = %c0 to %n step %c1 {
    %a = vector.transfer_read %t[%i, %i], %pad : tensor<4x8xf32>, vector<4xf32>
    %b = vector.transfer_read %m[%i, %i], %pad : memref<4x8xf32>, vector<4xf32>
    "test.use"(%a, %b) : (vector<4xf32>, vector<4xf32>) -> ()
  }
  return
}
