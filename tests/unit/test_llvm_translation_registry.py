"""The llvm dialect and its translation to LLVM IR agree: every op the dialect
registers has a translation, registered against its class, and every translation
belongs to an op of the dialect (MLIR keeps the `llvmBuilder` on the op for the same
reason: a new op cannot be added without saying how it translates)."""

import pytest

from mlc.ir.dialects.arith import AddIOp
from mlc.ir.opdef.declare import Op
from mlc.llvm.dialect import ops as _ops  # noqa: F401 (declares the dialect's ops)
from mlc.llvm.dialect.ops_arith import AddOp
from mlc.llvm.dialect.translation import registered_translations
from mlc.llvm.dialect.translation.core import translates
from mlc.llvm.dialect.types import llvm


def test_every_op_of_the_dialect_has_a_translation():
    translated = set(registered_translations())
    missing = sorted(name for name, cls in llvm.ops.items() if cls not in translated)
    assert not missing, f"llvm ops with no translation to LLVM IR: {missing}"


def test_every_translation_is_of_a_registered_llvm_op():
    registered = set(llvm.ops.values())
    strays = [cls for cls in registered_translations() if cls not in registered]
    assert not strays, f"translations of classes that are no op of the llvm dialect: {strays}"


def test_a_translation_of_another_dialects_op_is_refused():
    with pytest.raises(TypeError, match="not an op of the llvm dialect"):
        translates(AddIOp)(lambda t, op, args: None)


def test_a_translation_of_an_unregistered_op_class_is_refused():
    class NotRegisteredOp(Op):
        name = "llvm.not_registered"

    with pytest.raises(TypeError, match="not an op of the llvm dialect"):
        translates(NotRegisteredOp)(lambda t, op, args: None)


def test_a_second_translation_of_an_op_is_refused():
    with pytest.raises(TypeError, match="two translations"):
        translates(AddOp)(lambda t, op, args: None)
