"""The greedy pattern driver and the walk driver: events, folding, dead code,
constant uniquing and hoisting, iteration and rewrite limits, traversal order."""

from collections import Counter

from mlc.ir import Context, IntegerAttr, i32, parse_module, print_op, verify
from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.dialects.arith import AddIOp, ConstantOp, MulIOp, SubIOp
from mlc.ir.opdef.declare import Op, OperandDef, ResultDef
from mlc.ir.opdef.traits import Pure
from mlc.ir.passes.generic.canonicalize import canonicalization_patterns
from mlc.ir.rewrite.greedy import (
    GreedyConfig,
    apply_patterns_greedily,
    apply_patterns_once,
    is_trivially_dead,
)
from mlc.ir.rewrite.pattern import PatternSet, RewritePattern
from mlc.ir.rewrite.rewriter import RewriterListener


class CountingListener(RewriterListener):
    """Counts every event, and keeps the match-failure reasons."""

    def __init__(self):
        self.counts: Counter[str] = Counter()
        self.inserted: list[str] = []
        self.erased: list[str] = []
        self.failures: list[tuple[str, str]] = []

    def notify_op_inserted(self, op):
        self.counts["inserted"] += 1
        self.inserted.append(op.name)

    def notify_op_erased(self, op):
        self.counts["erased"] += 1
        self.erased.append(op.name)

    def notify_op_replaced(self, op, values):
        self.counts["replaced"] += 1

    def notify_op_modified(self, op):
        self.counts["modified"] += 1

    def notify_match_failure(self, op, reason):
        self.counts["failures"] += 1
        self.failures.append((op.name, reason))


def _parse(text: str, unregistered: bool = False):
    module = parse_module(text, Context(allow_unregistered=unregistered))
    verify(module)
    return module


def _run(text: str, patterns=None, config=None, unregistered: bool = False):
    module = _parse(text, unregistered)
    listener = CountingListener()
    patterns = canonicalization_patterns(Context(["arith"])) if patterns is None else patterns
    result = apply_patterns_greedily(module, patterns, config, listener)
    verify(module)
    return module, result, listener


def _body(module, index: int = 0):
    """The ops of the entry block of the index-th function, as (name, op) pairs."""
    func = [op for op in module.regions[0].ops()][index]
    return list(func.regions[0].blocks[0].ops())


def _names(ops):
    return [op.name for op in ops]


# ---------------------------------------------------------------------- events


def test_constant_fold_events_are_exact():
    module, result, listener = _run("""
    func.func @f() -> i32 {
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %a = arith.addi %c1, %c2 : i32
      return %a : i32
    }""")
    # One constant materialised, the addi replaced (its user, the return, modified),
    # then the addi and the two constants it leaves dead erased.
    assert listener.counts == Counter(inserted=1, replaced=1, modified=1, erased=3)
    assert listener.inserted == ["arith.constant"]
    assert sorted(listener.erased) == ["arith.addi", "arith.constant", "arith.constant"]
    assert result.converged and result.folds == 1 and result.dead_erased == 2
    assert result.patterns_applied == 0 and result.iterations == 2
    ops = _body(module)
    assert _names(ops) == ["arith.constant", "func.return"]
    assert ops[0].attributes["value"] == IntegerAttr(3, i32)
    assert ops[1].operands == [ops[0].results[0]]


def test_no_events_on_canonical_input():
    module, result, listener = _run("""
    func.func @f(%x: i32) -> i32 {
      %c1 = arith.constant 1 : i32
      %a = arith.addi %x, %c1 : i32
      return %a : i32
    }""")
    assert listener.counts == Counter()
    assert result.converged and result.iterations == 1 and not result.changed
    assert result.diagnostics == []


def test_pattern_events_are_exact():
    # addi(addi(x, 1), 2) -> addi(x, 3): AddIAddConstant builds a constant and an addi.
    module, result, listener = _run("""
    func.func @f(%x: i32) -> i32 {
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %a = arith.addi %x, %c1 : i32
      %b = arith.addi %a, %c2 : i32
      return %b : i32
    }""")
    assert listener.counts == Counter(inserted=2, replaced=1, modified=1, erased=4)
    assert listener.inserted == ["arith.constant", "arith.addi"]
    assert Counter(listener.erased) == Counter({"arith.addi": 2, "arith.constant": 2})
    assert result.patterns_applied == 1 and result.dead_erased == 3 and result.folds == 0
    ops = _body(module)
    assert _names(ops) == ["arith.constant", "arith.addi", "func.return"]
    assert ops[0].attributes["value"] == IntegerAttr(3, i32)


def test_commutative_constant_moves_to_the_rhs():
    module, result, listener = _run("""
    func.func @f(%x: i32) -> (i32, i32) {
      %c1 = arith.constant 1 : i32
      %a = arith.addi %c1, %x : i32
      %s = arith.subi %c1, %x : i32
      return %a, %s : i32, i32
    }""")
    assert listener.counts == Counter(modified=1)
    assert result.folds == 1 and result.converged
    c1, add, sub, _ = _body(module)
    x = module.regions[0].blocks[0].first_op.regions[0].blocks[0].args[0]
    assert add.operands == [x, c1.results[0]]
    assert sub.operands == [c1.results[0], x]  # not commutative: untouched


def test_dead_pure_ops_are_erased_but_side_effects_and_terminators_stay():
    module, result, listener = _run("""
    func.func @f(%x: i32) -> i32 {
      %c1 = arith.constant 1 : i32
      %a = arith.addi %x, %x : i32
      %b = arith.muli %a, %a : i32
      %k = arith.subi %x, %c1 : i32
      "test.effect"(%k) : (i32) -> ()
      %u = "test.unknown_result"() : () -> i32
      return %x : i32
    }""", unregistered=True)
    assert listener.counts == Counter(erased=2)
    assert sorted(listener.erased) == ["arith.addi", "arith.muli"]
    assert result.dead_erased == 2
    assert _names(_body(module)) == ["arith.constant", "arith.subi", "test.effect",
                                     "test.unknown_result", "func.return"]


def test_is_trivially_dead():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = arith.addi %x, %x : i32
      %b = arith.addi %x, %x : i32
      "test.effect"() : () -> ()
      return %b : i32
    }""", unregistered=True)
    add_a, add_b, effect, ret = _body(module)
    assert is_trivially_dead(add_a)
    assert not is_trivially_dead(add_b)  # used
    assert not is_trivially_dead(effect)  # unregistered: may have effects
    assert not is_trivially_dead(ret)  # a terminator


# ---------------------------------------------------------------------- constants


def test_folded_constants_are_uniqued_and_hoisted_to_the_entry_block():
    module, result, _ = _run("""
    func.func @f(%x: i32) -> (i32, i32) {
      %a = arith.muli %x, %x : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %s = arith.addi %c1, %c2 : i32
      %c3 = arith.constant 3 : i32
      %r = arith.addi %a, %c3 : i32
      %t = arith.muli %a, %s : i32
      return %r, %t : i32, i32
    }""")
    assert result.converged
    ops = _body(module)
    assert _names(ops) == ["arith.constant", "arith.muli", "arith.addi", "arith.muli",
                           "func.return"]
    constant, _, add, mul, _ = ops
    assert constant.attributes["value"] == IntegerAttr(3, i32)
    assert add.operand(1) is constant.results[0]
    assert mul.operand(1) is constant.results[0]
    assert result.constants_deduplicated == 1


def test_constants_hoist_from_later_blocks_to_the_function_entry():
    module, result, _ = _run("""
    func.func @f(%x: i32) -> i32 {
      "test.br"() [^bb1] : () -> ()
    ^bb1:
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %s = arith.addi %c1, %c2 : i32
      %r = arith.addi %x, %s : i32
      return %r : i32
    }""", unregistered=True)
    func = module.regions[0].blocks[0].first_op
    entry, bb1 = func.regions[0].blocks
    entry_ops, bb1_ops = list(entry.ops()), list(bb1.ops())
    assert _names(entry_ops) == ["arith.constant", "test.br"]
    assert entry_ops[0].attributes["value"] == IntegerAttr(3, i32)
    assert _names(bb1_ops) == ["arith.addi", "func.return"]
    assert bb1_ops[0].operand(1) is entry_ops[0].results[0]


def test_constants_are_uniqued_per_function_not_across_functions():
    module, _, _ = _run("""
    func.func @f(%x: i32) -> i32 {
      %c = arith.constant 7 : i32
      %r = arith.addi %x, %c : i32
      return %r : i32
    }
    func.func @g(%x: i32) -> i32 {
      %c = arith.constant 7 : i32
      %r = arith.muli %x, %c : i32
      return %r : i32
    }""")
    for index in (0, 1):
        ops = _body(module, index)
        assert ops[0].name == "arith.constant"
        assert ops[1].operand(1) is ops[0].results[0]


def test_constants_of_different_types_or_values_are_not_merged():
    module, result, _ = _run("""
    func.func @f(%x: i32, %y: i64, %v: tensor<2xi32>) -> (i32, i64, tensor<2xi32>, tensor<2xi32>) {
      %a = arith.constant 5 : i32
      %b = arith.constant 5 : i64
      %d1 = arith.constant dense<[1, 2]> : tensor<2xi32>
      %d2 = arith.constant dense<[1, 3]> : tensor<2xi32>
      %r = arith.muli %x, %a : i32
      %s = arith.muli %y, %b : i64
      %t = arith.muli %v, %d1 : tensor<2xi32>
      %u = arith.muli %v, %d2 : tensor<2xi32>
      return %r, %s, %t, %u : i32, i64, tensor<2xi32>, tensor<2xi32>
    }""")
    assert not result.changed
    assert [op.name for op in _body(module)].count("arith.constant") == 4


def test_constants_are_not_hoisted_out_of_unregistered_op_regions():
    module, _, _ = _run("""
    func.func @f(%x: i32) -> i32 {
      "test.region"() ({
        %c1 = arith.constant 1 : i32
        %c2 = arith.constant 2 : i32
        %a = arith.addi %c1, %c2 : i32
        "test.use"(%a) : (i32) -> ()
      }) : () -> ()
      return %x : i32
    }""", unregistered=True)
    region_op = next(op for op in _body(module) if op.name == "test.region")
    inner = list(region_op.regions[0].blocks[0].ops())
    assert _names(inner) == ["arith.constant", "test.use"]


def test_hoisted_constants_are_reported_to_the_listener():
    _, _, listener = _run("""
    func.func @f(%x: i32) -> i32 {
      %r = arith.muli %x, %x : i32
      %c = arith.constant 7 : i32
      %s = arith.addi %r, %c : i32
      return %s : i32
    }""")
    # The constant moved above the muli: something was (re)inserted.
    assert listener.counts["inserted"] == 1


# ---------------------------------------------------------------------- limits


_NEEDS_TWO_REWRITES = """
func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %a = arith.addi %x, %c1 : i32
  %b = arith.addi %a, %c2 : i32
  %c = arith.addi %b, %c2 : i32
  return %c : i32
}"""


def test_max_iterations_one_does_not_converge_and_warns():
    module, result, _ = _run(_NEEDS_TWO_REWRITES, config=GreedyConfig(max_iterations=1))
    assert not result.converged and result.iterations == 1
    assert len(result.diagnostics) == 1
    diagnostic = result.diagnostics[0]
    assert diagnostic.severity == "warning"
    assert "did not converge" in diagnostic.message
    # The one iteration still did its work.
    assert _names(_body(module)) == ["arith.constant", "arith.addi", "func.return"]


def test_default_iterations_converge_on_the_same_input():
    module, result, _ = _run(_NEEDS_TWO_REWRITES)
    assert result.converged and result.diagnostics == []
    assert result.patterns_applied == 2
    ops = _body(module)
    assert ops[0].attributes["value"] == IntegerAttr(5, i32)


def test_max_iterations_minus_one_means_no_limit():
    _, result, _ = _run(_NEEDS_TWO_REWRITES, config=GreedyConfig(max_iterations=-1))
    assert result.converged and result.diagnostics == []


def test_max_rewrites_stops_early():
    module, result, listener = _run(_NEEDS_TWO_REWRITES, config=GreedyConfig(max_rewrites=1))
    assert not result.converged
    assert result.patterns_applied == 1
    assert len(result.diagnostics) == 1
    assert "maximum of 1 rewrites" in result.diagnostics[0].message
    # Only the first addi pair was combined; the last addi is still there.
    assert _names(_body(module)).count("arith.addi") == 3
    assert listener.counts["replaced"] == 1


def test_max_rewrites_large_enough_converges():
    _, result, _ = _run(_NEEDS_TWO_REWRITES, config=GreedyConfig(max_rewrites=100))
    assert result.converged and result.diagnostics == []


class Recorder(RewritePattern):
    """Applies to nothing; records the order in which ops were offered to it."""

    root = None

    def __init__(self):
        self.seen: list[str] = []

    def match_and_rewrite(self, op, rewriter):
        self.seen.append(op.name)
        return False


_ORDER_INPUT = """
func.func @f(%x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  %b = arith.muli %a, %a : i32
  return %b : i32
}"""


def test_top_down_visits_in_pre_order():
    recorder = Recorder()
    _run(_ORDER_INPUT, PatternSet([recorder]), GreedyConfig(fold=False))
    assert recorder.seen == ["func.func", "arith.addi", "arith.muli", "func.return"]


def test_bottom_up_visits_in_post_order():
    recorder = Recorder()
    _run(_ORDER_INPUT, PatternSet([recorder]), GreedyConfig(fold=False, top_down=False))
    assert recorder.seen == ["arith.addi", "arith.muli", "func.return", "func.func"]


def test_bottom_up_reaches_the_same_fixpoint():
    top_down, _, _ = _run(_NEEDS_TWO_REWRITES)
    bottom_up, result, _ = _run(_NEEDS_TWO_REWRITES, config=GreedyConfig(top_down=False))
    assert result.converged
    assert print_op(bottom_up) == print_op(top_down)


def test_fold_false_neither_folds_nor_reorders_but_still_erases_and_rewrites():
    module, result, listener = _run("""
    func.func @f(%x: i32) -> (i32, i32) {
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %s = arith.addi %c1, %c2 : i32
      %t = arith.addi %c1, %x : i32
      %dead = arith.muli %x, %x : i32
      %a = arith.addi %x, %c1 : i32
      %b = arith.addi %a, %c2 : i32
      return %s, %b : i32, i32
    }""", config=GreedyConfig(fold=False))
    assert result.converged
    assert result.folds == 0 and result.patterns_applied == 1
    ops = _body(module)
    # %s is not folded; the dead %t and %dead are erased; AddIAddConstant applied.
    s = ops[2]
    assert s.name == "arith.addi" and s.operands == [ops[0].results[0], ops[1].results[0]]
    assert "arith.muli" not in _names(ops)
    ret = ops[-1]
    final = ret.operand(1).defining_op
    assert final.name == "arith.addi"
    assert final.operand(1).defining_op.attributes["value"] == IntegerAttr(3, i32)


# ---------------------------------------------------------------------- code patterns


class RefuseAddI(RewritePattern):
    """Never applies to arith.addi, and says why."""

    root = "arith.addi"
    benefit = 5

    def match_and_rewrite(self, op, rewriter):
        return rewriter.notify_match_failure(op, "unit test: addi refused")


class SubIToAddI(RewritePattern):
    """subi(x, c) -> addi(x, -c) for an i32 constant c."""

    root = "arith.subi"

    def match_and_rewrite(self, op, rewriter):
        rhs = op.operand(1).defining_op
        if rhs is None or rhs.name != "arith.constant":
            return rewriter.notify_match_failure(op, "rhs is not a constant")
        value = rhs.attributes["value"]
        negated = rewriter.create(ConstantOp, value=IntegerAttr(-value.value, value.type))
        rewriter.replace_op_with_new(op, AddIOp, op.operand(0), negated.results[0])
        return True


def test_match_failure_reasons_reach_the_listener():
    module, result, listener = _run("""
    func.func @f(%x: i32, %y: i32) -> i32 {
      %a = arith.addi %x, %y : i32
      return %a : i32
    }""", PatternSet([RefuseAddI()]))
    assert listener.failures == [("arith.addi", "unit test: addi refused")]
    assert listener.counts == Counter(failures=1)
    assert result.converged and not result.changed


def test_code_pattern_rewrites_and_reports_failures():
    module, result, listener = _run("""
    func.func @f(%x: i32, %y: i32) -> (i32, i32) {
      %c = arith.constant 4 : i32
      %a = arith.subi %x, %c : i32
      %b = arith.subi %x, %y : i32
      return %a, %b : i32, i32
    }""", PatternSet([SubIToAddI()]))
    assert result.patterns_applied == 1 and result.converged
    # The failure on %b is reported once per iteration that visits it.
    assert set(listener.failures) == {("arith.subi", "rhs is not a constant")}
    ops = _body(module)
    assert _names(ops) == ["arith.constant", "arith.addi", "arith.subi", "func.return"]
    assert ops[0].attributes["value"] == IntegerAttr(-4, i32)


def test_patterns_are_tried_by_decreasing_benefit():
    calls = []

    class Low(RewritePattern):
        root = "arith.muli"
        benefit = 1

        def match_and_rewrite(self, op, rewriter):
            calls.append("low")
            return False

    class High(RewritePattern):
        root = "arith.muli"
        benefit = 10

        def match_and_rewrite(self, op, rewriter):
            calls.append("high")
            return False

    class Any(RewritePattern):
        root = None
        benefit = 5

        def match_and_rewrite(self, op, rewriter):
            if op.name == "arith.muli":
                calls.append("any")
            return False

    patterns = PatternSet([Low(), High(), Any()])
    assert [type(p).__name__ for p in patterns.for_op("arith.muli")] == ["High", "Any", "Low"]
    _run("""
    func.func @f(%x: i32) -> i32 {
      %m = arith.muli %x, %x : i32
      return %m : i32
    }""", patterns)
    assert calls == ["high", "any", "low"]


def test_pattern_set_filtering_by_name():
    patterns = PatternSet([RefuseAddI(), SubIToAddI()])
    assert [p.name for p in patterns.filtered(enabled=["SubIToAddI"])] == ["SubIToAddI"]
    assert [p.name for p in patterns.filtered(disabled=["SubIToAddI"])] == ["RefuseAddI"]
    assert len(patterns.filtered()) == 2
    assert RefuseAddI().describe() == "Never applies to arith.addi, and says why."


# ---------------------------------------------------------------------- walk driver


class MulToAdd(RewritePattern):
    """muli(x, y) -> addi(x, y) (nonsense, but easy to see)."""

    root = "arith.muli"

    def match_and_rewrite(self, op, rewriter):
        rewriter.replace_op_with_new(op, AddIOp, op.operand(0), op.operand(1))
        return True


class AddToSub(RewritePattern):
    """addi(x, y) -> subi(x, y)."""

    root = "arith.addi"

    def match_and_rewrite(self, op, rewriter):
        rewriter.replace_op_with_new(op, SubIOp, op.operand(0), op.operand(1))
        return True


def test_walk_driver_applies_once_per_op_without_revisiting_new_ops():
    module = _parse("""
    func.func @f(%x: i32) -> (i32, i32, i32) {
      %m = arith.muli %x, %x : i32
      %a = arith.addi %x, %x : i32
      %c = arith.constant 1 : i32
      %dead = arith.addi %c, %c : i32
      return %m, %a, %a : i32, i32, i32
    }""")
    listener = CountingListener()
    applied = apply_patterns_once(module, PatternSet([MulToAdd(), AddToSub()]), listener)
    verify(module)
    assert applied == 3
    ops = _body(module)
    # The addi created from the muli is not rewritten again; no folding, no DCE.
    assert _names(ops) == ["arith.addi", "arith.subi", "arith.constant", "arith.subi",
                           "func.return"]
    assert listener.counts == Counter(inserted=3, replaced=3, modified=2, erased=3)


def test_walk_driver_without_matches():
    module = _parse(_ORDER_INPUT)
    before = print_op(module)
    assert apply_patterns_once(module, PatternSet([RefuseAddI()])) == 0
    assert print_op(module) == before


def test_builders_used_by_patterns_infer_types():
    # A sanity check of the builders the patterns above rely on.
    module = _parse(_ORDER_INPUT)
    add = _body(module)[0]
    mul = MulIOp.build(add.results[0], add.results[0])
    assert mul.result_types == [i32]


# ---------------------------------------------------------------------- what folders return

unit_fold = Dialect("unitfold", "Ops whose folders return each kind of answer.")


@unit_fold.op
class ForwardOp(Op):
    """One result; folds to its operand: a single Value, not a list."""

    name = "unitfold.forward"
    input = OperandDef()
    output = ResultDef()
    traits = (Pure,)

    def fold(self, operands):
        return self.input


@unit_fold.op
class SwapOp(Op):
    """Two results; folds to its operands swapped: a list, one value per result."""

    name = "unitfold.swap"
    a = OperandDef()
    b = OperandDef()
    first = ResultDef()
    second = ResultDef()
    traits = (Pure,)

    def fold(self, operands):
        return [self.b, self.a]


@unit_fold.op
class ShortOp(Op):
    """Two results, but a folder that answers for one: not folded."""

    name = "unitfold.short"
    input = OperandDef()
    first = ResultDef()
    second = ResultDef()
    traits = (Pure,)

    def fold(self, operands):
        return [self.input]


def test_single_and_multi_result_folders():
    module = parse_module("""
    func.func @f(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32) {
      %a = "unitfold.forward"(%x) : (i32) -> i32
      %s:2 = "unitfold.swap"(%x, %y) : (i32, i32) -> (i32, i32)
      %t:2 = "unitfold.short"(%x) : (i32) -> (i32, i32)
      return %a, %s#0, %s#1, %t#0, %t#1 : i32, i32, i32, i32, i32
    }""", Context([unit_fold]))
    result = apply_patterns_greedily(module, PatternSet())
    verify(module)
    assert result.folds == 2
    x, y = module.regions[0].blocks[0].first_op.regions[0].blocks[0].args
    short, ret = _body(module)
    assert short.name == "unitfold.short"
    assert ret.operands == [x, y, x, *short.results]


def test_single_result_folders_return_one_attribute_or_none():
    module = _parse("""
    func.func @f(%x: i32) -> (i32, i32) {
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %a = arith.addi %c2, %c3 : i32
      %b = arith.addi %x, %c3 : i32
      return %a, %b : i32, i32
    }""")
    c2, c3, a, b, _ = _body(module)
    assert a.fold([c2.value, c3.value]) == IntegerAttr(5, i32)
    assert b.fold([None, c3.value]) is None


UNREACHABLE = """
func.func @f(%x: i64) -> i64 {
  return %x : i64
^dead:
  %c1 = arith.constant 1 : i64
  %add = arith.addi %add, %c1 : i64
  %other = arith.addi %add, %c1 : i64
  "test.use_parts"(%other) : (i64) -> ()
  return %add : i64
}
"""


def test_unreachable_blocks_go_before_patterns_run():
    # An op using its own result (legal where no path arrives) would make
    # AddIAddConstant rewrite itself forever, as MLIR found (its driver, like this one,
    # erases such blocks first).
    module = parse_module(UNREACHABLE, Context(["arith", "test"]))
    result = apply_patterns_greedily(module, canonicalization_patterns(Context(["arith"])))
    assert result.converged
    func = next(op for op in module.walk() if op.name == "func.func")
    assert len(func.regions[0].blocks) == 1
    assert [op.name for op in module.walk() if op.name.startswith("arith.")] == []
