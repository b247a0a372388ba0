// split(k, [2, 3]) is refused: 2 x 3 iterations do not cover the extent 8.
// RUN: echo '[["get_block", ["Y"], {}, [{"rv": "b0"}]], ["get_loops", [{"rv": "b0"}], {}, [{"rv": "l1"}, {"rv": "l2"}, {"rv": "l3"}]], ["split", [{"rv": "l3"}], {"factors": [2, 3]}, []]]' > %t.json
// RUN: mlc-opt %s -p 'loop-apply-trace{file=%t.json}' --verify-diagnostics

func.func @main(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  %Y = loop.alloc_buffer : memref<8x8xf32>
  loop.for %i = 0 to 8 {
    loop.for %j = 0 to 8 {
      // expected-error@+1 {{the split factors' product 6 is less than the loop's extent 8}}
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
