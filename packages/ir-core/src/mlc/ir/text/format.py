"""Compiling an op's `assembly_format` (MLIR's ODS format language) into a grammar
rule, a builder and a printer.

The language, as in MLIR: `$name` (an operand, result, attribute, region or
successor), backtick literals (`` `,` ``, `` `to` ``; ``` `` ``` suppresses a space),
`type(...)`, `functional-type(inputs, results)`, `attr-dict`,
`attr-dict-with-keyword`, `operands`, `results`, optional groups `( ... )?` whose
anchor `^` decides whether the group is printed, and named custom directives
`custom<Name>(...)` for the few shapes a format cannot say (see
:mod:`mlc.ir.text.directives`).

A compiled format yields:

- the lark rules for the op (`op_N: OP_N elements...`; each optional group becomes a
  sub-rule used as `[op_N_gK]`, so every element that carries a value sits at a fixed
  position in the callback's children);
- `build(children)`: operands, result types, attributes, regions and successors, with
  operand and result types resolved from type directives, type-equality traits, fixed
  types, or the op's `infer_result_types`;
- `print(op, printer)`: the op's text after its name, with MLIR's spacing rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mlc.ir.core.attributes import (
    Attribute,
    DenseArrayAttr,
    FunctionType,
    Type,
    i32,
    unit,
)
from mlc.ir.core.ir import Region
from mlc.ir.opdef.declare import AttrDef, OpDef, OperandDef, RegionDef, ResultDef, SuccessorDef
from mlc.ir.opdef.traits import AllTypesMatch, SameOperandsAndResultType, SameTypeOperands

if TYPE_CHECKING:
    from mlc.ir.text.printer import Printer


class FormatError(Exception):
    """An assembly format that cannot be compiled (a bug in an op declaration)."""


class BuildError(Exception):
    """Input that matches the grammar but not the op (wrong types, counts...)."""

    def __init__(self, message: str, pos: int | None = None):
        super().__init__(message)
        self.message = message
        self.pos = pos


# ------------------------------------------------------------------ format AST


@dataclass
class Literal:
    text: str


@dataclass
class Var:
    definition: Any  # OperandDef | ResultDef | AttrDef | RegionDef | SuccessorDef

    @property
    def name(self) -> str:
        return self.definition.name


@dataclass
class AllOperands:
    pass


@dataclass
class AllResults:
    pass


@dataclass
class TypeDirective:
    target: Var | AllOperands | AllResults


@dataclass
class FunctionalType:
    inputs: Var | AllOperands
    results: Var | AllResults


@dataclass
class AttrDict:
    with_keyword: bool


@dataclass
class Custom:
    directive: Any
    params: list[Var]


@dataclass
class Group:
    elements: list
    anchor: Any = None


_TOKEN_RE = re.compile(r"\s*(?:(?P<var>\$[A-Za-z_]\w*)|`(?P<lit>[^`]*)`|(?P<punct>[()?^,:<>])"
                       r"|(?P<word>[A-Za-z_][\w-]*))")


def _tokenize(fmt: str) -> list[tuple[str, str]]:
    tokens = []
    pos = 0
    fmt = fmt.strip()
    while pos < len(fmt):
        m = _TOKEN_RE.match(fmt, pos)
        if m is None or m.end() == pos:
            raise FormatError(f"cannot read format at {fmt[pos:]!r}")
        kind = m.lastgroup
        tokens.append((kind, m.group(kind)))
        pos = m.end()
        while pos < len(fmt) and fmt[pos].isspace():
            pos += 1
    return tokens


class _FormatReader:
    def __init__(self, op_def: OpDef, fmt: str):
        self.op_def = op_def
        self.tokens = _tokenize(fmt)
        self.pos = 0
        self.by_name: dict[str, Any] = {}
        for group in (op_def.operands, op_def.results, op_def.regions, op_def.successors):
            for definition in group:
                self.by_name[definition.name] = definition
        self.by_name.update(op_def.attributes)

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, kind: str | None = None, value: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None or (kind and tok[0] != kind) or (value and tok[1] != value):
            raise FormatError(f"'{self.op_def.name}' format: expected {value or kind}, got {tok}")
        self.pos += 1
        return tok

    def elements(self, until: str | None = None) -> list:
        out = []
        while True:
            tok = self.peek()
            if tok is None or (until and tok == ("punct", until)):
                return out
            out.append(self.element())

    def var(self) -> Var:
        _, text = self.take("var")
        definition = self.by_name.get(text[1:])
        if definition is None:
            raise FormatError(f"'{self.op_def.name}' format: no operand, result, attribute, "
                              f"region or successor named {text!r}")
        return Var(definition)

    def ref(self):
        tok = self.peek()
        if tok == ("word", "operands"):
            self.pos += 1
            return AllOperands()
        if tok == ("word", "results"):
            self.pos += 1
            return AllResults()
        return self.var()

    def element(self):
        kind, text = self.take()
        if kind == "lit":
            return Literal(text)
        if kind == "var":
            self.pos -= 1
            var = self.var()
            if self.peek() == ("punct", "^"):
                self.pos += 1
                return ("anchor", var)
            return var
        if kind == "word":
            if text == "type":
                self.take("punct", "(")
                target = self.ref()
                self.take("punct", ")")
                return self._maybe_anchor(TypeDirective(target))
            if text == "functional-type":
                self.take("punct", "(")
                inputs = self.ref()
                self.take("punct", ",")
                results = self.ref()
                self.take("punct", ")")
                return FunctionalType(inputs, results)
            if text in ("attr-dict", "attr-dict-with-keyword"):
                return AttrDict(text == "attr-dict-with-keyword")
            if text == "operands":
                return AllOperands()
            if text == "custom":
                from mlc.ir.text.directives import DIRECTIVES

                self.take("punct", "<")
                _, name = self.take("word")
                self.take("punct", ">")
                self.take("punct", "(")
                params = []
                while self.peek() != ("punct", ")"):
                    params.append(self.var())
                    if self.peek() == ("punct", ","):
                        self.pos += 1
                self.take("punct", ")")
                if name not in DIRECTIVES:
                    raise FormatError(f"'{self.op_def.name}' format: unknown custom directive {name!r}")
                return Custom(DIRECTIVES[name], params)
            raise FormatError(f"'{self.op_def.name}' format: unknown directive {text!r}")
        if (kind, text) == ("punct", "("):
            inner = self.elements(until=")")
            self.take("punct", ")")
            self.take("punct", "?")
            anchor = None
            cleaned = []
            for element in inner:
                if isinstance(element, tuple) and element[0] == "anchor":
                    anchor = element[1]
                    cleaned.append(element[1])
                else:
                    cleaned.append(element)
            if anchor is None:
                raise FormatError(f"'{self.op_def.name}' format: optional group without anchor")
            return Group(cleaned, anchor)
        raise FormatError(f"'{self.op_def.name}' format: unexpected {text!r}")

    def _maybe_anchor(self, element):
        if self.peek() == ("punct", "^"):
            self.pos += 1
            return ("anchor", element)
        return element


# ------------------------------------------------------------------ compilation


_KEYWORD_RE = re.compile(r"[A-Za-z_][\w$.]*\Z")


def _lark_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


_ATTR_GRAMMAR = {
    "attribute": "attribute",
    "symbol-name": "SYMBOL",
    "keyword": "BARE_ID",
    "enum": "BARE_ID",
    "stripped": "ATTR_BODY",
    "type": "type",
    "integer": "INT",
    "string": "STRING",
    "symbol-ref": "symbol_ref",
    "unit": None,
}


@dataclass
class CompiledFormat:
    """A compiled assembly format; see the module docstring."""

    op_def: OpDef
    elements: list
    rule_name: str = ""
    op_terminal: str = ""
    rules: list[str] = field(default_factory=list)
    used_attrs: set[str] = field(default_factory=set)
    _printer: Any = None

    # -- grammar -----------------------------------------------------------

    def grammar(self, index: int) -> tuple[str, str]:
        """(rule name, lark rules) for this op; `index` makes the names unique."""
        self.rule_name = f"op_{index}"
        self.op_terminal = f"OP_{index}"
        self.rules = []
        body = self._sequence(self.elements, self.rule_name)
        self.rules.insert(0, f"{self.rule_name}: {self.op_terminal} {body}")
        return self.rule_name, "\n".join(self.rules)

    def _sequence(self, elements: list, prefix: str) -> str:
        parts = []
        group_index = 0
        previous = None
        for element in elements:
            after_attr_dict, previous = isinstance(previous, AttrDict), element
            if isinstance(element, Group):
                name = f"{prefix}_g{group_index}"
                group_index += 1
                inner = self._sequence(element.elements, name)
                self.rules.append(f"{name}: {inner}")
                parts.append(f"[{name}]")
            else:
                part = self._element_grammar(element)
                if after_attr_dict and part == "attribute":
                    part = "attribute_no_dict"
                if part:
                    parts.append(part)
        return " ".join(parts)

    def _element_grammar(self, element) -> str:
        if isinstance(element, Literal):
            return _lark_literal(element.text) if element.text else ""
        if isinstance(element, Var):
            d = element.definition
            if isinstance(d, OperandDef):
                return "[value_use_list]" if d.variadic else "[VALUE_USE]" if d.optional else "VALUE_USE"
            if isinstance(d, AttrDef):
                grammar = _ATTR_GRAMMAR[d.constraint.syntax]
                if grammar is None:
                    return ""
                return f"[{grammar}]" if d.optional and not self._in_group(element) else grammar
            if isinstance(d, RegionDef):
                return "region"
            if isinstance(d, SuccessorDef):
                return "successor"
            raise FormatError(f"'{self.op_def.name}' format: results cannot be printed, only their types")
        if isinstance(element, TypeDirective):
            target = element.target
            if isinstance(target, (AllOperands, AllResults)) or target.definition.variadic:
                return "[type_list]"
            if target.definition.optional:
                return "[type]"
            return "type"
        if isinstance(element, FunctionalType):
            return "function_type"
        if isinstance(element, AttrDict):
            return "[attr_dict_kw]" if element.with_keyword else "[attr_dict]"
        if isinstance(element, AllOperands):
            return "[value_use_list]"
        if isinstance(element, Custom):
            return element.directive.grammar_rule
        raise FormatError(f"unsupported format element {element!r}")

    def _in_group(self, var: Var) -> bool:
        def contains(elements):
            for e in elements:
                if e is var:
                    return True
                if isinstance(e, Group) and contains(e.elements):
                    return True
            return False

        return any(isinstance(e, Group) and contains(e.elements) for e in self.elements)

    # -- building -------------------------------------------------------------

    def build(self, children: list, state: BuildState) -> None:
        """Fill `state` from the callback children of this op's rule (after OP_N)."""
        self._consume(self.elements, children, 0, state)

    def _consume(self, elements: list, children: list, index: int, state: BuildState) -> int:
        for element in elements:
            if isinstance(element, Literal):
                continue
            if isinstance(element, Group):
                child = children[index]
                index += 1
                if child is not None:
                    self._consume(element.elements, child, 0, state)
                    anchor = element.anchor
                    if isinstance(anchor, Var) and isinstance(anchor.definition, AttrDef) \
                            and anchor.definition.constraint.syntax == "unit":
                        state.attributes[anchor.name] = unit
                continue
            if isinstance(element, Var) and isinstance(element.definition, AttrDef) \
                    and element.definition.constraint.syntax == "unit":
                continue
            child = children[index]
            index += 1
            self._apply(element, child, state)
        return index

    def _apply(self, element, child, state: BuildState) -> None:
        if isinstance(element, Var):
            d = element.definition
            if isinstance(d, OperandDef):
                state.operands[d.index] = child if d.variadic else ([] if child is None else [child])
            elif isinstance(d, AttrDef):
                if child is not None:
                    from mlc.ir.text.format_codegen import convert_attr

                    state.attributes[d.name] = convert_attr(state.parser, d, child)
            elif isinstance(d, RegionDef):
                state.regions[d.index] = child
            elif isinstance(d, SuccessorDef):
                state.successors.append(child)
        elif isinstance(element, TypeDirective):
            types = child if isinstance(child, list) else [] if child is None else [child]
            state.set_types(element.target, types)
        elif isinstance(element, FunctionalType):
            state.set_types(element.inputs, list(child.inputs))
            state.set_types(element.results, list(child.results))
        elif isinstance(element, AttrDict):
            if child is not None:
                for name, value in child.entries:
                    state.attributes[name] = value
        elif isinstance(element, AllOperands):
            state.all_operands = child or []
        elif isinstance(element, Custom):
            element.directive.parse(child, element.params, state)

    # -- printing -------------------------------------------------------------

    def print(self, op, p: Printer) -> None:
        printer = self._printer
        if printer is None:
            from mlc.ir.text.format_codegen import generate_printer

            printer = self._printer = generate_printer(self) or self._print_generic
        printer(op, p)

    def _print_generic(self, op, p: Printer) -> None:
        spacing = _Spacing()
        self._print_elements(self.elements, op, p, spacing)

    def _print_elements(self, elements: list, op, p: Printer, spacing: _Spacing) -> None:
        for element in elements:
            if isinstance(element, Literal):
                spacing.literal(element.text, p)
            elif isinstance(element, Group):
                if self._group_present(element, op):
                    self._print_elements(element.elements, op, p, spacing)
            elif isinstance(element, AttrDict):
                p.attr_dict(op, self.used_attrs, keyword=element.with_keyword)
                spacing.after_element()
            else:
                if isinstance(element, Var) and isinstance(element.definition, AttrDef) \
                        and element.definition.constraint.syntax == "unit":
                    continue
                if isinstance(element, Var) and isinstance(element.definition, AttrDef) \
                        and element.definition.name not in op.attributes:
                    continue
                mark = len(p.parts)
                if not (isinstance(element, Custom) and not element.directive.space_before):
                    spacing.before_element(p)
                self._print_element(element, op, p)
                if len(p.parts) == mark + 1 and p.parts[-1] == " ":
                    p.parts.pop()  # the element printed nothing: no space for it either
                else:
                    spacing.after_element()

    def _group_present(self, group: Group, op) -> bool:
        anchor = group.anchor
        if isinstance(anchor, TypeDirective):
            anchor = anchor.target
        if isinstance(anchor, Var):
            d = anchor.definition
            if isinstance(d, (OperandDef, ResultDef)):
                value = getattr(op, d.name)
                return bool(value) if d.variadic else value is not None
            if isinstance(d, AttrDef):
                value = op.attributes.get(d.name)
                return value is not None and value != d.default
            if isinstance(d, RegionDef):
                return bool(op.regions[d.index].blocks)
        if isinstance(anchor, AllOperands):
            return bool(op.op_operands)
        return True

    def _print_element(self, element, op, p: Printer) -> None:
        if isinstance(element, Var):
            d = element.definition
            if isinstance(d, OperandDef):
                value = getattr(op, d.name)
                if d.variadic:
                    p.value_list(value)
                elif value is not None:
                    p.value(value)
            elif isinstance(d, AttrDef):
                p.attr_in_syntax(d, op.attributes[d.name])
            elif isinstance(d, RegionDef):
                p.region(op.regions[d.index])
            elif isinstance(d, SuccessorDef):
                p.successor(getattr(op, d.name))
        elif isinstance(element, TypeDirective):
            p.type_list(self._types(element.target, op))
        elif isinstance(element, FunctionalType):
            p.type(FunctionType(tuple(self._types(element.inputs, op)),
                                tuple(self._types(element.results, op))))
        elif isinstance(element, AllOperands):
            p.value_list(op.operands)
        elif isinstance(element, Custom):
            element.directive.print(op, element.params, p)

    @staticmethod
    def _types(target, op) -> list[Type]:
        if isinstance(target, AllOperands):
            return op.operand_types
        if isinstance(target, AllResults):
            return op.result_types
        d = target.definition
        value = getattr(op, d.name)
        if d.variadic:
            return [v.type for v in value]
        return [] if value is None else [value.type]


class _Spacing:
    """MLIR's rules for the spaces between format elements."""

    __slots__ = ("emit_space", "last_was_punct")

    def __init__(self):
        self.emit_space = True
        self.last_was_punct = False

    def literal(self, text: str, p: Printer) -> None:
        if not text:
            self.emit_space = False
            return
        if self.emit_space and _space_before(text, self.last_was_punct):
            p.write(" ")
        p.write(text)
        self.emit_space = len(text) != 1 or text not in "<({["
        self.last_was_punct = text[0] != "_" and not text[0].isalpha()

    def before_element(self, p: Printer) -> None:
        if self.emit_space:
            p.write(" ")

    def after_element(self) -> None:
        self.emit_space = True
        self.last_was_punct = False


def _space_before(text: str, last_was_punct: bool) -> bool:
    if len(text) != 1 and text != "->":
        return True
    if last_was_punct:
        return text[0] not in ">)}],"
    return text[0] not in "<>(){}[],"


# ------------------------------------------------------------------ build state


class BuildState:
    """What the parse of one custom-form op collected, and the checks that turn it
    into a well-typed op."""

    __slots__ = ("op_def", "operands", "operand_types", "result_types", "attributes",
                 "regions", "successors", "all_operands", "all_result_types", "parser", "pos",
                 "entry_args", "_pending_all_operand_types")

    def __init__(self, op_def: OpDef, parser, pos: int):
        self.op_def = op_def
        self.operands: list[list | None] = [None] * len(op_def.operands)
        self.operand_types: list[list[Type] | None] = [None] * len(op_def.operands)
        self.result_types: list[list[Type] | None] = [None] * len(op_def.results)
        self.attributes: dict[str, Attribute] = {}
        self.regions: list = [None] * len(op_def.regions)
        self.successors: list = []
        self.all_operands: list | None = None
        self.all_result_types: list[Type] | None = None
        self.parser = parser
        self.pos = pos
        self.entry_args = None
        self._pending_all_operand_types: list[Type] | None = None

    def set_types(self, target, types: list[Type]) -> None:
        if isinstance(target, AllOperands):
            self.all_operand_types(types)
        elif isinstance(target, AllResults):
            self.all_result_types = types
        elif isinstance(target.definition, OperandDef):
            self.operand_types[target.definition.index] = types
        else:
            self.result_types[target.definition.index] = types

    def _match_types(self, names, groups, operand_types, result_types):
        """Give every single operand/result named in an AllTypesMatch a known type."""
        op_def = self.op_def
        slots = []
        for name in names:
            for d in op_def.operands:
                if d.name == name and d.is_single:
                    slots.append(("operand", sum(len(g) for g in groups[:d.index])))
            for d in op_def.results:
                if d.name == name and d.is_single:
                    slots.append(("result", d.index))
        known = None
        for kind, index in slots:
            if kind == "operand" and index < len(operand_types) and operand_types[index] is not None:
                known = operand_types[index]
            elif kind == "result" and result_types is not None:
                known = result_types[index]
            if known is not None:
                break
        if known is None:
            return result_types
        for kind, index in slots:
            if kind == "operand" and index < len(operand_types) and operand_types[index] is None:
                operand_types[index] = known
        if result_types is None and all(d.is_single for d in op_def.results) and \
                len(slots) and all(kind == "operand" or True for kind, _ in slots):
            result_slots = {index for kind, index in slots if kind == "result"}
            if result_slots and len(result_slots) == len(op_def.results):
                result_types = [known] * len(op_def.results)
        return result_types

    def all_operand_types(self, types: list[Type]) -> None:
        # Spread over the groups once their sizes are known (in finish()).
        self.operand_types = [None] * len(self.op_def.operands)
        self._pending_all_operand_types = types

    def finish(self):
        """Resolve every operand's and result's type; returns the op's parts."""
        op_def = self.op_def
        # Operands: an `operands` directive fills groups in declaration order.
        if self.all_operands is not None:
            groups = _split_groups(op_def.operands, self.all_operands)
            if groups is None:
                raise BuildError(f"'{op_def.name}' got {len(self.all_operands)} operands", self.pos)
            self.operands = groups
        groups = [g if g is not None else [] for g in self.operands]
        flat = [item for group in groups for item in group]
        pending = self._pending_all_operand_types
        operand_types: list[Type | None] = []
        for i, group in enumerate(groups):
            declared = self.operand_types[i]
            if declared is not None and len(declared) != len(group):
                raise BuildError(f"{len(group)} operands present, but expected {len(declared)}",
                                 self.pos)
            operand_types.extend(declared if declared is not None else [None] * len(group))
        if pending is not None:
            if len(pending) != len(flat):
                raise BuildError(f"{len(flat)} operands present, but expected {len(pending)}", self.pos)
            operand_types = list(pending)
        result_types: list[Type | None] | None
        if self.all_result_types is not None:
            result_types = list(self.all_result_types)
        elif all(t is not None for t in self.result_types):
            result_types = [t for group in self.result_types for t in group]  # type: ignore[union-attr]
        else:
            result_types = None
        # Types a trait makes equal.
        known = next((t for t in operand_types if t is not None), None)
        if SameOperandsAndResultType in op_def.trait_set:
            if known is None and result_types:
                known = result_types[0]
            if known is not None:
                operand_types = [t if t is not None else known for t in operand_types]
                if result_types is None:
                    result_types = [known] * len(op_def.results)
        elif SameTypeOperands in op_def.trait_set and known is not None:
            operand_types = [t if t is not None else known for t in operand_types]
        for trait in op_def.traits:
            if isinstance(trait, AllTypesMatch):
                result_types = self._match_types(trait.names, groups, operand_types, result_types)
        # Fixed types.
        index = 0
        for definition, group in zip(op_def.operands, groups):
            fixed = definition.constraint.buildable_type()
            for _ in group:
                if operand_types[index] is None and fixed is not None:
                    operand_types[index] = fixed
                index += 1
        for i, t in enumerate(operand_types):
            if t is None:
                raise BuildError(f"cannot tell the type of operand #{i} of '{op_def.name}' "
                                 "from its custom form", self.pos)
        operands = [self.parser.resolve_operand(item, t) for item, t in zip(flat, operand_types)]
        if result_types is None:
            try:
                result_types = op_def.cls.infer_result_types(operand_types, self.attributes)
            except Exception as exc:  # an inference hook's complaint is a user error here
                raise BuildError(str(exc), self.pos) from None
        if op_def.needs_operand_segments:
            self.attributes["operandSegmentSizes"] = DenseArrayAttr(i32, tuple(len(g) for g in groups))
        regions = [r if r is not None else Region() for r in self.regions]
        return operands, result_types, self.attributes, regions, self.successors


def _split_groups(defs: list[OperandDef], values: list) -> list[list] | None:
    singles = sum(1 for d in defs if d.is_single)
    rest = len(values) - singles
    if rest < 0 or (rest and not any(not d.is_single for d in defs)):
        return None
    groups, start = [], 0
    for d in defs:
        size = 1 if d.is_single else rest
        if d.optional and size > 1:
            return None
        groups.append(values[start:start + size])
        start += size
        if not d.is_single:
            rest = 0
    return groups


def compile_format(op_def: OpDef) -> CompiledFormat:
    """Parse and check the op's `assembly_format`."""
    reader = _FormatReader(op_def, op_def.assembly_format or "")
    elements = reader.elements()
    compiled = CompiledFormat(op_def, elements)

    def collect(items):
        for e in items:
            if isinstance(e, Var) and isinstance(e.definition, AttrDef):
                compiled.used_attrs.add(e.name)
            elif isinstance(e, Group):
                collect(e.elements)
            elif isinstance(e, Custom):
                for param in e.params:
                    compiled.used_attrs.add(param.name)
                compiled.used_attrs.update(getattr(e.directive, "extra_attrs", ()))

    collect(elements)
    compiled.used_attrs.update({"operandSegmentSizes", "resultSegmentSizes"})
    return compiled


__all__ = ["CompiledFormat", "BuildState", "BuildError", "FormatError", "compile_format"]
