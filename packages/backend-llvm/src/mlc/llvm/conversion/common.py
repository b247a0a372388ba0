"""What every `<dialect>_to_llvm` pattern set shares: the type converter and the
registry of pattern sets.

Types: `index` becomes `i64`; a memref with a static shape and static strides becomes
a bare `!llvm.ptr` to its first element (MLIR's bare-pointer convention, taken inside
functions too: a subview's pointer already points at its offset, so a memref value is
one pointer and its type says the rest); integers, floats and vectors of them stay.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mlc.ir.core.attributes import (
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StridedLayoutAttr,
    Type,
    VectorType,
)
from mlc.ir.rewrite.pattern import RewritePattern
from mlc.ir.rewrite.type_converter import TypeConverter
from mlc.llvm.dialect.constraints import is_llvm_compatible
from mlc.llvm.dialect.types import LLVMPointerType

INDEX_BITS = 64
i64 = IntegerType(INDEX_BITS)


class LLVMTypeConverter(TypeConverter):
    """Standard types to the types the llvm dialect computes on."""

    def __init__(self):
        super().__init__()
        self.add_conversion(self._convert_vector)
        self.add_conversion(self._convert_memref)
        self.add_conversion(lambda t: i64 if isinstance(t, IndexType) else None)
        self._computable: dict[Type, Type | None] = {}

    def computable_type(self, type_: Type) -> Type | None:
        """The one type `type_` becomes, if the llvm dialect computes on it: scalars
        and 1-D vectors (an n-D vector would be an array of vectors, which the
        lowerings do not build). Asked for every operand of every op lowered: kept."""
        if type_ in self._computable:
            return self._computable[type_]
        types = self.convert_type(type_)
        one = types[0] if len(types) == 1 and is_llvm_compatible(types[0]) else None
        if isinstance(one, VectorType) and len(one.shape) != 1:
            one = None
        self._computable[type_] = one
        return one

    def _convert_memref(self, type_: Type) -> Type | None:
        if not isinstance(type_, MemRefType) or memref_strides(type_) is None:
            return None
        space = type_.memory_space
        if space is not None and not isinstance(space, IntegerAttr):
            return None
        return LLVMPointerType(space.value if space is not None else 0)

    def _convert_vector(self, type_: Type) -> Type | None:
        if isinstance(type_, VectorType) and isinstance(type_.element_type, IndexType):
            return VectorType(type_.shape, i64, type_.scalable)
        return None


def memref_strides(type_: MemRefType) -> tuple[int, ...] | None:
    """The element strides of a statically shaped memref with a static layout (the
    identity or `strided<[...]>` with static strides), or None where a pointer alone
    cannot describe it (a dynamic size or stride, an affine-map layout). The offset may
    be dynamic: the pointer points at it."""
    if any(d < 0 for d in type_.shape):
        return None
    layout = type_.layout
    if layout is None:
        strides, running = [], 1
        for size in reversed(type_.shape):
            strides.append(running)
            running *= size
        return tuple(reversed(strides))
    if isinstance(layout, StridedLayoutAttr):
        if any(s is None or s < 0 for s in layout.strides):
            return None
        return tuple(layout.strides)
    return None


PatternFactory = Callable[[LLVMTypeConverter], Iterable[RewritePattern]]
_PATTERN_SETS: dict[str, PatternFactory] = {}


def to_llvm_patterns(dialect: str) -> Callable[[PatternFactory], PatternFactory]:
    """Register `factory(converter) -> patterns` as how `dialect` lowers to llvm."""
    def register(factory: PatternFactory) -> PatternFactory:
        if dialect in _PATTERN_SETS:
            raise ValueError(f"the patterns lowering '{dialect}' to llvm are registered twice")
        _PATTERN_SETS[dialect] = factory
        return factory
    return register


def registered_pattern_sets() -> dict[str, PatternFactory]:
    """The registered pattern sets by dialect name (import the `*_to_llvm` modules first;
    :mod:`mlc.llvm.conversion.convert_to_llvm` does)."""
    return dict(_PATTERN_SETS)
