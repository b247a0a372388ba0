"""Relax's BlockBuilder with `emit_te`: the graph builder (`mlc.graph.GraphBuilder`,
whose functions, dataflow blocks and `call_tir` it keeps) plus primitive functions
made from tensor expressions, which only the loop level knows.

    from mlc.loop import BlockBuilder, te, topi

    bb = BlockBuilder()
    x = bb.param("x", (1, 784))
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit_te(topi.nn.dense, x, bb.const(weights))
            gv = bb.emit_output(bb.emit_te(topi.nn.relu, y))
        bb.emit_func_output(gv)
    module = bb.get()       # @dense, @relu (memrefs, loop level) and @main calling them
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mlc.graph.builder import GraphBuilder
from mlc.graph.names import unique_name
from mlc.graph.types import tensor
from mlc.ir import IRError, Value
from mlc.ir.core.structure import regions_structure
from mlc.ir.dialects.func import FuncOp
from mlc.loop import te

__all__ = ["BlockBuilder"]


class BlockBuilder(GraphBuilder):
    """A GraphBuilder that also makes primitive functions from TE (`emit_te`)."""

    def __init__(self, name: str = "main"):
        super().__init__(name)
        # Structure of a primitive function made by emit_te -> its name in the module:
        # structurally equal ones are made once (TVM deduplicates them the same way).
        self._made: dict[tuple, str] = {}

    def emit_te(self, te_function: Callable, *args, primfunc_name_hint: str | None = None,
                name: str | None = None, **kwargs) -> Value | list[Value]:
        """Relax's `bb.emit_te(te_function, *args)`: call `te_function` with a te
        placeholder for each graph value among `args` (and `kwargs`; other arguments
        are passed as they are), make a primitive function of the te tensor(s) it
        returns (`te.create_prim_func`: the placeholders, then the outputs), add it to
        the module (once: a structurally equal one made before is reused) and call it
        with `graph.call_tir`; its result(s). `primfunc_name_hint` names the function
        (default: `te_function`'s name), `name` the result."""
        placeholders: list[te.Tensor] = []
        values: list[Value] = []

        def placeholder(value):
            if not isinstance(value, Value):
                return value
            if value in values:
                return placeholders[values.index(value)]
            type_ = value.type
            made = te.placeholder(tuple(type_.shape), type_.element_type,
                                  name=value.name_hint or f"p{len(values)}")
            placeholders.append(made)
            values.append(value)
            return made

        te_args = [placeholder(a) for a in args]
        te_kwargs = {k: placeholder(v) for k, v in kwargs.items()}
        result = te_function(*te_args, **te_kwargs)
        single = isinstance(result, te.Tensor)
        outputs = [result] if single else list(result) if isinstance(result, (list, tuple)) \
            else []
        if not outputs or not all(isinstance(t, te.Tensor) for t in outputs):
            raise IRError(f"emit_te: {getattr(te_function, '__name__', te_function)!r} returned "
                          f"{result!r}, not a te tensor or a sequence of them")
        callee = self._primitive_function(
            primfunc_name_hint or getattr(te_function, "__name__", "te_func"),
            placeholders, outputs)
        types = [tensor(t.shape, t.dtype) for t in outputs]
        return self.call_tir(callee, values, types[0] if single else types, name=name)

    def _primitive_function(self, name: str, inputs: Sequence[te.Tensor],
                            outputs: Sequence[te.Tensor]) -> str:
        for n, t in enumerate(outputs):
            if t.is_placeholder:
                # An input handed back as it is: each output is its own buffer.
                outputs = [*outputs[:n], te.compute(t.shape, lambda *i, t=t: t[i],
                                                    name=f"{t.name}_copy"), *outputs[n + 1:]]
        try:
            fn: FuncOp = te.create_prim_func([*inputs, *outputs], name=name)
        except te.TEError as error:
            raise IRError(f"emit_te: {error}") from None
        key = (fn.type, regions_structure(fn.regions))
        made = self._made.get(key)
        if made is not None and self.function_named(made) is not None:
            return made
        symbol = self.add_func(fn, unique_name(name, self.symbols()))
        self._made[key] = symbol
        return symbol
