// The ops whose compute rules use math's trigonometric and hyperbolic functions,
// roundeven, math.ipowi and arith's bitwise ops and shifts: lowered, checked by the
// interpreter after every pass, and read by mlir-opt-22 in the standard dialects.
// RUN: mlc-opt %s -p 'graph-lower-to-loop' | filecheck %s
// RUN: mlc-opt %s -p 'graph-lower-to-loop,loop-lower,canonicalize' --check-semantics 2>&1 | filecheck %s --check-prefix=SCF
// RUN: %if mlir-opt %{ mlc-opt %s -p 'graph-lower-to-loop,loop-lower,canonicalize' | %mlir_opt -o /dev/null %}

func.func @main(%x: tensor<4xf32>, %a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = graph.round %x : tensor<4xf32>
  %1 = graph.tan %0 : tensor<4xf32>
  %2 = graph.atanh %1 : tensor<4xf32>
  %3 = graph.acosh %2 : tensor<4xf32>
  %4 = graph.bitwise_xor %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %5 = graph.left_shift %4, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %6 = graph.right_shift %5, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %abs = graph.abs %b : tensor<4xi32>
  %7 = graph.power %6, %abs : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %3, %7 : tensor<4xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func private @round(
// CHECK:         math.roundeven %{{.*}} : f32
// CHECK-LABEL: func.func private @tan(
// CHECK:         math.tan %{{.*}} : f32
// CHECK-LABEL: func.func private @atanh(
// CHECK:         math.atanh %{{.*}} : f32
// CHECK-LABEL: func.func private @acosh(
// CHECK:         math.acosh %{{.*}} : f32
// CHECK-LABEL: func.func private @bitwise_xor(
// CHECK:         arith.xori %{{.*}}, %{{.*}} : i32
// A shift amount outside [0, 32) is never handed to arith.shli (poison there).
// CHECK-LABEL: func.func private @left_shift(
// CHECK:         %[[NONNEG:.*]] = arith.cmpi sge, %[[B:.*]], %{{.*}} : i32
// CHECK:         %[[BELOW:.*]] = arith.cmpi slt, %[[B]], %{{.*}} : i32
// CHECK:         %[[IN:.*]] = arith.select %[[NONNEG]], %[[BELOW]], %{{.*}} : i1
// CHECK:         %[[AMOUNT:.*]] = arith.select %[[IN]], %[[B]], %{{.*}} : i32
// CHECK:         %[[SHIFTED:.*]] = arith.shli %{{.*}}, %[[AMOUNT]] : i32
// CHECK:         arith.select %[[IN]], %[[SHIFTED]], %{{.*}} : i32
// CHECK-LABEL: func.func private @right_shift(
// CHECK:         arith.shrsi
// CHECK-LABEL: func.func private @power(
// CHECK:         math.ipowi %{{.*}}, %{{.*}} : i32

// SCF-NOT: warning
// SCF-NOT: error
// SCF:     math.roundeven
// SCF:     math.ipowi
// SCF-NOT: loop.
