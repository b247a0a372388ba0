"""The affine expression algebra: construction-time simplification, printing,
evaluation, substitution and bounds, against hand-computed values.

The expected spellings below are what mlir-opt-22 prints for the same expressions
(test_affine_interop.py checks the whole corpus against it when it is installed).
"""

from __future__ import annotations

import pytest

from mlc.ir import AffineConstraint, AffineExpr, dims, symbols
from mlc.ir.core.affine_expr import (
    INT64_MAX,
    INT64_MIN,
    AffineBinaryExpr,
    AffineExprKind,
    constant,
    dim,
    symbol,
)

d0, d1, d2 = dims(3)
s0, s1 = symbols(2)


def test_dims_and_symbols_are_values():
    assert dims(2) == (dim(0), dim(1))
    assert dim(20) == dim(20) and hash(dim(20)) == hash(dim(20))
    assert dim(0) != symbol(0)
    assert d0 * 4 + d1 == d0 * 4 + d1
    assert len({d0 + 1, d0 + 1, 1 + d0}) == 1
    with pytest.raises(ValueError):
        dim(-1)
    with pytest.raises(TypeError):
        d0 + 1.5


@pytest.mark.parametrize("expr, text", [
    (d0 * 4 + d1, "d0 * 4 + d1"),
    (d0 - d1, "d0 - d1"),
    (-d0, "-d0"),
    (d0 * -1, "-d0"),
    (d0 * -3, "d0 * -3"),
    (-(d0 + d1), "-(d0 + d1)"),
    (d1 - 2 * d0, "d1 - d0 * 2"),
    (d0 - 3, "d0 - 3"),
    (s0.floordiv(2), "s0 floordiv 2"),
    ((d0 + 1).floordiv(2), "(d0 + 1) floordiv 2"),
    ((d0 + 1) * s0, "(d0 + 1) * s0"),
    (d0 * s0 * 2, "(d0 * s0) * 2"),
    (d0 + (d0.floordiv(s0)) * (s0 * -1), "d0 + (d0 floordiv s0) * (-s0)"),
    (-d0 + s0 - 1, "-d0 + s0 - 1"),
    (d0 + (d1 + d2), "d0 + d1 + d2"),  # a right-nested sum prints without parentheses
    (d0 - (d1 + d2), "d0 - (d1 + d2)"),
    (d0 - d1 % 2, "d0 - d1 mod 2"),
    (d0 - (d1 % 2) * 3, "d0 - (d1 mod 2) * 3"),
    (d0.floordiv(-2), "d0 floordiv -2"),
    (d0 % 0, "d0 mod 0"),
    (constant(-4), "-4"),
])
def test_printing(expr, text):
    assert str(expr) == text


@pytest.mark.parametrize("expr, text", [
    # constants fold; constants go right; symbolic terms go right of dimensional ones
    (2 + d0 + 3, "d0 + 5"),
    (d0 + 0, "d0"),
    (s0 + d0, "d0 + s0"),
    ((d0 + 2) + d1, "d0 + d1 + 2"),
    # c1 * e + c2 * e -> (c1 + c2) * e
    (d0 + d0, "d0 * 2"),
    (d0 + d0 * 2, "d0 * 3"),
    (d0 * 2 - d0 * 2, "0"),
    (d0 + d1 - d0, "d0 + d1 - d0"),  # only local rules: no cancellation across a sum
    # products
    (d0 * 1, "d0"),
    (d0 * 0, "0"),
    (d0 * 2 * 3, "d0 * 6"),
    (s0 * (d0 * 2), "(d0 * s0) * 2"),
    ((s0 * 2) * d0, "d0 * (s0 * 2)"),
    # dimensions before symbols, each by position, in a sum or product of two of them
    (d1 + d0, "d0 + d1"),
    (s1 + s0, "s0 + s1"),
    (s1 * s0, "s0 * s1"),
    (d2 + d1 + d0, "d1 + d2 + d0"),
    # floordiv / ceildiv by constants
    ((d0 * 8).floordiv(4), "d0 * 2"),
    ((d0 * 4).floordiv(8), "(d0 * 4) floordiv 8"),
    ((d0 * 8 + 3).floordiv(4), "d0 * 2"),
    ((d0 * 4 + d1).floordiv(4), "d0 + d1 floordiv 4"),
    ((d0 * 3 + d1 * 5).floordiv(2), "(d0 * 3 + d1 * 5) floordiv 2"),
    (d0.floordiv(1), "d0"),
    ((d0 * 6).ceildiv(2), "d0 * 3"),
    ((d0 * 6 + 2).ceildiv(2), "(d0 * 6 + 2) ceildiv 2"),
    (constant(-7).floordiv(2), "-4"),
    (constant(-7).ceildiv(2), "-3"),
    # mod by constants
    (constant(-7) % 3, "2"),
    ((d0 * 4 + 3) % 4, "3"),
    ((d0 * 4 + d1 * 8) % 4, "0"),
    ((d0 * 4 + d1 * 6) % 4, "(d1 * 6) mod 4"),
    (d0 % 6 % 3, "d0 mod 3"),
    (d0 % 3 % 6, "(d0 mod 3) mod 6"),
    ((((d0 * 8) % 16).floordiv(2)) % 4, "0"),  # the divisor 8 survives mod and floordiv
    # e - (e floordiv q) * q -> e mod q
    (d0 - d0.floordiv(4) * 4, "d0 mod 4"),
    (d0 - d0.floordiv(s0) * s0, "d0 mod s0"),
    ((d0 + d1) - d1.floordiv(4) * 4, "d0 + d1 mod 4"),
    ((d0 + d1) - d0.floordiv(4) * 4, "d0 + d1 - (d0 floordiv 4) * 4"),
    ((d0 + d1) - d1.floordiv(s0) * s0, "d0 + d1 - (d1 floordiv s0) * s0"),
    (d0 + d0.floordiv(-4) * 4, "d0 + (d0 floordiv -4) * 4"),
    (d0 + (d0.floordiv(4) - 4), "d0 + d0 floordiv 4 - 4"),
    # semi-affine: left alone unless a rule above applies
    ((d0 * s0) % s0, "(d0 * s0) mod s0"),
    (s0.floordiv(s0), "s0 floordiv s0"),
])
def test_construction_simplifies_as_mlir(expr, text):
    assert str(expr) == text


def test_int64_folding_matches_mlir():
    big = constant(INT64_MAX)
    # A constant sum or product that overflows stays unfolded ...
    assert str(big + 1) == "9223372036854775807 + 1"
    assert str(big + 1 + 1) == "9223372036854775807 + 2"
    assert str(constant(1 << 62) * 2) == "4611686018427387904 * 2"
    assert str(constant(INT64_MIN) * -1) == "--9223372036854775808"
    # ... while coefficients wrap around, as MLIR's int64 arithmetic does.
    assert str(d0 * INT64_MAX * 2) == "d0 * -2"
    assert str(d0 + INT64_MAX + 1) == "d0 - -9223372036854775808"
    assert str(d0 * (1 << 62) + d0 * (1 << 62)) == "d0 * -9223372036854775808"
    with pytest.raises(ValueError, match="64 bits"):
        constant(INT64_MAX + 1)


def test_non_affine_is_refused():
    with pytest.raises(ValueError, match="multiply operands"):
        d0 * d1
    with pytest.raises(ValueError, match="right operand of floordiv"):
        d0.floordiv(d1)
    with pytest.raises(ValueError, match="right operand of mod"):
        d0 % (d1 + 1)
    with pytest.raises(ValueError, match="right operand of ceildiv"):
        d0.ceildiv(d0)
    assert str(d0 * s0) == "d0 * s0"
    assert str(d0 // (s0 + 1)) == "d0 floordiv (s0 + 1)"


def test_binary_class_simplifies():
    assert AffineBinaryExpr(AffineExprKind.ADD, d0, constant(0)) is d0
    assert AffineBinaryExpr(AffineExprKind.MUL, constant(3), d0) == d0 * 3


def test_queries():
    e = (d0 * 3 + s0).floordiv(2)
    assert e.kind is AffineExprKind.FLOORDIV
    assert not e.symbolic and (s0 * 2 + 1).symbolic
    assert e.is_pure_affine() and not (d0 * s0).is_pure_affine()
    assert e.is_function_of_dim(0) and not e.is_function_of_dim(1)
    assert e.is_function_of_symbol(0)
    assert [str(n) for n in (d0 + 1).walk()] == ["d0", "1", "d0 + 1"]
    assert (d0 * 6 + d1 * 4).largest_known_divisor == 2
    assert (d0 * 6).floordiv(3).largest_known_divisor == 2
    assert constant(-12).largest_known_divisor == 12


@pytest.mark.parametrize("far", [63, 64, 1000, 2**62])
def test_which_dimensions_an_expression_uses_near_and_far(far):
    e = d1 * 2 + dim(far) + s0
    assert e.is_function_of_dim(1) and e.is_function_of_dim(far)
    assert not any(e.is_function_of_dim(p) for p in (0, 2, 62, 65, far - 1, far + 1) if p != far)
    assert not (s0 + 3).is_function_of_dim(0) and (d2 * s0).is_function_of_dim(2)


def test_evaluate_rounds_like_mlir():
    assert (d0 * 4 + d1).evaluate((3, 1)) == 13
    assert d0.floordiv(4).evaluate((-7,)) == -2  # toward minus infinity
    assert d0.ceildiv(4).evaluate((-7,)) == -1  # toward plus infinity
    assert d0.ceildiv(4).evaluate((7,)) == 2
    assert (d0 % 4).evaluate((-7,)) == 1  # non-negative for a positive divisor
    assert (d0 % s0).evaluate((7,), (3,)) == 1
    assert (d0 * s0 + s1).evaluate((2,), (3, 4)) == 10
    with pytest.raises(ZeroDivisionError):
        (d0 % s0).evaluate((7,), (0,))
    with pytest.raises(IndexError):
        (d0 + d1).evaluate((1,))


def test_substitution():
    e = d0 * 4 + d1
    assert e.replace_dims([d1, d0]) == d1 * 4 + d0
    assert e.replace_dims([constant(2)]) == d1 + 8
    assert (d0 + s0).replace_symbols([d1]) == d0 + d1
    assert (d0 + s0).replace_dims_and_symbols([s0], [constant(1)]) == s0 + 1
    assert e.replace({d0 * 4: d2}) == d2 + d1
    assert e.replace({d1: 3}) == d0 * 4 + 3
    assert (d0 + d1 - d0).replace({d1: 0}) == constant(0)  # re-simplified
    assert e.shift_dims(2, 1) == d1 * 4 + d2
    assert (s0 + s1).shift_symbols(2, 2, offset=1) == s0 + symbol(3)


def test_bound_is_exact_for_loop_index_forms():
    box = {d0: (0, 15), d1: (0, 3)}
    assert (d0 * 4 + d1).bound(box) == (0, 63)
    assert ((d0 * 4 + d1).floordiv(4)).bound(box) == (0, 15)
    assert ((d0 * 4 + d1) % 4).bound(box) == (0, 3)
    assert ((d0 * 4 + d1) % 8).bound(box) == (0, 7)
    assert (d0 * 4 % 8).bound(box) == (0, 4)  # only multiples of 4
    assert ((d0 * 4 + 1) % 8).bound(box) == (1, 5)
    assert (d1 % 8).bound(box) == (0, 3)  # within one period
    assert ((d0 + 5) % 4).bound({d0: (0, 2)}) == (1, 3)
    assert (d0 - d1 * 2).bound(box) == (-6, 15)
    assert (d0.ceildiv(4)).bound(box) == (0, 4)
    assert (d0 * 2 + d1 - d0).bound(box) == (0, 18)  # d0 counted once
    assert (-d0).floordiv(4).bound(box) == (-4, 0)


def test_bound_with_symbols_and_unbounded_sides():
    box = {d0: (0, 15), s0: (1, 4)}
    assert (d0 * s0).bound(box) == (0, 60)
    assert d0.floordiv(s0).bound(box) == (0, 15)
    assert (d0 % s0).bound(box) == (0, 3)
    assert (d0 + s1).bound(box) == (None, None)
    assert (d0 + 1).bound({d0: (0, None)}) == (1, None)
    assert (d0 % 4).bound({}) == (0, 3)
    assert d0.floordiv(s1).bound(box) == (None, None)  # a divisor that may be zero
    with pytest.raises(ValueError, match="empty range"):
        d0.bound({d0: (3, 2)})


def test_constraints():
    assert d0.ge(s0) == AffineConstraint(d0 - s0, False)
    assert d0.le(s0 - 1) == AffineConstraint(s0 - 1 - d0, False)
    assert (d0 * 2).eq(d1) == AffineConstraint(d0 * 2 - d1, True)
    assert str(d0.le(s0 - 1)) == "-d0 + s0 - 1 >= 0"


def _deep() -> AffineExpr:
    e: AffineExpr = d0
    for i in range(5000):
        e = e + (d1 if i % 2 else d2)  # left-nested: depth 5000
    for _ in range(3000):
        e = d0 + e  # then right-nested: depth 3000 more
    return e


def test_deep_expressions_do_not_recurse():
    e = _deep()
    assert e == _deep() and e is not _deep()
    assert len(str(e)) > 10000
    assert e.evaluate((1, 1, 1)) == 3000 + 1 + 5000
    assert e.replace_dims([d0, d0, d0]).evaluate((1,)) == 8001
