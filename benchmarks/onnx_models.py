"""ONNX's `real` model tests (AlexNet, DenseNet-121, Inception v1 and v2, ResNet-50,
ShuffleNet, SqueezeNet, VGG-19, ZFNet-512): mlc natively beside onnxruntime, outputs
compared, compile time and latency side by side, one thread.

    .venv/bin/python benchmarks/onnx_models.py                       # light models, local
    .venv/bin/python benchmarks/onnx_models.py --download            # the real ones
    .venv/bin/python benchmarks/onnx_models.py --models resnet50 squeezenet --runs 5

Light (default): the models onnx ships as `onnx/backend/test/data/light` (each real
model's graph and opset, its weights made by ConstantOfShape), run on seeded random
inputs; the reference outputs are onnxruntime's. --download: the real models with
trained weights and recorded test data, as ONNX's backend tests fetched them
(`https://download.onnxruntime.ai/onnx/models/<name>.tar.gz`, unpacked into
benchmarks/.work/onnx-models), checked against the recorded outputs (and onnxruntime).
A model mlc refuses is reported with mlc's diagnostic; the run goes on.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tarfile
import time
import urllib.request
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from ort_venv import WORK_DIR, ort_python, run_json  # noqa: E402

MODELS = ("bvlc_alexnet", "densenet121", "inception_v1", "inception_v2", "resnet50",
          "shufflenet", "squeezenet", "vgg19", "zfnet512")
DOWNLOAD_URL = "https://download.onnxruntime.ai/onnx/models/{name}.tar.gz"
DOWNLOADS = WORK_DIR / "onnx-models"

_ORT_SCRIPT = """
import json, sys, time, statistics
import numpy as np, onnxruntime as ort
path, inputs, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
options = ort.SessionOptions()
options.intra_op_num_threads = options.inter_op_num_threads = 1
began = time.perf_counter()
session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
setup = time.perf_counter() - began
arrays = np.load(inputs)
feeds = {i.name: arrays[f"input_{k}"] for k, i in enumerate(session.get_inputs())}
outputs = session.run(None, feeds)
np.savez(inputs + ".ort.npz", *outputs)
times = []
for _ in range(runs):
    began = time.perf_counter()
    session.run(None, feeds)
    times.append(time.perf_counter() - began)
print(json.dumps({"setup": setup, "median": statistics.median(times), "version": ort.__version__}))
"""


def _light_model(name: str) -> Path:
    import onnx.backend.test

    return Path(onnx.backend.test.__file__).parent / "data" / "light" / f"light_{name}.onnx"


def _downloaded(name: str) -> Path:
    """The real model's folder (model.onnx, test_data_set_*), downloaded once."""
    folder = DOWNLOADS / name
    if not (folder / "model.onnx").exists():
        DOWNLOADS.mkdir(parents=True, exist_ok=True)
        archive = DOWNLOADS / f"{name}.tar.gz"
        print(f"downloading {DOWNLOAD_URL.format(name=name)} ...", file=sys.stderr)
        urllib.request.urlretrieve(DOWNLOAD_URL.format(name=name), archive)
        with tarfile.open(archive) as tar:
            tar.extractall(DOWNLOADS, filter="data")
        archive.unlink()
    return folder


def _inputs(model_path: Path, folder: Path | None) -> tuple[list[np.ndarray], list | None]:
    """The first recorded data set's (inputs, outputs) of a downloaded model, or
    seeded random inputs of the model's input types and no outputs."""
    import onnx
    from onnx import numpy_helper

    if folder is not None and (folder / "test_data_set_0").exists():
        def read(path):
            tensor = onnx.TensorProto()
            tensor.ParseFromString(path.read_bytes())
            return numpy_helper.to_array(tensor)

        data = folder / "test_data_set_0"
        return ([read(p) for p in sorted(data.glob("input_*.pb"))],
                [read(p) for p in sorted(data.glob("output_*.pb"))])
    model = onnx.load(str(model_path), load_external_data=False)
    initializers = {t.name for t in model.graph.initializer}
    rng = np.random.default_rng(0)
    inputs = []
    for value in model.graph.input:
        if value.name in initializers:
            continue
        shape = [d.dim_value or 1 for d in value.type.tensor_type.shape.dim]
        inputs.append(rng.standard_normal(shape).astype(np.float32))
    return inputs, None


def _mlc(path: Path, inputs: list[np.ndarray], runs: int) -> dict:
    from mlc.llvm.build import build
    from mlc.onnx import import_onnx

    began = time.perf_counter()
    try:
        module = import_onnx(str(path))
        model = build(module)
    except Exception as exc:  # noqa: BLE001 - mlc's diagnostic, reported per model
        return {"error": str(exc).strip().splitlines()[-1][:160]}
    compile_s = time.perf_counter() - began
    outputs = model(*inputs)
    outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        model(*inputs)
        times.append(time.perf_counter() - t0)
    return {"compile": compile_s, "median": statistics.median(times), "outputs": outputs}


def _error(got: list[np.ndarray], want: list[np.ndarray]) -> float:
    """Largest |got - want| relative to the output's largest finite magnitude (at
    least 1); NaN against NaN and an infinity against the same one count as equal,
    anything else against them as inf."""
    worst = 0.0
    for g, w in zip(got, want):
        g, w = np.asarray(g, np.float64), np.asarray(w, np.float64)
        same = (np.isnan(g) & np.isnan(w)) | (np.isinf(w) & (g == w))
        if np.any(~np.isfinite(g) & ~same) or np.any(~np.isfinite(w) & ~same):
            return float("inf")
        finite = np.abs(w[~same]) if np.any(~same) else np.zeros(1)
        difference = np.abs(g - w)[~same] if np.any(~same) else np.zeros(1)
        worst = max(worst, float(np.max(difference)) / max(1.0, float(np.max(finite))))
    return worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=MODELS)
    parser.add_argument("--download", action="store_true",
                        help="the real models with their weights and test data")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    python = ort_python()
    WORK_DIR.mkdir(exist_ok=True)
    print(f"{'model':<14} {'mlc':>6} {'error vs ort':>13} {'vs recorded':>12} "
          f"{'mlc compile':>12} {'mlc ms':>9} {'ort ms':>9}")
    passed = 0
    for name in args.models:
        folder = _downloaded(name) if args.download else None
        path = folder / "model.onnx" if folder else _light_model(name)
        inputs, recorded = _inputs(path, folder)
        feeds = WORK_DIR / f"{name}.inputs.npz"
        np.savez(feeds, **{f"input_{k}": a for k, a in enumerate(inputs)})
        ort = run_json(python, _ORT_SCRIPT, str(path), str(feeds), str(args.runs)) \
            if isinstance(python, Path) else python
        ours = _mlc(path, inputs, args.runs)
        if "error" in ours:
            print(f"{name:<14} {'fails':>6}  {ours['error']}")
            continue
        ort_outputs = None
        if isinstance(ort, dict):
            saved = np.load(str(feeds) + ".ort.npz")
            ort_outputs = [saved[f"arr_{k}"] for k in range(len(saved.files))]
        versus_ort = _error(ours["outputs"], ort_outputs) if ort_outputs else float("nan")
        versus_recorded = _error(ours["outputs"], recorded) if recorded else float("nan")
        ok = all(np.isnan(e) or e < 1e-3 for e in (versus_ort, versus_recorded)) \
            and not (np.isnan(versus_ort) and np.isnan(versus_recorded))
        passed += ok
        ort_ms = f"{ort['median'] * 1000:9.1f}" if isinstance(ort, dict) else "      n/a"
        print(f"{name:<14} {'ok' if ok else 'wrong':>6} {versus_ort:13.1e} {versus_recorded:12.1e} "
              f"{ours['compile']:11.1f}s {ours['median'] * 1000:9.1f} {ort_ms}")
        if isinstance(ort, str):
            print(f"  onnxruntime: {ort}")
    print(f"\nmlc runs {passed} of {len(args.models)} models natively with the reference's "
          f"outputs ({'downloaded, recorded data' if args.download else 'light models, random inputs'}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
