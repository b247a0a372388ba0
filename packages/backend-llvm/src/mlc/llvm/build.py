"""From IR to native code: the flow TVM users know as `relay.build` → `graph_executor`.

    model = mlc.llvm.build(graph_module)             # graph dialect → one native entry
    model.set_input("x", x); model.run(); y = model.get_output(0)
    y = model(x)                                     # the same, in one call
    model.export_library("model.so")                 # load_module() runs it, no compiler

    library = mlc.llvm.compile_module(kernels)       # standard dialects → callables
    library["mm_relu"](a, b, c)

The stages, each timed (`model.timings`): the graph pipeline to loops and the standard
dialects (graph-optimize, graph-lower-to-loop, loop-plan-memory, loop-lower), the entry
made AOT-ready (weights and workspace as arguments: :mod:`mlc.llvm.aot`), scf to cf and
convert-to-llvm, translation to LLVM IR, then LLVM's optimisation and code generation.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mlc.ir.analysis.argument_access import Access, ArgumentAccess
from mlc.ir.core.attributes import (
    ArrayAttr,
    DictionaryAttr,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    RankedTensorType,
    Type,
    UnitAttr,
)
from mlc.ir.core.gc_pause import gc_paused
from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic, DiagnosticError
from mlc.ir.dialects.func import FuncOp
from mlc.ir.passes.instruments import PassInstrument
from mlc.llvm.executor import ModelExecutor
from mlc.llvm.limits import buffer_size_problem, native_limit_problems
from mlc.llvm.native_call import ArgSpec, IndexErrorRecord, NativeFunction, UnknownNameError
from mlc.llvm.target import Target
from mlc.loop.index_checks import INDEX_ERROR_SYMBOL, RECORD_FIELDS, index_check_sites

if TYPE_CHECKING:
    from mlc.llvm.timing import ProfileResult

LOOP_LOWER = "loop-lower"
"""From scheduled loop kernels to the standard dialects. (No canonicalize in the
build's lowering: LLVM's -O3 folds what it would, and its time grows with the
unrolled kernels.)"""
LOOP_PLAN = "loop-compact-buffers,loop-hoist-buffers,loop-plan-memory"
"""A main function's buffers planned, with its scheduled loop kernels."""
LOOP_TO_STANDARD = f"{LOOP_PLAN},{LOOP_LOWER}"
"""From a main function calling scheduled loop kernels to the standard dialects."""
GRAPH_LOWER = f"graph-lower-to-loop,{LOOP_TO_STANDARD}"
"""From an optimised graph module to the standard dialects (unscheduled kernels)."""
GRAPH_TO_STANDARD = f"graph-optimize,{GRAPH_LOWER}"
STANDARD_TO_LLVM = ("math-extend-to-supported-types,math-polynomial-approximation,convert-scf-to-cf,"
                    "convert-to-llvm")


def standard_to_llvm(num_threads: int = 1) -> str:
    """The pipeline from the standard dialects to llvm: on more than one thread, each
    outermost `scf.parallel` first becomes a call into the OpenMP runtime
    (convert-scf-parallel-to-gomp); on one, convert-scf-to-cf makes it a serial loop."""
    if num_threads == 1:
        return STANDARD_TO_LLVM
    return f"convert-scf-parallel-to-gomp{{num-threads={num_threads}}},{STANDARD_TO_LLVM}"


class BuildError(DiagnosticError):
    """The module cannot be compiled; the diagnostics say where and why."""


_DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "bf16": None}


def numpy_dtype(type_: Type) -> str:
    """The numpy dtype name of an element type (`index` is int64, `i1` bool)."""
    if isinstance(type_, FloatType) and _DTYPES.get(type_.name):
        return _DTYPES[type_.name]
    if isinstance(type_, IndexType):
        return "int64"
    if isinstance(type_, IntegerType):
        if type_.width == 1:
            return "bool"
        if type_.width in (8, 16, 32, 64):
            return f"{'u' if type_.signedness == 'unsigned' else ''}int{type_.width}"
    raise TypeError(f"no numpy dtype for {type_}")


def arg_spec(name: str, type_: Type, role: str) -> ArgSpec:
    """The runtime's view of an argument of `type_` (a memref or tensor: an array by
    pointer; a scalar: by value). TypeError if it has no native form (a dynamic
    shape, an element type numpy lacks)."""
    if isinstance(type_, (MemRefType, RankedTensorType)):
        if any(d < 0 for d in type_.shape):
            raise TypeError(f"{type_} has a dynamic shape (native entries take static ones)")
        problem = buffer_size_problem(type_)
        if problem is not None:
            raise TypeError(problem)
        return ArgSpec(name, tuple(type_.shape), numpy_dtype(type_.element_type), role)
    return ArgSpec(name, None, numpy_dtype(type_), role)


_ROLE_OF_ACCESS = {Access.NONE: "input", Access.READ: "input", Access.WRITE: "output",
                   Access.READ_WRITE: "inout"}


def signature_specs(fn: Operation, access: ArgumentAccess | None = None) -> list[ArgSpec]:
    """The runtime's specs of the arguments of `fn` (a `func.func` in a module), named
    as in its source, each buffer's role from the function's memory effects (only read:
    `input`, only written: `output`, both: `inout`; `access` is the analysis of its
    module, made here when not given); BuildError, located at `fn`, for an argument
    with no native form."""
    declared = fn.attributes["function_type"].value.inputs
    block_args = fn.regions[0].blocks[0].args if fn.regions[0].blocks else ()
    names = [arg.name_hint or f"arg{i}" for i, arg in enumerate(block_args)] \
        or [f"arg{i}" for i in range(len(declared))]
    accesses = (access or ArgumentAccess(fn.parent_op)).of(fn) if fn.parent_op is not None \
        else [Access.READ_WRITE] * len(declared)
    try:
        return [arg_spec(n, t, _ROLE_OF_ACCESS[a] if isinstance(t, MemRefType) else "input")
                for n, t, a in zip(names, declared, accesses)]
    except TypeError as exc:
        name = fn.attributes["sym_name"].value
        raise BuildError([Diagnostic("error", f"@{name} cannot be called natively: {exc}",
                                     fn.loc)]) from None


@dataclass
class StageTimes:
    """Wall seconds of each stage of a build, in order."""

    stages: list[tuple[str, float]] = field(default_factory=list)
    parts: list[list[tuple[str, float]]] = field(default_factory=list)
    """The stages of each worker process that compiled a part of the module
    (mlc.llvm.compile_parts), in parallel: not counted again in the total."""

    def add(self, name: str, seconds: float) -> None:
        self.stages.append((name, seconds))

    @property
    def total(self) -> float:
        return sum(t for _, t in self.stages)

    def report(self) -> str:
        """A table of the stages, one line each, and the total."""
        width = max((len(n) for n, _ in self.stages), default=5)
        lines = [f"  {name:<{width}}  {seconds * 1000:9.1f} ms" for name, seconds in self.stages]
        for i, stages in enumerate(self.parts, 1):
            lines.append(f"  part {i} of {len(self.parts)}, in its own process:")
            lines += [f"    {name:<{width - 2}}  {seconds * 1000:9.1f} ms" for name, seconds in stages]
        lines.append(f"  {'total':<{width}}  {self.total * 1000:9.1f} ms")
        return "\n".join(lines)


class _Timer:
    def __init__(self, times: StageTimes, name: str):
        self.times, self.name = times, name

    def __enter__(self):
        self.start = time.perf_counter()

    def __exit__(self, *exc):
        self.times.add(self.name, time.perf_counter() - self.start)


def _load_passes() -> None:
    """Import every installed pass once per process, outside the timed stages (the
    first import of the dialects and passes costs about a second)."""
    from mlc.ir.passes.registry import load_pass_plugins

    load_pass_plugins()


class _KernelCosts(PassInstrument):
    """A pass instrument recording the kernels' costs (:mod:`mlc.loop.cost`) just before
    `loop-lower` turns their loop blocks into plain loops, whatever the pipeline."""

    def __init__(self):
        self.costs: dict = {}

    def run_before_pass(self, pass_, op: Operation) -> None:
        if pass_.name == "loop-lower":
            self.record(op)

    def record(self, module: Operation) -> None:
        """Record the costs of the kernels of `module` (loop IR)."""
        from mlc.loop.cost import kernel_costs

        self.costs.update(kernel_costs(module))


VERIFY_EACH = os.environ.get("MLC_VERIFY_EACH", "0") not in ("", "0")
"""Whether a build verifies the module after every pass of its pipelines
(`MLC_VERIFY_EACH=1`, for debugging a pass); by default it verifies once, after the
user's graph is lowered to loops and scheduled."""


def _verify(module: Operation) -> None:
    """BuildError with what the verifier finds in `module` (the IR a stage made)."""
    from mlc.ir.verify.verifier import Verifier

    problems = Verifier().verify(module)
    if problems:
        raise BuildError(list(problems))


def _run(module: Operation, pipeline: str, *instruments,
         required: tuple[str, ...] = ()) -> None:
    from mlc.ir.passes.context import PassContext
    from mlc.ir.passes.manager import run_pipeline

    context = PassContext.current().with_instruments(*instruments)
    context.required = context.required | frozenset(required)
    with context:
        result = run_pipeline(module, pipeline, verify_each=VERIFY_EACH)
    if not result.success:
        raise BuildError(list(result.diagnostics) or [Diagnostic(
            "error", f"the pipeline '{pipeline}' failed", module.loc)])


def _functions(module: Operation) -> list[Operation]:
    return [op for op in module.regions[0].blocks[0].ops() if isinstance(op, FuncOp)]


def _function(module: Operation, name: str) -> Operation:
    for op in _functions(module):
        if op.attributes["sym_name"].value == name:
            return op
    raise BuildError([Diagnostic("error", f"the module has no function @{name}", module.loc)])


def mark_buffers_noalias(module: Operation) -> None:
    """Give every memref argument of every function defined in `module` the
    `llvm.noalias` attribute (kernels receive distinct buffers: that is what lets LLVM
    vectorise their loops)."""
    for fn in _functions(module):
        if not fn.regions[0].blocks:
            continue
        inputs = fn.attributes["function_type"].value.inputs
        old = fn.attributes.get("arg_attrs")
        entries = list(old) if isinstance(old, ArrayAttr) else [DictionaryAttr(())] * len(inputs)
        for i, type_ in enumerate(inputs):
            if isinstance(type_, MemRefType):
                items = dict(entries[i].entries)
                items.setdefault("llvm.noalias", UnitAttr())
                entries[i] = DictionaryAttr(tuple(sorted(items.items())))
        fn.attributes["arg_attrs"] = ArrayAttr(tuple(entries))


# Lowering makes hundreds of thousands of objects that live until it returns: automatic
# collections meanwhile would rescan them again and again (mlc.ir.core.gc_pause; the
# pass manager pauses them around pipelines too).
@gc_paused()
def lower_to_llvm_ir(module: Operation, times: StageTimes | None = None,
                     num_threads: int = 1) -> str:
    """LLVM IR text of `module` (standard dialects or llvm), lowered in place, its
    parallel loops run on `num_threads` threads."""
    from mlc.llvm.dialect.ops_control import LLVMFuncOp
    from mlc.llvm.dialect.ops_values import GlobalOp
    from mlc.llvm.dialect.translation import TranslationError, translate_to_llvm_ir

    times = times if times is not None else StageTimes()
    _load_passes()
    problems = native_limit_problems(module)
    if problems:
        raise BuildError(problems)
    if any(not isinstance(op, (LLVMFuncOp, GlobalOp)) for op in module.regions[0].blocks[0].ops()):
        mark_buffers_noalias(module)
        with _Timer(times, "scf → cf → llvm dialect"):
            _run(module, standard_to_llvm(num_threads))
    with _Timer(times, "translation to LLVM IR"):
        try:  # the limits were checked above, on the types lowering erases (memrefs)
            return translate_to_llvm_ir(module, check_limits=False)
        except TranslationError as exc:
            raise BuildError(exc.diagnostics) from None


class NativeModule:
    """The functions of a module compiled to native code, each called on numpy arrays
    (`module["name"](*arrays)`); see :class:`~mlc.llvm.native_call.NativeFunction`."""

    def __init__(self, library, specs: Mapping[str, list[ArgSpec]], results: Mapping[str, str | None],
                 times: StageTimes, unreachable: Mapping[str, str] | None = None,
                 profiled: Mapping | None = None, kernel_costs: Mapping | None = None,
                 target: Target | None = None, index_errors: IndexErrorRecord | None = None,
                 num_threads: int = 1):
        self.library = library
        self.index_errors = index_errors
        self.num_threads = num_threads
        self._unreachable = dict(unreachable or {})
        self._specs = dict(specs)
        self._results = dict(results)
        self._functions: dict[str, NativeFunction] = {}
        self._profiled = dict(profiled or {})
        self.kernel_costs = dict(kernel_costs or {})
        self.target = target or Target()
        self.timings = times

    def profile(self, name: str, *args, runs: int = 10, warmup: int = 1):
        """Call function `name` on `args` `runs` times (after `warmup` calls) with each
        call it makes timed: the :class:`~mlc.llvm.profile.Profile`. The module must
        have been compiled with `compile_module(..., profile=[name])`."""
        from mlc.llvm.peak import peak_flops
        from mlc.llvm.profile import summarize

        _check_runs(runs, warmup)
        profiled = self._profiled.get(name)
        if profiled is None:
            raise KeyError(f"@{name} was not compiled for profiling (compile_module(..., "
                           f"profile=['{name}']))")
        function = self.library.function(profiled.name, [
            *self[name].specs, ArgSpec("profile_ns", (profiled.buffer_size,), "int64",
                                       "output")], self._results[name])
        totals = np.zeros(profiled.buffer_size, np.int64)
        for _ in range(warmup):
            function(*args, totals)
        totals[:] = 0
        for _ in range(runs):
            function(*args, totals)
        return summarize(profiled, totals, runs, self.kernel_costs,
                         peak_flops(self.target).flops, self.target.describe())

    def time_evaluator(self, name: str, number: int = 10, repeat: int = 1,
                       warmup: int = 1, flush_cache: bool = False
                       ) -> Callable[..., ProfileResult]:
        """TVM's `rt_mod.time_evaluator`: a callable that, given function `name`'s
        arguments, calls it `warmup` times, then measures `repeat` times the mean time
        of `number` calls; it returns the :class:`~mlc.llvm.timing.ProfileResult`
        (`mean`, `median`, `results`, in seconds). `flush_cache`: each call timed
        alone with its arrays flushed from the caches first (cold weights, as in a
        network; mlc.llvm.timing)."""
        from mlc.llvm.timing import time_evaluator

        return time_evaluator(self[name], number, repeat, warmup, flush_cache)

    def __getitem__(self, name: str) -> NativeFunction:
        found = self._functions.get(name) if isinstance(name, str) else None
        if found is None:
            if name in self._unreachable:
                raise UnknownNameError(self._unreachable[name])
            if name not in self._specs:
                raise UnknownNameError(f"no function @{name} in the compiled module "
                                       f"(it has {', '.join('@' + n for n in self._specs)})")
            found = self._functions[name] = self.library.function(
                name, self._specs[name], self._results[name], self.index_errors)
        return found

    @property
    def function_names(self) -> list[str]:
        return list(self._specs)

    @property
    def llvm_ir(self) -> str:
        return self.library.llvm_ir()


def compile_module(module: Operation, target: Target | None = None,
                   profile: Sequence[str] = (), *, num_threads: int | None = None
                   ) -> NativeModule:
    """Compile the functions of `module` (loop kernels, scf/memref/vector/math/arith/func,
    or the llvm dialect) to native code; loop kernels are lowered first (`loop-lower`).
    The module is not changed (a copy is lowered).
    `profile` names functions to compile a timed copy of as well
    (`NativeModule.profile`). Parallel loops run on `num_threads` threads (default:
    MLC_NUM_THREADS, else the cores this process may use; see :mod:`mlc.llvm.openmp`)."""
    from mlc.llvm.jit import compile_llvm_ir
    from mlc.llvm.profile import add_profiled_entry

    num_threads = _threads(num_threads)
    times = StageTimes()
    functions = [fn for fn in _functions(module) if fn.regions[0].blocks]
    access = ArgumentAccess(module)
    lowered = module.clone()
    costs = {}
    if any(op.name.startswith("loop.") for op in lowered.walk()):
        # Loop kernels (te's, a schedule's): lowered here as a build lowers its own.
        from mlc.loop.cost import kernel_costs

        _load_passes()
        costs = kernel_costs(lowered)
        with _Timer(times, "loops → standard dialects"):
            _run(lowered, LOOP_LOWER)
    sites = index_check_sites(lowered)
    profiled = {}
    for name in profile:
        entry = add_profiled_entry(lowered, name)
        if entry is not None:
            profiled[name] = entry
    text = lower_to_llvm_ir(lowered, times, num_threads)
    # The argument specs come from the signatures before lowering, read once lowering
    # succeeded (it is what reports a type with no native form).
    specs, results, unreachable = {}, {}, {}
    for fn in functions:
        name = fn.attributes["sym_name"].value
        fn_results = fn.attributes["function_type"].value.results
        try:
            specs[name] = signature_specs(fn, access)
        except BuildError as exc:
            unreachable[name] = exc.diagnostics[0].message
            continue
        if len(fn_results) > 1:
            # Callable from other native functions, not from Python (a struct result).
            unreachable[name] = (f"@{name} returns {len(fn_results)} values; a function "
                                 "called from Python returns at most one scalar (write "
                                 "results to output buffers)")
            continue
        try:
            results[name] = numpy_dtype(fn_results[0]) if fn_results else None
        except TypeError as exc:
            del specs[name]
            unreachable[name] = f"@{name} cannot be called natively: {exc}"
    library = compile_llvm_ir(text, target)
    for stage, seconds in library.timings.stages():
        times.add(stage, seconds)
    return NativeModule(library, specs, results, times, unreachable, profiled, costs,
                        library.target, _index_error_record(library, sites), num_threads)


def _index_error_record(library, sites: list[str] | None) -> IndexErrorRecord | None:
    """The record of a compiled module's index checks (mlc.loop.index_checks), if it
    has any."""
    if sites is None:
        return None
    return IndexErrorRecord(library.global_address(INDEX_ERROR_SYMBOL), sites, RECORD_FIELDS)


def _threads(num_threads: int | None) -> int:
    """The thread count of a build (warning and 1 without an OpenMP runtime), with the
    runtime loaded for the JIT when it is more than 1."""
    from mlc.llvm.openmp import load_runtime_for_jit, threads_for_build

    threads = threads_for_build(num_threads, stacklevel=4)
    if threads > 1:
        load_runtime_for_jit()
    return threads


def _check_runs(runs: int, warmup: int) -> None:
    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1 \
            or not isinstance(warmup, int) or isinstance(warmup, bool) or warmup < 0:
        raise ValueError(f"profile takes runs >= 1 and warmup >= 0, not {runs!r} and "
                         f"{warmup!r}")


class CompiledModel(ModelExecutor):
    """A model compiled to one native entry point, with its weights bound and its
    workspace allocated once. Call it on the inputs (`model(x)`: the outputs), or use
    the graph executor's interface: `set_input`, `run`, `get_output`
    (:class:`~mlc.llvm.executor.ModelExecutor`); `export_library` writes it as a
    shared library that `mlc.llvm.load_module` runs without the compiler."""

    def __init__(self, entry: NativeFunction, params: dict[str, np.ndarray],
                 workspaces: list[ArgSpec], llvm_ir: str | Sequence[str], target: Target,
                 times: StageTimes,
                 externals: Sequence[str] = (), library=None, profiled=None,
                 kernel_costs: Mapping | None = None, num_threads: int = 1):
        super().__init__(entry)
        self.index_errors = entry.index_errors
        self.num_threads = num_threads
        self.params = params
        self.workspaces = workspaces
        self.llvm_ir_parts = [llvm_ir] if isinstance(llvm_ir, str) else list(llvm_ir)
        """The LLVM IR of the model: one module, or the parts compiled by worker
        processes (mlc.llvm.compile_parts)."""
        self._linked_llvm_ir: str | None = None
        self.target = target
        self.timings = times
        self.externals = tuple(externals)
        self.kernel_costs = dict(kernel_costs or {})
        """Each kernel's FLOPs and bytes per call, from its loop IR (mlc.loop.cost)."""
        self.schedules: dict = {}
        """Each scheduled kernel's trace (mlc.loop.schedule.Trace), by name."""
        self._library = library
        self._profiled = profiled
        self._profile_function: NativeFunction | None = None

    @property
    def llvm_ir(self) -> str:
        """The LLVM IR of the model as one module (its parts linked by LLVM, when
        worker processes compiled it in parts)."""
        if len(self.llvm_ir_parts) == 1:
            return self.llvm_ir_parts[0]
        if self._linked_llvm_ir is None:
            from mlc.llvm.jit import link_llvm_ir

            self._linked_llvm_ir = str(link_llvm_ir(self.llvm_ir_parts))
        return self._linked_llvm_ir

    def profile(self, *inputs: np.ndarray, runs: int = 10, warmup: int = 1,
                **named: np.ndarray):
        """Run the model `runs` times (after `warmup` runs) on `inputs` with each kernel
        call timed, and return the :class:`~mlc.llvm.profile.Profile`: per kernel the
        calls, time, share of the total, FLOPs and achieved GFLOP/s from its loop IR,
        % of the target's peak (measured once per machine and cached), sorted by
        time. The timed code is the model's own kernels (see mlc.llvm.profile)."""
        from mlc.llvm.peak import peak_flops
        from mlc.llvm.profile import summarize

        _check_runs(runs, warmup)
        function = self._profiling_entry()
        totals = np.zeros(self._profiled.buffer_size, np.int64)
        for _ in range(warmup):
            function(*inputs, profile_ns=totals, **named)
        totals[:] = 0
        for _ in range(runs):
            function(*inputs, profile_ns=totals, **named)
        return summarize(self._profiled, totals, runs, self.kernel_costs,
                         peak_flops(self.target).flops, self.target.describe())

    def _profiling_entry(self) -> NativeFunction:
        if self._profiled is None or self._library is None:
            raise BuildError([Diagnostic("error", "this model was built without its timed "
                                         "entry (the module defines `clock_gettime`), so it "
                                         "cannot be profiled")])
        if self._profile_function is None:
            specs = [*self.entry.specs,
                     ArgSpec("profile_ns", (self._profiled.buffer_size,), "int64", "output")]
            function = self._library.function(self._profiled.name, specs)
            for name, value in self.params.items():
                function.bind(name, value)
            self._profile_function = function
        return self._profile_function

    def export_library(self, path: str | os.PathLike, target: Target | None = None) -> Path:
        """Write the model as a shared library at `path` (kernels and entry point in
        one library, linked with the system's `cc`), its weights beside it
        (`model.params.npz` for `model.so`) and its signature inside it (the entry's
        name and argument specs: inputs, outputs, params, workspaces).
        `mlc.llvm.load_module(path)` runs it with numpy and ctypes only. `target`
        defaults to the one the model was built for. Returns the library's path.

        BuildError when the model calls Python functions (a shared library cannot);
        ToolchainError when no C compiler can link it."""
        from mlc.llvm.export import export_shared_library

        if self.externals:
            names = ", ".join(f"'{name}'" for name in self.externals)
            raise BuildError([Diagnostic(
                "error", f"cannot export a model that calls Python functions ({names}): "
                "a shared library runs without Python; build it without `extern` to "
                "export it")])
        metadata = {"entry": self.entry.name, "num_threads": self.num_threads,
                    "functions": {self.entry.name: {"args": list(self.entry.specs)}}}
        if self.index_errors is not None:
            metadata["index_checks"] = {"symbol": INDEX_ERROR_SYMBOL,
                                        "sites": list(self.index_errors.sites),
                                        "fields": len(self.index_errors.values)}
        return export_shared_library(self.llvm_ir_parts, path, metadata, self.params,
                                     target or self.target)


def _graph_signature(fn: Operation) -> tuple[list[ArgSpec], list[ArgSpec]]:
    fn_type = fn.attributes["function_type"].value
    args = fn.regions[0].blocks[0].args
    inputs = [arg_spec(arg.name_hint or f"input{i}", t, "input")
              for i, (arg, t) in enumerate(zip(args, fn_type.inputs))]
    outputs = [arg_spec(f"output{i}", t, "output") for i, t in enumerate(fn_type.results)]
    return inputs, outputs


def graph_to_standard(extern: Mapping[str, str] | None = None) -> str:
    """The pipeline from the graph dialect to the standard dialects, with the primitive
    functions named in `extern` computed by external functions instead of kernels
    (graph-lower-to-loop's `extern` option: {FUNCTION: NAME})."""
    if not extern:
        return GRAPH_TO_STANDARD
    bindings = ",".join(f"{function}:{name}" for function, name in extern.items())
    return GRAPH_TO_STANDARD.replace("graph-lower-to-loop",
                                     f"graph-lower-to-loop{{extern={bindings}}}")


def bind_external_functions(module: Operation) -> list[str]:
    """Make every function `module` declares (graph-lower-to-loop's external functions)
    callable from native code: the Python function registered under its name (or the
    name its `mlc.extern` attribute gives: graph-lower-to-loop declares a function
    once per signature) (mlc.ir.extern.register_func) called on numpy views of the native buffers, read-only
    for the buffers the declaration's argument attributes say it only reads
    (`llvm.readonly`: graph-lower-to-loop marks the inputs so), writable for the
    others. The symbols bound, in order; BuildError at a declaration no Python function
    is registered for."""
    from mlc.ir.extern import get_func, list_funcs, registered_name
    from mlc.llvm.jit import bind_python_function

    bound = []
    access = ArgumentAccess(module)
    for fn in _functions(module):
        if fn.regions[0].blocks:
            continue
        symbol = fn.attributes["sym_name"].value
        name = registered_name(fn)
        if get_func(name) is None:
            known = ", ".join(list_funcs()) or "none"
            raise BuildError([Diagnostic(
                "error", f"@{name} is declared but no Python function is registered as "
                f"'{name}' (registered: {known}); register one with "
                "mlc.ir.extern.register_func before building", fn.loc)])
        types = fn.attributes["function_type"].value
        if types.results:
            raise BuildError([Diagnostic(
                "error", f"@{name} returns values; an external function called from native "
                "code writes its results to buffers (destination passing)", fn.loc)])
        bind_python_function(symbol, signature_specs(fn, access), get_func(name))
        bound.append(symbol)
    return bound


def check_entry_reads_its_inputs(module: Operation, entry: str, count: int) -> None:
    """BuildError unless the first `count` arguments of `entry` (a graph's inputs, in
    destination-passing style) are only read: the runtime accepts read-only arrays for
    them."""
    fn = _function(module, entry)
    accesses = ArgumentAccess(module).of(fn)
    written = [arg.name_hint or f"arg{i}" for i, (arg, a) in
               enumerate(zip(fn.regions[0].blocks[0].args[:count], accesses))
               if Access.WRITE in a]
    if written:
        raise BuildError([Diagnostic("error", f"the lowered @{entry} writes its input "
                                     f"{', '.join(written)}; a model's inputs are only "
                                     "read", fn.loc)])


def graph_to_loops(target: Target, schedule: str | None = "default",
                   extern: Mapping[str, str] | None = None) -> str:
    """The pipeline `build` runs from a graph module to its loop kernels (before they
    are scheduled): graph-optimize, with `graph-alter-op-layout` for the target's
    vector width when the kernels get the default schedules (convolutions in
    NCHW{lanes}c, dense weights transposed: what the rules vectorize), then
    graph-lower-to-loop. An external function gets the layout the graph has, so with
    `extern` the layout is left alone."""
    to_loops = graph_to_standard(extern).removesuffix("," + LOOP_TO_STANDARD)
    if schedule == "default" and not extern:
        from mlc.graph.passes.pipelines import graph_optimize_with_layout

        lanes = target.schedule_target.lanes(32)
        to_loops = to_loops.replace("graph-optimize", graph_optimize_with_layout(lanes), 1)
    return to_loops


SCHEDULES = ("default", None)
"""What `build(schedule=...)` takes: the default rules (mlc.loop.rules), or none."""


def lower_to_kernels(module: Operation, target: Target | None = None) -> Operation:
    """A copy of the graph `module` lowered to the loop kernels `build` schedules for
    `target` (graph_to_loops with the default schedules' layouts): what a tuner tunes."""
    target = target or Target()
    module = module.clone()
    _load_passes()
    _run(module, graph_to_loops(target, "default"),
         required=("graph-alter-op-layout", "graph-fold-scale-axis"))
    return module


# A build makes and drops hundreds of thousands of objects; the cyclic collector
# would rescan the live IR again and again meanwhile (mlc.ir.core.gc_pause), and what
# the build drops it frees itself (Operation.destroy).
@gc_paused()
def build(module: Operation, target: Target | None = None,
          params: Mapping[str, np.ndarray] | None = None, *, entry: str = "main",
          extern: Mapping[str, str] | None = None, pipeline: str | None = None,
          schedule: str | None = "default", num_threads: int | None = None,
          tuning_db: str | os.PathLike | None = None) -> CompiledModel:
    """Compile a graph-dialect `module` (its function `entry`) to one native entry
    point. `params` binds arguments of `entry` by name once (weights kept as parameters,
    as `import_onnx(..., freeze_params=False)` leaves them); the rest are the model's
    inputs. `extern` computes primitive functions by Python functions registered with
    mlc.ir.extern.register_func, `{"fused_dense_bias_add": "env.linear"}` (the
    primitive functions graph-optimize makes are named after their ops); `pipeline`
    replaces the pipeline to the standard dialects (`GRAPH_TO_STANDARD`; its
    graph-lower-to-loop may spell `extern` itself, and it schedules what it wants:
    `loop-default-schedule`). `schedule="default"` schedules every kernel by the
    default rules for `target` (mlc.loop.rules: register tiles, vectorization; the
    traces are `model.schedules`), `schedule=None` keeps the loop nests
    graph-lower-to-loop writes. Every function the lowered module
    declares is bound to the Python function registered under its name. Parallel loops
    run on `num_threads` threads (default: MLC_NUM_THREADS, else the cores this process
    may use; 1 is the serial code, with no OpenMP runtime calls; see
    :mod:`mlc.llvm.openmp`). A build done before with the same model and options is
    loaded from the persistent build cache instead (:mod:`mlc.llvm.build_cache`;
    `MLC_CACHE=0` turns it off). The module is not changed. BuildError says what cannot
    be compiled; ValueError, a bad `num_threads`. `tuning_db` names a tuning work
    directory (mlc.tune): each kernel with a record there for `target` gets its best
    trace instead of the default rules'."""
    if pipeline is not None and extern:
        raise BuildError([Diagnostic("error", "build() takes `extern` or a `pipeline`, not "
                                     "both: spell graph-lower-to-loop{extern=FUNCTION:NAME} "
                                     "in the pipeline", module.loc)])
    if schedule not in SCHEDULES:
        raise BuildError([Diagnostic("error", f"schedule must be one of "
                                     f"{', '.join(map(repr, SCHEDULES))}, not {schedule!r}",
                                     module.loc)])
    num_threads = _threads(num_threads)
    target = target or Target()
    tuned = None
    if tuning_db is not None:
        if schedule != "default":
            raise BuildError([Diagnostic("error", "tuning_db applies tuned schedules in "
                                         "place of the default ones: it needs "
                                         "schedule='default'", module.loc)])
        from mlc.tune.apply import TunedSchedules

        tuned = TunedSchedules(tuning_db, target)
    stages = [pipeline] if pipeline is not None else \
        [graph_to_loops(target, schedule, extern), LOOP_TO_STANDARD]
    times = StageTimes()
    module = module.clone()
    inputs, outputs = _graph_signature(_function(module, entry))
    params = dict(params or {})
    unknown = sorted(set(params) - {s.name for s in inputs})
    if unknown:
        raise BuildError([Diagnostic("error", f"params name no argument of @{entry}: "
                                     + ", ".join(unknown), module.loc)])
    cache_key = None
    if not extern:
        from mlc.llvm.build_cache import build_key, load_build

        with _Timer(times, "build cache lookup"):
            cache_key = build_key(module, entry, params,
                                  [*stages, standard_to_llvm(num_threads)],
                                  schedule if tuned is None else f"tuned:{tuned.digest}",
                                  num_threads, target.key)
            cached = None if cache_key is None else load_build(cache_key)
        if cached is not None:
            return _compiled_model(cached, entry, params, target, times, (), num_threads)
    _load_passes()
    costs = _KernelCosts()
    traces: dict = {}
    early = None
    with _Timer(times, "graph → loops"):
        # Layouts and scale folding are opt level 3 (as TVM's AlterOpLayout and
        # FoldScaleAxis); a build that names them for its schedules runs them.
        _run(module, stages[0], costs,
             required=("graph-alter-op-layout", "graph-fold-scale-axis"))
    if len(stages) > 1:
        if schedule == "default":
            from mlc.loop.rules import default_schedule

            with _Timer(times, "default schedules"):
                traces = default_schedule(module, target.schedule_target,
                                          chosen=tuned.trace_for if tuned else None)
        _verify(module)  # what the graph passes and the rules made
        with _Timer(times, "loops → standard dialects"):
            _run(module, LOOP_PLAN if stages[1] == LOOP_TO_STANDARD else stages[1], costs)
        if stages[1] == LOOP_TO_STANDARD:
            early = None if extern else _lower_in_parts(module, target, times, num_threads,
                                                        entry, len(inputs), costs)
            if early is None:
                with _Timer(times, "loop-lower"):
                    _run(module, LOOP_LOWER, costs)
    else:
        _verify(module)  # what the user's pipeline made
    if early is not None:
        objects, prepared = early
    else:
        prepared = _prepare_entry(module, entry, len(inputs), times)
        parted = _compile_in_parts(module, target, times, num_threads, lambda part, _: (
            _lower_part(part, num_threads)))
        objects = parted.objects if parted else None
    llvm_ir = [code.text for code in objects] if objects else \
        lower_to_llvm_ir(module, times, num_threads)
    module.destroy()  # build's own copy, done with: freed now, not by the cyclic collector
    specs = [*(ArgSpec(s.name, s.shape, s.dtype, "param" if s.name in params else "input")
               for s in inputs), *outputs, *prepared.param_specs, *prepared.workspace_specs]
    from mlc.llvm.build_cache import CachedBuild, dumps_schedules, store_build

    made = CachedBuild(llvm_ir, specs, prepared.workspace_specs,
                       {spec.name: value for spec, value in zip(prepared.param_specs,
                                                                prepared.param_values)},
                       prepared.sites, prepared.profiled, costs.costs, dumps_schedules(traces))
    model = _compiled_model(made, entry, params, target, times, prepared.externals,
                            num_threads, objects or ())
    if cache_key is not None and not prepared.externals:
        store_build(cache_key, made)
    return model


@dataclass
class _PreparedEntry:
    """What readying the entry for native code found (the serial build's steps after
    `loop-lower`, or part 0's in a worker process): picklable."""

    sites: list[str] | None
    externals: list[str]
    param_specs: list[ArgSpec]
    param_values: list[np.ndarray | None]
    workspace_specs: list[ArgSpec]
    profiled: tuple[str, tuple[str, ...]] | None


def _prepare_entry(module: Operation, entry: str, input_count: int, times: StageTimes,
                   in_worker: bool = False) -> _PreparedEntry:
    """The entry of the loop-lowered `module` made one native entry point: its index
    check sites, its inputs checked to be read only, the external functions bound,
    weights and workspace made arguments, the profiled copy added. `in_worker`: part 0
    in a worker process (mlc.llvm.compile_parts), where the other parts' kernels are
    declarations: the parent checked the inputs on the whole module, and such a build
    has no external functions."""
    from mlc.llvm.aot import bind_entry_resources
    from mlc.llvm.profile import add_profiled_entry

    sites = index_check_sites(module)
    if not in_worker:
        check_entry_reads_its_inputs(module, entry, input_count)
    externals = [] if in_worker else bind_external_functions(module)
    with _Timer(times, "AOT entry (weights, workspace)"):
        resources = bind_entry_resources(module, entry)
        profiled = add_profiled_entry(module, entry)
    return _PreparedEntry(
        sites, externals, [arg_spec(name, type_, "param") for name, type_, _ in resources.params],
        [value for _, _, value in resources.params],
        [arg_spec(name, type_, "workspace") for name, type_ in resources.workspaces],
        None if profiled is None else (profiled.name, profiled.slots))


def _lower_part(part: Operation, num_threads: int) -> tuple[str, list[tuple[str, float]], None]:
    part_times = StageTimes()
    return lower_to_llvm_ir(part, part_times, num_threads), part_times.stages, None


def _lower_in_parts(module: Operation, target: Target, times: StageTimes, num_threads: int,
                    entry: str, input_count: int, costs: _KernelCosts
                    ) -> tuple[list, _PreparedEntry] | None:
    """`module` (loop kernels, planned, before `loop-lower`) lowered and compiled in
    parts by worker processes, the entry readied by the worker of part 0; None to do it
    in this process (then `module` is unchanged). Only for modules without index checks
    (their record numbers its sites module-wide) or external functions."""
    from mlc.loop.index_checks import IndexChecks

    checks = IndexChecks(module)
    if checks.unbounded or checks.explicit:
        return None
    check_entry_reads_its_inputs(module, entry, input_count)
    costs.record(module)

    def lower(part: Operation, index: int):
        part_times = StageTimes()
        with _Timer(part_times, "loop-lower"):
            _run(part, LOOP_LOWER)
        prepared = None
        if index == 0:
            prepared = _prepare_entry(part, entry, input_count, part_times, in_worker=True)
        return lower_to_llvm_ir(part, part_times, num_threads), part_times.stages, prepared

    parted = _compile_in_parts(module, target, times, num_threads, lower, first=(entry,),
                               loop_level=True)
    if parted is None:
        costs.costs.clear()  # recorded again when loop-lower runs here
        return None
    return parted.objects, parted.extra[0]


def _compile_in_parts(module: Operation, target: Target, times: StageTimes,
                      num_threads: int, lower, first: tuple[str, ...] = (),
                      loop_level: bool = False) -> Any:
    """`module` lowered in parts, each by `lower(part, index)` (its LLVM IR text, stage
    times, and what else the part found) and compiled by a worker process: the
    mlc.llvm.compile_parts.PartedCompile, or None to compile it in this process.
    `loop_level`: the module holds loop kernels (before loop-lower), which counts its
    size otherwise."""
    from mlc.llvm import compile_parts

    min_ops = compile_parts.MIN_PARTED_LOOP_OPS if loop_level else compile_parts.MIN_PARTED_OPS
    try:
        parted = compile_parts.compile_in_parts(module, target, lower, first=first,
                                                min_ops=min_ops)
    except ValueError as exc:  # a bad MLC_COMPILE_JOBS
        raise BuildError([Diagnostic("error", str(exc), module.loc)]) from None
    if parted is None:
        return None
    times.add(f"native code in {len(parted.objects)} processes", parted.seconds)
    times.parts = parted.stages
    return parted


def _compiled_model(made, entry: str, params: Mapping[str, np.ndarray], target: Target,
                    times: StageTimes, externals: Sequence[str],
                    num_threads: int, compiled: Sequence = ()) -> CompiledModel:
    """The CompiledModel of what a build made (mlc.llvm.build_cache.CachedBuild, built
    now or loaded from the build cache): its LLVM IR compiled (or its object code
    loaded, or `compiled` by worker processes and linked), its weights and `params`
    bound."""
    from mlc.llvm.build_cache import loads_schedules
    from mlc.llvm.jit import compile_llvm_ir
    from mlc.llvm.profile import ProfiledEntry

    started = time.perf_counter()
    library = compile_llvm_ir(made.llvm_ir, target, compiled=compiled)
    if compiled:
        times.add("linking the parts' object code", time.perf_counter() - started)
    else:
        for stage, seconds in library.timings.stages():
            times.add(stage, seconds)
    function = library.function(entry, made.specs,
                                index_errors=_index_error_record(library, made.index_sites))
    weights = dict(made.weights)
    for name, value in weights.items():
        function.bind(name, value)
    for name, value in params.items():
        function.bind(name, np.asarray(value, order="C"))  # ascontiguousarray: 0-d to 1-d
    weights.update(params)
    profiled = None if made.profiled is None else ProfiledEntry(*made.profiled)
    model = CompiledModel(function, weights, made.workspaces, made.llvm_ir, target, times,
                          externals, library, profiled, made.kernel_costs, num_threads)
    model.schedules = loads_schedules(made.schedules)
    return model


__all__ = ["BuildError", "CompiledModel", "NativeModule", "StageTimes", "build",
           "compile_module", "lower_to_llvm_ir", "graph_to_standard",
           "bind_external_functions", "check_entry_reads_its_inputs", "arg_spec", "numpy_dtype",
           "signature_specs", "mark_buffers_noalias", "standard_to_llvm", "LOOP_LOWER",
           "lower_to_kernels",
           "LOOP_TO_STANDARD",
           "GRAPH_LOWER", "graph_to_loops", "GRAPH_TO_STANDARD", "STANDARD_TO_LLVM"]

