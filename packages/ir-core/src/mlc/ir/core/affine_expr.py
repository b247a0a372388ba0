"""Affine expressions: the algebra behind `affine_map` and `affine_set`.

An :class:`AffineExpr` is an immutable, hashable tree over dimensions (`d0`, `d1`, ...),
symbols (`s0`, ...), integer constants and the binary operations `+`, `*`, `mod`,
`floordiv` and `ceildiv`. Expressions are built with Python operators and simplified on
construction with MLIR's local rules, so they print exactly as `mlir-opt` prints them::

    d0, d1 = dims(2)
    s0, = symbols(1)
    e = d0 * 4 + d1          # d0 * 4 + d1
    e.floordiv(2)            # d0 * 2 + d1 floordiv 2
    (e + 8) % 4              # d1 mod 4
    e.evaluate((3, 1))       # 13
    e.bound({d0: (0, 15), d1: (0, 3)})   # (0, 63)

Semantics: `floordiv` rounds toward minus infinity, `ceildiv` toward plus infinity and
`mod` is the remainder of `floordiv` (non-negative for a positive divisor). A product
needs a symbolic or constant operand and a divisor must be symbolic or constant (the
"semi-affine" forms `d0 * s0`, `d0 mod s0` are allowed, as in MLIR). Constants are
64-bit, as MLIR's: the simplifier folds with MLIR's wrap-around and overflow checks so
the canonical forms match `mlir-opt-22` exactly; :meth:`AffineExpr.evaluate` and
:meth:`AffineExpr.bound` compute with unbounded Python integers.

Trees are walked with explicit stacks, so deep expressions do not hit Python's recursion
limit.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import NamedTuple

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


class AffineExprKind(enum.Enum):
    """What an affine expression node is."""

    ADD = "+"
    MUL = "*"
    MOD = "mod"
    FLOORDIV = "floordiv"
    CEILDIV = "ceildiv"
    CONSTANT = "constant"
    DIM = "dim"
    SYMBOL = "symbol"


ADD = AffineExprKind.ADD
MUL = AffineExprKind.MUL
MOD = AffineExprKind.MOD
FLOORDIV = AffineExprKind.FLOORDIV
CEILDIV = AffineExprKind.CEILDIV
CONSTANT = AffineExprKind.CONSTANT
DIM = AffineExprKind.DIM
SYMBOL = AffineExprKind.SYMBOL

_DIVISIONS = (MOD, FLOORDIV, CEILDIV)
_DIM_BITS = 64  # dimensions below this are tracked as bits of AffineExpr._dims


def _wrap(value: int) -> int:
    """`value` as a two's-complement int64 (C++'s wrap-around, which MLIR relies on)."""
    if INT64_MIN <= value <= INT64_MAX:
        return value
    return ((value - INT64_MIN) & 0xFFFF_FFFF_FFFF_FFFF) + INT64_MIN


def _gcd_u64(a: int, b: int) -> int:
    """MLIR's `std::gcd((uint64_t)a, (uint64_t)b)` read back as int64."""
    return _wrap(math.gcd(a & 0xFFFF_FFFF_FFFF_FFFF, b & 0xFFFF_FFFF_FFFF_FFFF))


class AffineExpr:
    """An affine expression; build one with :func:`dims`, :func:`symbols`,
    :func:`constant` and Python operators, never by hand."""

    __slots__ = ("kind", "symbolic", "_hash", "_divisor", "_dims")

    kind: AffineExprKind
    symbolic: bool  # made of symbols and constants only: MLIR's isSymbolicOrConstant

    # ------------------------------------------------------------ building

    def __add__(self, other: AffineExpr | int) -> AffineExpr:
        return _add(self, _as_expr(other))

    def __radd__(self, other: int) -> AffineExpr:
        return _add(_as_expr(other), self)

    def __sub__(self, other: AffineExpr | int) -> AffineExpr:
        if isinstance(other, int):
            return _add(self, constant(-other))
        return _add(self, _mul(other, _MINUS_ONE))

    def __rsub__(self, other: int) -> AffineExpr:
        return _add(_as_expr(other), _mul(self, _MINUS_ONE))

    def __neg__(self) -> AffineExpr:
        return _mul(self, _MINUS_ONE)

    def __mul__(self, other: AffineExpr | int) -> AffineExpr:
        return _checked_mul(self, _as_expr(other))

    def __rmul__(self, other: int) -> AffineExpr:
        return _checked_mul(_as_expr(other), self)

    def floordiv(self, other: AffineExpr | int) -> AffineExpr:
        """`self floordiv other`: the quotient rounded toward minus infinity."""
        return _checked_division(FLOORDIV, self, _as_expr(other))

    def ceildiv(self, other: AffineExpr | int) -> AffineExpr:
        """`self ceildiv other`: the quotient rounded toward plus infinity."""
        return _checked_division(CEILDIV, self, _as_expr(other))

    def mod(self, other: AffineExpr | int) -> AffineExpr:
        """`self mod other`: the remainder of `floordiv`."""
        return _checked_division(MOD, self, _as_expr(other))

    __floordiv__ = floordiv
    __mod__ = mod

    def ge(self, other: AffineExpr | int = 0) -> AffineConstraint:
        """The integer-set constraint `self >= other` (kept as `self - other >= 0`)."""
        return AffineConstraint(self - other, False)

    def le(self, other: AffineExpr | int = 0) -> AffineConstraint:
        """The constraint `self <= other` (kept as `other - self >= 0`)."""
        return AffineConstraint(_as_expr(other) - self, False)

    def eq(self, other: AffineExpr | int = 0) -> AffineConstraint:
        """The constraint `self == other` (kept as `self - other == 0`)."""
        return AffineConstraint(self - other, True)

    def __rfloordiv__(self, other: int) -> AffineExpr:
        return _checked_division(FLOORDIV, _as_expr(other), self)

    def __rmod__(self, other: int) -> AffineExpr:
        return _checked_division(MOD, _as_expr(other), self)

    # ------------------------------------------------------------ value semantics

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, AffineExpr) or self._hash != other._hash:
            return False
        pending = [(self, other)]
        while pending:
            a, b = pending.pop()
            if a is b:
                continue
            if a.kind is not b.kind or a._hash != b._hash:
                return False
            if a.kind is CONSTANT:
                if a.value != b.value:
                    return False
            elif a.kind is DIM or a.kind is SYMBOL:
                if a.position != b.position:
                    return False
            else:
                pending.append((a.lhs, b.lhs))
                pending.append((a.rhs, b.rhs))
        return True

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return print_affine_expr(self)

    def __repr__(self) -> str:
        return f"AffineExpr({self})"

    def __bool__(self) -> bool:
        return True

    # ------------------------------------------------------------ queries

    def is_pure_affine(self) -> bool:
        """No semi-affine part: products have a constant factor and divisors are
        constants."""
        for node in self.walk():
            kind = node.kind
            if kind is MUL:
                if node.lhs.kind is not CONSTANT and node.rhs.kind is not CONSTANT:
                    return False
            elif kind in _DIVISIONS and node.rhs.kind is not CONSTANT:
                return False
        return True

    @property
    def largest_known_divisor(self) -> int:
        """The largest integer known to divide every value of the expression (MLIR's
        getLargestKnownDivisor, with its int64 arithmetic)."""
        return self._divisor

    def is_function_of_dim(self, position: int) -> bool:
        """Whether `d<position>` occurs in the expression."""
        if self._dims >= 0:
            return bool(self._dims >> position & 1)
        return any(n.kind is DIM and n.position == position for n in self.walk())

    def is_function_of_symbol(self, position: int) -> bool:
        """Whether `s<position>` occurs in the expression."""
        return any(n.kind is SYMBOL and n.position == position for n in self.walk())

    def walk(self) -> Iterator[AffineExpr]:
        """Every node of the expression, in post-order (operands before operations)."""
        stack: list[tuple[AffineExpr, bool]] = [(self, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded or not isinstance(node, AffineBinaryExpr):
                yield node
            else:
                stack.append((node, True))
                stack.append((node.rhs, False))
                stack.append((node.lhs, False))

    # ------------------------------------------------------------ substitution

    def replace_dims_and_symbols(self, dim_replacements: Sequence[AffineExpr],
                                 symbol_replacements: Sequence[AffineExpr] = ()) -> AffineExpr:
        """`d<i>` replaced by `dim_replacements[i]` and `s<j>` by
        `symbol_replacements[j]` (positions beyond the lists stay), re-simplified."""
        def leaf(node: AffineExpr) -> AffineExpr:
            if node.kind is DIM and node.position < len(dim_replacements):
                return dim_replacements[node.position]
            if node.kind is SYMBOL and node.position < len(symbol_replacements):
                return symbol_replacements[node.position]
            return node
        return _rebuild(self, leaf)

    def replace_dims(self, dim_replacements: Sequence[AffineExpr]) -> AffineExpr:
        """`d<i>` replaced by `dim_replacements[i]`."""
        return self.replace_dims_and_symbols(dim_replacements, ())

    def replace_symbols(self, symbol_replacements: Sequence[AffineExpr]) -> AffineExpr:
        """`s<j>` replaced by `symbol_replacements[j]`."""
        return self.replace_dims_and_symbols((), symbol_replacements)

    def replace(self, mapping: Mapping[AffineExpr, AffineExpr | int]) -> AffineExpr:
        """Every sub-expression that is a key of `mapping` replaced by its value (the
        outermost match wins), re-simplified."""
        if self in mapping:
            return _as_expr(mapping[self])
        stack: list[tuple[AffineExpr, bool]] = [(self, False)]
        results: list[AffineExpr] = []
        while stack:
            node, expanded = stack.pop()
            if not expanded:
                if node in mapping:
                    results.append(_as_expr(mapping[node]))
                elif isinstance(node, AffineBinaryExpr):
                    stack.append((node, True))
                    stack.append((node.rhs, False))
                    stack.append((node.lhs, False))
                else:
                    results.append(node)
                continue
            rhs = results.pop()
            lhs = results.pop()
            results.append(node if lhs is node.lhs and rhs is node.rhs
                           else binary(node.kind, lhs, rhs))
        return results[0]

    def shift_dims(self, num_dims: int, shift: int, offset: int = 0) -> AffineExpr:
        """Dimensions `d<offset>`... `d<num_dims - 1>` renumbered `shift` higher."""
        return self.replace_dims([dim(i) for i in range(offset)]
                                 + [dim(i + shift) for i in range(offset, num_dims)])

    def shift_symbols(self, num_symbols: int, shift: int, offset: int = 0) -> AffineExpr:
        """Symbols `s<offset>`... `s<num_symbols - 1>` renumbered `shift` higher."""
        return self.replace_symbols([symbol(i) for i in range(offset)]
                                    + [symbol(i + shift) for i in range(offset, num_symbols)])

    def compose(self, affine_map) -> AffineExpr:
        """The expression with its dimensions replaced by `affine_map`'s results."""
        return self.replace_dims(affine_map.results)

    # ------------------------------------------------------------ arithmetic

    def evaluate(self, dim_values: Sequence[int] = (), symbol_values: Sequence[int] = ()) -> int:
        """The value for the given dimension and symbol values (exact integers).
        Raises ZeroDivisionError on a zero divisor and IndexError on a missing value."""
        def leaf(node: AffineExpr) -> int:
            kind = node.kind
            if kind is CONSTANT:
                return node.value
            if kind is DIM:
                return dim_values[node.position]
            return symbol_values[node.position]
        return _fold(self, leaf, _apply)

    def bound(self, ranges: Mapping[AffineExpr, tuple[int | None, int | None]]
              ) -> tuple[int | None, int | None]:
        """Inclusive bounds `(lo, hi)` of the expression when each dimension or symbol
        that is a key of `ranges` lies in its inclusive range; None is unbounded (for an
        unlisted dimension or symbol, or a None in a range).

        Sound for every expression; exact for sums of multiples of distinct dimensions
        and symbols, and for `floordiv`/`mod`/`ceildiv` of such sums by positive
        constants."""
        from mlc.ir.core.affine_bounds import expr_bound

        return expr_bound(self, ranges)


class AffineDimExpr(AffineExpr):
    """A dimension `d<position>`: an index that varies (a loop variable)."""

    __slots__ = ("position",)

    def __init__(self, position: int):
        if position < 0:
            raise ValueError(f"negative dimension position {position}")
        self.kind = DIM
        self.symbolic = False
        self.position = position
        self._hash = hash((DIM, position))
        self._divisor = 1
        # Bit i: d<i> occurs (is_function_of_dim); -1, every bit, for a far position
        # (then is_function_of_dim walks the expression).
        self._dims = 1 << position if position < _DIM_BITS else -1


class AffineSymbolExpr(AffineExpr):
    """A symbol `s<position>`: a value that is fixed while the expression is used
    (a dynamic size)."""

    __slots__ = ("position",)

    def __init__(self, position: int):
        if position < 0:
            raise ValueError(f"negative symbol position {position}")
        self.kind = SYMBOL
        self.symbolic = True
        self.position = position
        self._hash = hash((SYMBOL, position))
        self._divisor = 1
        self._dims = 0


class AffineConstantExpr(AffineExpr):
    """An integer constant (64-bit, as MLIR's)."""

    __slots__ = ("value",)

    def __init__(self, value: int):
        if not INT64_MIN <= value <= INT64_MAX:
            raise ValueError(f"affine constant {value} does not fit in 64 bits")
        self.kind = CONSTANT
        self.symbolic = True
        self.value = value
        self._hash = hash((CONSTANT, value))
        self._divisor = _wrap(abs(value))
        self._dims = 0


class AffineBinaryExpr(AffineExpr):
    """`lhs <op> rhs`. Calling the class simplifies, so the result may be another kind
    of expression: `AffineBinaryExpr(ADD, d0, constant(0))` is `d0`."""

    __slots__ = ("lhs", "rhs")

    lhs: AffineExpr
    rhs: AffineExpr

    def __new__(cls, kind: AffineExprKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
        return binary(kind, lhs, rhs)


def _raw(kind: AffineExprKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineBinaryExpr:
    """A binary node exactly as given (the simplifiers' last step)."""
    node = object.__new__(AffineBinaryExpr)
    node.kind = kind
    node.lhs = lhs
    node.rhs = rhs
    node.symbolic = lhs.symbolic and rhs.symbolic
    node._hash = hash((kind, lhs._hash, rhs._hash))
    node._divisor = _binary_divisor(kind, lhs._divisor, rhs)
    node._dims = lhs._dims | rhs._dims
    return node


class AffineConstraint(NamedTuple):
    """One constraint of an integer set: `expr == 0` when `is_eq`, else `expr >= 0`."""

    expr: AffineExpr
    is_eq: bool

    def __str__(self) -> str:
        return f"{self.expr} {'==' if self.is_eq else '>='} 0"


# ---------------------------------------------------------------------- factories

_DIMS = [AffineDimExpr(i) for i in range(16)]
_SYMBOLS = [AffineSymbolExpr(i) for i in range(16)]
_CONSTANTS = {v: AffineConstantExpr(v) for v in range(-16, 65)}
_MINUS_ONE = _CONSTANTS[-1]
_ZERO = _CONSTANTS[0]


def dim(position: int) -> AffineDimExpr:
    """`d<position>`."""
    return _DIMS[position] if 0 <= position < 16 else AffineDimExpr(position)


def symbol(position: int) -> AffineSymbolExpr:
    """`s<position>`."""
    return _SYMBOLS[position] if 0 <= position < 16 else AffineSymbolExpr(position)


def constant(value: int) -> AffineConstantExpr:
    """The constant `value` (ValueError if it does not fit in 64 bits)."""
    cached = _CONSTANTS.get(value)
    return cached if cached is not None else AffineConstantExpr(value)


def dims(count: int) -> tuple[AffineDimExpr, ...]:
    """`d0`, ..., `d<count - 1>`: `i, j = dims(2)`."""
    return tuple(dim(i) for i in range(count))


def symbols(count: int) -> tuple[AffineSymbolExpr, ...]:
    """`s0`, ..., `s<count - 1>`."""
    return tuple(symbol(i) for i in range(count))


def _as_expr(value: AffineExpr | int) -> AffineExpr:
    if isinstance(value, AffineExpr):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return constant(value)
    raise TypeError(f"expected an affine expression or an int, got {type(value).__name__}")


def binary(kind: AffineExprKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs <kind> rhs`, simplified (MLIR's getAffineBinaryOpExpr). No affinity check:
    the operators and the parser check that first."""
    if kind is ADD:
        return _add(lhs, rhs)
    if kind is MUL:
        return _mul(lhs, rhs)
    if kind is FLOORDIV:
        return _floordiv(lhs, rhs)
    if kind is CEILDIV:
        return _ceildiv(lhs, rhs)
    if kind is MOD:
        return _mod(lhs, rhs)
    raise ValueError(f"{kind} is not a binary operation")


def _checked_mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if not lhs.symbolic and not rhs.symbolic:
        raise ValueError("non-affine expression: at least one of the multiply operands has "
                         "to be either a constant or symbolic")
    return _mul(lhs, rhs)


def _checked_division(kind: AffineExprKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if not rhs.symbolic:
        raise ValueError(f"non-affine expression: right operand of {kind.value} has to be "
                         f"either a constant or symbolic")
    return binary(kind, lhs, rhs)


# ---------------------------------------------------------------------- simplification
#
# The rules below are MLIR's construction-time simplifications (AffineExpr.cpp:
# simplifyAdd, simplifyMul, simplifyFloorDiv, simplifyCeilDiv, simplifyMod, and the
# ordering of dimension/symbol operands of `+` and `*`), re-derived here and checked
# against mlir-opt-22's output. They are local: `d0 + d1 - d0` stays as it is; a full
# rewrite to a canonical sum is :func:`mlc.ir.core.affine_simplify.simplify_affine_expr`.


def _atom_order(lhs: AffineExpr, rhs: AffineExpr) -> tuple[AffineExpr, AffineExpr]:
    """Operands of a commutative node: dimensions before symbols, each by position."""
    lk, rk = lhs.kind, rhs.kind
    if (lk is DIM or lk is SYMBOL) and (rk is DIM or rk is SYMBOL):
        if (lk is SYMBOL, lhs.position) > (rk is SYMBOL, rhs.position):
            return rhs, lhs
    return lhs, rhs


def _add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lk, rk = lhs.kind, rhs.kind
    if lk is CONSTANT and rk is CONSTANT:
        total = lhs.value + rhs.value
        if INT64_MIN <= total <= INT64_MAX:
            return constant(total)
        return _raw(ADD, lhs, rhs)  # MLIR leaves an overflowing sum unfolded
    # Constants go right; a symbolic operand goes right of a non-symbolic one.
    if lk is CONSTANT or (lhs.symbolic and not rhs.symbolic):
        return _add(rhs, lhs)
    if rk is CONSTANT:
        if rhs.value == 0:
            return lhs
        if lk is ADD and lhs.rhs.kind is CONSTANT:  # (e + c1) + c2 -> e + (c1 + c2)
            return _add(lhs.lhs, constant(_wrap(lhs.rhs.value + rhs.value)))
    # c1 * e + c2 * e -> (c1 + c2) * e, with a bare e counting as 1 * e.
    if lk is MUL and lhs.rhs.kind is CONSTANT:
        first, first_coefficient = lhs.lhs, lhs.rhs.value
    else:
        first, first_coefficient = lhs, 1
    if rk is MUL and rhs.rhs.kind is CONSTANT:
        second, second_coefficient = rhs.lhs, rhs.rhs.value
    else:
        second, second_coefficient = rhs, 1
    if first == second:
        return _mul(first, constant(_wrap(first_coefficient + second_coefficient)))
    if lk is ADD and lhs.rhs.kind is CONSTANT:  # (e + c) + f -> (e + f) + c
        return _add(_add(lhs.lhs, rhs), lhs.rhs)
    simplified = _add_mod_pattern(lhs, rhs) if rk is MUL else None
    if simplified is not None:
        return simplified
    lhs, rhs = _atom_order(lhs, rhs)
    return _raw(ADD, lhs, rhs)


def _add_mod_pattern(lhs: AffineExpr, rhs: AffineBinaryExpr) -> AffineExpr | None:
    """`e - (e floordiv q) * q` -> `e mod q` (q symbolic, spelled `((e floordiv q) * q)
    * -1`, or a positive constant, spelled `(e floordiv q) * -q`); with a constant q,
    also `(f + e) - (e floordiv q) * q` -> `f + e mod q`."""
    factor, coefficient = rhs.lhs, rhs.rhs
    if coefficient.kind is not CONSTANT:
        return None
    if coefficient.value == -1:
        if factor.kind is not MUL:
            return None
        quotient, divisor = factor.lhs, factor.rhs
        if quotient.kind is FLOORDIV and quotient.rhs == divisor and quotient.lhs == lhs:
            return _mod(lhs, divisor)
        return None
    if factor.kind is not FLOORDIV:
        return None
    dividend, divisor = factor.lhs, factor.rhs
    if divisor.kind is not CONSTANT or divisor.value <= 0 or divisor.value != -coefficient.value:
        return None
    if lhs == dividend:
        return _mod(dividend, divisor)
    if lhs.kind is ADD and lhs.rhs == dividend:
        return _add(lhs.lhs, _mod(dividend, divisor))
    return None


def _mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lk, rk = lhs.kind, rhs.kind
    if lk is CONSTANT and rk is CONSTANT:
        product = lhs.value * rhs.value
        if INT64_MIN <= product <= INT64_MAX:
            return constant(product)
        return _raw(MUL, lhs, rhs)  # MLIR leaves an overflowing product unfolded
    # The constant or symbolic factor goes right (a constant rightmost).
    if not rhs.symbolic or lk is CONSTANT:
        return _mul(rhs, lhs)
    if rk is CONSTANT:
        value = rhs.value
        if value == 1:
            return lhs
        if value == 0:
            return rhs
        if lk is MUL and lhs.rhs.kind is CONSTANT:  # (e * c1) * c2 -> e * (c1 * c2)
            return _mul(lhs.lhs, constant(_wrap(lhs.rhs.value * value)))
    if lk is MUL and lhs.rhs.kind is CONSTANT:  # (e * c) * f -> (e * f) * c
        return _mul(_mul(lhs.lhs, rhs), lhs.rhs)
    lhs, rhs = _atom_order(lhs, rhs)
    return _raw(MUL, lhs, rhs)


def _positive_constant(expr: AffineExpr) -> int | None:
    if expr.kind is CONSTANT and expr.value >= 1:
        return expr.value
    return None


def _floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    divisor = _positive_constant(rhs)  # by zero or a negative number: left as written
    if divisor is None:
        return _raw(FLOORDIV, lhs, rhs)
    if lhs.kind is CONSTANT:
        return constant(lhs.value // divisor)
    if divisor == 1:
        return lhs
    if lhs.kind is MUL and lhs.rhs.kind is CONSTANT and lhs.rhs.value % divisor == 0:
        return _mul(lhs.lhs, constant(lhs.rhs.value // divisor))
    if lhs.kind is ADD and (lhs.lhs.largest_known_divisor % divisor == 0
                            or lhs.rhs.largest_known_divisor % divisor == 0):
        return _add(_floordiv(lhs.lhs, rhs), _floordiv(lhs.rhs, rhs))
    return _raw(FLOORDIV, lhs, rhs)


def _ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    divisor = _positive_constant(rhs)
    if divisor is None:
        return _raw(CEILDIV, lhs, rhs)
    if lhs.kind is CONSTANT:
        return constant(-(-lhs.value // divisor))
    if divisor == 1:
        return lhs
    if lhs.kind is MUL and lhs.rhs.kind is CONSTANT and lhs.rhs.value % divisor == 0:
        return _mul(lhs.lhs, constant(lhs.rhs.value // divisor))
    return _raw(CEILDIV, lhs, rhs)


def _mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    divisor = _positive_constant(rhs)
    if divisor is None:
        return _raw(MOD, lhs, rhs)
    if lhs.kind is CONSTANT:
        return constant(lhs.value % divisor)
    if lhs.largest_known_divisor % divisor == 0:
        return _ZERO
    if lhs.kind is ADD:  # drop a summand that is a multiple of the divisor
        if lhs.lhs.largest_known_divisor % divisor == 0:
            return _mod(lhs.rhs, rhs)
        if lhs.rhs.largest_known_divisor % divisor == 0:
            return _mod(lhs.lhs, rhs)
    if lhs.kind is MOD:  # (e mod a) mod b -> e mod b when b divides a
        inner = _positive_constant(lhs.rhs)
        if inner is not None and inner % divisor == 0:
            return _mod(lhs.lhs, rhs)
    return _raw(MOD, lhs, rhs)


def _binary_divisor(kind: AffineExprKind, lhs: int, rhs: AffineExpr) -> int:
    """MLIR's getLargestKnownDivisor of `lhs_expr <kind> rhs`, from the divisor `lhs` of
    its left operand."""
    if kind is MUL:
        return _wrap(lhs * rhs._divisor)
    if kind is ADD or kind is MOD:
        return _gcd_u64(lhs, rhs._divisor)
    # floordiv, ceildiv: the quotient of the dividend's divisor by a constant divisor.
    if rhs.kind is CONSTANT and rhs.value != 0 and _c_rem(lhs, rhs.value) == 0:
        return _c_div(lhs, rhs.value)
    return 1


def _c_rem(a: int, b: int) -> int:
    """C++'s `%` (truncating)."""
    return a - b * _c_div(a, b)


def _c_div(a: int, b: int) -> int:
    """C++'s `/` on int64 (truncating, wrapping)."""
    quotient = abs(a) // abs(b)
    return _wrap(quotient if (a < 0) == (b < 0) else -quotient)


# ---------------------------------------------------------------------- tree folds


def _fold(expr: AffineExpr, leaf: Callable[[AffineExpr], object],
          combine: Callable[[AffineBinaryExpr, object, object], object]):
    """Post-order fold with an explicit stack: `leaf(node)` for leaves,
    `combine(node, lhs_result, rhs_result)` for binary nodes."""
    if not isinstance(expr, AffineBinaryExpr):
        return leaf(expr)
    stack: list[tuple[AffineExpr, bool]] = [(expr, False)]
    results: list = []
    while stack:
        node, expanded = stack.pop()
        if expanded:
            rhs = results.pop()
            results.append(combine(node, results.pop(), rhs))
        elif isinstance(node, AffineBinaryExpr):
            stack.append((node, True))
            stack.append((node.rhs, False))
            stack.append((node.lhs, False))
        else:
            results.append(leaf(node))
    return results[0]


def _rebuild(expr: AffineExpr, leaf: Callable[[AffineExpr], AffineExpr]) -> AffineExpr:
    """The expression with each leaf replaced by `leaf(leaf)`, re-simplified; untouched
    sub-trees are shared."""
    def combine(node: AffineBinaryExpr, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
        if lhs is node.lhs and rhs is node.rhs:
            return node
        return binary(node.kind, lhs, rhs)
    return _fold(expr, leaf, combine)


def _apply(node: AffineBinaryExpr, lhs: int, rhs: int) -> int:
    kind = node.kind
    if kind is ADD:
        return lhs + rhs
    if kind is MUL:
        return lhs * rhs
    if rhs == 0:
        raise ZeroDivisionError(f"division by zero in affine expression '{node}'")
    if kind is FLOORDIV:
        return lhs // rhs
    if kind is CEILDIV:
        return -(-lhs // rhs)
    return lhs % rhs


# ---------------------------------------------------------------------- printing


def print_affine_expr(expr: AffineExpr, dim_names: Sequence[str] | None = None,
                      symbol_names: Sequence[str] | None = None) -> str:
    """MLIR's spelling of `expr`: `d0 * 4 + d1`, `d0 - s0`, `-d0`, `(d0 + 1) floordiv 2`.
    Dimensions and symbols print as `d<i>`/`s<i>` unless names are given."""
    out: list[str] = []
    # Work items: an expression with its binding context (True: inside a tighter
    # operator, so a sum needs parentheses), or a literal string.
    stack: list = [(expr, False)]
    while stack:
        item = stack.pop()
        if item.__class__ is str:
            out.append(item)
            continue
        node, strong = item
        kind = node.kind
        if kind is DIM:
            out.append(dim_names[node.position] if dim_names else f"d{node.position}")
            continue
        if kind is SYMBOL:
            out.append(symbol_names[node.position] if symbol_names else f"s{node.position}")
            continue
        if kind is CONSTANT:
            out.append(str(node.value))
            continue
        parts = _binary_parts(node)
        if strong:
            parts = ["(", *parts, ")"]
        stack.extend(reversed(parts))
    return "".join(out)


def _binary_parts(node: AffineBinaryExpr) -> list:
    """The pieces of one binary node, children as (expr, strong) work items."""
    lhs, rhs, kind = node.lhs, node.rhs, node.kind
    if kind is not ADD:
        if kind is MUL and rhs.kind is CONSTANT and rhs.value == -1:
            return ["-", (lhs, True)]
        return [(lhs, True), f" {kind.value} ", (rhs, True)]
    # A sum whose right operand is negated or has a negative factor prints as a
    # subtraction; so does a sum with a negative constant.
    if rhs.kind is MUL and rhs.rhs.kind is CONSTANT:
        coefficient = rhs.rhs.value
        if coefficient == -1:
            return [(lhs, False), " - ", (rhs.lhs, rhs.lhs.kind is ADD)]
        if coefficient < -1:
            return [(lhs, False), " - ", (rhs.lhs, True), f" * {_wrap(-coefficient)}"]
    if rhs.kind is CONSTANT and rhs.value < 0:
        return [(lhs, False), f" - {_wrap(-rhs.value)}"]
    return [(lhs, False), " + ", (rhs, False)]
