// canonicalize on the llvm dialect: a value compared with itself folds (to a scalar or
// splat llvm.mlir.constant), an extractvalue reads through the insertvalues that built
// its container; as mlir-opt-22 does.
// RUN: mlc-opt %s --split-input-file -p 'builtin.module(llvm.func(canonicalize))' | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --pass-pipeline='builtin.module(llvm.func(canonicalize))' | filecheck %s %}

// CHECK-LABEL: llvm.func @icmp_same(
// CHECK-DAG:     %[[T:.*]] = llvm.mlir.constant(true) : i1
// CHECK-DAG:     %[[F:.*]] = llvm.mlir.constant(dense<false> : vector<2xi1>) : vector<2xi1>
// CHECK-DAG:     %[[U:.*]] = llvm.icmp "uge" %{{.*}}, %{{.*}} : i32
// CHECK:         llvm.call @use(%[[T]], %[[U]], %[[F]], %{{.*}})
llvm.func @use(i1, i1, vector<2xi1>, i1)
llvm.func @icmp_same(%a: i32, %b: i32, %v: vector<2xi32>) {
  %0 = llvm.icmp "eq" %a, %a : i32
  // The ordering predicates are left alone (as MLIR).
  %1 = llvm.icmp "uge" %a, %a : i32
  %2 = llvm.icmp "ne" %v, %v : vector<2xi32>
  // Different values: stays.
  %3 = llvm.icmp "eq" %a, %b : i32
  llvm.call @use(%0, %1, %2, %3) : (i1, i1, vector<2xi1>, i1) -> ()
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @extract_inserted(
// CHECK-SAME:      %[[A:.*]]: i32, %[[B:.*]]: i32, %[[S:.*]]: !llvm.struct<(struct<(i32, i32)>, i32)>)
// CHECK-NEXT:    %[[X:.*]] = llvm.extractvalue %[[S]][0, 1]
// CHECK-NEXT:    llvm.call @use2(%[[A]], %[[B]], %[[X]])
llvm.func @use2(i32, i32, i32)
llvm.func @extract_inserted(%a: i32, %b: i32, %s: !llvm.struct<(struct<(i32, i32)>, i32)>) {
  %u = llvm.mlir.undef : !llvm.struct<(i32, i32)>
  %0 = llvm.insertvalue %a, %u[0] : !llvm.struct<(i32, i32)>
  %1 = llvm.insertvalue %b, %0[1] : !llvm.struct<(i32, i32)>
  %2 = llvm.insertvalue %1, %s[0] : !llvm.struct<(struct<(i32, i32)>, i32)>
  %3 = llvm.insertvalue %b, %s[1] : !llvm.struct<(struct<(i32, i32)>, i32)>
  // Inside the inserted struct: its element.
  %x = llvm.extractvalue %2[0, 0] : !llvm.struct<(struct<(i32, i32)>, i32)>
  // The element written.
  %y = llvm.extractvalue %3[1] : !llvm.struct<(struct<(i32, i32)>, i32)>
  // Written elsewhere: read from the container written into.
  %z = llvm.extractvalue %3[0, 1] : !llvm.struct<(struct<(i32, i32)>, i32)>
  llvm.call @use2(%x, %y, %z) : (i32, i32, i32) -> ()
  llvm.return
}
