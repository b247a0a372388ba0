"""symbol-dce: erase private symbols that nothing live references."""

from __future__ import annotations

from mlc.ir.core.attributes import ArrayAttr, Attribute, DictionaryAttr, StringAttr, SymbolRefAttr
from mlc.ir.core.ir import Operation
from mlc.ir.opdef.traits import SymbolTable
from mlc.ir.passes.registry import Pass, register_pass


def _symbol_refs(attr: Attribute, out: list[str], paths: list | None = None) -> None:
    stack = [attr]
    while stack:
        current = stack.pop()
        if isinstance(current, SymbolRefAttr):
            out.append(current.root)
            if paths is not None and current.nested:
                paths.append((current.root, *current.nested))
        elif isinstance(current, ArrayAttr):
            stack.extend(current.elements)
        elif isinstance(current, DictionaryAttr):
            stack.extend(v for _, v in current.entries)


def _references(op: Operation) -> list[str]:
    refs: list[str] = []
    for nested in op.walk():
        for value in nested.attributes.values():
            _symbol_refs(value, refs)
    return refs


def erase_dead_symbols(table: Operation, live_from_outside: set[str] = frozenset()) -> int:
    """Erase the private and nested symbols of one symbol table that no live op
    references (`live_from_outside`: names nested references reach from elsewhere)."""
    symbols: dict[str, Operation] = {}
    others: list[Operation] = []
    for region in table.regions:
        for op in region.ops():
            name = op.attributes.get("sym_name")
            if isinstance(name, StringAttr):
                symbols[name.value] = op
            else:
                others.append(op)
    live: set[str] = set()
    stack: list[str] = list(live_from_outside)
    for name, op in symbols.items():
        visibility = op.attributes.get("sym_visibility")
        # Private and nested symbols are invisible outside the table: only uses keep them.
        if not (isinstance(visibility, StringAttr) and visibility.value in ("private", "nested")):
            live.add(name)
            stack.append(name)
    for op in others:
        stack.extend(_references(op))
    while stack:
        name = stack.pop()
        op = symbols.get(name)
        if op is None:
            continue
        live.add(name)
        for ref in _references(op):
            if ref not in live:
                live.add(ref)
                stack.append(ref)
    erased = 0
    for name, op in symbols.items():
        if name not in live:
            op.drop_all_references()
            op.erase()
            erased += 1
    return erased


@register_pass("symbol-dce", opt_level=1, summary="Erase private symbols nothing live references.",
               statistics=(("num-dce", "symbols erased"),), op_traits=(SymbolTable,))
class SymbolDCE(Pass):
    def run(self, op: Operation, run) -> None:
        # Nested references (@a::@b) keep @b alive inside the table named @a.
        paths: list = []
        for nested in op.walk():
            for value in nested.attributes.values():
                _symbol_refs(value, [], paths)
        reached: dict[str, set[str]] = {}
        for path in paths:
            for outer, inner in zip(path, path[1:]):
                reached.setdefault(outer, set()).add(inner)
        tables = [o for o in op.walk() if o.has_trait(SymbolTable)]
        for table in tables:
            if table is not op and table.parent is None:
                continue  # erased with an enclosing symbol
            name = table.attributes.get("sym_name")
            from_outside = reached.get(name.value, set()) if isinstance(name, StringAttr) else set()
            self.statistics["num-dce"] += erase_dead_symbols(table, from_outside)
