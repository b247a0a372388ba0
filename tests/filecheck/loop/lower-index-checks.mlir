// loop-lower checks each index a block reads from data (a gather's) against its bound:
// memory is read at a safe index (a select), and a failure is recorded in the public
// global @mlc_index_error, whose mlc.index_checks attribute names each check site, for
// the runtime to report (mlc.loop.index_checks). Indices of iteration variables, which
// the verifier bounds, and padded loads, which their padding guards, are not checked.
// The record's last field counts the failures atomically; the failure that finds it 0
// alone writes the rest (threads failing at once leave one coherent record).
// RUN: mlc-opt %s -p 'loop-lower,canonicalize' | filecheck %s
// RUN: mlc-opt %s -p 'loop-lower,canonicalize' --check-semantics -o /dev/null
// RUN: %if mlir-opt %{ mlc-opt %s -p 'loop-lower,canonicalize' | %mlir_opt -o /dev/null %}

func.func @gather(%X: memref<8x3xf32>, %I: memref<4xi32>, %Y: memref<4x3xf32>) {
  loop.for %i = 0 to 4 {
    loop.for %j = 0 to 3 {
      loop.block "Y"(%vi = spatial(4, %i), %vj = spatial(3, %j)) {
        %n = loop.load %I[%vi] : memref<4xi32>
        %row = arith.index_cast %n : i32 to index
        %x = loop.load %X[%row, %vj] : memref<8x3xf32>
        loop.store %x, %Y[%vi, %vj] : memref<4x3xf32>
      }
    }
  }
  return
}

// CHECK:       memref.global @mlc_index_error : memref<4xi64> = dense<0> {mlc.index_checks = ["kernel @gather, block 'Y': index 0 of %X : memref<8x3xf32>"]}
// CHECK-LABEL: func.func @gather(
// CHECK:         %[[N:.*]] = memref.load %I[%{{.*}}] : memref<4xi32>
// CHECK:         %[[ROW:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK:         %[[BAD:.*]] = arith.cmpi uge, %[[ROW]], %c8 : index
// CHECK:         %[[SAFE:.*]] = arith.select %[[BAD]], %c0, %[[ROW]] : index
// CHECK:         scf.if %[[BAD]] {
// CHECK:           %[[RECORD:.*]] = memref.get_global @mlc_index_error : memref<4xi64>
// CHECK:           %[[EARLIER:.*]] = memref.atomic_rmw addi %c1_i64, %[[RECORD]][%c3] : (i64, memref<4xi64>) -> i64
// CHECK:           %[[NONE:.*]] = arith.cmpi eq, %[[EARLIER]], %c0_i64 : i64
// CHECK:           scf.if %[[NONE]] {
// CHECK:             memref.store %c1_i64, %[[RECORD]][%c0] : memref<4xi64>
// CHECK:             memref.store %{{.*}}, %[[RECORD]][%c1] : memref<4xi64>
// CHECK:             memref.store %c8_i64, %[[RECORD]][%c2] : memref<4xi64>
// CHECK:         %[[SCALED:.*]] = arith.muli %[[SAFE]], %c3{{.*}} : index
// CHECK:         %[[AT:.*]] = arith.addi %{{.*}}, %[[SCALED]] : index
// CHECK:         memref.load %X_flat[%[[AT]]] : memref<24xf32>
// CHECK-NOT:     arith.cmpi uge
// CHECK:         return
