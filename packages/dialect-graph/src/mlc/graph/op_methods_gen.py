"""Generates `mlc/graph/op_methods.py`: one typed method per graph op for
`GraphBuilder` (MLIR generates its op builders from ODS the same way), so an IDE
completes `b.conv2d(` with the operands and attributes the op declares.

    python -m mlc.graph.op_methods_gen > packages/dialect-graph/src/mlc/graph/op_methods.py

`tests/unit/test_graph_builder_methods.py` fails when the checked-in file differs
from what this renders, so a new op or attribute cannot be forgotten.
"""

from __future__ import annotations

from mlc.graph.attributes import GraphAttr
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp

# A Python spelling per attribute kind (`GraphAttr.kind`).
_PYTHON_TYPES = {"ints": "Sequence[int]", "int": "int", "float": "float", "bool": "bool",
                 "str": "str", "type": "Type", "number": "int | float"}

_HEADER = '''"""Typed builder methods of the graph ops, generated from their declarations by
`python -m mlc.graph.op_methods_gen`; do not edit. `GraphBuilder` inherits them."""

# ruff: noqa: E501
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.ir import Attribute, Location, Type, Value


def _given(**attrs: Any) -> dict[str, Any]:
    """The attributes given a value (None: the op's default)."""
    return {key: value for key, value in attrs.items() if value is not None}


class GraphOpMethods:
    """One method per graph op: `b.conv2d(x, w, strides=(2, 2))` appends
    `graph.conv2d` and returns its result (a list for ops with variadic results).
    `name` names the result (and locates the op), `loc` locates it."""

    def op(self, short_name: str, *operands: Value | Sequence[Value], name: str | None = None,
           loc: Location | None = None, **attrs: Any) -> Value | list[Value]:
        raise NotImplementedError
'''


def _attribute_type(definition) -> str:
    constraint = definition.constraint
    if isinstance(constraint, GraphAttr):
        if constraint.kind == "str" and constraint.choices:
            return "str"
        return _PYTHON_TYPES[constraint.kind]
    return "Attribute"


def _summary(cls) -> str:
    text = " ".join(cls.op_def.summary.split()) or f"graph.{cls.op_def.name}"
    return text.replace("\\", "\\\\").replace('"""', "'''")


def _method(short: str, cls: type[GraphOp]) -> str:
    operands = cls.op_def.operands
    params = ["self"]
    for operand in operands:
        params.append(f"{operand.name}: {'Sequence[Value]' if operand.variadic else 'Value'}")
    params.append("*")
    # An op with its own builder spellings (`normalize`: conv2d's `strides=2`, range's
    # `dtype`) takes more than its attributes' types say, and extra keywords.
    spelled = hasattr(cls, "normalize")
    required, optional = [], []
    for attr_name, definition in cls.op_def.attributes.items():
        python = "Any" if spelled else _attribute_type(definition)
        if definition.default is None and not definition.optional:
            required.append(f"{attr_name}: {python}")
        else:
            optional.append(f"{attr_name}: {python} | None = None")
    params += required + optional + ["name: str | None = None", "loc: Location | None = None"]
    if spelled:
        params.append("**spellings: Any")
    many = any(r.variadic for r in cls.op_def.results) or len(cls.op_def.results) != 1
    returns = "list[Value]" if many else "Value"
    arguments = ", ".join([repr(short), *(o.name for o in operands), "name=name", "loc=loc"])
    attrs = ", ".join([*(f"{a}={a}" for a in cls.op_def.attributes),
                       *(["**spellings"] if spelled else [])])
    call = f"self.op({arguments}, **_given({attrs}))" if attrs else f"self.op({arguments})"
    return (f"\n    def {short}({', '.join(params)}) -> {returns}:\n"
            f'        """{_summary(cls)}"""\n'
            f"        return {call}  # type: ignore[return-value]\n")


def render() -> str:
    """The text of `op_methods.py` for the graph ops registered now."""
    methods = []
    for full_name in sorted(graph.ops):
        cls = graph.ops[full_name]
        if issubclass(cls, GraphOp):  # the calls have methods of their own (call_tir)
            methods.append(_method(full_name.split(".", 1)[1], cls))
    return _HEADER + "".join(methods)


if __name__ == "__main__":
    import mlc.graph.ops  # noqa: F401 - registers every op

    print(render(), end="")
