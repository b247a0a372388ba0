// mem2reg: a rank-0 memref.alloca and an llvm.alloca of one element, only loaded and
// stored, become SSA values: a load is the value last stored, a block where paths meet
// takes it as an argument, a slot read before any store is ub.poison (llvm: undef).
// Slots used otherwise stay. The expected output is mlir-opt-22's for the same pass.
// RUN: mlc-opt %s --split-input-file --mem2reg | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --mem2reg | filecheck %s %}

// CHECK-LABEL: func.func @merge(
// CHECK-SAME:      %[[C:.*]]: i1, %[[X:.*]]: i32) -> (i32, f32) {
// CHECK-NEXT:    %[[P:.*]] = ub.poison : f32
// CHECK-NEXT:    cf.cond_br %[[C]], ^bb1, ^bb2(%[[X]] : i32)
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT:    cf.br ^bb2(%[[Y]] : i32)
// CHECK-NEXT:  ^bb2(%[[R:.*]]: i32):
// CHECK-NEXT:    return %[[R]], %[[P]] : i32, f32
func.func @merge(%c: i1, %x: i32) -> (i32, f32) {
  %a = memref.alloca() : memref<i32>
  %b = memref.alloca() : memref<f32>
  %u = memref.load %b[] : memref<f32>
  memref.store %x, %a[] : memref<i32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %y = arith.addi %x, %x : i32
  memref.store %y, %a[] : memref<i32>
  cf.br ^bb2
^bb2:
  %r = memref.load %a[] : memref<i32>
  return %r, %u : i32, f32
}

// -----

// CHECK-LABEL: llvm.func @loop(
// CHECK-SAME:      %[[N:.*]]: i32) -> i32 {
// CHECK:         llvm.br ^bb1(%{{.*}} : i32)
// CHECK-NEXT:  ^bb1(%[[I:.*]]: i32):
// CHECK-NOT:     llvm.load
// CHECK-NOT:     llvm.store
// CHECK:         llvm.return
llvm.func @loop(%n: i32) -> i32 {
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0 : i32) : i32
  %p = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
  llvm.store %zero, %p : i32, !llvm.ptr
  llvm.br ^head
^head:
  %i = llvm.load %p : !llvm.ptr -> i32
  %done = llvm.icmp "sge" %i, %n : i32
  llvm.cond_br %done, ^exit, ^body
^body:
  %next = llvm.add %i, %one : i32
  llvm.store %next, %p : i32, !llvm.ptr
  llvm.br ^head
^exit:
  llvm.return %i : i32
}

// -----

// A slot whose address escapes (here into a call) stays.
// CHECK-LABEL: func.func @escapes(
// CHECK:         memref.alloca
// CHECK:         memref.store
func.func private @use(memref<i32>)
func.func @escapes(%x: i32) {
  %a = memref.alloca() : memref<i32>
  memref.store %x, %a[] : memref<i32>
  call @use(%a) : (memref<i32>) -> ()
  return
}

// -----

// A buffer of one element (sizes 1) is a slot too.
// CHECK-LABEL: func.func @one_element(
// CHECK-SAME:      %[[X:.*]]: f32, %[[I:.*]]: index) -> f32 {
// CHECK-NEXT:    return %[[X]] : f32
func.func @one_element(%x: f32, %i: index) -> f32 {
  %a = memref.alloca() : memref<1x1xf32>
  memref.store %x, %a[%i, %i] : memref<1x1xf32>
  %v = memref.load %a[%i, %i] : memref<1x1xf32>
  return %v : f32
}
