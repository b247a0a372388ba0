"""The ONNX node tests mlc must pass (targets/target_*.txt: 450 of them), run by ONNX's
own backend test runner against mlc's backend: import, graph-optimize, interpret."""

from pathlib import Path

from mlc.onnx.backend import MlcBackend
from mlc.onnx.suite import backend_test_cases, read_test_names

TARGETS = read_test_names(Path(__file__).parent.glob("targets/target_*.txt"))

globals().update(backend_test_cases(MlcBackend, __name__, TARGETS))
