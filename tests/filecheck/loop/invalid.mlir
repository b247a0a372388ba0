// The loop dialect's verifier and parser refuse malformed kernels with a located
// diagnostic.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @binding_out_of_domain(%Y: memref<8xf32>) {
  loop.for %i = 0 to 16 {
    // expected-error@+1 {{iteration variable #0 is bound to values in [0, 15], outside its domain [0, 8)}}
    loop.block "Y"(%vi = spatial(8, %i)) {
      %zero = arith.constant 0.0 : f32
      loop.store %zero, %Y[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @reduce_on_parallel_loop(%X: memref<8xf32>, %Y: memref<1xf32>) {
  loop.for parallel %k = 0 to 8 {
    // expected-error@+1 {{reduce iteration variable #1 is bound to a parallel loop; a reduction cannot run its steps at once}}
    loop.block "sum"(%vi = spatial(1, 0), %vk = reduce(8, %k)) {
      %x = loop.load %X[%vk] : memref<8xf32>
      loop.store %x, %Y[%vi] : memref<1xf32>
    }
  }
  return
}

// -----

func.func @uses_loop_variable(%Y: memref<8xf32>) {
  loop.for %i = 0 to 8 {
    // expected-error@+1 {{'loop.store' uses the variable of a loop around the block; a block computes only from its iteration variables}}
    loop.block "Y"(%vi = spatial(8, %i)) {
      %zero = arith.constant 0.0 : f32
      loop.store %zero, %Y[%i] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @store_out_of_bounds(%Y: memref<8xf32>) {
  loop.for %i = 0 to 8 {
    loop.block "Y"(%vi = spatial(8, %i)) {
      %zero = arith.constant 0.0 : f32
      // expected-error@+1 {{index 0 takes values in [1, 8], out of the buffer's bounds [0, 8)}}
      loop.store %zero, %Y[%vi + 1] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @init_without_reduction(%Y: memref<8xf32>) {
  loop.for %i = 0 to 8 {
    // expected-error@+1 {{only a block with reduce iteration variables has an init}}
    loop.block "Y"(%vi = spatial(8, %i)) {
      loop.init {
        %zero = arith.constant 0.0 : f32
        loop.store %zero, %Y[%vi] : memref<8xf32>
      }
      %one = arith.constant 1.0 : f32
      loop.store %one, %Y[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @writes_nothing(%X: memref<8xf32>) {
  loop.for %i = 0 to 8 {
    // expected-error@+1 {{the block writes no buffer}}
    loop.block "Y"(%vi = spatial(8, %i)) {
      %x = loop.load %X[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @binding_not_a_loop_variable(%n: index, %Y: memref<8xf32>) {
  // expected-error@+1 {{binding #0 is not the variable of an enclosing loop.for}}
  loop.block "Y"(%vi = spatial(8, %n)) {
    %zero = arith.constant 0.0 : f32
    loop.store %zero, %Y[%vi] : memref<8xf32>
  }
  return
}

// -----

func.func @init_outside_block(%Y: memref<8xf32>) {
  // expected-error@+1 {{expects parent op 'loop.block'}}
  loop.init {
  }
  return
}

// -----

func.func @wrong_element_type(%Y: memref<8xf32>) {
  loop.for %i = 0 to 8 {
    loop.block "Y"(%vi = spatial(8, %i)) {
      // expected-note@+1 {{prior use here}}
      %zero = arith.constant 0 : i32
      // expected-error@+1 {{use of value '%zero' expects different type than prior uses: 'f32' vs 'i32'}}
      loop.store %zero, %Y[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @declared_reads_disagree(%X: memref<8xf32>, %Y: memref<8xf32>) {
  loop.for %i = 0 to 8 {
    // expected-error@+1 {{reads do not match the body, which accesses (%X[%vi])}}
    loop.block "Y"(%vi = spatial(8, %i)) reads(%Y[%vi]) {
      %x = loop.load %X[%vi] : memref<8xf32>
      loop.store %x, %Y[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @lower_bound_not_zero() {
  // expected-error@+1 {{loops start at 0}}
  loop.for %i = 1 to 8 {
  }
  return
}

// -----

func.func @bad_iteration_kind(%Y: memref<8xf32>) {
  loop.for %i = 0 to 8 {
    // expected-error@+1 {{expected 'spatial' or 'reduce'}}
    loop.block "Y"(%vi = parallel(8, %i)) {
    }
  }
  return
}

// -----

func.func @dynamic_buffer() {
  // expected-error@+1 {{buffers must have a static shape}}
  %b = loop.alloc_buffer : memref<?xf32>
  return
}

// -----

func.func @padding_of_another_type(%X: memref<4xf32>, %Y: memref<4xf32>) {
  loop.for %i = 0 to 4 {
    loop.block "Y"(%vi = spatial(4, %i)) {
      // expected-error@+1 {{padding must be a f32 value}}
      %x = loop.load %X[%vi - 1] padding(0 : i32) : memref<4xf32>
      loop.store %x, %Y[%vi] : memref<4xf32>
    }
  }
  return
}

// -----

func.func @view_too_large() {
  %s = loop.alloc_buffer : memref<8xi8>
  // expected-error@+1 {{the view needs 16 bytes, the storage has 8}}
  %v = loop.view %s : memref<8xi8> to memref<4xf32>
  return
}

// -----

func.func @constant_of_another_type() {
  // expected-error@+1 {{the value's type tensor<2xf64> does not match the buffer type memref<2xf32>}}
  %w = loop.constant dense<[1.0, 2.0]> : tensor<2xf64> -> memref<2xf32>
  return
}

// -----

func.func @data_dependent_read_declared_affine(%X: memref<8xf32>, %I: memref<4xi64>, %Y: memref<4xf32>) {
  loop.for %i = 0 to 4 {
    // expected-error@+1 {{reads do not match the body, which accesses (%I[%vi], %X[?])}}
    loop.block "Y"(%vi = spatial(4, %i)) reads(%I[%vi], %X[%vi]) {
      %n = loop.load %I[%vi] : memref<4xi64>
      %row = arith.index_cast %n : i64 to index
      %x = loop.load %X[%row] : memref<8xf32>
      loop.store %x, %Y[%vi] : memref<4xf32>
    }
  }
  return
}

// -----

func.func @region_indexed_by_a_loop_variable(%X: memref<8xf32>, %Y: memref<8xf32>) {
  loop.for %i = 0 to 8 {
    // expected-error@+1 {{reads may only index by the block's iteration variables (or `?` for an index computed from data)}}
    loop.block "Y"(%vi = spatial(8, %i)) reads(%X[%i]) {
      %x = loop.load %X[%vi] : memref<8xf32>
      loop.store %x, %Y[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @extent_too_large() {
  // expected-error@+1 {{expected a positive extent that fits in i64}}
  loop.for %i = 0 to 99999999999999999999 {
  }
  return
}

// -----

func.func @check_index_of_a_boolean(%b: i1) {
  // expected-error@+1 {{the index must be an integer, not i1}}
  %0 = loop.check_index %b {bound = 4 : i64, target = "index 0 of %X"} : i1
  return
}

// -----

func.func @predicate_does_not_cover(%Y: memref<30xf32>) {
  loop.for %i0 = 0 to 8 {
    loop.for %i1 = 0 to 4 {
      // expected-error@+1 {{iteration variable #0 is bound to values in [0, 30], outside its domain [0, 30)}}
      loop.block "Y"(%vi = spatial(30, %i0 * 4 + %i1)) where(%i0 * 4 + %i1 < 31) {
        %zero = arith.constant 0.0 : f32
        loop.store %zero, %Y[%vi] : memref<30xf32>
      }
    }
  }
  return
}

// -----

func.func @check_index_negative_bound(%i: i64) {
  // expected-error@+1 {{the bound must not be negative}}
  %0 = loop.check_index %i {bound = -1 : i64, target = "index 0 of %X"} : i64
  return
}

// -----

func.func @predicate_without_bound(%Y: memref<30xf32>) {
  loop.for %i0 = 0 to 8 {
    loop.for %i1 = 0 to 4 {
      // expected-error@+1 {{expected a condition `expression < constant`}}
      loop.block "Y"(%vi = spatial(30, %i0 * 4 + %i1)) where(%i0 * 4 + %i1) {
        %zero = arith.constant 0.0 : f32
        loop.store %zero, %Y[%vi] : memref<30xf32>
      }
    }
  }
  return
}
