"""What a converter sees of one FX node: its arguments with the nodes they name
replaced by what those became (graph values, Python numbers, tuples), the submodule a
`call_module` node calls, the module's tensors as graph values, and a builder that
locates every op it makes at the node.

    def gelu_tanh(node: Node) -> Value:      # call_function_map={F.gelu: gelu_tanh}
        return node.b.gelu(node.tensor(0, "input"), approximate="tanh")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlc.graph.builder import GraphBuilder
from mlc.ir import Value

_REQUIRED = object()


class Unsupported(Exception):
    """A node mlc cannot convert as given: an argument value or form its converter does
    not handle (the message says which)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Node:
    """One FX node being converted (see :mod:`mlc.torch.converters`)."""

    def __init__(self, fx_node, builder: GraphBuilder, args: tuple, kwargs: dict,
                 module=None, tensor_of: Callable[[str, Any], Value] | None = None):
        self.fx_node = fx_node
        self.b = builder
        self.args = args
        self.kwargs = kwargs
        self.module = module
        self._tensor_of = tensor_of

    @property
    def name(self) -> str:
        """The FX node's name: the location of the ops made for it."""
        return self.fx_node.name

    @property
    def target(self):
        return self.fx_node.target

    def arg(self, index: int, name: str, default: Any = _REQUIRED) -> Any:
        """The argument at position `index` or keyword `name` (as the torch function's
        signature has it); `default` when it is absent. An absent argument without a
        default is an Unsupported error naming it."""
        if index < len(self.args):
            return self.args[index]
        if name in self.kwargs:
            return self.kwargs[name]
        if default is _REQUIRED:
            raise Unsupported(f"argument '{name}' is required")
        return default

    def tensor(self, index: int, name: str) -> Value:
        """Argument `index`/`name`, which must be a tensor."""
        value = self.arg(index, name)
        if not isinstance(value, Value):
            raise Unsupported(f"argument '{name}' must be a tensor, got {type(value).__name__}")
        return value

    def optional_tensor(self, index: int, name: str) -> Value | None:
        """Argument `index`/`name` if given and not None (a tensor); else None."""
        value = self.arg(index, name, None)
        if value is not None and not isinstance(value, Value):
            raise Unsupported(f"argument '{name}' must be a tensor, got {type(value).__name__}")
        return value

    def param(self, attribute: str) -> Value | None:
        """The tensor `attribute` of the called submodule (`weight`, `running_mean`, a
        child's `out_proj.weight`) as a
        graph value: a constant named after its state-dict key (`layer1.0.conv1.weight`),
        or a parameter of `@main` with `keep_params`; None when the module has none."""
        tensor = self.module
        for part in attribute.split("."):  # `out_proj.weight`: of a child module
            tensor = getattr(tensor, part, None)
        if tensor is None:
            return None
        return self._tensor_of(f"{self.target}.{attribute}", tensor)

    def unsupported(self, reason: str) -> Unsupported:
        """An error to raise for an argument value or form not converted."""
        return Unsupported(reason)

    def check(self, condition: bool, reason: str) -> None:
        """Raise Unsupported(`reason`) unless `condition` holds."""
        if not condition:
            raise Unsupported(reason)
