// A block name that does not exist is refused at the function.
// RUN: echo '[["get_block", ["Z"], {}, [{"rv": "b0"}]]]' > %t.json
// RUN: mlc-opt %s -p 'loop-apply-trace{file=%t.json}' --verify-diagnostics

// expected-error@+1 {{no block named "Z" in @main}}
func.func @main(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  %Y = loop.alloc_buffer : memref<8x8xf32>
  loop.for %i = 0 to 8 {
    loop.for %j = 0 to 8 {
      loop.for %k = 0 to 8 {
        loop.block "Y"(%vi = spatial(8, %i), %vj = spatial(8, %j), %vk = reduce(8, %k)) {
          loop.init {
            %zero = arith.constant 0.0 : f32
            loop.store %zero, %Y[%vi, %vj] : memref<8x8xf32>
          }
          %a = loop.load %A[%vi, %vk] : memref<8x8xf32>
          %b = loop.load %B[%vk, %vj] : memref<8x8xf32>
          %y = loop.load %Y[%vi, %vj] : memref<8x8xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %y, %p : f32
          loop.store %s, %Y[%vi, %vj] : memref<8x8xf32>
        }
      }
    }
  }
  loop.for %i = 0 to 8 {
    loop.for %j = 0 to 8 {
      loop.block "C"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %y = loop.load %Y[%vi, %vj] : memref<8x8xf32>
        %zero = arith.constant 0.0 : f32
        %r = arith.maximumf %y, %zero : f32
        loop.store %r, %C[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}
