"""ONNX's model tests whose models and data ship with onnx (the simple,
pytorch-converted and pytorch-operator folders: whole models, many of opsets 6 to 9,
with recorded inputs and outputs), through mlc's backend interpreted and natively,
compared with ONNX's own assertion and tolerances. Every case passes but those
`skipped_models.txt` names with a reason; a skipped case that passes fails the run,
so the list can only shrink. (ONNX's `real` folder holds models to download:
benchmarks/onnx_models.py runs them.)"""

from pathlib import Path

import pytest

from mlc.onnx.backend import native_available
from mlc.onnx.suite import model_cases, read_skip_list, run_model_case

SKIP_LIST = Path(__file__).parent / "skipped_models.txt"
SKIPPED = read_skip_list(SKIP_LIST)
RUN = sorted(set(model_cases()) - set(SKIPPED))


@pytest.mark.parametrize("native", [False, True], ids=["interpreted", "native"])
@pytest.mark.parametrize("name", RUN)
def test_model_folder_case(name, native):
    if native and not native_available():
        pytest.skip("native mode unavailable")
    run_model_case(model_cases()[name], native=native)


@pytest.mark.parametrize("name", sorted(SKIPPED))
def test_skipped_model_case_still_fails(name):
    try:
        run_model_case(model_cases()[name])
    except Exception:  # noqa: BLE001 - any failure keeps it on the list
        return
    pytest.fail(f"{name} passes now: remove it from {SKIP_LIST.name}")


def test_model_skip_list_names_existing_cases_once_in_order():
    lines = [line.partition(":")[0].strip() for line in SKIP_LIST.read_text().splitlines()
             if line.strip()]
    assert lines == sorted(set(lines)), f"{SKIP_LIST.name}: sorted, each case once"
    missing = sorted(set(lines) - set(model_cases()))
    assert not missing, f"{SKIP_LIST.name} names cases this onnx does not have: {missing}"
    assert all(SKIPPED.values()), f"{SKIP_LIST.name}: every skipped case says why"
