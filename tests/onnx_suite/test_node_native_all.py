"""ONNX's node tests run natively, all of them but the representative part that
test_node_native.py runs in `make test`: slow (`make test-slow`). A test that
`skipped_native.txt` names must still fail natively (take it off the list when it
passes), so the list can only shrink."""

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
    run_case,
)

pytestmark = pytest.mark.slow

HERE = Path(__file__).parent
NATIVE_SKIP_LIST = HERE / "skipped_native.txt"
SKIPPED_NATIVE = read_skip_list(NATIVE_SKIP_LIST)
RUN_NATIVE = sorted(set(node_cases()) - set(read_skip_list(HERE / "skipped.txt"))
                    - set(SKIPPED_NATIVE))

if native_problem() is not None:
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"native ONNX node tests: {native_problem()}")
    pytest.skip(f"native mode unavailable: {native_problem()}", allow_module_level=True)

globals().update({f"NativeAll{name}": case for name, case in backend_test_cases(
    native_backend(), __name__, sorted(set(RUN_NATIVE) - set(representatives(RUN_NATIVE)))
).items()})


@pytest.mark.parametrize("name", sorted(SKIPPED_NATIVE))
def test_skipped_native_test_still_fails_natively(name):
    try:
        run_case(node_cases()[name], native=True)
    except Exception:  # noqa: BLE001 - any failure keeps it on the list
        return
    pytest.fail(f"{name} passes natively now: remove it from {NATIVE_SKIP_LIST.name}")
