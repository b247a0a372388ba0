"""symbol-dce: erase private symbols that nothing live references."""

from __future__ import annotations

from mlc.ir.core.attributes import ArrayAttr, Attribute, DictionaryAttr, StringAttr, SymbolRefAttr
from mlc.ir.core.ir import Operation
from mlc.ir.opdef.traits import SymbolTable
from mlc.ir.passes.registry import Pass, register_pass


def _symbol_refs(attr: Attribute, out: list[str]) -> None:
    stack = [attr]
    while stack:
        current = stack.pop()
        if isinstance(current, SymbolRefAttr):
            out.append(current.root)
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


def erase_dead_symbols(table: Operation) -> int:
    """Erase the private symbols of one symbol table that no live op references."""
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
    stack: list[str] = []
    for name, op in symbols.items():
        visibility = op.attributes.get("sym_visibility")
        if not (isinstance(visibility, StringAttr) and visibility.value == "private"):
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
               statistics=(("num-dce", "symbols erased"),))
class SymbolDCE(Pass):
    def run(self, op: Operation, run) -> None:
        tables = [o for o in op.walk(post_order=True) if o.has_trait(SymbolTable)]
        for table in tables:
            self.statistics["num-dce"] += erase_dead_symbols(table)
