"""duplicate-function-elimination: merge the functions that differ only in their names
(MLIR's DuplicateFunctionEliminationPass, on a module).

Two `func.func`s are duplicates when their attributes other than `sym_name` are equal
(type, visibility, argument and result attributes, discardable attributes) and their
bodies are structurally equivalent (`mlc.ir.core.structure`: the same ops on the same
values, names and locations aside). Declarations are never duplicates. Every function
of the module, nested modules included, is visited in walk order; the first of each
class of duplicates stays and the others are erased, public ones too, as MLIR does.
Every reference to an erased function anywhere in the module (calls, `func.constant`,
symbol references in arrays and dictionaries, `@f::@nested` paths) is renamed to the
one kept. As in MLIR, names are resolved per module-wide name, not per symbol table:
a duplicate in a nested module is renamed to a function the nested module may not
see, which the verifier then reports.
"""

from __future__ import annotations

from mlc.ir.core.attributes import ArrayAttr, Attribute, DictionaryAttr, StringAttr, SymbolRefAttr
from mlc.ir.core.ir import Operation
from mlc.ir.core.structure import regions_structure
from mlc.ir.dialects.func import FuncOp
from mlc.ir.passes.registry import Pass, register_pass


def _renamed(attr: Attribute, old: str, new: str) -> Attribute:
    """`attr` with every symbol reference rooted at `@old` rooted at `@new` instead."""
    if isinstance(attr, SymbolRefAttr):
        return SymbolRefAttr(new, attr.nested) if attr.root == old else attr
    if isinstance(attr, ArrayAttr):
        elements = tuple(_renamed(e, old, new) for e in attr.elements)
        return attr if elements == attr.elements else ArrayAttr(elements)
    if isinstance(attr, DictionaryAttr):
        entries = tuple((k, _renamed(v, old, new)) for k, v in attr.entries)
        return attr if entries == attr.entries else DictionaryAttr(entries)
    return attr


def rename_symbol_uses(root: Operation, old: str, new: str) -> None:
    """Make every reference to symbol `@old` in `root` and the ops nested in it refer
    to `@new` (MLIR's SymbolTable::replaceAllSymbolUses from `root`)."""
    for op in root.walk():
        for attributes in (op.attributes, op.properties or {}):
            for name, value in attributes.items():
                attributes[name] = _renamed(value, old, new)


def _duplicate_key(func: Operation) -> tuple | None:
    """Equal for two functions exactly when they are duplicates; None for a
    declaration, which duplicates nothing."""
    if not func.regions or not func.regions[0].blocks:
        return None
    attributes = tuple(sorted((k, v) for k, v in func.attributes.items() if k != "sym_name"))
    return attributes, regions_structure(func.regions)


def _sym_name(func: Operation) -> str:
    name = func.attributes["sym_name"]
    assert isinstance(name, StringAttr)
    return name.value


def eliminate_duplicate_functions(module: Operation) -> int:
    """Erase the duplicate functions of `module`, renaming their uses to the function
    kept (see the module docstring); how many were erased."""
    kept: dict[tuple, Operation] = {}
    representative: dict[str, Operation] = {}
    duplicates: list[Operation] = []
    for op in module.walk(post_order=True):
        if not isinstance(op, FuncOp):
            continue
        key = _duplicate_key(op)
        first = op if key is None else kept.setdefault(key, op)
        representative[_sym_name(op)] = first
        if first is not op:
            duplicates.append(op)
    for func in duplicates:
        rename_symbol_uses(module, _sym_name(func), _sym_name(representative[_sym_name(func)]))
        func.drop_all_references()
        func.erase()
    return len(duplicates)


@register_pass("duplicate-function-elimination", anchor="builtin.module",
               summary="Deduplicate functions",
               statistics=(("num-duplicates", "functions erased"),))
class DuplicateFunctionElimination(Pass):
    def run(self, op: Operation, run) -> None:
        self.statistics["num-duplicates"] += eliminate_duplicate_functions(op)
