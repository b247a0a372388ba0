"""simplify_in_ranges (the range-aware index simplifier loop lowering uses) keeps the
value of every expression at every point of the box it was given, and resolves the
forms tiled loops produce."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from mlc.ir.core.affine_bounds import simplify_in_ranges
from mlc.ir.core.affine_expr import dim
from tests.property.affine_strategies import expr_trees, tree_expr


@given(st.data())
def test_simplification_keeps_every_value_in_the_box(data):
    tree = data.draw(expr_trees(3, 0))
    extents = data.draw(st.lists(st.integers(1, 6), min_size=3, max_size=3))
    lows = data.draw(st.lists(st.integers(-3, 3), min_size=3, max_size=3))
    box = {dim(d): (lows[d], lows[d] + extents[d] - 1) for d in range(3)}
    expr = tree_expr(tree)
    simplified = simplify_in_ranges(expr, box)
    for point in itertools.product(*(range(lo, hi + 1) for lo, hi in box.values())):
        try:
            expected = expr.evaluate(point)
        except ZeroDivisionError:
            continue
        assert simplified.evaluate(point) == expected, (expr, simplified, point)


def test_tiled_index_forms_are_resolved():
    d0, d1, d2 = dim(0), dim(1), dim(2)
    box = {d0: (0, 31), d1: (0, 3), d2: (0, 15)}
    assert simplify_in_ranges((d0 * 4 + d1) % 4, box) == d1
    assert simplify_in_ranges((d0 * 4 + d1).floordiv(4), box) == d0
    assert simplify_in_ranges((d0 * 64 + d1 * 16 + d2) % 64, box) == d1 * 16 + d2
    assert simplify_in_ranges((d0 * 64 + d1 * 16 + d2).floordiv(16), box) == d0 * 4 + d1
    # a remainder that may leave [0, c) stays as written
    assert simplify_in_ranges((d1 * 16 + d2 + 3) % 64, box) == (d1 * 16 + d2 + 3) % 64
