"""Building graph modules from Python, the way Relay's examples read:

    b = GraphBuilder()
    x = b.param("x", (1, 784))
    h = b.relu(b.bias_add(b.dense(x, b.const(w1)), b.const(b1)))
    y = b.bias_add(b.dense(h, b.const(w2)), b.const(b2))
    module = b.module(y)            # builtin.module { func.func @main(%x) {...} }

One typed method per op, named as the op (`b.conv2d(x, w, strides=(2, 2), padding=1)`,
generated from the op declarations into :mod:`mlc.graph.op_methods`, so an IDE
completes them); attribute values are plain Python and result types are inferred. Ops built inside
`with b.layer("layer1.0.conv1"):` carry that name as their location, so diagnostics
and fusion remarks about them name the layer of the source model.

It also speaks Relax's BlockBuilder, for modules of several functions and calls into
primitive functions (the MLC course's `MyModule`):

    bb = GraphBuilder()
    x = bb.param("x", (1, 784))
    with bb.function("main", [x]):
        with bb.dataflow():
            lv0 = bb.call_tir(linear0, [x, w0, b0], tensor((1, 128)))
            gv = bb.emit_output(bb.relu(lv0))
        bb.emit_func_output(gv)
    module = bb.get()

`emit_te` (a primitive function from TE and its call) is `mlc.loop.BlockBuilder`'s:
the graph level does not know TE. `dataflow()` marks nothing in the IR: a graph
function is one dataflow block already (see `mlc.graph.ops.call`); it only checks, as
Relax does, that the function uses no value of the block but those `emit_output`
hands out.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from mlc.graph.attributes import GraphAttr
from mlc.graph.dialect import graph
from mlc.graph.names import unique_name
from mlc.graph.op_base import GraphOp, ShapeError
from mlc.graph.op_methods import GraphOpMethods
from mlc.graph.ops.call import CallDPSPackedOp, CallTIROp
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
    SymbolRefAttr,
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


class GraphBuilder(GraphOpMethods):
    """Builds graph functions (one, `@main` by default, or several with `function`)
    and the module holding them and the primitive functions they call."""

    def __init__(self, name: str = "main"):
        self.name = name
        self.block = Block()
        self._layer: Location | None = None
        self._functions: list[FuncOp] = []  # finished functions and primitive functions
        self._in_function = False
        self._dataflow: set[Operation] | None = None  # ops of the open dataflow block
        self._dataflow_ops: set[Operation] = set()  # of the function's dataflow blocks
        self._outputs: set[Value] = set()  # what emit_output handed out
        self._params: list[Value] | None = None  # the order `function` was given

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
        """A parameter of the function being built (a tensor of `shape`); Relax's
        `relax.Var(name, R.Tensor(shape, dtype))`."""
        element = element_type_of_dtype(np.dtype(dtype)) if isinstance(dtype, str) else dtype
        return self.block.add_argument(tensor(shape, element), name)

    def const(self, value: Any, dtype: Type | None = None, name: str | None = None) -> Value:
        """A constant from a numpy array or Python scalar (float32 unless the array or
        `dtype` says otherwise); a rank-0 constant for a scalar."""
        array = np.asarray(value, dtype=np.float32 if dtype is None and isinstance(value, float) else None)
        element = dtype or element_type_of_dtype(array.dtype)
        attr = DenseElementsAttr.from_array(array, RankedTensorType(tuple(array.shape), element))
        return self.constant(value=attr, name=name)

    def op(self, short_name: str, *operands: Value | Sequence[Value], name: str | None = None,
           loc: Location | None = None, **attrs: Any) -> Value | list[Value]:
        """Append `graph.<short_name>` to the function: its result (or list of results).
        `name` names the result and, unless `loc` is given, locates the op
        (`loc("name")`); otherwise the op is located at the current `layer`, if any."""
        if loc is None:
            loc = NameLoc(name) if name else self._layer or unknown_loc
        op = make_op(short_name, *operands, loc=loc, **attrs)
        return self._append(op, name, _variadic_results(type(op)))

    def _append(self, op: Operation, name: str | None = None,
                always_list: bool = False) -> Value | list[Value]:
        self.block.append(op)
        if self._dataflow is not None:
            self._dataflow.add(op)
        if name:
            for result in op.results:
                result.name_hint = name
        return op.results[0] if len(op.results) == 1 and not always_list else list(op.results)

    # ------------------------------------------------ Relax's BlockBuilder surface

    @contextmanager
    def function(self, name: str, params: Sequence[Value] | None = None) -> Iterator[None]:
        """Relax's `bb.function(name, params)`: what is emitted inside belongs to the
        function `@name`, which `emit_func_output` finishes. The parameters are those
        made with `param` (before or inside the block); `params` (here or in
        `emit_func_output`) gives their order."""
        if self._in_function:
            raise IRError(f"function @{name} begun inside function @{self.name}")
        if any(True for _ in self.block.ops()):
            raise IRError(f"function @{name} begun after ops were built outside any function")
        self.name, self._in_function = name, True
        self._params = list(params) if params is not None else None
        try:
            yield
        finally:
            finished = not self._in_function
            self._in_function = False
        if not finished:
            raise IRError(f"function @{name} ended without emit_func_output")

    @contextmanager
    def dataflow(self) -> Iterator[None]:
        """Relax's `bb.dataflow()`: values built inside are the block's own; the rest of
        the function may use only those `emit_output` hands out (a graph function is
        pure throughout, so nothing is marked in the IR)."""
        if self._dataflow is not None:
            raise IRError("dataflow blocks do not nest")
        self._dataflow = set()
        try:
            yield
        finally:
            self._dataflow_ops |= self._dataflow
            self._dataflow = None

    def emit(self, value: Value | Operation, name: str | None = None) -> Value | list[Value]:
        """Relax's `bb.emit(expr)`: a value already built (`bb.relu(x)` appends its op
        as it builds it) is returned as it is, named `name` if given; a detached op
        (`make_op`) is appended and its result returned."""
        if isinstance(value, Operation):
            return self._append(value, name)
        if name:
            value.name_hint = name
        return value

    def emit_output(self, value: Value) -> Value:
        """Relax's `bb.emit_output(v)`: `value` leaves the dataflow block (the function
        may return it or use it after the block)."""
        if self._dataflow is None:
            raise IRError("emit_output outside a dataflow block")
        self._outputs.add(value)
        return value

    def emit_func_output(self, output: Value | Sequence[Value],
                         params: Sequence[Value] | None = None) -> None:
        """Relax's `bb.emit_func_output(output, params)`: finish the function begun by
        `function`, returning `output` (a value or a sequence of them)."""
        if not self._in_function:
            raise IRError("emit_func_output outside a `with bb.function(...)` block")
        if self._dataflow is not None:
            raise IRError("emit_func_output inside a dataflow block")
        outputs = [output] if isinstance(output, Value) else list(output)
        self._check_dataflow_uses(outputs)
        order = params if params is not None else self._params
        if order is not None:
            self._order_params(list(order))
        self._functions.append(self.finish_function(*outputs))
        self._in_function = False
        self.block = Block()
        self._dataflow_ops, self._outputs = set(), set()

    def _check_dataflow_uses(self, outputs: Sequence[Value]) -> None:
        """Relax's scoping: a value of a dataflow block that emit_output did not hand
        out is not visible after the block."""
        after = [op for op in self.block.ops() if op not in self._dataflow_ops]
        for user, values in [*((op, op.operands) for op in after), ("return", outputs)]:
            for value in values:
                owner = value.defining_op
                if owner in self._dataflow_ops and value not in self._outputs:
                    where = "returned" if user == "return" else f"used by '{user.name}'"
                    raise IRError(f"%{value.name_hint or 'value'} of a dataflow block is "
                                  f"{where} after the block: hand it out with emit_output")

    def _order_params(self, params: list[Value]) -> None:
        """Make `params` the function's parameters, in this order; parameters made but
        not listed must be unused (they are dropped)."""
        args = self.block.args
        for value in params:
            if value not in args:
                raise IRError(f"%{value.name_hint} is not a parameter made for this function "
                              "with param()")
        for arg in args:
            if arg not in params and arg.uses:
                raise IRError(f"parameter %{arg.name_hint} is used but not listed in params")
        # The block is the builder's own, not yet in any function: reorder it in place.
        args[:] = params
        for i, arg in enumerate(args):
            arg.index = i

    def add_func(self, fn: FuncOp, name: str | None = None) -> str:
        """Relax's `bb.add_func`: add the function `fn` (a primitive function on
        memrefs, say) to the module, renamed `name` if given (made unique); its name."""
        if fn.parent is not None:
            raise IRError(f"@{fn.sym_name.value} is already in a module")
        symbol = unique_name(name or fn.sym_name.value, self.symbols())
        fn.attributes["sym_name"] = StringAttr(symbol)
        self._functions.append(fn)
        return symbol

    def symbols(self) -> set[str]:
        """The names of the functions added so far."""
        return {f.sym_name.value for f in self._functions}

    def function_named(self, name: str) -> FuncOp | None:
        """The function added as `name`, or None."""
        return next((f for f in self._functions if f.sym_name.value == name), None)

    def call_tir(self, callee: FuncOp | str, args: Sequence[Value],
                 out: Type | Sequence[Type], name: str | None = None) -> Value | list[Value]:
        """Relax's `R.call_tir(callee, args, out_sinfo)`: `graph.call_tir` of the
        primitive function `callee` (added to the module if it is not yet) on `args`,
        with results of the tensor type(s) `out`; its result(s)."""
        if isinstance(callee, FuncOp):
            callee = callee.sym_name.value if callee in self._functions else self.add_func(callee)
        types, single = ([out], True) if isinstance(out, Type) else (list(out), False)
        op = CallTIROp.build(list(args), callee=SymbolRefAttr(callee), result_types=types,
                             loc=NameLoc(name) if name else self._layer or unknown_loc)
        return self._append(op, name, not single)

    def call_dps_packed(self, callee: str, args: Sequence[Value], out: Type | Sequence[Type],
                        name: str | None = None) -> Value | list[Value]:
        """Relax's `R.call_dps_packed("env.linear", args, out_sinfo)`:
        `graph.call_dps_packed` of the external function registered as `callee`."""
        types, single = ([out], True) if isinstance(out, Type) else (list(out), False)
        op = CallDPSPackedOp.build(list(args), callee=StringAttr(callee), result_types=types,
                                   loc=NameLoc(name) if name else self._layer or unknown_loc)
        return self._append(op, name, not single)

    def get(self) -> Operation:
        """Relax's `bb.get()`: the module of every function finished or added so far,
        in that order. The builder keeps building into a new module."""
        if self._in_function:
            raise IRError(f"get() inside function @{self.name}: emit_func_output first")
        module = ModuleOp.build()
        for fn in self._functions:
            module.regions[0].blocks[0].append(fn)
        self._functions = []
        return module

    # ------------------------------------------------ one function, Relay's way

    def finish_function(self, *outputs: Value) -> FuncOp:
        """Finish the function: it returns `outputs`."""
        self.block.append(ReturnOp.build(list(outputs)))
        fn_type = FunctionType(tuple(a.type for a in self.block.args), tuple(v.type for v in outputs))
        return FuncOp.build(sym_name=StringAttr(self.name), function_type=TypeAttr(fn_type),
                            regions=[Region([self.block])])

    def module(self, *outputs: Value) -> Operation:
        """Finish the function and wrap it in a `builtin.module` (after the functions
        added before)."""
        self._functions.append(self.finish_function(*outputs))
        return self.get()


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

