"""Declarative (DAG) rewrite patterns built as data at run time: printing, matching,
constraints, native hooks, captures, and application through both drivers."""

from collections import Counter

import pytest

from mlc.ir import Context, IntegerAttr, i1, i8, i32, parse_module, print_op, verify
from mlc.ir.dialects.arith import AddIOp, CmpIOp, CmpIPredicate, ConstantOp, MulIOp, SubIOp, XOrIOp
from mlc.ir.rewrite.drr import A, AttrIs, Check, Const, Dag, DagPattern, Native, V
from mlc.ir.rewrite.greedy import GreedyConfig, apply_patterns_greedily, apply_patterns_once
from mlc.ir.rewrite.pattern import PatternError, PatternSet
from mlc.ir.rewrite.rewriter import RewriterListener

# ---------------------------------------------------------------------- hooks

CALLS: Counter[str] = Counter()


def two_like(value):
    """2 of the type of a bound value."""
    CALLS["two_like"] += 1
    return IntegerAttr(2, value.type)


def square(attr):
    return IntegerAttr(attr.value * attr.value, attr.type)


def decline(attr):
    CALLS["decline"] += 1
    return None


def never(*args):
    CALLS["never"] += 1
    return False


def is_slt(predicate):
    return CmpIPredicate.keyword(predicate) == "slt"


SEEN_OPS: list = []


def compares_i32(op):
    SEEN_OPS.append(op)
    return op.operand(0).type == i32


class FailureListener(RewriterListener):
    def __init__(self):
        self.failures = []

    def notify_match_failure(self, op, reason):
        self.failures.append((op.name, reason))


def _parse(text: str):
    module = parse_module(text, Context())
    verify(module)
    return module


def _greedy(module, *patterns, fold=True):
    listener = FailureListener()
    result = apply_patterns_greedily(module, PatternSet(patterns), GreedyConfig(fold=fold),
                                     listener)
    verify(module)
    return result, listener


def _body(module):
    func = module.regions[0].blocks[0].first_op
    return list(func.regions[0].blocks[0].ops())


def _names(module):
    return [op.name for op in _body(module)]


# ---------------------------------------------------------------------- a pattern from data


def _add_self_to_mul() -> DagPattern:
    """Built at run time: addi(x, x) -> muli(x, 2)."""
    source = Dag("arith.addi", V("x"), V("x"))
    result = Dag("arith.muli", V("x"), Dag("arith.constant", value=Native(two_like, "x")))
    return DagPattern("UnitTestAddSelfToMul", source, result, doc="addi(x, x) -> muli(x, 2)")


def test_pattern_built_at_run_time_prints_its_dag():
    pattern = _add_self_to_mul()
    assert str(pattern) == ("UnitTestAddSelfToMul: (arith.addi $x, $x) -> "
                            "(arith.muli $x, (arith.constant {value = two_like($x)}))")
    assert pattern.name == "UnitTestAddSelfToMul"
    assert pattern.root == "arith.addi"
    assert pattern.benefit == 1
    assert pattern.describe() == "addi(x, x) -> muli(x, 2)"


def test_pattern_built_at_run_time_applies_greedily():
    module = _parse("""
    func.func @f(%x: i32, %y: i32) -> (i32, i32) {
      %a = arith.addi %x, %x : i32
      %b = arith.addi %x, %y : i32
      return %a, %b : i32, i32
    }""")
    result, _ = _greedy(module, _add_self_to_mul())
    assert result.converged and result.patterns_applied == 1
    ops = _body(module)
    assert [op.name for op in ops] == ["arith.constant", "arith.muli", "arith.addi", "func.return"]
    constant, mul, add, ret = ops
    x, y = module.regions[0].blocks[0].first_op.regions[0].blocks[0].args
    assert constant.attributes["value"] == IntegerAttr(2, i32)
    assert mul.operands == [x, constant.results[0]]
    # Repeated capture names require the same value: addi(x, y) is left alone.
    assert add.operands == [x, y]
    assert ret.operands == [mul.results[0], add.results[0]]


def test_the_dag_printing_of_every_node_kind():
    source = Dag("arith.cmpi", Dag("arith.addi", V("x"), Const("c")), Const(equals=IntegerAttr(1, i32)),
                 predicate=A("p"), bind="root")
    assert str(source) == ("(arith.cmpi:$root {predicate = $p} (arith.addi $x, (constant $c)), "
                           "(constant 1 : i32))")
    assert str(Const("c", IntegerAttr(3, i32))) == "(constant $c = 3 : i32)"
    assert str(Dag("test.nothing")) == "(test.nothing)"
    assert str(Check(never, "a", "b")) == "never($a, $b)"
    assert str(Native(square, "c")) == "square($c)"
    pattern = DagPattern("UnitTestWhere", Dag("arith.addi", V("x"), V("y")), V("x"),
                         [Check(never, "x")])
    assert str(pattern) == "UnitTestWhere: (arith.addi $x, $y) -> $x where never($x)"


def test_dag_nodes_are_plain_comparable_data():
    assert Dag("arith.addi", V("x"), V("y")) == Dag("arith.addi", V("x"), V("y"))
    assert Dag("arith.addi", V("x"), V("y")) != Dag("arith.addi", V("y"), V("x"))
    assert Dag("a.b", x=A("p")) == Dag("a.b", x=A("p"))
    assert hash(Native("f", "a", "b")) == hash(Native("f", "a", "b"))


def test_result_may_be_a_captured_value():
    # subi(addi(x, y), y) -> x
    pattern = DagPattern("UnitTestAddSub", Dag("arith.subi", Dag("arith.addi", V("x"), V("y")), V("y")),
                         V("x"))
    module = _parse("""
    func.func @f(%x: i32, %y: i32, %z: i32) -> (i32, i32) {
      %a = arith.addi %x, %y : i32
      %b = arith.subi %a, %y : i32
      %c = arith.subi %a, %z : i32
      return %b, %c : i32, i32
    }""")
    result, _ = _greedy(module, pattern, fold=False)  # subi's folder knows this one too
    assert result.patterns_applied == 1
    ret = _body(module)[-1]
    x = module.regions[0].blocks[0].first_op.regions[0].blocks[0].args[0]
    assert ret.operand(0) is x
    assert ret.operand(1).defining_op.name == "arith.subi"


def high_unused(op):
    return not op.results[1].uses


def test_a_root_with_several_results_is_replaced_by_a_tuple_of_results():
    # mului_extended(x, y) -> [muli(x, y), x] when the high half is unused.
    pattern = DagPattern("UnitTestLowOnly",
                         Dag("arith.mului_extended", V("x"), V("y"), bind="root"),
                         (Dag(MulIOp, V("x"), V("y")), V("x")), [Check(high_unused, "root")])
    assert str(pattern) == ("UnitTestLowOnly: (arith.mului_extended:$root $x, $y) -> "
                            "[(arith.muli $x, $y), $x] where high_unused($root)")
    module = _parse("""
    func.func @f(%x: i8, %y: i8) -> (i8, i8, i8) {
      %a:2 = arith.mului_extended %x, %y : i8
      %b:2 = arith.mului_extended %y, %x : i8
      return %a#0, %b#0, %b#1 : i8, i8, i8
    }""")
    result, _ = _greedy(module, pattern, fold=False)
    assert result.patterns_applied == 1
    assert _names(module) == ["arith.muli", "arith.mului_extended", "func.return"]
    muli = _body(module)[0]
    assert muli.result_types == [i8] and _body(module)[-1].operand(0) is muli.results[0]


def test_a_tuple_of_results_has_one_per_result_of_the_root():
    _rejected("'arith.mului_extended' has 2 results, the pattern gives 3 replacements",
              Dag("arith.mului_extended", V("x"), V("y")), (V("x"), V("y"), V("x")))
    _rejected("'arith.addi' has 1 result, the pattern gives 2 replacements",
              Dag(AddIOp, V("x"), V("y")), (V("x"), V("y")))
    _rejected("not tuples", Dag("arith.mului_extended", V("x"), V("y")), ((V("x"),), V("y")))
    _rejected("must not be empty", Dag(AddIOp, V("x"), V("y")), ())


# ---------------------------------------------------------------------- construction errors


def _rejected(message: str, source, result, constraints=(), **kwargs) -> None:
    """Building the pattern fails with a PatternError naming it and saying `message`."""
    with pytest.raises(PatternError) as caught:
        DagPattern("UnitTestBad", source, result, constraints, **kwargs)
    assert str(caught.value).startswith("pattern 'UnitTestBad': ")
    assert message in str(caught.value), str(caught.value)


def test_ops_are_given_as_classes_or_names():
    by_class = DagPattern("UnitTestByClass", Dag(AddIOp, V("x"), Const("c")), V("x"))
    by_name = DagPattern("UnitTestByName", Dag("arith.addi", V("x"), Const("c")), V("x"))
    assert by_class.source == by_name.source
    assert by_class.source.op_class is by_name.source.op_class is AddIOp
    assert str(by_class) == "UnitTestByClass: (arith.addi $x, (constant $c)) -> $x"
    assert by_class.root == by_name.root == "arith.addi"


def test_unknown_ops_are_rejected_at_construction():
    _rejected("unknown op 'arith.addx'", Dag("arith.addi", Dag("arith.addx", V("x"), V("y")), V("y")),
              V("x"))
    _rejected("unknown op 'arith.mul'", Dag(AddIOp, V("x"), V("y")), Dag("arith.mul", V("x"), V("y")))
    _rejected("unknown op 'nodialect.op'", Dag("nodialect.op", V("x")), V("x"))
    with pytest.raises(TypeError, match="op class or an op name"):
        Dag(int, V("x"))


def test_unregistered_source_ops_match_by_name_when_the_context_allows_them():
    pattern = DagPattern("UnitTestUnregistered", Dag("x.forward", V("v")), V("v"),
                         context=Context(allow_unregistered=True))
    module = parse_module("""
    func.func @f(%a: i32) -> i32 {
      %b = "x.forward"(%a) : (i32) -> i32
      return %b : i32
    }""", Context(allow_unregistered=True))
    assert apply_patterns_once(module, PatternSet([pattern])) == 1
    # A result op must still be buildable, so it must be registered.
    _rejected("unknown op 'x.make'", Dag("x.forward", V("v")), Dag("x.make", V("v")),
              context=Context(allow_unregistered=True))


def test_wrong_operand_counts_are_rejected_at_construction():
    _rejected("'arith.addi' takes 2 operands, the DAG gives 3",
              Dag(AddIOp, V("x"), V("y"), V("z")), V("x"))
    _rejected("'arith.subi' takes 2 operands, the DAG gives 1",
              Dag(AddIOp, V("x"), V("y")), Dag("arith.subi", V("x")))
    _rejected("'arith.negf' takes 1 operand, the DAG gives 2",
              Dag(AddIOp, Dag("arith.negf", V("a"), V("b")), V("y")), V("y"))


def test_undeclared_attributes_are_rejected_at_construction():
    _rejected("'arith.cmpi' declares no attribute 'predicat'",
              Dag("arith.cmpi", V("a"), V("b"), predicat=A("p")), V("a"))


def test_hooks_are_named_functions():
    _rejected("constraint 'is_slt' is a name: pass the function itself",
              Dag(AddIOp, V("x"), V("y")), V("x"), [Check("is_slt", "x")])
    _rejected("a constraint must be a named function",
              Dag(AddIOp, V("x"), V("y")), V("x"), [Check(lambda x: True, "x")])
    nested = Dag(AddIOp, V("x"), Dag(AddIOp, V("x"), Dag(ConstantOp, value=Native(3))))
    _rejected("native function 3 is not callable", Dag(AddIOp, V("x"), V("y")), nested)


def test_captures_must_be_bound_once_per_kind_and_used_as_bound():
    _rejected("$typo is not captured by the source DAG",
              Dag(AddIOp, V("x"), V("y")), V("x"), [Check(never, "typo")])
    _rejected("$z is not captured by the source DAG", Dag(AddIOp, V("x"), V("y")), V("z"))
    _rejected("$x captures both a value and an attribute",
              Dag(AddIOp, V("x"), Const("x")), V("x"))
    _rejected("$p is used as a value but captures an attribute",
              Dag("arith.cmpi", V("a"), V("b"), predicate=A("p")), V("p"))
    _rejected("$root captures both an op and a value",
              Dag(AddIOp, V("root"), V("y"), bind="root"), V("y"))
    _rejected("captures are made in the source DAG",
              Dag(AddIOp, V("x"), V("y")), Dag(SubIOp, V("x"), V("y"), bind="r"))


# ---------------------------------------------------------------------- constraints and natives


def test_failing_constraint_prevents_the_rewrite():
    CALLS.clear()
    pattern = DagPattern("UnitTestNever", Dag("arith.addi", V("x"), V("x")), V("x"),
                         [Check(never, "x")])
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = arith.addi %x, %x : i32
      return %a : i32
    }""")
    before = print_op(module)
    result, _ = _greedy(module, pattern)
    assert print_op(module) == before
    assert result.patterns_applied == 0 and result.converged
    assert CALLS["never"] == 1


def test_native_returning_none_declines_without_changing_the_ir():
    CALLS.clear()
    pattern = DagPattern(
        "UnitTestDecline", Dag("arith.muli", V("x"), Const("c")),
        Dag("arith.muli", V("x"), Dag("arith.constant", value=Native(decline, "c"))))
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %c = arith.constant 3 : i32
      %a = arith.muli %x, %c : i32
      return %a : i32
    }""")
    before = print_op(module)
    result, listener = _greedy(module, pattern)
    assert print_op(module) == before
    assert result.patterns_applied == 0 and not result.changed
    assert CALLS["decline"] == 1
    assert listener.failures == [("arith.muli", "UnitTestDecline: decline declined")]


def test_constraint_sees_the_bound_op_and_attributes_are_captured_and_set():
    SEEN_OPS.clear()
    # cmpi slt(a, b) -> cmpi sgt(b, a), for i32 operands only.
    pattern = DagPattern(
        "UnitTestSwapSlt",
        Dag("arith.cmpi", Dag("arith.addi", V("a"), V("k")), V("b"), predicate=A("p"), bind="root"),
        Dag("arith.cmpi", V("b"), Dag("arith.addi", V("a"), V("k")),
            predicate=AttrIs(CmpIPredicate.attr("sgt"))),
        [Check(is_slt, "p"), Check(compares_i32, "root")])
    module = _parse("""
    func.func @f(%x: i32, %y: i32) -> (i1, i1) {
      %s = arith.addi %x, %y : i32
      %a = arith.cmpi slt, %s, %y : i32
      %b = arith.cmpi ult, %s, %y : i32
      return %a, %b : i1, i1
    }""")
    result, _ = _greedy(module, pattern)
    assert result.patterns_applied == 1
    ret = _body(module)[-1]
    new, kept = (v.defining_op for v in ret.operands)
    x, y = module.regions[0].blocks[0].first_op.regions[0].blocks[0].args
    assert CmpIPredicate.keyword(new.attributes["predicate"]) == "sgt"
    assert new.operand(0) is y
    assert new.operand(1).defining_op.operands == [x, y]
    assert new.results[0].type == i1
    assert CmpIPredicate.keyword(kept.attributes["predicate"]) == "ult"
    # The constraint on $root received the root op itself; constraints run in order,
    # so the ult comparison, refused by the first, never reached it.
    assert [op.name for op in SEEN_OPS] == ["arith.cmpi"]
    assert CmpIPredicate.keyword(SEEN_OPS[0].attributes["predicate"]) == "slt"


def test_attr_is_matches_only_that_attribute_value():
    # cmpi eq(a, b) -> cmpi eq(b, a): applied once by the walk driver (greedily it
    # would swap forever).
    eq = AttrIs(CmpIPredicate.attr("eq"))
    pattern = DagPattern("UnitTestSwapEq", Dag("arith.cmpi", V("a"), V("b"), predicate=eq),
                         Dag("arith.cmpi", V("b"), V("a"), predicate=eq))
    module = _parse("""
    func.func @f(%x: i32, %y: i32) -> (i1, i1) {
      %a = arith.cmpi eq, %x, %y : i32
      %b = arith.cmpi ne, %x, %y : i32
      return %a, %b : i1, i1
    }""")
    assert apply_patterns_once(module, PatternSet([pattern])) == 1
    verify(module)
    x, y = module.regions[0].blocks[0].first_op.regions[0].blocks[0].args
    swapped, kept, _ = _body(module)
    assert swapped.operands == [y, x]
    assert kept.operands == [x, y]


def test_repeated_constant_captures_require_equal_values():
    # muli(c, c) with both operands the same constant value -> constant c*c.
    pattern = DagPattern("UnitTestSquare", Dag("arith.muli", Const("c"), Const("c")),
                         Dag("arith.constant", value=Native(square, "c")))
    module = _parse("""
    func.func @f() -> (i32, i32) {
      %a = arith.constant 3 : i32
      %b = arith.constant 3 : i32
      %c = arith.constant 4 : i32
      %same = arith.muli %a, %b : i32
      %different = arith.muli %a, %c : i32
      return %same, %different : i32, i32
    }""")
    assert apply_patterns_once(module, PatternSet([pattern])) == 1
    verify(module)
    ret = _body(module)[-1]
    squared, different = (v.defining_op for v in ret.operands)
    assert squared.name == "arith.constant"
    assert squared.attributes["value"] == IntegerAttr(9, i32)
    assert different.name == "arith.muli"


def test_an_attribute_captured_twice_must_be_equal():
    # xori(cmpi p (a, b), cmpi p (a, b)) -> false: the same predicate on the same values.
    compare = Dag(CmpIOp, V("a"), V("b"), predicate=A("p"))
    pattern = DagPattern("UnitTestXorSameCompare", Dag(XOrIOp, compare, compare),
                         Dag(ConstantOp, value=AttrIs(IntegerAttr(0, i1))))
    module = _parse("""
    func.func @f(%x: i32, %y: i32) -> (i1, i1, i1) {
      %s1 = arith.cmpi slt, %x, %y : i32
      %s2 = arith.cmpi slt, %x, %y : i32
      %g = arith.cmpi sgt, %x, %y : i32
      %h = arith.cmpi slt, %y, %x : i32
      %same = arith.xori %s1, %s2 : i1
      %other_predicate = arith.xori %s1, %g : i1
      %other_operands = arith.xori %s1, %h : i1
      return %same, %other_predicate, %other_operands : i1, i1, i1
    }""")
    same, other_predicate, other_operands = _body(module)[4:7]
    assert pattern.match(same) is not None
    assert pattern.match(other_predicate) is None
    assert pattern.match(other_operands) is None
    assert apply_patterns_once(module, PatternSet([pattern])) == 1
    verify(module)
    assert _body(module)[-1].operand(0).defining_op.attributes["value"] == IntegerAttr(0, i1)


def test_an_op_captured_twice_must_be_the_same_op():
    # addi(m, m) with m = muli(a, b) -> muli(addi(a, a), b); two equal mulis are two ops.
    product = Dag(MulIOp, V("a"), V("b"), bind="m")
    pattern = DagPattern("UnitTestDoubleProduct", Dag(AddIOp, product, product),
                         Dag(MulIOp, Dag(AddIOp, V("a"), V("a")), V("b")))
    module = _parse("""
    func.func @f(%x: i32, %y: i32) -> (i32, i32) {
      %m = arith.muli %x, %y : i32
      %n = arith.muli %x, %y : i32
      %one_op = arith.addi %m, %m : i32
      %two_ops = arith.addi %m, %n : i32
      return %one_op, %two_ops : i32, i32
    }""")
    one_op, two_ops = _body(module)[2:4]
    assert pattern.match(one_op) is not None
    assert pattern.match(two_ops) is None


def test_const_equals_and_non_constant_operands():
    true = IntegerAttr(1, i1)
    # xori(b, true) -> xori(b, true): only checks what matches.
    pattern = DagPattern("UnitTestXorTrue", Dag("arith.xori", V("b"), Const(equals=true)), V("b"))
    module = _parse("""
    func.func @f(%p: i1, %q: i1) -> (i1, i1, i1) {
      %t = arith.constant true
      %f = arith.constant false
      %a = arith.xori %p, %t : i1
      %b = arith.xori %p, %f : i1
      %c = arith.xori %p, %q : i1
      return %a, %b, %c : i1, i1, i1
    }""")
    assert pattern.match(_body(module)[2]) is not None
    assert pattern.match(_body(module)[3]) is None  # false, not true
    assert pattern.match(_body(module)[4]) is None  # not a constant
    bindings = pattern.match(_body(module)[2])
    p = module.regions[0].blocks[0].first_op.regions[0].blocks[0].args[0]
    assert bindings == {"b": p}


def test_block_arguments_do_not_match_nested_dags():
    pattern = DagPattern("UnitTestNested", Dag("arith.addi", Dag("arith.muli", V("x"), V("y")), V("z")),
                         V("z"))
    module = _parse("""
    func.func @f(%x: i32, %y: i32) -> i32 {
      %a = arith.addi %x, %y : i32
      return %a : i32
    }""")
    assert pattern.match(_body(module)[0]) is None


def test_higher_benefit_declarative_pattern_wins():
    low = DagPattern("UnitTestLow", Dag("arith.subi", V("x"), V("y")), V("x"))
    high = DagPattern("UnitTestHigh", Dag("arith.subi", V("x"), V("y")), V("y"), benefit=3)
    assert [p.name for p in PatternSet([low, high]).for_op("arith.subi")] == ["UnitTestHigh",
                                                                               "UnitTestLow"]
    module = _parse("""
    func.func @f(%x: i32, %y: i32) -> i32 {
      %a = arith.subi %x, %y : i32
      return %a : i32
    }""")
    _greedy(module, low, high)
    y = module.regions[0].blocks[0].first_op.regions[0].blocks[0].args[1]
    assert _body(module)[-1].operands == [y]


def test_natives_run_once_per_successful_match():
    CALLS.clear()
    module = _parse("""
    func.func @f(%x: i32, %y: i32) -> (i32, i32) {
      %a = arith.addi %x, %x : i32
      %b = arith.addi %y, %y : i32
      return %a, %b : i32, i32
    }""")
    result, _ = _greedy(module, _add_self_to_mul())
    assert result.patterns_applied == 2
    assert CALLS["two_like"] == 2
    assert _names(module).count("arith.constant") == 1  # uniqued by the folder
