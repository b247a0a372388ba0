"""The LLVM dialect's parameter and result attributes (`llvm.noalias`, `llvm.align`,
`llvm.byval`...) on a function's arguments and results: which value each takes (a unit,
a type, an integer), which types it may be attached to (pointers, integers) and which
are not valid on a result, with MLIR's checks in MLIR's order and words (MLIR's
LLVMDialect::verifyParameterAttribute). They hold on any function, `llvm.func` or
`func.func`; attribute names the table does not hold are accepted, as in MLIR.
"""

from __future__ import annotations

from mlc.ir.core.attributes import Attribute, IntegerAttr, IntegerType, TypeAttr, UnitAttr
from mlc.ir.core.ir import Operation

UNIT = frozenset({"noalias", "readonly", "nest", "noundef", "nonnull", "nofree", "nocapture",
                  "inreg", "returned", "signext", "zeroext", "readnone", "writeonly"})
TYPE = frozenset({"byval", "byref", "inalloca", "preallocated", "sret", "elementtype"})
INTEGER = frozenset({"align", "alignstack", "dereferenceable", "dereferenceable_or_null"})
ON_POINTERS = frozenset({"noalias", "readonly", "nest", "nonnull", "nofree", "nocapture",
                         "readnone", "writeonly", "byval", "byref", "inalloca", "preallocated",
                         "sret", "elementtype", "align", "dereferenceable",
                         "dereferenceable_or_null"})
ON_INTEGERS = frozenset({"signext", "zeroext"})
NOT_ON_RESULTS = frozenset({"readonly", "nest", "nofree", "nocapture", "returned", "readnone",
                            "writeonly", "byval", "byref", "inalloca", "preallocated", "sret",
                            "alignstack", "allocalign", "allocptr"})


def _value_type(op: Operation, kind: str, index: int):
    """The type of argument or result `index` of the function `op` (None if unknown)."""
    signature = getattr(op.attributes.get("function_type"), "value", None)
    if signature is None:
        return None
    if kind == "argument":
        values = getattr(signature, "params", None)
        values = getattr(signature, "inputs", ()) if values is None else values
    else:
        values = getattr(signature, "results", ())
    return values[index] if index < len(values) else None


def verify_parameter_attribute(op: Operation, kind: str, index: int, name: str,
                               attr: Attribute) -> str | None:
    """Why `attr`, named `name` (`llvm.X`), is invalid on argument or result (`kind`)
    `index` of the function `op`; None if it is valid."""
    from mlc.llvm.dialect.constraints import is_llvm_compatible
    from mlc.llvm.dialect.types import LLVMPointerType

    short = name.removeprefix("llvm.")
    quoted = f'"{name}"'
    if kind == "result" and short in NOT_ON_RESULTS:
        return f"{quoted} is not a valid result attribute"
    if short in UNIT and not isinstance(attr, UnitAttr):
        return f"{quoted} should be a unit attribute"
    if short in TYPE and not isinstance(attr, TypeAttr):
        return f"{quoted} should be a type attribute"
    if short in INTEGER and not isinstance(attr, IntegerAttr):
        return f"{quoted} should be an integer attribute"
    type_ = _value_type(op, kind, index)
    if type_ is None or not is_llvm_compatible(type_):
        return None  # a memref, say: its lowering decides (MLIR checks only LLVM types)
    if short in ON_POINTERS and not isinstance(type_, LLVMPointerType):
        return f"{quoted} attribute attached to non-pointer LLVM type"
    if short in ON_INTEGERS and not isinstance(type_, IntegerType):
        return f"{quoted} attribute attached to non-integer LLVM type"
    return None
