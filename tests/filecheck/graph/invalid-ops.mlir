// Each graph op family rejects a wrong shape, a wrong element type and a bad
// attribute, with a message that says what was expected.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{lhs [2, 3] has 3 columns, rhs [4, 5] has 4 rows}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xf16>) {
  // expected-error@+1 {{lhs and rhs element types differ: f32 and f16}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x5xf16>) -> tensor<2x5xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xi32>, %b: tensor<3x5xi32>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of f16, bf16, f32 or f64, but got 'tensor<2x3xi32>'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xi32>, tensor<3x5xi32>) -> tensor<2x5xi32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) {
  // expected-error@+1 {{operand shapes [2], [3] do not broadcast}}
  %0 = graph.matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) {
  // expected-error@+1 {{batch sizes 2 and 3 differ and neither is 1}}
  %0 = graph.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error@+1 {{lhs [2, 3, 4] has reduction extent 4, rhs [2, 4, 5] has 5}}
  %0 = graph.batch_matmul %a, %b {transpose_b = true} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error@+1 {{attribute 'transpose_a' failed to satisfy constraint: bool}}
  %0 = graph.batch_matmul %a, %b {transpose_a = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @f(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{needs rank-3 operands, got [3, 4] and [4, 5]}}
  %0 = graph.batch_matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @f(%a: tensor<1x4x2x2xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{bias must be 1-D of length 4 (axis 1 of data [1, 4, 2, 2]), got shape [3]}}
  %0 = graph.bias_add %a, %b : (tensor<1x4x2x2xf32>, tensor<3xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @f(%a: tensor<1x4x2x2xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{axis -5 is out of range for a rank-4 tensor}}
  %0 = graph.bias_add %a, %b {axis = -5} : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @f(%a: tensor<1x4x2x2xf32>, %b: tensor<4xf16>) {
  // expected-error@+1 {{data and bias element types differ: f32 and f16}}
  %0 = graph.bias_add %a, %b : (tensor<1x4x2x2xf32>, tensor<4xf16>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{axis 2 is out of range for a rank-2 tensor}}
  %0 = graph.softmax %a {axis = 2} : tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xi32>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of f16, bf16, f32 or f64, but got 'tensor<2x3xi32>'}}
  %0 = graph.log_softmax %a : tensor<2x3xi32>
  return
}

// -----

func.func @f(%a: tensor<1x1x4x4xf32>) {
  // expected-error@+1 {{requires attribute 'pool_size'}}
  %0 = graph.max_pool2d %a : tensor<1x1x4x4xf32> -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @f(%a: tensor<1x4x4xf32>) {
  // expected-error@+1 {{needs an NCHW tensor, got shape [1, 4, 4]}}
  %0 = graph.max_pool2d %a {pool_size = array<i64: 2, 2>} : tensor<1x4x4xf32> -> tensor<1x3x3xf32>
  return
}

// -----

func.func @f(%a: tensor<1x1x4x4xf32>) {
  // expected-error@+1 {{'padding' needs 4 values, got 2}}
  %0 = graph.avg_pool2d %a {pool_size = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x1x4x4xf32> -> tensor<1x1x5x5xf32>
  return
}

// -----

func.func @f(%a: tensor<1x1x4x4xf32>) {
  // expected-error@+1 {{the 5x5 window does not fit the padded 4x4 input}}
  %0 = graph.avg_pool2d %a {pool_size = array<i64: 5, 5>} : tensor<1x1x4x4xf32> -> tensor<1x1x1x1xf32>
  return
}

// -----

func.func @f(%a: tensor<1x1x5x5xf32>) {
  // expected-error@+1 {{result type tensor<1x1x3x3xf32> does not match the inferred type tensor<1x1x2x2xf32>}}
  %0 = graph.max_pool2d %a {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @f(%a: tensor<1x1x4x4xi32>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of f16, bf16, f32 or f64, but got 'tensor<1x1x4x4xi32>'}}
  %0 = graph.max_pool2d %a {pool_size = array<i64: 2, 2>} : tensor<1x1x4x4xi32> -> tensor<1x1x3x3xi32>
  return
}

// -----

func.func @f(%a: tensor<4x4xf32>) {
  // expected-error@+1 {{needs an NCHW tensor, got shape [4, 4]}}
  %0 = graph.global_avg_pool2d %a : tensor<4x4xf32> -> tensor<1x1xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>) {
  // expected-error@+1 {{axis 3 is out of range for a rank-3 tensor}}
  %0 = graph.sum %a {axes = array<i64: 3>} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>) {
  // expected-error@+1 {{axes [0, -3] name an axis twice}}
  %0 = graph.max %a {axes = array<i64: 0, -3>} : tensor<2x3x4xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>) {
  // expected-error@+1 {{attribute 'keepdims' failed to satisfy constraint: bool}}
  %0 = graph.mean %a {axes = array<i64: 1>, keepdims = 1 : i64} : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>) {
  // expected-error@+1 {{result type tensor<2x1x4xf32> does not match the inferred type tensor<2x4xf32>}}
  %0 = graph.prod %a {axes = array<i64: 1>} : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>) {
  // expected-error@+1 {{result type tensor<2x3xf32> does not match the inferred type tensor<2x3xi64>}}
  %0 = graph.argmax %a {axis = -1} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x0xf32>) {
  // expected-error@+1 {{cannot reduce axis 1 of extent 0: it has no elements}}
  %0 = graph.min %a {axes = array<i64: 1>} : tensor<2x0xf32> -> tensor<2xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>) {
  // expected-error@+1 {{axes [0, 1] must name each of the 3 axes once}}
  %0 = graph.transpose %a {axes = array<i64: 0, 1>} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>) {
  // expected-error@+1 {{attribute 'axes' failed to satisfy constraint: i64 array}}
  %0 = graph.transpose %a {axes = [0, 2, 1]} : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>) {
  // expected-error@+1 {{axis 4 is out of range for flattening a rank-3 tensor (expected -3..3)}}
  %0 = graph.flatten %a {axis = 4} : tensor<2x3x4xf32> -> tensor<24x1xf32>
  return
}

// -----

func.func @f(%a: tensor<1x3xf32>) {
  // expected-error@+1 {{cannot squeeze axis 1 of extent 3 (expected 1)}}
  %0 = graph.squeeze %a {axes = array<i64: 1>} : tensor<1x3xf32> -> tensor<1xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{requires attribute 'axis'}}
  %0 = graph.expand_dims %a : tensor<2x3xf32> -> tensor<1x2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{axis 3 is out of range for expanding a rank-2 tensor (expected -3..2)}}
  %0 = graph.expand_dims %a {axis = 3} : tensor<2x3xf32> -> tensor<2x3x1xf32>
  return
}

// -----

func.func @f(%a: tensor<3xf32>) {
  // expected-error@+1 {{cannot broadcast shape [3] to [2, 4]}}
  %0 = graph.broadcast_to %a {shape = array<i64: 2, 4>} : tensor<3xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{repeats must be >= 0, got [-1, 2]}}
  %0 = graph.tile %a {repeats = array<i64: -1, 2>} : tensor<2x3xf32> -> tensor<2x6xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{pads needs 4 values (begins then ends) for a rank-2 tensor, got 2}}
  %0 = graph.pad %a {pads = array<i64: 1, 1>} : tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{attribute 'value' failed to satisfy constraint: f32 float}}
  %0 = graph.pad %a {pads = array<i64: 0, 0, 1, 1>, value = 1} : tensor<2x3xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{steps must be non-zero, got [0]}}
  %0 = graph.slice %a {starts = array<i64: 0>, ends = array<i64: 2>, steps = array<i64: 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{starts, ends, axes and steps need the same length, got 2, 1, 2 and 2}}
  %0 = graph.slice %a {starts = array<i64: 0, 0>, ends = array<i64: 2>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{result type tensor<2x3xf32> does not match the inferred type tensor<2x2xf32>}}
  %0 = graph.slice %a {starts = array<i64: 1>, ends = array<i64: 3>, axes = array<i64: -1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %i: tensor<2xf32>) {
  // expected-error@+1 {{operand #1 must be ranked tensor of i32 or i64, but got 'tensor<2xf32>'}}
  %0 = graph.gather %a, %i : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %i: tensor<2xi32>) {
  // expected-error@+1 {{axis 2 is out of range for a rank-2 tensor}}
  %0 = graph.gather %a, %i {axis = 2} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error@+1 {{input #1 has shape [3, 3], which differs from input #0's [2, 3] outside axis 1}}
  %0 = graph.concat %a, %b {axis = 1} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) {
  // expected-error@+1 {{input #1 has element type f16, input #0 has f32}}
  %0 = graph.concat %a, %b : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<4x3xf32>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{needs at least one input}}
  %0 = graph.concat : () -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x6xf32>) {
  // expected-error@+1 {{sections [2, 3] sum to 5, but axis 1 has extent 6}}
  %0:2 = graph.split %a {axis = 1, sections = array<i64: 2, 3>} : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>)
  return
}

// -----

func.func @f(%a: tensor<2x6xf32>) {
  // expected-error@+1 {{expected 2 results, got 3}}
  %0:3 = graph.split %a {axis = 1, sections = array<i64: 2, 4>} : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x4xf32>, tensor<2x0xf32>)
  return
}

// -----

func.func @f(%a: tensor<2x6xf32>) {
  // expected-error@+1 {{result #1 type tensor<2x3xf32> does not match the inferred type tensor<2x4xf32>}}
  %0:2 = graph.split %a {axis = 1, sections = array<i64: 2, 4>} : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>)
  return
}

// -----

// Graph ops work on static shapes only.
func.func @dynamic_shape(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{operand #0 has type tensor<?x4xf32>: graph ops need static shapes}}
  %0 = graph.relu %a : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Graph ops compute on the element types numpy holds exactly: not the small float
// formats (stored as bit patterns) nor integers narrower than 8 bits.
func.func @f8(%a: tensor<2xf8E4M3FN>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of 8-64-bit integers, index, f16, bf16, f32 or f64, but got 'tensor<2xf8E4M3FN>'}}
  %0 = graph.add %a, %a : (tensor<2xf8E4M3FN>, tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FN>
  return
}

// -----

// Arithmetic is not defined on i1.
func.func @bool_arithmetic(%a: tensor<2xi1>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of 8-64-bit integers, index, f16, bf16, f32 or f64, but got 'tensor<2xi1>'}}
  %0 = graph.neg %a : tensor<2xi1>
  return
}

// -----

// An integer tensor is padded with an integer of its type.
func.func @pad_value(%a: tensor<2xi8>) {
  // expected-error@+1 {{value 300.0 is not a i8 value (an integer in -128..127)}}
  %0 = graph.pad %a {pads = array<i64: 1, 1>, value = 300.0 : f32} : tensor<2xi8> -> tensor<4xi8>
  return
}

// -----

// Clipping integers needs an integer between the bounds.
func.func @clip_bounds(%a: tensor<2xi32>) {
  // expected-error@+1 {{holds no integer to clip i32 values to}}
  %0 = graph.clip %a {min = 0.25 : f32, max = 0.75 : f32} : tensor<2xi32>
  return
}
