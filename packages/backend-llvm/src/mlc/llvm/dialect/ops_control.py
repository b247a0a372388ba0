"""The `llvm` dialect's functions and control flow: `llvm.func`, `llvm.call`,
`llvm.return`, the branches and `llvm.unreachable`, in MLIR 22's syntax:

    llvm.func internal @f(%a: i32, %p: !llvm.ptr {llvm.noalias}) -> i32 { ... }
    llvm.func @printf(!llvm.ptr, ...) -> i32
    %r = llvm.call tail @f(%a, %p) : (i32, !llvm.ptr) -> i32
    llvm.switch %x : i32, ^bb1 [
      1: ^bb2(%a : i32)
    ]
"""

from __future__ import annotations

from mlc.ir.core.attributes import (
    DenseArrayAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    i32,
)
from mlc.ir.core.ir import Block, Region
from mlc.ir.diagnostics import DiagnosticError
from mlc.ir.dialects.cf import _parse_successor_and_operands as parse_successor_and_operands
from mlc.ir.dialects.cf import _print_successor_and_operands as print_successor_and_operands
from mlc.ir.dialects.cf import case_values_attr, case_values_of
from mlc.ir.dialects.func import _verify_value_attributes, lookup_symbol
from mlc.ir.interfaces.control_flow import BranchLike, ReturnLike
from mlc.ir.interfaces.function_like import FunctionLike
from mlc.ir.opdef.constraints import (
    I1,
    AnyIntElementsAttr,
    ArrayOf,
    DenseArrayOf,
    DictAttrConstraint,
    FlatSymbolRefAttr,
    IntAttrOf,
    StrAttr,
    SymbolNameAttr,
    TypeAttrOf,
    UnitAttrConstraint,
)
from mlc.ir.opdef.declare import (
    AttrDef,
    Op,
    OperandDef,
    RegionDef,
    ResultDef,
    SuccessorDef,
    VerificationError,
)
from mlc.ir.opdef.traits import (
    AttrSizedOperandSegments,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    Symbol,
)
from mlc.ir.text.asm_parser import AsmParser
from mlc.ir.text.function_syntax import (
    parse_function,
    parse_signature_with_attrs,
    print_function,
    print_signature_with_attrs,
)
from mlc.ir.text.printer import Printer
from mlc.llvm.dialect.constraints import (
    DEFAULT_VISIBILITY,
    NO_UNNAMED_ADDR,
    LLVMType,
    SignlessInteger,
    UnnamedAddr,
    Visibility,
)
from mlc.llvm.dialect.types import (
    C_CALLING_CONVENTION,
    EXTERNAL_LINKAGE,
    LLVM_FASTMATH_NONE,
    NO_TAIL_CALL,
    CallingConvention,
    CConvAttr,
    Linkage,
    LinkageAttr,
    LLVMFastMathFlags,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMVoidType,
    TailCallKind,
    TailCallKindAttr,
    llvm,
)


def parse_enum_keyword(p: AsmParser, enum_class) -> object | None:
    """A member of `enum_class` spelled as its value (`internal`, `fastcc`), if next."""
    word = p.parse_optional_keyword(tuple(m.value for m in enum_class))
    return None if word is None else enum_class(word)


def parse_sparse_keyword(p: AsmParser, enum, skip: str) -> object | None:
    """A case of a :class:`SparseIntEnum` other than `skip` (its unwritten default)."""
    word = p.parse_optional_keyword(tuple(k for k, _ in enum.cases if k != skip))
    return None if word is None else enum.attr(word)


def parse_linkage_prefix(p: AsmParser, attrs: dict) -> None:
    """`[linkage] [visibility] [unnamed_addr]`, what llvm.func and llvm.mlir.global
    write before their other keywords."""
    linkage = parse_enum_keyword(p, Linkage)
    attrs["linkage"] = LinkageAttr(linkage) if linkage is not None else EXTERNAL_LINKAGE
    visibility = parse_sparse_keyword(p, Visibility, "default")
    attrs["visibility_"] = visibility if visibility is not None else DEFAULT_VISIBILITY


def print_linkage_prefix(p: Printer, op: Op, *, always_linkage: bool) -> None:
    """The keywords `parse_linkage_prefix` reads, each after a space; the default
    linkage only when `always_linkage` (globals write it)."""
    linkage = op.attributes.get("linkage", EXTERNAL_LINKAGE)
    if always_linkage or linkage != EXTERNAL_LINKAGE:
        p.write(" " + linkage.linkage.value)
    visibility = op.attributes.get("visibility_", DEFAULT_VISIBILITY)
    if visibility != DEFAULT_VISIBILITY:
        p.write(" " + Visibility.keyword(visibility))


def print_unnamed_addr(p: Printer, op: Op) -> None:
    """` unnamed_addr` or ` local_unnamed_addr`, if the op is either."""
    unnamed = op.attributes.get("unnamed_addr")
    if unnamed is not None and unnamed != NO_UNNAMED_ADDR:
        p.write(" " + UnnamedAddr.keyword(unnamed))


# ------------------------------------------------------------------ functions


@llvm.op
class LLVMFuncOp(Op):
    """An LLVM function: a symbol with an `!llvm.func<...>` signature (one result or
    `void`, optionally variadic) and, unless it is an external declaration, a body of
    blocks of llvm ops.

    In custom form the linkage (`internal`, ... ; `external` is not written), the
    visibility, `unnamed_addr` and the calling convention (`fastcc`; `ccc` is not
    written) precede the name; argument attributes follow each argument:

        llvm.func internal @f(%p: !llvm.ptr {llvm.noalias}, %n: i64) -> f32 {
        llvm.func @printf(!llvm.ptr, ...) -> i32
    """

    name = "llvm.func"
    sym_name = AttrDef(SymbolNameAttr)
    sym_visibility = AttrDef(StrAttr, optional=True)
    function_type = AttrDef(TypeAttrOf(LLVMFunctionType, "type attribute of LLVM function type"))
    linkage = AttrDef(LinkageAttr, default=EXTERNAL_LINKAGE)
    dso_local = AttrDef(UnitAttrConstraint, optional=True)
    CConv = AttrDef(CConvAttr, default=C_CALLING_CONVENTION)
    visibility_ = AttrDef(Visibility, default=DEFAULT_VISIBILITY)
    unnamed_addr = AttrDef(UnnamedAddr, optional=True)
    arg_attrs = AttrDef(ArrayOf(DictAttrConstraint), optional=True)
    res_attrs = AttrDef(ArrayOf(DictAttrConstraint), optional=True)
    passthrough = AttrDef(optional=True, doc="LLVM function attributes, as strings or pairs")
    alignment = AttrDef(IntAttrOf(), optional=True)
    section = AttrDef(StrAttr, optional=True)
    personality = AttrDef(FlatSymbolRefAttr, optional=True)
    garbageCollector = AttrDef(StrAttr, optional=True)  # noqa: N815 - MLIR's name
    target_cpu = AttrDef(StrAttr, optional=True)
    tune_cpu = AttrDef(StrAttr, optional=True)
    target_features = AttrDef(optional=True)
    no_inline = AttrDef(UnitAttrConstraint, optional=True)
    always_inline = AttrDef(UnitAttrConstraint, optional=True)
    no_unwind = AttrDef(UnitAttrConstraint, optional=True)
    will_return = AttrDef(UnitAttrConstraint, optional=True)
    optimize_none = AttrDef(UnitAttrConstraint, optional=True)
    body = RegionDef()
    traits = (IsolatedFromAbove, Symbol, FunctionLike(
        lambda type_: (type_.params,
                       () if isinstance(type_.result, LLVMVoidType) else (type_.result,))))

    @classmethod
    def parse(cls, p: AsmParser) -> LLVMFuncOp:
        attrs: dict = {}
        parse_linkage_prefix(p, attrs)
        unnamed = parse_sparse_keyword(p, UnnamedAddr, "none")
        attrs["unnamed_addr"] = unnamed if unnamed is not None else NO_UNNAMED_ADDR
        cconv = parse_enum_keyword(p, CallingConvention)
        attrs["CConv"] = CConvAttr(cconv) if cconv is not None else C_CALLING_CONVENTION
        type_pos = p.current_pos()
        syntax = parse_function(p, cls, visibilities=(), allow_variadic=True)
        signature = syntax.function_type
        if len(signature.results) > 1:
            raise p.error("failed to construct function type: expected zero or one function "
                          "result", type_pos)
        result = signature.results[0] if signature.results else LLVMVoidType()
        syntax.attributes["function_type"] = TypeAttr(
            LLVMFunctionType(result, signature.inputs, syntax.variadic))
        attrs.update(syntax.attributes)
        return cls.create((), (), attrs, [syntax.body])  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        print_linkage_prefix(p, self, always_linkage=False)
        print_unnamed_addr(p, self)
        if self.CConv != C_CALLING_CONVENTION:
            p.write(" " + self.CConv.cconv.value)
        # `private` before the name is a linkage here: the visibility is an attribute.
        print_function(p, self, frozenset({"linkage", "CConv", "visibility_", "unnamed_addr"}),
                       visibility_keyword=False)

    @classmethod
    def create_function(cls, sym_name: str, function_type: LLVMFunctionType,
                        linkage: Linkage = Linkage.external, declaration: bool = False
                        ) -> LLVMFuncOp:
        """A function of `function_type`; with an entry block whose arguments are its
        parameters unless it is a `declaration`."""
        body = Region() if declaration else Region([Block(function_type.params)])
        op = cls.build(sym_name=StringAttr(sym_name), function_type=TypeAttr(function_type),
                       linkage=LinkageAttr(linkage), regions=[body])
        return op  # type: ignore[return-value]

    @property
    def type(self) -> LLVMFunctionType:
        return self.function_type.value

    @property
    def is_declaration(self) -> bool:
        return not self.regions[0].blocks

    def verify_custom(self) -> None:
        fn_type = self.type
        linkage = self.linkage.linkage
        for kind, attrs, count in (("argument", self.arg_attrs, len(fn_type.params)),
                                   ("result", self.res_attrs, len(fn_type.results))):
            _verify_value_attributes(self, kind, attrs, count)
        if self.is_declaration:
            if linkage not in (Linkage.external, Linkage.extern_weak):
                raise VerificationError("external functions must have 'external' or "
                                        "'extern_weak' linkage")
            return
        if linkage == Linkage.common:
            raise VerificationError("functions cannot have 'common' linkage")
        if self.no_inline is not None and self.always_inline is not None:
            raise VerificationError("no_inline and always_inline attributes are incompatible",
                                    names_op=False)
        if self.optimize_none is not None and self.no_inline is None:
            raise VerificationError("with optimize_none must also be no_inline")
        entry = self.regions[0].blocks[0]
        if len(entry.args) != len(fn_type.params):
            raise VerificationError(f"entry block must have {len(fn_type.params)} arguments "
                                    "to match function signature")
        for i, (arg, expected) in enumerate(zip(entry.args, fn_type.params)):
            if arg.type != expected:
                raise VerificationError(f"type of entry block argument #{i}('{arg.type}') must "
                                        "match the type of the corresponding argument in "
                                        f"function signature('{expected}')")


@llvm.op
class ReturnOp(Op):
    """Returns from the function, with its one result unless it returns `void`."""

    name = "llvm.return"
    arg = OperandDef(LLVMType, optional=True, doc="the function's result")
    traits = (Pure, IsTerminator, ReturnLike)
    assembly_format = "attr-dict ($arg^ `:` type($arg))?"

    def verify_custom(self) -> None:
        parent = self.parent_op
        if not isinstance(parent, LLVMFuncOp):
            return
        note = [("when returning from function", parent.loc)]
        expected = parent.type.result
        if isinstance(expected, LLVMVoidType):
            if self.arg is not None:
                raise VerificationError("expected no operands", note)
            return
        if self.arg is None:
            raise VerificationError("expected 1 operand", note)
        if self.arg.type != expected:
            raise VerificationError("mismatching result types", note)


@llvm.op
class CallOp(Op):
    """A call of a function by symbol (`@f`), or through a pointer (the first operand,
    the callee's type then written before the signature); a variadic callee's type is
    written as `vararg(!llvm.func<...>)`:

        %r = llvm.call @f(%a) : (i32) -> f32
        llvm.call @printf(%fmt, %x) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32
        %s = llvm.call %fp(%a) : !llvm.ptr, (i32) -> f32
    """

    name = "llvm.call"
    callee = AttrDef(FlatSymbolRefAttr, optional=True, doc="the function called, if direct")
    var_callee_type = AttrDef(TypeAttrOf(LLVMFunctionType), optional=True,
                              doc="the callee's type, for a variadic callee")
    callee_operands = OperandDef(LLVMType, variadic=True,
                                 doc="the arguments (after the callee pointer, if indirect)")
    op_bundle_operands = OperandDef(LLVMType, variadic=True, doc="operand bundles' operands")
    result = ResultDef(LLVMType, optional=True)
    fastmathFlags = AttrDef(LLVMFastMathFlags, default=LLVM_FASTMATH_NONE)  # noqa: N815
    CConv = AttrDef(CConvAttr, default=C_CALLING_CONVENTION)
    TailCallKind = AttrDef(TailCallKindAttr, default=NO_TAIL_CALL)
    op_bundle_sizes = AttrDef(DenseArrayOf(i32), default=DenseArrayAttr(i32, ()))
    arg_attrs = AttrDef(ArrayOf(DictAttrConstraint), optional=True)
    res_attrs = AttrDef(ArrayOf(DictAttrConstraint), optional=True)
    traits = (AttrSizedOperandSegments,)

    _ELIDED = frozenset({"callee", "var_callee_type", "CConv", "TailCallKind",
                         "operandSegmentSizes", "op_bundle_sizes", "op_bundle_tags",
                         "arg_attrs", "res_attrs"})

    @classmethod
    def create_call(cls, callee: str, arguments, result_type=None) -> CallOp:
        """A direct call of `@callee`, returning `result_type` (None: void)."""
        op = cls.build(arguments, [], callee=SymbolRefAttr(callee),
                       result_types=[] if result_type is None else [result_type])
        return op  # type: ignore[return-value]

    @classmethod
    def parse(cls, p: AsmParser) -> CallOp:
        attrs: dict = {}
        cconv = parse_enum_keyword(p, CallingConvention)
        attrs["CConv"] = CConvAttr(cconv) if cconv is not None else C_CALLING_CONVENTION
        tail = parse_enum_keyword(p, TailCallKind)
        attrs["TailCallKind"] = TailCallKindAttr(tail) if tail is not None else NO_TAIL_CALL
        callee_name = p.parse_optional_symbol_name()
        pointer = None
        if callee_name is not None:
            attrs["callee"] = SymbolRefAttr(callee_name)
        else:
            pointer = p.parse_operand()
        p.parse_punctuation("(")
        arguments = [] if p.parse_optional_punctuation(")") else p.parse_operand_list()
        if arguments:
            p.parse_punctuation(")")
        if p.parse_optional_keyword("vararg") is not None:
            p.parse_punctuation("(")
            attrs["var_callee_type"] = TypeAttr(p.parse_type())
            p.parse_punctuation(")")
        p.parse_optional_attr_dict(attrs)
        # MLIR reports the trailing types' errors where they start, at the colon.
        types_pos = p.current_pos()
        p.parse_colon()
        pointer_type = None
        if pointer is not None:
            pointer_type = p.parse_type()
            if not p.parse_optional_comma():
                raise p.error("expected indirect call to have 2 trailing types", types_pos)
        signature, arg_attrs, res_attrs = _parse_call_signature(
            p, types_pos, "expected trailing function type" if pointer is not None
            else "expected direct call to have 1 trailing types")
        for name, value in (("arg_attrs", arg_attrs), ("res_attrs", res_attrs)):
            if value is not None:
                attrs[name] = value
        if len(signature.inputs) != len(arguments):
            raise p.error(f"expected {len(signature.inputs)} operand types to match "
                          f"{len(arguments)} operands", types_pos)
        if len(signature.results) > 1:
            raise p.error("expected function with 0 or 1 result", types_pos)
        if signature.results and isinstance(signature.results[0], LLVMVoidType):
            raise p.error("expected a non-void result type", types_pos)
        operands = p.resolve_operands(arguments, signature.inputs)
        if pointer is not None:
            operands = [p.resolve_operand(pointer, pointer_type), *operands]
        attrs["operandSegmentSizes"] = DenseArrayAttr(i32, (len(operands), 0))
        return cls.create(operands, list(signature.results), attrs)  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        if self.CConv != C_CALLING_CONVENTION:
            p.write(" " + self.CConv.cconv.value)
        if self.TailCallKind != NO_TAIL_CALL:
            p.write(" " + self.TailCallKind.kind.value)
        arguments = list(self.callee_operands)
        p.write(" ")
        if self.callee is not None:
            p.attr(self.callee)
        else:
            p.value(arguments.pop(0))
        p.write("(")
        p.value_list(arguments)
        p.write(")")
        if self.var_callee_type is not None:
            p.write(" vararg(")
            p.type(self.var_callee_type.value)
            p.write(")")
        p.attr_dict(self, set(self._ELIDED))
        p.write(" : ")
        if self.callee is None:
            p.type(self.callee_operands[0].type)
            p.write(", ")
        print_signature_with_attrs(p, [v.type for v in arguments], self.result_types,
                                   self.arg_attrs, self.res_attrs)

    def verify_custom(self) -> None:
        # MLIR's CallOp::verifySymbolUses, its checks in its order and words.
        self._verify_var_callee_type()
        operands = list(self.callee_operands)
        if self.callee is None:
            if not operands:
                raise VerificationError("must have either a `callee` attribute or at least an "
                                        "operand")
            if not isinstance(operands[0].type, LLVMPointerType):
                raise VerificationError(f"indirect call expects a pointer as callee: "
                                        f"'{operands[0].type}'")
            return  # an indirect callee's type is the signature written
        target = lookup_symbol(self, self.callee)
        if target is None:
            raise VerificationError(f"'{self.callee.root}' does not reference a symbol in the "
                                    "current scope")
        if not isinstance(target, LLVMFuncOp):
            raise VerificationError(f"'{self.callee.root}' does not reference a valid LLVM "
                                    "function, IFunc, or alias")
        fn_type = target.type
        if fn_type.vararg and self.var_callee_type is None:
            raise VerificationError("missing var_callee_type attribute for vararg call")
        if not fn_type.vararg and len(operands) != len(fn_type.params):
            raise VerificationError(f"incorrect number of operands ({len(operands)}) for callee "
                                    f"(expecting: {len(fn_type.params)})")
        if len(fn_type.params) > len(operands):
            raise VerificationError(f"incorrect number of operands ({len(operands)}) for "
                                    f"varargs callee (expecting at least: "
                                    f"{len(fn_type.params)})")
        for i, (expected, value) in enumerate(zip(fn_type.params, operands)):
            if value.type != expected:
                raise VerificationError(f"operand type mismatch for operand {i}: "
                                        f"'{value.type}' != '{expected}'")
        results = self.result_types
        if not results and not fn_type.returns_void:
            raise VerificationError("expected function call to produce a value")
        if results and fn_type.returns_void:
            raise VerificationError("calling function with void result must not produce "
                                    "values")
        if results and results[0] != fn_type.result:
            raise VerificationError(f"result type mismatch: '{results[0]}' != "
                                    f"'{fn_type.result}'")

    def _verify_var_callee_type(self) -> None:
        """The variadic callee's type, if given, fits the call's operands and result."""
        if self.var_callee_type is None:
            return
        var_type = self.var_callee_type.value
        if not var_type.vararg:
            raise VerificationError("expected var_callee_type to be a variadic function type")
        arguments = list(self.callee_operands)[0 if self.callee is not None else 1:]
        if len(var_type.params) > len(arguments):
            raise VerificationError(f"expected var_callee_type to have at most "
                                    f"{len(arguments)} parameters")
        for expected, value in zip(var_type.params, arguments):
            if expected != value.type:
                raise VerificationError(f"var_callee_type parameter type mismatch: "
                                        f"'{expected}' != '{value.type}'")
        results = self.result_types
        if not results:
            if not var_type.returns_void:
                raise VerificationError("expected var_callee_type to return void")
        elif results[0] != var_type.result:
            raise VerificationError(f"var_callee_type return type mismatch: "
                                    f"'{var_type.result}' != '{results[0]}'")


def _parse_call_signature(p: AsmParser, types_pos: int, failure: str):
    """A call's `(args) -> results`, with argument and result attributes; if it is not
    one, MLIR's two errors: the signature's own, then `failure` where the trailing
    types start."""
    try:
        if not p.text.startswith("(", p.current_pos()):
            raise p.expected("'('")
        return parse_signature_with_attrs(p)
    except DiagnosticError as exc:
        raise DiagnosticError([*exc.diagnostics,
                               *p.error(failure, types_pos).diagnostics]) from None


# ------------------------------------------------------------------ branches


@llvm.op
class BrOp(Op):
    """Jumps to `dest`, whose arguments receive `destOperands`."""

    name = "llvm.br"
    destOperands = OperandDef(LLVMType, variadic=True)  # noqa: N815 - MLIR's name
    loop_annotation = AttrDef(optional=True)
    dest = SuccessorDef()
    traits = (Pure, IsTerminator, BranchLike("destOperands"))
    assembly_format = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict"


@llvm.op
class CondBrOp(Op):
    """Jumps to `trueDest` if the condition holds, else to `falseDest`, passing each its
    operands; `weights([t, f])` say how likely each way is."""

    name = "llvm.cond_br"
    condition = OperandDef(I1)
    trueDestOperands = OperandDef(LLVMType, variadic=True)  # noqa: N815 - MLIR's name
    falseDestOperands = OperandDef(LLVMType, variadic=True)  # noqa: N815 - MLIR's name
    branch_weights = AttrDef(DenseArrayOf(i32), optional=True)
    loop_annotation = AttrDef(optional=True)
    trueDest = SuccessorDef()  # noqa: N815 - MLIR's name
    falseDest = SuccessorDef()  # noqa: N815 - MLIR's name
    traits = (AttrSizedOperandSegments, Pure, IsTerminator,
              BranchLike("trueDestOperands", "falseDestOperands", weights="branch_weights"))
    assembly_format = (
        "$condition (`weights` `(` $branch_weights^ `)`)? `,` "
        "$trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` "
        "$falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict")


@llvm.op
class SwitchOp(Op):
    """Jumps to the destination of the case equal to `value`, else to the default
    one; each destination gets its own operands:

        llvm.switch %x : i32, ^bb1 [
          1: ^bb2(%a : i32),
          2: ^bb3
        ]
    """

    name = "llvm.switch"
    value = OperandDef(SignlessInteger)
    defaultOperands = OperandDef(LLVMType, variadic=True)  # noqa: N815 - MLIR's name
    caseOperands = OperandDef(LLVMType, variadic=True)  # noqa: N815 - MLIR's name
    case_values = AttrDef(AnyIntElementsAttr, optional=True)
    case_operand_segments = AttrDef(DenseArrayOf(i32))
    branch_weights = AttrDef(DenseArrayOf(i32), optional=True)
    defaultDestination = SuccessorDef()  # noqa: N815 - MLIR's name
    caseDestinations = SuccessorDef(variadic=True)  # noqa: N815 - MLIR's name
    traits = (AttrSizedOperandSegments, Pure, IsTerminator,
              BranchLike("defaultOperands", "caseOperands", segments="case_operand_segments",
                         weights="branch_weights"))

    @classmethod
    def parse(cls, p: AsmParser) -> SwitchOp:
        flag = p.parse_operand()
        p.parse_colon()
        flag_type = p.parse_type()
        p.parse_comma()
        default, default_operands = parse_successor_and_operands(p)
        p.parse_punctuation("[")
        cases = []
        if not p.parse_optional_punctuation("]"):
            while True:
                value = p.parse_optional_integer()
                if value is None:  # MLIR's words, at the token found
                    raise p.error("expected integer value")
                p.parse_colon()
                cases.append((value, *parse_successor_and_operands(p)))
                if not p.parse_optional_comma():
                    break
            p.parse_punctuation("]")
        attrs = p.parse_optional_attr_dict()
        value = p.resolve_operand(flag, flag_type)
        attrs.update({
            "case_operand_segments": DenseArrayAttr(i32, tuple(len(c[2]) for c in cases)),
            "operandSegmentSizes": DenseArrayAttr(
                i32, (1, len(default_operands), sum(len(c[2]) for c in cases)))})
        if cases:
            attrs["case_values"] = case_values_attr([c[0] for c in cases], flag_type)
        operands = [value, *default_operands, *(v for c in cases for v in c[2])]
        return cls.create(operands, (), attrs, (),  # type: ignore[return-value]
                          [default, *(c[1] for c in cases)])

    def print(self, p: Printer) -> None:
        p.write(" ")
        p.value(self.value)
        p.write(" : ")
        p.type(self.value.type)
        p.write(", ")
        branch = BranchLike.get(self)
        print_successor_and_operands(p, self.defaultDestination,
                                     branch.successor_operands(self, 0))
        p.write(" [")
        width = self.value.type.width
        for i, (value, block) in enumerate(zip(case_values_of(self), self.caseDestinations)):
            p.write("," if i else "")
            p.newline()
            # Printed signed, as MLIR's APInt of the flag's width.
            signed = value - (1 << width) if width > 1 and value >> (width - 1) else value
            p.write(f"  {signed}: ")
            print_successor_and_operands(p, block, branch.successor_operands(self, i + 1))
        p.newline()
        p.write("]")
        p.attr_dict(self, {"case_values", "case_operand_segments", "operandSegmentSizes"})

    def verify_custom(self) -> None:
        destinations = len(self.successors) - 1
        count = 0 if self.case_values is None else self.case_values.array.size
        if count != destinations:
            raise VerificationError("expects number of case values to match number of case "
                                    "destinations")
        if self.case_values is not None and \
                self.case_values.type.element_type != self.value.type:
            raise VerificationError("expects case value type to match condition value type",
                                    names_op=False)


@llvm.op
class UnreachableOp(Op):
    """Marks a point control never reaches (LLVM's `unreachable`)."""

    name = "llvm.unreachable"
    traits = (IsTerminator,)
    assembly_format = "attr-dict"


__all__ = ["LLVMFuncOp", "ReturnOp", "CallOp", "BrOp", "CondBrOp", "SwitchOp", "UnreachableOp",
           "parse_enum_keyword", "parse_sparse_keyword", "parse_linkage_prefix",
           "print_linkage_prefix", "print_unnamed_addr"]
