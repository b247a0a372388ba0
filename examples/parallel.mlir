// Parallel loops: `scf.parallel` runs its iterations on the OpenMP runtime's threads
// once convert-scf-parallel-to-gomp has outlined it (mlc.llvm.build and mlc-run do on
// more than one thread).
//
//   mlc-run parallel.mlir --entry scale_rows --random-inputs 0 --threads 2 --check interpreter
//   mlc-opt parallel.mlir -p 'convert-scf-parallel-to-gomp{num-threads=2},canonicalize'

// Each row of `x` times its factor: the rows are split among the threads.
func.func @scale_rows(%x: memref<256x64xf32>, %factors: memref<256xf32>,
                      %out: memref<256x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 256 : index
  %cols = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    %f = memref.load %factors[%i] : memref<256xf32>
    scf.for %j = %c0 to %cols step %c1 {
      %v = memref.load %x[%i, %j] : memref<256x64xf32>
      %p = arith.mulf %v, %f : f32
      memref.store %p, %out[%i, %j] : memref<256x64xf32>
    }
    scf.reduce
  }
  return
}

// A dot product: each thread sums its share, the shares are added in thread order.
func.func @dot(%a: memref<4096xf32>, %b: memref<4096xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %x = memref.load %a[%i] : memref<4096xf32>
    %y = memref.load %b[%i] : memref<4096xf32>
    %p = arith.mulf %x, %y : f32
    scf.reduce(%p : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}
