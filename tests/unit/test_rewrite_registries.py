"""Where ops and canonicalization patterns are registered: on their dialect, found
through a Context; two Contexts (or two dialect objects of one name) do not see each
other's."""

import subprocess
import sys

import pytest

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.dialects.arith import AddIOp, arith
from mlc.ir.opdef.declare import Op, OperandDef, ResultDef
from mlc.ir.opdef.traits import Pure
from mlc.ir.passes.generic.canonicalize import canonicalization_patterns
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.rewrite.drr import Dag, DagPattern, V
from mlc.ir.rewrite.pattern import PatternError, RewritePattern


def _names(patterns) -> set[str]:
    return {p.name for p in patterns}


def test_two_contexts_with_different_dialects_see_different_ops_and_patterns():
    with_arith = Context(["arith"], load_on_demand=False)
    with_graph = Context(["graph"], load_on_demand=False)
    assert with_arith.get_op_class("arith.addi") is AddIOp
    assert with_arith.get_op_class("graph.add") is None
    assert with_graph.get_op_class("arith.addi") is None
    assert with_graph.get_op_class("graph.add") is not None
    arith_patterns = _names(canonicalization_patterns(with_arith))
    graph_patterns = _names(canonicalization_patterns(with_graph))
    assert "AddIAddConstant" in arith_patterns and "AddZero" not in arith_patterns
    assert "AddZero" in graph_patterns and "AddIAddConstant" not in graph_patterns
    both = Context(["arith", "graph"], load_on_demand=False)
    assert _names(canonicalization_patterns(both)) == arith_patterns | graph_patterns


def _twin(label: str):
    """A dialect named `unitreg` whose op `unitreg.wrap` is a class of its own."""
    dialect = Dialect("unitreg", f"Twin {label}.")

    @dialect.op
    class WrapOp(Op):
        name = "unitreg.wrap"
        input = OperandDef()
        output = ResultDef()
        traits = (Pure,)

    return dialect, WrapOp


def test_dialects_of_one_name_in_two_contexts_do_not_see_each_other():
    first, first_wrap = _twin("one")
    second, second_wrap = _twin("two")
    one, two = Context([first]), Context([second])
    assert one.get_op_class("unitreg.wrap") is first_wrap
    assert two.get_op_class("unitreg.wrap") is second_wrap
    # A pattern naming the op builds the class of the Context it was resolved in.
    pattern = DagPattern("UnitTestWrapTwice", Dag("unitreg.wrap", V("x")),
                         Dag("unitreg.wrap", Dag("unitreg.wrap", V("x"))), context=two)
    assert pattern.result.op_class is second_wrap
    first.add_canonicalization_patterns([DagPattern(
        "UnitTestWrapOnce", Dag(first_wrap, Dag(first_wrap, V("x"))), Dag(first_wrap, V("x")))])
    assert _names(one.canonicalization_patterns()) == {"UnitTestWrapOnce"}
    assert two.canonicalization_patterns() == []


def test_canonicalize_applies_the_patterns_of_the_dialects_in_the_ir():
    dialect, wrap = _twin("three")

    @dialect.canonicalization_pattern
    class UnwrapTwice(RewritePattern):
        """wrap(wrap(x)) -> wrap(x)"""

        root = wrap

        def match_and_rewrite(self, op, rewriter):
            inner = op.operand(0).defining_op
            if not isinstance(inner, wrap):
                return False
            rewriter.replace_op(op, inner.results)
            return True

    assert UnwrapTwice.root == "unitreg.wrap" and UnwrapTwice.root_op is wrap
    assert [type(p) for p in dialect.canonicalization_patterns] == [UnwrapTwice]
    text = """
    func.func @f(%x: i32) -> i32 {
      %a = "unitreg.wrap"(%x) : (i32) -> i32
      %b = "unitreg.wrap"(%a) : (i32) -> i32
      return %b : i32
    }"""
    module = parse_module(text, Context([dialect]))
    assert run_pipeline(module, "canonicalize").success
    verify(module)
    assert [op.name for op in module.walk()] == ["builtin.module", "func.func",
                                                 "unitreg.wrap", "func.return"]
    # The same text read with another dialect object of that name: no such pattern.
    other, _ = _twin("four")
    module = parse_module(text, Context([other]))
    before = print_op(module)
    assert run_pipeline(module, "canonicalize").success
    assert print_op(module) == before


def test_a_dialect_registers_patterns_of_its_own_ops_once():
    dialect, wrap = _twin("five")
    with pytest.raises(PatternError, match="pattern 'AddIAddConstant' is rooted at 'arith.addi', "
                                           "which is not an op of dialect 'unitreg'"):
        dialect.add_canonicalization_patterns(
            [p for p in arith.canonicalization_patterns if p.name == "AddIAddConstant"])
    pattern = DagPattern("UnitTestWrap", Dag(wrap, Dag(wrap, V("x"))), Dag(wrap, V("x")))
    dialect.add_canonicalization_patterns([pattern])
    with pytest.raises(PatternError, match="'UnitTestWrap' is already registered"):
        dialect.add_canonicalization_patterns([pattern])


def test_a_code_pattern_root_must_be_a_declared_op_class():
    with pytest.raises(PatternError, match="pattern 'Bad': root int is not a declared op"):
        type("Bad", (RewritePattern,), {"root": int})


def test_importing_any_module_of_arith_completes_it_with_its_patterns():
    # In a fresh interpreter: the ops module's package imports the patterns first, so
    # the dialect object is complete before a Context loads it.
    script = (
        "from mlc.ir.dialects.arith.ops import arith\n"
        "print(len(arith.canonicalization_patterns))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 0
    assert int(result.stdout) == len(Context(["arith"]).canonicalization_patterns())
