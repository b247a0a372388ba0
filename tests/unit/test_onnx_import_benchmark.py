"""benchmarks/onnx_import.py's mlc side on a small ResNet-18: every phase it times is a
step the importer takes, the instrumentation is undone afterwards, and the report
renders without TVM."""


import onnx
import pytest

from mlc.onnx import importer
from mlc.onnx.examples import resnet18
from tests.benchmark_scripts import benchmark_script


@pytest.fixture(scope="module")
def onnx_import():
    with benchmark_script("onnx_import") as module:
        yield module


def test_mlc_phases_are_the_importers_steps(onnx_import, tmp_path):
    path = tmp_path / "resnet18.onnx"
    onnx.save(resnet18(image_size=16, num_classes=10), path)
    steps = {dotted: getattr(importer._Importer, dotted.split(".")[1]) if "." in dotted
             else getattr(importer, dotted) for _, dotted in onnx_import.MLC_PHASES}
    figures = onnx_import.measure_mlc(path, repeat=1)
    for dotted, original in steps.items():  # the timing wrappers are gone again
        now = (getattr(importer._Importer, dotted.split(".")[1]) if "." in dotted
               else getattr(importer, dotted))
        assert now is original
    phases = figures["phases_ms"]
    assert list(phases) == [label for label, _ in onnx_import.MLC_PHASES] + [onnx_import.OTHER]
    assert all(value > 0 for value in phases.values())  # each step ran, and was timed
    assert figures["ops"] > 70  # the module of ResNet-18's 70 ops and its constants

    figures["library_import_ms"] = 1.0
    text = onnx_import.render(path, 1000, 1, figures, {"error": "not measured (--no-tvm)"}, "0.00")
    assert "TVM: not measured (--no-tvm)" in text
    assert "| import, file to verified module |" in text and "| verify |" in text
