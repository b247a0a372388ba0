"""`mlc-run`: run a function of a module, or a whole ONNX model, natively (or with the
interpreter), on given or seeded random inputs.

    mlc-run model.onnx --random-inputs 0                 # compile, run, print the outputs
    mlc-run model.mlir --input x=x.npy --save-outputs out/   # out/output0.npy ...
    mlc-run model.onnx --random-inputs 0 --check interpreter # compare with the interpreter
    mlc-run model.onnx --random-inputs 0 --benchmark 100     # latency: median and min
    mlc-run kernels.mlir --entry mm_relu --random-inputs 1   # a kernel on memrefs
    mlc-run model.mlir --interpreter --random-inputs 0       # no native code at all

A graph-dialect function (tensors) is compiled as a whole model, one native entry point
(`mlc.llvm.build`); a function on memrefs (scf, memref, vector, arith, math) is compiled
as it is (`mlc.llvm.compile_module`), and its outputs are the arguments it writes.
"""

from __future__ import annotations

import argparse
import os
import sys

from mlc.tools.output import (
    ToolArgumentParser,
    UsageError,
    resolved_threads,
    run_count,
    run_tool,
    seed,
    thread_count,
    tolerance,
)


def build_arg_parser() -> argparse.ArgumentParser:
    parser = ToolArgumentParser(prog="mlc-run", description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="MLIR file ('-' for stdin) or ONNX model (.onnx)")
    parser.add_argument("--entry", default="main", metavar="NAME",
                        help="the function to run (default: main)")
    parser.add_argument("--input", dest="inputs", action="append", default=[],
                        metavar="NAME=FILE.npy", help="an input's value (repeatable)")
    parser.add_argument("--random-inputs", type=seed, metavar="SEED",
                        help="inputs not given get seeded random values (normal floats, "
                             "small integers)")
    parser.add_argument("--interpreter", action="store_true",
                        help="run with mlc's interpreter instead of native code")
    parser.add_argument("--check", choices=["interpreter"],
                        help="also run the interpreter and fail unless the outputs agree "
                             "within --rtol/--atol")
    parser.add_argument("--rtol", type=tolerance, metavar="R",
                        help="relative tolerance of --check (default: from what the kernels "
                             "compute: their accumulation type and reduction lengths)")
    parser.add_argument("--atol", type=tolerance, metavar="A",
                        help="absolute tolerance of --check (default: the relative one times "
                             "the outputs' largest magnitude)")
    parser.add_argument("--benchmark", type=run_count, metavar="N",
                        help="run N times and report the latency (median, min)")
    parser.add_argument("--threads", type=thread_count, metavar="N",
                        help="threads the parallel loops run on (default: MLC_NUM_THREADS, "
                             "else the cores this process may use; 1: serial code)")
    parser.add_argument("--save-outputs", metavar="DIR",
                        help="write each output to DIR/NAME.npy instead of printing it")
    parser.add_argument("--input-shape", action="append", default=[], metavar="NAME=D0,D1,...",
                        help="an ONNX model's input shape, binding its dynamic dimensions")
    parser.add_argument("-O", dest="opt_level", type=int, choices=range(4), default=3,
                        metavar="N", help="LLVM optimisation level (default 3)")
    parser.add_argument("--timing", action="store_true",
                        help="report the time of each compilation stage")
    parser.add_argument("--print-schedule", action="store_true",
                        help="print each kernel's default schedule (the Python that replays "
                             "it) to stderr")
    parser.add_argument("--tuning-db", metavar="DIR",
                        help="apply the best schedule mlc-tune found for each kernel (a "
                             "tuning work directory); other kernels get the default ones")
    parser.add_argument("--no-schedule", action="store_true",
                        help="compile a model's kernels as graph-lower-to-loop writes them, "
                             "without the default schedules")
    parser.add_argument("--profile", action="store_true",
                        help="time each kernel over --benchmark runs (default 10) and print a "
                             "table: calls, time, share, FLOPs, GFLOP/s, %% of the target's peak")
    parser.add_argument("--profile-json", metavar="FILE",
                        help="write the per-kernel profile as JSON to FILE ('-': stdout); "
                             "implies --profile")
    return parser



def _load_inputs(texts: list[str]) -> dict:
    import numpy as np

    values = {}
    for text in texts:
        name, sep, path = text.partition("=")
        if not sep or not name or not path:
            raise UsageError(f"--input takes NAME=FILE.npy, got '{text}'")
        if name in values:
            raise UsageError(f"--input {name}=... is given twice")
        try:
            values[name] = np.load(path, allow_pickle=False)
        except OSError as exc:
            raise UsageError(f"cannot read '{path}': {exc.strerror or exc}") from None
        except (ValueError, EOFError):
            # numpy's own message guesses at pickles; the file is simply not a .npy array.
            raise UsageError(f"'{path}' is not a .npy array (numpy.save writes one)") from None
        if not isinstance(values[name], np.ndarray):
            values.pop(name).close()
            raise UsageError(f"'{path}' is a .npz archive, not a .npy array")
    return values


def _random_value(spec, rng):
    import numpy as np

    dtype = np.dtype(spec.dtype)
    shape = () if spec.shape is None else spec.shape
    if dtype.kind == "f":
        value = rng.standard_normal(shape).astype(dtype)
    elif dtype.kind == "b":
        value = rng.integers(0, 2, shape).astype(bool)
    else:
        value = rng.integers(0, 8, shape).astype(dtype)
    return value if spec.shape is not None else value[()]  # a scalar is passed by value


def _inputs_for(specs, given: dict, seed: int | None) -> list:
    """The arguments of a call: the given arrays, seeded random values for the inputs
    not given, zeros for the buffers the function only writes (outputs)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    unknown = sorted(set(given) - {s.name for s in specs})
    if unknown:
        raise UsageError(f"no input named {', '.join(unknown)} (the inputs are "
                         f"{', '.join(s.name for s in specs if s.role != 'output') or 'none'})")
    values = []
    for spec in specs:
        if spec.role == "output":
            if spec.name in given:
                raise UsageError(f"'{spec.name}' is an output (the function only writes it): "
                                 "it takes no --input")
            values.append(np.zeros(spec.shape, spec.dtype))
        elif spec.name in given:
            value = given[spec.name]
            if tuple(value.shape) != (spec.shape or ()) or value.dtype != np.dtype(spec.dtype):
                raise UsageError(f"input '{spec.name}' must be {spec.describe()}, the file holds "
                                 f"{value.dtype}{list(value.shape)}")
            values.append(np.ascontiguousarray(value) if spec.shape is not None else value[()])
        elif seed is not None:
            try:
                values.append(_random_value(spec, rng))
            except MemoryError:
                raise UsageError(f"cannot make a random value for input '{spec.name}' "
                                 f"({spec.describe()}): out of memory") from None
        else:
            raise UsageError(f"no value for input '{spec.name}' ({spec.describe()}): give "
                             "--input NAME=FILE.npy or --random-inputs SEED")
    return values


def _is_graph_function(fn) -> bool:
    from mlc.ir.core.attributes import RankedTensorType

    fn_type = fn.attributes["function_type"].value
    return any(isinstance(t, RankedTensorType) for t in (*fn_type.inputs, *fn_type.results))


def _copies(values: list) -> list:
    import numpy as np

    return [np.array(v, copy=True) if isinstance(v, np.ndarray) else v for v in values]


def _written(specs) -> list[int]:
    """The positions of the arguments a function writes (its outputs and inouts)."""
    return [i for i, spec in enumerate(specs) if spec.role in ("output", "inout")]


def _kernel_outputs(specs, results, arrays: list) -> list:
    """A kernel's outputs: the arguments it writes, then what it returns."""
    import numpy as np

    return [*(arrays[i] for i in _written(specs)), *map(np.asarray, results)]


def _interpret(module, fn, specs, inputs, graph: bool):
    """The outputs the interpreter computes; an error it reports (an index out of
    range, an unsupported op) is a UsageError saying so."""
    from mlc.graph.interpreter import EvaluationError
    from mlc.ir.interpreter import InterpreterError

    try:
        return _interpret_outputs(module, fn, specs, inputs, graph)
    except (InterpreterError, EvaluationError) as exc:
        raise UsageError(f"the interpreter cannot run @{fn.attributes['sym_name'].value}: "
                         f"{exc}") from None


def _run_native(call, arrays: list):
    """`call(*arrays)`, with what the native call reports (an index out of range, a
    Python function it called failing) as a UsageError saying so."""
    from mlc.llvm.native_call import NativeCallError, NativeIndexError

    try:
        return call(*arrays)
    except (NativeCallError, NativeIndexError) as exc:
        raise UsageError(str(exc)) from None


def _interpret_outputs(module, fn, specs, inputs, graph: bool):
    import numpy as np

    from mlc.ir.interpreter import Interpreter, buffer_dtype

    interpreter = Interpreter(module)
    if graph:
        return [np.asarray(v) for v in interpreter.call(fn, inputs)]
    arrays = _copies(inputs)
    # The interpreter holds scalars as Python numbers, the native call as numpy's.
    results = interpreter.call(fn, [v.item() if isinstance(v, np.generic) else v
                                    for v in arrays])
    dtypes = [buffer_dtype(t) for t in fn.attributes["function_type"].value.results]
    return _kernel_outputs(specs, [np.asarray(r, d) for r, d in zip(results, dtypes)], arrays)


def run(args: argparse.Namespace) -> int:

    from mlc.tools.module_input import InputError, LoadOptions, load_module
    from mlc.tools.onnx_input import parse_input_shapes

    if not args.interpreter:
        args.threads = resolved_threads(args.threads)
    if args.interpreter and args.check:
        raise UsageError("--check compares native code with the interpreter; drop --interpreter")
    profiling = args.profile or args.profile_json is not None
    if args.interpreter and profiling:
        raise UsageError("--profile times native code; drop --interpreter")
    try:
        shapes = parse_input_shapes(args.input_shape)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    given = _load_inputs(args.inputs)
    try:
        module, sources = load_module(args.input, LoadOptions(input_shapes=shapes))
    except InputError as exc:
        sys.stderr.write(str(exc))
        return 1
    from mlc.ir.dialects.func import FuncOp

    defined = [op for op in module.regions[0].blocks[0].ops()
               if isinstance(op, FuncOp) and not op.is_declaration]
    fn = next((op for op in defined if op.sym_name.value == args.entry), None)
    if fn is None:
        names = [op.sym_name.value for op in defined]
        raise UsageError(f"no function @{args.entry} to run (the module defines "
                       f"{', '.join('@' + n for n in names) or 'none'})")
    graph = _is_graph_function(fn)
    from mlc.ir.diagnostics import DiagnosticError
    from mlc.llvm.build import signature_specs

    try:
        specs = signature_specs(fn)
    except DiagnosticError as exc:
        for diag in exc.diagnostics:
            sys.stderr.write(sources.render(diag))
        return 1
    inputs = _inputs_for(specs, given, args.random_inputs)

    if args.interpreter:
        outputs = _interpret(module, fn, specs, inputs, graph)
        return _report(args, _output_names(fn, specs, graph), outputs)

    from mlc.llvm.build import build, compile_module
    from mlc.llvm.target import Target, TargetError
    from mlc.llvm.timing import time_evaluator

    try:
        target = Target(opt_level=args.opt_level)
    except TargetError as exc:
        raise UsageError(str(exc)) from None
    if args.tuning_db is not None:
        if not graph:
            raise UsageError("--tuning-db applies to a model (a graph function), not to "
                             f"@{args.entry}, which is compiled as it is")
        if args.no_schedule:
            raise UsageError("--tuning-db and --no-schedule contradict each other")
        if not os.path.isdir(args.tuning_db):
            raise UsageError(f"--tuning-db: no tuning database at '{args.tuning_db}' (a "
                             "directory mlc-tune wrote)")
    try:
        if graph:
            compiled = build(module, target, entry=args.entry, num_threads=args.threads,
                             schedule=None if args.no_schedule else "default",
                             tuning_db=args.tuning_db)
            call = compiled.entry
            timings = compiled.timings
            threads = compiled.num_threads
        else:
            native = compile_module(module, target, profile=[args.entry] if profiling else (),
                                    num_threads=args.threads)
            threads = native.num_threads
            try:
                call = native[args.entry]
            except KeyError as exc:
                raise UsageError(exc.args[0]) from None
            timings = native.timings
    except DiagnosticError as exc:
        for diag in exc.diagnostics:
            sys.stderr.write(sources.render(diag))
        return 1
    if args.timing:
        sys.stderr.write(f"===== mlc-run compilation ({target.describe()}) =====\n"
                         + timings.report() + "\n")
    if args.print_schedule:
        schedules = compiled.schedules if graph else {}
        if not schedules:
            sys.stderr.write("no kernel was scheduled\n")
        for kernel, trace in schedules.items():
            sys.stderr.write(f"# schedule of @{kernel} "
                             f"({target.schedule_target.describe()})\n"
                             + (trace.as_python() or "# no rule applied") + "\n")
    if graph:
        result = _run_native(call, inputs)
        outputs = list(result) if isinstance(result, tuple) else [result]
    else:
        arrays = _copies(inputs)
        returned = _run_native(call, arrays)  # the scalar result (if any) first, then what it wrote
        results = []
        if fn.attributes["function_type"].value.results:
            results = [returned[0] if isinstance(returned, tuple) else returned]
        outputs = _kernel_outputs(specs, results, arrays)
    names = _output_names(fn, specs, graph)
    status = _report(args, names, outputs)
    if args.check:
        expected = _interpret(module, fn, specs, inputs, graph)
        from mlc.tools.model import ComparedSides, compare_outputs

        rtol, atol, basis = _check_tolerance(args, module, fn, specs, graph, expected)
        comparison = compare_outputs(outputs, expected, rtol, atol, ComparedSides(
            "natively", "with the interpreter", "the interpreter's", "interpreter"))
        sys.stderr.write(comparison.message + (f" [tolerance from {basis}]" if basis else "")
                         + "\n")
        status = status or (0 if comparison.passed else 1)
    if args.benchmark:
        arrays = inputs if graph else _copies(inputs)
        latency = time_evaluator(_run_native, number=1, repeat=args.benchmark,
                                 warmup=0)(call, arrays)
        sys.stderr.write(f"latency over {args.benchmark} runs on {_threads(threads)}: median "
                         f"{latency.median * 1000:.3f} ms, min "
                         f"{latency.min * 1000:.3f} ms\n")
    if profiling:
        runs = args.benchmark or 10
        try:
            profile = compiled.profile(*inputs, runs=runs) if graph else \
                native.profile(args.entry, *_copies(inputs), runs=runs)
        except (KeyError, DiagnosticError) as exc:
            raise UsageError(f"cannot profile @{args.entry}: "
                             f"{exc.args[0] if isinstance(exc, KeyError) else exc}") from None
        sys.stderr.write(profile.table() + "\n")
        if args.profile_json is not None:
            from mlc.tools.output import write_output

            try:
                write_output(args.profile_json, profile.dumps() + "\n")
            except OSError as exc:
                raise UsageError(f"cannot write the profile to '{args.profile_json}': "
                                 f"{exc.strerror or exc}") from None
    return status


def _check_tolerance(args, module, fn, specs, graph: bool, expected: list):
    """(rtol, atol, what they were derived from or None) for --check: the flags, and for
    each one not given, the tolerance of what the kernels compute (kernel_tolerance)."""
    import numpy as np

    from mlc.tools.kernel_tolerance import kernel_tolerance

    if args.rtol is not None and args.atol is not None:
        return args.rtol, args.atol, None
    fn_type = fn.attributes["function_type"].value
    if graph:
        from mlc.ir.passes.manager import run_pipeline
        from mlc.ir.passes.registry import load_pass_plugins

        load_pass_plugins()
        lowered = module.clone()
        run_pipeline(lowered, "graph-optimize,graph-lower-to-loop")
        outputs = [t.element_type for t in fn_type.results]
    else:
        lowered = module
        written = [fn_type.inputs[i] for i in _written(specs)]
        outputs = [getattr(t, "element_type", t) for t in (*written, *fn_type.results)]
    derived = kernel_tolerance(lowered, outputs)
    magnitudes = [np.abs(np.asarray(e, np.float64)) for e in expected if np.size(e)]
    scale = max((float(np.nanmax(np.where(np.isinf(m), 0, m))) for m in magnitudes
                 if np.isfinite(m).any()), default=1.0)
    rtol = args.rtol if args.rtol is not None else derived.rtol
    atol = args.atol if args.atol is not None else derived.atol(scale)
    return rtol, atol, derived.describe()


def _threads(count: int) -> str:
    return f"{count} thread{'s' if count > 1 else ''}"


def _output_names(fn, specs, graph: bool) -> list[str]:
    count = len(fn.attributes["function_type"].value.results)
    if graph:
        return [f"output{i}" for i in range(count)]
    return [*(specs[i].name for i in _written(specs)), *(f"result{i}" for i in range(count))]


def _report(args, names: list[str], outputs: list) -> int:
    import numpy as np

    if args.save_outputs:
        try:
            os.makedirs(args.save_outputs, exist_ok=True)
            for name, value in zip(names, outputs):
                path = os.path.join(args.save_outputs, f"{name}.npy")
                temp = path + ".tmp.npy"
                np.save(temp, np.asarray(value))
                os.replace(temp, path)
        except OSError as exc:
            raise UsageError(f"cannot write the outputs to '{args.save_outputs}': "
                           f"{exc.strerror or exc}") from None
        return 0
    for name, value in zip(names, outputs):
        value = np.asarray(value)
        sys.stdout.write(f"{name}: {value.dtype}{list(value.shape)}\n"
                         f"{np.array2string(value, threshold=20, edgeitems=3)}\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run mlc-run on `argv` (default: the command line); the exit status."""
    return run_tool("mlc-run", build_arg_parser(), run, argv)


def entry() -> None:
    """The console script."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    entry()
