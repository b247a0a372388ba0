// split(i, [None, 4]) of a loop of 30 makes 8 x 4 iterations: the block gets the
// predicate `where(%i_0 * 4 + %i_1 < 30)` (TVM's T.where); the text round-trips.
// loop-lower peels the loop: 7 full tiles, then the 2 rows left, no branch at all;
// without peeling (loop-lower's LowerBlock alone) the predicate is an scf.if.
// RUN: echo '[["get_block", ["Y"], {}, [{"rv": "b0"}]], ["get_loops", [{"rv": "b0"}], {}, [{"rv": "l1"}]], ["split", [{"rv": "l1"}], {"factors": [null, 4]}, [{"rv": "l2"}, {"rv": "l3"}]]]' > %t.json
// RUN: mlc-opt %s -p 'loop-apply-trace{file=%t.json}' | filecheck %s
// RUN: mlc-opt %s -p 'loop-apply-trace{file=%t.json}' | mlc-opt | filecheck %s
// RUN: mlc-opt %s -p 'loop-apply-trace{file=%t.json},loop-lower,canonicalize,cse' | filecheck %s --check-prefix=LOWER

// CHECK:      loop.for %i_0 = 0 to 8 {
// CHECK-NEXT:   loop.for %i_1 = 0 to 4 {
// CHECK-NEXT:     loop.block "Y"(%vi = spatial(30, %i_0 * 4 + %i_1)) where(%i_0 * 4 + %i_1 < 30) reads(%X[%vi]) writes(%Y[%vi]) {

// LOWER:      scf.for %i_0 = %c0 to %c7 step %c1 {
// LOWER-NEXT:   scf.for %i_1 = %c0 to %c4 step %c1 {
// LOWER-NOT:    scf.if
// LOWER:      scf.for %i_1 = %c0 to %c2 step %c1 {
// LOWER-NEXT:   %[[ROW:.*]] = arith.addi %i_1, %c28 : index
// LOWER-NEXT:   memref.load %X[%[[ROW]]]
func.func @main(%X: memref<30xf32>, %Y: memref<30xf32>) {
  loop.for %i = 0 to 30 {
    loop.block "Y"(%vi = spatial(30, %i)) {
      %x = loop.load %X[%vi] : memref<30xf32>
      %two = arith.constant 2.0 : f32
      %y = arith.mulf %x, %two : f32
      loop.store %y, %Y[%vi] : memref<30xf32>
    }
  }
  return
}
