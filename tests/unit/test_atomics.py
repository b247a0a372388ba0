"""memref.atomic_rmw: what the interpreter computes for each kind (one thread: read,
combine, write, the old element back) against numpy, and native code (through
llvm.atomicrmw) against the interpreter; `assign` of a value of any type."""

from __future__ import annotations

import numpy as np
import pytest

from mlc.ir import Context, parse_module
from mlc.ir.interpreter import evaluate
from mlc.llvm.build import compile_module

# kind: (element type, the element, the value, the element after)
CASES = {
    "addi": ("i64", 5, -7, -2),
    "andi": ("i32", 0b1100, 0b1010, 0b1000),
    "ori": ("i32", 0b1100, 0b1010, 0b1110),
    "xori": ("i32", 0b1100, 0b1010, 0b0110),
    "assign": ("f32", 1.5, -2.25, -2.25),
    "maxs": ("i64", -3, 2, 2),
    "maxu": ("i64", 2, -3, -3),  # -3 is 2^64 - 3 unsigned
    "mins": ("i64", -3, 2, -3),
    "minu": ("i64", 2, -3, 2),
    "addf": ("f32", 0.1, 0.2, np.float32(0.1) + np.float32(0.2)),
    "maximumf": ("f32", 1.0, np.nan, np.nan),  # NaN propagates
    "maxnumf": ("f32", 1.0, 3.0, 3.0),
    "minimumf": ("f64", -0.0, 0.0, -0.0),
    "minnumf": ("f64", 2.0, -1.0, -1.0),
}
DTYPES = {"i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64}


def program(kind: str, element: str) -> str:
    return f"""
func.func @update(%m: memref<3x{element}>, %v: {element}, %i: index) -> {element} {{
  %old = memref.atomic_rmw {kind} %v, %m[%i] : ({element}, memref<3x{element}>) -> {element}
  return %old : {element}
}}"""


@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_kind_in_the_interpreter_and_natively(kind):
    element, before, value, after = CASES[kind]
    dtype = DTYPES[element]
    module = parse_module(program(kind, element), Context())
    expected = np.array([7, before, 7], dtype)
    expected[1] = np.asarray(after).astype(dtype)
    interpreted = np.array([7, before, 7], dtype)
    old = evaluate(module, "update", [interpreted, value, 1])
    np.testing.assert_array_equal(interpreted, expected)
    assert np.asarray(old[0]).astype(dtype) == dtype(before)
    native = np.array([7, before, 7], dtype)
    # the call returns its results, then the buffers it wrote
    old_native, written = compile_module(module)["update"](native, dtype(value), 1)
    assert written is native
    np.testing.assert_array_equal(native, expected)
    assert np.asarray(old_native).astype(dtype) == dtype(before)
    assert np.signbit(native[1]) == np.signbit(expected[1])  # minimumf(-0, 0) is -0


def test_a_constant_buffer_cannot_be_updated():
    from mlc.ir.interpreter import UndefinedBehavior

    module = parse_module("""
memref.global "private" constant @c : memref<2xi64> = dense<[1, 2]>
func.func @bump() -> i64 {
  %i = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %m = memref.get_global @c : memref<2xi64>
  %old = memref.atomic_rmw addi %one, %m[%i] : (i64, memref<2xi64>) -> i64
  return %old : i64
}""", Context())
    with pytest.raises(UndefinedBehavior, match="a store into a constant global"):
        evaluate(module, "bump", [])
