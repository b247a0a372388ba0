// The vector ops added for issue 28 (transpose, shuffle, from/to_elements,
// interleave, deinterleave, bitcast, step, masks, vector.mask, contract,
// outerproduct, multi_reduction, scan, the masked memory ops, dynamic positions)
// round-trip in MLIR's custom and generic forms; the CHECK lines, from mlir-opt-22's
// output, hold for both tools.
// RUN: mlc-opt %s --split-input-file | filecheck %s
// RUN: mlc-opt %s --split-input-file --print-op-generic | mlc-opt --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --split-input-file --print-op-generic | %mlir_opt --split-input-file | filecheck %s %}

// CHECK-LABEL: func.func @rearrange(
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<3x7xf32> to vector<7x3xf32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 3, -1] : vector<2xf32>, vector<2xf32>
// CHECK: vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK: %{{.*}}:2 = vector.to_elements %{{.*}} : vector<2xf32>
// CHECK: vector.interleave %{{.*}}, %{{.*}} : vector<2xf32> -> vector<4xf32>
// CHECK: vector.deinterleave %{{.*}} : vector<4xf32> -> vector<2xf32>
// CHECK: vector.bitcast %{{.*}} : vector<3x7xf32> to vector<3x14xf16>
// CHECK: vector.step : vector<4xindex>
// CHECK: vector.extract %{{.*}}[%{{.*}}, 2] : f32 from vector<3x7xf32>
// CHECK: vector.insert %{{.*}}, %{{.*}} [1, %{{.*}}] : f32 into vector<3x7xf32>
func.func @rearrange(%v: vector<3x7xf32>, %a: vector<2xf32>, %b: vector<2xf32>, %s: f32, %i: index) {
  %0 = vector.transpose %v, [1, 0] : vector<3x7xf32> to vector<7x3xf32>
  %1 = vector.shuffle %a, %b [0, 3, -1] : vector<2xf32>, vector<2xf32>
  %2 = vector.from_elements %s, %s : vector<2xf32>
  %3:2 = vector.to_elements %a : vector<2xf32>
  %4 = vector.interleave %a, %b : vector<2xf32> -> vector<4xf32>
  %5, %6 = vector.deinterleave %4 : vector<4xf32> -> vector<2xf32>
  %7 = vector.bitcast %v : vector<3x7xf32> to vector<3x14xf16>
  %8 = vector.step : vector<4xindex>
  %9 = vector.extract %v[%i, 2] : f32 from vector<3x7xf32>
  %10 = vector.insert %s, %v[1, %i] : f32 into vector<3x7xf32>
  return
}

// -----

// CHECK-LABEL: func.func @masks(
// CHECK: vector.constant_mask [3, 2] : vector<4x3xi1>
// CHECK: vector.create_mask %{{.*}}, %{{.*}} : vector<4x3xi1>
// CHECK: vector.mask %{{.*}} { vector.reduction <add>, %{{.*}} : vector<8xi32> into i32 } : vector<8xi1> -> i32
// CHECK: vector.mask %{{.*}}, %{{.*}} { vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}} : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
// CHECK: vector.mask %{{.*}} { vector.yield } : vector<16xi1>
func.func @masks(%a: vector<8xi32>, %m: vector<8xi1>, %n: index, %mem: memref<?xf32>, %f: f32, %m16: vector<16xi1>, %pt: vector<16xf32>) -> i32 {
  %0 = vector.constant_mask [3, 2] : vector<4x3xi1>
  %1 = vector.create_mask %n, %n : vector<4x3xi1>
  %2 = vector.mask %m { vector.reduction <add>, %a : vector<8xi32> into i32 } : vector<8xi1> -> i32
  %3 = vector.mask %m16, %pt { vector.transfer_read %mem[%n], %f : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  vector.mask %m16 { } : vector<16xi1>
  return %2 : i32
}

// -----

// CHECK-LABEL: func.func @combine(
// CHECK: vector.contract {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %{{.*}}, %{{.*}}, %{{.*}} : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
// CHECK: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<maxnumf>} : vector<4xf32>, vector<8xf32>
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<4x8xf32> to vector<4xf32>
// CHECK: vector.scan <add>, %{{.*}}, %{{.*}} {inclusive = true, reduction_dim = 1 : i64} : vector<4x8xf32>, vector<4xf32>
#mm = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]
func.func @combine(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>, %x: vector<4xf32>, %y: vector<8xf32>, %z: vector<4x8xf32>) {
  %0 = vector.contract {indexing_maps = #mm, iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %1 = vector.outerproduct %x, %y, %z {kind = #vector.kind<maxnumf>} : vector<4xf32>, vector<8xf32>
  %2 = vector.multi_reduction <add>, %z, %x [1] : vector<4x8xf32> to vector<4xf32>
  %3:2 = vector.scan <add>, %z, %x {reduction_dim = 1 : i64, inclusive = true} : vector<4x8xf32>, vector<4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @masked_memory(
// CHECK: vector.maskedload %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: vector.maskedstore %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf32>, vector<16xi1>, vector<16xf32>
// CHECK: vector.gather %{{.*}}[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: vector.scatter %{{.*}}[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32>
func.func @masked_memory(%base: memref<?xf32>, %c0: index, %mask: vector<16xi1>, %pt: vector<16xf32>, %v: vector<16xi32>) {
  %0 = vector.maskedload %base[%c0], %mask, %pt : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
  vector.maskedstore %base[%c0], %mask, %0 : memref<?xf32>, vector<16xi1>, vector<16xf32>
  %1 = vector.gather %base[%c0][%v], %mask, %pt : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
  vector.scatter %base[%c0][%v], %mask, %1 : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32>
  return
}
