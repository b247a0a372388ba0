"""The ONNX node tests mlc must pass (targets/target_*.txt), run natively: the same
cases and ONNX's own runner and tolerances as test_node_targets.py, with the backend's
native mode (import, graph-optimize, compile with mlc.llvm.build, call the native
entry point). Slow (`make test-slow`): each case compiles to native code."""

import os
from pathlib import Path
from typing import Any

import onnx
import pytest

from mlc.onnx.backend import MlcBackend, MlcBackendRep, native_problem
from mlc.onnx.suite import backend_test_cases, read_test_names

pytestmark = pytest.mark.slow

TARGETS = read_test_names(Path(__file__).parent.glob("targets/target_*.txt"))

if native_problem() is not None:
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"native ONNX node tests: {native_problem()}")
    pytest.skip(f"native mode unavailable: {native_problem()}", allow_module_level=True)


class NativeBackend(MlcBackend):
    """mlc's backend with native mode on, whatever MLC_ONNX_NATIVE says."""

    @classmethod
    def prepare(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> MlcBackendRep:
        return super().prepare(model, device, **{**kwargs, "native": True})


globals().update({f"Native{name}": case
                 for name, case in backend_test_cases(NativeBackend, __name__, TARGETS).items()})
