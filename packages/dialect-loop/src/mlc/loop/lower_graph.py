"""graph-lower-to-loop: graph functions become loop kernels and calls into them
(TVM's LowerTE and Relax's call_tir).

- Every `graph.primitive` function (a group graph-fuse-ops outlined) becomes one
  kernel (see :mod:`mlc.loop.kernels`): its ops' compute rules composed, injective
  stages inlined, the anchor op's reduction in an intermediate buffer with its
  epilogue after it. Structurally identical primitive functions share one kernel
  (TVM's TECompiler cache, keyed by `group_structure`), named after the first of them;
  the statistics count the calls and the distinct kernels.
- Every other function on tensors (`main`) takes buffers in destination-passing
  style: its parameters become memrefs, its results output memrefs after them. Its
  constants become `loop.constant` buffers, each intermediate result a
  `loop.alloc_buffer` (a result the function hands back is computed straight into
  its output buffer), and each call a `func.call` of the kernel with its input and
  output buffers. A graph op left outside any primitive function (no fusion ran)
  is lowered as a group of its own; a value handed back that no call computes (a
  parameter, a constant, a value returned twice) is copied by a copy kernel.

Nothing changes unless everything lowers: every graph op without a compute rule is
reported (one error at the first, naming every op kind without one, a note at the
first op of each other kind), as is every other op that has no lowering.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from mlc.graph.fusion.outline import is_primitive
from mlc.graph.names import unique_name
from mlc.graph.op_base import GraphOp
from mlc.graph.ops.constant import ConstantOp
from mlc.ir.core.attributes import (
    FunctionType,
    MemRefType,
    RankedTensorType,
    StringAttr,
    SymbolRefAttr,
)
from mlc.ir.core.ir import Block, Operation, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects.func import CallOp, FuncOp, ReturnOp
from mlc.ir.opdef.traits import SymbolTable
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.loop.kernels import (
    KernelError,
    copy_kernel,
    group_kernel,
    group_structure,
    is_empty,
    lowerable_type,
)
from mlc.loop.ops import AllocBufferOp
from mlc.loop.ops import ConstantOp as LoopConstantOp

__all__ = ["LowerGraphToLoop", "buffer_type"]


def buffer_type(type_: RankedTensorType) -> MemRefType:
    """The memref a tensor of `type_` lives in."""
    return MemRefType(tuple(type_.shape), type_.element_type)


def _extern_bindings(entries: tuple[str, ...]) -> dict[str, str]:
    """The `extern` option's FUNCTION:NAME entries as {FUNCTION: NAME} (checked)."""
    return dict(entry.partition(":")[::2] for entry in entries)


def _extern_problem(entries: tuple[str, ...]) -> str | None:
    """What is wrong with a value of the `extern` option, or None."""
    bound: set[str] = set()
    for entry in entries:
        function, sep, name = entry.partition(":")
        if not sep or not function or not name:
            return f"extern takes FUNCTION:NAME, got '{entry}'"
        if function in bound:
            return f"extern binds '{function}' twice"
        bound.add(function)
    return None


@dataclass(frozen=True)
class LowerGraphOptions:
    extern: tuple[str, ...] = option((), doc="primitive functions computed by external "
                                     "functions instead of kernels, as FUNCTION:NAME "
                                     "(fused_dense_bias_add:env.linear): calls go to a "
                                     "declaration @NAME on buffers, which the runtime "
                                     "binds to the function registered as NAME",
                                     check=_extern_problem)


@register_pass("graph-lower-to-loop", opt_level=0, op_traits=(SymbolTable,),
               options=LowerGraphOptions,
               dialects=("func", "loop", "arith", "math"),
               summary="Lower graph functions to loop kernels (TVM's LowerTE): each "
                       "graph.primitive function a kernel (structurally identical ones "
                       "share one), other functions calls into them on buffers in "
                       "destination-passing style.",
               statistics=(("num-calls", "kernel calls in the lowered functions"),
                           ("num-kernels", "distinct kernels"),
                           ("num-primitives", "graph.primitive functions lowered")))
class LowerGraphToLoop(Pass):
    def run(self, op: Operation, run) -> None:
        # The option's check has refused malformed entries where they were given.
        lowering = _Lowering(op, _extern_bindings(run.options.extern))
        lowering.check()
        lowering.lower()
        self.statistics["num-calls"] += lowering.calls
        self.statistics["num-kernels"] += len(lowering.kernels)
        self.statistics["num-primitives"] += len(lowering.primitives)


def _is_graph_function(fn: FuncOp) -> bool:
    """A function this pass rewrites: it has a body, and tensors in its signature or
    graph ops in it."""
    if fn.is_declaration:
        return False
    if any(isinstance(t, RankedTensorType) for t in (*fn.type.inputs, *fn.type.results)):
        return True
    return any(isinstance(op, GraphOp) for op in fn.walk())


class _Lowering:
    """One run of the pass on a symbol table `table` (a module)."""

    def __init__(self, table: Operation, externals: dict[str, str] | None = None):
        self.table = table
        self.externals = externals or {}  # primitive function -> external function
        functions = [f for f in table.regions[0].ops() if isinstance(f, FuncOp)]
        self.primitives = [f for f in functions if is_primitive(f) and not f.is_declaration]
        self.callers = [f for f in functions if not is_primitive(f) and _is_graph_function(f)]
        self.by_name = {f.sym_name.value: f for f in functions}
        self.symbols = {o.attributes["sym_name"].value for o in table.regions[0].ops()
                        if "sym_name" in o.attributes}
        self.kernels: dict[tuple, FuncOp] = {}  # group structure -> its kernel
        self.kernel_of: dict[str, str] = {}  # primitive function -> its kernel's name
        self.extra_kernels: list[FuncOp] = []  # for loose ops and copies
        self.declarations: dict[str, FuncOp] = {}  # external functions
        self.calls = 0

    # ------------------------------------------------------------------ checks

    def check(self) -> None:
        """Fail (changing nothing) unless every op has a lowering: graph ops without a
        compute rule all named at once, then any other op that has none."""
        names = {f.sym_name.value for f in self.primitives}
        unknown = sorted(set(self.externals) - names)
        if unknown:
            raise PassFailure([Diagnostic(
                "error", f"graph-lower-to-loop: extern names {', '.join(map(repr, unknown))}, "
                f"not a graph.primitive function of the module (they are: "
                f"{', '.join(sorted(names)) or 'none'})", self.table.loc)])
        kernels = [f for f in self.primitives if f.sym_name.value not in self.externals]
        missing = [op for fn in (*kernels, *self.callers) for op in fn.walk()
                   if isinstance(op, GraphOp) and not isinstance(op, ConstantOp)
                   and getattr(type(op), "compute", None) is None]
        if missing:
            raise PassFailure([_missing_rules(missing)])
        errors = []
        for fn in self.callers:
            if len(fn.regions[0].blocks) != 1:
                errors.append(Diagnostic("error", "graph-lower-to-loop: only functions of "
                                         "one block are lowered", fn.loc))
                continue
            for op in fn.entry_block.ops():
                problem = self._unsupported(op)
                if problem is not None:
                    errors.append(Diagnostic("error", problem, op.loc))
            for n, arg in enumerate(fn.entry_block.args):
                problem = lowerable_type(arg.type)
                if problem is not None:
                    errors.append(Diagnostic("error", f"graph-lower-to-loop: parameter #{n} of "
                                             f"@{fn.sym_name.value} cannot become a buffer: "
                                             f"{problem}", fn.loc))
        if errors:
            raise PassFailure(errors)

    def _unsupported(self, op: Operation) -> str | None:
        if isinstance(op, (GraphOp, ReturnOp)):
            return None
        if isinstance(op, CallOp):
            callee = self.by_name.get(op.callee.leaf)
            if callee is None or not (callee in self.primitives or callee in self.callers):
                return (f"graph-lower-to-loop: cannot lower a call of @{op.callee.leaf}: "
                        "only graph.primitive functions and functions on tensors are lowered")
            return None
        return f"graph-lower-to-loop: '{op.name}' has no lowering to loops"

    # ------------------------------------------------------------------ lowering

    def lower(self) -> None:
        try:
            for fn in self.primitives:
                if fn.sym_name.value in self.externals:
                    self.kernel_of[fn.sym_name.value] = self._external(fn)
                    continue
                if all(is_empty(t) for t in fn.type.results):
                    continue  # nothing to compute: its calls go (see _lower_caller)
                self.kernel_of[fn.sym_name.value] = self._kernel(
                    fn.sym_name.value, list(fn.entry_block.args),
                    list(fn.entry_block.ops())[:-1],
                    list(fn.entry_block.terminator.operands), fn)
            lowered = [(fn, self._lower_caller(fn)) for fn in self.callers]
        except KernelError as error:
            loc = error.op.loc if error.op is not None else self.table.loc
            raise PassFailure([Diagnostic("error", f"graph-lower-to-loop: {error}", loc)]) \
                from None
        # Everything lowered: now change the module. Each kernel takes the place of
        # the first primitive function of its structure.
        placed = {k.sym_name.value: k for k in self.kernels.values()}
        for fn in self.primitives:
            kernel = placed.pop(fn.sym_name.value, None)
            if kernel is not None:
                fn.parent.insert_before(kernel, fn)
            fn.erase()
        for fn, new_fn in lowered:
            fn.parent.insert_before(new_fn, fn)
            fn.erase()
        if self.extra_kernels:
            body = self.table.regions[0].blocks[0]
            anchor = lowered[0][1] if lowered else None
            for kernel in self.extra_kernels:
                if anchor is not None:
                    body.insert_before(kernel, anchor)
                else:
                    body.append(kernel)

    def _kernel(self, name: str, inputs: Sequence[Value], ops: Sequence[Operation],
                outputs: Sequence[Value], origin: Operation) -> str:
        """The name of the kernel computing this group: an existing one of the same
        structure, or a new one called `name`."""
        key = group_structure(inputs, ops, outputs)
        kernel = self.kernels.get(key)
        if kernel is None:
            kernel = group_kernel(name, inputs, ops, outputs)
            kernel.attributes["sym_visibility"] = StringAttr("private")
            kernel.loc = origin.loc
            self.kernels[key] = kernel
            self.symbols.add(name)
        return kernel.sym_name.value

    def _external(self, fn: FuncOp) -> str:
        """The declaration of the external function computing primitive `fn`: its
        parameters and results as buffers, destination-passing (one per name)."""
        name = self.externals[fn.sym_name.value]
        for type_ in (*fn.type.inputs, *fn.type.results):
            problem = lowerable_type(type_)
            if problem is not None:
                raise KernelError(f"@{fn.sym_name.value} cannot call an external function: "
                                  f"{problem}", fn)
        signature = FunctionType(tuple(buffer_type(t) for t in (*fn.type.inputs,
                                                                 *fn.type.results)), ())
        declared = self.declarations.get(name)
        if declared is not None:
            if declared.type != signature:
                raise KernelError(f"external function '{name}' is bound to primitive "
                                  "functions of different signatures", fn)
            return name
        if name in self.symbols:
            raise KernelError(f"external function '{name}' would clash with the symbol "
                              f"@{name}", fn)
        declaration = FuncOp.create_function(name, signature, "private")
        declaration.regions[0].blocks[0].erase()
        declaration.loc = fn.loc
        self.declarations[name] = declaration
        self.extra_kernels.append(declaration)
        self.symbols.add(name)
        return name

    def _loose_op_kernel(self, op: Operation) -> str:
        """The kernel of a graph op outside any primitive function (a group of one)."""
        key = group_structure(op.operands, [op], op.results)
        if key not in self.kernels:
            name = unique_name(op.name.split(".", 1)[1], self.symbols)
            self._kernel(name, op.operands, [op], op.results, op)
            self.extra_kernels.append(self.kernels[key])
        return self.kernels[key].sym_name.value

    def _copy_kernel(self, type_: RankedTensorType) -> str:
        key = ("copy", type_)
        if key not in self.kernels:
            name = unique_name("copy", self.symbols)
            self.symbols.add(name)
            kernel = copy_kernel(name, type_)
            kernel.attributes["sym_visibility"] = StringAttr("private")
            self.kernels[key] = kernel
            self.extra_kernels.append(kernel)
        return self.kernels[key].sym_name.value

    def _lower_caller(self, fn: FuncOp) -> FuncOp:
        """`fn` on buffers: parameters, then one output buffer per result."""
        results = fn.type.results
        for n, type_ in enumerate(results):
            problem = lowerable_type(type_)
            if problem is not None:
                raise KernelError(f"result #{n} of @{fn.sym_name.value} cannot become a "
                                  f"buffer: {problem}", fn)
        inputs = [buffer_type(a.type) for a in fn.entry_block.args]
        outputs = [buffer_type(t) for t in results]
        new_fn = FuncOp.create_function(fn.sym_name.value, FunctionType(
            (*inputs, *outputs), ()), fn.sym_visibility.value if fn.sym_visibility else None)
        new_fn.loc = fn.loc
        for name, attr in fn.attributes.items():
            if name not in ("sym_name", "function_type", "sym_visibility", "arg_attrs",
                            "res_attrs"):
                new_fn.attributes[name] = attr
        entry = new_fn.entry_block
        buffers: dict[Value, Value] = {}
        for old, new in zip(fn.entry_block.args, entry.args):
            new.name_hint = old.name_hint
            buffers[old] = new
        out_args = entry.args[len(inputs):]
        for n, arg in enumerate(out_args):
            arg.name_hint = "out" if len(out_args) == 1 else f"out{n}"
        returned = fn.entry_block.terminator.operands
        # Each value handed back is computed into the first output buffer it goes to.
        destination: dict[Value, Value] = {}
        for value, arg in zip(returned, out_args):
            destination.setdefault(value, arg)
        for op in fn.entry_block.ops():
            if isinstance(op, ReturnOp):
                for value, arg in zip(op.operands, out_args):
                    if buffers[value] is not arg and not is_empty(value.type):
                        self._call(entry, self._copy_kernel(value.type), [buffers[value]],
                                   [arg], op)
                entry.append(ReturnOp.build([], loc=op.loc))
            elif isinstance(op, ConstantOp):
                constant = entry.append(LoopConstantOp.build(
                    value=op.value, result_types=[buffer_type(op.result.type)], loc=op.loc))
                constant.results[0].name_hint = op.result.name_hint
                buffers[op.result] = constant.results[0]
            else:
                if isinstance(op, CallOp):
                    callee = self.by_name[op.callee.leaf]
                    name = self.kernel_of.get(callee.sym_name.value, callee.sym_name.value)
                elif all(is_empty(r.type) for r in op.results):
                    name = None  # nothing to compute: no kernel, no call
                else:
                    name = self._loose_op_kernel(op)
                outs = []
                for result in op.results:
                    buffer = destination.get(result)
                    if buffer is None:
                        alloc = entry.append(AllocBufferOp.build(
                            result_types=[buffer_type(result.type)], loc=op.loc))
                        buffer = alloc.results[0]
                        buffer.name_hint = result.name_hint
                    buffers[result] = buffer
                    outs.append(buffer)
                if not self._computes_nothing(op):
                    self._call(entry, name, [buffers[v] for v in op.operands], outs, op)
        return new_fn

    def _computes_nothing(self, op: Operation) -> bool:
        """Whether `op` is a graph op or a call of a kernel whose results all hold no
        element: it needs no call. (An external function is called whatever its
        results hold, and so is a function on tensors, lowered on its own.)"""
        if not all(is_empty(r.type) for r in op.results):
            return False
        if isinstance(op, CallOp):
            callee = self.by_name[op.callee.leaf]
            return callee in self.primitives and op.callee.leaf not in self.externals
        return True

    def _call(self, block: Block, callee: str, inputs: Sequence[Value],
              outputs: Sequence[Value], origin: Operation) -> None:
        block.append(CallOp.build([*inputs, *outputs], callee=SymbolRefAttr(callee),
                                  result_types=[], loc=origin.loc))
        self.calls += 1


def _missing_rules(ops: Sequence[Operation]) -> Diagnostic:
    counts = Counter(op.name for op in ops)
    listing = ", ".join(f"'{name}' ({count} op{'s' if count > 1 else ''})"
                        for name, count in counts.items())
    first = ops[0]
    diagnostic = Diagnostic(
        "error", f"graph-lower-to-loop: '{first.name}' has no compute rule, so it cannot be "
                 f"lowered to loops; ops without one: {listing}", first.loc)
    noted = {first.name}
    for op in ops[1:]:
        if op.name not in noted:
            noted.add(op.name)
            diagnostic.add_note(f"'{op.name}' has no compute rule", op.loc)
    return diagnostic
