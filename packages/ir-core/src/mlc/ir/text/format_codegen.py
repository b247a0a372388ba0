"""Generating a specialised Python builder for an op's custom format.

MLIR generates C++ parsers from ODS formats; mlc generates a Python function per
format, the first time the op is parsed. The function reads the rule's children by
fixed position, converts attributes, resolves every operand's type statically (from
type directives, type-equality traits or fixed types, decided here once rather than
per op) and returns the op's parts. Formats this cannot specialise (custom
directives, `operands`) use the general :class:`~mlc.ir.text.format.BuildState` path.
"""

from __future__ import annotations

from mlc.ir.core.attributes import DenseArrayAttr, StringAttr, TypeAttr, i32, unit
from mlc.ir.core.ir import Region
from mlc.ir.opdef.declare import AttrDef, OperandDef, RegionDef, ResultDef, SuccessorDef
from mlc.ir.opdef.traits import AllTypesMatch, SameOperandsAndResultType, SameTypeOperands
from mlc.ir.text.format import (
    AllOperands,
    AllResults,
    AttrDict,
    BuildError,
    CompiledFormat,
    Custom,
    FunctionalType,
    Group,
    Literal,
    TypeDirective,
    Var,
)


class _Unsupported(Exception):
    pass


def convert_attr(s, definition: AttrDef, child):
    """An attribute from its custom-syntax token or value (see AttrConstraint.syntax)."""
    syntax = definition.constraint.syntax
    if syntax == "attribute" or syntax == "symbol-ref":
        return child
    if syntax == "symbol-name":
        return StringAttr(s.symbol_name(child))
    if syntax == "stripped":
        return s.dialect_attr_body(definition.constraint.attr_class, child)
    if syntax == "enum":
        constraint = definition.constraint
        if child.value not in constraint.cases:
            raise BuildError(f"expected {constraint.name} to be one of: "
                             f"{', '.join(constraint.cases)}; got '{child.value}'", child.start_pos)
        return constraint.attr(child.value)
    if syntax == "keyword":
        if child.value not in definition.constraint.keywords:
            raise BuildError(f"expected one of {', '.join(definition.constraint.keywords)} for "
                             f"'{definition.name}', got '{child.value}'", child.start_pos)
        return StringAttr(child.value)
    if syntax == "type":
        return TypeAttr(child)
    if syntax == "integer":
        from mlc.ir.core.attributes import IntegerAttr

        return IntegerAttr(int(child.value), definition.constraint.type)
    if syntax == "string":
        return StringAttr(s.string_value(child))
    raise BuildError(f"unsupported attribute syntax {syntax}")


def check_count(values, types, name: str, pos) -> None:
    if len(values) != len(types):
        raise BuildError(f"{len(values)} operands present for '{name}', but {len(types)} types "
                         "were given", pos)


class _Generator:
    def __init__(self, fmt: CompiledFormat):
        self.fmt = fmt
        self.op_def = fmt.op_def
        self.lines: list[str] = []
        self.constants: dict[str, object] = {}
        self.single_type: dict[str, str] = {}  # group name -> expression of its one type
        self.type_list: dict[str, str] = {}  # group name -> expression of its type list
        self.result_list: str | None = None

    def const(self, value, hint: str) -> str:
        name = f"K_{hint}_{len(self.constants)}"
        self.constants[name] = value
        return name

    def emit(self, line: str, depth: int) -> None:
        self.lines.append("    " * depth + line)

    def elements(self, elements: list, source: str, depth: int) -> None:
        index = 1 if source == "c" else 0  # c[0] is the op-name token
        for element in elements:
            if isinstance(element, Literal):
                continue
            if isinstance(element, Var) and isinstance(element.definition, AttrDef) \
                    and element.definition.constraint.syntax == "unit":
                continue
            child = f"{source}[{index}]"
            index += 1
            if isinstance(element, Group):
                var = f"g{len(self.lines)}"
                self.emit(f"{var} = {child}", depth)
                self.emit(f"if {var} is not None:", depth)
                self.emit("pass", depth + 1)
                anchor = element.anchor
                if isinstance(anchor, Var) and isinstance(anchor.definition, AttrDef) \
                        and anchor.definition.constraint.syntax == "unit":
                    self.emit(f"attrs[{anchor.name!r}] = UNIT", depth + 1)
                self.elements(element.elements, var, depth + 1)
                continue
            self.element(element, child, depth)

    def element(self, element, child: str, depth: int) -> None:
        if isinstance(element, Var):
            d = element.definition
            if isinstance(d, OperandDef):
                self.emit(f"o_{d.name} = {child}{' or []' if d.variadic else ''}", depth)
            elif isinstance(d, AttrDef):
                definition = self.const(d, "attr")
                self.emit(f"x = {child}", depth)
                self.emit(f"if x is not None: attrs[{d.name!r}] = convert_attr(s, {definition}, x)",
                          depth)
            elif isinstance(d, RegionDef):
                self.emit(f"r_{d.name} = {child}", depth)
            elif isinstance(d, SuccessorDef):
                self.emit(f"succ.append({child})", depth)
            else:
                raise _Unsupported
        elif isinstance(element, TypeDirective):
            target = element.target
            if isinstance(target, AllResults):
                self.emit(f"tl_results = {child} or []", depth)
                self.result_list = "tl_results"
            elif isinstance(target, AllOperands):
                raise _Unsupported
            elif target.definition.is_single:
                self.emit(f"t_{target.name} = {child}", depth)
                self.single_type.setdefault(target.name, f"t_{target.name}")
            else:
                self.emit(f"tl_{target.name} = {child}{' or []' if target.definition.variadic else ''}",
                          depth)
                if target.definition.optional:
                    self.emit(f"tl_{target.name} = [] if tl_{target.name} is None else "
                              f"[tl_{target.name}]", depth)
                self.type_list[target.name] = f"tl_{target.name}"
        elif isinstance(element, FunctionalType):
            self.emit(f"ft = {child}", depth)
            for ref, field in ((element.inputs, "inputs"), (element.results, "results")):
                if isinstance(ref, AllResults):
                    self.emit("tl_results = list(ft.results)", depth)
                    self.result_list = "tl_results"
                elif isinstance(ref, AllOperands):
                    raise _Unsupported
                else:
                    self.emit(f"tl_{ref.name} = list(ft.{field})", depth)
                    self.type_list[ref.name] = f"tl_{ref.name}"
        elif isinstance(element, AttrDict):
            self.emit(f"x = {child}", depth)
            self.emit("if x is not None: attrs.update(x.entries)", depth)
        else:
            raise _Unsupported

    def resolve_types(self) -> None:
        """Decide, once, where each operand's and result's type comes from."""
        op_def = self.op_def
        groups = {d.name: d for d in (*op_def.operands, *op_def.results)}
        parent = {name: name for name in groups}

        def find(name):
            while parent[name] != name:
                name = parent[name]
            return name

        def union(names):
            names = [n for n in names if n in parent]
            for other in names[1:]:
                parent[find(other)] = find(names[0])

        if SameOperandsAndResultType in op_def.trait_set:
            union(list(groups))
        if SameTypeOperands in op_def.trait_set:
            union([d.name for d in op_def.operands])
        for trait in op_def.traits:
            if isinstance(trait, AllTypesMatch):
                union(list(trait.names))
        source_of_class: dict[str, str] = {}
        for name, expr in self.single_type.items():
            source_of_class.setdefault(find(name), expr)
        for name, definition in groups.items():
            if name in self.single_type or name in self.type_list:
                continue
            expr = source_of_class.get(find(name))
            if expr is None:
                fixed = definition.constraint.buildable_type()
                if fixed is not None:
                    expr = self.const(fixed, "type")
            if expr is None:
                continue
            if definition.is_single:
                self.single_type[name] = expr
            elif definition.variadic and isinstance(definition, OperandDef):
                self.type_list[name] = f"[{expr}] * len(o_{name})"

    def generate(self) -> str:
        op_def = self.op_def
        self.emit("def build(s, c):", 0)
        self.emit("attrs = {}", 1)
        self.emit("succ = []", 1)
        for d in op_def.operands:
            self.emit(f"o_{d.name} = {'[]' if d.variadic else 'None'}", 1)
        for d in op_def.regions:
            self.emit(f"r_{d.name} = None", 1)
        for d in (*op_def.operands, *op_def.results):
            self.emit(f"t_{d.name} = None", 1)
            self.emit(f"tl_{d.name} = []", 1)
        self.emit("tl_results = []", 1)
        self.elements(self.fmt.elements, "c", 1)
        self.resolve_types()
        # Operands, typed.
        self.emit("ops = []", 1)
        for d in op_def.operands:
            if d.is_single:
                if d.name not in self.single_type:
                    raise _Unsupported
                self.emit(f"ops.append(s.resolve_operand(o_{d.name}, {self.single_type[d.name]}))", 1)
            elif d.optional:
                if d.name in self.single_type:
                    self.emit(f"if o_{d.name} is not None: ops.append(s.resolve_operand(o_{d.name}, "
                              f"{self.single_type[d.name]}))", 1)
                elif d.name in self.type_list:
                    self.emit(f"if o_{d.name} is not None: ops.append(s.resolve_operand(o_{d.name}, "
                              f"{self.type_list[d.name]}[0]))", 1)
                else:
                    raise _Unsupported
            else:
                if d.name not in self.type_list:
                    raise _Unsupported
                self.emit(f"tl = {self.type_list[d.name]}", 1)
                self.emit(f"check_count(o_{d.name}, tl, {d.name!r}, c[0].start_pos)", 1)
                self.emit(f"ops.extend(s.resolve_operand(v, t) for v, t in zip(o_{d.name}, tl))", 1)
        if op_def.needs_operand_segments:
            sizes = ", ".join(f"len(o_{d.name})" if d.variadic else
                              (f"(0 if o_{d.name} is None else 1)" if d.optional else "1")
                              for d in op_def.operands)
            self.emit(f"attrs['operandSegmentSizes'] = DenseArrayAttr(I32, ({sizes},))", 1)
        # Results.
        if self.result_list is not None:
            self.emit(f"rtypes = {self.result_list}", 1)
        elif all((d.is_single and d.name in self.single_type) or
                 (not d.is_single and d.name in self.type_list) for d in op_def.results):
            parts = [f"[{self.single_type[d.name]}]" if d.is_single else self.type_list[d.name]
                     for d in op_def.results]
            self.emit("rtypes = " + (" + ".join(parts) if parts else "[]"), 1)
        else:
            self.emit("try:", 1)
            self.emit("rtypes = CLS.infer_result_types([v.type for v in ops], attrs)", 2)
            self.emit("except Exception as exc:", 1)
            self.emit("raise BuildError(str(exc), c[0].start_pos) from None", 2)
        regions = ", ".join(f"r_{d.name} if r_{d.name} is not None else Region()"
                            for d in op_def.regions)
        self.emit(f"return ops, rtypes, attrs, [{regions}], succ", 1)
        return "\n".join(self.lines) + "\n"


def generate_builder(fmt: CompiledFormat):
    """The specialised builder for `fmt`, or None where the general path is needed."""
    generator = _Generator(fmt)
    try:
        source = generator.generate()
    except _Unsupported:
        return None
    namespace = {
        "convert_attr": convert_attr, "check_count": check_count, "BuildError": BuildError,
        "DenseArrayAttr": DenseArrayAttr, "I32": i32, "UNIT": unit, "Region": Region,
        "CLS": fmt.op_def.cls, **generator.constants,
    }
    exec(compile(source, f"<format of {fmt.op_def.name}>", "exec"), namespace)  # noqa: S102
    build = namespace["build"]
    build.source = source
    return build




# ---------------------------------------------------------------- printers


def _space_rule(text: str) -> tuple[bool, bool]:
    """Whether a space goes before literal `text` after punctuation / after other text."""
    from mlc.ir.text.format import _space_before

    return _space_before(text, True), _space_before(text, False)


class _PrinterGenerator:
    def __init__(self, fmt: CompiledFormat):
        self.fmt = fmt
        self.op_def = fmt.op_def
        self.lines: list[str] = []
        self.constants: dict[str, object] = {}
        self.counter = 0

    def const(self, value, hint: str) -> str:
        name = f"K_{hint}_{len(self.constants)}"
        self.constants[name] = value
        return name

    def emit(self, line: str, depth: int) -> None:
        self.lines.append("    " * depth + line)

    def fresh(self, hint: str) -> str:
        self.counter += 1
        return f"{hint}{self.counter}"

    def value_expr(self, definition, results: bool) -> str:
        """An expression for a single operand/result, by static position when possible."""
        layout = self.op_def._layout(self.op_def.results if results else self.op_def.operands)
        if layout is not None:
            offset, kind = layout[definition.index]
            if kind == 0:
                return f"op.results[{offset}]" if results else f"op._operands[{offset}].value"
            if kind == 1:
                return f"op.results[-{offset}]" if results else f"op._operands[-{offset}].value"
        return f"op.{definition.name}"

    def elements(self, elements: list, depth: int) -> None:
        for element in elements:
            self.element(element, depth)

    def literal(self, text: str, depth: int) -> None:
        if not text:
            self.emit("sp = False", depth)
            return
        after_punct, after_other = _space_rule(text)
        if after_punct and after_other:
            self.emit("if sp: w(' ')", depth)
        elif after_punct:
            self.emit("if sp and lp: w(' ')", depth)
        elif after_other:
            self.emit("if sp and not lp: w(' ')", depth)
        self.emit(f"w({text!r})", depth)
        self.emit(f"sp = {len(text) != 1 or text not in '<({['}", depth)
        self.emit(f"lp = {text[0] != '_' and not text[0].isalpha()}", depth)

    def guarded(self, body: list[str], depth: int, may_be_empty: bool) -> None:
        """Print an element with a space before it (dropped if it printed nothing)."""
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
        self.emit("else:", depth)
        self.emit("sp = True", depth + 1)
        self.emit("lp = False", depth + 1)

    def element(self, element, depth: int) -> None:
        if isinstance(element, Literal):
            self.literal(element.text, depth)
        elif isinstance(element, Group):
            self.emit(f"if {self.presence(element)}:", depth)
            self.emit("pass", depth + 1)
            self.elements(element.elements, depth + 1)
        elif isinstance(element, AttrDict):
            used = self.const(self.fmt.used_attrs, "used")
            self.emit(f"p.attr_dict(op, {used}, keyword={element.with_keyword})", depth)
            self.emit("sp = True", depth)
            self.emit("lp = False", depth)
        elif isinstance(element, Var):
            d = element.definition
            if isinstance(d, OperandDef):
                if d.is_single:
                    self.guarded([f"w(name_of({self.value_expr(d, False)}) or UNKNOWN)"], depth, False)
                elif d.variadic:
                    self.guarded([f"p.value_list(op.{d.name})"], depth, True)
                else:
                    self.guarded([f"x = op.{d.name}", "if x is not None: p.value(x)"], depth, True)
            elif isinstance(d, AttrDef):
                if d.constraint.syntax == "unit":
                    return
                definition = self.const(d, "attr")
                self.emit(f"x = attrs.get({d.name!r})", depth)
                self.emit("if x is not None:", depth)
                self.guarded([f"p.attr_in_syntax({definition}, x)"], depth + 1, False)
            elif isinstance(d, RegionDef):
                self.guarded([f"p.region(op.regions[{d.index}])"], depth, False)
            elif isinstance(d, SuccessorDef):
                self.guarded([f"p.successor(op.{d.name})"], depth, False)
            else:
                raise _Unsupported
        elif isinstance(element, TypeDirective):
            target = element.target
            if isinstance(target, Var) and target.definition.is_single:
                expr = self.value_expr(target.definition, isinstance(target.definition, ResultDef))
                self.guarded([f"w(type_text({expr}.type))"], depth, False)
            else:
                self.guarded([f"p.type_list({self.types_expr(target)})"], depth,
                             self.types_may_be_empty(target))
        elif isinstance(element, FunctionalType):
            self.guarded([f"p.type(FunctionType(tuple({self.types_expr(element.inputs)}), "
                          f"tuple({self.types_expr(element.results)})))"], depth, False)
        elif isinstance(element, Custom):
            directive = self.const(element.directive, "directive")
            params = self.const(element.params, "params")
            body = [f"{directive}.print(op, {params}, p)"]
            if element.directive.space_before:
                self.guarded(body, depth, True)
            else:
                self.emit("mark = len(parts)", depth)
                for line in body:
                    self.emit(line, depth)
                self.emit("if len(parts) > mark:", depth)
                self.emit("sp = True", depth + 1)
                self.emit("lp = False", depth + 1)
        elif isinstance(element, AllOperands):
            self.guarded(["p.value_list(op.operands)"], depth, True)
        else:
            raise _Unsupported

    def types_expr(self, target) -> str:
        if isinstance(target, AllOperands):
            return "op.operand_types"
        if isinstance(target, AllResults):
            return "op.result_types"
        d = target.definition
        results = isinstance(d, ResultDef)
        if d.is_single:
            return f"({self.value_expr(d, results)}.type,)"
        if d.variadic:
            return f"[v.type for v in op.{d.name}]"
        return f"[v.type for v in (op.{d.name},) if v is not None]"

    @staticmethod
    def types_may_be_empty(target) -> bool:
        if isinstance(target, (AllOperands, AllResults)):
            return True
        return not target.definition.is_single

    def presence(self, group: Group) -> str:
        anchor = group.anchor
        if isinstance(anchor, TypeDirective):
            anchor = anchor.target
        if isinstance(anchor, Var):
            d = anchor.definition
            if isinstance(d, (OperandDef, ResultDef)):
                if d.variadic:
                    return f"op.{d.name}"
                return f"op.{d.name} is not None"
            if isinstance(d, AttrDef):
                if d.default is not None:
                    default = self.const(d.default, "default")
                    return f"attrs.get({d.name!r}, {default}) != {default}"
                return f"attrs.get({d.name!r}) is not None"
            if isinstance(d, RegionDef):
                return f"op.regions[{d.index}].blocks"
        if isinstance(anchor, AllOperands):
            return "op._operands"
        return "True"

    def generate(self) -> str:
        self.emit("def print_custom(op, p):", 0)
        self.emit("parts = p.parts", 1)
        self.emit("w = parts.append", 1)
        self.emit("name_of = p.names.get", 1)
        self.emit("type_text = p._type_text", 1)
        self.emit("attrs = op.attributes", 1)
        self.emit("sp = True", 1)
        self.emit("lp = False", 1)
        self.elements(self.fmt.elements, 1)
        return "\n".join(self.lines) + "\n"


def generate_printer(fmt: CompiledFormat):
    """A specialised printer for `fmt` (spacing decided statically where it can be)."""
    generator = _PrinterGenerator(fmt)
    try:
        source = generator.generate()
    except _Unsupported:
        return None
    from mlc.ir.core.attributes import FunctionType

    namespace = {"UNKNOWN": "%<<UNKNOWN SSA VALUE>>", "FunctionType": FunctionType,
                 **generator.constants}
    exec(compile(source, f"<printer of {fmt.op_def.name}>", "exec"), namespace)  # noqa: S102
    printer = namespace["print_custom"]
    printer.source = source
    return printer
