"""Affine maps and integer sets, and the builtin attributes that hold them.

An :class:`AffineMap` `(d0, d1)[s0] -> (d0 * 4 + d1, s0 floordiv 2)` maps dimension and
symbol values to one value per result; an :class:`IntegerSet`
`(d0)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0)` is the set of points satisfying every
constraint. Both are immutable values; :class:`AffineMapAttr` and
:class:`IntegerSetAttr` are the attributes `affine_map<...>` and `affine_set<...>`.

    d0, d1 = dims(2)
    m = AffineMap(2, 1, (d0 * 4 + d1, symbol(0).floordiv(2)))
    m.evaluate((1, 2), (7,))                  # (6, 3)
    m.compose(AffineMap.identity(2))          # m
    m.bounds([(0, 15), (0, 3)], [(0, 9)])     # ((0, 63), (0, 4))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from mlc.ir.core.affine_expr import (
    CONSTANT,
    DIM,
    SYMBOL,
    AffineConstraint,
    AffineExpr,
    constant,
    dim,
    symbol,
)
from mlc.ir.core.attributes import AsmWriter, Attribute

Range = tuple[int | None, int | None]


def _check_positions(exprs: Iterable[AffineExpr], num_dims: int, num_symbols: int,
                     what: str) -> None:
    for expr in exprs:
        if not isinstance(expr, AffineExpr):
            raise TypeError(f"{what} must be affine expressions, got {type(expr).__name__}")
        for node in expr.walk():
            if node.kind is DIM and node.position >= num_dims:
                raise ValueError(f"{what} use d{node.position} but there are {num_dims} dimensions")
            if node.kind is SYMBOL and node.position >= num_symbols:
                raise ValueError(f"{what} use s{node.position} but there are {num_symbols} symbols")


def _id_list(num_dims: int, num_symbols: int) -> str:
    text = "(" + ", ".join(f"d{i}" for i in range(num_dims)) + ")"
    if num_symbols:
        text += "[" + ", ".join(f"s{i}" for i in range(num_symbols)) + "]"
    return text


@dataclass(frozen=True, slots=True)
class AffineMap:
    """`(d0, ..., d<n-1>)[s0, ..., s<m-1>] -> (results...)`."""

    num_dims: int
    num_symbols: int
    results: tuple[AffineExpr, ...]

    def __post_init__(self) -> None:
        if self.num_dims < 0 or self.num_symbols < 0:
            raise ValueError("an affine map has a non-negative number of dimensions and symbols")
        if not isinstance(self.results, tuple):
            object.__setattr__(self, "results", tuple(self.results))
        _check_positions(self.results, self.num_dims, self.num_symbols, "map results")

    # ------------------------------------------------------------ builders

    @staticmethod
    def identity(num_dims: int) -> AffineMap:
        """`(d0, ..., d<n-1>) -> (d0, ..., d<n-1>)`."""
        return AffineMap(num_dims, 0, tuple(dim(i) for i in range(num_dims)))

    @staticmethod
    def constant_map(values: Sequence[int], num_dims: int = 0, num_symbols: int = 0) -> AffineMap:
        """A map whose results are the constants `values`."""
        return AffineMap(num_dims, num_symbols, tuple(constant(v) for v in values))

    @staticmethod
    def permutation(permutation: Sequence[int]) -> AffineMap:
        """`(d0, ..., d<n-1>) -> (d<p0>, d<p1>, ...)` for a permutation `p`."""
        if sorted(permutation) != list(range(len(permutation))):
            raise ValueError(f"{list(permutation)} is not a permutation")
        return AffineMap(len(permutation), 0, tuple(dim(p) for p in permutation))

    @staticmethod
    def minor_identity(num_dims: int, num_results: int) -> AffineMap:
        """`(d0, ..., d<n-1>) -> (d<n-k>, ..., d<n-1>)`: the last `k` dimensions."""
        if not 0 <= num_results <= num_dims:
            raise ValueError(f"a minor identity of {num_dims} dimensions has at most "
                             f"{num_dims} results, not {num_results}")
        return AffineMap(num_dims, 0, tuple(dim(i) for i in range(num_dims - num_results, num_dims)))

    # ------------------------------------------------------------ queries

    @property
    def num_inputs(self) -> int:
        return self.num_dims + self.num_symbols

    @property
    def num_results(self) -> int:
        return len(self.results)

    def is_identity(self) -> bool:
        """Result `i` is `d<i>` for every dimension (symbols may exist, as in MLIR)."""
        return len(self.results) == self.num_dims and all(
            r.kind is DIM and r.position == i for i, r in enumerate(self.results))

    def is_empty(self) -> bool:
        """No dimensions, symbols or results: `() -> ()`."""
        return self.num_dims == 0 and self.num_symbols == 0 and not self.results

    def is_constant(self) -> bool:
        """Every result is a constant."""
        return all(r.kind is CONSTANT for r in self.results)

    def constant_results(self) -> tuple[int, ...]:
        """The results' values; ValueError unless :meth:`is_constant`."""
        if not self.is_constant():
            raise ValueError(f"affine map {self} has non-constant results")
        return tuple(r.value for r in self.results)

    def is_permutation(self) -> bool:
        """The results are the dimensions, each once, and there are no symbols."""
        return (self.num_symbols == 0 and len(self.results) == self.num_dims
                and self.is_projected_permutation())

    def is_projected_permutation(self) -> bool:
        """The results are distinct dimensions (a permutation of some of them)."""
        seen = set()
        for r in self.results:
            if r.kind is not DIM or r.position in seen:
                return False
            seen.add(r.position)
        return True

    # ------------------------------------------------------------ transforms

    def compose(self, other: AffineMap) -> AffineMap:
        """`self ∘ other`: `other`'s results feed `self`'s dimensions. The result has
        `other`'s dimensions and `self`'s symbols followed by `other`'s (MLIR's
        AffineMap::compose)."""
        if self.num_dims != other.num_results:
            raise ValueError(f"cannot compose {self} with {other}: {self.num_dims} dimensions "
                             f"but {other.num_results} results")
        shifted = [r.shift_symbols(other.num_symbols, self.num_symbols) for r in other.results]
        return AffineMap(other.num_dims, self.num_symbols + other.num_symbols,
                         tuple(r.replace_dims(shifted) for r in self.results))

    def replace_dims_and_symbols(self, dim_replacements: Sequence[AffineExpr],
                                 symbol_replacements: Sequence[AffineExpr],
                                 num_dims: int, num_symbols: int) -> AffineMap:
        """Each result with its dimensions and symbols replaced (see
        :meth:`AffineExpr.replace_dims_and_symbols`), in a map of `num_dims`
        dimensions and `num_symbols` symbols."""
        return AffineMap(num_dims, num_symbols, tuple(
            r.replace_dims_and_symbols(dim_replacements, symbol_replacements)
            for r in self.results))

    def replace(self, mapping, num_dims: int | None = None,
                num_symbols: int | None = None) -> AffineMap:
        """Each result with the sub-expressions that are keys of `mapping` replaced."""
        return AffineMap(self.num_dims if num_dims is None else num_dims,
                         self.num_symbols if num_symbols is None else num_symbols,
                         tuple(r.replace(mapping) for r in self.results))

    def sub_map(self, result_positions: Sequence[int]) -> AffineMap:
        """The map with only the results at `result_positions`, in that order."""
        return AffineMap(self.num_dims, self.num_symbols,
                         tuple(self.results[i] for i in result_positions))

    # ------------------------------------------------------------ arithmetic

    def evaluate(self, dim_values: Sequence[int] = (), symbol_values: Sequence[int] = ()) -> tuple[int, ...]:
        """The results for the given dimension and symbol values."""
        if len(dim_values) != self.num_dims or len(symbol_values) != self.num_symbols:
            raise ValueError(f"affine map {self} takes {self.num_dims} dimensions and "
                             f"{self.num_symbols} symbols, got {len(dim_values)} and "
                             f"{len(symbol_values)}")
        return tuple(r.evaluate(dim_values, symbol_values) for r in self.results)

    def bounds(self, dim_ranges: Sequence[Range], symbol_ranges: Sequence[Range] = ()
               ) -> tuple[Range, ...]:
        """Inclusive `(lo, hi)` bounds of each result when dimension `i` ranges over
        `dim_ranges[i]` and symbol `j` over `symbol_ranges[j]` (symbols left out are
        unbounded; see :meth:`AffineExpr.bound`, None is unbounded)."""
        if len(dim_ranges) != self.num_dims or len(symbol_ranges) > self.num_symbols:
            raise ValueError(f"affine map {self} takes {self.num_dims} dimension ranges and "
                             f"up to {self.num_symbols} symbol ranges, got {len(dim_ranges)} "
                             f"and {len(symbol_ranges)}")
        ranges = {dim(i): r for i, r in enumerate(dim_ranges)}
        ranges.update((symbol(j), r) for j, r in enumerate(symbol_ranges))
        return tuple(r.bound(ranges) for r in self.results)

    def __str__(self) -> str:
        return _id_list(self.num_dims, self.num_symbols) + " -> (" + ", ".join(
            str(r) for r in self.results) + ")"


@dataclass(frozen=True, slots=True)
class IntegerSet:
    """`(dims)[symbols] : (c0, c1, ...)`: the points where each constraint `c<i>` holds,
    `constraints[i] == 0` if `eq_flags[i]`, else `constraints[i] >= 0`."""

    num_dims: int
    num_symbols: int
    constraints: tuple[AffineExpr, ...]
    eq_flags: tuple[bool, ...]

    def __post_init__(self) -> None:
        if self.num_dims < 0 or self.num_symbols < 0:
            raise ValueError("an integer set has a non-negative number of dimensions and symbols")
        object.__setattr__(self, "constraints", tuple(self.constraints))
        object.__setattr__(self, "eq_flags", tuple(bool(f) for f in self.eq_flags))
        if len(self.constraints) != len(self.eq_flags):
            raise ValueError(f"an integer set needs one equality flag per constraint: "
                             f"{len(self.constraints)} constraints, {len(self.eq_flags)} flags")
        _check_positions(self.constraints, self.num_dims, self.num_symbols, "set constraints")

    @staticmethod
    def from_constraints(num_dims: int, num_symbols: int,
                         constraints: Iterable[AffineConstraint]) -> IntegerSet:
        """A set from constraints built with `e.ge(x)`, `e.le(x)`, `e.eq(x)`."""
        items = list(constraints)
        return IntegerSet(num_dims, num_symbols, tuple(c.expr for c in items),
                          tuple(c.is_eq for c in items))

    @staticmethod
    def empty(num_dims: int = 0, num_symbols: int = 0) -> IntegerSet:
        """The canonical empty set `1 == 0` (MLIR's getEmptySet)."""
        return IntegerSet(num_dims, num_symbols, (constant(1),), (True,))

    @staticmethod
    def universe(num_dims: int = 0, num_symbols: int = 0) -> IntegerSet:
        """Every point: `0 == 0`, what `affine_set<(d0) : ()>` reads as."""
        return IntegerSet(num_dims, num_symbols, (constant(0),), (True,))

    @property
    def num_constraints(self) -> int:
        return len(self.constraints)

    def constraint_list(self) -> tuple[AffineConstraint, ...]:
        """The constraints as `AffineConstraint(expr, is_eq)` pairs."""
        return tuple(AffineConstraint(e, f) for e, f in zip(self.constraints, self.eq_flags))

    def is_empty_integer_set(self) -> bool:
        """Whether this is the canonical empty set `1 == 0` (not a full emptiness test)."""
        return self.constraints == (constant(1),) and self.eq_flags == (True,)

    def contains(self, dim_values: Sequence[int], symbol_values: Sequence[int] = ()) -> bool:
        """Whether the point satisfies every constraint."""
        if len(dim_values) != self.num_dims or len(symbol_values) != self.num_symbols:
            raise ValueError(f"integer set {self} takes {self.num_dims} dimensions and "
                             f"{self.num_symbols} symbols, got {len(dim_values)} and "
                             f"{len(symbol_values)}")
        for expr, is_eq in zip(self.constraints, self.eq_flags):
            value = expr.evaluate(dim_values, symbol_values)
            if (value != 0) if is_eq else (value < 0):
                return False
        return True

    def __str__(self) -> str:
        return _id_list(self.num_dims, self.num_symbols) + " : (" + ", ".join(
            str(c) for c in self.constraint_list()) + ")"


# ---------------------------------------------------------------------- attributes


class _AliasableAttr(Attribute):
    """An attribute printed as its `#map`/`#set` alias where the printer made one."""

    __slots__ = ()
    keyword: ClassVar[str]

    def write(self, w: AsmWriter) -> None:
        aliases = w.aliases
        name = aliases.get(self) if aliases else None
        w.write(name if name is not None else f"{self.keyword}<{self.value}>")


@dataclass(frozen=True, slots=True)
class AffineMapAttr(_AliasableAttr):
    """`affine_map<(d0) -> (d0 + 1)>`; a memref layout or an op's index mapping."""

    value: AffineMap
    keyword: ClassVar[str] = "affine_map"


@dataclass(frozen=True, slots=True)
class IntegerSetAttr(_AliasableAttr):
    """`affine_set<(d0) : (d0 >= 0)>`."""

    value: IntegerSet
    keyword: ClassVar[str] = "affine_set"
