// canonicalize on the llvm dialect: a value compared with itself folds (to a scalar or
// splat llvm.mlir.constant), an extractvalue reads through the insertvalues that built
// its container; zext, shl and or of constants fold; equal zero/undef/poison/addressof
// constants become one; bitcasts chain; as mlir-opt-22 does.
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

// -----

// Constant operands: 200 zero-extended from i8 stays 200 (not -56); 3 << 30 wraps in
// i32; a shift by the width or more is poison, left for LLVM.
// CHECK-LABEL: llvm.func @fold_integer_constants(
// CHECK-DAG:     %[[Z:.*]] = llvm.mlir.constant(200 : i16) : i16
// CHECK-DAG:     %[[S:.*]] = llvm.mlir.constant(-1073741824 : i32) : i32
// CHECK-DAG:     %[[O:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-DAG:     %[[BIG:.*]] = llvm.shl %{{.*}}, %{{.*}} : i32
// CHECK:         llvm.call @use_ints(%[[Z]], %[[S]], %[[O]], %[[BIG]])
llvm.func @use_ints(i16, i32, i32, i32)
llvm.func @fold_integer_constants() {
  %c200 = llvm.mlir.constant(200 : i8) : i8
  %z = llvm.zext %c200 : i8 to i16
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %c30 = llvm.mlir.constant(30 : i32) : i32
  %s = llvm.shl %c3, %c30 : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c6 = llvm.mlir.constant(6 : i32) : i32
  %o = llvm.or %c5, %c6 : i32
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %big = llvm.shl %c3, %c32 : i32
  llvm.call @use_ints(%z, %s, %o, %big) : (i16, i32, i32, i32) -> ()
  llvm.return
}

// -----

// Placeholder constants are constants: equal ones are one value, and a zero integer
// is the constant 0 to the folders that read it.
// CHECK-LABEL: llvm.func @unique_placeholders(
// CHECK-DAG:     %[[U:.*]] = llvm.mlir.undef : i32
// CHECK-DAG:     %[[P:.*]] = llvm.mlir.poison : i32
// CHECK-DAG:     %[[N:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG:     %[[A:.*]] = llvm.mlir.addressof @g : !llvm.ptr
// CHECK-DAG:     %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK:         llvm.call @use_placeholders(%[[U]], %[[U]], %[[P]], %[[P]], %[[N]], %[[N]], %[[A]], %[[A]], %[[Z]])
llvm.mlir.global internal @g(0 : i32) : i32
llvm.func @use_placeholders(i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64)
llvm.func @unique_placeholders() {
  %u1 = llvm.mlir.undef : i32
  %u2 = llvm.mlir.undef : i32
  %p1 = llvm.mlir.poison : i32
  %p2 = llvm.mlir.poison : i32
  %n1 = llvm.mlir.zero : !llvm.ptr
  %n2 = llvm.mlir.zero : !llvm.ptr
  %a1 = llvm.mlir.addressof @g : !llvm.ptr
  %a2 = llvm.mlir.addressof @g : !llvm.ptr
  %zero = llvm.mlir.zero : i32
  %wide = llvm.zext %zero : i32 to i64
  llvm.call @use_placeholders(%u1, %u2, %p1, %p2, %n1, %n2, %a1, %a2, %wide) : (i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}

// -----

// bitcast(bitcast(x)) back to x's type is x; to a third type, one bitcast of x.
// CHECK-LABEL: llvm.func @bitcast_chains(
// CHECK-SAME:      %[[X:.*]]: vector<2xi32>)
// CHECK:         %[[F:.*]] = llvm.bitcast %[[X]] : vector<2xi32> to vector<4xi16>
// CHECK:         llvm.call @use_vectors(%[[X]], %[[F]])
llvm.func @use_vectors(vector<2xi32>, vector<4xi16>)
llvm.func @bitcast_chains(%x: vector<2xi32>) {
  %f = llvm.bitcast %x : vector<2xi32> to f64
  %back = llvm.bitcast %f : f64 to vector<2xi32>
  %other = llvm.bitcast %f : f64 to vector<4xi16>
  llvm.call @use_vectors(%back, %other) : (vector<2xi32>, vector<4xi16>) -> ()
  llvm.return
}

// -----

// An address 0 elements past %p is %p; constant dynamic indices become constant
// indices; a one-element shuffle of element 0 is its vector; an alloca is never null.
// CHECK-LABEL: llvm.func @fold_addresses(
// CHECK-SAME:      %[[P:.*]]: !llvm.ptr, %[[V:.*]]: vector<1xi8>)
// CHECK-DAG:     %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK-DAG:     %[[Q:.*]] = llvm.getelementptr %[[P]][3, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i8, i64)>
// CHECK:         llvm.call @use_addresses(%[[P]], %[[Q]], %[[V]], %[[TRUE]])
llvm.func @use_addresses(!llvm.ptr, !llvm.ptr, vector<1xi8>, i1)
llvm.func @fold_addresses(%p: !llvm.ptr, %v: vector<1xi8>) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %same = llvm.getelementptr %p[%c0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %field = llvm.getelementptr %p[%c3, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i8, i64)>
  %w = llvm.shufflevector %v, %v [0] : vector<1xi8>
  %one = llvm.mlir.constant(1 : i64) : i64
  %a = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %not_null = llvm.icmp "ne" %null, %a : !llvm.ptr
  llvm.call @use_addresses(%same, %field, %w, %not_null) : (!llvm.ptr, !llvm.ptr, vector<1xi8>, i1) -> ()
  llvm.return
}

// -----

// Elements of constant aggregates fold (a dense one's in row-major order, so the
// element of a nested array is not read), and an extract of an extract is one extract.
// CHECK-LABEL: llvm.func @fold_constant_elements(
// CHECK-SAME:      %[[S:.*]]: !llvm.struct<(i8, array<2 x f32>)>)
// CHECK-DAG:     %[[TWO:.*]] = llvm.mlir.constant(2.500000e+00 : f32) : f32
// CHECK-DAG:     %[[SEVEN:.*]] = llvm.mlir.constant(7 : i16) : i16
// CHECK-DAG:     %[[INNER:.*]] = llvm.extractvalue %[[S]][1, 0] : !llvm.struct<(i8, array<2 x f32>)>
// CHECK-DAG:     %[[NESTED:.*]] = llvm.extractvalue %{{.*}}[1, 0] : !llvm.array<2 x array<2 x f32>>
// CHECK:         llvm.call @use_elements(%[[TWO]], %[[SEVEN]], %[[INNER]], %[[NESTED]])
llvm.func @use_elements(f32, i16, f32, f32)
llvm.func @fold_constant_elements(%s: !llvm.struct<(i8, array<2 x f32>)>) {
  %a = llvm.mlir.constant(dense<[1.0, 2.5]> : tensor<2xf32>) : !llvm.array<2 x f32>
  %x = llvm.extractvalue %a[1] : !llvm.array<2 x f32>
  %n = llvm.mlir.constant(dense<[[1.0, 2.5], [3.0, 4.0]]> : tensor<2x2xf32>) : !llvm.array<2 x array<2 x f32>>
  %w = llvm.extractvalue %n[1, 0] : !llvm.array<2 x array<2 x f32>>
  %b = llvm.mlir.constant([3 : i8, 7 : i16]) : !llvm.struct<(i8, i16)>
  %y = llvm.extractvalue %b[1] : !llvm.struct<(i8, i16)>
  %row = llvm.extractvalue %s[1] : !llvm.struct<(i8, array<2 x f32>)>
  %z = llvm.extractvalue %row[0] : !llvm.array<2 x f32>
  llvm.call @use_elements(%x, %y, %z, %w) : (f32, i16, f32, f32) -> ()
  llvm.return
}

// -----

// A volatile or synchronising load stays though its value is unused; a plain one goes.
// An address-space cast back to the original space is the original pointer.
// CHECK-LABEL: llvm.func @kept_loads(
// CHECK-SAME:      %[[P:.*]]: !llvm.ptr)
// CHECK-NEXT:    llvm.load volatile %[[P]] : !llvm.ptr -> i32
// CHECK-NEXT:    llvm.load %[[P]] atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT:    llvm.return %[[P]] : !llvm.ptr
llvm.func @kept_loads(%p: !llvm.ptr) -> !llvm.ptr {
  %0 = llvm.load volatile %p : !llvm.ptr -> i32
  %1 = llvm.load %p atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
  %2 = llvm.load %p : !llvm.ptr -> i32
  %3 = llvm.load %p atomic unordered {alignment = 4 : i64} : !llvm.ptr -> i32
  %far = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<3>
  %back = llvm.addrspacecast %far : !llvm.ptr<3> to !llvm.ptr
  llvm.return %back : !llvm.ptr
}
