"""The memref dialect and the vector memory ops: interpreter semantics checked
against numpy (independently of the folders), kept by canonicalize; views share
memory; globals; dead allocations."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, verify
from mlc.ir.interfaces.side_effects import is_trivially_dead
from mlc.ir.interpreter import UndefinedBehavior, evaluate
from mlc.ir.passes.manager import run_pipeline

PROGRAM = """
memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>
func.func @main(%m: memref<4x4xf32>, %i: index, %n: index)
    -> (f32, f32, index, f32, f32, f32, vector<4xf32>, f32, vector<4x2xf32>, vector<3xf32>, f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %p = arith.constant -1.0 : f32
  %t = memref.get_global @table : memref<2xf32>
  %b = memref.load %t[%c1] : memref<2xf32>
  %al = memref.alloc(%n) : memref<?x4xf32>
  %cast = memref.cast %al : memref<?x4xf32> to memref<?x?xf32>
  %d = memref.dim %cast, %c0 : memref<?x?xf32>
  %s = memref.subview %m[%c1, %i] [%c2, 2] [1, %c1] : memref<4x4xf32> to memref<?x2xf32, strided<[4, ?], offset: ?>>
  %ls = memref.load %s[%c1, %c1] : memref<?x2xf32, strided<[4, ?], offset: ?>>
  %row = memref.subview %m[1, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.store %b, %row[%c2] : memref<4xf32, strided<[1], offset: 4>>
  %lr = memref.load %m[%c1, %c2] : memref<4x4xf32>
  %flat = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %lf = memref.load %flat[%c2] : memref<16xf32>
  %rc = memref.reinterpret_cast %row to offset: [5], sizes: [2, 2], strides: [4, 1] : memref<4xf32, strided<[1], offset: 4>> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  %lc = memref.load %rc[%c1, %c1] : memref<2x2xf32, strided<[4, 1], offset: 5>>
  %vl = vector.load %m[%i, %c0] : memref<4x4xf32>, vector<4xf32>
  %sum = vector.reduction <add>, %vl, %p : vector<4xf32> into f32
  %tp = vector.transfer_read %m[%c0, %c2], %p {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x4xf32>, vector<4x2xf32>
  %tr = vector.transfer_read %m[%i, %c2], %p : memref<4x4xf32>, vector<3xf32>
  %fm = vector.fma %vl, %vl, %vl : vector<4xf32>
  %mx = vector.reduction <maximumf>, %fm : vector<4xf32> into f32
  %ints = arith.constant dense<[3, -7, 5, 2]> : vector<4xi32>
  %mi = vector.reduction <minui>, %ints : vector<4xi32> into i32
  vector.store %fm, %m[%c2, %c0] : memref<4x4xf32>, vector<4xf32>
  vector.transfer_write %tr, %m[%c0, %c2] : vector<3xf32>, memref<4x4xf32>
  return %b, %ls, %d, %lr, %lf, %lc, %vl, %sum, %tp, %tr, %mx, %mi
      : f32, f32, index, f32, f32, f32, vector<4xf32>, f32, vector<4x2xf32>, vector<3xf32>, f32, i32
}
"""


def _expected(i: int, n: int) -> tuple[list, np.ndarray]:
    """What PROGRAM computes, with numpy on the same input."""
    m = np.arange(16, dtype=np.float32).reshape(4, 4)
    b = 2.0
    ls = m[1:3, i:i + 2][1, 1]
    m[1, 2] = b
    vl = m[i, :4].copy()
    tp = np.full((4, 2), -1.0, dtype=np.float32)
    for a in range(4):
        for c in range(2):
            if 2 + a < 4:
                tp[a, c] = m[c, 2 + a]
    tr = [m[i, 2 + k] if 2 + k < 4 else -1.0 for k in range(3)]
    fm = vl * vl + vl
    results = [b, float(ls), n, float(m[1, 2]), float(m[0, 2]), float(m.reshape(-1)[10]),
               tuple(float(v) for v in vl), float(-1.0 + vl.sum()),
               tuple(float(v) for v in tp.reshape(-1)), tuple(float(v) for v in tr),
               float(fm.max()), 2]
    m[2, :] = fm
    for k in range(2):  # the third element falls out of bounds: not written
        m[0, 2 + k] = tr[k]
    return results, m


def _run(module, i: int, n: int):
    buffer = np.arange(16, dtype=np.float32).reshape(4, 4)
    return evaluate(module, "main", [buffer, i, n]), buffer


@pytest.mark.parametrize("i", [0, 1, 2])
def test_interpreter_matches_numpy_and_canonicalize_keeps_it(i):
    module = parse_module(PROGRAM, Context())
    verify(module)
    expected, memory = _expected(i, 3)
    results, buffer = _run(module, i, 3)
    assert results == expected
    np.testing.assert_array_equal(buffer, memory)
    assert run_pipeline(module, "builtin.module(func.func(canonicalize))").success
    assert _run(module, i, 3)[0] == expected


def test_views_share_memory_and_globals_live_for_the_run():
    module = parse_module("""
    memref.global @counter : memref<1xi32> = dense<5>
    memref.global "private" constant @k : memref<1xi32> = dense<1>
    func.func @bump() {
      %c0 = arith.constant 0 : index
      %g = memref.get_global @counter : memref<1xi32>
      %v = memref.load %g[%c0] : memref<1xi32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      memref.store %w, %g[%c0] : memref<1xi32>
      return
    }
    func.func @main(%m: memref<2x3xi32>) -> i32 {
      %c0 = arith.constant 0 : index
      %seven = arith.constant 7 : i32
      %s = memref.subview %m[1, 1] [1, 2] [1, 1] : memref<2x3xi32> to memref<2xi32, strided<[1], offset: 4>>
      memref.store %seven, %s[%c0] : memref<2xi32, strided<[1], offset: 4>>
      func.call @bump() : () -> ()
      func.call @bump() : () -> ()
      %g = memref.get_global @counter : memref<1xi32>
      %v = memref.load %g[%c0] : memref<1xi32>
      return %v : i32
    }
    func.func @write_constant() {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0 : i32
      %k = memref.get_global @k : memref<1xi32>
      memref.store %zero, %k[%c0] : memref<1xi32>
      return
    }
    """, Context())
    verify(module)
    buffer = np.zeros((2, 3), dtype=np.int32)
    assert evaluate(module, "main", [buffer]) == [7]  # one global, bumped twice
    assert buffer[1, 1] == 7
    assert evaluate(module, "main", [np.zeros((2, 3), dtype=np.int32)]) == [7]  # a new run
    with pytest.raises(UndefinedBehavior):
        evaluate(module, "write_constant", [])


def test_alloc_effects_let_unread_buffers_go():
    module = parse_module("""
    func.func @f(%x: f32, %i: index) -> f32 {
      %dead = memref.alloc() : memref<4xf32>
      memref.store %x, %dead[%i] : memref<4xf32>
      memref.dealloc %dead : memref<4xf32>
      %unused = memref.alloca() : memref<4xf32>
      %live = memref.alloc() : memref<4xf32>
      memref.store %x, %live[%i] : memref<4xf32>
      %v = memref.load %live[%i] : memref<4xf32>
      return %v : f32
    }
    """, Context())
    ops = list(module.regions[0].blocks[0].first_op.regions[0].blocks[0].ops())
    assert is_trivially_dead(ops[3])  # an alloca nobody uses
    assert not is_trivially_dead(ops[0])  # used (by the store), though only written
    assert run_pipeline(module, "builtin.module(func.func(canonicalize))").success
    names = [op.name for op in module.walk()]
    assert names.count("memref.alloc") == 1 and "memref.alloca" not in names
    assert "memref.dealloc" not in names and names.count("memref.store") == 1


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_subview_reads_what_numpy_slicing_reads(data):
    """A random static subview (strides, rank reduction of a unit dim): every
    element read through it is numpy's slice of the source."""
    rows, cols = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 5))
    offsets, sizes, strides = [], [], []
    for limit in (rows, cols):
        offset = data.draw(st.integers(0, limit - 1))
        stride = data.draw(st.integers(1, 3))
        size = data.draw(st.integers(1, (limit - 1 - offset) // stride + 1))
        offsets.append(offset)
        sizes.append(size)
        strides.append(stride)
    offset = offsets[0] * cols + offsets[1]
    layout_strides = [cols * strides[0], strides[1]]
    drop = sizes[0] == 1 and data.draw(st.booleans())
    shape = sizes[1:] if drop else sizes
    kept = layout_strides[1:] if drop else layout_strides
    result = (f"memref<{'x'.join(map(str, shape))}xi32, strided<[{', '.join(map(str, kept))}]"
              f"{f', offset: {offset}' if offset else ''}>>")
    source = f"memref<{rows}x{cols}xi32>"
    idx = ", ".join(f"%i{k}" for k in range(len(shape)))
    args = ", ".join(f"%i{k}: index" for k in range(len(shape)))
    module = parse_module(f"""
    func.func @main(%m: {source}, {args}) -> i32 {{
      %s = memref.subview %m[{offsets[0]}, {offsets[1]}] [{sizes[0]}, {sizes[1]}] [{strides[0]}, {strides[1]}] : {source} to {result}
      %v = memref.load %s[{idx}] : {result}
      return %v : i32
    }}""", Context())
    verify(module)
    array = np.arange(rows * cols, dtype=np.int32).reshape(rows, cols)
    expected = array[offsets[0]::strides[0], offsets[1]::strides[1]][:sizes[0], :sizes[1]]
    if drop:
        expected = expected[0]
    for position in np.ndindex(*shape):
        assert evaluate(module, "main", [array, *map(int, position)]) == [int(expected[position])]
