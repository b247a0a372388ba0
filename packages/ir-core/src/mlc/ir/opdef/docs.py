"""The op reference, generated from op declarations (`mlc-opt --list-ops`, and the
markdown docs that live beside each dialect)."""

from __future__ import annotations

import inspect
import re

from mlc.ir.core.dialect_registry import Dialect


def list_ops(dialects: list[Dialect]) -> str:
    """One line per op: name and summary, grouped by dialect."""
    lines = []
    for dialect in sorted(dialects, key=lambda d: d.name):
        lines.append(f"{dialect.name}: {dialect.summary}")
        width = max((len(n) for n in dialect.ops), default=0)
        for name, cls in sorted(dialect.ops.items()):
            lines.append(f"  {name.ljust(width)}  {cls.op_def.summary}")
    return "\n".join(lines) + "\n"


def dialect_markdown(dialect: Dialect) -> str:
    """A markdown reference of every op in `dialect`."""
    out = [f"# The `{dialect.name}` dialect", "", dialect.summary, "",
           "_Generated from the op declarations by `mlc-opt --op-docs "
           f"{dialect.name}`; do not edit._", ""]
    for name, cls in sorted(dialect.ops.items()):
        d = cls.op_def
        out += [f"## `{name}`", "", d.summary, ""]
        if d.description:
            out += [d.description, ""]
        if d.assembly_format:
            out += ["Syntax:", "", "```", f"{name} {d.assembly_format}", "```", ""]
        elif d.custom_parse:
            spelled = re.search(r"`([^`]+)`", inspect.getdoc(cls.parse) or "")
            if spelled is not None:
                out += ["Syntax (parsed and printed by the op's own code):", "", "```",
                        spelled.group(1), "```", ""]
        rows = []
        for operand in d.operands:
            rows.append(f"| operand | `{operand.name}` | {operand.describe()} | {operand.doc} |")
        for result in d.results:
            rows.append(f"| result | `{result.name}` | {result.describe()} | {result.doc} |")
        for attr in d.attributes.values():
            extra = f"default `{attr.default}`" if attr.default is not None else \
                "optional" if attr.optional else "required"
            rows.append(f"| attribute | `{attr.name}` | {attr.constraint.summary} ({extra}) | "
                        f"{attr.doc} |")
        for region in d.regions:
            shape = "single block" if region.single_block else "any"
            if region.variadic:
                shape = f"variadic, {shape}"
            rows.append(f"| region | `{region.name}` | {shape} | {region.doc} |")
        for successor in d.successors:
            rows.append(f"| successor | `{successor.name}` | "
                        f"{'variadic' if successor.variadic else 'one block'} | {successor.doc} |")
        if rows:
            out += ["| kind | name | constraint | notes |", "|---|---|---|---|", *rows, ""]
        if d.declared_traits:
            out += ["Traits: " + ", ".join(f"`{t}`" for t in d.declared_traits), ""]
        # A dialect states facts the generic declaration has no field for (the graph
        # dialect's fusion pattern kind) through an optional `doc_facts()` hook.
        doc_facts = getattr(cls, "doc_facts", None)
        if doc_facts is not None:
            for fact in doc_facts():
                out += [fact, ""]
    for sigil, kind, classes in (("!", "Types", dialect.types), ("#", "Attributes",
                                                                   dialect.attributes)):
        if not classes:
            continue
        out += [f"## {kind}", ""]
        for name, cls in sorted(classes.items()):
            doc = inspect.cleandoc(cls.__doc__ or "")
            out += [f"### `{sigil}{name}`", "", " ".join(doc.split("\n\n")[0].split()), ""]
            fmt = getattr(cls, "assembly_format", None)
            if fmt:
                out += ["Syntax:", "", "```", f"{sigil}{name} {fmt}", "```", ""]
            params = getattr(cls, "parameters", ())
            if params:
                out += ["| parameter | spelling | default |", "|---|---|---|"]
                out += [f"| `{p.name}` | {type(p.spelling).__name__.removesuffix('Spelling').lower()} "
                        f"| {'' if p.default is None else f'`{p.default}`'} |" for p in params]
                out.append("")
    return "\n".join(out).rstrip() + "\n"
