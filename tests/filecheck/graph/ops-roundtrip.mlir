// Every graph op in its custom form, with and without its attributes: printed back
// unchanged (custom, custom twice, generic -> custom).
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s

// CHECK-LABEL: func.func @all(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %b: tensor<2x3xi1>, %v: tensor<3xf32>, %m: tensor<3x4xf32>, %wd: tensor<4x3xf32>, %t: tensor<2x3x4xf32>, %bm: tensor<1x4x3xf32>, %img: tensor<1x4x5x5xf32>, %w: tensor<4x4x3x3xf32>, %c: tensor<4xf32>, %idx: tensor<2x2xi64>) {
func.func @all(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %b: tensor<2x3xi1>, %v: tensor<3xf32>, %m: tensor<3x4xf32>, %wd: tensor<4x3xf32>, %t: tensor<2x3x4xf32>, %bm: tensor<1x4x3xf32>, %img: tensor<1x4x5x5xf32>, %w: tensor<4x4x3x3xf32>, %c: tensor<4xf32>, %idx: tensor<2x2xi64>) {
  // CHECK-NEXT: %0 = graph.constant dense<1.000000e+00> : tensor<2x3xf32>
  %0 = graph.constant dense<1.000000e+00> : tensor<2x3xf32>
  // CHECK-NEXT: %1 = graph.neg %x : tensor<2x3xf32>
  %1 = graph.neg %x : tensor<2x3xf32>
  // CHECK-NEXT: %2 = graph.abs %x : tensor<2x3xf32>
  %2 = graph.abs %x : tensor<2x3xf32>
  // CHECK-NEXT: %3 = graph.exp %x : tensor<2x3xf32>
  %3 = graph.exp %x : tensor<2x3xf32>
  // CHECK-NEXT: %4 = graph.log %x : tensor<2x3xf32>
  %4 = graph.log %x : tensor<2x3xf32>
  // CHECK-NEXT: %5 = graph.sqrt %x : tensor<2x3xf32>
  %5 = graph.sqrt %x : tensor<2x3xf32>
  // CHECK-NEXT: %6 = graph.rsqrt %x : tensor<2x3xf32>
  %6 = graph.rsqrt %x : tensor<2x3xf32>
  // CHECK-NEXT: %7 = graph.reciprocal %x : tensor<2x3xf32>
  %7 = graph.reciprocal %x : tensor<2x3xf32>
  // CHECK-NEXT: %8 = graph.tanh %x : tensor<2x3xf32>
  %8 = graph.tanh %x : tensor<2x3xf32>
  // CHECK-NEXT: %9 = graph.sigmoid %x : tensor<2x3xf32>
  %9 = graph.sigmoid %x : tensor<2x3xf32>
  // CHECK-NEXT: %10 = graph.relu %x : tensor<2x3xf32>
  %10 = graph.relu %x : tensor<2x3xf32>
  // CHECK-NEXT: %11 = graph.erf %x : tensor<2x3xf32>
  %11 = graph.erf %x : tensor<2x3xf32>
  // CHECK-NEXT: %12 = graph.gelu %x : tensor<2x3xf32>
  %12 = graph.gelu %x : tensor<2x3xf32>
  // CHECK-NEXT: %13 = graph.floor %x : tensor<2x3xf32>
  %13 = graph.floor %x : tensor<2x3xf32>
  // CHECK-NEXT: %14 = graph.ceil %x : tensor<2x3xf32>
  %14 = graph.ceil %x : tensor<2x3xf32>
  // CHECK-NEXT: %15 = graph.round %x : tensor<2x3xf32>
  %15 = graph.round %x : tensor<2x3xf32>
  // CHECK-NEXT: %16 = graph.sign %x : tensor<2x3xf32>
  %16 = graph.sign %x : tensor<2x3xf32>
  // CHECK-NEXT: %17 = graph.logical_not %b : tensor<2x3xi1>
  %17 = graph.logical_not %b : tensor<2x3xi1>
  // CHECK-NEXT: %18 = graph.leaky_relu %x {alpha = 2.000000e-01 : f32} : tensor<2x3xf32>
  %18 = graph.leaky_relu %x {alpha = 2.000000e-01 : f32} : tensor<2x3xf32>
  // CHECK-NEXT: %19 = graph.clip %x {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<2x3xf32>
  %19 = graph.clip %x {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<2x3xf32>
  // CHECK-NEXT: %20 = graph.dropout %x : tensor<2x3xf32>
  %20 = graph.dropout %x : tensor<2x3xf32>
  // CHECK-NEXT: %21 = graph.cast %x : tensor<2x3xf32> to i32
  %21 = graph.cast %x : tensor<2x3xf32> to i32
  // CHECK-NEXT: %22 = graph.add %x, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %22 = graph.add %x, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %23 = graph.subtract %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %23 = graph.subtract %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %24 = graph.multiply %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %24 = graph.multiply %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %25 = graph.divide %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %25 = graph.divide %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %26 = graph.power %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %26 = graph.power %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %27 = graph.maximum %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %27 = graph.maximum %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %28 = graph.minimum %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %28 = graph.minimum %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %29 = graph.less %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %29 = graph.less %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %30 = graph.greater %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %30 = graph.greater %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %31 = graph.equal %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %31 = graph.equal %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %32 = graph.logical_and %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %32 = graph.logical_and %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK-NEXT: %33 = graph.logical_or %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %33 = graph.logical_or %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK-NEXT: %34 = graph.where %b, %x, %y : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %34 = graph.where %b, %x, %y : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %35 = graph.conv2d %img, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %35 = graph.conv2d %img, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  // CHECK-NEXT: %36 = graph.dense %x, %wd : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %36 = graph.dense %x, %wd : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  // CHECK-NEXT: %37 = graph.matmul %x, %m : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %37 = graph.matmul %x, %m : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK-NEXT: %38 = graph.matmul %v, %m : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  %38 = graph.matmul %v, %m : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: %39 = graph.batch_matmul %t, %bm : (tensor<2x3x4xf32>, tensor<1x4x3xf32>) -> tensor<2x3x3xf32>
  %39 = graph.batch_matmul %t, %bm : (tensor<2x3x4xf32>, tensor<1x4x3xf32>) -> tensor<2x3x3xf32>
  // CHECK-NEXT: %40 = graph.batch_matmul %t, %t {transpose_b = true} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  %40 = graph.batch_matmul %t, %t {transpose_b = true} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  // CHECK-NEXT: %41 = graph.bias_add %img, %c : (tensor<1x4x5x5xf32>, tensor<4xf32>) -> tensor<1x4x5x5xf32>
  %41 = graph.bias_add %img, %c : (tensor<1x4x5x5xf32>, tensor<4xf32>) -> tensor<1x4x5x5xf32>
  // CHECK-NEXT: %42 = graph.bias_add %x, %v {axis = -1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %42 = graph.bias_add %x, %v {axis = -1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %43 = graph.softmax %x : tensor<2x3xf32>
  %43 = graph.softmax %x : tensor<2x3xf32>
  // CHECK-NEXT: %44 = graph.log_softmax %x {axis = 0 : i64} : tensor<2x3xf32>
  %44 = graph.log_softmax %x {axis = 0 : i64} : tensor<2x3xf32>
  // CHECK-NEXT: %45 = graph.max_pool2d %img {padding = array<i64: 1, 1, 1, 1>, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : tensor<1x4x5x5xf32> -> tensor<1x4x3x3xf32>
  %45 = graph.max_pool2d %img {padding = array<i64: 1, 1, 1, 1>, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : tensor<1x4x5x5xf32> -> tensor<1x4x3x3xf32>
  // CHECK-NEXT: %46 = graph.avg_pool2d %img {ceil_mode = true, count_include_pad = true, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x4x5x5xf32> -> tensor<1x4x3x3xf32>
  %46 = graph.avg_pool2d %img {ceil_mode = true, count_include_pad = true, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x4x5x5xf32> -> tensor<1x4x3x3xf32>
  // CHECK-NEXT: %47 = graph.global_avg_pool2d %img : tensor<1x4x5x5xf32> -> tensor<1x4x1x1xf32>
  %47 = graph.global_avg_pool2d %img : tensor<1x4x5x5xf32> -> tensor<1x4x1x1xf32>
  // CHECK-NEXT: %48 = graph.global_max_pool2d %img : tensor<1x4x5x5xf32> -> tensor<1x4x1x1xf32>
  %48 = graph.global_max_pool2d %img : tensor<1x4x5x5xf32> -> tensor<1x4x1x1xf32>
  // CHECK-NEXT: %49 = graph.batch_norm %img, %c, %c, %c, %c : (tensor<1x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x5x5xf32>
  %49 = graph.batch_norm %img, %c, %c, %c, %c : (tensor<1x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x5x5xf32>
  // CHECK-NEXT: %50 = graph.layer_norm %x, %v, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %50 = graph.layer_norm %x, %v, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %51 = graph.sum %t : tensor<2x3x4xf32> -> tensor<f32>
  %51 = graph.sum %t : tensor<2x3x4xf32> -> tensor<f32>
  // CHECK-NEXT: %52 = graph.mean %t {axes = array<i64: -1>, keepdims = true} : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  %52 = graph.mean %t {axes = array<i64: -1>, keepdims = true} : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  // CHECK-NEXT: %53 = graph.max %t {axes = array<i64: 0, 2>} : tensor<2x3x4xf32> -> tensor<3xf32>
  %53 = graph.max %t {axes = array<i64: 0, 2>} : tensor<2x3x4xf32> -> tensor<3xf32>
  // CHECK-NEXT: %54 = graph.min %t {axes = array<i64: 1>} : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %54 = graph.min %t {axes = array<i64: 1>} : tensor<2x3x4xf32> -> tensor<2x4xf32>
  // CHECK-NEXT: %55 = graph.prod %t {axes = array<i64: 0>} : tensor<2x3x4xf32> -> tensor<3x4xf32>
  %55 = graph.prod %t {axes = array<i64: 0>} : tensor<2x3x4xf32> -> tensor<3x4xf32>
  // CHECK-NEXT: %56 = graph.argmax %t {axis = -1 : i64} : tensor<2x3x4xf32> -> tensor<2x3xi64>
  %56 = graph.argmax %t {axis = -1 : i64} : tensor<2x3x4xf32> -> tensor<2x3xi64>
  // CHECK-NEXT: %57 = graph.reshape %t {shape = array<i64: 6, -1>} : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %57 = graph.reshape %t {shape = array<i64: 6, -1>} : tensor<2x3x4xf32> -> tensor<6x4xf32>
  // CHECK-NEXT: %58 = graph.layout_transform %img {dst_layout = "NCHW2c", src_layout = "NCHW"} : tensor<1x4x5x5xf32> -> tensor<1x2x5x5x2xf32>
  %58 = graph.layout_transform %img {dst_layout = "NCHW2c", src_layout = "NCHW"} : tensor<1x4x5x5xf32> -> tensor<1x2x5x5x2xf32>
  // CHECK-NEXT: %59 = graph.transpose %t {axes = array<i64: 0, 2, 1>} : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  %59 = graph.transpose %t {axes = array<i64: 0, 2, 1>} : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  // CHECK-NEXT: %60 = graph.transpose %t : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
  %60 = graph.transpose %t : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
  // CHECK-NEXT: %61 = graph.flatten %img : tensor<1x4x5x5xf32> -> tensor<1x100xf32>
  %61 = graph.flatten %img : tensor<1x4x5x5xf32> -> tensor<1x100xf32>
  // CHECK-NEXT: %62 = graph.squeeze %img : tensor<1x4x5x5xf32> -> tensor<4x5x5xf32>
  %62 = graph.squeeze %img : tensor<1x4x5x5xf32> -> tensor<4x5x5xf32>
  // CHECK-NEXT: %63 = graph.expand_dims %x {axis = -1 : i64, num_newaxis = 2 : i64} : tensor<2x3xf32> -> tensor<2x3x1x1xf32>
  %63 = graph.expand_dims %x {axis = -1 : i64, num_newaxis = 2 : i64} : tensor<2x3xf32> -> tensor<2x3x1x1xf32>
  // CHECK-NEXT: %64 = graph.broadcast_to %v {shape = array<i64: 2, 3>} : tensor<3xf32> -> tensor<2x3xf32>
  %64 = graph.broadcast_to %v {shape = array<i64: 2, 3>} : tensor<3xf32> -> tensor<2x3xf32>
  // CHECK-NEXT: %65 = graph.tile %x {repeats = array<i64: 2, 1>} : tensor<2x3xf32> -> tensor<4x3xf32>
  %65 = graph.tile %x {repeats = array<i64: 2, 1>} : tensor<2x3xf32> -> tensor<4x3xf32>
  // CHECK-NEXT: %66 = graph.pad %x {pads = array<i64: 0, 1, 1, 2>, value = -1.000000e+00 : f32} : tensor<2x3xf32> -> tensor<3x6xf32>
  %66 = graph.pad %x {pads = array<i64: 0, 1, 1, 2>, value = -1.000000e+00 : f32} : tensor<2x3xf32> -> tensor<3x6xf32>
  // CHECK-NEXT: %67 = graph.slice %t {axes = array<i64: 2>, ends = array<i64: -5>, starts = array<i64: -1>, steps = array<i64: -2>} : tensor<2x3x4xf32> -> tensor<2x3x2xf32>
  %67 = graph.slice %t {axes = array<i64: 2>, ends = array<i64: -5>, starts = array<i64: -1>, steps = array<i64: -2>} : tensor<2x3x4xf32> -> tensor<2x3x2xf32>
  // CHECK-NEXT: %68 = graph.gather %t, %idx {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x2xi64>) -> tensor<2x2x2x4xf32>
  %68 = graph.gather %t, %idx {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x2xi64>) -> tensor<2x2x2x4xf32>
  // CHECK-NEXT: %69 = graph.concat %x, %y, %x {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x9xf32>
  %69 = graph.concat %x, %y, %x {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x9xf32>
  // CHECK-NEXT: %70:3 = graph.split %t {axis = 2 : i64, sections = array<i64: 1, 2, 1>} : (tensor<2x3x4xf32>) -> (tensor<2x3x1xf32>, tensor<2x3x2xf32>, tensor<2x3x1xf32>)
  %70:3 = graph.split %t {axis = 2 : i64, sections = array<i64: 1, 2, 1>} : (tensor<2x3x4xf32>) -> (tensor<2x3x1xf32>, tensor<2x3x2xf32>, tensor<2x3x1xf32>)
  // CHECK-NEXT: %71 = graph.add %70#0, %70#2 : (tensor<2x3x1xf32>, tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %71 = graph.add %70#0, %70#2 : (tensor<2x3x1xf32>, tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  // CHECK-NEXT: return
  return
// CHECK-NEXT: }
}

// The ops ONNX's node tests need beyond the core set: activations with their
// attributes, comparisons, gather_elements, argmin and select_last_index, range,
// gelu's tanh form, reshape's allowzero; trigonometry, isnan/isinf, shrink, bitwise
// ops and shifts, mod, cumsum/cumprod; gather_nd, scatter_nd, scatter_elements, one_hot, top_k
// (whose results print as written, or by their declarations' names: %top, %indices).
// CHECK-LABEL: func.func @onnx(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %v: tensor<3xf32>, %b: tensor<2x3xi1>, %img: tensor<1x4x5x5xf32>, %s: tensor<4x1x1xf32>, %i: tensor<2x2xi64>, %j: tensor<2xi64>, %k: tensor<2x1xi64>, %v2: tensor<2xf32>, %y2: tensor<2x2xf32>) {
func.func @onnx(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %v: tensor<3xf32>, %b: tensor<2x3xi1>, %img: tensor<1x4x5x5xf32>, %s: tensor<4x1x1xf32>, %i: tensor<2x2xi64>, %j: tensor<2xi64>, %k: tensor<2x1xi64>, %v2: tensor<2xf32>, %y2: tensor<2x2xf32>) {
  // CHECK-NEXT: %0 = graph.elu %x {alpha = 5.000000e-01 : f32} : tensor<2x3xf32>
  %0 = graph.elu %x {alpha = 5.000000e-01 : f32} : tensor<2x3xf32>
  // CHECK-NEXT: %1 = graph.selu %x : tensor<2x3xf32>
  %1 = graph.selu %x : tensor<2x3xf32>
  // CHECK-NEXT: %2 = graph.selu %x {alpha = 2.000000e+00 : f32, gamma = 3.000000e+00 : f32} : tensor<2x3xf32>
  %2 = graph.selu %x {alpha = 2.000000e+00 : f32, gamma = 3.000000e+00 : f32} : tensor<2x3xf32>
  // CHECK-NEXT: %3 = graph.celu %x {alpha = 2.000000e+00 : f32} : tensor<2x3xf32>
  %3 = graph.celu %x {alpha = 2.000000e+00 : f32} : tensor<2x3xf32>
  // CHECK-NEXT: %4 = graph.thresholded_relu %x {alpha = 1.500000e+00 : f32} : tensor<2x3xf32>
  %4 = graph.thresholded_relu %x {alpha = 1.500000e+00 : f32} : tensor<2x3xf32>
  // CHECK-NEXT: %5 = graph.softplus %x : tensor<2x3xf32>
  %5 = graph.softplus %x : tensor<2x3xf32>
  // CHECK-NEXT: %6 = graph.softsign %x : tensor<2x3xf32>
  %6 = graph.softsign %x : tensor<2x3xf32>
  // CHECK-NEXT: %7 = graph.mish %x : tensor<2x3xf32>
  %7 = graph.mish %x : tensor<2x3xf32>
  // CHECK-NEXT: %8 = graph.hard_sigmoid %x {alpha = 1.000000e-01 : f32, beta = 6.000000e-01 : f32} : tensor<2x3xf32>
  %8 = graph.hard_sigmoid %x {alpha = 1.000000e-01 : f32, beta = 6.000000e-01 : f32} : tensor<2x3xf32>
  // CHECK-NEXT: %9 = graph.hard_swish %x : tensor<2x3xf32>
  %9 = graph.hard_swish %x : tensor<2x3xf32>
  // CHECK-NEXT: %10 = graph.swish %x : tensor<2x3xf32>
  %10 = graph.swish %x : tensor<2x3xf32>
  // CHECK-NEXT: %11 = graph.swish %x {alpha = 1.702000e+00 : f32} : tensor<2x3xf32>
  %11 = graph.swish %x {alpha = 1.702000e+00 : f32} : tensor<2x3xf32>
  // CHECK-NEXT: %12 = graph.prelu %x, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %12 = graph.prelu %x, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %13 = graph.prelu %img, %s : (tensor<1x4x5x5xf32>, tensor<4x1x1xf32>) -> tensor<1x4x5x5xf32>
  %13 = graph.prelu %img, %s : (tensor<1x4x5x5xf32>, tensor<4x1x1xf32>) -> tensor<1x4x5x5xf32>
  // CHECK-NEXT: %14 = graph.greater_equal %x, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %14 = graph.greater_equal %x, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %15 = graph.less_equal %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %15 = graph.less_equal %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %16 = graph.not_equal %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi1>
  %16 = graph.not_equal %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi1>
  // CHECK-NEXT: %17 = graph.logical_xor %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %17 = graph.logical_xor %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK-NEXT: %18 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %18 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  // CHECK-NEXT: %19 = graph.gather_elements %x, %i : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %19 = graph.gather_elements %x, %i : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  // CHECK-NEXT: %20 = graph.argmin %x {axis = -1 : i64, keepdims = true} : tensor<2x3xf32> -> tensor<2x1xi64>
  %20 = graph.argmin %x {axis = -1 : i64, keepdims = true} : tensor<2x3xf32> -> tensor<2x1xi64>
  // CHECK-NEXT: %21 = graph.argmax %x {select_last_index = true} : tensor<2x3xf32> -> tensor<3xi64>
  %21 = graph.argmax %x {select_last_index = true} : tensor<2x3xf32> -> tensor<3xi64>
  // CHECK-NEXT: %22 = graph.range {delta = 3 : i64, limit = 10 : i64, start = 1 : i64} : tensor<3xi64>
  %22 = graph.range {delta = 3 : i64, limit = 10 : i64, start = 1 : i64} : tensor<3xi64>
  // CHECK-NEXT: %23 = graph.range {delta = -5.000000e-01 : f32, limit = -1.000000e+00 : f32, start = 1.000000e+00 : f32} : tensor<4xf32>
  %23 = graph.range {delta = -5.000000e-01 : f32, limit = -1.000000e+00 : f32, start = 1.000000e+00 : f32} : tensor<4xf32>
  // CHECK-NEXT: %24 = graph.range {delta = 1 : i32, limit = 0 : i32, start = 5 : i32} : tensor<0xi32>
  %24 = graph.range {delta = 1 : i32, limit = 0 : i32, start = 5 : i32} : tensor<0xi32>
  // CHECK-NEXT: %25 = graph.gelu %x {approximate = "tanh"} : tensor<2x3xf32>
  %25 = graph.gelu %x {approximate = "tanh"} : tensor<2x3xf32>
  // CHECK-NEXT: %26 = graph.reshape %x {allowzero = true, shape = array<i64: 3, 2>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %26 = graph.reshape %x {allowzero = true, shape = array<i64: 3, 2>} : tensor<2x3xf32> -> tensor<3x2xf32>
  // CHECK-NEXT: %27 = graph.sin %x : tensor<2x3xf32>
  %27 = graph.sin %x : tensor<2x3xf32>
  // CHECK-NEXT: %28 = graph.cos %x : tensor<2x3xf32>
  %28 = graph.cos %x : tensor<2x3xf32>
  // CHECK-NEXT: %29 = graph.tan %x : tensor<2x3xf32>
  %29 = graph.tan %x : tensor<2x3xf32>
  // CHECK-NEXT: %30 = graph.asin %x : tensor<2x3xf32>
  %30 = graph.asin %x : tensor<2x3xf32>
  // CHECK-NEXT: %31 = graph.acos %x : tensor<2x3xf32>
  %31 = graph.acos %x : tensor<2x3xf32>
  // CHECK-NEXT: %32 = graph.atan %x : tensor<2x3xf32>
  %32 = graph.atan %x : tensor<2x3xf32>
  // CHECK-NEXT: %33 = graph.sinh %x : tensor<2x3xf32>
  %33 = graph.sinh %x : tensor<2x3xf32>
  // CHECK-NEXT: %34 = graph.cosh %x : tensor<2x3xf32>
  %34 = graph.cosh %x : tensor<2x3xf32>
  // CHECK-NEXT: %35 = graph.asinh %x : tensor<2x3xf32>
  %35 = graph.asinh %x : tensor<2x3xf32>
  // CHECK-NEXT: %36 = graph.acosh %x : tensor<2x3xf32>
  %36 = graph.acosh %x : tensor<2x3xf32>
  // CHECK-NEXT: %37 = graph.atanh %x : tensor<2x3xf32>
  %37 = graph.atanh %x : tensor<2x3xf32>
  // CHECK-NEXT: %38 = graph.isnan %x : tensor<2x3xf32>
  %38 = graph.isnan %x : tensor<2x3xf32>
  // CHECK-NEXT: %39 = graph.isinf %x {detect_negative = false} : tensor<2x3xf32>
  %39 = graph.isinf %x {detect_negative = false} : tensor<2x3xf32>
  // CHECK-NEXT: %40 = graph.shrink %x {bias = 5.000000e-01 : f32} : tensor<2x3xf32>
  %40 = graph.shrink %x {bias = 5.000000e-01 : f32} : tensor<2x3xf32>
  // CHECK-NEXT: %41 = graph.bitwise_not %i : tensor<2x2xi64>
  %41 = graph.bitwise_not %i : tensor<2x2xi64>
  // CHECK-NEXT: %42 = graph.bitwise_and %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %42 = graph.bitwise_and %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  // CHECK-NEXT: %43 = graph.bitwise_or %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %43 = graph.bitwise_or %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  // CHECK-NEXT: %44 = graph.bitwise_xor %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %44 = graph.bitwise_xor %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  // CHECK-NEXT: %45 = graph.left_shift %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %45 = graph.left_shift %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  // CHECK-NEXT: %46 = graph.right_shift %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %46 = graph.right_shift %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  // CHECK-NEXT: %47 = graph.mod %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %47 = graph.mod %i, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  // CHECK-NEXT: %48 = graph.mod %x, %v {fmod = true} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %48 = graph.mod %x, %v {fmod = true} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %49 = graph.cumsum %x {axis = -1 : i64, exclusive = true} : tensor<2x3xf32>
  %49 = graph.cumsum %x {axis = -1 : i64, exclusive = true} : tensor<2x3xf32>
  // CHECK-NEXT: %50 = graph.cumprod %i {reverse = true} : tensor<2x2xi64>
  %50 = graph.cumprod %i {reverse = true} : tensor<2x2xi64>
  // CHECK-NEXT: %51 = graph.gather_nd %x, %i : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2xf32>
  %51 = graph.gather_nd %x, %i : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2xf32>
  // CHECK-NEXT: %52 = graph.gather_nd %x, %k {batch_dims = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  %52 = graph.gather_nd %x, %k {batch_dims = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  // CHECK-NEXT: %53 = graph.scatter_nd %x, %i, %v2 : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2xf32>) -> tensor<2x3xf32>
  %53 = graph.scatter_nd %x, %i, %v2 : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %54 = graph.scatter_elements %x, %i, %y2 {axis = 1 : i64, reduction = "add"} : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x3xf32>
  %54 = graph.scatter_elements %x, %i, %y2 {axis = 1 : i64, reduction = "add"} : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %t:2 = graph.top_k %x {k = 2 : i64} : tensor<2x3xf32> -> tensor<2x2xf32>, tensor<2x2xi64>
  %t:2 = graph.top_k %x {k = 2 : i64} : tensor<2x3xf32> -> tensor<2x2xf32>, tensor<2x2xi64>
  // CHECK-NEXT: %top, %indices = graph.top_k %x {axis = 0 : i64, k = 1 : i64, largest = false} : tensor<2x3xf32> -> tensor<1x3xf32>, tensor<1x3xi64>
  %top, %indices = graph.top_k %x {axis = 0 : i64, k = 1 : i64, largest = false} : tensor<2x3xf32> -> tensor<1x3xf32>, tensor<1x3xi64>
  // CHECK-NEXT: %55 = graph.one_hot %j {depth = 3 : i64, off_value = 0.000000e+00 : f32, on_value = 1.000000e+00 : f32} : tensor<2xi64> -> tensor<2x3xf32>
  %55 = graph.one_hot %j {depth = 3 : i64, off_value = 0.000000e+00 : f32, on_value = 1.000000e+00 : f32} : tensor<2xi64> -> tensor<2x3xf32>
  // CHECK-NEXT: %56 = graph.one_hot %i {axis = 0 : i64, depth = 2 : i64, off_value = false, on_value = true} : tensor<2x2xi64> -> tensor<2x2x2xi1>
  %56 = graph.one_hot %i {axis = 0 : i64, depth = 2 : i64, off_value = false, on_value = true} : tensor<2x2xi64> -> tensor<2x2x2xi1>
  // CHECK-NEXT: %57 = graph.bitcast %x : tensor<2x3xf32> to i32
  %57 = graph.bitcast %x : tensor<2x3xf32> to i32
  // CHECK-NEXT: return
  return
// CHECK-NEXT: }
}

// Shorthand spellings print in the canonical form: an untyped integer is i64, an
// attribute equal to its default is elided, a one-piece split has one plain result.
// CHECK-LABEL: func.func @spellings(%t: tensor<2x3x4xf32>) {
func.func @spellings(%t: tensor<2x3x4xf32>) {
  // CHECK-NEXT: %0 = graph.softmax %t {axis = 1 : i64} : tensor<2x3x4xf32>
  %0 = graph.softmax %t {axis = 1} : tensor<2x3x4xf32>
  // CHECK-NEXT: %1 = graph.sum %t : tensor<2x3x4xf32> -> tensor<f32>
  %1 = graph.sum %t {keepdims = false, axes = array<i64>} : tensor<2x3x4xf32> -> tensor<f32>
  // CHECK-NEXT: %2 = graph.split %t {sections = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2:1 = graph.split %t {sections = array<i64: 2>} : (tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>)
  // CHECK-NEXT: %3 = graph.concat %t : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %3 = graph.concat %t {axis = 0} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: return
  return
}

// Calls in destination-passing style into a primitive function and an external one.
// CHECK-LABEL: func.func private @kernel(memref<2x3xf32>, memref<3xf32>)
func.func private @kernel(memref<2x3xf32>, memref<3xf32>)
// CHECK-LABEL: func.func @calls(%x: tensor<2x3xf32>) {
func.func @calls(%x: tensor<2x3xf32>) {
  // CHECK-NEXT: %0 = graph.call_tir @kernel(%x) : (tensor<2x3xf32>) -> tensor<3xf32>
  %0 = graph.call_tir @kernel(%x) : (tensor<2x3xf32>) -> tensor<3xf32>
  // CHECK-NEXT: %1:2 = graph.call_dps_packed "env.f"(%x, %0) : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<2x3xf32>)
  %1:2 = graph.call_dps_packed "env.f"(%x, %0) : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<2x3xf32>)
  // CHECK-NEXT: return
  return
}
