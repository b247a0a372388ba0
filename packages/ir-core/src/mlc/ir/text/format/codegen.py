"""Generating the parse and print functions of a format.

MLIR generates C++ parsers and printers from ODS formats; mlc generates Python, once
per op, type or attribute class (when it is first parsed or printed). The generators
here hold what is shared — constants, indentation, variable names, MLIR's spacing
rules, and for ops where each operand's and result's type comes from — and let each
element (:mod:`~mlc.ir.text.format.elements`) write its own lines.
"""

from __future__ import annotations

from typing import Any

from mlc.ir.core.attributes import FunctionType, unit
from mlc.ir.core.ir import Region
from mlc.ir.opdef.declare import OpDef, OperandDef, ResultDef
from mlc.ir.opdef.traits import (
    AllTypesMatch,
    SameOperandsAndResultType,
    SameTypeOperands,
    TypesMatchWith,
)
from mlc.ir.text.format.elements import (
    AllOperands,
    AllResults,
    AttrDict,
    AttrVar,
    Custom,
    Element,
    FormatError,
    FunctionalType,
    Group,
    Literal,
    OperandVar,
    ParamVar,
    RegionVar,
    SuccessorVar,
    TypeOf,
)


class _Gen:
    """Lines, constants and fresh names of one generated function."""

    def __init__(self, name: str, elements: list[Element]):
        self.name = name
        self.elements = elements
        self.lines: list[str] = []
        self.constants: dict[str, object] = {}
        self.counter = 0

    def const(self, value: object, hint: str) -> str:
        for name, existing in self.constants.items():
            if existing is value:
                return name
        name = f"K_{hint}_{len(self.constants)}"
        self.constants[name] = value
        return name

    def emit(self, line: str, depth: int) -> None:
        self.lines.append("    " * depth + line)

    def fresh(self, hint: str) -> str:
        self.counter += 1
        return f"{hint}{self.counter}"

    def in_group(self, target: Element) -> bool:
        def contains(elements) -> bool:
            return any(e is target or (isinstance(e, Group) and contains(e.elements))
                       for e in elements)

        return any(isinstance(e, Group) and contains(e.elements) for e in self.elements)

    def compile(self, function_name: str, extra: dict[str, object]):
        source = "\n".join(self.lines) + "\n"
        namespace: dict[str, Any] = {**extra, **self.constants}
        exec(compile(source, f"<{function_name} of {self.name}>", "exec"), namespace)  # noqa: S102
        function = namespace[function_name]
        function.source = source
        return function


def _walk(elements: list[Element]):
    for element in elements:
        yield element
        if isinstance(element, Group):
            yield from _walk(element.elements)
        elif isinstance(element, Custom):
            yield from element.params


# ------------------------------------------------------------------ op parsers


class ParseGen(_Gen):
    """The parse function of an op's format: `parse(p, pos) -> Operation`."""

    def __init__(self, op_def: OpDef, elements: list[Element]):
        super().__init__(op_def.name, elements)
        self.op_def = op_def

    def type_list_var(self, target: Element) -> str:
        if isinstance(target, AllOperands):
            return "tl__operands"
        if isinstance(target, AllResults):
            return "tl__results"
        return f"tl_{target.name}"

    def assign_directive_value(self, param: Element, expr: str, d: int) -> None:
        if isinstance(param, AttrVar):
            self.emit(f"if {expr} is not None: attrs[{param.name!r}] = {expr}", d)
        elif isinstance(param, TypeOf):
            if param.is_list:
                self.emit(f"{self.type_list_var(param.target)} = list({expr})", d)
            else:
                self.emit(f"t_{param.target.name} = {expr}", d)
        elif isinstance(param, OperandVar):
            variadic = param.definition.variadic
            self.emit(f"o_{param.name} = {'list(' + expr + ')' if variadic else expr}", d)
        elif isinstance(param, RegionVar):
            self.emit(f"r_{param.name} = {expr}", d)
        elif isinstance(param, SuccessorVar):
            self.emit(f"succ.{'extend' if param.definition.variadic else 'append'}({expr})", d)
        else:
            raise FormatError(f"'{self.name}' format: {param.describe()} cannot be a "
                              "custom directive parameter")

    # -- where types come from --------------------------------------------------

    def _type_sources(self) -> tuple[set[str], set[str], bool, bool]:
        singles: set[str] = set()
        lists: set[str] = set()
        all_operands = all_results = False
        for element in _walk(self.elements):
            refs = []
            if isinstance(element, TypeOf):
                refs = [element.target]
            elif isinstance(element, FunctionalType):
                refs = [element.inputs, element.results]
            for ref in refs:
                if isinstance(ref, AllOperands):
                    all_operands = True
                elif isinstance(ref, AllResults):
                    all_results = True
                elif ref.definition.is_single:
                    singles.add(ref.name)
                else:
                    lists.add(ref.name)
        return singles, lists, all_operands, all_results

    def _resolution(self, d: int) -> None:
        op_def = self.op_def
        singles, lists, all_operand_types, all_result_types = self._type_sources()
        groups = {g.name: g for g in (*op_def.operands, *op_def.results)}
        parent = {name: name for name in groups}

        def find(name: str) -> str:
            while parent[name] != name:
                name = parent[name]
            return name

        def union(names) -> None:
            names = [n for n in names if n in parent]
            for other in names[1:]:
                parent[find(other)] = find(names[0])

        if SameOperandsAndResultType in op_def.trait_set:
            union(list(groups))
        if SameTypeOperands in op_def.trait_set:
            union([g.name for g in op_def.operands])
        for trait in op_def.traits:
            if isinstance(trait, AllTypesMatch):
                union(list(trait.names))
        source_of_class: dict[str, str] = {}
        for name in sorted(singles):
            source_of_class.setdefault(find(name), f"t_{name}")
        single_type: dict[str, str] = {name: f"t_{name}" for name in singles}
        list_type: dict[str, str] = {name: f"tl_{name}" for name in lists}
        for name, definition in groups.items():
            if name in single_type or name in list_type:
                continue
            expr = source_of_class.get(find(name))
            if expr is None:
                derived = next((t for t in op_def.traits if isinstance(t, TypesMatchWith)
                                and t.target == name and t.source in single_type), None)
                if derived is not None:
                    expr = f"{self.const(derived.transform, 'derive')}({single_type[derived.source]})"
            if expr is None:
                fixed = definition.constraint.buildable_type()
                if fixed is not None:
                    expr = self.const(fixed, "type")
            if expr is None:
                continue
            if definition.is_single or definition.optional:
                single_type[name] = expr
            elif isinstance(definition, OperandDef):
                list_type[name] = f"[{expr}] * len(o_{name})"
        infers_results = not all_result_types and not all(
            (g.is_single and g.name in single_type) or (not g.is_single and g.name in list_type)
            for g in op_def.results)
        sizes = ", ".join(f"len(o_{g.name})" if g.variadic else
                          (f"(0 if o_{g.name} is None else 1)" if g.optional else "1")
                          for g in op_def.operands)
        if infers_results and op_def.operands:
            if all_operand_types:
                types = "tl__operands"
            else:
                types = " + ".join(
                    f"[{single_type[g.name]}]" if g.is_single else
                    f"([] if o_{g.name} is None else [{single_type[g.name]}])" if g.optional
                    else list_type[g.name] for g in op_def.operands)
            self.emit(f"check_operand_types(p, CLS, {types}, ({sizes},), pos)", d)
        # Operands, typed.
        if all_operand_types:
            flat = " + ".join(self._operand_group_list(g) for g in op_def.operands) or "[]"
            self.emit(f"ops = p.resolve_operands({flat}, tl__operands)", d)
        else:
            self.emit("ops = []", d)
            for definition in op_def.operands:
                name = definition.name
                if definition.is_single:
                    if name not in single_type:
                        raise FormatError(
                            f"'{self.name}' format: the type of operand '{name}' is neither "
                            "written by the format nor implied by a trait or a fixed type")
                    self.emit(f"ops.append(p.resolve_operand(o_{name}, {single_type[name]}))", d)
                elif definition.optional:
                    if name in list_type:
                        self.emit(f"if o_{name} is not None: ops.extend(p.resolve_operands("
                                  f"[o_{name}], {list_type[name]}))", d)
                    elif name in single_type:
                        self.emit(f"if o_{name} is not None: ops.append(p.resolve_operand("
                                  f"o_{name}, {single_type[name]}))", d)
                    else:
                        raise FormatError(f"'{self.name}' format: the type of operand '{name}' "
                                          "is not written by the format")
                else:
                    if name not in list_type:
                        raise FormatError(f"'{self.name}' format: the types of operand group "
                                          f"'{name}' are not written by the format")
                    self.emit(f"ops.extend(p.resolve_operands(o_{name}, {list_type[name]}))", d)
        if op_def.needs_operand_segments:
            self.emit(f"attrs['operandSegmentSizes'] = DenseArrayAttr(I32, ({sizes},))", d)
        # Results.
        if all_result_types:
            self.emit("rtypes = tl__results", d)
        elif not infers_results:
            parts = [f"[{single_type[g.name]}]" if g.is_single else list_type[g.name]
                     for g in op_def.results]
            self.emit("rtypes = " + (" + ".join(parts) if parts else "[]"), d)
        else:
            self.emit("try:", d)
            self.emit("rtypes = CLS.infer_result_types([v.type for v in ops], attrs)", d + 1)
            self.emit("except Exception as exc:", d)
            self.emit("raise p.state.error(str(exc), pos) from None  # it names the op", d + 1)

    @staticmethod
    def _operand_group_list(definition: OperandDef) -> str:
        if definition.variadic:
            return f"o_{definition.name}"
        if definition.optional:
            return f"([] if o_{definition.name} is None else [o_{definition.name}])"
        return f"[o_{definition.name}]"

    def generate(self) -> str:
        op_def = self.op_def
        d = 1
        self.emit("def parse(p, pos):", 0)
        self.emit("attrs = {}", d)
        self.emit("succ = []", d)
        for g in op_def.operands:
            self.emit(f"o_{g.name} = {'[]' if g.variadic else 'None'}", d)
        for g in (*op_def.operands, *op_def.results):
            self.emit(f"t_{g.name} = None", d)
            self.emit(f"tl_{g.name} = []", d)
        for region in op_def.regions:
            self.emit(f"r_{region.name} = None", d)
        self.emit("tl__operands = tl__results = None", d)
        for element in self.elements:
            element.parse(self, d)
        if any(isinstance(e, AllOperands) for e in self.elements):
            self._split_all_operands(d)
        self._resolution(d)
        regions = ", ".join(f"r_{r.name} if r_{r.name} is not None else Region()"
                            for r in op_def.regions)
        self.emit(f"return p.state.make_op(CLS, NAME, ops, rtypes, attrs, [{regions}], succ, pos)", d)
        return "\n".join(self.lines)

    def _split_all_operands(self, d: int) -> None:
        defs = self.op_def.operands
        if sum(1 for g in defs if not g.is_single) > 1:
            raise FormatError(f"'{self.name}' format: 'operands' needs at most one variadic "
                              "or optional operand group")
        singles = sum(1 for g in defs if g.is_single)
        self.emit(f"if len(o__all) < {singles}:", d)
        self.emit(f"raise p.error(f'expected at least {singles} operands, found "
                  "{len(o__all)}', pos)", d + 1)
        start = "0"
        for i, g in enumerate(defs):
            if g.is_single:
                self.emit(f"o_{g.name} = o__all[{start}]", d)
                start = f"{start} + 1"
            else:
                after = sum(1 for later in defs[i + 1:] if later.is_single)
                end = f"len(o__all) - {after}"
                self.emit(f"x = o__all[{start}:{end}]", d)
                if g.optional:
                    self.emit("if len(x) > 1: raise p.error('too many operands', pos)", d)
                    self.emit(f"o_{g.name} = x[0] if x else None", d)
                else:
                    self.emit(f"o_{g.name} = x", d)
                start = end


# ----------------------------------------------------------------- op printers


class PrintGen(_Gen):
    """The print function of a format: `print_custom(op, p)` for ops,
    `print_custom(value, p)` for types and attributes."""

    def __init__(self, name: str, elements: list[Element], op_def: OpDef | None = None,
                 elided_attrs: frozenset[str] = frozenset()):
        super().__init__(name, elements)
        self.op_def = op_def
        self.elided_attrs = elided_attrs

    def value_expr(self, definition) -> str:
        """A single operand or result, by static position when it has one."""
        op_def = self.op_def
        results = isinstance(definition, ResultDef)
        layout = op_def._layout(op_def.results if results else op_def.operands)
        if layout is not None:
            offset, kind = layout[definition.index]
            if kind == 0:
                return f"op.results[{offset}]" if results else f"op._operands[{offset}].value"
            if kind == 1:
                return f"op.results[-{offset}]" if results else f"op._operands[-{offset}].value"
        return f"op.{definition.name}"

    def types_expr(self, target: Element) -> str:
        if isinstance(target, AllOperands):
            return "op.operand_types"
        if isinstance(target, AllResults):
            return "op.result_types"
        definition = target.definition
        if definition.is_single:
            return f"({self.value_expr(definition)}.type,)"
        if definition.variadic:
            return f"[v.type for v in op.{definition.name}]"
        return f"[v.type for v in (op.{definition.name},) if v is not None]"

    def directive_value(self, param: Element) -> str:
        if isinstance(param, AttrVar):
            return f"attrs.get({param.name!r})"
        if isinstance(param, TypeOf):
            if param.is_list:
                return f"list({self.types_expr(param.target)})"
            return f"{self.value_expr(param.target.definition)}.type"
        if isinstance(param, OperandVar):
            if param.definition.is_single:
                return self.value_expr(param.definition)
            return f"op.{param.name}"
        if isinstance(param, RegionVar):
            return f"op.regions[{param.definition.index}]"
        if isinstance(param, SuccessorVar):
            return f"op.{param.name}"
        raise FormatError(f"'{self.name}' format: {param.describe()} cannot be a custom "
                          "directive parameter")

    def guarded(self, body: list[str], depth: int, may_be_empty: bool) -> None:
        """An element with a space before it (taken back if it printed nothing)."""
        if not may_be_empty:
            self.emit("if sp: w(' ')", depth)
            for line in body:
                self.emit(line, depth)
            self.emit("sp = True", depth)
            self.emit("lp = False", depth)
            return
        mark = self.fresh("m")
        self.emit(f"{mark} = len(parts)", depth)
        self.emit("if sp: w(' ')", depth)
        for line in body:
            self.emit(line, depth)
        self.emit(f"if len(parts) == {mark} + 1 and parts[-1] == ' ': parts.pop()", depth)
        self.emit(f"elif len(parts) > {mark}:", depth)
        self.emit("sp = True", depth + 1)
        self.emit("lp = False", depth + 1)

    def generate(self, subject: str, leading_space: bool) -> str:
        self.emit(f"def print_custom({subject}, p):", 0)
        self.emit("parts = p.parts", 1)
        self.emit("w = parts.append", 1)
        if subject == "op":
            self.emit("name_of = p.names.get", 1)
            self.emit("type_text = p._type_text", 1)
            self.emit("attrs = op.attributes", 1)
        self.emit(f"sp = {leading_space}", 1)
        self.emit("lp = False", 1)
        for element in self.elements:
            element.print(self, 1)
        return "\n".join(self.lines)


# -------------------------------------------------------------- entry points


def used_attributes(elements: list[Element]) -> frozenset[str]:
    """The attributes a format spells itself (the attr-dict leaves them out)."""
    names = {"operandSegmentSizes", "resultSegmentSizes"}
    for element in _walk(elements):
        if isinstance(element, AttrVar):
            names.add(element.name)
    return frozenset(names)


def check_op_format(op_def: OpDef, elements: list[Element]) -> None:
    """MLIR's checks of an op format that the generators do not make themselves."""
    if sum(1 for e in _walk(elements) if isinstance(e, AttrDict)) > 1:
        raise FormatError(f"'{op_def.name}' format: 'attr-dict' appears more than once")
    if not any(isinstance(e, AttrDict) for e in _walk(elements)):
        raise FormatError(f"'{op_def.name}' format: 'attr-dict' directive not found")
    seen: set[int] = set()
    for element in _walk(elements):
        if isinstance(element, RegionVar):
            if element.definition.index in seen:
                raise FormatError(f"'{op_def.name}' format: region '{element.name}' appears "
                                  "more than once")
            seen.add(element.definition.index)
    if len(seen) != len(op_def.regions):
        missing = [r.name for r in op_def.regions if r.index not in seen]
        raise FormatError(f"'{op_def.name}' format: region '{missing[0]}' not found")


def check_operand_types(p, cls, types: list, sizes: tuple[int, ...], pos: int) -> None:
    """Raise an error, at the op's name, for the first operand type (as written, one
    list over the groups of `sizes` values) that breaks its group's constraint. As in
    MLIR's generated parsers, this comes before the operands are resolved and the result
    types inferred from them (an inference may rely on the constraints)."""
    start = 0
    for definition, size in zip(cls.op_def.operands, sizes):
        for type_ in types[start:start + size]:
            if not definition.constraint.check(type_):
                raise p.error(f"'{definition.name}' must be "
                              f"{definition.constraint.description}, but got '{type_}'", pos)
        start += size


def op_parse_function(op_def: OpDef, elements: list[Element]):
    """`parse(p, pos) -> Operation` for an op's format."""
    from mlc.ir.core.attributes import DenseArrayAttr, i32

    gen = ParseGen(op_def, elements)
    gen.generate()
    return gen.compile("parse", {
        "CLS": op_def.cls, "NAME": op_def.name, "Region": Region,
        "UNIT": unit, "DenseArrayAttr": DenseArrayAttr, "I32": i32,
        "check_operand_types": check_operand_types})


def op_print_function(op_def: OpDef, elements: list[Element]):
    """`print_custom(op, p)` for an op's format."""
    gen = PrintGen(op_def.name, elements, op_def, used_attributes(elements))
    gen.generate("op", leading_space=True)
    return gen.compile("print_custom", {"UNKNOWN": "%<<UNKNOWN SSA VALUE>>",
                                        "FunctionType": FunctionType})


def param_parse_function(cls: type, params: list, elements: list[Element]):
    """`parse(p) -> instance` for a dialect type's or attribute's format."""
    gen = _Gen(cls.name, elements)
    gen.emit("def parse(p):", 0)
    for param in params:
        gen.emit(f"pv_{param.name} = {gen.const(param.default, 'default')}", 1)
    for element in _walk(elements):
        if not isinstance(element, (Group, Custom, Literal, ParamVar)):
            raise FormatError(f"'{cls.name}' format: {element.describe()} is not allowed in "
                              "a type or attribute format")
    for element in elements:
        element.parse(gen, 1)
    args = ", ".join(f"pv_{param.name}" for param in params)
    gen.emit(f"return CLS({args})", 1)
    gen.in_group = lambda target: False  # type: ignore[method-assign]
    return gen.compile("parse", {"CLS": cls})


def param_print_function(cls: type, elements: list[Element]):
    """`print_custom(value, p)` for a dialect type's or attribute's format."""
    gen = PrintGen(cls.name, elements)
    gen.generate("value", leading_space=False)
    return gen.compile("print_custom", {})
