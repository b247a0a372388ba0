"""The generic passes: cse, dce, symbol-dce, reconcile-unrealized-casts and
canonicalize's options, run through the pass manager."""


from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.opdef.declare import Op, OperandDef, RegionDef
from mlc.ir.opdef.traits import NoTerminator
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.generic.cse import eliminate_common_subexpressions
from mlc.ir.passes.generic.dce import erase_dead_ops, erase_unreachable_blocks
from mlc.ir.passes.generic.reconcile_casts import reconcile_unrealized_casts
from mlc.ir.passes.generic.symbol_dce import erase_dead_symbols
from mlc.ir.passes.instruments import Statistics
from mlc.ir.passes.manager import run_pipeline

# A registered op with two regions that are not isolated from above (no such op
# exists in the core dialects), and an op with side effects.
unit_cse = Dialect("unittestgeneric", "(unit test) region ops for CSE")


@unit_cse.op
class TwoRegionsOp(Op):
    """Two regions that see the values defined above."""

    name = "unittestgeneric.two_regions"
    first = RegionDef()
    second = RegionDef()
    traits = (NoTerminator,)


@unit_cse.op
class UseOp(Op):
    """Uses its operands (and has side effects)."""

    name = "unittestgeneric.use"
    inputs = OperandDef(variadic=True)


def _parse(text: str):
    module = parse_module(text, Context([unit_cse], allow_unregistered=True))
    verify(module)
    return module


def _run(module, pipeline: str, opt_level: int = 3, instruments=()):
    with PassContext(opt_level=opt_level, instruments=list(instruments)):
        result = run_pipeline(module, pipeline)
    if result.success:
        verify(module)
    return result


def _count(module, name: str) -> int:
    return sum(1 for op in module.walk() if op.name == name)


def _func(module, index: int = 0):
    return list(module.regions[0].ops())[index]


# ---------------------------------------------------------------------- cse


def test_cse_merges_equal_pure_ops_in_a_block():
    module = _parse("""
    func.func @f(%x: i32) -> (i32, i32, i32, i32) {
      %c1 = arith.constant 1 : i32
      %c1b = arith.constant 1 : i32
      %a = arith.addi %x, %c1 : i32
      %b = arith.addi %x, %c1b : i32
      %m = arith.muli %a, %b : i32
      %n = arith.muli %b, %a : i32
      return %a, %b, %m, %n : i32, i32, i32, i32
    }""")
    assert _run(module, "builtin.module(func.func(cse))").success
    assert _count(module, "arith.constant") == 1
    assert _count(module, "arith.addi") == 1
    # muli(a, a) twice after merging: equal operands, so merged too.
    assert _count(module, "arith.muli") == 1
    ret = _func(module).regions[0].blocks[0].last_op
    assert ret.operand(0) is ret.operand(1) and ret.operand(2) is ret.operand(3)


def test_cse_keeps_ops_that_differ_in_attributes_or_types():
    module = _parse("""
    func.func @f(%x: i32, %y: i32) -> (i1, i1, i64, i64, i32) {
      %a = arith.cmpi slt, %x, %y : i32
      %b = arith.cmpi sgt, %x, %y : i32
      %c = arith.extsi %x : i32 to i64
      %d = arith.extui %x : i32 to i64
      %e = arith.addi %x, %y : i32
      return %a, %b, %c, %d, %e : i1, i1, i64, i64, i32
    }""")
    before = print_op(module)
    assert _run(module, "builtin.module(func.func(cse))").success
    assert print_op(module) == before


def test_cse_does_not_merge_side_effecting_or_unregistered_ops():
    module = _parse("""
    func.func private @callee(i32) -> i32
    func.func @f(%x: i32) -> (i32, i32, i32, i32) {
      %a = func.call @callee(%x) : (i32) -> i32
      %b = func.call @callee(%x) : (i32) -> i32
      %c = "test.op"(%x) : (i32) -> i32
      %d = "test.op"(%x) : (i32) -> i32
      "unittestgeneric.use"(%x) : (i32) -> ()
      "unittestgeneric.use"(%x) : (i32) -> ()
      return %a, %b, %c, %d : i32, i32, i32, i32
    }""")
    before = print_op(module)
    assert _run(module, "builtin.module(func.func(cse))").success
    assert print_op(module) == before


_CFG = """
func.func @f(%x: i32, %c: i1) -> i32 {
  %e = arith.muli %x, %x : i32
  "unittestgeneric.use"(%e) : (i32) -> ()
  "test.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  %a = arith.addi %x, %x : i32
  %ea = arith.muli %x, %x : i32
  "unittestgeneric.use"(%a, %ea) : (i32, i32) -> ()
  "test.br"() [^bb3] : () -> ()
^bb2:
  %b = arith.addi %x, %x : i32
  %eb = arith.muli %x, %x : i32
  "unittestgeneric.use"(%b, %eb) : (i32, i32) -> ()
  "test.br"() [^bb3] : () -> ()
^bb3:
  %d = arith.addi %x, %x : i32
  %ed = arith.muli %x, %x : i32
  "unittestgeneric.use"(%d, %ed) : (i32, i32) -> ()
  return %d : i32
}
"""


def test_cse_is_scoped_by_dominance_across_blocks():
    module = _parse(_CFG)
    assert _run(module, "builtin.module(func.func(cse))").success
    entry, bb1, bb2, bb3 = _func(module).regions[0].blocks
    e = entry.first_op.results[0]
    # The muli of the entry block dominates every block: all its copies merge into it.
    assert _count(module, "arith.muli") == 1
    # No addi dominates another: the sibling blocks and the join keep theirs.
    adds = [op for block in (bb1, bb2, bb3) for op in block.ops() if op.name == "arith.addi"]
    assert len(adds) == 3
    for block, add in zip((bb1, bb2, bb3), adds):
        use = next(op for op in block.ops() if op.name == "unittestgeneric.use")
        assert use.operands == [add.results[0], e]


_REGIONS = """
func.func @f(%x: i32) -> i32 {
  %early = arith.addi %x, %x : i32
  "unittestgeneric.two_regions"() ({
    %a = arith.addi %x, %x : i32
    %m = arith.muli %x, %x : i32
    "unittestgeneric.use"(%a, %m) : (i32, i32) -> ()
  }, {
    %m2 = arith.muli %x, %x : i32
    "unittestgeneric.use"(%m2) : (i32) -> ()
  }) : () -> ()
  return %early : i32
}
"""


def test_cse_merges_into_nested_regions_but_not_across_sibling_regions():
    module = _parse(_REGIONS)
    assert _run(module, "builtin.module(func.func(cse))").success
    early, two, _ = _func(module).regions[0].blocks[0].ops()
    first, second = (list(r.blocks[0].ops()) for r in two.regions)
    # The addi above the op dominates its regions: the inner copy is gone.
    assert [op.name for op in first] == ["arith.muli", "unittestgeneric.use"]
    assert first[-1].operand(0) is early.results[0]
    # The muli of the first region does not dominate the second region.
    assert [op.name for op in second] == ["arith.muli", "unittestgeneric.use"]
    assert second[-1].operand(0) is second[0].results[0]


def test_cse_does_not_use_values_defined_after_the_region():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      "unittestgeneric.two_regions"() ({
        %a = arith.addi %x, %x : i32
        "unittestgeneric.use"(%a) : (i32) -> ()
      }, {
      }) : () -> ()
      %late = arith.addi %x, %x : i32
      return %late : i32
    }""")
    result = _run(module, "builtin.module(func.func(cse))")
    assert result.success, [d.message for d in result.diagnostics]


def test_isolated_regions_start_with_an_empty_scope():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %c = arith.constant 7 : i32
      %a = arith.addi %x, %c : i32
      return %a : i32
    }
    func.func @g(%x: i32) -> i32 {
      %c = arith.constant 7 : i32
      %a = arith.addi %x, %c : i32
      return %a : i32
    }""")
    before = print_op(module)
    assert _run(module, "cse").success  # on the module: each function is isolated
    assert print_op(module) == before
    assert eliminate_common_subexpressions(module) == 0


def test_cse_is_at_opt_level_3():
    module = _parse("""
    func.func @f(%x: i32) -> (i32, i32) {
      %a = arith.addi %x, %x : i32
      %b = arith.addi %x, %x : i32
      return %a, %b : i32, i32
    }""")
    assert _run(module, "builtin.module(func.func(cse))", opt_level=2).success
    assert _count(module, "arith.addi") == 2
    stats = Statistics()
    assert _run(module, "builtin.module(func.func(cse))", instruments=[stats]).success
    assert _count(module, "arith.addi") == 1
    assert stats.totals["cse"]["num-cse"] == 1


# ---------------------------------------------------------------------- dce


def test_dce_erases_dead_chains_and_keeps_effects():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %c = arith.constant 3 : i32
      %a = arith.addi %x, %c : i32
      %b = arith.muli %a, %a : i32
      %d = arith.subi %b, %x : i32
      %k = arith.addi %x, %x : i32
      "test.effect"(%k) : (i32) -> ()
      %u = "test.unused_result"() : () -> i32
      return %x : i32
    }""")
    func = _func(module)
    assert erase_dead_ops(func) == 4
    assert [op.name for op in func.regions[0].blocks[0].ops()] == [
        "arith.addi", "test.effect", "test.unused_result", "func.return"]


def test_dce_erases_unreachable_blocks():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      "test.br"() [^bb2] : () -> ()
    ^bb1:
      %dead = arith.constant 5 : i32
      "unittestgeneric.use"(%dead) : (i32) -> ()
      "test.br"() [^bb3] : () -> ()
    ^bb2:
      "test.br"() [^bb4] : () -> ()
    ^bb3:
      "test.br"() [^bb1] : () -> ()
    ^bb4:
      %live = arith.muli %x, %x : i32
      %unused = arith.subi %x, %x : i32
      return %live : i32
    }""")
    stats = Statistics()
    assert _run(module, "dce", instruments=[stats]).success
    blocks = _func(module).regions[0].blocks
    assert len(blocks) == 3
    assert [op.name for op in blocks[-1].ops()] == ["arith.muli", "func.return"]
    assert stats.totals["dce"] == {"num-dead-ops": 1, "num-dead-blocks": 2}
    assert erase_unreachable_blocks(module) == 0


# ---------------------------------------------------------------------- symbol-dce


def test_symbol_dce():
    module = _parse("""
    func.func private @leaf() {
      return
    }
    func.func private @only_dead_callers() {
      func.call @leaf() : () -> ()
      return
    }
    func.func private @dead() {
      func.call @only_dead_callers() : () -> ()
      return
    }
    func.func private @recursive() {
      func.call @recursive() : () -> ()
      return
    }
    func.func private @decl(i32) -> i32
    func.func private @used_decl(i32) -> i32
    func.func private @used() -> i32 {
      %c = arith.constant 1 : i32
      %r = func.call @used_decl(%c) : (i32) -> i32
      return %r : i32
    }
    func.func private @by_attribute() {
      return
    }
    func.func @public() -> i32 {
      %r = func.call @used() : () -> i32
      "test.ref"() {target = @by_attribute} : () -> ()
      return %r : i32
    }
    func.func @public_unused() {
      return
    }""")
    stats = Statistics()
    assert _run(module, "symbol-dce", instruments=[stats]).success
    names = [op.attributes["sym_name"].value for op in module.regions[0].ops()]
    assert names == ["used_decl", "used", "by_attribute", "public", "public_unused"]
    assert stats.totals["symbol-dce"]["num-dce"] == 5
    assert erase_dead_symbols(module) == 0


def test_symbol_dce_keeps_privates_referenced_from_non_symbol_ops():
    module = _parse("""
    func.func private @kept() {
      return
    }
    func.func private @gone() {
      return
    }
    "test.top_level"() {callee = @kept} : () -> ()
    """)
    assert _run(module, "symbol-dce").success
    names = [op.attributes["sym_name"].value for op in module.regions[0].ops()
             if op.name == "func.func"]
    assert names == ["kept"]


# ---------------------------------------------------------------------- reconcile casts


def test_round_trip_casts_fold_away():
    module = _parse("""
    func.func @f(%x: i32, %y: f32) -> (i32, i32, f32, i32) {
      %a = "builtin.unrealized_conversion_cast"(%x) : (i32) -> i64
      %b = "builtin.unrealized_conversion_cast"(%a) : (i64) -> i32
      %c = "builtin.unrealized_conversion_cast"(%x) : (i32) -> i8
      %d = "builtin.unrealized_conversion_cast"(%c) : (i8) -> index
      %e = "builtin.unrealized_conversion_cast"(%d) : (index) -> i32
      %t = "builtin.unrealized_conversion_cast"(%x, %y) : (i32, f32) -> tuple<i32, f32>
      %p:2 = "builtin.unrealized_conversion_cast"(%t) : (tuple<i32, f32>) -> (i32, f32)
      %same = "builtin.unrealized_conversion_cast"(%x) : (i32) -> i32
      %dead = "builtin.unrealized_conversion_cast"(%x) : (i32) -> i16
      return %b, %e, %p#1, %same : i32, i32, f32, i32
    }""")
    assert _run(module, "reconcile-unrealized-casts").success
    assert _count(module, "builtin.unrealized_conversion_cast") == 0
    func = _func(module)
    x, y = func.regions[0].blocks[0].args
    assert func.regions[0].blocks[0].last_op.operands == [x, x, y, x]


def test_a_live_unresolved_cast_fails_at_its_location():
    module = _parse("""
    func.func @f(%x: i32) -> i64 {
      %a = "builtin.unrealized_conversion_cast"(%x) : (i32) -> i64
      %b = "builtin.unrealized_conversion_cast"(%x) : (i32) -> i16
      %c = "builtin.unrealized_conversion_cast"(%b) : (i16) -> i32
      return %a : i64
    }""")
    result = _run(module, "reconcile-unrealized-casts")
    assert not result.success
    assert len(result.diagnostics) == 1
    diagnostic = result.diagnostics[0]
    assert diagnostic.message == ("failed to legalize operation 'builtin.unrealized_conversion_cast' "
                                  "that was explicitly marked illegal")
    assert (diagnostic.loc.line, diagnostic.loc.column) == (3, 12)
    live = reconcile_unrealized_casts(module)
    assert [op.result_types for op in live] == [[module.regions[0].blocks[0].first_op
                                                  .regions[0].blocks[0].last_op.operand(0).type]]


# ---------------------------------------------------------------------- canonicalize options


_TWO_PATTERNS = """
func.func @f(%x: i32, %y: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %m1 = arith.constant -1 : i32
  %a = arith.addi %x, %c1 : i32
  %b = arith.addi %a, %c2 : i32
  %n = arith.muli %y, %m1 : i32
  %s = arith.addi %x, %n : i32
  return %b, %s : i32, i32
}
"""


def _returned(module):
    return [v.defining_op for v in _func(module).regions[0].blocks[0].last_op.operands]


def test_canonicalize_applies_every_pattern():
    module = _parse(_TWO_PATTERNS)
    stats = Statistics()
    assert _run(module, "canonicalize", instruments=[stats]).success
    b, s = _returned(module)
    assert b.name == "arith.addi" and s.name == "arith.subi"
    assert stats.totals["canonicalize"]["num-patterns"] == 2
    assert stats.totals["canonicalize"]["num-iterations"] == 2


def test_canonicalize_enable_patterns():
    module = _parse(_TWO_PATTERNS)
    assert _run(module, "canonicalize{enable-patterns=AddIAddConstant}").success
    b, s = _returned(module)
    assert b.operand(0) is _func(module).regions[0].blocks[0].args[0]  # combined
    assert s.name == "arith.addi"  # AddIMulNegativeOneRhs not enabled


def test_canonicalize_disable_patterns():
    module = _parse(_TWO_PATTERNS)
    assert _run(module, "canonicalize{disable-patterns=AddIAddConstant}").success
    b, s = _returned(module)
    assert b.operand(0).defining_op.name == "arith.addi"  # not combined
    assert s.name == "arith.subi"
    module = _parse(_TWO_PATTERNS)
    assert _run(module, "canonicalize{disable-patterns=AddIAddConstant,AddIMulNegativeOneRhs}").success
    b, s = _returned(module)
    assert b.operand(0).defining_op.name == "arith.addi" and s.name == "arith.addi"


def test_canonicalize_fold_false_and_max_num_rewrites():
    text = """
    func.func @f() -> i32 {
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %a = arith.addi %c1, %c2 : i32
      return %a : i32
    }"""
    module = _parse(text)
    assert _run(module, "canonicalize{fold=false}").success
    assert _count(module, "arith.addi") == 1
    module = _parse(text)
    assert _run(module, "canonicalize{fold=true}").success
    assert _count(module, "arith.addi") == 0
    module = _parse(_TWO_PATTERNS)
    result = _run(module, "canonicalize{max-num-rewrites=1}")
    assert result.success
    assert [d.severity for d in result.diagnostics] == ["warning"]
    assert "maximum of 1 rewrites" in result.diagnostics[0].message
