"""Printing IR as MLIR text, in generic or custom form.

Printing is iterative: an op's text is a list of strings and markers for its regions,
and a driver loop expands markers with an explicit stack, so nesting depth is not
bounded by Python's recursion. Value names come from a pre-pass in print order:
name hints (`%x`, made unique with `_N`), else `%0, %1, ...`, with entry block
arguments named `%argN`; numbering restarts inside ops isolated from above and
resumes after a nested region, as in MLIR.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mlc.ir.core.affine_map import AffineMapAttr, IntegerSetAttr
from mlc.ir.core.attribute_walk import SCALAR_KINDS, contains_kind, walk_attributes
from mlc.ir.core.attributes import (
    AsmWriter,
    Attribute,
    Location,
    Type,
    escape_string,
    unit,
    unknown_loc,
    write_attr_entries,
    write_symbol_name,
)
from mlc.ir.core.gc_pause import gc_paused
from mlc.ir.core.ir import Block, BlockArgument, IRError, Operation, Region, Value
from mlc.ir.opdef.traits import IsolatedFromAbove, IsTerminator, NoTerminator, SingleBlock
from mlc.ir.text.format import op_printer

HEX_IF_LARGER = 100
"""mlir-opt's default: dense constants of more elements print as one hex string."""


@dataclass(frozen=True)
class PrintOptions:
    """How to print: generic form, locations, eliding/hex for large constants (None:
    never), and whether to use `#map` aliases. The defaults are mlc-opt's (and
    mlir-opt's)."""

    generic: bool = False
    debuginfo: bool = False
    elide_large_elements: int | None = None
    hex_if_larger: int | None = HEX_IF_LARGER
    local_scope: bool = False  # spell affine maps and sets out instead of `#map` aliases


class _RegionMarker:
    __slots__ = ("region", "indent", "print_entry_args", "print_terminators")

    def __init__(self, region: Region, indent: int, print_entry_args: bool,
                 print_terminators: bool = True):
        self.region = region
        self.indent = indent
        self.print_entry_args = print_entry_args
        self.print_terminators = print_terminators


class _OpMarker:
    __slots__ = ("op", "indent")

    def __init__(self, op: Operation, indent: int):
        self.op = op
        self.indent = indent


def _implicit_block(region: Region) -> bool:
    op = region.parent
    op_def = op.op_def if op is not None else None
    return op_def is not None and SingleBlock in op_def.trait_set and NoTerminator in op_def.trait_set


def _result_name_segments(op: Operation, generic: bool) -> tuple[list[tuple[str, int]], bool] | None:
    """How an op's results are named, as MLIR names them: (name, count) segments, a
    segment of several results printed `%name:count`, and whether the op gave the
    names. Results named in the input keep their names (consecutive ones named alike,
    `%x:2`, stay a group); else, in custom form, the op's own name for them
    (`asm_result_name`: `%c0_i32`), or for a declared op with several result groups the
    groups' declared names (`%low, %high`, `%sizes:2`); None: numbered."""
    results = op.results
    hints = [r.name_hint for r in results]
    if all(hints):
        segments: list[list] = []
        for hint in hints:
            if segments and segments[-1][0] == hint:
                segments[-1][1] += 1
            else:
                segments.append([hint, 1])
        return [(name, count) for name, count in segments], False
    if hints[0]:
        return [(hints[0], len(results))], False
    if generic:
        return None
    if op.asm_result_name is not None:
        return [(op.asm_result_name(), len(results))], True
    op_def = op.op_def
    if op_def is None or len(op_def.results) < 2:
        return None
    try:
        sizes = [op_def.result_segment(op, i)[1] for i in range(len(op_def.results))]
    except IRError:  # an op not (yet) verified: no names rather than no printing
        return None
    if sum(sizes) != len(results):
        return None
    return [(d.name, size) for d, size in zip(op_def.results, sizes) if size], True


_NAME_CHARACTERS = re.compile(r"[^A-Za-z0-9_$.-]")


def sanitize_name(hint: str) -> str:
    """`hint` as a value name the parser reads back, as MLIR's sanitizeIdentifier
    makes it: characters outside [A-Za-z0-9_$.-] become `_`, and a name that begins
    with a digit but is not a number (`0.weight`, a state-dict key) gets a leading `_`."""
    name = _NAME_CHARACTERS.sub("_", hint)
    if name[:1].isdigit() and not name.isdigit():
        name = "_" + name
    return name


def _is_isolated(op: Operation) -> bool:
    op_def = op.op_def
    return op_def is not None and IsolatedFromAbove in op_def.trait_set


# Two spaces per level, as MLIR indents, up to this depth; deeper ops stay at this
# column, so text grows linearly with nesting depth (30,000 nested regions would
# otherwise print 1.8 GB of spaces).
MAX_INDENT_LEVELS = 64
_INDENTS = tuple("  " * level for level in range(MAX_INDENT_LEVELS + 1))


def indentation(level: int) -> str:
    """The indentation of nesting `level`: two spaces a level, up to MAX_INDENT_LEVELS
    (shared by every writer of nested text, so all stay linear in nesting depth)."""
    return _INDENTS[level] if level <= MAX_INDENT_LEVELS else _INDENTS[MAX_INDENT_LEVELS]


class Printer:
    """Renders ops; formats and directives call its element methods."""

    def __init__(self, options: PrintOptions = PrintOptions(), resources: dict | None = None):
        self.options = options
        self.parts: list = []
        self.names: dict[Value, str] = {}
        # How an op with several results names them: `%0:2`, `%low, %high`.
        self.result_lists: dict[Operation, str] = {}
        self.block_names: dict[Block, str] = {}
        self.block_index: dict[Block, int] = {}
        self.type_cache: dict[Type, str] = {}
        self.indent = 0
        self.used_resources: dict[str, None] = {}
        self.resources = resources or {}
        self._custom_names: dict[tuple[type, str | None], str] = {}
        self.aliases: dict[Attribute, str] | None = None

    # ---------------------------------------------------------------- naming

    def assign_names(self, root: Operation) -> None:
        names = self.names
        generic = self.options.generic  # MLIR's generic form does not ask ops for names
        used: set[str] = set()
        undo: list[str] = []
        # Next value number, next argument number, next suffix for a name an op gave
        # that is taken already: one counter for all of those, as MLIR numbers them
        # (%c0_i32_0, then %cst_1). A name from the input that is taken gets its own
        # suffixes instead, so printing what was parsed gives the same names again.
        counters = [0, 0, 0]

        def unique(hint: str, op_given: bool = False) -> str:
            hint = sanitize_name(hint)
            candidate = hint
            suffix = 0
            while candidate in used:
                if op_given:
                    candidate = f"{hint}_{counters[2]}"
                    counters[2] += 1
                else:
                    candidate = f"{hint}_{suffix}"
                    suffix += 1
            used.add(candidate)
            undo.append(candidate)
            return candidate

        def name_args(block: Block, is_entry: bool) -> None:
            for arg in block.args:
                hint = arg.name_hint
                if hint:
                    names[arg] = "%" + unique(hint)
                elif is_entry:
                    names[arg] = f"%arg{counters[1]}"
                    counters[1] += 1
                else:
                    names[arg] = f"%{counters[0]}"
                    counters[0] += 1

        def name_results(op: Operation) -> None:
            results = op.results
            named = _result_name_segments(op, generic)
            if named is None:  # numbered, all results one group
                segments = [(str(counters[0]), len(results))]
                counters[0] += 1
            else:
                segments, op_given = named
                segments = [(unique(name, op_given), count) for name, count in segments]
            lhs = []
            first = 0
            for base, count in segments:
                if count == 1:
                    names[results[first]] = "%" + base
                    lhs.append("%" + base)
                else:
                    for i in range(count):
                        names[results[first + i]] = f"%{base}#{i}"
                    lhs.append(f"%{base}:{count}")
                first += count
            if len(results) > 1:
                self.result_lists[op] = ", ".join(lhs)

        # As MLIR's SSANameState: a region's values are numbered before those of the
        # regions nested in it, each of which starts from the numbers the enclosing
        # region reached (so sibling regions reuse them).
        stack: list = []

        def push_regions(op: Operation) -> None:
            isolated = _is_isolated(op)
            for region in op.regions:  # popped last first, as MLIR's worklist
                stack.append(("exit", tuple(counters), len(undo), isolated, used))
                stack.append(("region", region, isolated))

        if root.results:
            name_results(root)
        push_regions(root)
        while stack:
            item = stack.pop()
            kind = item[0]
            if kind == "region":
                region, isolated = item[1], item[2]
                if isolated:
                    counters[0] = counters[1] = counters[2] = 0
                    used = set()
                nested: list[Operation] = []
                for index, block in enumerate(region.blocks):
                    self.block_names[block] = f"^bb{index}"
                    self.block_index[block] = index
                    name_args(block, index == 0)
                    for op in block.ops():
                        if op.results:
                            name_results(op)
                        if op.regions:
                            nested.append(op)
                for op in nested:
                    push_regions(op)
            else:  # exit a region: restore the enclosing numbering and names
                _, outer_counters, undo_len, isolated, outer_used = item
                counters[0], counters[1] = outer_counters[0], outer_counters[1]
                if isolated:
                    counters[2] = outer_counters[2]
                if isolated:
                    used = outer_used
                del_names = undo[undo_len:]
                del undo[undo_len:]
                if not isolated:
                    for name in del_names:
                        used.discard(name)

    # ---------------------------------------------------------------- driver

    def print_op(self, root: Operation) -> str:
        with gc_paused():
            return self._print_op(root)

    def op_text(self, op: Operation) -> str:
        """`op` alone (regions included), with the names `assign_names` gave them (called
        on an op enclosing it), as a message quotes an op."""
        with gc_paused():
            out: list[str] = []
            self._render(op, out)
            return "".join(out)

    def _print_op(self, root: Operation) -> str:
        self.assign_names(root)
        out: list[str] = []
        if not self.options.local_scope:
            self.aliases = attribute_aliases(root, self.options)
            out.extend(f"{name} = {attr}\n" for attr, name in self.aliases.items())
        self._render(root, out)
        out.append("\n")
        if self.used_resources:
            out.append(self._resource_section())
        return "".join(out)

    def _render(self, root: Operation, out: list[str]) -> None:
        stack = [iter([_OpMarker(root, 0)])]
        expand_op = self._op_parts
        expand_region = self._region_parts
        while stack:
            for part in stack[-1]:
                if part.__class__ is str:
                    out.append(part)
                elif part.__class__ is _OpMarker:
                    op = part.op
                    if not op.regions:  # nothing to expand later: write it in place
                        expand_op(op, part.indent, out)
                        continue
                    stack.append(iter(expand_op(op, part.indent, [])))
                    break
                else:
                    stack.append(iter(expand_region(part)))
                    break
            else:
                stack.pop()

    def _resource_section(self) -> str:
        lines = ["", "{-#", "  dialect_resources: {", "    builtin: {"]  # after a blank line, as MLIR
        entries = []
        for handle in self.used_resources:
            blob = self.resources.get(handle)
            if blob is None:
                continue
            alignment, data = blob
            key = handle if handle.replace("_", "a").replace(".", "a").isalnum() else f'"{handle}"'
            entries.append(f'      {key}: "0x{alignment.to_bytes(4, "little").hex().upper()}'
                           f'{data.hex().upper()}"')
        if not entries:
            return ""
        lines.append(",\n".join(entries))
        lines += ["    }", "  }", "#-}", "", ""]
        return "\n".join(lines)

    def _op_parts(self, op: Operation, indent: int, parts: list) -> list:
        """Append the op's text to `parts` (region markers stand for its regions)."""
        self.parts = parts
        parts.append(indentation(indent))
        self.indent = indent
        results = op.results
        if results:
            parts.append((self.result_lists[op] if len(results) > 1 else self.names[results[0]])
                         + " = ")
        op_def = op.op_def
        custom = op_printer(op.__class__) if op_def is not None and not self.options.generic \
            else None
        if custom is not None:
            parts.append(self._custom_name(op))
            custom(op, self)
        else:
            self._generic_body(op)
        if self.options.debuginfo:
            self.parts.append(" ")
            self.parts.append(self._attr_text(op.loc))
        return self.parts

    def _custom_name(self, op: Operation) -> str:
        """The op's name without its dialect where the enclosing op's default dialect
        (`builtin` at the top level) is the op's, as MLIR prints it."""
        parent = op.parent_op
        key = (op.__class__, getattr(parent, "default_dialect", None) if parent is not None
               else "builtin")
        name = self._custom_names.get(key)
        if name is None:
            op_def = op.op_def
            if key[1] == op_def.dialect_name:
                name = op_def.short_name
            else:
                name = op_def.name
            self._custom_names[key] = name
        return name

    def _generic_body(self, op: Operation) -> None:
        w = self.parts.append
        w('"')
        w(escape_string(op.name))
        w('"(')
        self.value_list(op.operands)
        w(")")
        if op.successors:
            w("[")
            w(", ".join(self.block_names.get(b, "^<unknown>") for b in op.successors))
            w("]")
        op_def = op.op_def
        attrs = op.attributes
        if attrs:
            if op_def is not None:
                inherent = op_def.attributes
                props = sorted((k, v) for k, v in attrs.items()
                               if k in inherent or k in ("operandSegmentSizes", "resultSegmentSizes"))
                rest = sorted((k, v) for k, v in attrs.items()
                              if not (k in inherent or k in ("operandSegmentSizes", "resultSegmentSizes")))
            else:
                props, rest = [], sorted(attrs.items())
        else:
            props = rest = []
        if op.properties:
            props = sorted(op.properties.items())
        if props:
            w(" <")
            w(self._dict_text(props))
            w(">")
        if op.regions:
            w(" (")
            for i, region in enumerate(op.regions):
                if i:
                    w(", ")
                w(_RegionMarker(region, self.indent, True))
            w(")")
        if rest:
            w(" ")
            w(self._dict_text(rest))
        w(" : (")
        self.type_list(op.operand_types)
        w(") -> ")
        result_types = op.result_types
        if len(result_types) == 1 and not result_types[0].__class__.__name__ == "FunctionType":
            self.type(result_types[0])
        else:
            w("(")
            self.type_list(result_types)
            w(")")

    def _region_parts(self, marker: _RegionMarker) -> list:
        region, indent = marker.region, marker.indent
        parts: list = ["{\n"]
        blocks = region.blocks
        for index, block in enumerate(blocks):
            # An empty entry block needs its label to survive (except in a custom form
            # whose op makes its one block implicitly, like `module {}`).
            show_label = index > 0 or (block.args and marker.print_entry_args) or (
                block.first_op is None and not block.args and (
                    self.options.generic or not _implicit_block(marker.region)))
            if show_label:
                parts.append(indentation(indent))
                parts.append(self.block_names[block])
                if block.args:
                    parts.append("(")
                    for i, arg in enumerate(block.args):
                        if i:
                            parts.append(", ")
                        parts.append(self.names[arg])
                        parts.append(": ")
                        parts.append(self._type_text(arg.type))
                        if self.options.debuginfo:
                            parts.append(" " + self._attr_text(arg.loc or unknown_loc))
                    parts.append(")")
                parts.append(":")
                parts.append(self._predecessor_comment(block, index))
                parts.append("\n")
            # As MLIR, an elided terminator goes only in custom form.
            elided = None if marker.print_terminators or self.options.generic else block.last_op
            if elided is not None and not elided.has_trait(IsTerminator):
                elided = None
            for op in block.ops():
                if op is elided:
                    break
                parts.append(_OpMarker(op, indent + 1))
                parts.append("\n")
        parts.append(indentation(indent) + "}")
        return parts

    def _predecessor_comment(self, block: Block, index: int) -> str:
        """What MLIR's printer says after a block label about the edges into it:
        `// pred: ^bb0`, `// 2 preds: ^bb0, ^bb2` (in block order, an edge per
        successor slot), or `// no predecessors` for an unreachable block."""
        if not block.uses:
            return "" if index == 0 else "  // no predecessors"
        single = block.single_predecessor
        if single is not None:
            return "  // pred: " + self.block_names.get(single, "^<unknown>")
        order = self.block_index
        preds = sorted(block.predecessors, key=lambda b: order.get(b, len(order)))
        names = ", ".join(self.block_names.get(b, "^<unknown>") for b in preds)
        return f"  // {len(preds)} preds: {names}"

    # ---------------------------------------------------------------- element API

    def write(self, text: str) -> None:
        self.parts.append(text)

    def inline_op(self, op: Operation) -> None:
        """`op` written in place, on the current line, without its result names (a
        custom form holding one op whose results are its own, as `vector.mask { op }`)."""
        parts, indent = self.parts, self.indent
        inner: list[str] = []
        self._render(op, inner)
        self.parts, self.indent = parts, indent
        if op.results:
            del inner[1]  # after the (empty) indentation: "%r = "
        parts.extend(inner)

    def newline(self) -> None:
        """A line break, then the indentation of the op being printed (MLIR's
        printNewline), for custom forms that span lines."""
        self.parts.append("\n" + indentation(self.indent))

    def value(self, value: Value) -> None:
        self.parts.append(self.names.get(value) or "%<<UNKNOWN SSA VALUE>>")

    def value_list(self, values) -> None:
        names = self.names
        self.parts.append(", ".join(names.get(v) or "%<<UNKNOWN SSA VALUE>>" for v in values))

    def _type_text(self, type_: Type) -> str:
        text = self.type_cache.get(type_)
        if text is None:
            w = AsmWriter(used_resources=self.used_resources, aliases=self.aliases)
            type_.write(w)
            text = self.type_cache[type_] = w.text()
        return text

    def type(self, type_: Type) -> None:
        self.parts.append(self._type_text(type_))

    def type_list(self, types) -> None:
        text = self._type_text
        self.parts.append(", ".join(text(t) for t in types))

    def _attr_text(self, attr: Attribute) -> str:
        w = AsmWriter(self.options.elide_large_elements, self.options.hex_if_larger,
                      self.used_resources, self.aliases)
        attr.write(w)
        return w.text()

    def _dict_text(self, entries) -> str:
        w = AsmWriter(self.options.elide_large_elements, self.options.hex_if_larger,
                      self.used_resources, self.aliases)
        w.write("{")
        write_attr_entries(w, entries)
        w.write("}")
        return w.text()

    def attr(self, attr: Attribute) -> None:
        self.parts.append(self._attr_text(attr))

    def dialect_body(self, attr: Attribute) -> None:
        """A dialect type's or attribute's body without its name (`<fast>`)."""
        w = AsmWriter(used_resources=self.used_resources, aliases=self.aliases)
        w.dialect_body(attr)
        self.parts.append(w.text())

    def keyword(self, word: str) -> None:
        self.parts.append(word)

    def symbol_name(self, name: str) -> None:
        """`@name`, quoted when it is not a bare identifier."""
        w = AsmWriter()
        write_symbol_name(w, name)
        self.parts.append(w.text())

    def attr_dict(self, op: Operation, elided: set[str], keyword: bool = False,
                  elide_defaults: bool = True) -> None:
        """`{...}` (` attributes {...}` with `keyword`) of the attributes not `elided`,
        and unless `elide_defaults`, of those equal to their declared default too (as
        MLIR's hand-written printers, which do not look at defaults)."""
        op_def = op.op_def
        defaults = op_def.attributes if op_def is not None and elide_defaults else {}
        entries = []
        for name, value in op.attributes.items():
            if name in elided:
                continue
            definition = defaults.get(name)
            if definition is not None and definition.default is not None and value == definition.default:
                continue
            entries.append((name, value))
        if not entries:
            return
        entries.sort(key=lambda kv: kv[0])
        self.parts.append(" attributes " if keyword else " ")
        self.parts.append(self._dict_text(entries))

    def region(self, region: Region, print_entry_args: bool = True,
               print_terminators: bool = True) -> None:
        """`region` in braces; without its entry block's arguments or its blocks'
        terminators when the op's custom form implies them (as `scf.for` does)."""
        self.parts.append(_RegionMarker(region, self.indent, print_entry_args,
                                        print_terminators))

    def successor(self, block: Block) -> None:
        self.parts.append(self.block_names.get(block, "^<unknown>"))

    def successor_list(self, blocks) -> None:
        names = self.block_names
        self.parts.append(", ".join(names.get(b, "^<unknown>") for b in blocks))

    def block_arg_loc(self, arg: BlockArgument) -> None:
        if self.options.debuginfo:
            self.parts.append(" " + self._attr_text(arg.loc or unknown_loc))


# ---------------------------------------------------------------- aliases

_ALIASED = (AffineMapAttr, IntegerSetAttr)


def attribute_aliases(root: Operation, options: PrintOptions) -> dict[Attribute, str]:
    """The alias of each affine map (`#map`, `#map1`, ...) and integer set (`#set`, ...)
    that the text of `root` uses, maps first, as mlir-opt names them: numbered in the
    order its printer meets them. That order is the print order of a custom form; a
    generic form is met regions first, then operand types, result types and the
    attributes by name (an unregistered op's properties are not looked into, so a map
    only there stays spelled out). Maps nested in arrays, dictionaries, types and
    dialect attributes count; an identity memref layout is already gone.

    One walk in print order; an op whose attributes and types hold no map or set only
    has its regions walked, so this costs little when there are none."""
    collector = _AliasCollector(options)
    memo: dict[int, bool] = {}
    found: dict[Attribute, None] = {}
    seen: set = set()
    stack: list = [root]
    while stack:
        item = stack.pop()
        cls = item.__class__
        if cls is _Visit:
            for value in walk_attributes(item.value, seen):
                if value.__class__ in _ALIASED:
                    found[value] = None
        elif cls is _RegionMarker:
            for index in range(len(item.region.blocks) - 1, -1, -1):
                block = item.region.blocks[index]
                stack.extend(block.ops_reversed())
                if index or item.print_entry_args:
                    stack.extend(_Visit(arg.type) for arg in reversed(block.args))
        elif _holds_aliased(item, memo):
            stack.extend(reversed(collector.visits(item)))
        else:
            stack.extend(_RegionMarker(region, 0, False) for region in reversed(item.regions))
    names: dict[Attribute, str] = {}
    for prefix, kind in (("#map", AffineMapAttr), ("#set", IntegerSetAttr)):
        count = 0
        for attr in found:
            if attr.__class__ is kind:
                names[attr] = f"{prefix}{count}" if count else prefix
                count += 1
    return names


def _holds_aliased(op: Operation, memo: dict[int, bool],
                   contains=contains_kind, kinds=_ALIASED, scalars=SCALAR_KINDS) -> bool:
    """Whether the attributes or types `op` prints (its entry blocks' argument types
    included) hold a map or set."""
    for value in op.attributes.values():
        if value.__class__ not in scalars and contains(value, kinds, memo):
            return True
    for use in op.op_operands:
        type_ = use.value.type
        if type_.__class__ not in scalars and contains(type_, kinds, memo):
            return True
    for value in op.results:
        if value.type.__class__ not in scalars and contains(value.type, kinds, memo):
            return True
    for region in op.regions:
        if region.blocks and any(contains(a.type, kinds, memo) for a in region.blocks[0].args):
            return True
    return False


class _Visit:
    __slots__ = ("value",)

    def __init__(self, value: Attribute):
        self.value = value


class _AliasCollector(Printer):
    """Runs an op's printing, but instead of text, records the attributes and types it
    would print as `_Visit`s, in order with its region markers."""

    def visits(self, op: Operation) -> list:
        """What printing `op` meets, in MLIR's order: `_Visit`s and region markers."""
        self.parts = parts = []
        op_def = op.op_def
        custom = op_printer(op.__class__) if op_def is not None and not self.options.generic \
            else None
        if custom is not None:
            custom(op, self)
        else:
            parts.extend(_RegionMarker(region, 0, True) for region in op.regions)
            parts.extend(_Visit(t) for t in op.operand_types)
            parts.extend(_Visit(t) for t in op.result_types)
            parts.extend(_Visit(value) for _, value in sorted(op.attributes.items()))
        return [p for p in parts if p.__class__ is not str]

    def _visit_part(self, value: Attribute) -> str:
        self.parts.append(_Visit(value))
        return ""

    _type_text = _attr_text = _visit_part

    def _dict_text(self, entries) -> str:
        self.parts.extend(_Visit(value) for _, value in entries)
        return ""

    def dialect_body(self, attr: Attribute) -> None:
        self.parts.append(_Visit(attr))


def print_op(op: Operation, options: PrintOptions = PrintOptions(), resources: dict | None = None) -> str:
    """The text of `op` (usually a module), ending in a newline."""
    return Printer(options, resources).print_op(op)


__all__ = ["PrintOptions", "Printer", "print_op", "Location", "unit"]
