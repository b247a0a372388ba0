// loop-peel-tails: a loop whose blocks' predicate can be false only in its last
// iterations is cut in two (MLIR's scf loop peeling): the full tiles without the
// predicate, the tail (a copy, its variable shifted) with it.
// RUN: mlc-opt %s -p loop-peel-tails | filecheck %s
// RUN: mlc-opt %s -p loop-peel-tails,loop-lower,canonicalize,cse | filecheck %s --check-prefix=LOWER

// CHECK-LABEL: func.func @rows_by_6
// CHECK:      loop.for %i_0 = 0 to 4 {
// CHECK-NEXT:   loop.for %i_1 = 0 to 6 {
// CHECK-NEXT:     loop.for %j = 0 to 8 {
// CHECK-NEXT:       loop.block "Y"(%vi = spatial(26, %i_0 * 6 + %i_1), %vj = spatial(8, %j)) reads
// The tail, one tile, is peeled in turn: its first two rows are full, the other
// four never run and are erased.
// CHECK:      loop.for %i_0 = 0 to 1 {
// CHECK-NEXT:   loop.for %i_1 = 0 to 2 {
// CHECK-NEXT:     loop.for %j = 0 to 8 {
// CHECK-NEXT:       loop.block "Y"(%vi = spatial(26, (%i_0 + 4) * 6 + %i_1), %vj = spatial(8, %j)) reads
// CHECK-NOT:  loop.for

// LOWER-LABEL: func.func @rows_by_6
// LOWER:       scf.for %i_0 = %c0 to %c4 step %c1 {
// LOWER:       scf.for %i_1 = %c0 to %c2 step %c1 {
// LOWER-NOT:   scf.if

// CHECK-LABEL: func.func @rows_and_columns
// CHECK:      loop.for %i_0 = 0 to 8 {
// CHECK:          loop.for %j = 0 to 7 {
// CHECK:              loop.block "Y"(%vi = spatial(26, %i_0 * 3 + %i_1), %vj = spatial(30, %j * 4 + %j_1)) reads
// CHECK:          loop.for %j = 0 to 1 {
// CHECK-NEXT:       loop.for %j_1 = 0 to 2 {
// CHECK-NEXT:         loop.block "Y"(%vi = spatial(26, %i_0 * 3 + %i_1), %vj = spatial(30, (%j + 7) * 4 + %j_1)) reads
// CHECK:      loop.for %i_0 = 0 to 1 {
// CHECK-NEXT:   loop.for %i_1 = 0 to 2 {
// CHECK-NOT:  where(
func.func @rows_by_6(%X: memref<26x8xf32>, %Y: memref<26x8xf32>) {
  loop.for %i_0 = 0 to 5 {
    loop.for %i_1 = 0 to 6 {
      loop.for %j = 0 to 8 {
        loop.block "Y"(%vi = spatial(26, %i_0 * 6 + %i_1), %vj = spatial(8, %j)) where(%i_0 * 6 + %i_1 < 26) {
          %x = loop.load %X[%vi, %vj] : memref<26x8xf32>
          loop.store %x, %Y[%vi, %vj] : memref<26x8xf32>
        }
      }
    }
  }
  return
}

// Conditions on two loops: the rows are peeled, then the columns in both parts, and
// no predicate is left.
func.func @rows_and_columns(%X: memref<26x30xf32>, %Y: memref<26x30xf32>) {
  loop.for %i_0 = 0 to 9 {
    loop.for %i_1 = 0 to 3 {
      loop.for %j = 0 to 8 {
        loop.for %j_1 = 0 to 4 {
          loop.block "Y"(%vi = spatial(26, %i_0 * 3 + %i_1), %vj = spatial(30, %j * 4 + %j_1)) where(%j * 4 + %j_1 < 30, %i_0 * 3 + %i_1 < 26) {
            %x = loop.load %X[%vi, %vj] : memref<26x30xf32>
            loop.store %x, %Y[%vi, %vj] : memref<26x30xf32>
          }
        }
      }
    }
  }
  return
}
