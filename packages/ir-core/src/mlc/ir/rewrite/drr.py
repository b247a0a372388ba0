"""Declarative rewrite patterns, in the spirit of MLIR's DRR: a pattern is data.

A source DAG over op names, with captured values and attributes and constraints, and
a result DAG (or a captured value) that replaces the root:

    DagPattern(
        name="AddIAddConstant",
        source=Dag("arith.addi", Dag("arith.addi", V("x"), Const("c0")), Const("c1")),
        result=Dag("arith.addi", V("x"),
                   Dag("arith.constant", value=Native("add_attrs", "c0", "c1"))),
    )

prints as

    AddIAddConstant: (arith.addi (arith.addi $x, (constant $c0)), (constant $c1))
        -> (arith.addi $x, (arith.constant {value = add_attrs($c0, $c1)}))

Constraints and attribute computations are named hooks (`@constraint`, `@native`)
so a pattern stays plain, printable, comparable data that can be built at run time.
A pattern compiles into a matcher indexed by its root op name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mlc.ir.core.attributes import Attribute
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialect import OP_CLASSES_BY_NAME
from mlc.ir.opdef.traits import ConstantLike
from mlc.ir.rewrite.pattern import RewritePattern
from mlc.ir.rewrite.rewriter import PatternRewriter

NATIVE_FUNCTIONS: dict[str, Callable[..., Any]] = {}
CONSTRAINTS: dict[str, Callable[..., bool]] = {}


def native(name: str):
    """Register a function computing a result attribute from bound attributes/values;
    it returns None when the rewrite must not happen (e.g. the value would overflow)."""

    def register(fn):
        NATIVE_FUNCTIONS[name] = fn
        return fn

    return register


def constraint(name: str):
    """Register a predicate over bound values, attributes or ops."""

    def register(fn):
        CONSTRAINTS[name] = fn
        return fn

    return register


# ------------------------------------------------------------------ DAG nodes


@dataclass(frozen=True)
class V:
    """A value: captured under `name`; the same name twice means the same value."""

    name: str

    def __str__(self) -> str:
        return f"${self.name}"


@dataclass(frozen=True)
class A:
    """An attribute captured under `name` (in a source DAG) or reused (in a result)."""

    name: str

    def __str__(self) -> str:
        return f"${self.name}"


@dataclass(frozen=True)
class AttrIs:
    """An attribute equal to `value`."""

    value: Attribute

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Native:
    """A result attribute computed by a registered native function."""

    function: str
    args: tuple[str, ...]

    def __init__(self, function: str, *args: str):
        object.__setattr__(self, "function", function)
        object.__setattr__(self, "args", tuple(args))

    def __str__(self) -> str:
        return f"{self.function}({', '.join('$' + a for a in self.args)})"


@dataclass(frozen=True)
class Const:
    """A value defined by a constant-like op; its value attribute is captured as
    `name`, and must equal `equals` when given."""

    name: str | None = None
    equals: Attribute | None = None

    def __str__(self) -> str:
        inner = f"${self.name}" if self.name else ""
        if self.equals is not None:
            inner = f"{inner} = {self.equals}" if inner else str(self.equals)
        return f"(constant {inner})".replace("( ", "(").replace(" )", ")")


@dataclass(frozen=True)
class Dag:
    """An op: its name, operand nodes, attribute nodes, and an optional binding of
    the op itself (for constraints and natives)."""

    op: str
    operands: tuple[Any, ...]
    attrs: tuple[tuple[str, Any], ...]
    bind: str | None

    def __init__(self, op: str, *operands, bind: str | None = None, **attrs):
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "operands", tuple(operands))
        object.__setattr__(self, "attrs", tuple(sorted(attrs.items())))
        object.__setattr__(self, "bind", bind)

    def __str__(self) -> str:
        head = self.op + (f":${self.bind}" if self.bind else "")
        if self.attrs:
            head += " {" + ", ".join(f"{k} = {v}" for k, v in self.attrs) + "}"
        if not self.operands:
            return f"({head})"
        return f"({head} " + ", ".join(str(o) for o in self.operands) + ")"


@dataclass(frozen=True)
class Check:
    """A registered constraint applied to bound names: `Check("one_use", "t")`."""

    name: str
    args: tuple[str, ...]

    def __init__(self, name: str, *args: str):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "args", tuple(args))

    def __str__(self) -> str:
        return f"{self.name}({', '.join('$' + a for a in self.args)})"


# ------------------------------------------------------------------ the pattern


@dataclass(frozen=True, eq=False)
class DagPattern(RewritePattern):
    """A declarative pattern; see the module docstring."""

    pattern_name: str
    source: Dag
    result: Any
    constraints: tuple[Check, ...] = ()
    pattern_benefit: int = 1
    doc: str = ""
    _natives: tuple = field(default=(), repr=False)

    def __init__(self, name: str, source: Dag, result, constraints=(), benefit: int = 1,
                 doc: str = ""):
        object.__setattr__(self, "pattern_name", name)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "constraints", tuple(constraints))
        object.__setattr__(self, "pattern_benefit", benefit)
        object.__setattr__(self, "doc", doc)
        for check in self.constraints:
            if check.name not in CONSTRAINTS:
                raise ValueError(f"pattern '{name}': unknown constraint '{check.name}'")
        bound: set[str] = set()
        _collect_bound(source, bound)
        used: list[str] = [a for check in self.constraints for a in check.args]
        _collect_uses(result, used)
        for ref in used:
            if ref not in bound:
                raise ValueError(f"pattern '{name}': '${ref}' is not captured by the source DAG")
        natives = []
        _collect_natives(result, natives)
        for node in natives:
            if node.function not in NATIVE_FUNCTIONS:
                raise ValueError(f"pattern '{name}': unknown native function '{node.function}'")
        object.__setattr__(self, "_natives", tuple(natives))

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.pattern_name

    @property
    def root(self) -> str:  # type: ignore[override]
        return self.source.op

    @property
    def benefit(self) -> int:  # type: ignore[override]
        return self.pattern_benefit

    def describe(self) -> str:
        return self.doc

    def __str__(self) -> str:
        text = f"{self.pattern_name}: {self.source} -> {self.result}"
        if self.constraints:
            text += " where " + ", ".join(str(c) for c in self.constraints)
        return text

    # -- matching -----------------------------------------------------------------

    def match(self, op: Operation) -> dict[str, Any] | None:
        """Bindings if `op` matches the source DAG and the constraints, else None."""
        bindings: dict[str, Any] = {}
        if not _match_op(self.source, op, bindings):
            return None
        for check in self.constraints:
            if not CONSTRAINTS[check.name](*(bindings[a] for a in check.args)):
                return None
        return bindings

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        bindings = self.match(op)
        if bindings is None:
            return False
        # Natives run before any change, so a refusal leaves the IR untouched.
        computed = {}
        for node in self._natives:
            value = NATIVE_FUNCTIONS[node.function](*(bindings[a] for a in node.args))
            if value is None:
                return rewriter.notify_match_failure(
                    op, f"{self.pattern_name}: {node.function} declined")
            computed[node] = value
        if isinstance(self.result, V):
            rewriter.replace_op(op, [bindings[self.result.name]])
            return True
        rewriter.set_insertion_point_before(op)
        new = _build(self.result, bindings, computed, rewriter, op, outermost=True)
        rewriter.replace_op(op, new.results)
        return True


def _collect_bound(node, out: set) -> None:
    if isinstance(node, (V, A)):
        out.add(node.name)
    elif isinstance(node, Const) and node.name:
        out.add(node.name)
    elif isinstance(node, Dag):
        if node.bind:
            out.add(node.bind)
        for operand in node.operands:
            _collect_bound(operand, out)
        for _, attr in node.attrs:
            _collect_bound(attr, out)


def _collect_uses(node, out: list) -> None:
    if isinstance(node, (V, A)):
        out.append(node.name)
    elif isinstance(node, Native):
        out.extend(node.args)
    elif isinstance(node, Dag):
        for operand in node.operands:
            _collect_uses(operand, out)
        for _, attr in node.attrs:
            _collect_uses(attr, out)


def _collect_natives(node, out: list) -> None:
    if isinstance(node, Native):
        out.append(node)
    elif isinstance(node, Dag):
        for operand in node.operands:
            _collect_natives(operand, out)
        for _, attr in node.attrs:
            _collect_natives(attr, out)


def _match_value(node, value: Value, bindings: dict) -> bool:
    if isinstance(node, V):
        bound = bindings.get(node.name)
        if bound is None:
            bindings[node.name] = value
            return True
        return bound is value
    defining = value.defining_op
    if defining is None:
        return False
    if isinstance(node, Const):
        if not defining.has_trait(ConstantLike):
            return False
        attr = defining.attributes.get("value")
        if attr is None or (node.equals is not None and attr != node.equals):
            return False
        if node.name is not None:
            bound = bindings.get(node.name)
            if bound is not None and bound != attr:
                return False
            bindings[node.name] = attr
        return True
    if isinstance(node, Dag):
        return _match_op(node, defining, bindings)
    raise TypeError(f"not a source DAG node: {node!r}")


def _match_op(node: Dag, op: Operation, bindings: dict) -> bool:
    if op.name != node.op or len(op.op_operands) != len(node.operands):
        return False
    for attr_name, attr_node in node.attrs:
        attr = op.attributes.get(attr_name)
        if attr is None and op.op_def is not None:
            definition = op.op_def.attributes.get(attr_name)
            attr = definition.default if definition is not None else None
        if isinstance(attr_node, AttrIs):
            if attr != attr_node.value:
                return False
        elif isinstance(attr_node, A):
            if attr is None:
                return False
            bindings[attr_node.name] = attr
    for operand_node, operand in zip(node.operands, op.op_operands):
        if not _match_value(operand_node, operand.value, bindings):
            return False
    if node.bind is not None:
        bindings[node.bind] = op
    return True


def _build(node, bindings: dict, computed: dict, rewriter: PatternRewriter, root: Operation,
           outermost: bool = False):
    if isinstance(node, V):
        return bindings[node.name]
    if not isinstance(node, Dag):
        raise TypeError(f"not a result DAG node: {node!r}")
    cls = OP_CLASSES_BY_NAME.get(node.op)
    if cls is None:
        raise ValueError(f"result op '{node.op}' is not registered")
    operands = [_build(o, bindings, computed, rewriter, root) for o in node.operands]
    operands = [o.results[0] if isinstance(o, Operation) else o for o in operands]
    attrs = {}
    for name, attr_node in node.attrs:
        if isinstance(attr_node, A):
            attrs[name] = bindings[attr_node.name]
        elif isinstance(attr_node, AttrIs):
            attrs[name] = attr_node.value
        elif isinstance(attr_node, Native):
            attrs[name] = computed[attr_node]
    result_types = root.result_types if outermost else None
    op = cls.create_from_flat(operands, attrs, result_types, root.loc)
    rewriter.insert(op)
    return op
