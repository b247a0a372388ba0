"""The InferType interface: an op states that its result types follow from its operands
and attributes; builders and custom forms omit them and the verifier checks them."""

import pytest

from mlc.ir import (
    Context,
    DiagnosticError,
    Dialect,
    Op,
    OperandDef,
    ResultDef,
    parse_module,
    verify,
)
from mlc.ir.core.attributes import IndexType, IntegerAttr, IntegerType, MemRefType
from mlc.ir.core.ir import Block
from mlc.ir.dialects.arith import CmpIOp, ConstantOp
from mlc.ir.interfaces.infer_type import InferType, TypeInferenceError
from mlc.ir.testing.dialect import AllocOp, LoadOp

infer_toy = Dialect("infer_toy", "Ops declared by the InferType tests.")
i1, i32, i64 = IntegerType(1), IntegerType(32), IntegerType(64)


def test_builders_infer_declared_result_types():
    memref = AllocOp.build(result_types=[MemRefType((4,), i32)])
    zero = ConstantOp.build(value=IntegerAttr(0, IndexType()))
    assert zero.result.type == IndexType()
    assert LoadOp.build(memref.result, [zero.result]).result.type == i32
    block = Block([i32, i32])
    assert CmpIOp.build(block.args[0], block.args[1], predicate=IntegerAttr(2, i64)).result.type == i1


def test_custom_forms_omit_inferred_types():
    module = parse_module("func.func @f(%m: memref<4xf16>, %i: index) -> f16 {\n"
                          "  %0 = test.load %m[%i] : memref<4xf16>\n  return %0 : f16\n}\n",
                          Context(["test"]))
    verify(module)
    load = next(op for op in module.walk() if op.name == "test.load")
    assert str(load.result.type) == "f16"


# (arith's ops state their result types as MLIR's predicates, which are checked first:
# tests/filecheck/arith/verify-order.mlir.)
@pytest.mark.parametrize("text, message", [
    ('%0 = "test.load"(%m, %i) : (memref<4xi32>, index) -> i64',
     "'test.load' op result type i64 does not match the inferred type i32"),
])
def test_the_verifier_checks_inferred_types(text, message):
    module = parse_module(f"func.func @f(%a: i32, %m: memref<4xi32>, %i: index) {{\n  {text}\n"
                          "  return\n}\n", Context(["test"]))
    with pytest.raises(DiagnosticError) as info:
        verify(module)
    assert message in str(info.value)


def test_an_inference_error_is_a_diagnostic():
    # The rule refuses what it cannot type; the verifier reports its reason at the op.
    with pytest.raises(TypeInferenceError, match="'test.load' needs a memref operand"):
        LoadOp.infer_result_types([i32], {})


def test_an_op_with_a_rule_must_declare_the_interface():
    with pytest.raises(TypeError, match="defines infer_result_types\\(\\), a method of the "
                                        "InferType interface, but does not declare InferType"):
        @infer_toy.op
        class Undeclared(Op):
            name = "infer_toy.undeclared"
            input = OperandDef()
            output = ResultDef()

            @classmethod
            def infer_result_types(cls, operand_types, attributes):
                return list(operand_types)

    with pytest.raises(TypeError, match="declares InferType but defines no infer_result_types"):
        @infer_toy.op
        class NoRule(Op):
            name = "infer_toy.no_rule"
            output = ResultDef()
            traits = (InferType(),)
