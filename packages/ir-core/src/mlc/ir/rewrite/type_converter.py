"""Type converters: how a dialect conversion changes types, and how values cross the
change.

A :class:`TypeConverter` maps each type to its converted types, 1:1 or 1:N (N may be
0), and materialises values across the change: a *target* materialisation turns a
value of an old type into values of the new types (for the operands a conversion
pattern receives), a *source* materialisation turns new values back into one value of
the old type (for users that stay unconverted). Both fall back to
`builtin.unrealized_conversion_cast`, which the `reconcile-unrealized-casts` pass
removes once both sides agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mlc.ir.core.attributes import FunctionType, Location, Type
from mlc.ir.core.ir import Operation, Region, Value
from mlc.ir.rewrite.rewriter import Rewriter

Materialization = Callable[[Rewriter, Sequence[Type], Sequence[Value], Location],
                           Sequence[Value] | None]
"""`(rewriter, types, inputs, loc) -> values of those types, or None to pass`; it
inserts what it builds at the rewriter's insertion point."""

Conversion = Callable[[Type], Type | Sequence[Type] | None]
"""`type -> a type, a list of types (1:N, possibly empty), or None to pass`."""


def cast_materialization(rewriter: Rewriter, types: Sequence[Type], inputs: Sequence[Value],
                         loc: Location) -> list[Value]:
    """The fallback of every materialisation: an unrealized conversion cast."""
    from mlc.ir.dialects.builtin import UnrealizedConversionCastOp

    op = UnrealizedConversionCastOp.create(list(inputs), list(types), {}, loc=loc)
    rewriter.insert(op)
    return list(op.results)


class TypeConverter:
    """Maps types (1:1 or 1:N) and materialises values across the change.

    Conversions are tried newest first; types no conversion handles are kept as they
    are. Materialisations are tried newest first too, the cast last.
    """

    def __init__(self):
        self._conversions: list[Conversion] = []
        self._source: list[Materialization] = [cast_materialization]
        self._target: list[Materialization] = [cast_materialization]
        self._cache: dict[Type, tuple[Type, ...]] = {}

    def add_conversion(self, fn: Conversion) -> None:
        self._conversions.insert(0, fn)
        self._cache.clear()

    def add_source_materialization(self, fn: Materialization) -> None:
        self._source.insert(0, fn)

    def add_target_materialization(self, fn: Materialization) -> None:
        self._target.insert(0, fn)

    # ---------------------------------------------------------------- types

    def convert_type(self, type_: Type) -> tuple[Type, ...]:
        """The types `type_` becomes (itself when no conversion applies)."""
        cached = self._cache.get(type_)
        if cached is not None:
            return cached
        result: tuple[Type, ...] = (type_,)
        for fn in self._conversions:
            converted = fn(type_)
            if converted is None:
                continue
            result = tuple(converted) if isinstance(converted, (list, tuple)) else (converted,)
            break
        self._cache[type_] = result
        return result

    def convert_types(self, types: Sequence[Type]) -> list[Type]:
        """The converted types of `types`, 1:N conversions expanded in place."""
        return [t for type_ in types for t in self.convert_type(type_)]

    def convert_signature(self, fn_type: FunctionType) -> FunctionType:
        """`fn_type` with its inputs and results converted."""
        return FunctionType(tuple(self.convert_types(fn_type.inputs)),
                            tuple(self.convert_types(fn_type.results)))

    # ---------------------------------------------------------------- legality

    def is_legal(self, type_: Type) -> bool:
        """Whether `type_` is left as it is."""
        return self.convert_type(type_) == (type_,)

    def is_op_legal(self, op: Operation) -> bool:
        """All operand and result types are legal (a common dynamic legality rule)."""
        return all(self.is_legal(t) for t in op.operand_types) and \
            all(self.is_legal(t) for t in op.result_types)

    def is_signature_legal(self, fn_type: FunctionType) -> bool:
        return all(self.is_legal(t) for t in fn_type.inputs) and \
            all(self.is_legal(t) for t in fn_type.results)

    def is_region_legal(self, region: Region) -> bool:
        """Whether every block argument of `region` has a legal type."""
        return all(self.is_legal(arg.type) for block in region.blocks for arg in block.args)

    # ---------------------------------------------------------------- materialisation

    def materialize_target(self, rewriter: Rewriter, types: Sequence[Type],
                           inputs: Sequence[Value], loc: Location) -> list[Value]:
        """Values of the new `types` standing for the old-typed `inputs`."""
        return _materialize(self._target, rewriter, types, inputs, loc)

    def materialize_source(self, rewriter: Rewriter, types: Sequence[Type],
                           inputs: Sequence[Value], loc: Location) -> list[Value]:
        """Values of the old `types` standing for the new-typed `inputs`."""
        return _materialize(self._source, rewriter, types, inputs, loc)


def _materialize(materializations: list[Materialization], rewriter: Rewriter,
                 types: Sequence[Type], inputs: Sequence[Value], loc: Location) -> list[Value]:
    for fn in materializations:
        values = fn(rewriter, types, inputs, loc)
        if values is not None:
            values = list(values)
            if [v.type for v in values] != list(types):
                raise TypeError(f"a materialisation to {list(types)} returned values of types "
                                f"{[v.type for v in values]}")
            return values
    raise AssertionError("unreachable: the cast materialisation always applies")
