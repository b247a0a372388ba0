"""What the `llvm` dialect's op declarations share: type constraints in MLIR's words,
the integer-valued enums and flag sets its ops store (`predicate = 2 : i64`,
`overflowFlags = 1 : i32`, `noWrapFlags = 3 : i32`) and their custom spellings
(`"slt"`, `overflow<nsw>`, `inbounds|nuw`).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.attributes import (
    FloatType,
    IntegerAttr,
    IntegerType,
    Type,
    VectorType,
    i32,
    i64,
)
from mlc.ir.opdef.constraints import AttrConstraint, IntAttrOf, TypeMatches
from mlc.ir.opdef.spelling import EnumSpelling, Spelling
from mlc.llvm.dialect.types import LLVMArrayType, LLVMPointerType, LLVMStructType

# ------------------------------------------------------------------ types


def _signless(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.signedness == "signless"


def _scalar_or_vector(scalar):
    def check(t: Type) -> bool:
        return scalar(t) or (isinstance(t, VectorType) and scalar(t.element_type))
    return check


def _vector_of(scalar):
    return lambda t: isinstance(t, VectorType) and scalar(t.element_type)


def _is_pointer(t: Type) -> bool:
    return isinstance(t, LLVMPointerType)


def _is_float(t: Type) -> bool:
    return isinstance(t, FloatType)


Pointer = TypeMatches(_is_pointer, "LLVM pointer type")
SignlessInteger = TypeMatches(_signless, "signless integer")
AnyInteger = TypeMatches(lambda t: isinstance(t, IntegerType), "integer")
IntOrIntVector = TypeMatches(_scalar_or_vector(_signless),
                             "signless integer or LLVM dialect-compatible vector of signless "
                             "integer")
FloatOrFloatVector = TypeMatches(_scalar_or_vector(_is_float),
                                 "floating point LLVM type or LLVM dialect-compatible vector of "
                                 "floating point LLVM type")
BoolOrBoolVector = TypeMatches(_scalar_or_vector(lambda t: t == IntegerType(1)),
                               "1-bit signless integer or LLVM dialect-compatible vector of 1-bit "
                               "signless integer")
IntOrPointerOrVector = TypeMatches(
    _scalar_or_vector(lambda t: _signless(t) or _is_pointer(t)),
    "signless integer or LLVM dialect-compatible vector of signless integer or LLVM pointer "
    "type or LLVM dialect-compatible vector of LLVM pointer type")
PointerOrPointerVector = TypeMatches(_scalar_or_vector(_is_pointer),
                                     "LLVM pointer type or LLVM dialect-compatible vector of "
                                     "LLVM pointer type")
IntVector = TypeMatches(_vector_of(_signless), "LLVM dialect-compatible vector of signless "
                                               "integer")
FloatVector = TypeMatches(_vector_of(_is_float), "LLVM dialect-compatible vector of floating "
                                                 "point LLVM type")
BoolVector = TypeMatches(_vector_of(lambda t: t == IntegerType(1)),
                         "LLVM dialect-compatible vector of 1-bit signless integer")
AnyVector = TypeMatches(lambda t: isinstance(t, VectorType), "LLVM dialect-compatible vector type")
Aggregate = TypeMatches(lambda t: isinstance(t, (LLVMStructType, LLVMArrayType)),
                        "LLVM aggregate type")


def is_llvm_compatible(t: Type) -> bool:
    """Whether `t` may be the type of a value of the llvm dialect (MLIR's
    isCompatibleType): LLVM's own types, signless integers, floats, vectors of them."""
    from mlc.ir.core.attributes import DialectType

    if isinstance(t, DialectType):
        return t.name.startswith("llvm.")
    if isinstance(t, VectorType):
        return _signless(t.element_type) or _is_float(t.element_type) or \
            _is_pointer(t.element_type)
    return _signless(t) or _is_float(t)


LLVMType = TypeMatches(is_llvm_compatible, "LLVM dialect-compatible type")


def bool_like(t: Type) -> Type:
    """`i1`, or a vector of `i1` of the same shape as the vector `t`."""
    if isinstance(t, VectorType):
        return VectorType(t.shape, IntegerType(1), t.scalable)
    return IntegerType(1)


@dataclass(frozen=True)
class NonNegativeI32Attr(IntAttrOf):
    """An `i32` attribute that is not negative (an address space)."""

    type: Type = i32

    @property
    def description(self) -> str:  # type: ignore[override]
        return "32-bit signless integer attribute whose value is non-negative"

    def check(self, attr) -> bool:
        return super().check(attr) and attr.value >= 0


# ------------------------------------------------------------------ enums


@dataclass(frozen=True)
class SparseIntEnum(AttrConstraint):
    """An integer-valued enum whose cases need not be numbered 0, 1, 2... (MLIR's
    `I64EnumAttr` with explicit values): stored as `N : type`, spelled as a keyword."""

    name: str
    cases: tuple[tuple[str, int], ...]
    type: Type = i64

    @property
    def spelling(self) -> Spelling:  # type: ignore[override]
        return _SparseEnumSpelling(self)

    @property
    def description(self) -> str:  # type: ignore[override]
        values = ", ".join(str(v) for _, v in self.cases)
        return f"{self.type.width}-bit signless integer attribute whose value is one of {values}"

    @property
    def summary(self) -> str:
        return f"{self.name}: one of " + ", ".join(k for k, _ in self.cases)

    def check(self, attr) -> bool:
        return isinstance(attr, IntegerAttr) and attr.type == self.type and \
            any(attr.value == v for _, v in self.cases)

    def attr(self, keyword: str) -> IntegerAttr:
        return IntegerAttr(dict(self.cases)[keyword], self.type)

    def keyword(self, attr: IntegerAttr) -> str:
        return next(k for k, v in self.cases if v == attr.value)


class _SparseEnumSpelling(Spelling):
    def __init__(self, enum: SparseIntEnum):
        self.enum = enum
        self.expected = f"{enum.name} to be one of: " + ", ".join(k for k, _ in enum.cases)

    def parse_optional(self, p):
        word = p.parse_optional_keyword(tuple(k for k, _ in self.enum.cases))
        return None if word is None else self.enum.attr(word)

    def print(self, w, value) -> None:
        w.write(self.enum.keyword(value))


class QuotedEnumSpelling(EnumSpelling):
    """A case of an enum written as a string, `"slt"` (llvm.icmp's predicate)."""

    def parse_attribute(self, p, name: str):
        # MLIR parses any attribute, wants a string, then looks the case up.
        pos = p.current_pos()
        word = p.parse_optional_string()
        if word is None:
            p.parse_attribute()
            raise p.error("invalid kind of attribute specified", pos)
        if word not in self.cases:
            raise p.error(f"'{word}' is an incorrect value of the '{name}' attribute", pos)
        return self._value(word)

    def print(self, w, value) -> None:
        w.write(f'"{self.cases[value.value]}"')


@dataclass(frozen=True)
class Predicate(AttrConstraint):
    """A comparison predicate: `i64` numbered as LLVM numbers them, a string in custom
    form."""

    name: str
    cases: tuple[str, ...]

    @property
    def spelling(self) -> Spelling:  # type: ignore[override]
        return QuotedEnumSpelling(self.name, self.cases, i64)

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"llvm.{self.name.lower()} comparison predicate"

    @property
    def summary(self) -> str:
        return f"{self.name}: one of " + ", ".join(self.cases)

    def check(self, attr) -> bool:
        return isinstance(attr, IntegerAttr) and attr.type == i64 and \
            0 <= attr.value < len(self.cases)

    def attr(self, keyword: str) -> IntegerAttr:
        return IntegerAttr(self.cases.index(keyword), i64)

    def keyword(self, attr: IntegerAttr) -> str:
        return self.cases[attr.value]


ICmpPredicate = Predicate("ICmpPredicate", ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
                                            "ugt", "uge"))
# `_false`/`_true` are MLIR's spellings of LLVM's `false`/`true` predicates.
FCmpPredicate = Predicate("FCmpPredicate", ("_false", "oeq", "ogt", "oge", "olt", "ole", "one",
                                            "ord", "ueq", "ugt", "uge", "ult", "ule", "une",
                                            "uno", "_true"))

AtomicOrdering = SparseIntEnum("AtomicOrdering", (
    ("not_atomic", 0), ("unordered", 1), ("monotonic", 2), ("acquire", 4), ("release", 5),
    ("acq_rel", 6), ("seq_cst", 7)))
NOT_ATOMIC = AtomicOrdering.attr("not_atomic")

# MLIR's names and numbers of LLVM's `atomicrmw` operations (`and`, `or`, `xor` are
# spelled with a leading underscore in the dialect).
AtomicBinOp = SparseIntEnum("AtomicBinOp", tuple((name, n) for n, name in enumerate((
    "xchg", "add", "sub", "_and", "nand", "_or", "_xor", "max", "min", "umax", "umin", "fadd",
    "fsub", "fmax", "fmin", "uinc_wrap", "udec_wrap", "usub_cond", "usub_sat", "fmaximum",
    "fminimum"))))

Visibility = SparseIntEnum("Visibility", (("default", 0), ("hidden", 1), ("protected", 2)))
DEFAULT_VISIBILITY = Visibility.attr("default")

UnnamedAddr = SparseIntEnum("UnnamedAddr", (("none", 0), ("local_unnamed_addr", 1),
                                            ("unnamed_addr", 2)))
NO_UNNAMED_ADDR = UnnamedAddr.attr("none")


# ------------------------------------------------------------------ flag sets


@dataclass(frozen=True)
class FlagBits(AttrConstraint):
    """A set of flags stored as the bits of an integer (`overflowFlags = 3 : i32`), as
    MLIR stores its flag properties; `names` are the bits from the lowest. The custom
    spelling is given by the op's format."""

    name: str
    names: tuple[str, ...]
    type: Type = i32
    spelling_: Spelling | None = None

    @property
    def spelling(self) -> Spelling:  # type: ignore[override]
        return self.spelling_

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"{self.name}: {self.type.width}-bit flags " + ", ".join(self.names)

    def check(self, attr) -> bool:
        return isinstance(attr, IntegerAttr) and attr.type == self.type and \
            0 <= attr.value < (1 << len(self.names))

    def names_of(self, bits: int) -> list[str]:
        return [n for i, n in enumerate(self.names) if bits >> i & 1]


class _OverflowSpelling(Spelling):
    """`overflow<nsw, nuw>`; absent when no flag is set."""

    expected = "'overflow'"

    def parse_optional(self, p):
        if p.parse_optional_keyword("overflow") is None:
            return None
        p.parse_punctuation("<")
        bits = 0
        while True:
            pos = p.current_pos()
            word = p.parse_keyword()
            if word not in ("nsw", "nuw", "none"):
                raise p.error("expected IntegerOverflowFlags to be one of: none, nsw, nuw", pos)
            bits |= {"nsw": 1, "nuw": 2, "none": 0}[word]
            if not p.parse_optional_comma():
                break
        p.parse_punctuation(">")
        return IntegerAttr(bits, i32)

    def print(self, w, value) -> None:
        w.write("overflow<" + ", ".join(OverflowFlags.names_of(value.value)) + ">")


OverflowFlags = FlagBits("IntegerOverflowFlags", ("nsw", "nuw"), spelling_=_OverflowSpelling())
NO_OVERFLOW = IntegerAttr(0, i32)
OVERFLOW_NSW, OVERFLOW_NUW = 1, 2  # the bits of IntegerOverflowFlags

GEP_INBOUNDS = 3  # inbounds_flag | nusw: LLVM's `inbounds` implies `nusw`
_GEP_WORDS = {"inbounds": GEP_INBOUNDS, "inbounds_flag": 1, "nusw": 2, "nuw": 4, "none": 0}


class _GEPFlagsSpelling(Spelling):
    """`inbounds`, `nusw|nuw`, `inbounds|nuw`...: the bits of GEPNoWrapFlags."""

    expected = "GEPNoWrapFlags"

    def parse_optional(self, p):
        word = p.parse_optional_keyword(tuple(_GEP_WORDS))
        if word is None:
            return None
        bits = _GEP_WORDS[word]
        while p.parse_optional_punctuation("|"):
            pos = p.current_pos()
            word = p.parse_keyword()
            if word not in _GEP_WORDS:
                raise p.error("expected GEPNoWrapFlags to be one of: "
                              + ", ".join(_GEP_WORDS), pos)
            bits |= _GEP_WORDS[word]
        return IntegerAttr(bits, i32)

    def print(self, w, value) -> None:
        bits = value.value
        words = []
        if bits & GEP_INBOUNDS == GEP_INBOUNDS:
            words.append("inbounds")
            bits &= ~GEP_INBOUNDS
        words.extend(n for i, n in enumerate(GEPNoWrapFlags.names) if bits >> i & 1)
        w.write("|".join(words))


GEPNoWrapFlags = FlagBits("GEPNoWrapFlags", ("inbounds_flag", "nusw", "nuw"),
                          spelling_=_GEPFlagsSpelling())
NO_WRAP_NONE = IntegerAttr(0, i32)
