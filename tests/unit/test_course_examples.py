"""Every chapter of the MLC course that mlc covers runs as `examples/course/*.py`
(each checks itself against numpy or torch and raises when it disagrees)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

COURSE = Path(__file__).resolve().parents[2] / "examples" / "course"
CHAPTERS = sorted(p.stem for p in COURSE.glob("*.py"))
# Chapters that build several native modules or import torch models take seconds.
SLOW = {"framework_integration", "tensorir_exercises", "automatic_program_optimization"}


def test_every_chapter_is_listed():
    assert CHAPTERS == ["automatic_program_optimization", "end_to_end", "framework_integration", "graph_optimization",
                        "tensor_program_abstraction", "tensorir_exercises"]


@pytest.mark.parametrize("chapter", [
    pytest.param(c, marks=pytest.mark.slow) if c in SLOW else c for c in CHAPTERS])
def test_chapter_runs_and_agrees_with_its_reference(chapter, capsys):
    module = runpy.run_path(str(COURSE / f"{chapter}.py"))
    module["main"]()
    assert capsys.readouterr().out  # each chapter shows what it built
