// The MLC course's mm_relu as mlc.loop.te builds it (see the README's "Schedules").
module {
  func.func @main(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) {
    %Y = loop.alloc_buffer : memref<128x128xf32>
    loop.for %i = 0 to 128 {
      loop.for %j = 0 to 128 {
        loop.for %k = 0 to 128 {
          loop.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k)) reads(%A[%vi, %vk], %B[%vk, %vj]) writes(%Y[%vi, %vj]) {
            loop.init {
              %cst = arith.constant 0.000000e+00 : f32
              loop.store %cst, %Y[%vi, %vj] : memref<128x128xf32>
            }
            %0 = loop.load %Y[%vi, %vj] : memref<128x128xf32>
            %1 = loop.load %A[%vi, %vk] : memref<128x128xf32>
            %2 = loop.load %B[%vk, %vj] : memref<128x128xf32>
            %3 = arith.mulf %1, %2 fastmath<contract> : f32
            %4 = arith.addf %0, %3 fastmath<contract> : f32
            loop.store %4, %Y[%vi, %vj] : memref<128x128xf32>
          }
        }
      }
    }
    loop.for %i = 0 to 128 {
      loop.for %j = 0 to 128 {
        loop.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j)) reads(%Y[%vi, %vj]) writes(%C[%vi, %vj]) {
          %0 = loop.load %Y[%vi, %vj] : memref<128x128xf32>
          %cst = arith.constant 0.000000e+00 : f32
          %1 = arith.maximumf %0, %cst : f32
          loop.store %1, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
    return
  }
}
