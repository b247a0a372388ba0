"""TVM's side of mlc's graph-optimize benchmark: pass time and kernel counts of TVM Relax.

    python benchmarks/tvm_reference.py --human          # a readable table
    python benchmarks/tvm_reference.py                  # one JSON object on stdout
    python benchmarks/tvm_reference.py --setup          # (re)install TVM first

Builds the benchmark networks with TVM Relax's own Python API (`relax.BlockBuilder`,
`relax.op`, `relax.op.nn`; float32, batch 1, seeded random numpy weights bound as
constants, as in a deployed model), runs on each the Relax passes that correspond to
mlc's `graph-optimize` pipeline (simplify-inference, canonicalize, fold-constant,
fold-scale-axis, cse, dce, fuse-ops; see `GRAPH_OPTIMIZE` for the exact list and why)
and prints one JSON object: `tvm_version`, `pipeline`, `opt_level`, `repeat`,
`budget_s`, and one entry per network (or, with `--human`, a table).

Networks (see each builder): `mlp` (784-128-10), `resnet18` (torchvision, 224x224,
20 conv2d), `mobilenet_v2` (stem, the first 10 inverted-residual blocks, head; 31
conv2d), `transformer` (one post-norm encoder block, seq 128, hidden 256, 4 heads,
FFN 1024, GELU as ONNX exports it), and `deep_K` for K in 1, 2, 5, 10 (a stem conv,
8*K BasicBlocks at 1x64x14x14, global pool, flatten, dense) for growth with depth.

Per network:

* `ops_before`: operator calls in `main` as built (`relax.Call`s of a `tvm.ir.Op`;
  tuple projections, bindings and constants are not ops);
* `ops_before_fusion`: the same count after the graph-level passes, just before
  `LegalizeOps` (what fusion starts from);
* `kernels`: call sites of kernels in `main` after fusion (each `call_tir` of a
  fused or single-op PrimFunc, plus any call of a Relax function or an op that was
  left); `distinct_kernels`: how many different PrimFuncs those calls name;
* `groups`: what each kernel holds, as the legalized op names of its group joined
  by "+" (taken after FuseOps, before FuseTIR merges each group into one PrimFunc),
  with how many kernels have that composition;
* `pipeline_s`: wall time of the whole pass sequence, network construction excluded,
  the best of `runs` runs, each on a freshly built module: `--repeat` (3) runs, or
  fewer where they would not fit in `--budget` (10 s) per network;
  `pass_s`: each pass's best time over those runs;
* `fusion_s`: AnnotateTIROpPattern + FuseOps only, best of `--repeat` runs (the
  runs the budget left out re-run them alone on the same input).

TVM's FoldConstant evaluates each constant expression by legalizing it and compiling
it with LLVM (some 50 ms per folded op, and structurally equal ones are compiled
again), and folding a batch norm into its conv's weights takes 8 of those: that is
most of the pipeline time on the conv nets, and makes one run of `deep_10` take
about a minute. The whole script takes about 2.5 minutes on an idle 2-core machine.

`--pipeline tvm-default` runs instead the graph-level part of TVM's own default CPU
pipeline (`relax.get_default_pipeline("llvm")`, its `legalize_passes`), which is what
the table of `shared/reference/fusion-examples.md` section 4 was measured with.

TVM is installed into its own venv, `benchmarks/.work/tvm-venv` (gitignored), on the
first run or with `--setup`; the script then re-executes itself with that venv's
Python. Only this script's process imports TVM: the caller needs nothing but Python.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
WORK_DIR = BENCH_DIR / ".work"
TVM_VENV = WORK_DIR / "tvm-venv"
# onnx (the version mlc pins) for onnx_import.py, which runs TVM's ONNX frontend here.
REQUIREMENTS = ("apache-tvm==0.27.0.post1", "numpy", "onnx==1.23.2")
# Set in the environment of the re-executed process, so that a venv that still cannot
# import TVM fails instead of re-executing forever.
REEXEC_MARK = "MLC_TVM_REFERENCE_REEXEC"
SEED = 0


def _log(message: str) -> None:
    print(f"[tvm_reference] {message}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ the venv


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _in_venv(venv: Path) -> bool:
    return Path(sys.prefix).resolve() == venv.resolve()


def _venv_has_tvm(python: Path, require: bool = False) -> bool:
    """Whether `python` can find tvm, numpy and onnx (or, with `require`, import TVM
    Relax: slower, used to check a fresh install)."""
    if not python.exists():
        return False
    code = ("import tvm.relax, numpy, onnx" if require else
            "import importlib.util as u, sys; "
            "sys.exit(not all(u.find_spec(m) for m in ('tvm', 'numpy', 'onnx')))")
    return subprocess.run([str(python), "-c", code], capture_output=True).returncode == 0


def ensure_venv(venv: Path, reinstall: bool) -> None:
    """Create `venv` with TVM, numpy and onnx if it is missing or cannot import them (or,
    with `reinstall`, run pip again on it). Raises SystemExit on failure."""
    python = _venv_python(venv)
    if not reinstall and _venv_has_tvm(python):
        return
    if not python.exists():
        _log(f"creating {venv} ...")
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    _log(f"pip install {' '.join(REQUIREMENTS)} into {venv} (about 100 MB, first run only) ...")
    result = subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                             "--disable-pip-version-check", *REQUIREMENTS],
                            capture_output=True, text=True)
    if result.returncode == 0 and _venv_has_tvm(python, require=True):
        return
    sys.stderr.write(result.stderr)
    if _venv_has_tvm(python, require=True):  # --setup failed, the old install still works
        _log("pip failed; going on with the TVM already installed")
        return
    shutil.rmtree(venv, ignore_errors=True)  # start from scratch next time
    raise SystemExit(f"tvm_reference.py: error: could not install TVM into {venv}")


def reexec_in_venv(venv: Path, argv: list[str]) -> None:
    """Replace this process by the same script run with the venv's Python."""
    if os.environ.get(REEXEC_MARK):
        raise SystemExit(f"tvm_reference.py: error: {venv} does not provide TVM")
    python = _venv_python(venv)
    env = dict(os.environ, **{REEXEC_MARK: "1"})
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *argv], env)


# ------------------------------------------------------------------ the networks
# Everything below runs inside the venv only: tvm and numpy are imported lazily.


class Net:
    """A Relax BlockBuilder for `main(x)` with seeded random constants.

    Weights are He-scaled and batch-norm statistics sit near the identity, so that
    constant folding computes ordinary numbers (nothing here is executed otherwise).
    """

    def __init__(self, seed: int = SEED):
        import numpy as np
        from tvm import relax

        self.np = np
        self.relax = relax
        self.R = relax.op
        self.rng = np.random.default_rng(seed)
        self.bb = relax.BlockBuilder()

    # --- constants
    def normal(self, shape: tuple[int, ...], std: float):
        data = self.rng.standard_normal(shape, dtype=self.np.float32) * self.np.float32(std)
        return self.relax.const(data, "float32")

    def uniform(self, shape: tuple[int, ...], low: float, high: float):
        return self.relax.const(self.rng.uniform(low, high, shape).astype("float32"), "float32")

    def scalar(self, value: float):
        return self.relax.const(value, "float32")

    # --- layers; each emits its ops as dataflow bindings and returns the last var
    def emit(self, expr):
        return self.bb.emit(expr)

    def conv(self, x, out_channels: int, kernel: int, stride: int = 1, padding: int = 0,
             groups: int = 1):
        in_per_group = _shape(x)[1] // groups
        weight = self.normal((out_channels, in_per_group, kernel, kernel),
                             math.sqrt(2.0 / (in_per_group * kernel * kernel)))
        return self.emit(self.R.nn.conv2d(x, weight, strides=stride, padding=padding,
                                          groups=groups))

    def batch_norm(self, x):
        c = _shape(x)[1]
        bn = self.emit(self.R.nn.batch_norm(
            x, self.uniform((c,), 0.5, 1.5), self.normal((c,), 0.1), self.normal((c,), 0.1),
            self.uniform((c,), 0.5, 1.5), axis=1, epsilon=1e-5, training=False))
        return self.emit(self.relax.TupleGetItem(bn, 0))

    def relu(self, x):
        return self.emit(self.R.nn.relu(x))

    def relu6(self, x):
        return self.emit(self.R.clip(x, 0.0, 6.0))

    def dense(self, x, out_features: int):
        """matmul with the transposed weight, stored transposed as the constant (what
        an importer leaves once the transpose of a constant is folded), + bias."""
        in_features = _shape(x)[-1]
        weight_t = self.normal((in_features, out_features), math.sqrt(1.0 / in_features))
        h = self.emit(self.R.matmul(x, weight_t))
        return self.emit(self.R.add(h, self.normal((out_features,), 0.1)))

    def global_pool_flatten(self, x):
        """Global average pool (mean over H, W) and flatten (reshape to N x C)."""
        n, c = _shape(x)[:2]
        h = self.emit(self.R.mean(x, axis=[2, 3], keepdims=True))
        return self.emit(self.R.reshape(h, (n, c)))

    def layer_norm(self, x):
        size = _shape(x)[-1]
        return self.emit(self.R.nn.layer_norm(x, self.uniform((size,), 0.5, 1.5),
                                              self.normal((size,), 0.1), axes=[-1],
                                              epsilon=1e-5))


def _shape(var) -> tuple[int, ...]:
    return tuple(int(d) for d in var.ty.shape)


def build(input_shape: tuple[int, ...], body: Callable[[Net, object], object]):
    """An IRModule whose public `main(x)` is one dataflow block computing `body`."""
    net = Net()
    x = net.relax.Var("x", net.relax.TensorType(input_shape, "float32"))
    with net.bb.function("main", [x]):
        with net.bb.dataflow():
            out = net.bb.emit_output(body(net, x))
        net.bb.emit_func_output(out)
    return net.bb.get()


def mlp():
    """x 1x784 -> matmul W1^T (128) + bias -> relu -> matmul W2^T (10) + bias."""
    return build((1, 784), lambda n, x: n.dense(n.relu(n.dense(x, 128)), 10))


def _basic_block(n: Net, x, out_channels: int, stride: int):
    """torchvision's BasicBlock: conv3x3+bn+relu, conv3x3+bn, add(main, shortcut),
    relu; the shortcut is a 1x1/stride conv + bn when the shape changes."""
    h = n.relu(n.batch_norm(n.conv(x, out_channels, 3, stride, 1)))
    h = n.batch_norm(n.conv(h, out_channels, 3, 1, 1))
    shortcut = x
    if stride != 1 or _shape(x)[1] != out_channels:
        shortcut = n.batch_norm(n.conv(x, out_channels, 1, stride))
    return n.relu(n.emit(n.R.add(h, shortcut)))


def resnet18():
    """torchvision's ResNet-18 on 1x3x224x224: 20 conv2d."""

    def body(n: Net, x):
        h = n.relu(n.batch_norm(n.conv(x, 64, 7, 2, 3)))
        h = n.emit(n.R.nn.max_pool2d(h, pool_size=3, strides=2, padding=1))
        for stage, width in enumerate((64, 128, 256, 512)):
            for index in range(2):
                h = _basic_block(n, h, width, 2 if stage > 0 and index == 0 else 1)
        return n.dense(n.global_pool_flatten(h), 1000)

    return build((1, 3, 224, 224), body)


# torchvision's inverted-residual settings (t, c, n, s), the first four rows: 10 blocks.
MOBILENET_V2_SETTINGS = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2))


def mobilenet_v2():
    """The first 10 inverted-residual blocks of MobileNetV2 with its head: 31 conv2d."""

    def block(n: Net, x, t: int, c: int, s: int):
        in_channels = _shape(x)[1]
        h = x
        if t != 1:
            h = n.relu6(n.batch_norm(n.conv(h, in_channels * t, 1)))
        hidden = _shape(h)[1]
        h = n.relu6(n.batch_norm(n.conv(h, hidden, 3, s, 1, groups=hidden)))
        h = n.batch_norm(n.conv(h, c, 1))
        if s == 1 and in_channels == c:
            h = n.emit(n.R.add(h, x))
        return h

    def body(n: Net, x):
        h = n.relu6(n.batch_norm(n.conv(x, 32, 3, 2, 1)))
        for t, c, repeats, s in MOBILENET_V2_SETTINGS:
            for index in range(repeats):
                h = block(n, h, t, c, s if index == 0 else 1)
        h = n.relu6(n.batch_norm(n.conv(h, 1280, 1)))
        return n.dense(n.global_pool_flatten(h), 1000)

    return build((1, 3, 224, 224), body)


def transformer(seq: int = 128, hidden: int = 256, heads: int = 4, ffn: int = 1024):
    """One post-norm encoder block as an ONNX export reads: 33 ops."""
    d = hidden // heads

    def body(n: Net, x):
        R = n.R

        def heads_of(t, axes):
            return n.emit(R.permute_dims(n.emit(R.reshape(t, (1, seq, heads, d))), axes))

        q = heads_of(n.dense(x, hidden), [0, 2, 1, 3])  # (1, heads, seq, d)
        k = heads_of(n.dense(x, hidden), [0, 2, 3, 1])  # (1, heads, d, seq): K transposed
        v = heads_of(n.dense(x, hidden), [0, 2, 1, 3])
        scores = n.emit(R.divide(n.emit(R.matmul(q, k)), n.scalar(math.sqrt(d))))
        context = n.emit(R.matmul(n.emit(R.nn.softmax(scores, axis=-1)), v))
        context = n.emit(R.reshape(n.emit(R.permute_dims(context, [0, 2, 1, 3])),
                                   (1, seq, hidden)))
        h = n.layer_norm(n.emit(R.add(x, n.dense(context, hidden))))
        f = n.dense(h, ffn)
        # GELU as ONNX exports it: x * (erf(x / sqrt 2) + 1) * 0.5
        g = n.emit(R.erf(n.emit(R.divide(f, n.scalar(math.sqrt(2.0))))))
        g = n.emit(R.multiply(f, n.emit(R.add(g, n.scalar(1.0)))))
        g = n.emit(R.multiply(g, n.scalar(0.5)))
        return n.layer_norm(n.emit(R.add(h, n.dense(g, hidden))))

    return build((1, seq, hidden), body)


def deep(k: int, width: int = 64, size: int = 14):
    """Synthetic depth test: stem conv3x3+bn+relu, then k*8 BasicBlocks of constant
    shape (1 x width x size x size, no downsampling), global pool, flatten, dense."""

    def body(n: Net, x):
        h = n.relu(n.batch_norm(n.conv(x, width, 3, 1, 1)))
        for _ in range(8 * k):
            h = _basic_block(n, h, width, 1)
        return n.dense(n.global_pool_flatten(h), 1000)

    return build((1, width, size, size), body)


NETWORKS: dict[str, Callable[[], object]] = {
    "mlp": mlp,
    "resnet18": resnet18,
    "mobilenet_v2": mobilenet_v2,
    "transformer": transformer,
    "deep_1": lambda: deep(1),
    "deep_2": lambda: deep(2),
    "deep_5": lambda: deep(5),
    "deep_10": lambda: deep(10),
}


# ------------------------------------------------------------------ the pipelines

# mlc graph-optimize      TVM Relax pass(es)
# --------------------    ----------------------------------------------------------
# fold-scale-axis         FoldBatchnormToConv2D (its docstring: "a special case of
#                         FoldScaleAxis that folds scale into conv2d weights"; Relax has
#                         no general FoldScaleAxis). It matches conv2d -> batch_norm, so
#                         it must run before batch_norm is decomposed: it comes first.
# simplify-inference      DecomposeOpsForInference (batch_norm -> arithmetic; the
#                         batch norms not after a conv, none in these networks)
# canonicalize            CanonicalizeBindings (bindings and tuples only: Relax has no
#                         algebraic canonicalizer)
# fold-constant           FoldConstant (also computes the folded conv weights)
# cse                     EliminateCommonSubexpr
# dce                     DeadCodeElimination
# fuse-ops                LegalizeOps + AnnotateTIROpPattern + FuseOps + FuseTIR:
#                         Relax's FuseOps reads each call's pattern kind from the
#                         "op_pattern" attribute of the PrimFunc it calls through
#                         call_tir and treats every other call as opaque, so it needs the
#                         ops legalized to PrimFuncs and annotated first; FuseTIR then
#                         merges each fused group into one PrimFunc.
GRAPH_OPTIMIZE = (
    "FoldBatchnormToConv2D",
    "DecomposeOpsForInference",
    "CanonicalizeBindings",
    "FoldConstant",
    "EliminateCommonSubexpr",
    "DeadCodeElimination",
    "LegalizeOps",
    "AnnotateTIROpPattern",
    "FuseOps",
    "FuseTIR",
)
# tvm.relax.backend.cpu_generic.legalize_passes in TVM 0.27: the graph-level part of
# relax.get_default_pipeline("llvm") (library dispatch passes before it do nothing
# here; the passes after it lower dataflow and memory, not the graph).
TVM_DEFAULT = (
    "LegalizeOps",
    "AnnotateTIROpPattern",
    "FoldConstant",
    "FuseOps",
    "FuseTIR",
)
PIPELINES = {"graph-optimize": GRAPH_OPTIMIZE, "tvm-default": TVM_DEFAULT}
FUSION_PASSES = ("AnnotateTIROpPattern", "FuseOps")
# mlc-opt's default --opt-level; every pass above has opt level 0 or 1, and FuseOps
# (fuse_opt_level -1) takes the context's.
OPT_LEVEL = 3


def make_pass(name: str):
    from tvm import relax

    return getattr(relax.transform, name)()


# ------------------------------------------------------------------ counting


def _bindings(func):
    """The bound values of a Relax function's top-level blocks, in order (the IR is
    normalized, so every call is bound on its own)."""
    body = func.body
    for block in getattr(body, "blocks", ()):
        for binding in block.bindings:
            yield binding.value


def _is_call(value) -> bool:
    import tvm

    return isinstance(value, tvm.ir.expr.Call) and hasattr(value, "op")


def count_ops(mod) -> int:
    """Calls of operators (`tvm.ir.Op`) in `main`."""
    import tvm

    return sum(1 for value in _bindings(mod["main"])
               if _is_call(value) and isinstance(value.op, tvm.ir.Op))


_SUFFIX = re.compile(r"\d+$")  # conv2d1 -> conv2d; no op name here ends in a digit


def _op_name(gvar_name: str) -> str:
    return _SUFFIX.sub("", gvar_name)


def kernel_calls(mod) -> list[tuple[str, list[str]]]:
    """The kernels `main` calls, in order: (callee name, the op names it holds).

    A kernel is a `call_tir` of a PrimFunc, a call of a Relax function (a fused group
    before FuseTIR: its ops are the PrimFuncs it calls), or a call of an op that was
    not legalized.
    """
    import tvm
    from tvm import relax

    kernels = []
    for value in _bindings(mod["main"]):
        if not _is_call(value):
            continue
        callee = value.op
        if isinstance(callee, tvm.ir.Op):
            if callee.name.startswith("relax.call_tir"):
                name = value.args[0].name_hint
                kernels.append((name, [_op_name(name)]))
            elif not callee.name.startswith(("relax.builtin", "relax.memory", "relax.vm")):
                kernels.append((callee.name, [callee.name.removeprefix("relax.")]))
        elif isinstance(callee, tvm.ir.GlobalVar):
            func = mod[callee]
            ops = [_op_name(v.args[0].name_hint) for v in _bindings(func)
                   if _is_call(v) and isinstance(v.op, tvm.ir.Op)
                   and v.op.name.startswith("relax.call_tir")] \
                if isinstance(func, relax.Function) else [_op_name(callee.name_hint)]
            kernels.append((callee.name_hint, ops))
    return kernels


def group_summary(kernels: list[tuple[str, list[str]]]) -> dict[str, int]:
    """How many kernels have each composition ("conv2d+add+relu": 8), most first."""
    counts = Counter("+".join(ops) for _, ops in kernels)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


# ------------------------------------------------------------------ measuring


def measure(builder: Callable[[], object], pass_names: tuple[str, ...], repeat: int,
            budget: float) -> dict:
    """Times `pass_names` on freshly built modules; the counts from the first run.

    The whole sequence runs up to `repeat` times, each time on a newly built module,
    but a further run is started only while the runs so far plus one more (as long as
    the last) fit in `budget` seconds: TVM's FoldConstant compiles every folded
    expression with LLVM, which makes one run of the deepest network take about a
    minute. The fusion part (AnnotateTIROpPattern + FuseOps) is cheap, and is timed
    `repeat` times in any case: the runs it lacks re-run it on the first run's input
    (passes leave their input module unchanged).
    """
    import tvm

    totals: list[float] = []
    fusions: list[float] = []
    best_pass: dict[str, float] = {}
    result: dict = {}
    fusion_input = None
    while len(totals) < repeat:
        first = not totals
        mod = builder()
        if first:
            result["ops_before"] = count_ops(mod)
        times: dict[str, float] = {}
        grouped = None
        with tvm.transform.PassContext(opt_level=OPT_LEVEL):
            for name in pass_names:
                if first and name == "LegalizeOps":
                    result["ops_before_fusion"] = count_ops(mod)
                if first and name == FUSION_PASSES[0]:
                    fusion_input = mod
                transform = make_pass(name)
                start = time.perf_counter()
                mod = transform(mod)
                times[name] = times.get(name, 0.0) + time.perf_counter() - start
                if name == "FuseOps":
                    grouped = mod
        totals.append(sum(times.values()))
        fusions.append(sum(times.get(name, 0.0) for name in FUSION_PASSES))
        for name, seconds in times.items():
            best_pass[name] = min(best_pass.get(name, math.inf), seconds)
        if first:
            final = kernel_calls(mod)
            groups = kernel_calls(grouped if grouped is not None else mod)
            if len(groups) != len(final):
                raise RuntimeError(f"{len(groups)} groups after FuseOps but "
                                   f"{len(final)} kernels after the pipeline")
            result["kernels"] = len(final)
            result["distinct_kernels"] = len({name for name, _ in final})
            result["groups"] = group_summary(groups)
        if sum(totals) + totals[-1] > budget:
            break
    runs = len(totals)
    if fusion_input is not None:
        with tvm.transform.PassContext(opt_level=OPT_LEVEL):
            while len(fusions) < repeat:
                transforms = [make_pass(name) for name in FUSION_PASSES]
                start = time.perf_counter()
                mod = fusion_input
                for transform in transforms:
                    mod = transform(mod)
                fusions.append(time.perf_counter() - start)
    result["pipeline_s"] = round(min(totals), 6)
    result["fusion_s"] = round(min(fusions), 6)
    result["runs"] = runs
    result["pass_s"] = {name: round(seconds, 6) for name, seconds in best_pass.items()}
    result["passes"] = list(pass_names)
    return result


def run(networks: list[str], pipeline: str, repeat: int, budget: float) -> dict:
    import tvm

    report: dict = {"tvm_version": tvm.__version__, "pipeline": pipeline,
                    "opt_level": OPT_LEVEL, "repeat": repeat, "budget_s": budget}
    for name in networks:
        _log(f"{name} ...")
        start = time.perf_counter()
        report[name] = measure(NETWORKS[name], PIPELINES[pipeline], repeat, budget)
        elapsed = time.perf_counter() - start
        _log(f"{name}: {report[name]['kernels']} kernels, pipeline "
             f"{report[name]['pipeline_s']:.3f} s (measured in {elapsed:.1f} s)")
    return report


def human(report: dict) -> str:
    """The report as a readable table, then each network's kernel groups."""
    networks = [key for key, value in report.items() if isinstance(value, dict)]
    lines = [f"TVM {report['tvm_version']}, pipeline {report['pipeline']} "
             f"(opt level {report['opt_level']}; times: best of `runs` runs, at most "
             f"{report['repeat']}, within {report['budget_s']:g} s per network):",
             "  " + " -> ".join(report[networks[0]]["passes"]) if networks else "", ""]
    header = ("network", "ops before", "ops pre-fuse", "kernels", "distinct",
              "pipeline s", "runs", "fusion s", "legalize s", "fold-const s")
    rows = [header]
    for name in networks:
        r = report[name]
        rows.append((name, str(r["ops_before"]), str(r.get("ops_before_fusion", "")),
                     str(r["kernels"]), str(r["distinct_kernels"]), f"{r['pipeline_s']:.4f}",
                     str(r["runs"]), f"{r['fusion_s']:.4f}",
                     f"{r['pass_s'].get('LegalizeOps', 0.0):.4f}",
                     f"{r['pass_s'].get('FoldConstant', 0.0):.4f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for index, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells))
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append("time per pass (s, best of runs):")
    for name in networks:
        passes = ", ".join(f"{p} {s:.4f}" for p, s in report[name]["pass_s"].items())
        lines.append(f"  {name}: {passes}")
    lines.append("")
    lines.append("kernels by composition:")
    for name in networks:
        groups = ", ".join(f"{g} x{n}" if n > 1 else g
                           for g, n in report[name]["groups"].items())
        lines.append(f"  {name}: {groups}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ main


def build_arg_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="TVM Relax's graph pipeline on mlc's benchmark networks: pass times "
                    "and kernel counts, as JSON (default) or a table (--human).")
    parser.add_argument("--human", action="store_true", help="print a readable table")
    parser.add_argument("--setup", action="store_true",
                        help=f"create {TVM_VENV.relative_to(BENCH_DIR.parent)} and (re)install "
                             f"{' and '.join(REQUIREMENTS)} into it, then run")
    parser.add_argument("--venv", type=Path, default=TVM_VENV,
                        help="the venv that holds TVM (default: %(default)s)")
    parser.add_argument("--pipeline", choices=sorted(PIPELINES), default="graph-optimize",
                        help="graph-optimize: the Relax passes matching mlc's graph-optimize "
                             "(default); tvm-default: the graph part of TVM's default pipeline")
    parser.add_argument("--networks", default=",".join(NETWORKS),
                        help="comma-separated subset of: %(default)s")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per network, the best is kept (default: %(default)s)")
    parser.add_argument("--budget", type=float, default=10.0,
                        help="seconds of pipeline runs per network after which no further "
                             "run is started (the fusion part is always timed --repeat "
                             "times; default: %(default)s)")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_arg_parser().parse_args(argv)
    networks = [name.strip() for name in args.networks.split(",") if name.strip()]
    unknown = [name for name in networks if name not in NETWORKS]
    if unknown or args.repeat < 1:
        print(f"tvm_reference.py: error: unknown networks {', '.join(unknown)}" if unknown
              else "tvm_reference.py: error: --repeat must be at least 1", file=sys.stderr)
        return 2
    venv = args.venv.resolve()
    if not _in_venv(venv):
        ensure_venv(venv, reinstall=args.setup)
        reexec_in_venv(venv, [a for a in argv if a != "--setup"])
    report = run(networks, args.pipeline, args.repeat, args.budget)
    if args.human:
        sys.stdout.write(human(report))
    else:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
