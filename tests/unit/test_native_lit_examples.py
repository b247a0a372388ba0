"""Every lit example the loop pipeline lowers to scf/memref (the files under
tests/filecheck/ with a `mlc-opt %s -p '...loop-lower...'` RUN line) also runs
natively: lowered with the RUN line's pipeline, each function of each
`// -----` chunk is compiled by `mlc.llvm.compile_module` and called on seeded
arrays, and every buffer (and result) equals what mlc's interpreter computes on the
same module and the same arrays.

Tolerance: both run the same float32 operations in the same order (the interpreter
rounds each float32 op; LLVM never reassociates: the only fast-math flag te emits is
`contract`, which lets a multiply-add become one FMA, a rounding fewer), so they
agree to a few float32 roundings (and libm's and numpy's exp, tanh, ... may differ
in the last bit): rtol 1e-6, atol 1e-6 times the largest magnitude.
Integers and booleans are equal exactly.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from mlc.ir import parse_module
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.llvm.build import compile_module

sys.path.insert(0, str(Path(__file__).parents[1] / "property"))
from native_runs import (  # noqa: E402
    assert_close,
    copies,
    defined_functions,
    interpreted,
    lit_run_lines,
    seeded_arguments,
    split_input,
)

FILECHECK = Path(__file__).parents[1] / "filecheck"
RTOL = ATOL = 1e-6
_LOWERING_RUN = re.compile(r"mlc-opt %s .*-p '([^']*loop-lower[^']*)'")


def lowering_pipelines() -> dict[str, str]:
    """The lit files that lower to scf/memref, by path under tests/filecheck, each with
    the pipeline of its first lowering RUN line."""
    found = {}
    for path in sorted(FILECHECK.rglob("*.mlir")):
        for command in lit_run_lines(path):
            match = _LOWERING_RUN.search(command)
            if match and "verify-diagnostics" not in command:
                found[str(path.relative_to(FILECHECK))] = match.group(1)
                break
    return found


PIPELINES = lowering_pipelines()

# Examples whose functions have no defined result on seeded random arguments (the test
# named covers their ops on chosen ones): their indices come from data (random ones are
# out of range, and the native check reports it as it should), or they convert random
# negative floats to unsigned integers (undefined). A pipeline reading a file its RUN
# line writes first cannot run here either.
NOT_ON_RANDOM_ARGUMENTS = {
    "loop/lower-check-index.mlir": "tests/unit/test_native_index_checks.py",
    "loop/lower-to-loop-unsigned.mlir": "tests/unit/test_native_unsigned.py",
}


def test_the_loop_examples_are_found():
    # A RUN line respelled must not silently empty the parametrization below.
    assert {"loop/lower.mlir", "loop/pipeline-mlp.mlir", "loop/plan-memory.mlir"} <= set(PIPELINES)


@pytest.mark.parametrize("relative", sorted(PIPELINES))
def test_lowered_lit_example_runs_natively_like_the_interpreter(relative):
    path = FILECHECK / relative
    pipeline = PIPELINES[relative]
    if relative in NOT_ON_RANDOM_ARGUMENTS:
        pytest.skip(f"not defined on random arguments; {NOT_ON_RANDOM_ARGUMENTS[relative]} "
                    "covers its ops on chosen ones")
    if "%t" in pipeline:
        pytest.skip("its pipeline reads a file its RUN line writes first")
    split = "--split-input-file" in " ".join(lit_run_lines(path))
    chunks = split_input(path.read_text()) if split else [path.read_text()]
    compared = 0
    for number, chunk in enumerate(chunks):
        module = parse_module(chunk, filename=str(path))
        with PassContext(opt_level=3):
            result = run_pipeline(module, pipeline)
        assert result.success, "\n".join(str(d) for d in result.diagnostics)
        native = compile_module(module)
        for seed, fn in enumerate(defined_functions(module)):
            name = fn.sym_name.value
            what = f"{relative} chunk {number} @{name}"
            args = seeded_arguments(fn, seed)
            expected_results, expected_args = interpreted(module, name, args)
            got_args = copies(args)
            got_result = native[name](*got_args)
            for n, (got, want) in enumerate(zip(got_args, expected_args)):
                assert_close(got, want, RTOL, ATOL, f"{what}: argument #{n}")
            if expected_results:
                assert len(expected_results) == 1
                assert_close(got_result, expected_results[0], RTOL, ATOL, f"{what}: result")
            compared += 1
    assert compared >= len(chunks)
