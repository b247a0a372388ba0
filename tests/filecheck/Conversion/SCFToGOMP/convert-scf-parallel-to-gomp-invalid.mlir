// convert-scf-parallel-to-gomp on loops it cannot outline: a remark at the loop says
// why and the loop stays as it is (convert-scf-to-cf makes it a serial loop); a symbol
// in the way of the runtime's functions is an error.
// RUN: mlc-opt %s -p 'convert-scf-parallel-to-gomp{num-threads=2}' --split-input-file --verify-diagnostics
// RUN: not mlc-opt %s -p 'convert-scf-parallel-to-gomp{num-threads=2}' --split-input-file 2>/dev/null | filecheck %s

// CHECK-LABEL: func.func @dynamic(
// CHECK:         scf.parallel
// CHECK-NOT:     GOMP_parallel
func.func @dynamic(%A: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark@+1 {{this parallel loop stays serial: it reads a value of type memref<?xf32>, which has no LLVM form}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %A[%i] : memref<?xf32>
    memref.store %v, %A[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// CHECK-LABEL: func.func @vector_sum(
// CHECK:         scf.parallel
func.func @vector_sum(%A: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark@+1 {{this parallel loop stays serial: its reduction of vector<4xf32> values cannot be kept per thread (only integer, float and index reductions can)}}
  %r = scf.parallel (%i) = (%c0) to (%c64) step (%c1) init (%init) -> vector<4xf32> {
    %v = vector.load %A[%i, %c0] : memref<64x4xf32>, vector<4xf32>
    scf.reduce(%v : vector<4xf32>) {
    ^bb0(%lhs: vector<4xf32>, %rhs: vector<4xf32>):
      %s = arith.addf %lhs, %rhs : vector<4xf32>
      scf.reduce.return %s : vector<4xf32>
    }
  }
  return %r : vector<4xf32>
}

// -----

%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
// expected-remark@+1 {{this parallel loop stays serial: it is not inside a func.func}}
scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
  scf.reduce
}

// -----

// expected-error@+1 {{@GOMP_parallel is the OpenMP runtime's function !llvm.func<void (ptr, ptr, i32, i32)>; the module defines another symbol of that name}}
func.func private @GOMP_parallel(index)
func.func @clash(%A: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %one, %A[%i] : memref<4xf32>
    scf.reduce
  }
  return
}
