"""The `func` dialect: functions, calls and returns."""

from __future__ import annotations

from mlc.ir.core.attributes import FunctionType, SymbolRefAttr, TypeAttr
from mlc.ir.core.dialect_registry import Dialect, UnknownOpError, lookup_dialect
from mlc.ir.core.ir import Block, Operation, Region
from mlc.ir.interfaces.control_flow import ReturnLike
from mlc.ir.interfaces.function_like import FunctionLike
from mlc.ir.opdef.constraints import (
    ArrayOf,
    DictAttrConstraint,
    FlatSymbolRefAttr,
    FunctionTypeAttr,
    StringKeyword,
    SymbolNameAttr,
)
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, RegionDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    Symbol,
    SymbolTable,
)
from mlc.ir.text.asm_parser import AsmParser
from mlc.ir.text.function_syntax import parse_function, print_function
from mlc.ir.text.printer import Printer

func = Dialect("func", "Functions, calls and returns.",
               semantics="mlc.ir.dialects.func.semantics")


@func.op
class FuncOp(Op):
    """A function: a symbol with a signature and, unless it is a declaration, a body.

    The entry block's arguments are the function's arguments. Inside a function,
    ops of the `func` dialect print without their `func.` prefix.
    """

    name = "func.func"
    sym_name = AttrDef(SymbolNameAttr)
    function_type = AttrDef(FunctionTypeAttr)
    sym_visibility = AttrDef(StringKeyword(("public", "private", "nested")), optional=True)
    arg_attrs = AttrDef(ArrayOf(DictAttrConstraint), optional=True)
    res_attrs = AttrDef(ArrayOf(DictAttrConstraint), optional=True)
    body = RegionDef()
    traits = (IsolatedFromAbove, Symbol,
              FunctionLike(lambda type_: (type_.inputs, type_.results)))
    default_dialect = "func"

    @classmethod
    def parse(cls, p: AsmParser) -> FuncOp:
        """`func.func [visibility] @name(%a: t, ...) -> (results) [attributes {...}] {...}`."""
        syntax = parse_function(p, cls)
        return cls.create((), (), syntax.attributes, [syntax.body])  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        print_function(p, self)

    @classmethod
    def create_function(cls, sym_name: str, function_type: FunctionType,
                        visibility: str | None = None) -> FuncOp:
        """A function with an entry block whose arguments match `function_type`."""
        from mlc.ir.core.attributes import StringAttr

        entry = Block(function_type.inputs)
        op = cls.build(sym_name=StringAttr(sym_name), function_type=TypeAttr(function_type),
                       sym_visibility=StringAttr(visibility) if visibility else None,
                       regions=[Region([entry])])
        return op  # type: ignore[return-value]

    @property
    def type(self) -> FunctionType:
        return self.function_type.value

    @property
    def is_declaration(self) -> bool:
        return not self.regions[0].blocks

    @property
    def entry_block(self) -> Block:
        return self.regions[0].blocks[0]

    def verify_custom(self) -> None:
        # MLIR's order: the symbol's checks, then the function's.
        if self.is_declaration and (self.sym_visibility is None
                                    or self.sym_visibility.value == "public"):
            raise VerificationError("symbol declaration cannot have public visibility")
        fn_type = self.type
        for kind, attrs, count in (("argument", self.arg_attrs, len(fn_type.inputs)),
                                   ("result", self.res_attrs, len(fn_type.results))):
            _verify_value_attributes(self, kind, attrs, count)
        if self.is_declaration:
            return
        entry = self.entry_block
        if len(entry.args) != len(fn_type.inputs):
            raise VerificationError(f"entry block must have {len(fn_type.inputs)} arguments to "
                                    "match function signature")
        for i, (arg, expected) in enumerate(zip(entry.args, fn_type.inputs)):
            if arg.type != expected:
                raise VerificationError(f"type of entry block argument #{i}({arg.type}) must match "
                                        f"the type of the corresponding argument in function "
                                        f"signature({expected})")


def _verify_value_attributes(op: FuncOp, kind: str, attrs, count: int) -> None:
    """A function's `arg_attrs` or `res_attrs` (`kind`: "argument" or "result"): one
    dictionary per value, of dialect attributes only (their names have a dialect
    prefix), each valid as its dialect sees it, as MLIR's function interface requires."""
    if attrs is None:
        return
    if len(attrs) != count:
        raise VerificationError(f"expects {kind} attribute array to have the same number of "
                                f"elements as the number of function {kind}s, got "
                                f"{len(attrs)}, but expected {count}")
    for index, dictionary in enumerate(attrs):
        for name, attr in dictionary.entries:
            namespace, dot, _ = name.partition(".")
            if not dot:
                raise VerificationError(f"{kind}s may only have dialect attributes")
            try:
                dialect = lookup_dialect(namespace)
            except UnknownOpError:
                continue  # a dialect that is not there checks nothing (MLIR)
            message = dialect.verify_value_attribute(op, kind, index, name, attr)
            if message is not None:
                raise VerificationError(message, names_op=False)


@func.op
class ReturnOp(Op):
    """Returns from a function; its operands match the function's result types."""

    name = "func.return"
    returned = OperandDef(variadic=True, doc="the function's results")
    traits = (Pure, IsTerminator, ReturnLike, HasParent(("func.func",)))
    assembly_format = "attr-dict ($returned^ `:` type($returned))?"

    def verify_custom(self) -> None:
        parent = self.parent_op
        if not isinstance(parent, FuncOp):
            return
        results = parent.type.results
        types = self.operand_types
        if len(types) != len(results):
            raise VerificationError(f"has {len(types)} operands, but enclosing function "
                                    f"(@{parent.sym_name.value}) returns {len(results)}")
        for i, (got, expected) in enumerate(zip(types, results)):
            if got != expected:
                # MLIR's words, which do not name the op.
                raise VerificationError(f"type of return operand {i} ('{got}') doesn't match "
                                        f"function result type ('{expected}') in function "
                                        f"@{parent.sym_name.value}", names_op=False)


@func.op
class CallOp(Op):
    """Calls a function by symbol; operand and result types match its signature."""

    name = "func.call"
    callee = AttrDef(FlatSymbolRefAttr)
    arguments = OperandDef(variadic=True)
    returns = ResultDef(variadic=True)
    assembly_format = "$callee `(` $arguments `)` attr-dict `:` functional-type($arguments, results)"

    def verify_custom(self) -> None:
        target = lookup_symbol(self, self.callee)
        if target is None:
            raise VerificationError(f"'{self.callee.leaf}' does not reference a valid function")
        if not isinstance(target, FuncOp):
            raise VerificationError(f"'{self.callee.leaf}' does not reference a valid function")
        fn_type = target.type
        operands, results = self.operand_types, self.result_types
        if len(fn_type.inputs) != len(operands):
            raise VerificationError("incorrect number of operands for callee")
        for i, (expected, got) in enumerate(zip(fn_type.inputs, operands)):
            if got != expected:
                raise VerificationError(f"operand type mismatch: expected operand type "
                                        f"'{expected}', but provided '{got}' for operand "
                                        f"number {i}")
        if len(fn_type.results) != len(results):
            raise VerificationError("incorrect number of results for callee")
        for i, (expected, got) in enumerate(zip(fn_type.results, results)):
            if got != expected:
                # MLIR aligns the two notes' type lists.
                raise VerificationError(f"result type mismatch at index {i}", notes=[
                    (f"      op result types: {_quoted(results)}", self.loc),
                    (f"function result types: {_quoted(fn_type.results)}", self.loc)])


def _quoted(types) -> str:
    return ", ".join(f"'{t}'" for t in types)


def lookup_symbol(from_op: Operation, ref: SymbolRefAttr) -> Operation | None:
    """The op `ref` names, looked up in the nearest enclosing symbol table."""
    table = from_op.parent_op
    while table is not None and not table.has_trait(SymbolTable):
        table = table.parent_op
    if table is None:
        return None
    path = [ref.root, *ref.nested]
    current = table
    for name in path:
        found = None
        for region in current.regions:
            for op in region.ops():
                sym = op.attributes.get("sym_name")
                if sym is not None and getattr(sym, "value", None) == name:
                    found = op
                    break
            if found is not None:
                break
        if found is None:
            return None
        current = found
    return current
