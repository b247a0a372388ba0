"""The `llvm` dialect's types and attributes, spelled as MLIR 22 spells them.

    !llvm.ptr                      an opaque pointer (`!llvm.ptr<1>`: address space 1)
    !llvm.struct<(i64, ptr)>       a literal struct (`packed` before the fields)
    !llvm.array<4 x f32>           a fixed-size array
    !llvm.func<f32 (ptr, i64)>     a function type (`void` result, `...` for varargs)
    !llvm.void                     no value (a function's result only)

Inside an LLVM type the nested LLVM types drop their `!llvm.` prefix
(`!llvm.struct<(ptr, array<2 x i64>)>`), as MLIR prints and reads them; builtin
types (integers, floats, vectors) are written as everywhere else.
"""

from __future__ import annotations

import enum
import re
from typing import Annotated

from mlc.ir.core.attributes import (  # noqa: F401 (Attribute: named in annotations)
    AsmWriter,
    Attribute,
    DialectAttribute,
    DialectType,
    Type,
    escape_string,
)
from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.dialects.arith import FastMath
from mlc.ir.opdef.spelling import BitEnumSpelling
from mlc.ir.text.asm_parser import AsmParser


class LLVMDialect(Dialect):
    """The dialect, which checks its attributes on function arguments and results."""

    def verify_value_attribute(self, op, kind, index, name, attr):
        from mlc.llvm.dialect.param_attrs import verify_parameter_attribute

        return verify_parameter_attribute(op, kind, index, name, attr)

    def unknown_type_message(self, mnemonic: str) -> str | None:
        """MLIR's words: a builtin type after `!llvm.` is refused as such, another word
        is no LLVM type (LLVM types mlc lacks keep the generic words)."""
        if _BUILTIN_TYPE_START.fullmatch(mnemonic):
            return "unexpected type, expected keyword"
        if mnemonic in _LLVM_TYPE_KEYWORDS:
            return None
        return f"unknown LLVM type: {mnemonic}"

    def materialize_constant(self, value, type_, loc):
        """The op of a folded constant: an integer, float or elements constant is an
        `llvm.mlir.constant`; `#llvm.zero`, `#llvm.undef` and `#llvm.poison` are the ops
        of those names and a symbol is its `llvm.mlir.addressof` (what those ops fold
        to, so that the folder unique them as MLIR's does)."""
        from mlc.ir.core.attributes import (
            DenseElementsAttr,
            FloatAttr,
            IntegerAttr,
            SymbolRefAttr,
        )
        from mlc.llvm.dialect import ops_values

        if isinstance(value, (IntegerAttr, FloatAttr, DenseElementsAttr)) and value.type == type_:
            return ops_values.ConstantOp.create_from_flat([], {"value": value}, [type_], loc)
        placeholder = {ZeroAttr: ops_values.ZeroOp, UndefAttr: ops_values.UndefOp,
                       PoisonAttr: ops_values.PoisonOp}.get(type(value))
        if placeholder is not None:
            return placeholder.create_from_flat([], {}, [type_], loc)
        if isinstance(value, SymbolRefAttr) and not value.nested and \
                isinstance(type_, LLVMPointerType):
            return ops_values.AddressOfOp.create_from_flat([], {"global_name": value}, [type_],
                                                           loc)
        return None


# What starts a builtin type (`f32`, `i8`, `tensor`...), and MLIR's LLVM type keywords.
_BUILTIN_TYPE_START = re.compile(
    r"[su]?i[0-9]+|f[0-9]+(E[0-9]+M[0-9]+\w*)?|bf16|tf32|index|none|tensor|vector|memref|"
    r"complex|tuple|opaque")
_LLVM_TYPE_KEYWORDS = frozenset({"void", "ptr", "func", "array", "struct", "vec", "token",
                                 "label", "metadata", "x86_amx", "target", "ppc_fp128"})

llvm = LLVMDialect("llvm", "MLIR's LLVM dialect: LLVM IR's instructions and types as ops, "
                           "the last level before LLVM IR.")

# The keywords that start an LLVM type written without its `!llvm.` prefix.
_PRETTY_KEYWORDS = ("ptr", "struct", "array", "func", "void", "token", "label", "metadata",
                    "ppc_fp128")


def parse_llvm_element_type(p: AsmParser) -> Type:
    """A type nested in an LLVM type: `ptr`, `array<...>`... without the dialect
    prefix, or any type in its usual spelling."""
    keyword = p.parse_optional_keyword(_PRETTY_KEYWORDS)
    if keyword is None:
        return p.parse_type()
    return p.parse_dialect_body(llvm.types["llvm." + keyword])


def write_llvm_element_type(w: AsmWriter, type_: Type) -> None:
    """Write `type_` as a type nested in an LLVM type (LLVM types without `!llvm.`)."""
    if isinstance(type_, DialectType) and type_.name.startswith("llvm."):
        w.write(type_.name[len("llvm."):])
        w.dialect_body(type_)
    else:
        type_.write(w)


def _write_element_list(w: AsmWriter, types: tuple[Type, ...]) -> None:
    for i, type_ in enumerate(types):
        if i:
            w.write(", ")
        write_llvm_element_type(w, type_)


def _parse_element_list(p: AsmParser, close: str) -> tuple[Type, ...]:
    types: list[Type] = []
    if p.parse_optional_punctuation(close):
        return ()
    while True:
        types.append(parse_llvm_element_type(p))
        if not p.parse_optional_comma():
            break
    p.parse_punctuation(close)
    return tuple(types)


@llvm.type
class LLVMPointerType(DialectType):
    """An opaque pointer into an address space (0, the default, is not written)."""

    name = "llvm.ptr"
    address_space: int = 0

    @classmethod
    def parse(cls, p: AsmParser) -> LLVMPointerType:
        if not p.parse_optional_punctuation("<"):
            return cls()
        space = p.parse_integer()
        p.parse_punctuation(">")
        return cls(space)

    def print(self, w: AsmWriter) -> None:
        if self.address_space:
            w.write(f"<{self.address_space}>")


@llvm.type
class LLVMVoidType(DialectType):
    """The result type of a function that returns nothing."""

    name = "llvm.void"


@llvm.type
class LLVMTokenType(DialectType):
    """A token: a value only some intrinsics make and take, never stored or selected."""

    name = "llvm.token"


@llvm.type
class LLVMLabelType(DialectType):
    """A basic block's label, as LLVM IR types it."""

    name = "llvm.label"


@llvm.type
class LLVMMetadataType(DialectType):
    """Metadata as a value (an intrinsic's operand)."""

    name = "llvm.metadata"


@llvm.type
class LLVMPPCFP128Type(DialectType):
    """PowerPC's 128-bit float (two doubles), which has no builtin type."""

    name = "llvm.ppc_fp128"


@llvm.type
class LLVMArrayType(DialectType):
    """`size` elements of one type, laid out contiguously."""

    name = "llvm.array"
    size: int
    element: Type

    @classmethod
    def parse(cls, p: AsmParser) -> LLVMArrayType:
        pos = p.current_pos()
        p.parse_punctuation("<")
        size = p.parse_dimension()
        element = parse_llvm_element_type(p)
        p.parse_punctuation(">")
        if isinstance(element, (LLVMVoidType, LLVMFunctionType, LLVMTokenType, LLVMLabelType,
                                LLVMMetadataType)):
            raise p.error("invalid array element type", pos)
        return cls(size, element)

    def print(self, w: AsmWriter) -> None:
        w.write(f"<{self.size} x ")
        write_llvm_element_type(w, self.element)
        w.write(">")


@llvm.type
class LLVMStructType(DialectType):
    """A struct of field types, `packed` without padding: literal (`struct<(i32)>`) or
    identified by a name (`struct<"node", (i32, ptr)>`), which within one input always
    has one body; an identified struct may be `opaque` (a body not given)."""

    name = "llvm.struct"
    fields: tuple[Type, ...]
    packed: bool = False
    identifier: str | None = None
    opaque: bool = False

    @classmethod
    def parse(cls, p: AsmParser) -> LLVMStructType:
        pos = p.current_pos()
        p.parse_punctuation("<")
        identifier = p.parse_optional_string()
        if identifier is None:
            if p.parse_optional_keyword("opaque") is not None:
                raise p.error("only identified structs can be opaque", pos)
            packed = p.parse_optional_keyword("packed") is not None
            fields = cls._parse_fields(p, pos)
            p.parse_punctuation(">")
            return cls(fields, packed)
        if not p.parse_optional_comma():
            raise p.error("struct without a body only allowed in a recursive struct", pos)
        known = p.state.dialect_state.setdefault("llvm.struct", {})
        enclosing = p.state.dialect_state.setdefault("llvm.struct.enclosing", [])
        if identifier in enclosing:
            raise p.error("identifier already used for an enclosing struct", pos)
        enclosing.append(identifier)
        try:
            opaque = p.parse_optional_keyword("opaque") is not None
            packed = not opaque and p.parse_optional_keyword("packed") is not None
            fields = () if opaque else cls._parse_fields(p, pos)
        finally:
            enclosing.pop()
        p.parse_punctuation(">")
        type_ = cls(fields, packed, identifier, opaque)
        previous = known.get(identifier)
        if previous is not None and previous != type_:
            if opaque:
                raise p.error("redeclaring defined struct as opaque", pos)
            raise p.error("identified type already used with a different body", pos)
        known[identifier] = type_
        return type_

    @staticmethod
    def _parse_fields(p: AsmParser, pos: int) -> tuple[Type, ...]:
        p.parse_punctuation("(")
        fields = _parse_element_list(p, ")")
        if any(isinstance(f, (LLVMVoidType, LLVMFunctionType, LLVMTokenType, LLVMLabelType,
                              LLVMMetadataType)) for f in fields):
            raise p.error("invalid LLVM structure element type", pos)
        return fields

    def print(self, w: AsmWriter) -> None:
        w.write("<")
        if self.identifier is not None:
            w.write(f"\"{escape_string(self.identifier)}\", ")
            if self.opaque:
                w.write("opaque>")
                return
        w.write("packed (" if self.packed else "(")
        _write_element_list(w, self.fields)
        w.write(")>")


@llvm.type
class LLVMFunctionType(DialectType):
    """A function's signature: one result (`void` for none), the parameters, and
    whether more arguments may follow (`...`)."""

    name = "llvm.func"
    result: Type
    params: tuple[Type, ...]
    vararg: bool = False

    @classmethod
    def parse(cls, p: AsmParser) -> LLVMFunctionType:
        pos = p.current_pos()
        p.parse_punctuation("<")
        result = parse_llvm_element_type(p)
        if isinstance(result, (LLVMFunctionType, LLVMLabelType, LLVMMetadataType)):
            raise p.error("invalid function result type", pos)
        p.parse_punctuation("(")
        params: list[Type] = []
        vararg = False
        if not p.parse_optional_punctuation(")"):
            while True:
                if p.parse_optional_punctuation("..."):
                    vararg = True
                    break
                param = parse_llvm_element_type(p)
                if isinstance(param, (LLVMVoidType, LLVMFunctionType)):
                    raise p.error("invalid function argument type", pos)
                params.append(param)
                if not p.parse_optional_comma():
                    break
            p.parse_punctuation(")")
        p.parse_punctuation(">")
        return cls(result, tuple(params), vararg)

    def print(self, w: AsmWriter) -> None:
        w.write("<")
        write_llvm_element_type(w, self.result)
        w.write(" (")
        _write_element_list(w, self.params)
        if self.vararg:
            w.write(", ..." if self.params else "...")
        w.write(")>")

    @property
    def returns_void(self) -> bool:
        return isinstance(self.result, LLVMVoidType)

    # A builtin function type's view, which the function-like ops' syntax reads.
    @property
    def inputs(self) -> tuple[Type, ...]:
        return self.params

    @property
    def results(self) -> tuple[Type, ...]:
        return () if self.returns_void else (self.result,)


# ------------------------------------------------------------------ attributes


@llvm.attribute
class LLVMFastMathFlags(DialectAttribute):
    """`#llvm.fastmath<...>`: which IEEE-754 guarantees a float instruction may relax
    (`none`, `fast` for all, or a comma-separated list: `contract` lets LLVM form FMAs)."""

    name = "llvm.fastmath"
    flags: Annotated[FastMath, BitEnumSpelling(FastMath, ", ", all_name="fast")] = FastMath(0)
    assembly_format = "`<` $flags `>`"


LLVM_FASTMATH_NONE = LLVMFastMathFlags()


@llvm.attribute
class ZeroAttr(DialectAttribute):
    """`#llvm.zero`: the zero of any type (a null pointer, an all-zero aggregate), what
    `llvm.mlir.zero` folds to where no builtin zero exists."""

    name = "llvm.zero"


@llvm.attribute
class UndefAttr(DialectAttribute):
    """`#llvm.undef`: the value of `llvm.mlir.undef`, whatever its type."""

    name = "llvm.undef"


@llvm.attribute
class PoisonAttr(DialectAttribute):
    """`#llvm.poison`: the value of `llvm.mlir.poison`, whatever its type."""

    name = "llvm.poison"


class Linkage(enum.Enum):
    """How a global or function is visible to the linker (LLVM's linkage types)."""

    private = "private"
    internal = "internal"
    available_externally = "available_externally"
    linkonce = "linkonce"
    weak = "weak"
    common = "common"
    appending = "appending"
    extern_weak = "extern_weak"
    linkonce_odr = "linkonce_odr"
    weak_odr = "weak_odr"
    external = "external"


@llvm.attribute
class LinkageAttr(DialectAttribute):
    """`#llvm.linkage<internal>`: a symbol's linkage."""

    name = "llvm.linkage"
    linkage: Linkage
    assembly_format = "`<` $linkage `>`"


class CallingConvention(enum.Enum):
    """The calling conventions mlc emits (LLVM has more)."""

    ccc = "ccc"
    fastcc = "fastcc"
    coldcc = "coldcc"


@llvm.attribute
class CConvAttr(DialectAttribute):
    """`#llvm.cconv<ccc>`: a function's or call's calling convention."""

    name = "llvm.cconv"
    cconv: CallingConvention
    assembly_format = "`<` $cconv `>`"


class TailCallKind(enum.Enum):
    """Whether a call may or must be a tail call."""

    none = "none"
    tail = "tail"
    musttail = "musttail"
    notail = "notail"


@llvm.attribute
class TailCallKindAttr(DialectAttribute):
    """`#llvm.tailcallkind<none>`: a call's tail-call marker."""

    name = "llvm.tailcallkind"
    kind: TailCallKind
    assembly_format = "`<` $kind `>`"


EXTERNAL_LINKAGE = LinkageAttr(Linkage.external)
C_CALLING_CONVENTION = CConvAttr(CallingConvention.ccc)
NO_TAIL_CALL = TailCallKindAttr(TailCallKind.none)

ptr = LLVMPointerType()
void = LLVMVoidType()

__all__ = [
    "llvm", "LLVMPointerType", "LLVMVoidType", "LLVMArrayType", "LLVMStructType",
    "LLVMFunctionType", "LLVMFastMathFlags", "LLVM_FASTMATH_NONE", "Linkage", "LinkageAttr",
    "CallingConvention", "CConvAttr", "TailCallKind", "TailCallKindAttr", "EXTERNAL_LINKAGE",
    "C_CALLING_CONVENTION", "NO_TAIL_CALL", "ptr", "void", "parse_llvm_element_type",
    "ZeroAttr", "UndefAttr", "PoisonAttr", "LLVMTokenType", "LLVMLabelType", "LLVMMetadataType",
    "LLVMPPCFP128Type",
    "write_llvm_element_type",
]


# ------------------------------------------------------------------ loop annotations
#
# `#llvm.loop_annotation<unroll = <disable = true>, mustProgress = true>`: the loop
# metadata MLIR attaches to a loop's latch branch. Each kind is a set of optional
# `key = value` parameters, printed in the order MLIR declares them; a value that is
# itself a loop attribute is written as its bare body (`<disable = true>`).


class _LoopAttribute(DialectAttribute):
    """Base of the loop metadata attributes: `entries` in declaration order."""

    FIELDS: tuple[str, ...] = ()
    NESTED: dict[str, str] = {}

    @classmethod
    def parse(cls, p: AsmParser):
        p.parse_punctuation("<")
        found: dict[str, object] = {}
        if not p.parse_optional_punctuation(">"):
            while True:
                pos = p.current_pos()
                key = p.parse_keyword()
                if key not in cls.FIELDS:
                    raise p.error(f"'{cls.name}' has no parameter '{key}' (it has: "
                                  f"{', '.join(cls.FIELDS)})", pos)
                if key in found:
                    raise p.error(f"'{cls.name}' parameter '{key}' given twice", pos)
                p.parse_equal()
                nested = cls.NESTED.get(key)
                if nested is not None and p.parse_optional_punctuation("<"):
                    found[key] = llvm.attributes[nested]._parse_after_open(p)
                else:
                    found[key] = p.parse_attribute()
                if not p.parse_optional_comma():
                    break
            p.parse_punctuation(">")
        return cls.of(found)

    @classmethod
    def of(cls, values: dict):
        """The attribute with the parameters `values` (by name)."""
        keys = tuple(k for k in cls.FIELDS if k in values)
        return cls(keys, tuple(values[k] for k in keys))

    @property
    def entries(self) -> tuple:
        return tuple(zip(self.keys, self.values))

    @classmethod
    def _parse_after_open(cls, p: AsmParser):
        found: dict[str, object] = {}
        if not p.parse_optional_punctuation(">"):
            while True:
                pos = p.current_pos()
                key = p.parse_keyword()
                if key not in cls.FIELDS:
                    raise p.error(f"'{cls.name}' has no parameter '{key}'", pos)
                p.parse_equal()
                found[key] = p.parse_attribute()
                if not p.parse_optional_comma():
                    break
            p.parse_punctuation(">")
        return cls.of(found)

    def print(self, w: AsmWriter) -> None:
        w.write("<")
        for i, (key, value) in enumerate(self.entries):
            w.write((", " if i else "") + key + " = ")
            if isinstance(value, _LoopAttribute):
                w.dialect_body(value)
            else:
                value.write(w)
        w.write(">")

    def get(self, key: str):
        """The value of parameter `key`, or None."""
        return dict(self.entries).get(key)


def _loop_attribute(mnemonic: str, fields: tuple[str, ...], doc: str,
                    nested: dict[str, str] | None = None) -> type:
    cls = type(f"Loop{mnemonic.title().replace('_', '')}Attr", (_LoopAttribute,), {
        "__doc__": doc, "__module__": __name__, "name": f"llvm.{mnemonic}",
        "FIELDS": fields, "NESTED": nested or {},
        # The text layer looks for a class's own parse/print.
        "parse": vars(_LoopAttribute)["parse"], "print": _LoopAttribute.print,
        "__annotations__": {"keys": "tuple[str, ...]", "values": "tuple[Attribute, ...]"}})
    return llvm.attribute(cls)


LoopVectorizeAttr = _loop_attribute(
    "loop_vectorize", ("disable", "predicateEnable", "scalableEnable", "width",
                       "followupVectorized", "followupEpilogue", "followupAll"),
    "`#llvm.loop_vectorize<...>`: the loop vectorizer's hints for one loop.")
LoopInterleaveAttr = _loop_attribute(
    "loop_interleave", ("count",), "`#llvm.loop_interleave<count = N : i32>`.")
LoopUnrollAttr = _loop_attribute(
    "loop_unroll", ("disable", "count", "runtimeDisable", "full", "followupUnrolled",
                    "followupRemainder", "followupAll"),
    "`#llvm.loop_unroll<...>`: whether and how much to unroll one loop.")
LoopUnrollAndJamAttr = _loop_attribute(
    "loop_unroll_and_jam", ("disable", "count", "followupOuter", "followupInner",
                            "followupRemainderOuter", "followupRemainderInner", "followupAll"),
    "`#llvm.loop_unroll_and_jam<...>`.")
LoopLICMAttr = _loop_attribute("loop_licm", ("disable", "versioningDisable"),
                               "`#llvm.loop_licm<...>`.")
LoopDistributeAttr = _loop_attribute(
    "loop_distribute", ("disable", "followupCoincident", "followupSequential",
                        "followupFallback", "followupAll"), "`#llvm.loop_distribute<...>`.")
LoopPipelineAttr = _loop_attribute("loop_pipeline", ("disable", "initiationinterval"),
                                   "`#llvm.loop_pipeline<...>`.")
LoopPeeledAttr = _loop_attribute("loop_peeled", ("count",), "`#llvm.loop_peeled<...>`.")
LoopUnswitchAttr = _loop_attribute("loop_unswitch", ("partialDisable",),
                                   "`#llvm.loop_unswitch<...>`.")
LoopAnnotationAttr = _loop_attribute(
    "loop_annotation",
    ("disableNonforced", "vectorize", "interleave", "unroll", "unrollAndJam", "licm",
     "distribute", "pipeline", "peeled", "unswitch", "mustProgress", "isVectorized",
     "startLoc", "endLoc", "parallelAccesses"),
    "`#llvm.loop_annotation<...>`: LLVM's loop metadata for the loop whose latch "
    "branch carries it.",
    {"vectorize": "llvm.loop_vectorize", "interleave": "llvm.loop_interleave",
     "unroll": "llvm.loop_unroll", "unrollAndJam": "llvm.loop_unroll_and_jam",
     "licm": "llvm.loop_licm", "distribute": "llvm.loop_distribute",
     "pipeline": "llvm.loop_pipeline", "peeled": "llvm.loop_peeled",
     "unswitch": "llvm.loop_unswitch"})
