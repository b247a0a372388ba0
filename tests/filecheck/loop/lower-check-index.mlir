// loop.check_index (a scatter's indices, which its rule matches against positions
// instead of loading at) becomes the same check as a load at an index read from data:
// the index if it lies in [0, bound), else 0, and the failure recorded in
// @mlc_index_error under the block and the target the op names.
// RUN: mlc-opt %s -p 'loop-lower,canonicalize' | filecheck %s
// RUN: %if mlir-opt %{ mlc-opt %s -p 'loop-lower,canonicalize' | %mlir_opt -o /dev/null %}
// RUN: mlc-opt %s --check-semantics -p loop-lower -o /dev/null 2>&1 | filecheck %s --check-prefix=RANDOM

func.func @targets(%I: memref<4xi32>, %T: memref<4xi32>) {
  loop.for %i = 0 to 4 {
    loop.block "T"(%vi = spatial(4, %i)) {
      %n = loop.load %I[%vi] : memref<4xi32>
      %t = loop.check_index %n {bound = 5 : i64, target = "index 1 of %X : memref<2x5xf32>"} : i32
      loop.store %t, %T[%vi] : memref<4xi32>
    }
  }
  return
}

// CHECK:       memref.global @mlc_index_error : memref<4xi64> = dense<0> {mlc.index_checks = ["kernel @targets, block 'T': index 1 of %X : memref<2x5xf32>"]}
// CHECK-LABEL: func.func @targets(
// CHECK:         %[[N:.*]] = memref.load %I[%{{.*}}] : memref<4xi32>
// CHECK:         %[[AT:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK:         %[[BAD:.*]] = arith.cmpi uge, %[[AT]], %c5 : index
// CHECK:         %[[SAFE:.*]] = arith.select %[[BAD]], %c0, %[[AT]] : index
// CHECK:         scf.if %[[BAD]] {
// CHECK:           memref.get_global @mlc_index_error : memref<4xi64>
// CHECK:         %[[T:.*]] = arith.index_cast %[[SAFE]] : index to i32
// CHECK:         memref.store %[[T]], %T[%{{.*}}] : memref<4xi32>
// RANDOM: warning: --check-semantics does not check @targets: on its random arguments, index {{-?[0-9]+}} is out of range [0, 5) in index 1 of %X : memref<2x5xf32>
