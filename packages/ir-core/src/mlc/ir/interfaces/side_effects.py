"""Memory effects and speculatability: what an op does besides computing its results,
and whether it may run where it would not have (MLIR's MemoryEffectOpInterface and
ConditionallySpeculatable, with MLIR's semantics).

An op states its effects in one of these ways:

- `NoMemoryEffect` (or `Pure`, which implies it): none;
- `MemoryEffects(Read("memref"), Allocate("result"), ...)`: the listed effects, each on
  the values of a named operand or result group, or (no name) on a whole
  :class:`Resource`; an op whose effects depend on its attributes also defines
  `memory_effects(self)` returning :class:`EffectInstance`s;
- `RecursiveMemoryEffects`: those of the ops in its regions (a loop, an `if`), on top
  of its own if it also declares them;
- nothing: unknown, so it may do anything (as unregistered ops and calls).

Speculatability: `AlwaysSpeculatable` (implied by `Pure`), `RecursivelySpeculatable`
(if the ops in its regions are), or `ConditionallySpeculatable()` with a
`speculatability(self)` method (integer division and remainder, of any dialect, are
speculatable only for a divisor known not to trap: :func:`division_speculatability`);
otherwise not speculatable.

The passes ask through the functions at the end: :func:`is_trivially_dead` (dce, cse,
the greedy driver), :func:`is_memory_effect_free` and :func:`is_speculatable`
(loop-invariant-code-motion), :func:`own_effects` (cse of reads).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from mlc.ir.core.ir import Operation, Value
from mlc.ir.interfaces.int_range import local_range, may_be_minus_one, may_be_zero
from mlc.ir.opdef.traits import (
    AlwaysSpeculatable,
    Interface,
    IsTerminator,
    NoMemoryEffect,
    RecursivelySpeculatable,
    RecursiveMemoryEffects,
    Symbol,
)


class EffectKind(enum.Enum):
    """What an effect does to memory."""

    READ = "read"
    WRITE = "write"
    ALLOCATE = "allocate"
    FREE = "free"


@dataclass(frozen=True)
class Resource:
    """A piece of state effects act on (MLIR's SideEffects::Resource). Different
    resources never alias: a write to one does not change what a read of another sees."""

    name: str

    def __str__(self) -> str:
        return self.name


DEFAULT_RESOURCE = Resource("default")


@dataclass(frozen=True)
class EffectInstance:
    """One effect of one op: its kind, the value it acts on (None: the resource as a
    whole) and the resource."""

    kind: EffectKind
    value: Value | None = None
    resource: Resource = DEFAULT_RESOURCE


@dataclass(frozen=True)
class Effect:
    """A declared effect: on the values of the operand or result group named `on`
    (each value, for a variadic group; none, for an absent optional one), or, without
    a name, on the resource as a whole."""

    on: str | None = None
    resource: Resource = DEFAULT_RESOURCE
    kind: ClassVar[EffectKind]

    def __str__(self) -> str:
        parts = [self.on] if self.on is not None else []
        if self.resource != DEFAULT_RESOURCE or not parts:
            parts.append(f"resource={self.resource}")
        return f"{type(self).__name__}({', '.join(parts)})"


class Read(Effect):
    """Reads memory."""

    kind = EffectKind.READ


class Write(Effect):
    """Writes memory."""

    kind = EffectKind.WRITE


class Allocate(Effect):
    """Allocates memory (on a result: the op creates it, so an unused one is dead)."""

    kind = EffectKind.ALLOCATE


class Free(Effect):
    """Frees memory."""

    kind = EffectKind.FREE


class MemoryEffects(Interface):
    """The op's memory effects, listed in the declaration; an op whose effects depend
    on its attributes defines `memory_effects(self) -> list[EffectInstance]` too."""

    hooks = ("memory_effects",)

    def __init__(self, *effects: Effect):
        self.effects = effects

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"MemoryEffects({', '.join(map(str, self.effects))})"

    @property
    def summary(self) -> str:  # type: ignore[override]
        return "its memory effects: " + (", ".join(map(str, self.effects)) or "none")

    def bind(self, op_def) -> None:
        if NoMemoryEffect in op_def.trait_set:
            raise TypeError(f"'{op_def.name}' declares both NoMemoryEffect (or Pure) and "
                            f"{self.name}")
        names = {d.name for d in (*op_def.operands, *op_def.results)}
        for effect in self.effects:
            if effect.on is not None and effect.on not in names:
                raise TypeError(f"'{op_def.name}': {effect} names no operand or result")

    def effects_of(self, op: Operation) -> list[EffectInstance]:
        """The effects of `op` (its own, not those of ops nested in it)."""
        custom = getattr(op, "memory_effects", None)
        if custom is not None:
            return list(custom())
        return self.declared_effects_of(op)

    def declared_effects_of(self, op: Operation) -> list[EffectInstance]:
        """The effects the declaration lists, on `op`'s values (what a custom
        `memory_effects` may start from)."""
        found = []
        for effect in self.effects:
            if effect.on is None:
                found.append(EffectInstance(effect.kind, None, effect.resource))
                continue
            values = getattr(op, effect.on)
            if values is None:
                continue
            for value in [values] if isinstance(values, Value) else values:
                found.append(EffectInstance(effect.kind, value, effect.resource))
        return found


class Speculatability(enum.Enum):
    """Whether an op may be executed where it would not have been."""

    NOT_SPECULATABLE = "not speculatable"
    SPECULATABLE = "speculatable"
    RECURSIVELY_SPECULATABLE = "speculatable if the ops in its regions are"


class ConditionallySpeculatable(Interface):
    """Speculatability decided per op by its `speculatability(self)` method (e.g. from
    its operands: a division by a constant other than zero cannot trap)."""

    hooks = ("speculatability",)
    name = "ConditionallySpeculatable"
    summary = "speculatable or not depending on its operands or attributes"

    def bind(self, op_def) -> None:
        if not hasattr(op_def.cls, "speculatability"):
            raise TypeError(f"'{op_def.name}' declares ConditionallySpeculatable but has no "
                            "speculatability() method")
        if AlwaysSpeculatable in op_def.trait_set or RecursivelySpeculatable in op_def.trait_set:
            raise TypeError(f"'{op_def.name}' declares ConditionallySpeculatable and a fixed "
                            "speculatability (Pure, AlwaysSpeculatable or RecursivelySpeculatable)")


def division_speculatability(divisor: Value, signed: bool) -> Speculatability:
    """Speculatability of an integer division or remainder by `divisor`: a zero divisor
    is undefined behaviour (a trap on most targets), and so, for a signed one, is -1
    (`MIN / -1` overflows). Speculatable only when what `divisor`'s defining op says of
    it (a constant, a known range: :func:`local_range`) rules both out."""
    known = local_range(divisor)
    if may_be_zero(known) or (signed and may_be_minus_one(known)):
        return Speculatability.NOT_SPECULATABLE
    return Speculatability.SPECULATABLE


# ------------------------------------------------------------------ queries

_NO_EFFECTS, _DECLARED, _UNKNOWN = 0, 1, 2


def _classify(op: Operation) -> tuple[int, bool, MemoryEffects | None]:
    """(what the op's own effects are, whether its nested ops' effects are its too,
    its MemoryEffects declaration), decided once per op class."""
    op_def = op.op_def
    if op_def is None:
        return _UNKNOWN, False, None
    cached = op_def.facts.get("memory-effects")
    if cached is None:
        traits = op_def.trait_set
        declared = op_def.interfaces.get(MemoryEffects)
        recursive = RecursiveMemoryEffects in traits
        if declared is not None:
            own = _DECLARED
        elif NoMemoryEffect in traits or recursive:
            # An op with only recursive effects has none of its own (MLIR's rule).
            own = _NO_EFFECTS
        else:
            own = _UNKNOWN
        cached = op_def.facts["memory-effects"] = (own, recursive, declared)
    return cached


def own_effects(op: Operation) -> list[EffectInstance] | None:
    """The effects `op` itself declares (not those of ops nested in it); None when
    unknown. An op with only RecursiveMemoryEffects has none of its own."""
    own, _, declared = _classify(op)
    if own == _NO_EFFECTS:
        return []
    if own == _UNKNOWN:
        return None
    assert declared is not None
    return declared.effects_of(op)


def _nested_ops(op: Operation):
    for region in op.regions:
        for block in region.blocks:
            yield from block.ops()


def memory_effects(op: Operation) -> list[EffectInstance] | None:
    """Every memory effect of `op`, with those of the ops nested in it when it has
    RecursiveMemoryEffects (MLIR's getEffectsRecursively); None if any is unknown."""
    effects: list[EffectInstance] = []
    stack = [op]
    while stack:
        current = stack.pop()
        own, recursive, declared = _classify(current)
        if own == _UNKNOWN:
            return None
        if own == _DECLARED:
            assert declared is not None
            effects.extend(declared.effects_of(current))
        if recursive:
            stack.extend(_nested_ops(current))
    return effects


def is_memory_effect_free(op: Operation) -> bool:
    """`op`, and for RecursiveMemoryEffects everything nested in it, has no effects."""
    return memory_effects(op) == []


def would_be_trivially_dead(op: Operation) -> bool:
    """Whether `op` could be erased if its results had no uses: it ends no block, is
    no symbol, and (with its nested ops, for RecursiveMemoryEffects) only reads, or
    acts on memory it allocates itself (MLIR's wouldOpBeTriviallyDead)."""
    op_def = op.op_def
    if op_def is None:
        return False
    traits = op_def.trait_set
    if IsTerminator in traits or Symbol in traits:
        return False
    stack = [op]
    while stack:
        current = stack.pop()
        own, recursive, declared = _classify(current)
        if own == _UNKNOWN:
            return False
        if own == _DECLARED:
            assert declared is not None
            effects = declared.effects_of(current)
            allocated = {id(e.value) for e in effects
                         if e.kind is EffectKind.ALLOCATE and isinstance(e.value, Value)
                         and e.value.defining_op is current}
            for effect in effects:
                if effect.kind is not EffectKind.READ and id(effect.value) not in allocated:
                    return False
        if recursive:
            stack.extend(_nested_ops(current))
    return True


def is_trivially_dead(op: Operation) -> bool:
    """No result of `op` is used and it would be trivially dead (see above): what dce,
    cse and the greedy driver erase."""
    for result in op.results:
        if result.uses:
            return False
    op_def = op.op_def
    if op_def is not None and not op.regions:
        # The common case, decided without building effect lists.
        own = _classify(op)[0]
        if own == _NO_EFFECTS:
            return IsTerminator not in op_def.trait_set and Symbol not in op_def.trait_set
    return would_be_trivially_dead(op)


def speculatability(op: Operation) -> Speculatability:
    """How `op` itself may be speculated (see the module docstring)."""
    op_def = op.op_def
    if op_def is None:
        return Speculatability.NOT_SPECULATABLE
    traits = op_def.trait_set
    if AlwaysSpeculatable in traits:
        return Speculatability.SPECULATABLE
    if RecursivelySpeculatable in traits:
        return Speculatability.RECURSIVELY_SPECULATABLE
    if ConditionallySpeculatable in op_def.interfaces:
        return op.speculatability()  # type: ignore[attr-defined]
    return Speculatability.NOT_SPECULATABLE


def is_speculatable(op: Operation) -> bool:
    """Whether `op` (and, where it is recursively speculatable, everything nested in
    it) may be executed where it would not have been (MLIR's isSpeculatable)."""
    stack = [op]
    while stack:
        current = stack.pop()
        kind = speculatability(current)
        if kind is Speculatability.NOT_SPECULATABLE:
            return False
        if kind is Speculatability.RECURSIVELY_SPECULATABLE:
            stack.extend(_nested_ops(current))
    return True
