"""Functions: MLIR's FunctionOpInterface, declared as data, so a pass or a tool asks
any function op (`func.func`, `llvm.func`) the same questions:

    @func.op
    class FuncOp(Op):
        name = "func.func"
        sym_name = AttrDef(SymbolNameAttr)
        function_type = AttrDef(FunctionTypeAttr)
        body = RegionDef()
        traits = (FunctionLike(lambda t: (t.inputs, t.results)), ...)

    fn = FunctionLike.get(op)            # None: not a function
    if fn is not None and not fn.is_declaration(op): ...

The declaration says how the op's function type splits into argument and result types
(an `!llvm.func<void (...)>` has no result); the name is `sym_name`, the signature
`function_type`, the body the first region (empty for a declaration).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mlc.ir.core.attributes import Attribute, DictionaryAttr, Type
from mlc.ir.core.ir import Block, BlockArgument, Operation, Region
from mlc.ir.opdef.traits import Interface

Signature = Callable[[Type], tuple[Sequence[Type], Sequence[Type]]]


class FunctionLike(Interface):
    """A function: a symbol with a function type and a body, or a declaration."""

    name = "FunctionLike"
    summary = "a function: name, function type, arguments, results, body or declaration"

    def __init__(self, signature: Signature):
        self.signature = signature

    def bind(self, op_def) -> None:
        for attr in ("sym_name", "function_type"):
            if attr not in op_def.attributes:
                raise TypeError(f"'{op_def.name}': FunctionLike needs a '{attr}' attribute")
        if not op_def.regions:
            raise TypeError(f"'{op_def.name}': FunctionLike needs a body region")

    def symbol(self, op: Operation) -> str:
        """The function's name (without `@`)."""
        return op.attributes["sym_name"].value

    def function_type(self, op: Operation) -> Type:
        """The function's type, as the op declares it."""
        return op.attributes["function_type"].value

    def argument_types(self, op: Operation) -> list[Type]:
        return list(self.signature(self.function_type(op))[0])

    def result_types(self, op: Operation) -> list[Type]:
        return list(self.signature(self.function_type(op))[1])

    def body(self, op: Operation) -> Region:
        return op.regions[0]

    def is_declaration(self, op: Operation) -> bool:
        """Whether the function has no body (an external function)."""
        return not op.regions[0].blocks

    def entry_block(self, op: Operation) -> Block:
        return op.regions[0].blocks[0]

    def arguments(self, op: Operation) -> list[BlockArgument]:
        """The entry block's arguments (none for a declaration)."""
        return [] if self.is_declaration(op) else list(self.entry_block(op).args)

    def visibility(self, op: Operation) -> str:
        """The symbol's visibility: `public` (the default), `private` or `nested`."""
        attr = op.attributes.get("sym_visibility")
        return attr.value if attr is not None else "public"

    def argument_attributes(self, op: Operation, index: int) -> dict[str, Attribute]:
        """The attributes of argument `index` (`llvm.noalias`...)."""
        attrs = op.attributes.get("arg_attrs")
        if attrs is None or index >= len(attrs):
            return {}
        entry = attrs[index]
        return dict(entry.entries) if isinstance(entry, DictionaryAttr) else {}


def is_function(op: Operation) -> bool:
    """Whether `op` is a function op (declares FunctionLike)."""
    return FunctionLike.get(op) is not None


def functions_in(module: Operation) -> list[Operation]:
    """The function ops directly in `module`'s body, in order."""
    return [op for block in module.regions[0].blocks for op in block.ops() if is_function(op)]
