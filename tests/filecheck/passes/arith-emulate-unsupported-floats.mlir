// arith-emulate-unsupported-floats: arith ops (and vector.fma / vector.reduction) on
// bf16 and f8E5M2 values, scalar or shaped, are computed in f32 (the default target
// type): each operand is widened by `extf fastmath<contract>` once, just after it is
// defined, and each changed result narrowed back by `truncf fastmath<contract>`; the
// op keeps its own attributes. Casts, constants, select, bitcast and other dialects'
// ops stay. The CHECK lines, written from mlir-opt-22's output, hold for it too.
// RUN: mlc-opt %s --arith-emulate-unsupported-floats="source-types=bf16,f8E5M2" | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --arith-emulate-unsupported-floats="source-types=bf16,f8E5M2" | filecheck %s %}
// Bad options: unknown float names (tf32 is none for MLIR), a target among the sources.
// mlc reports an unknown name where the pipeline spells it, with MLIR's message (which
// mlir-opt gives when the pass runs).
// RUN: not mlc-opt %s --arith-emulate-unsupported-floats="source-types=bf16 target-type=F32" 2>&1 | filecheck %s --check-prefixes=TARGET,TARGET-AT
// RUN: not mlc-opt %s --arith-emulate-unsupported-floats="source-types=bf16,tf32" 2>&1 | filecheck %s --check-prefixes=SOURCE,SOURCE-AT
// RUN: not mlc-opt %s --arith-emulate-unsupported-floats="source-types=bf16,f32" 2>&1 | filecheck %s --check-prefix=SAME
// RUN: %if mlir-opt %{ not %mlir_opt %s --arith-emulate-unsupported-floats="source-types=bf16 target-type=F32" 2>&1 | filecheck %s --check-prefix=TARGET %}
// RUN: %if mlir-opt %{ not %mlir_opt %s --arith-emulate-unsupported-floats="source-types=bf16,tf32" 2>&1 | filecheck %s --check-prefix=SOURCE %}
// RUN: %if mlir-opt %{ not %mlir_opt %s --arith-emulate-unsupported-floats="source-types=bf16,f32" 2>&1 | filecheck %s --check-prefix=SAME %}
// Without source types nothing changes.
// RUN: mlc-opt %s --arith-emulate-unsupported-floats | filecheck %s --check-prefix=NONE
// RUN: %if mlir-opt %{ %mlir_opt %s --arith-emulate-unsupported-floats | filecheck %s --check-prefix=NONE %}

// TARGET-AT: <pipeline>:1:64: error: invalid value for option 'target-type' of 'arith-emulate-unsupported-floats':
// TARGET: could not map target type 'F32' to a known floating-point type
// SOURCE-AT: <pipeline>:1:47: error: invalid value for option 'source-types' of 'arith-emulate-unsupported-floats':
// SOURCE: could not map source type 'tf32' to a known floating-point type
// SAME: error: target type cannot be an unsupported source type
// NONE-LABEL: func.func @shared_widening(
// NONE:         arith.mulf %{{.*}}, %{{.*}} fastmath<fast> : bf16

// %n is widened once, for both of its users.
// CHECK-LABEL: func.func @shared_widening(
// CHECK-SAME:      %[[A:[^:]*]]: bf16, %[[B:[^:]*]]: bf16)
// CHECK-NEXT:    %[[BW:.*]] = arith.extf %[[B]] fastmath<contract> : bf16 to f32
// CHECK-NEXT:    %[[AW:.*]] = arith.extf %[[A]] fastmath<contract> : bf16 to f32
// CHECK-NEXT:    %[[SW:.*]] = arith.mulf %[[AW]], %[[BW]] fastmath<fast> : f32
// CHECK-NEXT:    %[[S:.*]] = arith.truncf %[[SW]] fastmath<contract> : f32 to bf16
// CHECK-NEXT:    %[[S2:.*]] = arith.extf %[[S]] fastmath<contract> : bf16 to f32
// CHECK-NEXT:    %[[NW:.*]] = arith.negf %[[S2]] : f32
// CHECK-NEXT:    %[[N:.*]] = arith.truncf %[[NW]] fastmath<contract> : f32 to bf16
// CHECK-NEXT:    %[[N2:.*]] = arith.extf %[[N]] fastmath<contract> : bf16 to f32
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf olt, %[[N2]], %[[AW]] : f32
// CHECK-NEXT:    %[[I:.*]] = arith.fptosi %[[N2]] : f32 to i32
// CHECK-NEXT:    return %[[N]], %[[LT]], %[[I]] : bf16, i1, i32
func.func @shared_widening(%a: bf16, %b: bf16) -> (bf16, i1, i32) {
  %s = arith.mulf %a, %b fastmath<fast> : bf16
  %n = arith.negf %s : bf16
  %lt = arith.cmpf olt, %n, %a : bf16
  %i = arith.fptosi %n : bf16 to i32
  return %n, %lt, %i : bf16, i1, i32
}

// CHECK-LABEL: func.func @to_source_type(
// CHECK-NEXT:    %[[F:.*]] = arith.sitofp %{{.*}} : i32 to f32
// CHECK-NEXT:    %[[T:.*]] = arith.truncf %[[F]] fastmath<contract> : f32 to bf16
// CHECK-NEXT:    return %[[T]] : bf16
func.func @to_source_type(%i: i32) -> bf16 {
  %f = arith.sitofp %i : i32 to bf16
  return %f : bf16
}

// CHECK-LABEL: func.func @shaped(
// CHECK-SAME:      %[[T:[^:]*]]: tensor<2x?xf8E5M2>, %[[V:[^:]*]]: vector<3xf8E5M2>)
// CHECK-NEXT:    %[[VW:.*]] = arith.extf %[[V]] fastmath<contract> : vector<3xf8E5M2> to vector<3xf32>
// CHECK-NEXT:    %[[TW:.*]] = arith.extf %[[T]] fastmath<contract> : tensor<2x?xf8E5M2> to tensor<2x?xf32>
// CHECK-NEXT:    %[[DW:.*]] = arith.divf %[[TW]], %[[TW]] : tensor<2x?xf32>
// CHECK-NEXT:    %[[D:.*]] = arith.truncf %[[DW]] fastmath<contract> : tensor<2x?xf32> to tensor<2x?xf8E5M2>
// CHECK-NEXT:    %[[RW:.*]] = vector.reduction <add>, %[[VW]] : vector<3xf32> into f32
// CHECK-NEXT:    %[[R:.*]] = arith.truncf %[[RW]] fastmath<contract> : f32 to f8E5M2
// CHECK-NEXT:    %[[FW:.*]] = vector.fma %[[VW]], %[[VW]], %[[VW]] : vector<3xf32>
// CHECK-NEXT:    %[[F:.*]] = arith.truncf %[[FW]] fastmath<contract> : vector<3xf32> to vector<3xf8E5M2>
// CHECK-NEXT:    return %[[D]], %[[R]], %[[F]]
func.func @shaped(%t: tensor<2x?xf8E5M2>, %v: vector<3xf8E5M2>) -> (tensor<2x?xf8E5M2>, f8E5M2, vector<3xf8E5M2>) {
  %d = arith.divf %t, %t : tensor<2x?xf8E5M2>
  %r = vector.reduction <add>, %v : vector<3xf8E5M2> into f8E5M2
  %f = vector.fma %v, %v, %v : vector<3xf8E5M2>
  return %d, %r, %f : tensor<2x?xf8E5M2>, f8E5M2, vector<3xf8E5M2>
}

// CHECK-LABEL: func.func @left_alone(
// CHECK-SAME:      %[[C:[^:]*]]: i1, %[[A:[^:]*]]: bf16, %[[M:[^:]*]]: memref<2xbf16>, %[[H:[^:]*]]: f16)
// CHECK-NEXT:    %[[K:.*]] = arith.constant 2.500000e+00 : bf16
// CHECK-NEXT:    %[[S:.*]] = arith.select %[[C]], %[[A]], %[[K]] : bf16
// CHECK-NEXT:    %[[W:.*]] = arith.extf %[[S]] : bf16 to f64
// CHECK-NEXT:    %[[T:.*]] = arith.truncf %[[W]] : f64 to bf16
// CHECK-NEXT:    %[[I:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %[[T]], %[[M]][%[[I]]] : memref<2xbf16>
// CHECK-NEXT:    %[[H2:.*]] = arith.addf %[[H]], %[[H]] : f16
// CHECK-NEXT:    %[[B:.*]] = arith.bitcast %[[H2]] : f16 to bf16
// CHECK-NEXT:    return %[[B]], %[[W]], %[[T]], %[[H2]]
func.func @left_alone(%c: i1, %a: bf16, %m: memref<2xbf16>, %h: f16) -> (bf16, f64, bf16, f16) {
  %k = arith.constant 2.5 : bf16
  %s = arith.select %c, %a, %k : bf16
  %w = arith.extf %s : bf16 to f64
  %t = arith.truncf %w : f64 to bf16
  %i = arith.constant 0 : index
  memref.store %t, %m[%i] : memref<2xbf16>
  %h2 = arith.addf %h, %h : f16
  %b = arith.bitcast %h2 : f16 to bf16
  return %b, %w, %t, %h2 : bf16, f64, bf16, f16
}
