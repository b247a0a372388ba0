"""Hypothesis strategies for affine expressions, maps and integer sets.

Expressions are drawn as unsimplified trees (nested tuples) that are always affine: a
product has a symbolic or constant factor, a divisor is symbolic or constant. A tree
can be rendered as fully parenthesized text (so MLIR's parser builds exactly that
tree, and so does mlc's), evaluated directly (the reference semantics, with Python's
floor division), or built through mlc's simplifying operators.
"""

from __future__ import annotations

from hypothesis import strategies as st

from mlc.ir.core.affine_expr import AffineExpr, constant, dim, symbol
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr, IntegerSet, IntegerSetAttr
from mlc.ir.text.affine_parser import parse_affine_attribute

BINARY = ("+", "-", "*", "floordiv", "ceildiv", "mod")
SMALL_CONSTANTS = st.integers(-9, 9)
POSITIVE_DIVISORS = st.integers(1, 9)


def is_symbolic(tree) -> bool:
    kind = tree[0]
    if kind == "d":
        return False
    if kind in ("s", "c"):
        return True
    if kind == "neg":
        return is_symbolic(tree[1])
    return is_symbolic(tree[1]) and is_symbolic(tree[2])


@st.composite
def expr_trees(draw, num_dims: int, num_symbols: int, max_depth: int = 4,
               constants=SMALL_CONSTANTS, divisors=POSITIVE_DIVISORS):
    """An affine expression tree over `d0..`, `s0..` and small constants."""
    def leaf():
        choices = ["c"] + ["d"] * (num_dims > 0) * 3 + ["s"] * (num_symbols > 0) * 2
        kind = draw(st.sampled_from(choices))
        if kind == "d":
            return ("d", draw(st.integers(0, num_dims - 1)))
        if kind == "s":
            return ("s", draw(st.integers(0, num_symbols - 1)))
        return ("c", draw(constants))

    def symbolic_leaf():
        if num_symbols and draw(st.booleans()):
            return ("s", draw(st.integers(0, num_symbols - 1)))
        return ("c", draw(divisors))

    def tree(depth):
        if depth == 0 or draw(st.integers(0, 3)) == 0:
            return leaf()
        op = draw(st.sampled_from(BINARY + ("neg",)))
        if op == "neg":
            return ("neg", tree(depth - 1))
        lhs = tree(depth - 1)
        if op in ("+", "-"):
            return (op, lhs, tree(depth - 1))
        if op == "*":
            rhs = tree(depth - 1)
            if not is_symbolic(lhs) and not is_symbolic(rhs):
                rhs = symbolic_leaf() if draw(st.booleans()) else ("c", draw(constants))
            return (op, lhs, rhs) if draw(st.booleans()) else (op, rhs, lhs)
        # A divisor: mostly a positive constant, sometimes a symbol (semi-affine).
        rhs = symbolic_leaf()
        return (op, lhs, rhs)

    return tree(max_depth)


def tree_text(tree, dim_names=None, symbol_names=None) -> str:
    """Fully parenthesized text of a tree (negation spelled `-(...)`)."""
    kind = tree[0]
    if kind == "d":
        return dim_names[tree[1]] if dim_names else f"d{tree[1]}"
    if kind == "s":
        return symbol_names[tree[1]] if symbol_names else f"s{tree[1]}"
    if kind == "c":
        return str(tree[1]) if tree[1] >= 0 else f"({tree[1]})"
    if kind == "neg":
        return f"-({tree_text(tree[1], dim_names, symbol_names)})"
    return (f"({tree_text(tree[1], dim_names, symbol_names)} {kind} "
            f"{tree_text(tree[2], dim_names, symbol_names)})")


def tree_value(tree, dims, syms) -> int:
    """The tree's value; ZeroDivisionError for a zero divisor."""
    kind = tree[0]
    if kind == "d":
        return dims[tree[1]]
    if kind == "s":
        return syms[tree[1]]
    if kind == "c":
        return tree[1]
    if kind == "neg":
        return -tree_value(tree[1], dims, syms)
    a = tree_value(tree[1], dims, syms)
    b = tree_value(tree[2], dims, syms)
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    if b == 0:
        raise ZeroDivisionError
    if kind == "floordiv":
        return a // b
    if kind == "ceildiv":
        return -(-a // b)
    return a % b


def tree_expr(tree) -> AffineExpr:
    """The tree built with mlc's simplifying operators."""
    kind = tree[0]
    if kind == "d":
        return dim(tree[1])
    if kind == "s":
        return symbol(tree[1])
    if kind == "c":
        return constant(tree[1])
    if kind == "neg":
        return -tree_expr(tree[1])
    a, b = tree_expr(tree[1]), tree_expr(tree[2])
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    if kind == "floordiv":
        return a.floordiv(b)
    if kind == "ceildiv":
        return a.ceildiv(b)
    return a % b


def affine_exprs(num_dims: int, num_symbols: int, max_depth: int = 4):
    return expr_trees(num_dims, num_symbols, max_depth).map(tree_expr)


@st.composite
def affine_maps(draw, max_dims: int = 3, max_symbols: int = 2, max_results: int = 3,
                num_dims: int | None = None, max_depth: int = 3):
    n = draw(st.integers(0, max_dims)) if num_dims is None else num_dims
    m = draw(st.integers(0, max_symbols))
    results = draw(st.lists(affine_exprs(n, m, max_depth), max_size=max_results))
    return AffineMap(n, m, tuple(results))


@st.composite
def integer_sets(draw, max_dims: int = 3, max_symbols: int = 2, max_constraints: int = 3):
    n = draw(st.integers(0, max_dims))
    m = draw(st.integers(0, max_symbols))
    exprs = draw(st.lists(affine_exprs(n, m, 3), min_size=1, max_size=max_constraints))
    flags = draw(st.lists(st.booleans(), min_size=len(exprs), max_size=len(exprs)))
    return IntegerSet(n, m, tuple(exprs), tuple(flags))


def reread_fixpoint(attr):
    """`attr` read back from its text until that no longer changes it, or None.

    MLIR's printer drops the parentheses of a right-nested sum (`s0 + (s0 + 1)` prints
    `s0 + s0 + 1`, which reads back as `s0 * 2 + 1`), so a print -> parse -> print
    round trip is exact only for what its own text reads back as; mlc prints as MLIR
    does. Strategies for text round trips draw such fixpoints."""
    for _ in range(8):
        again = parse_affine_attribute(str(attr))
        if again == attr:
            return attr
        attr = again
    return None


affine_map_attrs = affine_maps().map(lambda m: reread_fixpoint(AffineMapAttr(m))).filter(
    lambda a: a is not None)
integer_set_attrs = integer_sets().map(lambda s: reread_fixpoint(IntegerSetAttr(s))).filter(
    lambda a: a is not None)


@st.composite
def memref_layouts(draw, rank: int):
    """None or a non-identity layout map of `rank` dimensions (an identity layout reads
    back as None, as in MLIR)."""
    layout = draw(st.none() | affine_maps(num_dims=rank, max_depth=2).map(
        lambda m: reread_fixpoint(AffineMapAttr(m))).filter(
        lambda a: a is not None and a.value.num_results > 0 and not a.value.is_identity()))
    return layout
