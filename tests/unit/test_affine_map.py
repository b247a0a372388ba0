"""Affine maps and integer sets: builders, queries, composition, evaluation and
bounds, against hand-computed values."""

from __future__ import annotations

import pytest

from mlc.ir import AffineMap, AffineMapAttr, IntegerSet, IntegerSetAttr, dims, symbols
from mlc.ir.core.affine_expr import constant, dim, symbol

d0, d1, d2 = dims(3)
s0, s1 = symbols(2)


def test_printing_and_equality():
    m = AffineMap(2, 1, (d0 * 4 + d1, s0.floordiv(2)))
    assert str(m) == "(d0, d1)[s0] -> (d0 * 4 + d1, s0 floordiv 2)"
    assert str(AffineMapAttr(m)) == "affine_map<(d0, d1)[s0] -> (d0 * 4 + d1, s0 floordiv 2)>"
    assert m == AffineMap(2, 1, [d0 * 4 + d1, s0.floordiv(2)])
    assert len({AffineMapAttr(m), AffineMapAttr(AffineMap(2, 1, (d0 * 4 + d1, s0.floordiv(2))))}) == 1
    assert str(AffineMap(0, 0, ())) == "() -> ()"
    assert str(AffineMap(1, 0, ())) == "(d0) -> ()"
    assert str(AffineMap(0, 2, (s1,))) == "()[s0, s1] -> (s1)"


def test_positions_are_checked():
    with pytest.raises(ValueError, match="d2 but there are 2 dimensions"):
        AffineMap(2, 0, (d2,))
    with pytest.raises(ValueError, match="s1 but there are 1 symbols"):
        AffineMap(1, 1, (d0 + s1,))
    with pytest.raises(TypeError):
        AffineMap(1, 0, (3,))


def test_builders_and_queries():
    identity = AffineMap.identity(3)
    assert str(identity) == "(d0, d1, d2) -> (d0, d1, d2)"
    assert identity.is_identity() and identity.is_permutation()
    assert AffineMap(1, 1, (d0,)).is_identity()  # symbols do not matter, as in MLIR
    assert not AffineMap(2, 0, (d1, d0)).is_identity()
    assert AffineMap.permutation([2, 0, 1]) == AffineMap(3, 0, (d2, d0, d1))
    assert AffineMap.minor_identity(3, 2) == AffineMap(3, 0, (d1, d2))
    assert AffineMap(3, 0, (d2, d0)).is_projected_permutation()
    assert not AffineMap(3, 0, (d2, d2)).is_projected_permutation()
    constant_map = AffineMap.constant_map([4, -1])
    assert str(constant_map) == "() -> (4, -1)"
    assert constant_map.is_constant() and constant_map.constant_results() == (4, -1)
    with pytest.raises(ValueError, match="non-constant"):
        identity.constant_results()
    assert AffineMap(0, 0, ()).is_empty() and not AffineMap(1, 0, ()).is_empty()
    assert identity.num_inputs == 3 and AffineMap(2, 1, (d0,)).num_inputs == 3
    assert identity.sub_map([2, 0]) == AffineMap(3, 0, (d2, d0))
    with pytest.raises(ValueError):
        AffineMap.permutation([0, 0])


def test_compose():
    # (d0, d1) -> (d0 * 4 + d1) after a split (d0) -> (d0 floordiv 4, d0 mod 4): identity.
    fuse = AffineMap(2, 0, (d0 * 4 + d1,))
    split = AffineMap(1, 0, (d0.floordiv(4), d0 % 4))
    assert str(fuse.compose(split)) == "(d0) -> ((d0 floordiv 4) * 4 + d0 mod 4)"
    assert fuse.compose(split).evaluate((13,)) == (13,)
    # Symbols: self's first, then other's, renumbered after them.
    f = AffineMap(1, 1, (d0 + s0,))
    g = AffineMap(2, 1, (d0 * s0 + d1,))
    fg = f.compose(g)
    assert (fg.num_dims, fg.num_symbols) == (2, 2)
    assert str(fg) == "(d0, d1)[s0, s1] -> (d0 * s1 + d1 + s0)"
    assert fg.evaluate((2, 3), (5, 7)) == f.evaluate(g.evaluate((2, 3), (7,)), (5,))
    assert g.compose(AffineMap.identity(2)) == g
    assert AffineMap.identity(1).compose(g) == g
    with pytest.raises(ValueError, match="cannot compose"):
        f.compose(AffineMap.identity(2))


def test_replace():
    m = AffineMap(2, 0, (d0 + d1, d1))
    assert m.replace_dims_and_symbols([d0, constant(0)], [], 1, 0) == AffineMap(1, 0, (d0, constant(0)))
    assert m.replace({d1: d0 * 2}) == AffineMap(2, 0, (d0 * 3, d0 * 2))


def test_evaluate_and_bounds():
    m = AffineMap(2, 1, (d0 * 4 + d1, s0.floordiv(2), (d0 + d1) % 3))
    assert m.evaluate((1, 2), (7,)) == (6, 3, 0)
    assert m.bounds([(0, 15), (0, 3)], [(0, 9)]) == ((0, 63), (0, 4), (0, 2))
    assert m.bounds([(0, 15), (0, 3)]) == ((0, 63), (None, None), (0, 2))
    with pytest.raises(ValueError, match="takes 2 dimensions"):
        m.evaluate((1,), (7,))
    with pytest.raises(ValueError, match="dimension ranges"):
        m.bounds([(0, 1)])


def test_integer_sets():
    inside = IntegerSet.from_constraints(2, 1, [d0.ge(0), d0.le(s0 - 1), (d0 - d1 * 2).eq(0)])
    assert str(inside) == "(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d0 - d1 * 2 == 0)"
    assert str(IntegerSetAttr(inside)) == f"affine_set<{inside}>"
    assert inside.num_constraints == 3
    assert inside.contains((4, 2), (5,))
    assert not inside.contains((5, 2), (5,))  # d0 <= s0 - 1 fails
    assert not inside.contains((3, 1), (5,))  # d0 == 2 * d1 fails
    assert inside.constraint_list()[2].is_eq
    assert str(IntegerSet.empty(1)) == "(d0) : (1 == 0)"
    assert IntegerSet.empty(1).is_empty_integer_set()
    assert str(IntegerSet.universe(0, 1)) == "()[s0] : (0 == 0)"
    with pytest.raises(ValueError, match="one equality flag per constraint"):
        IntegerSet(1, 0, (d0,), ())
    with pytest.raises(ValueError, match="d1 but there are 1 dimensions"):
        IntegerSet(1, 0, (d1,), (False,))


def test_symbol_and_dim_helpers():
    assert symbols(1)[0] is symbol(0)
    assert dims(1)[0] is dim(0)
