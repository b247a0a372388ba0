"""Every graph op; importing this module registers them with the `graph` dialect (the
graph entry point, `mlc.graph`, also imports their canonicalization patterns)."""

from mlc.graph.dialect import graph
from mlc.graph.ops import (
    call,
    constant,
    elementwise,
    indexing,
    nn,
    norm,
    reduce,
    scan,
    transform,
)


def _register_interpreter_handlers() -> None:
    """Let mlc.ir's interpreter run graph ops (their reference semantics), so one
    interpreter runs a module through every stage from graph to loops."""
    from mlc.graph.interpreter import interpreter_handler
    from mlc.graph.op_base import GraphOp
    from mlc.ir.interpreter import impl

    impl(*(cls for cls in graph.ops.values() if issubclass(cls, GraphOp)))(interpreter_handler)
    call.register_interpreter_handlers()


_register_interpreter_handlers()

__all__ = ["graph", "call", "constant", "elementwise", "indexing", "nn", "norm",
           "reduce", "scan", "transform"]
