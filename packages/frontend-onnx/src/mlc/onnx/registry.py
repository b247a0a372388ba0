"""Converters from ONNX nodes to graph ops, registered per op and per opset.

    @converter("Relu", since=6)
    def relu(node: Node) -> Value:
        return node.b.relu(node.input(0))

ONNX changes an op's definition at some opset versions (Reduce* took `axes` as an
attribute until opset 18, then as an input). A converter is registered with the
opset its definition begins at; a model stamped with opset N uses the converter with
the newest `since` <= N, as ONNX's own version converter and TVM's frontend choose.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mlc.onnx.node import Node

# The default ONNX domain is spelled "" in models and "ai.onnx" in documentation.
DEFAULT_DOMAIN = ""

ConvertFn = Callable[["Node"], object]


@dataclass(frozen=True)
class Converter:
    """One registered conversion: ONNX `op_type` of `domain` from opset `since` on."""

    domain: str
    op_type: str
    since: int
    convert: ConvertFn


_CONVERTERS: dict[tuple[str, str], list[Converter]] = {}


def converter(op_type: str, since: int, domain: str = DEFAULT_DOMAIN) -> Callable[[ConvertFn], ConvertFn]:
    """Register the decorated function as the converter of `op_type` from opset
    `since` on. It receives a :class:`~mlc.onnx.node.Node` and returns the graph
    value of each ONNX output (one value, or a list)."""

    def register(fn: ConvertFn) -> ConvertFn:
        versions = _CONVERTERS.setdefault((_canonical(domain), op_type), [])
        if any(c.since == since for c in versions):
            raise ValueError(f"two converters of {op_type} since opset {since}")
        versions.append(Converter(_canonical(domain), op_type, since, fn))
        versions.sort(key=lambda c: c.since)
        return fn

    return register


def find_converter(op_type: str, opset: int, domain: str = DEFAULT_DOMAIN) -> Converter | None:
    """The converter for `op_type` in a model of `opset`: the newest one registered
    at or before it; None when there is none."""
    chosen = None
    for candidate in _CONVERTERS.get((_canonical(domain), op_type), ()):
        if candidate.since <= opset:
            chosen = candidate
    return chosen


def first_supported_opset(op_type: str, domain: str = DEFAULT_DOMAIN) -> int | None:
    """The oldest opset any converter of `op_type` accepts (None: not converted at all)."""
    versions = _CONVERTERS.get((_canonical(domain), op_type))
    return versions[0].since if versions else None


def supported_ops() -> list[tuple[str, str, list[int]]]:
    """(domain, op_type, the opsets its converters begin at), sorted: for docs and CLI."""
    return sorted((domain, op, [c.since for c in versions])
                  for (domain, op), versions in _CONVERTERS.items())


def _canonical(domain: str) -> str:
    return DEFAULT_DOMAIN if domain == "ai.onnx" else domain
