"""ONNX's backend node tests, built in memory from onnx's own case generators, run
against mlc's backend and compared with ONNX's own assertion.

    from mlc.onnx.suite import node_cases, run_case
    run_case(node_cases()["test_relu"])          # raises AssertionError on a mismatch
"""

from __future__ import annotations

import functools
import warnings
from pathlib import Path

import numpy as np


@functools.cache
def node_cases() -> dict:
    """Every node test case of the installed onnx, by name (test_relu, ...)."""
    with warnings.catch_warnings():  # the generators overflow casts on purpose
        warnings.simplefilter("ignore")
        from onnx.backend.test.loader import load_node_model_tests

        return {case.name: case for case in load_node_model_tests()}


MODEL_FOLDERS = ("simple", "pytorch-converted", "pytorch-operator")
"""The kinds of ONNX's model tests whose models and data ship with onnx."""


@functools.cache
def model_cases() -> dict:
    """Every model test of the installed onnx's local folders (`MODEL_FOLDERS`), by
    name: a model.onnx and test_data_set_* of input and expected output protobufs."""
    from onnx.backend.test.loader import load_model_tests

    return {case.name: case for kind in MODEL_FOLDERS for case in load_model_tests(kind=kind)}


def model_data_sets(case) -> list[tuple[list[np.ndarray], list[np.ndarray]]]:
    """(inputs, expected outputs) of each test_data_set_* folder of a model test."""
    import onnx
    from onnx import numpy_helper

    def read(path: Path) -> np.ndarray:
        tensor = onnx.TensorProto()
        tensor.ParseFromString(path.read_bytes())
        return numpy_helper.to_array(tensor)

    sets = []
    for folder in sorted(Path(case.model_dir).glob("test_data_set_*")):
        inputs = [read(p) for p in sorted(folder.glob("input_*.pb"), key=_index)]
        outputs = [read(p) for p in sorted(folder.glob("output_*.pb"), key=_index)]
        sets.append((inputs, outputs))
    return sets


def _index(path: Path) -> int:
    return int(path.stem.rsplit("_", 1)[1])


def run_model_case(case, native: bool = False) -> None:
    """Prepare a model test's model.onnx with mlc's backend and compare its outputs on
    each data set with ONNX's own assertion and the case's tolerances."""
    import onnx
    from onnx.backend.test.runner import Runner

    from mlc.onnx.backend import MlcBackend

    rep = MlcBackend.prepare(onnx.load(str(Path(case.model_dir) / "model.onnx")), "CPU",
                             native=native)
    for inputs, expected in model_data_sets(case):
        outputs = rep.run(inputs)
        Runner.assert_similar_outputs(expected, list(outputs), rtol=case.rtol, atol=case.atol,
                                      model_dir=case.model_dir)


def native_backend():
    """mlc's ONNX backend with native mode on, whatever MLC_ONNX_NATIVE says (a
    subclass of MlcBackend, for ONNX's runner)."""
    from mlc.onnx.backend import MlcBackend

    class NativeBackend(MlcBackend):
        @classmethod
        def prepare(cls, model, device: str = "CPU", **kwargs):
            return super().prepare(model, device, **{**kwargs, "native": True})

    return NativeBackend


def run_case(case, native: bool = False) -> None:
    """Prepare the case's model with mlc's backend (natively with `native`), run it on
    each data set and compare with ONNX's own assertion (exact dtype and shape, then
    rtol/atol of the case)."""
    from onnx.backend.test.runner import Runner

    from mlc.onnx.backend import MlcBackend

    rep = MlcBackend.prepare(case.model, "CPU", native=native)
    for inputs, expected in case.data_sets:
        outputs = rep.run([_as_array(x) for x in inputs])
        Runner.assert_similar_outputs([_as_array(x) for x in expected], list(outputs), rtol=case.rtol,
                                      atol=case.atol, model_dir=None)


def _as_array(value) -> np.ndarray:
    """A case's input or output as numpy: some cases hold TensorProtos or numpy scalars."""
    from onnx import TensorProto, numpy_helper

    return numpy_helper.to_array(value) if isinstance(value, TensorProto) else np.asarray(value)


def representatives(names) -> list[str]:
    """Of the node tests `names`, the first (by name) that uses each op: a part of the
    suite that runs every op at least once."""
    chosen: dict[str, str] = {}
    cases = node_cases()
    for name in sorted(names):
        for node in cases[name].model.graph.node:
            chosen.setdefault(node.op_type, name)
    return sorted(set(chosen.values()))


def is_float32_case(case) -> bool:
    """Whether every input and output of the case's model is a float32 tensor."""
    from onnx import TensorProto

    graph = case.model.graph
    values = list(graph.input) + list(graph.output)
    return all(v.type.HasField("tensor_type") and v.type.tensor_type.elem_type == TensorProto.FLOAT
               for v in values)


def read_skip_list(path) -> dict[str, str]:
    """The node tests a skip list names (`test_name: reason`, one per line), with
    their reasons, in the file's order."""
    skipped: dict[str, str] = {}
    for line in Path(path).read_text().splitlines():
        if line.strip():
            name, _, reason = line.partition(":")
            skipped[name.strip()] = reason.strip()
    return skipped


def backend_test_cases(backend, module_name: str, names) -> dict:
    """ONNX's runner's test case classes (`onnx.backend.test.BackendTest`) for the node
    tests `names` on device CPU, run with `backend`, by class name: a pytest module
    puts them in its globals."""
    import onnx.backend.test

    with warnings.catch_warnings():  # onnx's case generators overflow casts on purpose
        warnings.simplefilter("ignore")
        suite = onnx.backend.test.BackendTest(backend, module_name)
    for name in names:
        suite.include(f"^{name}_cpu$")
    # The runner makes a skipped test of every case not included; keep only `names`.
    wanted = {f"{name}_cpu" for name in names}
    cases = suite.test_cases  # a property: new classes on each access
    for case_class in cases.values():
        for attr in [a for a in vars(case_class) if a.startswith("test_") and a not in wanted]:
            delattr(case_class, attr)
    return cases
