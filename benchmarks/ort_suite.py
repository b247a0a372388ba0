"""ONNX's backend tests run with onnxruntime: the script benchmarks/onnx_coverage.py
runs in the ort venv (see ort_venv.py), so it imports onnx, onnxruntime and numpy only.

    python benchmarks/ort_suite.py     # JSON: version, node: {test: null or failure},
                                       #       models: {test: null or failure}

Each case runs as ONNX's own runner does (`onnx.backend.test.runner.Runner`'s
assertion and the case's tolerances), single-threaded on the CPU provider; node tests
come from the installed onnx's case generators (as `mlc.onnx.suite.node_cases`), model
tests from its simple, pytorch-converted and pytorch-operator folders.
"""

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper
from onnx.backend.test.loader import load_model_tests, load_node_model_tests
from onnx.backend.test.runner import Runner

MODEL_FOLDERS = ("simple", "pytorch-converted", "pytorch-operator")


def _array(value):
    return numpy_helper.to_array(value) if isinstance(value, onnx.TensorProto) else np.asarray(value)


def _read(path: Path) -> np.ndarray:
    tensor = onnx.TensorProto()
    tensor.ParseFromString(path.read_bytes())
    return numpy_helper.to_array(tensor)


def _session(model) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    source = model if isinstance(model, str) else model.SerializeToString()
    return ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])


def _check(session, data_sets, rtol, atol) -> None:
    names = [i.name for i in session.get_inputs()]
    for inputs, expected in data_sets:
        outputs = session.run(None, dict(zip(names, inputs)))
        Runner.assert_similar_outputs(expected, outputs, rtol=rtol, atol=atol, model_dir=None)


def _failure(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]


def node_results() -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = load_node_model_tests()
    results = {}
    for case in cases:
        try:
            sets = [([_array(x) for x in i], [_array(x) for x in o]) for i, o in case.data_sets]
            _check(_session(case.model), sets, case.rtol, case.atol)
            results[case.name] = None
        except Exception as exc:  # noqa: BLE001 - each failure is data here
            results[case.name] = _failure(exc)
    return results


def model_results() -> dict:
    def index(path: Path) -> int:
        return int(path.stem.rsplit("_", 1)[1])

    results = {}
    for kind in MODEL_FOLDERS:
        for case in load_model_tests(kind=kind):
            folder = Path(case.model_dir)
            try:
                sets = [([_read(p) for p in sorted(d.glob("input_*.pb"), key=index)],
                         [_read(p) for p in sorted(d.glob("output_*.pb"), key=index)])
                        for d in sorted(folder.glob("test_data_set_*"))]
                _check(_session(str(folder / "model.onnx")), sets, case.rtol, case.atol)
                results[case.name] = None
            except Exception as exc:  # noqa: BLE001
                results[case.name] = _failure(exc)
    return results


if __name__ == "__main__":
    ort.set_default_logger_severity(4)
    json.dump({"version": ort.__version__, "node": node_results(), "models": model_results()},
              sys.stdout)
