"""The markdown op references beside each dialect are generated from the declarations."""

from pathlib import Path

import pytest

from mlc.ir import Context
from mlc.ir.opdef.docs import dialect_markdown

DIALECTS_DIR = Path(__file__).resolve().parents[2] / "packages/ir-core/src/mlc/ir/dialects"


@pytest.mark.parametrize("name", ["builtin", "func", "arith"])
def test_checked_in_docs_are_current(name):
    ctx = Context([name])
    expected = dialect_markdown(ctx.dialects[name])
    checked_in = (DIALECTS_DIR / f"{name}.md").read_text()
    assert checked_in == expected, f"regenerate with: mlc-opt --op-docs {name} > {name}.md"
