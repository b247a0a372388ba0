// The loop dialect reads and prints its own text unchanged: loops with kinds and
// annotations, blocks with bindings, inferred read/write regions and an init.
// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt | filecheck %s

// CHECK-LABEL: func.func @mm_relu
func.func @mm_relu(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
  // CHECK: %Y = loop.alloc_buffer : memref<16x16xf32>
  %Y = loop.alloc_buffer : memref<16x16xf32>
  // CHECK: loop.for %i = 0 to 16 {
  loop.for %i = 0 to 16 {
    // CHECK: loop.for %j0 = 0 to 4 {
    loop.for %j0 = 0 to 4 {
      loop.for %k = 0 to 16 {
        // CHECK: loop.for vectorized %j1 = 0 to 4 {
        loop.for vectorized %j1 = 0 to 4 {
          // CHECK: loop.block "Y"(%vi = spatial(16, %i), %vj = spatial(16, %j0 * 4 + %j1), %vk = reduce(16, %k)) reads(%A[%vi, %vk], %B[%vk, %vj]) writes(%Y[%vi, %vj]) {
          loop.block "Y"(%vi = spatial(16, %i), %vj = spatial(16, %j0 * 4 + %j1),
                         %vk = reduce(16, %k)) {
            // CHECK-NEXT: loop.init {
            loop.init {
              %zero = arith.constant 0.0 : f32
              // CHECK: loop.store %{{.*}}, %Y[%vi, %vj] : memref<16x16xf32>
              loop.store %zero, %Y[%vi, %vj] : memref<16x16xf32>
            }
            %a = loop.load %A[%vi, %vk] : memref<16x16xf32>
            %b = loop.load %B[%vk, %vj] : memref<16x16xf32>
            %y = loop.load %Y[%vi, %vj] : memref<16x16xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %y, %p : f32
            loop.store %s, %Y[%vi, %vj] : memref<16x16xf32>
          }
        }
      }
    }
  }
  // CHECK: loop.for parallel %i = 0 to 16 {
  loop.for parallel %i = 0 to 16 {
    loop.for unrolled %j = 0 to 16 {
      // CHECK: loop.block "C"(%vi = spatial(16, %i), %vj = spatial(16, %j)) reads(%Y[%vi, %vj]) writes(%C[%vi, %vj])
      loop.block "C"(%vi = spatial(16, %i), %vj = spatial(16, %j))
          reads(%Y[%vi, %vj]) writes(%C[%vi, %vj]) {
        %y = loop.load %Y[%vi, %vj] : memref<16x16xf32>
        %zero = arith.constant 0.0 : f32
        %r = arith.maximumf %y, %zero : f32
        loop.store %r, %C[%vi, %vj] : memref<16x16xf32>
      }
    // CHECK: } {pragma_unroll_explicit = false}
    } {pragma_unroll_explicit = false}
  }
  return
}

// Affine indices: a strided, shifted read (a 1-D convolution's window).
// CHECK-LABEL: func.func @window
func.func @window(%X: memref<33xf32>, %W: memref<3xf32>, %Y: memref<16xf32>) {
  loop.for %i = 0 to 16 {
    loop.for %r = 0 to 3 {
      // CHECK: reads(%X[%vi * 2 + %vr], %W[%vr]) writes(%Y[%vi])
      loop.block "conv"(%vi = spatial(16, %i), %vr = reduce(3, %r)) {
        loop.init {
          %zero = arith.constant 0.0 : f32
          loop.store %zero, %Y[%vi] : memref<16xf32>
        }
        // CHECK: loop.load %X[%vi * 2 + %vr] : memref<33xf32>
        %x = loop.load %X[%vi * 2 + %vr] : memref<33xf32>
        %w = loop.load %W[%vr] : memref<3xf32>
        %y = loop.load %Y[%vi] : memref<16xf32>
        %p = arith.mulf %x, %w : f32
        %s = arith.addf %y, %p : f32
        loop.store %s, %Y[%vi] : memref<16xf32>
      }
    }
  }
  return
}

// A padded read may leave the buffer: it reads the padding there.
// CHECK-LABEL: func.func @shift
func.func @shift(%X: memref<4xf32>, %Y: memref<4xf32>) {
  loop.for %i = 0 to 4 {
    loop.block "Y"(%vi = spatial(4, %i)) {
      // CHECK: loop.load %X[%vi - 1] padding(0.000000e+00 : f32) : memref<4xf32>
      %x = loop.load %X[%vi - 1] padding(0.0 : f32) : memref<4xf32>
      loop.store %x, %Y[%vi] : memref<4xf32>
    }
  }
  return
}

// Constant buffers (graph constants: weights).
// CHECK-LABEL: func.func @constants
func.func @constants(%Y: memref<2xf32>) {
  // CHECK: %w = loop.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32> -> memref<2xf32>
  %w = loop.constant dense<[1.0, 2.0]> : tensor<2xf32> -> memref<2xf32>
  loop.for %i = 0 to 2 {
    // CHECK: loop.block "Y"(%vi = spatial(2, %i)) reads(%w[%vi]) writes(%Y[%vi]) {
    loop.block "Y"(%vi = spatial(2, %i)) {
      %x = loop.load %w[%vi] : memref<2xf32>
      loop.store %x, %Y[%vi] : memref<2xf32>
    }
  }
  return
}

// A rank-0 buffer is indexed by `[]`, in accesses and in the block's regions.
// CHECK-LABEL: func.func @total
func.func @total(%X: memref<4xf32>, %Y: memref<f32>) {
  loop.for %k = 0 to 4 {
    // CHECK: loop.block "Y"(%vk = reduce(4, %k)) reads(%X[%vk]) writes(%Y[]) {
    loop.block "Y"(%vk = reduce(4, %k)) reads(%X[%vk]) writes(%Y[]) {
      loop.init {
        %zero = arith.constant 0.0 : f32
        // CHECK: loop.store %{{.*}}, %Y[] : memref<f32>
        loop.store %zero, %Y[] : memref<f32>
      }
      // CHECK: loop.load %Y[] : memref<f32>
      %y = loop.load %Y[] : memref<f32>
      %x = loop.load %X[%vk] : memref<4xf32>
      %s = arith.addf %y, %x : f32
      loop.store %s, %Y[] : memref<f32>
    }
  }
  return
}
