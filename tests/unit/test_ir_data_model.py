"""The data model: values and use lists, blocks as linked lists, walking, cloning, erasing."""

import pytest

from mlc.ir import Block, Context, IRError, Operation, Region, f32, i32, parse_module, print_op
from mlc.ir.core.attributes import FloatAttr
from mlc.ir.dialects.arith import AddFOp, ConstantOp, MulFOp


def _constant(value: float):
    return ConstantOp.build(value=FloatAttr.from_value(value, f32))


def test_use_lists_follow_operands():
    a, b = _constant(1.0), _constant(2.0)
    add = AddFOp.build(a.result, b.result)
    assert add.result.type == f32
    assert a.result.has_one_use() and b.result.has_one_use()
    assert [u.owner for u in a.result.uses] == [add]
    add.set_operand(1, a.result)
    assert len(a.result.uses) == 2 and not b.result.has_uses()


def test_replace_all_uses_with():
    a, b = _constant(1.0), _constant(2.0)
    add = AddFOp.build(a.result, a.result)
    mul = MulFOp.build(add.result, a.result)
    a.result.replace_all_uses_with(b.result)
    assert add.lhs is b.result and add.rhs is b.result and mul.rhs is b.result
    assert not a.result.has_uses() and len(b.result.uses) == 3
    assert b.result.users == [add, mul]


def test_block_insert_and_erase_are_linked_list_operations():
    block = Block()
    ops = [_constant(float(i)) for i in range(4)]
    for op in ops:
        block.append(op)
    middle = _constant(9.0)
    block.insert_before(middle, ops[2])
    assert list(block.ops()) == [ops[0], ops[1], middle, ops[2], ops[3]]
    assert len(block) == 5
    middle.erase()
    assert list(block.ops()) == ops and len(block) == 4
    block.insert_after(middle, ops[3])
    assert block.last_op is middle and middle.prev_op is ops[3]
    assert list(block.ops_reversed()) == [middle, *reversed(ops)]


def test_erase_checks_remaining_uses():
    block = Block()
    a = block.append(_constant(1.0))
    block.append(AddFOp.build(a.result, a.result))
    with pytest.raises(IRError, match="still used"):
        a.erase()


def test_op_cannot_live_in_two_blocks():
    block = Block()
    op = block.append(_constant(1.0))
    with pytest.raises(IRError):
        Block().append(op)


TEXT = """
func.func @f(%x: f32) -> f32 {
  %0 = arith.addf %x, %x : f32
  %1 = arith.mulf %0, %x : f32
  return %1 : f32
}
"""


def test_walk_pre_and_post_order():
    module = parse_module(TEXT, Context())
    pre = [op.name for op in module.walk()]
    post = [op.name for op in module.walk(post_order=True)]
    assert pre == ["builtin.module", "func.func", "arith.addf", "arith.mulf", "func.return"]
    assert post == ["arith.addf", "arith.mulf", "func.return", "func.func", "builtin.module"]


def test_clone_is_deep_and_remaps_uses():
    module = parse_module(TEXT, Context())
    copy = module.clone()
    assert print_op(copy) == print_op(module)
    originals = set(module.walk())
    for op in copy.walk():
        assert op not in originals
        for operand in op.operands:
            owner = operand.defining_op or operand.block.parent_op
            assert owner not in originals


def test_generic_operation_round_trip_through_the_api():
    block = Block([i32])
    op = Operation("test.op", [block.args[0]], [i32], {}, [Region([Block()])])
    block.append(op)
    assert op.parent is block and op.operand(0) is block.args[0]
    assert op.regions[0].parent is op
    assert op.op_def is None
