"""convert-scf-to-cf against mlir-opt-22's own --convert-scf-to-cf.

On the lit cases of tests/filecheck/Conversion/SCFToControlFlow/convert-scf-to-cf.mlir (every scf op the
pass lowers, nested, with results, locations and loop annotations) and on random
scf programs (the generators of tests/property/test_scf_semantics.py and
test_scf_to_cf_semantics.py):

- mlir-opt reads mlc's output, custom and generic, and prints it exactly as it
  prints its own lowering of the same input: same blocks in the same order, same
  block arguments, same ops, same locations (`mlir-opt(mlc-opt --convert-scf-to-cf x)
  == mlir-opt --convert-scf-to-cf x`);
- printed through mlc, mlir-opt's lowering is mlc's, up to value names (mlc keeps the
  names it reads; mlir-opt chooses its own).

The one deliberate difference is the width of the flag an `scf.index_switch`
becomes: mlir-opt-22 casts the index to i32, which sends an index or case beyond
i32 to the wrong case; mlc casts it to i64, as later MLIR does. The comparison
spells both the same.

Without mlir-opt these tests skip, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

TESTS = Path(__file__).parent.parent
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(TESTS / "property"))
from test_mlir_interop import mlc, mlir, normalize_names, require_mlir_opt  # noqa: E402
from test_scf_semantics import programs  # noqa: E402
from test_scf_to_cf_semantics import programs_with_parallel  # noqa: E402

LIT_CASES = TESTS / "filecheck" / "Conversion" / "SCFToControlFlow" / "convert-scf-to-cf.mlir"
FLAGS = ("--allow-unregistered-dialect", "--split-input-file")
_SWITCH_FLAG = re.compile(r"(arith\.index_cast %[\w.$-]+ : index to |cf\.switch %[\w.$-]+ : )"
                          r"i(?:32|64)\b")


@pytest.fixture(scope="module")
def mlir_opt() -> str:
    return require_mlir_opt()


def same_switch_width(text: str) -> str:
    """`text` with the flag of each switch lowered from an index_switch spelled iN."""
    return _SWITCH_FLAG.sub(r"\1iN", text)


def check_same_lowering(mlir_opt: str, source: Path | str, *flags: str) -> None:
    ours = mlc(source, "--convert-scf-to-cf", *FLAGS, *flags)
    theirs = mlir(mlir_opt, source, "--convert-scf-to-cf", *FLAGS, *flags)
    reprinted = mlir(mlir_opt, ours, *FLAGS, *flags)
    assert same_switch_width(reprinted) == same_switch_width(theirs)


def test_mlir_prints_our_lowering_as_its_own(mlir_opt):
    check_same_lowering(mlir_opt, LIT_CASES)


def test_mlir_reads_our_lowering_with_locations(mlir_opt):
    check_same_lowering(mlir_opt, LIT_CASES, "--mlir-print-debuginfo")


def test_mlir_reads_our_generic_lowering(mlir_opt):
    ours = mlc(LIT_CASES, "--convert-scf-to-cf", "--print-op-generic", *FLAGS)
    theirs = mlir(mlir_opt, LIT_CASES, "--convert-scf-to-cf", *FLAGS)
    assert same_switch_width(mlir(mlir_opt, ours, *FLAGS)) == same_switch_width(theirs)


def test_mlc_prints_mlir_lowering_as_its_own(mlir_opt):
    # The chunk with llvm loop annotations is left out: without the llvm dialect,
    # mlc keeps `#llvm.loop_annotation<unroll = #loop_unroll>` as opaque text, the
    # alias mlir-opt prints inside it unresolved.
    [structured, _annotated] = LIT_CASES.read_text(encoding="utf-8").split("\n// -----\n")
    ours = mlc(structured, "--convert-scf-to-cf", *FLAGS)
    theirs = mlc(mlir(mlir_opt, structured, "--convert-scf-to-cf", *FLAGS), *FLAGS)
    assert normalize_names(same_switch_width(theirs)) == normalize_names(same_switch_width(ours))


@settings(max_examples=25, deadline=None)
@given(st.one_of(programs(), programs_with_parallel()))
def test_random_programs_lower_as_mlir_lowers_them(text):
    note(text)
    check_same_lowering(require_mlir_opt(), text)
