"""graph-lower-to-loop: graph functions become loop kernels and calls into them
(TVM's LowerTE and Relax's call_tir), as one dialect conversion.

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
- `graph.call_tir` calls the user's primitive function, which stays in the module as
  it is: it is the kernel (schedulable like the ones this pass makes).
  `graph.call_dps_packed` calls a declaration of the external function (one per name
  and signature, its buffers marked read-only and write-only as for `extern`), which
  the runtime binds to the function registered under that name.

How: the core's dialect-conversion driver, with a type converter (a ranked tensor
lives in the memref `buffer_type` gives) and one conversion pattern per kind of op
the pass rewrites: the primitive `func.func` (replaced by its kernel, or erased), the
caller's `func.func` (its signature in destination-passing style), `graph.constant`,
`func.call`, a graph op outside any primitive function, and `func.return`. The
patterns receive the operands already converted, so a call reads the buffers its
operands became. The kernels of the primitive functions are built by an analysis step
*before* the conversion, not by the pattern on the primitive function, because a
caller may come before the primitive functions it calls in the module (the driver
visits ops in module order) and each call must know its kernel's name, which is the
name of the first primitive function of that structure anywhere in the module;
building them is also the expensive, failure-prone part, and doing it first reports a
kernel that cannot be built before anything is touched. The pattern on a primitive
function then only puts the kernel in its place. Kernels the callers need beyond
those (for a loose graph op, a copy) are built by the patterns as they go, their
cache entries undone with the rest if the conversion rolls back.

Nothing changes unless everything lowers: every graph op without a compute rule is
reported (one error at the first, naming every op kind without one, a note at the
first op of each other kind), as is every other op that has no lowering; a kernel
that cannot be built is reported at its op, and the driver's rollback leaves the
module as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mlc.graph.fusion.outline import is_primitive
from mlc.graph.names import unique_name
from mlc.graph.op_base import GraphOp
from mlc.graph.ops.call import CallDPSPackedOp, DestinationCall
from mlc.graph.ops.constant import ConstantOp, constant_array
from mlc.ir.core.attributes import (
    ArrayAttr,
    DenseElementsAttr,
    DictionaryAttr,
    FunctionType,
    MemRefType,
    RankedTensorType,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from mlc.ir.core.ir import Operation, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects.func import CallOp, FuncOp, ReturnOp
from mlc.ir.extern import EXTERN_NAME
from mlc.ir.opdef.traits import SymbolTable
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import (
    ConversionPattern,
    ConversionRewriter,
    ConversionTarget,
    apply_partial_conversion,
)
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.rewrite.type_converter import TypeConverter
from mlc.loop import te
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
    """The memref a tensor of `type_` lives in (unsigned elements as the signless
    integers of their width: `te.storage_type`)."""
    return MemRefType(tuple(type_.shape), te.storage_type(type_.element_type))


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


def tensor_to_buffer_converter() -> TypeConverter:
    """The pass's type converter: a ranked tensor becomes the memref it lives in; other
    types stay."""
    converter = TypeConverter()
    converter.add_conversion(
        lambda t: buffer_type(t) if isinstance(t, RankedTensorType) else None)
    return converter


class _Lowering:
    """One run of the pass on a symbol table `table` (a module): the analysis the
    conversion patterns share, and the state they build."""

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
        self.kernel_named: dict[str, FuncOp] = {}  # the primitive functions' kernels
        self.kernel_of: dict[str, str] = {}  # primitive function -> its kernel's name
        self.declarations: dict[str, FuncOp] = {}  # external functions, by symbol
        self.external_symbols: dict[tuple, str] = {}  # (name, signature) -> symbol
        self.external_of: dict[Operation, str] = {}  # call_dps_packed -> symbol
        self.calls = 0
        # The ops the conversion must rewrite: these functions and the ops of the
        # callers' bodies. What the patterns build is legal.
        self.pending: set[Operation] = {*self.primitives, *self.callers}
        for fn in self.callers:
            self.pending.update(fn.entry_block.ops())
        # Caller -> {value it hands back: the first output buffer it goes to}.
        self.destinations: dict[Operation, dict[Value, Value]] = {}
        # The first error a pattern met (the conversion then fails and rolls back).
        self.error: KernelError | None = None

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
        if isinstance(op, (GraphOp, ReturnOp, DestinationCall)):
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
        """Build the primitive functions' kernels, then run the conversion."""
        try:
            for fn in self.primitives:
                if fn.sym_name.value in self.externals:
                    self.kernel_of[fn.sym_name.value] = self._external(fn)
                    continue
                if all(is_empty(t) for t in fn.type.results):
                    continue  # nothing to compute: its calls go (see LowerGraphCall)
                kernel = self._kernel(fn.sym_name.value, list(fn.entry_block.args),
                                      list(fn.entry_block.ops())[:-1],
                                      list(fn.entry_block.terminator.operands), fn)
                self.kernel_of[fn.sym_name.value] = kernel.sym_name.value
                self.kernel_named[kernel.sym_name.value] = kernel
            for fn in self.callers:
                for op in fn.entry_block.ops():
                    if isinstance(op, CallDPSPackedOp):
                        self.external_of[op] = self.declare_external(
                            op.callee_name, op.operand_types, op.result_types, op)
        except KernelError as error:
            raise PassFailure([self._diagnostic(error)]) from None
        converter = tensor_to_buffer_converter()
        target = ConversionTarget()
        target.add_dynamically_legal_dialect("graph", self.is_lowered)
        target.add_dynamically_legal_op((FuncOp, CallOp, ReturnOp), self.is_lowered)
        patterns = PatternSet(pattern(self, converter) for pattern in (
            LowerPrimitiveFunction, LowerCallerSignature, LowerGraphConstant, LowerGraphCall,
            LowerDestinationCall, LowerLooseGraphOp, LowerGraphReturn))
        result = apply_partial_conversion(self.table, target, patterns, converter,
                                          first_failure_only=True)
        if not result.success:
            raise PassFailure([self._diagnostic(self.error)] if self.error is not None
                              else result.diagnostics)

    def is_lowered(self, op: Operation) -> bool:
        """The conversion target's rule: every op the pass rewrites is illegal until its
        pattern has rewritten it."""
        return op not in self.pending

    def done(self, op: Operation, rewriter: ConversionRewriter) -> None:
        """`op`, rewritten in place, is now legal (again pending if that is undone)."""
        self.pending.discard(op)
        rewriter.on_rollback(self.pending.add, op)

    def _diagnostic(self, error: KernelError) -> Diagnostic:
        loc = error.op.loc if error.op is not None else self.table.loc
        return Diagnostic("error", f"graph-lower-to-loop: {error}", loc)

    def _kernel(self, name: str, inputs: Sequence[Value], ops: Sequence[Operation],
                outputs: Sequence[Value], origin: Operation) -> FuncOp:
        """The kernel computing this group: an existing one of the same structure, or
        a new one called `name`."""
        key = group_structure(inputs, ops, outputs)
        kernel = self.kernels.get(key)
        if kernel is None:
            kernel = group_kernel(name, inputs, ops, outputs)
            kernel.attributes["sym_visibility"] = StringAttr("private")
            kernel.loc = origin.loc
            self.kernels[key] = kernel
            self.symbols.add(name)
        return kernel

    def _external(self, fn: FuncOp) -> str:
        """The declaration of the external function computing primitive `fn`: its
        parameters and results as buffers, destination-passing (one per name)."""
        return self.declare_external(self.externals[fn.sym_name.value], fn.type.inputs,
                                     fn.type.results, fn)

    def declare_external(self, name: str, inputs: Sequence, results: Sequence,
                         origin: Operation) -> str:
        """Declare the external function `name` taking buffers of the tensor types
        `inputs` then `results` (destination-passing); the symbol to call. One
        declaration per name and signature: a Python function called on buffers of
        several shapes (the course's `env.linear` on both layers) gets a declaration
        per signature, `@name`, `@name_1`..., each naming it in `mlc.extern`."""
        what = f"@{origin.sym_name.value}" if isinstance(origin, FuncOp) else f"'{origin.name}'"
        for type_ in (*inputs, *results):
            problem = lowerable_type(type_)
            if problem is not None:
                raise KernelError(f"{what} cannot call an external function: {problem}",
                                  origin)
        signature = FunctionType(tuple(buffer_type(t) for t in (*inputs, *results)), ())
        symbol = self.external_symbols.get((name, signature))
        if symbol is not None:
            return symbol
        if name in self.symbols and name not in self.declarations:
            raise KernelError(f"external function '{name}' would clash with the symbol "
                              f"@{name}", origin)
        symbol = unique_name(name, self.symbols)
        declaration = FuncOp.create_function(symbol, signature, "private")
        declaration.regions[0].blocks[0].erase()
        declaration.loc = origin.loc
        declaration.attributes[EXTERN_NAME] = StringAttr(name)
        # MLIR's argument attributes say what the body would: it reads the inputs and
        # writes the results' buffers (what the runtime checks arrays by).
        declaration.attributes["arg_attrs"] = ArrayAttr(
            (DictionaryAttr((("llvm.readonly", UnitAttr()),)),) * len(inputs)
            + (DictionaryAttr((("llvm.writeonly", UnitAttr()),)),) * len(results))
        self.declarations[symbol] = declaration
        self.external_symbols[(name, signature)] = symbol
        self.symbols.add(symbol)
        return symbol

    # -------------------------------------------------- kernels the callers need

    def place_before_callers(self, op: Operation, rewriter: ConversionRewriter) -> None:
        """Insert `op` (a kernel or declaration beyond the primitive functions') before
        the first caller, or at the end of the module when there is none, in the order
        they are made."""
        with rewriter.insertion_point():
            if self.callers:
                rewriter.set_insertion_point_before(self.callers[0])
            else:
                rewriter.set_insertion_point_to_end(self.table.regions[0].blocks[0])
            rewriter.insert(op)

    def loose_op_kernel(self, op: Operation, rewriter: ConversionRewriter) -> str:
        """The kernel of a graph op outside any primitive function (a group of one)."""
        key = group_structure(op.operands, [op], op.results)
        # One of the same structure as a primitive function's group reuses its kernel,
        # which LowerPrimitiveFunction places where that function was.
        kernel = self.kernels.get(key)
        if kernel is None:
            name = unique_name(op.name.split(".", 1)[1], self.symbols)
            kernel = self._kernel(name, op.operands, [op], op.results, op)
            self._forget_on_rollback(key, name, rewriter)
            self.place_before_callers(kernel, rewriter)
        return kernel.sym_name.value

    def copy_kernel(self, type_: RankedTensorType, rewriter: ConversionRewriter) -> str:
        """The kernel copying a buffer of tensor type `type_` into another."""
        key = ("copy", type_)
        kernel = self.kernels.get(key)
        if kernel is None:
            name = unique_name("copy", self.symbols)
            self.symbols.add(name)
            kernel = copy_kernel(name, type_)
            kernel.attributes["sym_visibility"] = StringAttr("private")
            self.kernels[key] = kernel
            self._forget_on_rollback(key, name, rewriter)
            self.place_before_callers(kernel, rewriter)
        return kernel.sym_name.value

    def _forget_on_rollback(self, key: tuple, name: str, rewriter: ConversionRewriter) -> None:
        rewriter.on_rollback(self.kernels.pop, key)
        rewriter.on_rollback(self.symbols.discard, name)

    def call(self, callee: str, inputs: Sequence[Value], outputs: Sequence[Value],
             origin: Operation, rewriter: ConversionRewriter) -> None:
        """Call `callee` on buffers (destination-passing: no results)."""
        rewriter.insert(CallOp.build([*inputs, *outputs], callee=SymbolRefAttr(callee),
                                     result_types=[], loc=origin.loc))
        self.calls += 1
        rewriter.on_rollback(self._uncount_call)

    def _uncount_call(self) -> None:
        self.calls -= 1

    def computes_nothing(self, op: Operation) -> bool:
        """Whether `op` is a graph op or a call of a kernel whose results all hold no
        element: it needs no call. (An external function is called whatever its
        results hold, and so is a function on tensors, lowered on its own.)"""
        if not all(is_empty(r.type) for r in op.results) or isinstance(op, DestinationCall):
            return False
        if isinstance(op, CallOp):
            callee = self.by_name[op.callee.leaf]
            return callee in self.primitives and op.callee.leaf not in self.externals
        return True

    def lower_computation(self, op: Operation, callee: str | None, inputs: Sequence[Value],
                          rewriter: ConversionRewriter) -> None:
        """Replace `op` (a call or a graph op) by a call of `callee` on `inputs` and a
        buffer per result: the output buffer the result is handed back in, else a
        new one."""
        destination = self.destinations[op.parent_op]
        outputs = []
        for result in op.results:
            buffer = destination.get(result)
            if buffer is None:
                alloc = rewriter.insert(AllocBufferOp.build(
                    result_types=[buffer_type(result.type)], loc=op.loc))
                buffer = alloc.results[0]
                buffer.name_hint = result.name_hint
            outputs.append(buffer)
        if not self.computes_nothing(op):
            self.call(callee, inputs, outputs, op, rewriter)
        rewriter.replace_op(op, outputs)


class _LoweringPattern(ConversionPattern):
    """A pattern of this pass: it shares the run's `_Lowering`, and implements
    `lower(op, adaptor, rewriter)`. A kernel that cannot be built makes the pattern
    fail (the driver undoes what it did), the first such error kept for the report."""

    def __init__(self, lowering: _Lowering, type_converter: TypeConverter):
        super().__init__(type_converter)
        self.lowering = lowering

    def match_and_rewrite(self, op: Operation, adaptor, rewriter: ConversionRewriter) -> bool:
        try:
            return self.lower(op, adaptor, rewriter)
        except KernelError as error:
            if self.lowering.error is None:
                self.lowering.error = error
            return False

    def lower(self, op: Operation, adaptor, rewriter: ConversionRewriter) -> bool:
        raise NotImplementedError


class LowerPrimitiveFunction(_LoweringPattern):
    """A graph.primitive function: the first of its structure becomes its kernel (built
    beforehand); the others, and those computed externally or computing nothing, go."""

    root = FuncOp

    def lower(self, op: FuncOp, adaptor, rewriter: ConversionRewriter) -> bool:
        lowering = self.lowering
        if op not in lowering.primitives:
            return False
        name = op.sym_name.value
        external = lowering.externals.get(name)
        if external is not None:
            declaration = lowering.declarations[lowering.kernel_of[name]]
            if not lowering.callers and declaration.parent is None:
                lowering.place_before_callers(declaration, rewriter)
        elif lowering.kernel_of.get(name) == name:
            rewriter.insert(lowering.kernel_named[name])
        rewriter.erase_op(op)
        return True


class LowerCallerSignature(_LoweringPattern):
    """A function on tensors: its parameters become buffers, and each result an output
    buffer after them; it returns nothing."""

    root = FuncOp

    def lower(self, op: FuncOp, adaptor, rewriter: ConversionRewriter) -> bool:
        lowering = self.lowering
        if op in lowering.primitives or op not in lowering.callers:
            return False
        results = op.type.results
        for n, type_ in enumerate(results):
            problem = lowerable_type(type_)
            if problem is not None:
                raise KernelError(f"result #{n} of @{op.sym_name.value} cannot become a "
                                  f"buffer: {problem}", op)
        converter = self.type_converter
        inputs = converter.convert_types(op.type.inputs)
        outputs = converter.convert_types(results)
        with rewriter.modify_op_in_place(op):
            op.function_type = TypeAttr(FunctionType((*inputs, *outputs), ()))
            op.attributes.pop("arg_attrs", None)
            op.attributes.pop("res_attrs", None)
        if op is lowering.callers[0]:
            for declaration in lowering.declarations.values():
                lowering.place_before_callers(declaration, rewriter)
        entry = op.entry_block
        params = list(entry.args)
        for param, group in zip(params, rewriter.convert_block_signature(entry, converter)):
            for arg in group:
                if arg is not param:
                    arg.loc = None  # as the buffers the old lowering made: no location
        out_args = [rewriter.add_block_argument(entry, t) for t in outputs]
        for n, arg in enumerate(out_args):
            arg.name_hint = "out" if len(out_args) == 1 else f"out{n}"
        # Each value handed back is computed into the first output buffer it goes to.
        destination: dict[Value, Value] = {}
        for value, arg in zip(entry.terminator.operands, out_args):
            destination.setdefault(value, arg)
        lowering.destinations[op] = destination
        lowering.done(op, rewriter)
        return True


class LowerGraphConstant(_LoweringPattern):
    """graph.constant in a caller: a constant buffer."""

    root = ConstantOp

    def lower(self, op: ConstantOp, adaptor, rewriter: ConversionRewriter) -> bool:
        memref = buffer_type(op.result.type)
        value = op.value
        if memref.element_type != op.result.type.element_type:  # unsigned: the same bits
            array = constant_array(value)
            value = DenseElementsAttr.from_array(
                array.view(np.dtype(f"i{array.dtype.itemsize}")),
                RankedTensorType(tuple(memref.shape), memref.element_type))
        constant = rewriter.insert(LoopConstantOp.build(
            value=value, result_types=[memref], loc=op.loc))
        constant.results[0].name_hint = op.result.name_hint
        rewriter.replace_op(op, constant.results)
        return True


class LowerGraphCall(_LoweringPattern):
    """A call in a caller: the primitive function's kernel (or external function, or
    the lowered function on tensors) called on the operands' buffers and a buffer per
    result."""

    root = CallOp

    def lower(self, op: CallOp, adaptor, rewriter: ConversionRewriter) -> bool:
        callee = op.callee.leaf
        name = self.lowering.kernel_of.get(callee, callee)
        self.lowering.lower_computation(op, name, adaptor.operands, rewriter)
        return True


class LowerDestinationCall(_LoweringPattern):
    """graph.call_tir or graph.call_dps_packed in a caller: a call of the primitive
    function or the external function's declaration on the operands' buffers and a
    buffer per result."""

    root = None

    def lower(self, op: Operation, adaptor, rewriter: ConversionRewriter) -> bool:
        if not isinstance(op, DestinationCall):
            return False
        callee = self.lowering.external_of.get(op, op.callee_name)
        self.lowering.lower_computation(op, callee, adaptor.operands, rewriter)
        return True


class LowerLooseGraphOp(_LoweringPattern):
    """A graph op outside any primitive function: a kernel of its own (shared by ops
    of the same structure), called as a primitive function's would be."""

    root = None

    def lower(self, op: Operation, adaptor, rewriter: ConversionRewriter) -> bool:
        if not isinstance(op, GraphOp) or isinstance(op, ConstantOp):
            return False
        lowering = self.lowering
        if all(is_empty(r.type) for r in op.results):
            name = None  # nothing to compute: no kernel, no call
        else:
            name = lowering.loose_op_kernel(op, rewriter)
        lowering.lower_computation(op, name, adaptor.operands, rewriter)
        return True


class LowerGraphReturn(_LoweringPattern):
    """func.return in a caller: copy each value handed back that was not computed into
    its output buffer, and return nothing."""

    root = ReturnOp

    def lower(self, op: ReturnOp, adaptor, rewriter: ConversionRewriter) -> bool:
        lowering = self.lowering
        entry = op.parent
        out_args = entry.args[len(entry.args) - len(op.operands):]
        for old, buffer, arg in zip(op.operands, adaptor.operands, out_args):
            if buffer is not arg and not is_empty(old.type):
                lowering.call(lowering.copy_kernel(old.type, rewriter), [buffer], [arg], op,
                              rewriter)
        rewriter.insert(ReturnOp.build([], loc=op.loc))
        rewriter.erase_op(op)
        return True


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
