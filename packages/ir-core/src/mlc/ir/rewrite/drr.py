"""Declarative rewrite patterns, in the spirit of MLIR's DRR: a pattern is data.

A source DAG of ops with captured values, attributes and ops, constraints over the
captures, and a result DAG (or a captured value) that replaces the root:

    def add_int(c0, c1): ...        # a plain named function: the sum, or None

    DagPattern(
        "AddIAddConstant",
        source=Dag(AddIOp, Dag(AddIOp, V("x"), Const("c0")), Const("c1")),
        result=Dag(AddIOp, V("x"), Dag(ConstantOp, value=Native(add_int, "c0", "c1"))),
    )

prints as

    AddIAddConstant: (arith.addi (arith.addi $x, (constant $c0)), (constant $c1))
        -> (arith.addi $x, (arith.constant {value = add_int($c0, $c1)}))

Ops are given as their classes, or by name (`Dag("arith.addi", ...)`), resolved
through a :class:`~mlc.ir.core.dialect_registry.Context` when the pattern is built. Everything a
pattern says is checked then, not when it first runs: an unknown op, a wrong number of
operands, an undeclared attribute, a capture used but never bound or bound as two
different kinds are a :class:`~mlc.ir.rewrite.pattern.PatternError` naming the pattern.

A root with several results is replaced by a tuple of results, one per result (MLIR's
`Pattern<source, [results...]>`): `(Dag(MulIOp, V("x"), V("y")), V("x"))` replaces
`mulsi_extended`'s low half by a `muli` and its unused high half by anything.

A name captured twice in the source means the two must be equal: the same SSA value
(`V`), equal attributes (`A`, `Const`) or the same op (`bind=`). Constraints
(`Check(fn, *names)`) and computed attributes (`Native(fn, *names)`) are plain
named functions printed by their names, so a pattern stays printable, comparable data
that can be built at run time. A pattern is indexed by its root op's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mlc.ir.core.attributes import Attribute
from mlc.ir.core.dialect_registry import Context
from mlc.ir.core.ir import Operation, Value
from mlc.ir.opdef.traits import constant_value
from mlc.ir.rewrite.pattern import PatternError, RewritePattern
from mlc.ir.rewrite.rewriter import PatternRewriter

# ------------------------------------------------------------------ DAG nodes


@dataclass(frozen=True)
class V:
    """A value captured under `name`; in a result DAG, the value captured."""

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


def _function_name(function: Callable) -> str:
    return getattr(function, "__name__", repr(function))


@dataclass(frozen=True)
class Native:
    """A result attribute computed by `function` from captures; the function returns
    None when the rewrite must not happen (e.g. the value would overflow)."""

    function: Callable[..., Any]
    args: tuple[str, ...]

    def __init__(self, function: Callable[..., Any], *args: str):
        object.__setattr__(self, "function", function)
        object.__setattr__(self, "args", tuple(args))

    def __str__(self) -> str:
        return f"{_function_name(self.function)}({', '.join('$' + a for a in self.args)})"


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
    """An op: its class (or name), operand nodes, attribute nodes, and an optional
    capture of the op itself (for constraints and natives). Two DAGs are equal when
    they say the same thing by op name."""

    op: str
    operands: tuple[Any, ...]
    attrs: tuple[tuple[str, Any], ...]
    bind: str | None
    op_class: type | None = field(compare=False, repr=False)

    def __init__(self, op: type | str, *operands, bind: str | None = None, **attrs):
        if isinstance(op, str):
            name, op_class = op, None
        else:
            op_def = getattr(op, "op_def", None)
            if op_def is None:
                raise TypeError(f"Dag takes an op class or an op name, not {op!r}")
            name, op_class = op_def.name, op
        object.__setattr__(self, "op", name)
        object.__setattr__(self, "operands", tuple(operands))
        object.__setattr__(self, "attrs", tuple(sorted(attrs.items())))
        object.__setattr__(self, "bind", bind)
        object.__setattr__(self, "op_class", op_class)

    def __str__(self) -> str:
        head = self.op + (f":${self.bind}" if self.bind else "")
        if self.attrs:
            head += " {" + ", ".join(f"{k} = {v}" for k, v in self.attrs) + "}"
        if not self.operands:
            return f"({head})"
        return f"({head} " + ", ".join(str(o) for o in self.operands) + ")"


@dataclass(frozen=True)
class Check:
    """A constraint: `function` applied to captures, e.g. `Check(one_use, "t")`."""

    function: Callable[..., bool]
    args: tuple[str, ...]

    def __init__(self, function: Callable[..., bool], *args: str):
        object.__setattr__(self, "function", function)
        object.__setattr__(self, "args", tuple(args))

    def __str__(self) -> str:
        return f"{_function_name(self.function)}({', '.join('$' + a for a in self.args)})"


# ------------------------------------------------------------------ the pattern


@dataclass(frozen=True, eq=False)
class DagPattern(RewritePattern):
    """A declarative pattern; see the module docstring. Ops named by string are
    resolved through `context` (a fresh default Context if none is given)."""

    pattern_name: str
    source: Dag
    result: Any
    constraints: tuple[Check, ...] = ()
    pattern_benefit: int = 1
    doc: str = ""
    _natives: tuple = field(default=(), repr=False)

    def __init__(self, name: str, source: Dag, result, constraints=(), benefit: int = 1,
                 doc: str = "", context: Context | None = None):
        checker = _Checker(name, context)
        if not isinstance(source, Dag):
            raise checker.error(f"the source must be a Dag, not {source!r}")
        source = checker.resolve(source, in_result=False)
        kinds: dict[str, str] = {}
        checker.collect_captures(source, kinds)
        result = checker.resolve(result, in_result=True)
        constraints = tuple(constraints)
        for check in constraints:
            if not isinstance(check, Check):
                raise checker.error(f"a constraint must be a Check, not {check!r}")
            checker.hook(check.function, "constraint")
            checker.uses(check.args, kinds, None)
        natives: list[Native] = []
        checker.check_result(result, kinds, natives)
        if isinstance(result, tuple):
            checker.check_result_count(source, len(result))
        object.__setattr__(self, "pattern_name", name)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "constraints", constraints)
        object.__setattr__(self, "pattern_benefit", benefit)
        object.__setattr__(self, "doc", doc)
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
        result = self.result
        if isinstance(result, tuple):
            result = "[" + ", ".join(str(r) for r in result) + "]"
        text = f"{self.pattern_name}: {self.source} -> {result}"
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
            if not check.function(*(bindings[a] for a in check.args)):
                return None
        return bindings

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        bindings = self.match(op)
        if bindings is None:
            return False
        # Natives run before any change, so a refusal leaves the IR untouched.
        computed = {}
        for node in self._natives:
            value = node.function(*(bindings[a] for a in node.args))
            if value is None:
                return rewriter.notify_match_failure(
                    op, f"{self.pattern_name}: {_function_name(node.function)} declined")
            computed[node] = value
        if isinstance(self.result, V):
            rewriter.replace_op(op, [bindings[self.result.name]])
            return True
        rewriter.set_insertion_point_before(op)
        if isinstance(self.result, tuple):
            values = []
            for index, node in enumerate(self.result):
                if isinstance(node, V):
                    values.append(bindings[node.name])
                else:
                    built = _build(node, bindings, computed, rewriter, op,
                                   result_types=[op.results[index].type])
                    values.append(built.results[0])
            rewriter.replace_op(op, values)
            return True
        new = _build(self.result, bindings, computed, rewriter, op, outermost=True)
        rewriter.replace_op(op, new.results)
        return True


# ------------------------------------------------------------------ construction checks

# What a capture names: a value (V), an attribute (A, Const) or an op (Dag bind=).
_VALUE, _ATTRIBUTE, _OP = "a value", "an attribute", "an op"


class _Checker:
    """Resolves a pattern's op names and checks what it says, with errors that name
    the pattern."""

    def __init__(self, pattern: str, context: Context | None):
        self.pattern = pattern
        self.context = context

    def error(self, message: str) -> PatternError:
        return PatternError(f"pattern '{self.pattern}': {message}")

    def resolve(self, node, in_result: bool):
        """`node` with every Dag's op class resolved and checked."""
        if in_result and isinstance(node, (tuple, list)):
            return tuple(self.resolve(n, in_result) for n in node)
        if not isinstance(node, Dag):
            return node
        op_class = node.op_class
        if op_class is None:
            if self.context is None:
                self.context = Context()
            op_class = self.context.get_op_class(node.op)
            if op_class is None and (in_result or not self.context.allow_unregistered):
                raise self.error(f"unknown op '{node.op}'")
        if in_result and node.bind is not None:
            raise self.error(f"'{node.op}' in the result binds ${node.bind}: captures are "
                             "made in the source DAG")
        if op_class is not None:
            self._check_declaration(op_class.op_def, node, in_result)
        operands = [self.resolve(o, in_result) for o in node.operands]
        resolved = Dag(op_class or node.op, *operands, bind=node.bind, **dict(node.attrs))
        return resolved

    def _check_declaration(self, op_def, node: Dag, in_result: bool) -> None:
        count = len(node.operands)
        singles = sum(1 for d in op_def.operands if d.is_single)
        if all(d.is_single for d in op_def.operands):
            if count != singles:
                raise self.error(f"'{op_def.name}' takes {singles} operand"
                                 f"{'' if singles == 1 else 's'}, the DAG gives {count}")
        elif count < singles:
            raise self.error(f"'{op_def.name}' takes at least {singles} operands, the DAG "
                             f"gives {count}")
        elif in_result and op_def.needs_operand_segments:
            raise self.error(f"'{op_def.name}' has several variadic operand groups: a "
                             "result DAG cannot build it")
        for attr_name, _ in node.attrs:
            if attr_name not in op_def.attributes:
                raise self.error(f"'{op_def.name}' declares no attribute '{attr_name}'")

    def collect_captures(self, node, kinds: dict[str, str]) -> None:
        """Record the kind of every name the source DAG captures."""
        if isinstance(node, V):
            self._capture(node.name, _VALUE, kinds)
        elif isinstance(node, Const):
            if node.name is not None:
                self._capture(node.name, _ATTRIBUTE, kinds)
        elif isinstance(node, Dag):
            if node.bind is not None:
                self._capture(node.bind, _OP, kinds)
            for operand in node.operands:
                if not isinstance(operand, (V, Const, Dag)):
                    raise self.error(f"an operand of '{node.op}' must be V, Const or Dag, "
                                     f"not {operand!r}")
                self.collect_captures(operand, kinds)
            for attr_name, attr in node.attrs:
                if isinstance(attr, A):
                    self._capture(attr.name, _ATTRIBUTE, kinds)
                elif not isinstance(attr, AttrIs):
                    raise self.error(f"attribute '{attr_name}' of '{node.op}' in the source "
                                     f"must be A or AttrIs, not {attr!r}")

    def _capture(self, name: str, kind: str, kinds: dict[str, str]) -> None:
        known = kinds.setdefault(name, kind)
        if known != kind:
            raise self.error(f"${name} captures both {known} and {kind}")

    def uses(self, names, kinds: dict[str, str], kind: str | None) -> None:
        """Each of `names` is captured (as `kind`, when given)."""
        for name in names:
            if name not in kinds:
                raise self.error(f"${name} is not captured by the source DAG")
            if kind is not None and kinds[name] != kind:
                raise self.error(f"${name} is used as {kind} but captures {kinds[name]}")

    def hook(self, function, what: str) -> None:
        """`function` is a named callable, so that the pattern prints."""
        if isinstance(function, str):
            raise self.error(f"{what} '{function}' is a name: pass the function itself")
        if not callable(function):
            raise self.error(f"{what} {function!r} is not callable")
        if getattr(function, "__name__", "<lambda>") == "<lambda>":
            raise self.error(f"a {what} must be a named function (it is printed by its name)")

    def check_result_count(self, source: Dag, count: int) -> None:
        """A tuple of results has one per result of the root."""
        op_def = source.op_class.op_def if source.op_class is not None else None
        if op_def is None or not all(d.is_single for d in op_def.results):
            return
        if count != len(op_def.results):
            raise self.error(f"'{op_def.name}' has {len(op_def.results)} result"
                             f"{'' if len(op_def.results) == 1 else 's'}, the pattern gives "
                             f"{count} replacements")

    def check_result(self, node, kinds: dict[str, str], natives: list) -> None:
        """The result DAG uses captures as what they capture; collect its natives."""
        if isinstance(node, tuple):
            if not node:
                raise self.error("a tuple of results must not be empty")
            for item in node:
                if isinstance(item, tuple):
                    raise self.error("a tuple of results holds V and Dag nodes, not tuples")
                self.check_result(item, kinds, natives)
            return
        if isinstance(node, V):
            self.uses([node.name], kinds, _VALUE)
            return
        if not isinstance(node, Dag):
            raise self.error(f"a result must be V or Dag, not {node!r}")
        for operand in node.operands:
            self.check_result(operand, kinds, natives)
        for attr_name, attr in node.attrs:
            if isinstance(attr, A):
                self.uses([attr.name], kinds, _ATTRIBUTE)
            elif isinstance(attr, Native):
                self.hook(attr.function, "native function")
                self.uses(attr.args, kinds, None)
                natives.append(attr)
            elif not isinstance(attr, AttrIs):
                raise self.error(f"attribute '{attr_name}' of '{node.op}' in the result must "
                                 f"be A, AttrIs or Native, not {attr!r}")


# ------------------------------------------------------------------ matching and building


_UNBOUND = object()


def _bind(bindings: dict, name: str, thing, same: bool) -> bool:
    """Capture `thing` as `name`; a second capture must be the same value or op
    (`same`) or an equal attribute."""
    bound = bindings.get(name, _UNBOUND)
    if bound is _UNBOUND:
        bindings[name] = thing
        return True
    return bound is thing if same else bound == thing


def _match_value(node, value: Value, bindings: dict) -> bool:
    if isinstance(node, V):
        return _bind(bindings, node.name, value, same=True)
    defining = value.defining_op
    if defining is None:
        return False
    if isinstance(node, Const):
        attr = constant_value(value)
        if attr is None or (node.equals is not None and attr != node.equals):
            return False
        return node.name is None or _bind(bindings, node.name, attr, same=False)
    return _match_op(node, defining, bindings)


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
        elif attr is None or not _bind(bindings, attr_node.name, attr, same=False):
            return False
    for operand_node, operand in zip(node.operands, op.op_operands):
        if not _match_value(operand_node, operand.value, bindings):
            return False
    return node.bind is None or _bind(bindings, node.bind, op, same=True)


def _build(node, bindings: dict, computed: dict, rewriter: PatternRewriter, root: Operation,
           outermost: bool = False, result_types=None):
    if isinstance(node, V):
        return bindings[node.name]
    operands = [_build(o, bindings, computed, rewriter, root) for o in node.operands]
    operands = [o.results[0] if isinstance(o, Operation) else o for o in operands]
    attrs = {}
    for name, attr_node in node.attrs:
        if isinstance(attr_node, A):
            attrs[name] = bindings[attr_node.name]
        elif isinstance(attr_node, AttrIs):
            attrs[name] = attr_node.value
        else:
            attrs[name] = computed[attr_node]
    if outermost:
        result_types = root.result_types
    op = node.op_class.create_from_flat(operands, attrs, result_types, root.loc)
    rewriter.insert(op)
    return op
