"""Structural equivalence keys (mlc.ir.core.structure): equal exactly for IR that
computes the same thing the same way, names and locations aside."""

from mlc.ir.core.structure import ops_structure, regions_structure
from mlc.ir.text.parser import parse_module


def _bodies(text: str) -> list:
    module = parse_module(text)
    return [op.regions for op in module.regions[0].blocks[0].ops()]


def _same(a: str, b: str) -> bool:
    first, second = _bodies(f"{a}\n{b}")
    return regions_structure(first) == regions_structure(second)


def test_names_and_locations_do_not_matter():
    assert _same('func.func @f(%a: i32) -> i32 { %s = arith.addi %a, %a : i32 return %s : i32 }',
                 'func.func @g(%x: i32) -> i32 { %0 = arith.addi %x, %x : i32 loc("l") '
                 'return %0 : i32 }')


def test_operand_order_types_and_attributes_matter():
    base = 'func.func @f(%a: i32, %b: i32) -> i32 { %0 = arith.subi %a, %b : i32 return %0 : i32 }'
    assert not _same(base, base.replace("%a, %b", "%b, %a").replace("@f", "@g"))
    assert not _same(base, base.replace("i32", "i64").replace("@f", "@g"))
    flags = base.replace("arith.subi %a, %b", "arith.subi %a, %b overflow<nsw>").replace("@f", "@g")
    assert not _same(base, flags)


def test_branch_targets_compare_by_position():
    text = ('func.func @{n}(%c: i1) {{ cf.cond_br %c, ^{t}, ^{e} ^x: return ^y: '
            'cf.br ^x }}')
    assert _same(text.format(n="f", t="x", e="y"), text.format(n="g", t="x", e="y"))
    assert not _same(text.format(n="f", t="x", e="y"), text.format(n="g", t="y", e="x"))


def test_values_from_outside_compare_by_identity_or_given_name():
    module = parse_module('func.func @f(%a: i32, %b: i32) { %0 = arith.addi %a, %a : i32 '
                          '%1 = arith.addi %b, %b : i32 return }')
    block = module.regions[0].blocks[0].ops().__next__().regions[0].blocks[0]
    first, second = list(block.ops())[:2]
    assert ops_structure([first]) != ops_structure([second])
    a, b = block.args
    assert ops_structure([first], {a: 0}) == ops_structure([second], {b: 0})
