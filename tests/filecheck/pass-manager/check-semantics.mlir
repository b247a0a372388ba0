// --check-semantics runs each public function on seeded random arguments before the
// pipeline and after every pass, and fails at the first pass that changes a result:
// here a deliberately wrong test pass (addi -> subi). Passes that keep the results
// pass the check silently, on scalars, graph tensors and loop kernels alike.
// RUN: mlc-opt %s --split-input-file --check-semantics -p 'canonicalize,test-miscompile-addi' --verify-diagnostics
// RUN: mlc-opt %s --split-input-file --check-semantics=7 -p 'canonicalize,cse,graph-fold-constant' 2>&1 | filecheck %s --check-prefix=GOOD --allow-empty

// expected-error@+1 {{--check-semantics: pass 'test-miscompile-addi' changed what @offset computes on seeded random arguments (seed 0): output #0 was}}
func.func @offset(%x: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %y = arith.addi %x, %c5 : i32
  return %y : i32
}

// -----

// x + 0 is x whatever the pass does to the addi: canonicalize removes it first.
func.func @plus_zero(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %y = arith.addi %x, %c0 : i32
  return %y : i32
}

// -----

func.func @graph(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = graph.constant dense<2.0> : tensor<2x3xf32>
  %m = graph.multiply %x, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = graph.relu %m : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

func.func @kernel(%X: memref<4xf32>, %Y: memref<4xf32>) {
  loop.for %i = 0 to 4 {
    loop.block "Y"(%vi = spatial(4, %i)) {
      %x = loop.load %X[%vi] : memref<4xf32>
      %two = arith.constant 2.0 : f32
      %y = arith.mulf %x, %two : f32
      loop.store %y, %Y[%vi] : memref<4xf32>
    }
  }
  return
}

// GOOD-NOT: error
