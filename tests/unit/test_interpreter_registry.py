"""The interpreter's semantics registry: handlers keyed by op class, each dialect's
semantics module imported the first time an op of the dialect runs, and the modules
that moved into dialect folders still importable under their old names."""

import subprocess
import sys

from mlc.ir.dialects.arith import AddIOp, ConstantOp, SelectOp
from mlc.ir.dialects.arith.casts import ExtSIOp
from mlc.ir.dialects.func import FuncOp
from mlc.ir.interpreter import ELEMENTWISE_OPS, OP_HANDLERS, handler_for
from mlc.ir.opdef.declare import Op


def test_handlers_are_keyed_by_op_class():
    assert handler_for(AddIOp) is not None and handler_for(ExtSIOp) is not None
    assert all(isinstance(key, type) and issubclass(key, Op) for key in OP_HANDLERS)
    # func.func is run by the engine itself, not by a handler.
    assert handler_for(FuncOp) is None


def test_elementwise_ops_are_those_with_the_trait():
    handler_for(AddIOp)
    assert {AddIOp, SelectOp, ExtSIOp} <= ELEMENTWISE_OPS
    assert ConstantOp not in ELEMENTWISE_OPS


def _run(script: str) -> str:
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_semantics_load_when_an_op_of_the_dialect_first_runs():
    # (7 * 6) + 7 = 49; 300 wraps to 44 in i8.
    out = _run(
        "import sys\n"
        "from mlc.ir import Context, parse_module\n"
        "m = parse_module('''func.func @f(%a: i8, %b: i8) -> i8 {\n"
        "  %p = arith.muli %a, %b : i8\n  %s = arith.addi %p, %a : i8\n"
        "  return %s : i8\n}''', Context())\n"
        "before = 'mlc.ir.dialects.arith.semantics' in sys.modules\n"
        "numpy_before = 'numpy' in sys.modules\n"
        "from mlc.ir.interpreter import evaluate\n"
        "print(before, numpy_before, evaluate(m, 'f', [7, 6]), evaluate(m, 'f', [20, 14]),\n"
        "      'mlc.ir.dialects.arith.semantics' in sys.modules)\n")
    assert out == "False False [49] [44] True"


def test_moved_modules_keep_their_old_names():
    out = _run(
        "import mlc.ir.dialects.arith_casts as old, mlc.ir.dialects.arith.casts as new\n"
        "from mlc.ir.dialect import Dialect\n"
        "from mlc.ir.core.dialect_registry import Dialect as D\n"
        "from mlc.ir.dialects.scf_forall import ForallOp\n"
        "from mlc.ir.dialects.scf.forall import ForallOp as F\n"
        "print(old is new, Dialect is D, ForallOp is F)\n")
    assert out == "True True True"
