"""mlc-model as a user runs it: `--check` says passed or FAILED against the tolerance
it states, network parameters from `--param` (and their errors), `--list` with each
network's parameters, and remarks located at layer names."""

from __future__ import annotations

import re

import numpy as np
import pytest

from mlc.tools.model import compare_outputs, main

SMALL_CONVNET = ["deep_convnet", "--param", "blocks=2", "--param", "width=8", "--param",
                 "image_size=7"]
SMALL_TRANSFORMER = ["transformer", "--param", "seq=8", "--param", "hidden=16", "--param",
                     "heads=2", "--param", "ffn=32"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ------------------------------------------------------------------ comparing outputs


def test_comparison_passes_and_says_how_close() -> None:
    before = [np.array([1.0, 100.0], np.float32)]
    after = [np.array([1.0 + 5e-6, 100.0 + 5e-3])]
    # Allowances atol + rtol * |before|: 1.1e-4 and 1.001e-2; the second element uses
    # 5e-3 / 1.001e-2 = 49.95% of its own.
    comparison = compare_outputs(after, before, rtol=1e-4, atol=1e-5)
    assert comparison.passed
    assert comparison.message == (
        "check passed: outputs equal the unoptimised program's within rtol=1e-4, atol=1e-5 "
        "(max abs difference 5.0e-03; no element uses more than 50% of its allowance "
        "atol + rtol * |before|)")


def test_comparison_fails_beyond_the_tolerance() -> None:
    before = [np.zeros(3), np.array([1.0, 100.0])]
    after = [np.zeros(3), np.array([1.0 + 2e-4, 100.0])]  # 2e-4 > 1.1e-4
    comparison = compare_outputs(after, before, rtol=1e-4, atol=1e-5)
    assert not comparison.passed
    assert comparison.message == (
        "check FAILED: outputs differ from the unoptimised program's beyond rtol=1e-4, "
        "atol=1e-5 (1 of 2 elements of output #1 are not within atol + rtol * |before|; "
        "max abs difference 2.0e-04)")


def test_comparison_of_identical_and_special_values() -> None:
    values = np.array([np.nan, np.inf, -np.inf, 0.0])
    assert compare_outputs([values], [values.copy()], 0.0, 0.0).message == (
        "check passed: outputs equal the unoptimised program's within rtol=0, atol=0 "
        "(every element identical)")
    assert compare_outputs([np.array([np.nan, 1.0])], [np.array([1.0, 1.0])], 1e-4, 1e-5).message == (
        "check FAILED: outputs differ from the unoptimised program's beyond rtol=1e-4, atol=1e-5 "
        "(1 of 2 elements of output #0 are not within atol + rtol * |before|; 1 NaN on one "
        "side only)")
    assert not compare_outputs([np.array([1.0])], [np.array([np.nan])], 1e-4, 1e-5).passed
    assert "max abs difference inf" in compare_outputs([np.array([np.inf])], [np.array([1.0])],
                                                       1e-4, 1e-5).message
    shape = compare_outputs([np.zeros((2, 3))], [np.zeros((3, 2))], 1e-4, 1e-5)
    assert shape.message == ("check FAILED: output #0 has shape (2, 3) after the pipeline, "
                             "(3, 2) before")
    count = compare_outputs([np.zeros(1)], [np.zeros(1), np.zeros(1)], 1e-4, 1e-5)
    assert count.message == "check FAILED: 1 outputs after the pipeline, 2 before"


def test_check_passes_on_a_network(capsys) -> None:
    code, out, err = run(capsys, *SMALL_CONVNET, "--check")
    assert code == 0 and not err
    last = out.splitlines()[-1]
    assert re.fullmatch(r"check passed: outputs equal the unoptimised program's within "
                        r"rtol=1e-4, atol=1e-5 \(max abs difference \d\.\de-0[5-9]; no element "
                        r"uses more than \d{1,2}% of its allowance atol \+ rtol \* \|before\|\)",
                        last), last


def test_check_fails_with_nonzero_exit(capsys) -> None:
    # Folding the batch norms into the convolutions reorders float32 arithmetic: not
    # bit-identical, so a zero tolerance fails.
    code, out, _ = run(capsys, *SMALL_CONVNET, "--check", "--rtol", "0", "--atol", "0")
    assert code == 1
    assert re.search(r"^check FAILED: outputs differ from the unoptimised program's beyond "
                     r"rtol=0, atol=0 \(\d+ of 392 elements of output #0 are not within "
                     r"atol \+ rtol \* \|before\|; max abs difference \d\.\de-\d\d\)$", out, re.M)


@pytest.mark.parametrize("argv, message", [
    (["--rtol", "-1"], "argument --rtol: a tolerance is a finite number >= 0, got '-1'"),
    (["--atol", "nan"], "argument --atol: a tolerance is a finite number >= 0, got 'nan'"),
    (["--atol", "inf"], "argument --atol: a tolerance is a finite number >= 0, got 'inf'"),
    (["--run", "--benchmark", "0"], "argument --benchmark: takes 1 to 1,000,000 runs, got '0'"),
])
def test_bad_tolerance_or_run_count(capsys, argv, message) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["mlp", "--check", *argv])
    assert exit_.value.code == 1
    assert capsys.readouterr().err.splitlines()[-1] == f"mlc-model: error: {message}"


# ------------------------------------------------------------------ parameters


def test_params_set_the_network(capsys) -> None:
    code, out, err = run(capsys, *SMALL_CONVNET, "-p", "")
    assert code == 0 and not err
    # 2 blocks of 7 ops and 10 constants, on 1x8x7x7.
    assert out.startswith("deep_convnet (blocks=2, width=8, image_size=7): 34 ops in @main ")
    code, out, _ = run(capsys, "mlp", "--param", "hidden=128", "-p", "")  # the default: not shown
    assert out.startswith("mlp: 9 ops in @main")


@pytest.mark.parametrize("argv, message", [
    (["--param", "depth=3"], "network 'deep_convnet' has no parameter 'depth'; its parameters: "
                             "blocks, width, image_size, seed"),
    (["--param", "blocks=eight"], "network 'deep_convnet': blocks must be an integer, got 'eight'"),
    (["--param", "blocks=0"], "network 'deep_convnet': blocks must be at least 1, got 0"),
    (["--param", "blocks"], "--param takes NAME=VALUE, got 'blocks'"),
    (["--param", "blocks=1", "--param", "blocks=2"], "--param blocks is given twice"),
])
def test_bad_params(capsys, argv, message) -> None:
    code, out, err = run(capsys, "deep_convnet", *argv)
    assert (code, out, err) == (1, "", f"mlc-model: error: {message}\n")


def test_params_the_network_refuses_together(capsys) -> None:
    code, _, err = run(capsys, "transformer", "--param", "hidden=10")
    assert (code, err) == (1, "mlc-model: error: network 'transformer': hidden (10) must be a "
                              "multiple of heads (4)\n")


def test_list_shows_parameters_and_defaults(capsys) -> None:
    code, out, _ = run(capsys, "--list")
    assert code == 0
    lines = out.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("deep_convnet ")))
    assert lines[start + 1:start + 5] == [
        "    blocks=10            number of BasicBlocks (>= 1)",
        "    width=64             channels of every block (>= 1)",
        "    image_size=14        height and width of the input (>= 1)",
        "    seed=0               seed of the random weights (>= 0)",
    ]
    for name in ("tutorial", "mlp", "resnet18", "mobilenet_v2", "transformer"):
        assert any(line.startswith(f"{name} ") for line in lines)
    assert lines[-1] == "(--param NAME=VALUE sets a parameter; the defaults are shown)"


# ------------------------------------------------------------------ locations


def test_remarks_name_layers(capsys) -> None:
    code, _, err = run(capsys, *SMALL_TRANSFORMER, "-p", "graph-fuse-ops", "--fusion-remarks")
    assert code == 0
    assert ('loc("attention.softmax"): remark: graph-fuse-ops: phase 0: \'graph.softmax\' not '
            "fused: it is opaque: opaque ops are never fused\n") in err
    assert 'loc("attention.scores"): remark: ' in err
    assert "\n\n" not in err  # one remark after the other, as mlc-opt prints them


def test_print_debuginfo_shows_layers(capsys) -> None:
    code, out, _ = run(capsys, "mlp", "--print", "--print-debuginfo")
    assert code == 0
    assert re.search(r'graph\.dense %p0, %p1 : .* loc\("fc1"\)', out)
    assert re.search(r'graph\.relu %1 : tensor<1x128xf32> loc\("relu"\)', out)


@pytest.mark.parametrize("threads, said", [("1", "1 thread"), ("2", "2 threads")])
def test_run_compiles_natively_and_compares_with_the_interpreter(capsys, threads, said) -> None:
    code, out, _ = run(capsys, "mlp", "--param", "hidden=16", "--run", "--benchmark", "2", "-p", "",
                       "--threads", threads)
    assert code == 0
    assert "compiled to native code" in out and "LLVM codegen" in out
    assert "check passed: outputs equal the interpreter's" in out
    assert re.search(rf"latency over 2 runs \({said}\): median [\d.]+ ms", out)


def test_benchmark_needs_run(capsys) -> None:
    code, _, err = run(capsys, "mlp", "--benchmark", "2")
    assert code == 1 and "--benchmark N takes --run" in err


def test_threads_need_run_and_a_whole_number(capsys, monkeypatch) -> None:
    code, _, err = run(capsys, "mlp", "--threads", "2")
    assert code == 1 and err == "mlc-model: error: --threads N takes --run\n"
    with pytest.raises(SystemExit):
        run(capsys, "mlp", "--run", "--threads", "0")
    assert capsys.readouterr().err.endswith(
        "mlc-model: error: argument --threads: a whole number of threads from 1 to 1024 is "
        "expected, not '0'\n")
    monkeypatch.setenv("MLC_NUM_THREADS", "many")
    code, _, err = run(capsys, "mlp", "--run", "-p", "")
    assert code == 1 and err == ("mlc-model: error: MLC_NUM_THREADS='many': a whole number of "
                                 "threads from 1 to 1024 is expected\n")
