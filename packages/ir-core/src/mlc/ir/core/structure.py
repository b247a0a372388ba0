"""Structural equivalence of IR: a hashable key equal for two pieces of IR exactly when
they compute the same thing the same way (MLIR's OperationEquivalence, locations
ignored).

Two pieces are equivalent when their ops have the same names, attributes (and an
unregistered op's properties), result types, operands, successors and regions, op for
op and block for block, and their blocks have arguments of the same types. An operand
defined inside the piece is compared by where it is defined (which op's result, which
block's argument, counted in walk order), so value names never matter; an operand
defined outside is compared by identity, or by the name the caller gives it. Value
names and locations are ignored.

Users: duplicate-function-elimination (function bodies) and graph-lower-to-loop's kernel
cache (groups of graph ops).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence

from mlc.ir.core.ir import Block, Operation, Region, Value

__all__ = ["ops_structure", "regions_structure"]


def _preorder(ops: Sequence[Operation], regions: Sequence[Region]) -> Iterator[Operation | Block]:
    """The ops and blocks of the piece in pre-order: each op before its regions' blocks,
    each block before its ops."""
    stack: list[Operation | Block] = []
    for region in reversed(regions):
        stack.extend(reversed(region.blocks))
    stack.extend(reversed(ops))
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, Block):
            stack.extend(item.ops_reversed())
        else:
            for region in reversed(item.regions):
                stack.extend(reversed(region.blocks))


def _structure(ops: Sequence[Operation], regions: Sequence[Region],
               names: Mapping[Value, Hashable]) -> tuple:
    # Number what the piece defines first: a successor or an operand may be defined
    # later in walk order than its use (a block listed after its predecessor).
    places: dict[Value | Block, int] = {}
    for item in _preorder(ops, regions):
        places[item] = len(places)
        for value in item.args if isinstance(item, Block) else item.results:
            places[value] = len(places)

    def operand(value: Value) -> Hashable:
        place = places.get(value)
        if place is not None:
            return ("defined", place)
        return ("given", names[value]) if value in names else ("outside", value)

    # A flat pre-order record; the counts of blocks, ops and regions make it unambiguous.
    record: list[Hashable] = [tuple(len(r.blocks) for r in regions)]
    for item in _preorder(ops, regions):
        if isinstance(item, Block):
            record.append((len(item), tuple(a.type for a in item.args)))
            continue
        properties = item.properties or {}
        record.append((
            item.name,
            tuple(sorted(item.attributes.items())),
            tuple(sorted(properties.items())),
            tuple(operand(v) for v in item.operands),
            tuple(r.type for r in item.results),
            tuple(places[b] if b in places else ("outside", b) for b in item.successors),
            tuple(len(r.blocks) for r in item.regions),
        ))
    return tuple(record)


def ops_structure(ops: Sequence[Operation], names: Mapping[Value, Hashable] | None = None) -> tuple:
    """The structural key of the op sequence `ops` (see the module docstring); `names`
    stands for values defined outside them (a group's inputs, by position), compared
    by name instead of by identity."""
    return _structure(ops, (), names or {})


def regions_structure(regions: Sequence[Region]) -> tuple:
    """The structural key of `regions` (a function's body), see the module docstring."""
    return _structure((), regions, {})
