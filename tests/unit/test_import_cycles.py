"""No import cycles at module level between the modules of the mlc packages.

The graph is read from the sources (ast), not from an interpreter's import: an edge
A -> B for every `import B` / `from B import x` among A's top-level statements (those
under `if TYPE_CHECKING:` excepted: they never run). `from P import m` where `P.m` is
a module is an edge to `P.m`. Imports inside functions are lazy and not edges.
Importing `a.b.c` first runs the `__init__` of `a` and `a.b`: those are edges too,
except to the importer's own ancestors (whose import is already under way). A package
does not depend on its submodules by being their parent: only its `__init__`'s own
imports count.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE_ROOTS = sorted([*ROOT.glob("packages/*/src"), ROOT / "tools" / "src"])


def _module_files() -> dict[str, Path]:
    """Every module of the mlc packages by its dotted name."""
    modules = {}
    for source_root in SOURCE_ROOTS:
        for path in sorted((source_root / "mlc").rglob("*.py")):
            parts = list(path.relative_to(source_root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _is_type_checking_block(node: ast.stmt) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _top_level_imports(tree: ast.Module):
    """The import statements that run when the module is imported: its top level and
    the bodies of top-level `if`/`try`/`with` blocks (not functions or classes)."""
    pending = list(tree.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.If, ast.Try, ast.With)) and not _is_type_checking_block(node):
            for field in ("body", "orelse", "finalbody", "handlers"):
                pending.extend(getattr(node, field, []))
        elif isinstance(node, ast.ExceptHandler):
            pending.extend(node.body)


def _with_ancestors(target: str, importer: str, modules) -> list[str]:
    """`target` and the packages whose `__init__` importing it runs first (those that
    are not ancestors of `importer`)."""
    parts = target.split(".")
    own = {".".join(importer.split(".")[:i]) for i in range(1, importer.count(".") + 2)}
    found = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return [m for m in found if m in modules and m not in own]


def import_graph() -> dict[str, set[str]]:
    """Module name -> the mlc modules it imports at module level."""
    modules = _module_files()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        package = name if is_package else name.rpartition(".")[0]
        edges = graph[name] = set()
        for node in _top_level_imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[:len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            for target in targets:
                edges.update(_with_ancestors(target, name, modules))
        edges.discard(name)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def visit(start: str) -> None:
        # Iterative, so deep import chains cannot hit the recursion limit.
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return cycles


def test_the_graph_sees_the_packages_and_their_imports():
    graph = import_graph()
    assert {"mlc.ir", "mlc.ir.interpreter", "mlc.loop", "mlc.graph", "mlc.llvm"} <= graph.keys()
    assert "mlc.ir.core.ir" in graph["mlc.ir.interpreter"]


def test_the_cycle_finder_finds_a_cycle_and_only_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles(graph) == [["a", "b", "c"]]


def test_no_module_level_import_cycles():
    cycles = import_cycles(import_graph())
    assert not cycles, "module-level import cycles:\n" + "\n".join(
        " <-> ".join(cycle) for cycle in cycles)
