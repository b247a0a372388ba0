"""Every other ONNX node test, run to measure coverage: a pass is reported (XPASS), a
failure is expected and never counted (XFAIL). Slow: `make test-slow`."""

from pathlib import Path

import pytest

from mlc.onnx.suite import node_cases, read_test_names, run_case

TARGETS = read_test_names(Path(__file__).parent.glob("targets/target_*.txt"))
OTHERS = sorted(set(node_cases()) - set(TARGETS))


@pytest.mark.slow
@pytest.mark.xfail(reason="outside the target set: coverage only", strict=False)
@pytest.mark.parametrize("name", OTHERS)
def test_node_outside_targets(name):
    run_case(node_cases()[name])


def test_target_lists_name_existing_tests():
    missing = sorted(set(TARGETS) - set(node_cases()))
    assert not missing, f"target tests not in this onnx version: {missing}"
    assert len(TARGETS) == 450
