"""Building graph modules from Python, the way Relay's examples read:

    b = GraphBuilder()
    x = b.param("x", (1, 784))
    h = b.relu(b.bias_add(b.dense(x, b.const(w1)), b.const(b1)))
    y = b.bias_add(b.dense(h, b.const(w2)), b.const(b2))
    module = b.module(y)            # builtin.module { func.func @main(%x) {...} }

One call per op, named as the op (`b.conv2d(x, w, strides=(2, 2), padding=1)`);
attribute values are plain Python and result types are inferred. Ops built inside
`with b.layer("layer1.0.conv1"):` carry that name as their location, so diagnostics
and fusion remarks about them name the layer of the source model.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from mlc.graph.attributes import GraphAttr
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp, ShapeError
from mlc.graph.ops.constant import ConstantOp
from mlc.graph.types import tensor
from mlc.ir import (
    Block,
    DenseElementsAttr,
    FunctionType,
    IRError,
    Location,
    NameLoc,
    Operation,
    RankedTensorType,
    Region,
    StringAttr,
    Type,
    TypeAttr,
    Value,
    f32,
    unknown_loc,
)
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.dialects.func import FuncOp, ReturnOp
from mlc.ir.rewrite import Rewriter


def element_type_of_dtype(dtype: np.dtype) -> Type:
    """The mlc element type that stores numpy `dtype`."""
    from mlc.ir.core.attributes import IntegerType, f16, f64, i1

    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return i1
    if dtype.kind == "f":
        return {2: f16, 4: f32, 8: f64}[dtype.itemsize]
    if dtype.kind in "iu":
        return IntegerType(dtype.itemsize * 8, "unsigned" if dtype.kind == "u" else "signless")
    raise ValueError(f"no element type for numpy dtype {dtype}")


class GraphBuilder:
    """Builds one function (`@main` by default) of graph ops, then wraps it in a module."""

    def __init__(self, name: str = "main"):
        self.name = name
        self.block = Block()
        self._layer: Location | None = None

    @contextmanager
    def layer(self, name: str) -> Iterator[None]:
        """Ops built inside the `with` block without a `name` or `loc` of their own get
        the location `loc("name")`: the layer of the source model they belong to (as
        MLIR's ImplicitLocOpBuilder gives every op it builds one location). Layers do
        not nest: an inner one replaces the outer one until it ends."""
        outer, self._layer = self._layer, NameLoc(name)
        try:
            yield
        finally:
            self._layer = outer

    def param(self, name: str, shape: Sequence[int], dtype: Type | str = f32) -> Value:
        """A function parameter (a tensor of `shape`)."""
        element = element_type_of_dtype(np.dtype(dtype)) if isinstance(dtype, str) else dtype
        return self.block.add_argument(tensor(shape, element), name)

    def const(self, value: Any, dtype: Type | None = None, name: str | None = None) -> Value:
        """A constant from a numpy array or Python scalar (float32 unless the array or
        `dtype` says otherwise); a rank-0 constant for a scalar."""
        array = np.asarray(value, dtype=np.float32 if dtype is None and isinstance(value, float) else None)
        element = dtype or element_type_of_dtype(array.dtype)
        attr = DenseElementsAttr.from_array(array, RankedTensorType(tuple(array.shape), element))
        return self.op("constant", value=attr, name=name)

    def op(self, short_name: str, *operands: Value | Sequence[Value], name: str | None = None,
           loc: Location | None = None, **attrs: Any) -> Value | list[Value]:
        """Append `graph.<short_name>` to the function: its result (or list of results).
        `name` names the result and, unless `loc` is given, locates the op
        (`loc("name")`); otherwise the op is located at the current `layer`, if any."""
        if loc is None:
            loc = NameLoc(name) if name else self._layer or unknown_loc
        op = make_op(short_name, *operands, loc=loc, **attrs)
        self.block.append(op)
        if name:
            for result in op.results:
                result.name_hint = name
        return op.results[0] if len(op.results) == 1 and not _variadic_results(type(op)) \
            else list(op.results)

    def __getattr__(self, short_name: str):
        if short_name.startswith("_"):
            raise AttributeError(short_name)
        if f"graph.{short_name}" not in graph.ops:
            raise AttributeError(f"the graph dialect has no op '{short_name}'")
        return lambda *operands, **attrs: self.op(short_name, *operands, **attrs)

    def function(self, *outputs: Value) -> FuncOp:
        """Finish the function: it returns `outputs`."""
        self.block.append(ReturnOp.build(list(outputs)))
        fn_type = FunctionType(tuple(a.type for a in self.block.args), tuple(v.type for v in outputs))
        return FuncOp.build(sym_name=StringAttr(self.name), function_type=TypeAttr(fn_type),
                            regions=[Region([self.block])])

    def module(self, *outputs: Value) -> Operation:
        """Finish the function and wrap it in a `builtin.module`."""
        module = ModuleOp.build()
        module.regions[0].blocks[0].append(self.function(*outputs))
        return module


def make_op(short_name: str, *operands: Value | Sequence[Value], loc: Location = unknown_loc,
            **attrs: Any) -> Operation:
    """A detached `graph.<short_name>` op from its operands and attribute values given
    as plain Python (`strides=(2, 2)`, `axis=1`), result types inferred; IRError names
    what is wrong. The one way the builder and the graph passes create ops."""
    cls = graph.ops.get(f"graph.{short_name}")
    if cls is None:
        raise AttributeError(f"the graph dialect has no op '{short_name}'")
    attrs = cls.normalize(dict(attrs)) if hasattr(cls, "normalize") else attrs
    attributes = {}
    for key, value in attrs.items():
        definition = cls.op_def.attributes.get(key)
        if definition is None:
            raise IRError(f"'graph.{short_name}' has no attribute '{key}'; it has "
                          + ", ".join(sorted(cls.op_def.attributes)))
        constraint = definition.constraint
        attributes[key] = constraint.to_attr(value) if isinstance(constraint, GraphAttr) else value
    try:
        return cls.build(*operands, loc=loc, **attributes)
    except ShapeError as exc:
        raise IRError(f"'graph.{short_name}' {exc}") from None


def emit(rewriter: Rewriter, short_name: str, *operands: Value, loc: Location, **attrs: Any) -> Value:
    """Create `graph.<short_name>` at the rewriter's insertion point, attribute values
    given as plain Python (as GraphBuilder takes them); its result."""
    return rewriter.insert(make_op(short_name, *operands, loc=loc, **attrs)).results[0]


def emit_constant(rewriter: Rewriter, array: np.ndarray, element: Type, loc: Location) -> Value:
    """A graph.constant of `array`, stored with element type `element`."""
    attr = DenseElementsAttr.from_array(array, RankedTensorType(tuple(np.shape(array)), element))
    return rewriter.create(ConstantOp, value=attr, loc=loc).results[0]


def _variadic_results(cls: type[GraphOp]) -> bool:
    return any(d.variadic for d in cls.op_def.results)

