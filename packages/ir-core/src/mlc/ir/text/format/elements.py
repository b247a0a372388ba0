"""The elements of an assembly format, each one object that emits its own parse code
and print code.

A compiled format is generated Python: one parse function (reading with the
:class:`~mlc.ir.text.asm_parser.AsmParser`) and one print function. The generators in
:mod:`~mlc.ir.text.format.codegen` walk a format's elements and let each write its
lines; this module is the only place that knows what an element reads and writes.

Variables of the generated parse function: `attrs` (inherent attributes by name),
`succ` (successor blocks), `o_NAME` (an unresolved operand; a list for a variadic
group), `t_NAME` (the type of a single operand or result), `tl_NAME` (the types of a
variadic or optional group), `r_NAME` (a region), `pv_NAME` (a type's or attribute's
parameter), `o__all`/`tl__operands`/`tl__results` for `operands` and `results`.
Variables of the print function: `op`/`value` (what is printed), `p` (the printer),
`w` (its write), `sp` (a space is due before the next element) and `lp` (the last
thing written was punctuation), MLIR's spacing rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mlc.ir.opdef.declare import AttrDef, OperandDef, RegionDef, ResultDef, SuccessorDef
from mlc.ir.opdef.spelling import UnitSpelling

if TYPE_CHECKING:
    from mlc.ir.text.format.codegen import ParseGen, PrintGen


class FormatError(Exception):
    """An assembly format that cannot be compiled (a bug in a declaration)."""


def space_before(text: str, last_was_punct: bool) -> bool:
    """MLIR's rule: whether a space goes before literal `text`."""
    if len(text) != 1 and text != "->":
        return True
    if last_was_punct:
        return text[0] not in ">)}],"
    return text[0] not in "<>(){}[],"


class Element:
    """One piece of a format."""

    def parse(self, g: ParseGen, d: int) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def parse_optional(self, g: ParseGen, d: int, flag: str) -> None:
        """Parse the element if it is next, setting `flag`: how an optional group
        decides, from its first element, whether it is present."""
        raise FormatError(f"{self.describe()} cannot start an optional group")

    def print(self, g: PrintGen, d: int) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def presence(self, g: PrintGen) -> str:
        """An expression true when an optional group anchored on this element prints."""
        raise FormatError(f"{self.describe()} cannot anchor an optional group")

    def describe(self) -> str:
        return type(self).__name__

    def variables(self) -> list[Var]:
        """The declared parts this element refers to."""
        return []


@dataclass(eq=False)
class Literal(Element):
    """A keyword or punctuation written as is (`` `to` ``, `` `,` ``); `` ` ` `` is a
    space, and the empty literal suppresses the next space."""

    text: str

    def describe(self) -> str:
        return f"literal `{self.text}`"

    def _matcher(self, g: ParseGen) -> str:
        from mlc.ir.text.asm_parser import keyword_matcher, punctuation_matcher

        word = self.text[0].isalpha() or self.text[0] == "_"
        return g.const((keyword_matcher if word else punctuation_matcher)(self.text), "lit")

    def parse(self, g: ParseGen, d: int) -> None:
        if not self.text.strip():
            return
        g.emit(f"m = {self._matcher(g)}(p.text, p.pos)", d)
        g.emit(f"if m is None: raise p.expected({repr(repr(self.text))})", d)
        g.emit("p.pos = p.last_end = m.end()", d)

    def parse_optional(self, g: ParseGen, d: int, flag: str) -> None:
        g.emit(f"m = {self._matcher(g)}(p.text, p.pos)", d)
        g.emit("if m is not None:", d)
        g.emit("p.pos = p.last_end = m.end()", d + 1)
        g.emit(f"{flag} = True", d + 1)

    def print(self, g: PrintGen, d: int) -> None:
        text = self.text
        if not text:
            g.emit("sp = False", d)
            return
        if text == " ":
            g.emit("w(' ')", d)
            g.emit("sp = False", d)
            return
        after_punct, after_other = space_before(text, True), space_before(text, False)
        if after_punct and after_other:
            g.emit("if sp: w(' ')", d)
        elif after_punct:
            g.emit("if sp and lp: w(' ')", d)
        elif after_other:
            g.emit("if sp and not lp: w(' ')", d)
        g.emit(f"w({text!r})", d)
        g.emit(f"sp = {len(text) != 1 or text not in '<({['}", d)
        g.emit(f"lp = {text[0] != '_' and not text[0].isalpha()}", d)


@dataclass(eq=False)
class Var(Element):
    """A declared part: `$name`."""

    definition: Any

    @property
    def name(self) -> str:
        return self.definition.name

    def describe(self) -> str:
        return f"'${self.name}'"

    def variables(self) -> list[Var]:
        return [self]


class OperandVar(Var):
    """`$operand`: an SSA use (a comma-separated list for a variadic group)."""

    def parse(self, g: ParseGen, d: int) -> None:
        definition = self.definition
        if definition.variadic:
            g.emit(f"o_{self.name} = p.parse_operand_list()", d)
        elif definition.optional:
            g.emit(f"o_{self.name} = p.parse_optional_operand()", d)
        else:
            g.emit(f"o_{self.name} = p.parse_operand()", d)

    def parse_optional(self, g: ParseGen, d: int, flag: str) -> None:
        if self.definition.variadic:
            g.emit(f"o_{self.name} = p.parse_operand_list()", d)
            g.emit(f"{flag} = bool(o_{self.name})", d)
        else:
            g.emit(f"o_{self.name} = p.parse_optional_operand()", d)
            g.emit(f"{flag} = o_{self.name} is not None", d)

    def print(self, g: PrintGen, d: int) -> None:
        definition = self.definition
        if definition.is_single:
            g.guarded([f"w(name_of({g.value_expr(definition)}) or UNKNOWN)"], d, False)
        elif definition.variadic:
            g.guarded([f"p.value_list(op.{self.name})"], d, True)
        else:
            g.guarded([f"x = op.{self.name}", "if x is not None: p.value(x)"], d, True)

    def presence(self, g: PrintGen) -> str:
        if self.definition.variadic:
            return f"op.{self.name}"
        return f"op.{self.name} is not None"


class ResultVar(Var):
    """`$result`: only inside `type(...)` and `functional-type(...)`."""

    def parse(self, g: ParseGen, d: int) -> None:
        raise FormatError(f"'{g.name}' format: results cannot be printed, only their types")

    print = parse  # type: ignore[assignment]

    def presence(self, g: PrintGen) -> str:
        if self.definition.variadic:
            return f"op.{self.name}"
        return f"op.{self.name} is not None"


class AttrVar(Var):
    """`$attr`: an inherent attribute, in its constraint's spelling."""

    @property
    def spelling(self):
        return self.definition.constraint.spelling

    @property
    def is_unit(self) -> bool:
        return isinstance(self.spelling, UnitSpelling)

    def parse(self, g: ParseGen, d: int) -> None:
        if self.is_unit:
            return
        spelling = g.const(self.spelling, "spelling")
        if self.definition.optional and not g.in_group(self):
            g.emit(f"x = {spelling}.parse_optional(p)", d)
            g.emit(f"if x is not None: attrs[{self.name!r}] = x", d)
        else:
            g.emit(f"attrs[{self.name!r}] = {spelling}.parse_attribute(p, {self.name!r})", d)

    def parse_optional(self, g: ParseGen, d: int, flag: str) -> None:
        if self.is_unit:
            raise FormatError(f"'{g.name}' format: a unit attribute cannot start a group")
        spelling = g.const(self.spelling, "spelling")
        g.emit(f"x = {spelling}.parse_optional(p)", d)
        g.emit("if x is not None:", d)
        g.emit(f"attrs[{self.name!r}] = x", d + 1)
        g.emit(f"{flag} = True", d + 1)

    def print(self, g: PrintGen, d: int) -> None:
        if self.is_unit:
            return
        spelling = g.const(self.spelling, "spelling")
        g.emit(f"x = attrs.get({self.name!r})", d)
        g.emit("if x is not None:", d)
        g.guarded([f"{spelling}.print(p, x)"], d + 1, False)

    def presence(self, g: PrintGen) -> str:
        default = self.definition.default
        if default is not None:
            value = g.const(default, "default")
            return f"attrs.get({self.name!r}, {value}) != {value}"
        return f"attrs.get({self.name!r}) is not None"


class RegionVar(Var):
    """`$region`: `{ ... }`."""

    def parse(self, g: ParseGen, d: int) -> None:
        g.emit(f"r_{self.name} = p.parse_region((), CLS)", d)

    def parse_optional(self, g: ParseGen, d: int, flag: str) -> None:
        g.emit(f"r_{self.name} = p.parse_optional_region((), CLS)", d)
        g.emit(f"{flag} = r_{self.name} is not None", d)

    def print(self, g: PrintGen, d: int) -> None:
        g.guarded([f"p.region(op.regions[{self.definition.index}])"], d, False)

    def presence(self, g: PrintGen) -> str:
        return f"op.regions[{self.definition.index}].blocks"


class SuccessorVar(Var):
    """`$successor`: `^label`."""

    def parse(self, g: ParseGen, d: int) -> None:
        if self.definition.variadic:
            g.emit("x = p.parse_optional_successor()", d)
            g.emit("while x is not None:", d)
            g.emit("succ.append(x)", d + 1)
            g.emit("x = p.parse_successor() if p.parse_optional_comma() else None", d + 1)
        else:
            g.emit("succ.append(p.parse_successor())", d)

    def print(self, g: PrintGen, d: int) -> None:
        if self.definition.variadic:
            g.guarded([f"p.successor_list(op.{self.name})"], d, True)
        else:
            g.guarded([f"p.successor(op.{self.name})"], d, False)


class ParamVar(Var):
    """`$param` of a dialect type or attribute, in its parameter's spelling."""

    def parse(self, g: ParseGen, d: int) -> None:
        spelling = g.const(self.definition.spelling, "spelling")
        g.emit(f"pv_{self.name} = {spelling}.parse(p)", d)

    def parse_optional(self, g: ParseGen, d: int, flag: str) -> None:
        spelling = g.const(self.definition.spelling, "spelling")
        g.emit(f"pv_{self.name} = {spelling}.parse_optional(p)", d)
        g.emit(f"{flag} = pv_{self.name} is not None", d)

    def print(self, g: PrintGen, d: int) -> None:
        spelling = g.const(self.definition.spelling, "spelling")
        g.guarded([f"{spelling}.print(p, value.{self.name})"], d, True)

    def presence(self, g: PrintGen) -> str:
        default = g.const(self.definition.default, "default")
        return f"value.{self.name} != {default}"


@dataclass(eq=False)
class AllOperands(Element):
    """`operands`: every operand, as a comma-separated list."""

    def describe(self) -> str:
        return "'operands'"

    def parse(self, g: ParseGen, d: int) -> None:
        g.emit("o__all = p.parse_operand_list()", d)

    def parse_optional(self, g: ParseGen, d: int, flag: str) -> None:
        self.parse(g, d)
        g.emit(f"{flag} = bool(o__all)", d)

    def print(self, g: PrintGen, d: int) -> None:
        g.guarded(["p.value_list(op.operands)"], d, True)

    def presence(self, g: PrintGen) -> str:
        return "op._operands"


@dataclass(eq=False)
class AllResults(Element):
    """`results`: only inside `type(...)` and `functional-type(...)`."""

    def describe(self) -> str:
        return "'results'"


@dataclass(eq=False)
class TypeOf(Element):
    """`type($x)`, `type(operands)`, `type(results)`: the types of a group."""

    target: Element

    def describe(self) -> str:
        return f"type({self.target.describe()})"

    def variables(self) -> list[Var]:
        return self.target.variables()

    @property
    def is_list(self) -> bool:
        target = self.target
        return not isinstance(target, Var) or not target.definition.is_single

    def parse(self, g: ParseGen, d: int) -> None:
        target = self.target
        if not self.is_list:
            g.emit(f"t_{target.name} = p.parse_type()", d)
        elif isinstance(target, Var) and target.definition.optional:
            g.emit("x = p.parse_optional_type()", d)
            g.emit(f"tl_{target.name} = [] if x is None else [x]", d)
        else:
            g.emit(f"{g.type_list_var(target)} = p.parse_type_list()", d)

    def parse_optional(self, g: ParseGen, d: int, flag: str) -> None:
        target = self.target
        g.emit("x = p.parse_optional_type()", d)
        g.emit("if x is not None:", d)
        g.emit(f"{flag} = True", d + 1)
        if not self.is_list:
            g.emit(f"t_{target.name} = x", d + 1)
        elif isinstance(target, Var) and target.definition.optional:
            g.emit(f"tl_{target.name} = [x]", d + 1)
        else:
            var = g.type_list_var(target)
            g.emit(f"{var} = [x]", d + 1)
            g.emit(f"while p.parse_optional_comma(): {var}.append(p.parse_type())", d + 1)

    def print(self, g: PrintGen, d: int) -> None:
        target = self.target
        if not self.is_list:
            g.guarded([f"w(type_text({g.value_expr(target.definition)}.type))"], d, False)
        else:
            g.guarded([f"p.type_list({g.types_expr(target)})"], d, True)

    def presence(self, g: PrintGen) -> str:
        return self.target.presence(g)


@dataclass(eq=False)
class FunctionalType(Element):
    """`functional-type(inputs, results)`: `(input types) -> result types`."""

    inputs: Element
    results: Element

    def describe(self) -> str:
        return "functional-type"

    def variables(self) -> list[Var]:
        return self.inputs.variables() + self.results.variables()

    def parse(self, g: ParseGen, d: int) -> None:
        g.emit("ft = p.parse_function_type()", d)
        for ref, part in ((self.inputs, "inputs"), (self.results, "results")):
            if isinstance(ref, Var) and ref.definition.is_single:
                g.emit(f"if len(ft.{part}) != 1: raise p.error('expected one {part[:-1]} type "
                       f"in the function type', p.last_end)", d)
                g.emit(f"t_{ref.name} = ft.{part}[0]", d)
            else:
                g.emit(f"{g.type_list_var(ref)} = list(ft.{part})", d)

    def print(self, g: PrintGen, d: int) -> None:
        g.guarded([f"p.type(FunctionType(tuple({g.types_expr(self.inputs)}), "
                   f"tuple({g.types_expr(self.results)})))"], d, False)


@dataclass(eq=False)
class AttrDict(Element):
    """`attr-dict` (`{...}`) and `attr-dict-with-keyword` (`attributes {...}`): the
    attributes the format does not spell elsewhere."""

    with_keyword: bool

    def describe(self) -> str:
        return "attr-dict-with-keyword" if self.with_keyword else "attr-dict"

    def parse(self, g: ParseGen, d: int) -> None:
        method = "parse_optional_attr_dict_with_keyword" if self.with_keyword \
            else "parse_optional_attr_dict"
        g.emit(f"p.{method}(attrs)", d)

    def print(self, g: PrintGen, d: int) -> None:
        used = g.const(g.elided_attrs, "elided")
        g.emit(f"p.attr_dict(op, {used}, keyword={self.with_keyword})", d)
        g.emit("sp = True", d)
        g.emit("lp = False", d)


@dataclass(eq=False)
class Custom(Element):
    """`custom<Name>(params)`: a directive's parse and print over the parameters."""

    directive: Any
    params: list[Element]

    def describe(self) -> str:
        return f"custom<{self.directive.name}>"

    def variables(self) -> list[Var]:
        out: list[Var] = []
        for param in self.params:
            out.extend(param.variables())
        return out

    def parse(self, g: ParseGen, d: int) -> None:
        directive = g.const(self.directive, "directive")
        g.emit(f"v = {directive}.parse(p)", d)
        for i, param in enumerate(self.params):
            g.assign_directive_value(param, f"v[{i}]", d)

    def print(self, g: PrintGen, d: int) -> None:
        directive = g.const(self.directive, "directive")
        values = ", ".join(g.directive_value(param) for param in self.params)
        g.guarded([f"{directive}.print(p, op, {values})" if values
                   else f"{directive}.print(p, op)"], d, True)


@dataclass(eq=False)
class Group(Element):
    """`( ... )?`: printed when its anchor (`^`) is present; parsed when its first
    element is there."""

    elements: list[Element]
    anchor: Element | None = None
    unit_anchor: Any = field(default=None)

    def describe(self) -> str:
        return "optional group"

    def variables(self) -> list[Var]:
        out: list[Var] = []
        for element in self.elements:
            out.extend(element.variables())
        return out

    def parse(self, g: ParseGen, d: int) -> None:
        flag = g.fresh("present")
        g.emit(f"{flag} = False", d)
        # Leading spacing literals (`` `` ``) only shape the printed text: the first
        # element that reads something decides whether the group is there (as MLIR).
        lead = 0
        while isinstance(self.elements[lead], Literal) and not self.elements[lead].text.strip():
            lead += 1
        first, *rest = self.elements[lead:]
        first.parse_optional(g, d, flag)
        g.emit(f"if {flag}:", d)
        g.emit("pass", d + 1)
        if isinstance(self.anchor, AttrVar) and self.anchor.is_unit:
            g.emit(f"attrs[{self.anchor.name!r}] = UNIT", d + 1)
        for element in rest:
            element.parse(g, d + 1)

    def print(self, g: PrintGen, d: int) -> None:
        anchor = self.anchor
        if isinstance(anchor, AttrVar) and anchor.is_unit:
            condition = f"attrs.get({anchor.name!r}) is not None"
        else:
            condition = anchor.presence(g)
        g.emit(f"if {condition}:", d)
        g.emit("pass", d + 1)
        for element in self.elements:
            element.print(g, d + 1)


VAR_KINDS: tuple[tuple[type, type[Var]], ...] = (
    (OperandDef, OperandVar), (ResultDef, ResultVar), (AttrDef, AttrVar),
    (RegionDef, RegionVar), (SuccessorDef, SuccessorVar),
)


def var_for(definition: Any) -> Var:
    """The element for a declared part."""
    for kind, element in VAR_KINDS:
        if isinstance(definition, kind):
            return element(definition)
    return ParamVar(definition)
