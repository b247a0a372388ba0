"""symbol-dce: erase the symbols nothing live references, as MLIR's SymbolDCE does.

A symbol may be erased only when nothing outside its symbol table can see it: a
private symbol, or a `nested` one in a hidden table (the pass runs on a table
without a parent, or on a private one; a nested table is hidden when its parent
table is, when it is not a symbol, or when it is private). Public symbols stay. Liveness starts at every
op of the table that is not a symbol and at every symbol that cannot be erased, and
spreads through the symbol references of live ops (`@a::@b` makes both `@a` and `@b`
live); a live nested symbol table is analysed the same way, recursively. A symbol
table that is dead is erased whole.
"""

from __future__ import annotations

from mlc.ir.core.attributes import ArrayAttr, Attribute, DictionaryAttr, StringAttr, SymbolRefAttr
from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.opdef.traits import SymbolTable
from mlc.ir.passes.registry import Pass, PassFailure, register_pass


def _symbol_refs(attr: Attribute, out: list[SymbolRefAttr]) -> None:
    stack = [attr]
    while stack:
        current = stack.pop()
        if isinstance(current, SymbolRefAttr):
            out.append(current)
        elif isinstance(current, ArrayAttr):
            stack.extend(current.elements)
        elif isinstance(current, DictionaryAttr):
            stack.extend(v for _, v in current.entries)


def symbol_uses(op: Operation) -> list[SymbolRefAttr]:
    """The symbol references held by `op` and the ops nested in it, not looking into
    nested symbol tables (whose references resolve in themselves)."""
    refs: list[SymbolRefAttr] = []
    stack = [op]
    while stack:
        current = stack.pop()
        for value in current.attributes.values():
            _symbol_refs(value, refs)
        if current is not op and current.has_trait(SymbolTable):
            continue
        for region in current.regions:
            for block in region.blocks:
                stack.extend(block.ops())
    return refs


def _may_be_unknown_symbol_table(op: Operation) -> bool:
    """An unregistered op with one region could be a symbol table whose names mlc
    cannot know, so no use inside it can be resolved (MLIR's rule)."""
    return op.op_def is None and len(op.regions) == 1


def _check_uses_known(op: Operation) -> None:
    stack = [op]
    while stack:
        current = stack.pop()
        if _may_be_unknown_symbol_table(current):
            raise PassFailure([Diagnostic(
                "error", "operation contains potentially unknown symbol table, meaning that "
                "we can't reliable compute symbol uses", op.loc)])
        if current is not op and current.has_trait(SymbolTable):
            continue
        for region in current.regions:
            for block in region.blocks:
                stack.extend(block.ops())


def _symbol_name(op: Operation) -> str | None:
    name = op.attributes.get("sym_name")
    return name.value if isinstance(name, StringAttr) else None


def _visibility(op: Operation) -> str:
    visibility = op.attributes.get("sym_visibility")
    return visibility.value if isinstance(visibility, StringAttr) else "public"


def _is_private(op: Operation) -> bool:
    return _visibility(op) == "private"


def _discardable(symbol: Operation, table_hidden: bool) -> bool:
    """Whether nothing outside the table could reference `symbol`: never when it is
    public; when it is private; when it is `nested` and the table is hidden."""
    visibility = _visibility(symbol)
    return visibility == "private" or (visibility == "nested" and table_hidden)


def _symbols_of(table: Operation) -> dict[str, Operation]:
    symbols: dict[str, Operation] = {}
    for region in table.regions[:1]:
        for op in region.ops():
            name = _symbol_name(op)
            if name is not None:
                symbols.setdefault(name, op)
    return symbols


def _resolve(table: Operation, ref: SymbolRefAttr) -> list[Operation]:
    """The symbols along `ref`'s path, looked up from `table`; empty if it names an
    unknown symbol (unknown references are ignored, as MLIR does)."""
    found: list[Operation] = []
    scope = table
    for name in (ref.root, *ref.nested):
        if scope is None or not scope.has_trait(SymbolTable):
            return []
        symbol = _symbols_of(scope).get(name)
        if symbol is None:
            return []
        found.append(symbol)
        scope = symbol
    return found


def _tables_within(op: Operation) -> list[Operation]:
    """`op` if it is a symbol table, else the outermost symbol tables in its regions
    (a module inside some op's region has its own symbols to keep alive)."""
    if op.has_trait(SymbolTable):
        return [op]
    tables, stack = [], [op]
    while stack:
        current = stack.pop()
        for region in current.regions:
            for block in region.blocks:
                for nested in block.ops():
                    (tables if nested.has_trait(SymbolTable) else stack).append(nested)
    return tables


def _compute_liveness(table: Operation, hidden: bool, live: set[Operation]) -> None:
    worklist: list[Operation] = []
    for region in table.regions[:1]:
        for op in region.ops():
            if _symbol_name(op) is None:
                worklist.append(op)
            elif not _discardable(op, hidden) and op not in live:
                live.add(op)
                worklist.append(op)
    while worklist:
        op = worklist.pop()
        for nested_table in _tables_within(op):
            nested_hidden = hidden or _symbol_name(nested_table) is None or _is_private(nested_table)
            _compute_liveness(nested_table, nested_hidden, live)
        _check_uses_known(op)
        scope = op.parent_op
        for ref in symbol_uses(op):
            for symbol in _resolve(scope, ref) if scope is not None else ():
                if symbol not in live:
                    live.add(symbol)
                    worklist.append(symbol)


def erase_dead_symbols(table: Operation) -> int:
    """Erase the dead symbols of symbol table `table` and of the tables nested in it
    (see the module docstring); how many were erased."""
    hidden = table.parent_op is None or _symbol_name(table) is None or _is_private(table)
    live: set[Operation] = set()
    _compute_liveness(table, hidden, live)
    erased = 0
    # Inner tables first, so the symbols of a dead table are counted before it goes.
    tables = [op for op in table.walk() if op.has_trait(SymbolTable)]
    for nested in reversed(tables):
        for symbol in list(_symbols_of(nested).values()):
            if symbol not in live:
                symbol.drop_all_references()
                symbol.erase()
                erased += 1
    return erased


@register_pass("symbol-dce", opt_level=1, summary="Erase the symbols nothing live references.",
               statistics=(("num-dce", "symbols erased"),), op_traits=(SymbolTable,))
class SymbolDCE(Pass):
    def run(self, op: Operation, run) -> None:
        self.statistics["num-dce"] += erase_dead_symbols(op)
