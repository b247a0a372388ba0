"""The ONNX node tests mlc must pass (targets/target_*.txt: 450 of them), run by ONNX's
own backend test runner against mlc's backend: import, graph-optimize, interpret."""

import warnings
from pathlib import Path

import onnx.backend.test

from mlc.onnx.backend import MlcBackend
from mlc.onnx.suite import read_test_names

TARGETS = read_test_names(Path(__file__).parent.glob("targets/target_*.txt"))

with warnings.catch_warnings():  # onnx's case generators overflow casts on purpose
    warnings.simplefilter("ignore")
    _suite = onnx.backend.test.BackendTest(MlcBackend, __name__)
for _name in TARGETS:
    _suite.include(f"^{_name}_cpu$")

# The runner makes a skipped test of every case not included; keep only the targets.
_wanted = {f"{name}_cpu" for name in TARGETS}
_cases = _suite.test_cases  # a property: new classes on each access
for _case_class in _cases.values():
    for _attr in [a for a in vars(_case_class) if a.startswith("test_") and a not in _wanted]:
        delattr(_case_class, _attr)
globals().update(_cases)
