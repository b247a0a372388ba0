"""Result types computed from operands and attributes (MLIR's InferTypeOpInterface).

An op declares `InferType()` in its traits and gives the rule as a classmethod:

    @classmethod
    def infer_result_types(cls, operand_types, attributes) -> list[Type]: ...

The builder and the custom parser then need no result types, and the verifier checks
that the op's result types are the inferred ones. A rule that cannot type its operands
raises :class:`TypeInferenceError`, which the verifier reports at the op. An op without
the interface still gets the result types its declaration fixes (`SameOperandsAndResultType`,
a result constraint that allows one type).
"""

from __future__ import annotations

from mlc.ir.core.ir import IRError, Operation
from mlc.ir.opdef.traits import Interface


class TypeInferenceError(IRError):
    """Operand types or attributes an op's type inference rule cannot type."""

    def __init__(self, op_name: str, reason: str):
        super().__init__(f"'{op_name}' {reason}")
        self.reason = reason


class InferType(Interface):
    """Result types follow from operands and attributes, by the op class's
    `infer_result_types`; the verifier checks them."""

    hooks = ("infer_result_types",)
    name = "InferType"
    summary = "result types inferred from operands and attributes (and checked)"

    def __init__(self, checked: bool = True):
        # Unchecked: the op's own verifier words a mismatch, as MLIR's ops whose
        # custom form infers a type without the interface (`llvm.extractvalue`).
        self.checked = checked

    def bind(self, op_def) -> None:
        from mlc.ir.opdef.declare import Op

        if op_def.cls.infer_result_types.__func__ is Op.infer_result_types.__func__:
            raise TypeError(f"'{op_def.name}' declares InferType but defines no "
                            "infer_result_types")

    def verify(self, op: Operation) -> str | None:
        if not self.checked:
            return None
        try:
            expected = list(type(op).infer_result_types(op.operand_types, op.attributes))
        except TypeInferenceError as exc:
            return exc.reason
        actual = op.result_types
        if len(expected) != len(actual):
            return f"expected {len(expected)} results, got {len(actual)}"
        for i, (want, got) in enumerate(zip(expected, actual)):
            if want != got:
                which = "result type" if len(actual) == 1 else f"result #{i} type"
                return f"{which} {got} does not match the inferred type {want}"
        return None
