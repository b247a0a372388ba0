"""ONNX's node tests, the whole suite of the installed onnx, run by ONNX's own backend
test runner (`onnx.backend.test.BackendTest`, its tolerances) against mlc's backend:
import, graph-optimize, interpret. Every test passes but those `skipped.txt` names with
a reason; a skipped test that passes is a failure too (take it off the list), so the
list can only shrink."""

from pathlib import Path

import pytest

from mlc.onnx.backend import MlcBackend
from mlc.onnx.suite import backend_test_cases, node_cases, read_skip_list, run_case

SKIP_LIST = Path(__file__).parent / "skipped.txt"
SKIPPED = read_skip_list(SKIP_LIST)
RUN = sorted(set(node_cases()) - set(SKIPPED))

globals().update(backend_test_cases(MlcBackend, __name__, RUN))


@pytest.mark.parametrize("name", sorted(SKIPPED))
def test_skipped_node_test_still_fails(name):
    try:
        run_case(node_cases()[name])
    except Exception:  # noqa: BLE001 - any failure keeps it on the list
        return
    pytest.fail(f"{name} passes now: remove it from {SKIP_LIST.name}")


def test_skip_list_names_existing_tests_once_in_order():
    lines = [line.partition(":")[0].strip() for line in SKIP_LIST.read_text().splitlines()
             if line.strip()]
    assert lines == sorted(set(lines)), f"{SKIP_LIST.name}: sorted, each test once"
    missing = sorted(set(lines) - set(node_cases()))
    assert not missing, f"{SKIP_LIST.name} names tests this onnx does not have: {missing}"
    assert all(SKIPPED.values()), f"{SKIP_LIST.name}: every skipped test says why"
