// scf.forall in custom and generic form, printed as mlir-opt-22 prints it: the
// normalized form (lower bounds 0, steps 1, constant or not) gives the upper bounds
// only, bounds mix constants and values, and an scf.forall.in_parallel is left out
// unless there are shared outputs.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt - --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | mlc-opt - --allow-unregistered-dialect | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --allow-unregistered-dialect --print-op-generic | %mlir_opt - --allow-unregistered-dialect | filecheck %s %}

// CHECK-LABEL: func.func @forall(%arg0: index, %arg1: index) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    scf.forall (%arg2, %arg3) in (%arg0, 7) {
// CHECK-NEXT:      "test.foo"(%arg2, %arg3) : (index, index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.forall (%arg2) = (2) to (%arg1) step (3) {
// CHECK-NEXT:      "test.bar"(%arg2) : (index) -> ()
// CHECK-NEXT:    } {mapping = [#gpu.thread<x>]}
// CHECK-NEXT:    scf.forall (%arg2) in (%arg1) {
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.forall () in () {
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @forall(%arg0: index, %arg1: index) {
  %c0 = arith.constant 0 : index
  scf.forall (%arg2, %arg3) in (%arg0, 7) {
    "test.foo"(%arg2, %arg3) : (index, index) -> ()
  }
  scf.forall (%arg2) = (2) to (%arg1) step (3) {
    "test.bar"(%arg2) : (index) -> ()
    scf.forall.in_parallel {
    }
  } {mapping = [#gpu.thread<x>]}
  scf.forall (%arg2) = (%c0) to (%arg1) step (1) {
  }
  scf.forall () in () {
  }
  return
}

// CHECK-LABEL: func.func @shared_outs(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %0 = scf.forall (%arg1) in (8) shared_outs(%arg2 = %arg0) -> (tensor<8xf32>) {
// CHECK-NEXT:      scf.forall.in_parallel {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0 : tensor<8xf32>
func.func @shared_outs(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = scf.forall (%arg1) in (8) shared_outs(%arg2 = %arg0) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
    }
  }
  return %0 : tensor<8xf32>
}
