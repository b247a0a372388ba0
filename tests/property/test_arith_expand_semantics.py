"""arith-expand computes what the ops it expands compute, op by op.

Each expanded op is run by the reference interpreter (`mlc.ir.interpreter`) before
and after the pass: exhaustively on i4 for the integer ops, and on boundary-biased
random inputs for wider integers and floats (NaNs, infinities, zeros of both signs,
rounding ties). One difference is MLIR's and kept: the float extrema expand to
comparisons, which do not order -0.0 below 0.0. The small float formats the interpreter cannot compute in
(f8E8M0FNU, f4E2M1FN) are checked against references written here from their
definitions (OCP Microscaling Formats 1.0), every bit pattern decoded, and random f32 values
rounded as MLIR's expansion rounds them (see f4_reference: ties away from zero, and
no sign below 0.5).

Inputs on which the original op is undefined (division by zero, MIN / -1) are
skipped, as are those whose result depends on a NaN's payload, which the
interpreter does not keep.
"""

from __future__ import annotations

import functools
import itertools
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.core.attributes import FloatType, IntegerType, bits_to_float, f32, float_to_bits
from mlc.ir.interpreter import UndefinedBehavior, UnmodelledNaN, evaluate
from mlc.ir.passes.manager import run_pipeline

sys.path.insert(0, str(Path(__file__).parent))
import arith_programs as P  # noqa: E402

ALL_FORMATS = "arith-expand{include-bf16=true include-f8e8m0=true include-f4e2m1=true}"


def module_of(body: str, args: str, results: str):
    text = f"func.func @f({args}) -> ({results}) {{\n{body}\n}}"
    module = parse_module(text, Context())
    verify(module)
    return module


def expanded(module, pipeline: str = "arith-expand"):
    """A copy of `module` after `pipeline`; the op it was about must be gone."""
    copy = parse_module(print_op(module), Context())
    result = run_pipeline(copy, pipeline)
    assert result.success, "\n".join(map(str, result.diagnostics))
    verify(copy)
    return copy


def outcome(module, args):
    """The results, or 'undefined', or None when only a NaN's payload could tell."""
    try:
        return evaluate(module, "f", list(args))
    except UnmodelledNaN:
        return None
    except UndefinedBehavior:
        return "undefined"


def same(expected, actual, zero_sign: bool = True) -> bool:
    if isinstance(expected, float):
        return (math.isnan(expected) and math.isnan(actual)) or (
            expected == actual and (not zero_sign or
                                    math.copysign(1, expected) == math.copysign(1, actual)))
    return expected == actual


def check_same(before, after, args, zero_sign: bool = True) -> None:
    """The same results on `args` (with `zero_sign` False, 0.0 and -0.0 are equal)."""
    expected = outcome(before, args)
    if expected in (None, "undefined"):
        return
    actual = outcome(after, args)
    assert actual is not None and actual != "undefined", f"{args}: {actual}"
    assert all(same(e, a, zero_sign) for e, a in zip(expected, actual)), \
        f"{args}: expected {expected}, got {actual}"


# ------------------------------------------------------------------ integer ops

INT_OPS = ("ceildivsi", "ceildivui", "floordivsi", "maxsi", "maxui", "minsi", "minui")


@functools.cache
def int_op_modules(op: str, type_: str):
    """The function applying `op` to two `type_`s, before and after arith-expand."""
    before = module_of(f"  %0 = arith.{op} %a, %b : {type_}\n  return %0 : {type_}",
                       f"%a: {type_}, %b: {type_}", type_)
    after = expanded(before)
    assert f"arith.{op}" not in print_op(after)
    return before, after


@pytest.mark.parametrize("op", INT_OPS)
def test_integer_op_on_every_i4_pair(op):
    before, after = int_op_modules(op, "i4")
    for a, b in itertools.product(range(-8, 8), repeat=2):
        check_same(before, after, (a, b))


WIDE_INT_CASES = [(op, type_) for op in INT_OPS for type_ in ("i64", "index", "i1", "i17")]


@given(st.sampled_from(WIDE_INT_CASES), st.data())
def test_integer_op_on_wide_types(case, data):
    op, type_ = case
    before, after = int_op_modules(op, type_)
    values = P.int_values(IntegerType(64) if type_ == "index" else
                          IntegerType(int(type_[1:])))
    for args in data.draw(st.lists(st.tuples(values, values), min_size=1, max_size=8)):
        check_same(before, after, args)


# ------------------------------------------------------------------ float extrema

FLOAT_OPS = ("maximumf", "minimumf", "maxnumf", "minnumf")


@pytest.mark.parametrize("op", FLOAT_OPS)
@pytest.mark.parametrize("type_", ("f32", "f16", "bf16"))
def test_float_extremum_on_special_values(op, type_):
    before = module_of(f"  %0 = arith.{op} %a, %b : {type_}\n  return %0 : {type_}",
                       f"%a: {type_}, %b: {type_}", type_)
    after = expanded(before)
    assert f"arith.{op}" not in print_op(after)
    values = [bits_to_float(bits, FloatType(type_))
              for bits in P.special_float_bits(FloatType(type_))]
    for args in itertools.product(values, repeat=2):
        # MLIR's expansion compares, so it does not order -0.0 below 0.0: of two zeros
        # it gives the second (maximumf(0.0, -0.0) is -0.0).
        check_same(before, after, args, zero_sign=False)
    [zero] = evaluate(after, "f", [0.0, -0.0])
    assert math.copysign(1, zero) < 0


# ------------------------------------------------------------------ bf16


@functools.cache
def truncf_to_bf16_modules():
    before = module_of("  %0 = arith.truncf %x : f32 to bf16\n  return %0 : bf16",
                       "%x: f32", "bf16")
    after = expanded(before, "arith-expand{include-bf16=true}")
    assert "arith.truncf" not in print_op(after)
    return before, after


@given(st.lists(P.float_values(f32).filter(lambda v: not math.isnan(v)), min_size=1,
                max_size=16))
def test_truncf_to_bf16_rounds_to_nearest_even(values):
    before, after = truncf_to_bf16_modules()
    for value in values:
        check_same(before, after, (value,))


def test_truncf_to_bf16_of_nan_is_a_quiet_nan():
    # NaN bits in, the quiet NaN 0x7fc0 out. The interpreter keeps no NaN payload, so
    # the NaN comes in as bits: canonicalize folds the bitcast to f32 and the
    # expansion's bitcast back to i32 into the bits themselves.
    before = module_of("  %x = arith.bitcast %bits : i32 to f32\n"
                       "  %0 = arith.truncf %x : f32 to bf16\n"
                       "  %1 = arith.bitcast %0 : bf16 to i16\n  return %1 : i16",
                       "%bits: i32", "i16")
    after = expanded(before, "arith-expand{include-bf16=true},canonicalize")
    assert "arith.truncf" not in print_op(after)
    for nan_bits in (0x7FC00000, 0xFFC00001, 0x7F800001, 0xFFFFFFFF):
        assert evaluate(after, "f", [nan_bits]) == [0x7FC0]
    assert evaluate(after, "f", [0x3F808000]) == [0x3F80]  # 1 + 2**-8: a tie, to even


def test_extf_of_every_bf16_sign_and_exponent():
    before = module_of("  %f = arith.bitcast %b : i16 to bf16\n"
                       "  %0 = arith.extf %f : bf16 to f32\n  return %0 : f32", "%b: i16", "f32")
    # canonicalize folds the bitcasts of the bits in and back out (NaNs come in too).
    after = expanded(before, "arith-expand{include-bf16=true},canonicalize")
    assert "arith.extf" not in print_op(after)
    for high in range(0x200):  # sign and exponent, with a few mantissas each
        for mantissa in (0, 1, 0x40, 0x7F):
            check_same(before, after, ((high << 7) | mantissa,))


# ------------------------------------------------------------------ f8E8M0FNU and f4E2M1FN

F4 = FloatType("f4E2M1FN")
F4_VALUES = [bits_to_float(bits, F4) for bits in range(8)]  # 0, 0.5, 1, 1.5, 2, 3, 4, 6


def f4_reference(value: float) -> int:
    """The f4E2M1FN bits MLIR's expansion gives for `value`, which is not quite OCP's
    round to nearest even: clamped to [-6, 6] (a NaN to 6, as its clamp with
    minnumf/maxnumf gives), rounded to nearest with ties away from zero (it rounds up
    when the dropped bits are at least half), and below 0.5 the sign is lost (those
    bits come from constants): a magnitude up to 0.25 gives +0, one in (0.25, 0.5)
    gives +0.5."""
    if math.isnan(value):
        return 0x7
    magnitude = min(abs(value), 6.0)
    if magnitude <= 0.25:
        return 0x0
    if magnitude < 0.5:
        return 0x1
    sign = 0x8 if value < 0 else 0
    best = min(range(8), key=lambda b: (abs(F4_VALUES[b] - magnitude), -b))
    return sign | best


def test_extf_of_every_f4e2m1fn():
    before = module_of("  %f = arith.bitcast %b : i4 to f4E2M1FN\n"
                       "  %0 = arith.extf %f : f4E2M1FN to f32\n  return %0 : f32", "%b: i4", "f32")
    after = expanded(before, ALL_FORMATS)
    assert "arith.extf" not in print_op(after)
    for bits in range(16):
        [result] = evaluate(after, "f", [bits])
        expected = bits_to_float(bits, F4)
        assert result == expected and math.copysign(1, result) == math.copysign(1, expected)


@functools.cache
def truncf_to_f4_module():
    before = module_of("  %0 = arith.truncf %x : f32 to f4E2M1FN\n"
                       "  %1 = arith.bitcast %0 : f4E2M1FN to i4\n  return %1 : i4",
                       "%x: f32", "i4")
    after = expanded(before, ALL_FORMATS)
    assert "arith.truncf" not in print_op(after)
    return after


@given(st.lists(st.one_of(
    P.float_values(f32),
    # The midpoints between neighbours of the grid and next to them: the ties.
    st.builds(lambda i, sign, nudge: sign * ((F4_VALUES[i] + F4_VALUES[i + 1]) / 2) * nudge,
              st.integers(0, 6), st.sampled_from([1.0, -1.0]),
              st.sampled_from([1.0, 1 + 2 ** -20, 1 - 2 ** -20]))), min_size=1, max_size=16))
def test_truncf_to_f4e2m1fn_rounds_to_nearest(values):
    after = truncf_to_f4_module()
    for value in values:
        value = float(value)
        [bits] = evaluate(after, "f", [value])
        assert bits & 0xF == f4_reference(value), f"{value}: {bits & 0xF:#x}"


def test_extf_of_every_f8e8m0fnu():
    # 2**(bits - 127), and 0xff is NaN; the expansion makes the f32 exponent of the
    # bits, so 0 (2**-127, an f32 subnormal) becomes 0.0, as MLIR's does.
    before = module_of("  %f = arith.bitcast %b : i8 to f8E8M0FNU\n"
                       "  %0 = arith.extf %f : f8E8M0FNU to f32\n  return %0 : f32", "%b: i8", "f32")
    after = expanded(before, ALL_FORMATS + ",canonicalize")  # NaN's bits in: see bf16's
    assert "arith.extf" not in print_op(after)
    for bits in range(256):
        [result] = evaluate(after, "f", [bits])
        if bits == 0xFF:
            assert math.isnan(result)
        elif bits == 0:
            assert result == 0.0
        else:
            assert result == math.ldexp(1.0, bits - 127)


@functools.cache
def truncf_to_f8e8m0_module():
    before = module_of("  %0 = arith.truncf %x : f32 to f8E8M0FNU\n"
                       "  %1 = arith.bitcast %0 : f8E8M0FNU to i8\n  return %1 : i8",
                       "%x: f32", "i8")
    after = expanded(before, ALL_FORMATS + ",canonicalize")  # 0xff (NaN) out as bits
    assert "arith.truncf" not in print_op(after)
    return after


@given(st.lists(P.float_values(f32), min_size=1, max_size=16))
def test_truncf_to_f8e8m0fnu_keeps_the_exponent(values):
    # The f32's exponent bits: the power of two at or below |value| for a normal
    # value (rounding down, the sign dropped), NaN (0xff) for infinities and NaNs.
    after = truncf_to_f8e8m0_module()
    for value in values:
        if math.isnan(value):
            continue  # the bitcast of a NaN's bits is not modelled
        [bits] = evaluate(after, "f", [value])
        exponent = (float_to_bits(value, f32) >> 23) & 0xFF
        assert bits & 0xFF == exponent
        if math.isinf(value):
            assert bits & 0xFF == 0xFF
        elif abs(value) >= math.ldexp(1.0, -126):
            assert math.ldexp(1.0, exponent - 127) <= abs(value) < math.ldexp(1.0, exponent - 126)
