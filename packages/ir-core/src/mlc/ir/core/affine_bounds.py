"""Bounds of an affine expression over a box of dimension and symbol ranges.

Interval arithmetic, made exact for the forms loop nests produce: a sum is first
flattened into `c0 + Σ coefficient * atom` with equal atoms merged (so `d0 * 2 + d1 - d0`
is bounded as `d0 + d1`), each atom (a dimension, a symbol, or a `floordiv`/`mod`/
`ceildiv`/semi-affine product) is bounded on its own, and the sum of independent atoms
attains its extremes at the corners of the box. `floordiv` and `ceildiv` by a constant
are monotone, so they keep exactness; `mod` by a constant is exact when its operand
stays within one period, and otherwise is `[0, c - 1]` narrowed to the residues the
operand can have (`(d0 * 4) mod 8` is `[0, 4]`). Every result is sound: each value the
expression takes on the box lies within it. None stands for an unbounded side.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from mlc.ir.core.affine_expr import (
    ADD,
    CEILDIV,
    CONSTANT,
    DIM,
    FLOORDIV,
    MOD,
    MUL,
    SYMBOL,
    AffineExpr,
    constant,
)

Bound = tuple[int | None, int | None]
_UNBOUNDED: Bound = (None, None)


def expr_bound(expr: AffineExpr, ranges: Mapping[AffineExpr, Bound]) -> Bound:
    """Inclusive bounds of `expr` when each key of `ranges` (a dimension or symbol)
    lies in its range; see the module docstring."""
    for key, (lo, hi) in ranges.items():
        if lo is not None and hi is not None and lo > hi:
            raise ValueError(f"empty range [{lo}, {hi}] for {key}")
    return _Bounder(ranges).bound(expr)


class _Bounder:
    __slots__ = ("ranges", "memo")

    def __init__(self, ranges: Mapping[AffineExpr, Bound]):
        self.ranges = ranges
        self.memo: dict[AffineExpr, Bound] = {}

    def bound(self, expr: AffineExpr) -> Bound:
        terms, offset = _linear_form(expr)
        lo: int | None = offset
        hi: int | None = offset
        for atom, coefficient in terms.items():
            if coefficient == 0:
                continue
            atom_lo, atom_hi = self.atom_bound(atom)
            if coefficient < 0:
                atom_lo, atom_hi = atom_hi, atom_lo
            lo = None if lo is None or atom_lo is None else lo + coefficient * atom_lo
            hi = None if hi is None or atom_hi is None else hi + coefficient * atom_hi
        return lo, hi

    def atom_bound(self, atom: AffineExpr) -> Bound:
        result = self.memo.get(atom)
        if result is None:
            result = self.memo[atom] = self._atom_bound(atom)
        return result

    def _atom_bound(self, atom: AffineExpr) -> Bound:
        kind = atom.kind
        if kind is DIM or kind is SYMBOL:
            return self.ranges.get(atom, _UNBOUNDED)
        lhs = self.bound(atom.lhs)
        rhs = self.bound(atom.rhs)
        if kind is MUL:
            return _multiply(lhs, rhs)
        if atom.rhs.kind is CONSTANT:
            divisor = atom.rhs.value
            if kind is MOD:
                return _mod_by_constant(lhs, divisor, _residue(atom.lhs, divisor))
            return _divide_by_constant(lhs, divisor, ceil=kind is CEILDIV)
        if kind is MOD:
            return _mod_by_range(lhs, rhs)
        return _divide_by_range(lhs, rhs, ceil=kind is CEILDIV)


def _linear_form(expr: AffineExpr) -> tuple[dict[AffineExpr, int], int]:
    """`expr` as `offset + Σ terms[atom] * atom`, looking through `+` and products
    with a constant."""
    terms: dict[AffineExpr, int] = {}
    offset = 0
    stack = [(expr, 1)]
    while stack:
        node, coefficient = stack.pop()
        kind = node.kind
        if kind is CONSTANT:
            offset += coefficient * node.value
        elif kind is ADD:
            stack.append((node.lhs, coefficient))
            stack.append((node.rhs, coefficient))
        elif kind is MUL and node.rhs.kind is CONSTANT:
            stack.append((node.lhs, coefficient * node.rhs.value))
        elif kind is MUL and node.lhs.kind is CONSTANT:
            stack.append((node.rhs, coefficient * node.lhs.value))
        else:
            terms[node] = terms.get(node, 0) + coefficient
    return terms, offset


def _residue(expr: AffineExpr, divisor: int) -> tuple[int, int]:
    """`(g, r)` with every value of `expr` congruent to `r` modulo `g`, `g` dividing
    `divisor` (g = 1 says nothing)."""
    terms, offset = _linear_form(expr)
    g = abs(divisor)
    for atom, coefficient in terms.items():
        g = math.gcd(g, coefficient * _exact_divisor(atom))
    return (g, offset % g) if g else (1, 0)


def _exact_divisor(expr: AffineExpr) -> int:
    """A positive integer dividing every value of `expr`, in exact arithmetic (MLIR's
    largest_known_divisor wraps around in 64 bits, which a bound cannot afford)."""
    divisors: dict[AffineExpr, int] = {}
    for node in expr.walk():
        kind = node.kind
        if kind is CONSTANT:
            value = abs(node.value)
        elif kind is DIM or kind is SYMBOL:
            value = 1
        else:
            lhs, rhs = divisors[node.lhs], divisors[node.rhs]
            if kind is MUL:
                value = lhs * rhs
            elif kind is ADD or kind is MOD:
                value = math.gcd(lhs, rhs)
            elif node.rhs.kind is CONSTANT and node.rhs.value and lhs % node.rhs.value == 0:
                value = abs(lhs // node.rhs.value)
            else:
                value = 1
        divisors[node] = value
    return divisors[expr]


def _floor_div(a: int, b: int) -> int:
    return a // b


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _divide_by_constant(value: Bound, divisor: int, ceil: bool) -> Bound:
    if divisor == 0:
        return _UNBOUNDED  # evaluation fails: no value to bound
    div = _ceil_div if ceil else _floor_div
    lo, hi = value
    lo_q = None if lo is None else div(lo, divisor)
    hi_q = None if hi is None else div(hi, divisor)
    return (lo_q, hi_q) if divisor > 0 else (hi_q, lo_q)


def _mod_by_constant(value: Bound, divisor: int, residue: tuple[int, int]) -> Bound:
    if divisor == 0:
        return _UNBOUNDED
    lo, hi = value
    if divisor < 0:  # the remainder of floordiv by a negative number: (divisor, 0]
        return divisor + 1, 0
    if lo is not None and hi is not None and lo // divisor == hi // divisor:
        return lo % divisor, hi % divisor  # within one period: mod is a shift
    g, r = residue
    return r % g, divisor - g + r % g  # the residues congruent to r modulo g


def _divide_by_range(value: Bound, divisor: Bound, ceil: bool) -> Bound:
    d_lo, d_hi = divisor
    if d_lo is None or d_lo < 1:
        return _UNBOUNDED  # a divisor that may be zero or negative
    div = _ceil_div if ceil else _floor_div
    lo, hi = value
    # Monotone in the dividend; in the divisor, toward zero as it grows. An unbounded
    # divisor drives the quotient to 0 (or -1 for a negative dividend's floor).
    def at(x: int, d: int | None) -> int:
        if d is not None:
            return div(x, d)
        if ceil:
            return 1 if x > 0 else 0
        return -1 if x < 0 else 0
    lo_q = None if lo is None else min(at(lo, d_lo), at(lo, d_hi))
    hi_q = None if hi is None else max(at(hi, d_lo), at(hi, d_hi))
    return lo_q, hi_q


def _mod_by_range(value: Bound, divisor: Bound) -> Bound:
    d_lo, d_hi = divisor
    if d_lo is None or d_lo < 1:
        return _UNBOUNDED
    lo, hi = value
    top = None if d_hi is None else d_hi - 1
    if lo is not None and lo >= 0 and hi is not None:  # x mod d <= x for x >= 0
        top = hi if top is None else min(top, hi)
    return 0, top


def _multiply(a: Bound, b: Bound) -> Bound:
    if a == (0, 0) or b == (0, 0):
        return 0, 0
    if None not in a and None not in b:
        products = [x * y for x in a for y in b]
        return min(products), max(products)
    if a[0] is not None and a[0] >= 0 and b[0] is not None and b[0] >= 0:
        return a[0] * b[0], None
    return _UNBOUNDED


def simplify_in_ranges(expr: AffineExpr, ranges: Mapping[AffineExpr, Bound]) -> AffineExpr:
    """`expr` simplified with what `ranges` says of its dimensions and symbols (TVM's
    arithmetic analyzer on index expressions): a `floordiv` or `mod` by a positive
    constant `c` of `c * q + r`, where every value of `r` lies in `[0, c)`, becomes `q`
    or `r`. `(d0 * 4 + d1) mod 4` is `d1` and `(d0 * 4 + d1) floordiv 4` is `d0` when
    `d1` lies in `[0, 3]`; MLIR's context-free rules (affine_expr) cannot say so, since
    they know nothing of `d1`. The result equals `expr` at every point of the box."""
    return _RangeSimplifier(ranges).simplify(expr)


class _RangeSimplifier:
    __slots__ = ("bounder", "memo")

    def __init__(self, ranges: Mapping[AffineExpr, Bound]):
        self.bounder = _Bounder(ranges)
        self.memo: dict[AffineExpr, AffineExpr] = {}

    def simplify(self, expr: AffineExpr) -> AffineExpr:
        known = self.memo.get(expr)
        if known is None:
            known = self.memo[expr] = self._simplify(expr)
        return known

    def _simplify(self, expr: AffineExpr) -> AffineExpr:
        kind = expr.kind
        if kind in (CONSTANT, DIM, SYMBOL):
            return expr
        lhs, rhs = self.simplify(expr.lhs), self.simplify(expr.rhs)
        if kind is ADD:
            return lhs + rhs
        if kind is MUL:
            return lhs * rhs
        if rhs.kind is CONSTANT and rhs.value > 0 and kind in (MOD, FLOORDIV):
            split = self._quotient_and_remainder(lhs, rhs.value)
            if split is not None:
                quotient, remainder = split
                return remainder if kind is MOD else quotient
        if kind is MOD:
            return lhs.mod(rhs)
        if kind is FLOORDIV:
            return lhs.floordiv(rhs)
        return lhs.ceildiv(rhs)

    def _quotient_and_remainder(self, expr: AffineExpr, divisor: int
                                ) -> tuple[AffineExpr, AffineExpr] | None:
        """`(q, r)` with `expr == divisor * q + r` and `r` within `[0, divisor)` on the
        box, the terms whose coefficients `divisor` divides going to `q`."""
        terms, offset = _linear_form(expr)
        order = {atom: n for n, atom in enumerate(_atoms_left_to_right(expr))}
        terms = dict(sorted(terms.items(), key=lambda item: order.get(item[0], 0)))
        quotient: AffineExpr = constant(offset // divisor)
        remainder: AffineExpr = constant(offset % divisor)
        for atom, coefficient in terms.items():
            if coefficient % divisor == 0:
                quotient = quotient + atom * (coefficient // divisor)
            else:
                remainder = remainder + atom * coefficient
        lo, hi = self.bounder.bound(remainder)
        if lo is None or hi is None or lo < 0 or hi >= divisor:
            return None
        return quotient, remainder


def _atoms_left_to_right(expr: AffineExpr) -> list[AffineExpr]:
    """The atoms of `expr`'s linear form as they appear in it, left to right (so a
    simplified sum keeps the order it was written in)."""
    atoms, stack = [], [expr]
    while stack:
        node = stack.pop()
        if node.kind is ADD or (node.kind is MUL and (node.rhs.kind is CONSTANT
                                                      or node.lhs.kind is CONSTANT)):
            stack.append(node.rhs)
            stack.append(node.lhs)
        elif node.kind is not CONSTANT:
            atoms.append(node)
    return atoms
