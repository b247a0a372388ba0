"""ONNX import speed: ResNet-18 from its `.onnx` file to a verified graph module, mlc's
`import_onnx` beside TVM's `tvm.relax.frontend.onnx.from_onnx`.

    .venv/bin/python benchmarks/onnx_import.py                  # both tools, a table
    .venv/bin/python benchmarks/onnx_import.py --repeat 9
    .venv/bin/python benchmarks/onnx_import.py --no-tvm         # mlc's phases only
    .venv/bin/python benchmarks/onnx_import.py --write-readme   # and update README.md

The model is `mlc.onnx.examples.resnet18` at 224x224 (11.7 M weights, 47 MB, Conv +
BatchNormalization as exported without constant folding), written to
`benchmarks/.work/resnet18-224.onnx`. Each tool is timed in its own process, after
its library is imported and one warm-up import of the model, over `--repeat` runs
(the median is reported), each from the file:

* mlc: `import_onnx(path)`: read and parse the file, onnx.checker's full check (with
  shape inference), ONNX shape inference for the value types, the conversion with
  every initializer a constant, and the verifier on the module;
* TVM: `onnx.load(path)`, `from_onnx(model, shape_dict)` (which runs onnx.checker's
  plain check first and keeps every initializer a constant) and
  `relax.analysis.well_formed` on the module (TVM's verifier: it raises on the
  first violation).

Per phase, mlc's times come from separate runs in which the importer's steps are
timed one by one (so the median total is not slowed by the timing; "other" is each of
those runs' time outside the timed steps); TVM's checker
time is its `onnx.checker.check_model(model)` call timed on its own.

TVM runs in the venv of `tvm_reference.py` (`benchmarks/.work/tvm-venv`, apache-tvm
with the same onnx as mlc's), created on the first run; only that child process
imports TVM. When TVM cannot be installed, its column reads "n/a" with the reason.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
WORK_DIR = BENCH_DIR / ".work"

# mlc's phases: the importer's steps, in order (see mlc.onnx.importer._Importer.run).
MLC_PHASES = (
    ("read + parse", "_load"),
    ("checked form", "_checked_form"),
    ("onnx.checker", "check_model"),
    ("shape inference", "_Importer._inferred_types"),
    ("initializers", "_Importer._add_initializers"),
    ("nodes", "_Importer._convert_nodes"),
    ("verify", "_verify"),
)
OTHER = "other (inputs, module, bookkeeping)"
TVM_PHASES = ("read + parse", "from_onnx", "of which onnx.checker", "well_formed")


def _log(message: str) -> None:
    print(f"[onnx_import] {message}", file=sys.stderr, flush=True)


def _median_ms(samples: list[float]) -> float:
    return 1000 * statistics.median(samples)


# ------------------------------------------------------------------ the model


def write_model(image_size: int) -> tuple[Path, int]:
    """ResNet-18 at `image_size` as a `.onnx` file under benchmarks/.work/, and its
    number of weights (initializer elements)."""
    import math

    import onnx

    from mlc.onnx.examples import resnet18

    model = resnet18(image_size=image_size)
    WORK_DIR.mkdir(exist_ok=True)
    path = WORK_DIR / f"resnet18-{image_size}.onnx"
    onnx.save(model, path)
    return path, sum(math.prod(t.dims) for t in model.graph.initializer)


# ------------------------------------------------------------------ mlc


def measure_mlc(path: Path, repeat: int) -> dict:
    """Median wall time of `import_onnx(path)` over `repeat` runs, then of each phase
    over `repeat` more runs with the importer's steps timed."""
    from mlc.onnx import importer

    importer.import_onnx(path)  # warm-up: lazy imports, caches
    totals = []
    for _ in range(repeat):
        gc.collect()
        began = time.perf_counter()
        module = importer.import_onnx(path)
        totals.append(time.perf_counter() - began)
    ops = sum(1 for _ in module.walk())

    samples: dict[str, list[float]] = {label: [] for label, _ in MLC_PHASES}
    run: dict[str, float] = {}
    originals = []
    for label, dotted in MLC_PHASES:
        owner = importer
        *path_to_owner, attribute = dotted.split(".")
        for name in path_to_owner:
            owner = getattr(owner, name)
        original = getattr(owner, attribute)
        originals.append((owner, attribute, original))
        setattr(owner, attribute, _timed(original, label, run))
    try:
        samples[OTHER] = []
        for _ in range(repeat):
            gc.collect()
            run.clear()
            began = time.perf_counter()
            importer.import_onnx(path)
            total = time.perf_counter() - began
            for label, _ in MLC_PHASES:
                samples[label].append(run.get(label, 0.0))
            samples[OTHER].append(total - sum(run.values()))
    finally:
        for owner, attribute, original in originals:
            setattr(owner, attribute, original)
    phases = {label: _median_ms(values) for label, values in samples.items()}
    return {"total_ms": _median_ms(totals), "runs_ms": [1000 * t for t in totals],
            "phases_ms": phases, "ops": ops}


def _timed(fn, label: str, into: dict[str, float]):
    @functools.wraps(fn)
    def timed(*args, **kwargs):
        began = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            into[label] = into.get(label, 0.0) + time.perf_counter() - began
    return timed


def _library_import_ms(python: str, statement: str) -> float:
    """Wall time of `statement` (an import) in a fresh process of `python`, best of 3."""
    code = ("import time; t = time.perf_counter(); " + statement +
            "; print(time.perf_counter() - t)")
    best = float("inf")
    for _ in range(3):
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
        best = min(best, float(out.stdout.strip().splitlines()[-1]))
    return 1000 * best


# ------------------------------------------------------------------ TVM (in its own venv)


def tvm_side(path: Path, repeat: int) -> dict:
    """Run inside the TVM venv: the median of `repeat` imports of `path` by TVM."""
    import onnx
    import tvm
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx

    shape_dict = {i.name: [d.dim_value for d in i.type.tensor_type.shape.dim]
                  for i in onnx.load(path, load_external_data=False).graph.input}

    def once() -> dict[str, float]:
        gc.collect()
        began = time.perf_counter()
        model = onnx.load(path)
        loaded = time.perf_counter()
        module = from_onnx(model, shape_dict=shape_dict)
        converted = time.perf_counter()
        relax.analysis.well_formed(module)  # raises on the first violation
        done = time.perf_counter()
        return {"total": done - began, "read + parse": loaded - began,
                "from_onnx": converted - loaded, "well_formed": done - converted}

    once()  # warm-up
    runs = [once() for _ in range(repeat)]
    checker = []
    model = onnx.load(path)
    for _ in range(repeat):
        began = time.perf_counter()
        onnx.checker.check_model(model)  # the call from_onnx makes first
        checker.append(time.perf_counter() - began)
    phases = {label: _median_ms([r[label] for r in runs])
              for label in ("read + parse", "from_onnx", "well_formed")}
    phases["of which onnx.checker"] = _median_ms(checker)
    return {"version": tvm.__version__, "total_ms": _median_ms([r["total"] for r in runs]),
            "runs_ms": [1000 * r["total"] for r in runs], "phases_ms": phases}


def measure_tvm(path: Path, repeat: int, setup: bool) -> dict:
    """TVM's figures from this script run as `--tvm-side` in the TVM venv, or
    {"error": why} when TVM is not to be had."""
    sys.path.insert(0, str(BENCH_DIR))
    import tvm_reference

    try:
        tvm_reference.ensure_venv(tvm_reference.TVM_VENV, reinstall=setup)
    except (SystemExit, subprocess.SubprocessError, OSError) as exc:
        return {"error": f"TVM could not be installed: {exc}"}
    python = str(tvm_reference._venv_python(tvm_reference.TVM_VENV))
    result = subprocess.run([python, __file__, "--tvm-side", str(path), "--repeat", str(repeat)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        lines = result.stderr.strip().splitlines() or [f"exit status {result.returncode}"]
        return {"error": f"TVM's import failed: {lines[-1]}"}
    figures = json.loads(result.stdout)
    figures["library_import_ms"] = _library_import_ms(
        python, "import onnx, tvm.relax.frontend.onnx")
    return figures


# ------------------------------------------------------------------ report


def _ms(value: float | None) -> str:
    if value is None:
        return "—"
    if value >= 1000:
        return f"{value / 1000:.2f} s"
    return f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"


def _load_average() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "n/a"


def _input_shape(path: Path) -> str:
    import onnx

    [x] = onnx.load(path).graph.input
    return "x".join(str(d.dim_value) for d in x.type.tensor_type.shape.dim)


def render(path: Path, weights: int, repeat: int, mlc: dict, tvm: dict, load: str) -> str:
    import onnx
    from roundtrip import markdown_table

    head = (f"Measured {time.strftime('%Y-%m-%d')} on {platform.system()} "
            f"{platform.release()} ({platform.machine()}), {os.cpu_count()} CPUs, Python "
            f"{platform.python_version()}, onnx {onnx.__version__}; "
            + (f"TVM {tvm['version']}" if "error" not in tvm else f"TVM: {tvm['error']}")
            + f". Load average {load} at the start, {_load_average()} at the end.")
    shown = path.relative_to(BENCH_DIR.parent) if path.is_relative_to(BENCH_DIR.parent) else path
    model = (f"`{shown}`: ResNet-18 at "
             f"{_input_shape(path)}, {weights / 1e6:.1f} M weights, "
             f"{path.stat().st_size / 1e6:.0f} MB; median of {repeat} runs after a warm-up.")
    tvm_total = tvm.get("total_ms")
    rows = [["import, file to verified module", _ms(mlc["total_ms"]), _ms(tvm_total),
             f"{mlc['total_ms'] / tvm_total:.2f}×" if tvm_total else "—"]]
    rows.append(["library import (fresh process, best of 3)", _ms(mlc["library_import_ms"]),
                 _ms(tvm.get("library_import_ms")), "—"])
    summary = markdown_table(["", "mlc import_onnx", "TVM from_onnx", "mlc / TVM"], rows)
    mlc_rows = [[label, _ms(value)] for label, value in mlc["phases_ms"].items()]
    phases = markdown_table(["mlc phase", "median"], mlc_rows)
    parts = [head, "", model, "", summary, "", phases]
    if "phases_ms" in tvm:
        parts += ["", markdown_table(["TVM phase", "median"],
                                     [[label, _ms(tvm["phases_ms"][label])] for label in TVM_PHASES])]
    return "\n".join(parts) + "\n"


def build_arg_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="ResNet-18 from .onnx to a verified module: mlc's import_onnx beside "
                    "TVM's relax from_onnx (median of --repeat runs).")
    parser.add_argument("--repeat", type=int, default=5, help="runs per tool (default: %(default)s)")
    parser.add_argument("--image-size", type=int, default=224,
                        help="height and width of the input image (default: %(default)s)")
    parser.add_argument("--no-tvm", action="store_true", help="measure mlc only")
    parser.add_argument("--setup", action="store_true", help="(re)install TVM into its venv first")
    parser.add_argument("--write-readme", action="store_true",
                        help="put the tables into benchmarks/README.md")
    parser.add_argument("--tvm-side", type=Path, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    if args.repeat < 1:
        print("onnx_import.py: error: --repeat must be at least 1", file=sys.stderr)
        return 2
    if args.tvm_side:
        json.dump(tvm_side(args.tvm_side, args.repeat), sys.stdout)
        return 0
    load = _load_average()
    path, weights = write_model(args.image_size)
    _log(f"mlc: {args.repeat} imports of {path.name} ...")
    mlc = measure_mlc(path, args.repeat)
    mlc["library_import_ms"] = _library_import_ms(sys.executable, "import mlc.onnx")
    if args.no_tvm:
        tvm = {"error": "not measured (--no-tvm)"}
    else:
        _log(f"TVM: {args.repeat} imports of {path.name} ...")
        tvm = measure_tvm(path, args.repeat, args.setup)
    text = render(path, weights, args.repeat, mlc, tvm, load)
    sys.stdout.write(text)
    if args.write_readme:
        from roundtrip import write_readme

        write_readme({"onnx-import": text})
    return 0


if __name__ == "__main__":
    sys.exit(main())
