"""ONNX's node tests run natively (import, graph-optimize, compile with mlc.llvm.build,
call the native entry point), with ONNX's own runner and tolerances: in `make test` the
representative part (the first test of each op); the rest in test_node_native_all.py
(slow). Every node test the interpreter passes passes natively, but those
`skipped_native.txt` names with a reason."""

import os
from pathlib import Path

import pytest

from mlc.onnx.backend import native_problem
from mlc.onnx.suite import (
    backend_test_cases,
    native_backend,
    node_cases,
    read_skip_list,
    representatives,
)

HERE = Path(__file__).parent
RUN_NATIVE = sorted(set(node_cases()) - set(read_skip_list(HERE / "skipped.txt"))
                    - set(read_skip_list(HERE / "skipped_native.txt")))

if native_problem() is not None:
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"native ONNX node tests: {native_problem()}")
    pytest.skip(f"native mode unavailable: {native_problem()}", allow_module_level=True)

globals().update({f"Native{name}": case for name, case in backend_test_cases(
    native_backend(), __name__, representatives(RUN_NATIVE)).items()})
