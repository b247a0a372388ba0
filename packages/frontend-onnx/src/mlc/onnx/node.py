"""What a converter sees of one ONNX node: its inputs as graph values, its attributes
as Python values, the values of inputs known at import time, and a builder that
locates every op it makes at the node."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from mlc.graph.builder import GraphBuilder
from mlc.ir import RankedTensorType, Value

_REQUIRED = object()


class Unsupported(Exception):
    """A node mlc cannot convert as given: an attribute value or input form its
    converter does not handle (the message says which). `needs_inputs` names graph
    inputs whose values would make the node convertible (a Reshape whose shape is a
    graph input): bound as constants, the import goes through."""

    def __init__(self, reason: str, needs_inputs: Sequence[str] = ()):
        super().__init__(reason)
        self.reason = reason
        self.needs_inputs = tuple(needs_inputs)


class Node:
    """One ONNX node being converted (see :mod:`mlc.onnx.registry`)."""

    def __init__(self, proto: onnx.NodeProto, opset: int, builder: GraphBuilder,
                 inputs: list[Value | None], output_types: list[RankedTensorType | None],
                 constant_of: Callable[[Value], np.ndarray],
                 convert_graph: Callable[[onnx.GraphProto, Sequence[Value]], list[Value]]
                 | None = None):
        self.proto = proto
        self.opset = opset
        self.b = builder
        self._inputs = inputs
        self.output_types = output_types
        self._constant_of = constant_of
        self._convert_graph = convert_graph
        self._attributes = {a.name: a for a in proto.attribute}

    @property
    def op_type(self) -> str:
        return self.proto.op_type

    @property
    def inputs(self) -> list[Value | None]:
        """One graph value per ONNX input; None for an omitted optional input (`""`)."""
        return list(self._inputs)

    def input(self, index: int) -> Value:
        """Input `index`, which the op requires."""
        value = self.optional_input(index)
        if value is None:
            raise Unsupported(f"input #{index} is required")
        return value

    def optional_input(self, index: int) -> Value | None:
        """Input `index`, or None when the node omits it (absent or `""`)."""
        return self._inputs[index] if index < len(self._inputs) else None

    def attr(self, name: str, default: Any = _REQUIRED) -> Any:
        """Attribute `name` as a Python value (int, float, str, list, numpy array for a
        tensor); `default` when absent. An absent attribute without a default is
        an Unsupported error naming it."""
        proto = self._attributes.get(name)
        if proto is None:
            if default is _REQUIRED:
                raise Unsupported(f"attribute '{name}' is required")
            return default
        value = helper.get_attribute_value(proto)
        if isinstance(value, bytes):
            return value.decode("utf-8")
        if isinstance(value, onnx.TensorProto):
            return numpy_helper.to_array(value)
        if isinstance(value, list) and value and isinstance(value[0], bytes):
            return [v.decode("utf-8") for v in value]
        return value

    def has_attr(self, name: str) -> bool:
        return name in self._attributes

    def constant(self, index: int) -> np.ndarray:
        """The value of input `index`, which must be known at import time (an
        initializer, a Constant, or computed from those); Unsupported otherwise."""
        return self._constant_of(self.input(index))

    def known(self, value: Value) -> np.ndarray:
        """The value of graph value `value`, which must be known at import time."""
        return self._constant_of(value)

    def optional_constant(self, index: int) -> np.ndarray | None:
        """As :meth:`constant`, None for an omitted optional input."""
        value = self.optional_input(index)
        return None if value is None else self._constant_of(value)

    def graph(self, attribute: str, inputs: Sequence[Value] = ()) -> list[Value]:
        """The outputs of the subgraph in `attribute` (an If's branch, a Loop's body)
        computed on `inputs`: its nodes converted here, in a scope that sees this
        node's."""
        proto = self._attributes.get(attribute)
        if proto is None or self._convert_graph is None:
            raise Unsupported(f"attribute '{attribute}' (a graph) is required")
        return self._convert_graph(proto.g, inputs)

    def type(self, index: int) -> RankedTensorType:
        """The tensor type of input `index`."""
        return self.input(index).type

    def shape(self, index: int) -> tuple[int, ...]:
        return self.type(index).shape

    def rank(self, index: int) -> int:
        return len(self.type(index).shape)

    def unsupported(self, reason: str) -> Unsupported:
        """An error to raise for an attribute value or input form not converted."""
        return Unsupported(reason)

    def check(self, condition: bool, reason: str) -> None:
        """Raise Unsupported(`reason`) unless `condition` holds."""
        if not condition:
            raise Unsupported(reason)


def node_name(proto: onnx.NodeProto, index: int) -> str:
    """The name a node's ops are located at and diagnostics call it: its ONNX name, or
    `OpType_index` (its position in the graph) when it has none."""
    return proto.name or f"{proto.op_type}_{index}"
