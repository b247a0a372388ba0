"""`mlc-tune` and `mlc-run --tuning-db`: an ONNX model tuned from the command line, its
table and plot, the tuned build checked against the interpreter, and bad flags refused
with one clear line."""

from __future__ import annotations

import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from mlc.tools.run import main as mlc_run
from mlc.tune.cli import main as mlc_tune


def _dense_relu_model() -> onnx.ModelProto:
    """x 1x96 -> MatMul 96x64 -> Add -> Relu -> MatMul 64x32 (two kernels)."""
    rng = np.random.default_rng(5)
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"]),
             helper.make_node("Add", ["h", "b1"], ["a"]),
             helper.make_node("Relu", ["a"], ["r"]),
             helper.make_node("MatMul", ["r", "w2"], ["y"])]
    weights = [numpy_helper.from_array(rng.standard_normal(s).astype(np.float32) / 8, name)
               for name, s in (("w1", (96, 64)), ("b1", (64,)), ("w2", (64, 32)))]
    graph = helper.make_graph(nodes, "dense", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [1, 96])], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, [1, 32])], weights)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture()
def model(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    onnx.save(_dense_relu_model(), "model.onnx")
    return tmp_path


def test_mlc_tune_prints_a_table_writes_records_and_a_plot_then_mlc_run_applies_them(
        model, capsys):
    code = mlc_tune(["model.onnx", "--trials", "4", "--work-dir", "tune", "--batch", "2",
                     "--repeat", "1", "--strategy", "random", "--plot", "curve.png"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    header = next(n for n, line in enumerate(lines) if line.startswith("task"))
    assert lines[header].split() == ["task", "calls", "MFLOP", "default", "ms", "best", "ms",
                                     "GFLOP/s", "%", "peak", "trials"]
    rows = [line.split() for line in lines[header + 1:header + 3]]
    assert all(row[1] == "1" for row in rows)  # each kernel called once
    assert sum(int(row[-1]) for row in rows) == 4
    assert "trial" in err  # the progress bar
    records = [json.loads(line) for line in
               (model / "tune" / "records.jsonl").read_text().splitlines()]
    searched = [r for r in records if r["origin"] != "confirm"]
    assert len(searched) == 6 and {r["origin"] for r in searched} == {"default", "search"}
    # Each kernel's two leaders measured again beside its baseline, when one had beaten it.
    assert len(records) - len(searched) in (0, 3, 6)
    assert (model / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code = mlc_run(["model.onnx", "--random-inputs", "0", "--tuning-db", "tune",
                    "--check", "interpreter"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "check passed" in err and "output0: float32[1, 32]" in out


@pytest.mark.parametrize("argv, message", [
    (["model.onnx", "--work-dir", "w"], "the following arguments are required: --trials"),
    (["model.onnx", "--trials", "x", "--work-dir", "w"],
     "argument --trials: a whole number >= 0 is expected, not 'x'"),
    (["model.onnx", "--trials", "1", "--work-dir", "w", "--batch", "0"],
     "argument --batch: a whole number >= 1 is expected, not '0'"),
    (["model.onnx", "--trials", "1", "--work-dir", "w", "--timeout", "nan"],
     "argument --timeout: a positive number of seconds is expected, not 'nan'"),
    (["model.onnx", "--trials", "1", "--work-dir", "w", "--plot", "curve.jpg"],
     "--plot writes a PNG file (NAME.png), not 'curve.jpg'"),
    (["model.onnx", "--trials", "1", "--work-dir", "w", "--plot", "nodir/curve.png"],
     "--plot 'nodir/curve.png': no directory 'nodir'"),
    (["model.onnx", "--trials", "1", "--work-dir", "w", "--target-features", "+avx2"],
     "--target-features needs --target"),
    (["model.onnx", "--trials", "1", "--work-dir", "w", "--target", "nocpu"],
     "unknown target CPU 'nocpu'"),
    (["missing.onnx", "--trials", "1", "--work-dir", "w"], "no model at 'missing.onnx'"),
    (["model.onnx", "--trials", "1", "--work-dir", "model.onnx"],
     "--work-dir 'model.onnx' is a file, not a directory"),
])
def test_bad_flags_are_one_clear_line(model, capsys, argv, message):
    code = _exit_code(mlc_tune, argv)
    _, err = capsys.readouterr()
    assert code == 1
    assert f"mlc-tune: error: {message}" in err
    assert "Traceback" not in err


def test_mlc_run_refuses_a_missing_or_contradicted_tuning_db(model, capsys):
    assert mlc_run(["model.onnx", "--random-inputs", "0", "--tuning-db", "none"]) == 1
    assert "mlc-run: error: --tuning-db: no tuning database at 'none'" in capsys.readouterr().err
    (model / "tune").mkdir()
    assert mlc_run(["model.onnx", "--random-inputs", "0", "--tuning-db", "tune",
                    "--no-schedule"]) == 1
    assert "--tuning-db and --no-schedule contradict each other" in capsys.readouterr().err


def _exit_code(main, argv) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's errors
        return exc.code


def test_flush_cache_times_cold_and_keeps_the_work_dir_to_it(model, capsys):
    code = mlc_tune(["model.onnx", "--trials", "2", "--work-dir", "cold", "--batch", "2",
                     "--repeat", "1", "--strategy", "random", "--flush-cache",
                     "--no-progress"])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads((model / "cold" / "measurement.json").read_text()) == {"flush_cache": True}
    assert _exit_code(mlc_tune, ["model.onnx", "--trials", "3", "--work-dir", "cold",
                                 "--strategy", "random", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "mlc-tune: error: cold holds times measured with cache flushing" in err
    assert "Traceback" not in err
