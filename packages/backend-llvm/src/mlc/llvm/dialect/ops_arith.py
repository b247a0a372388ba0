"""The `llvm` dialect's arithmetic: integer and float binary ops, comparisons, `select`
and the casts, one op per LLVM instruction, in MLIR 22's syntax:

    %0 = llvm.add %a, %b overflow<nsw> : i32
    %1 = llvm.sdiv exact %a, %b : i32
    %2 = llvm.fadd %x, %y {fastmathFlags = #llvm.fastmath<fast>} : f32
    %3 = llvm.icmp "slt" %a, %b : i32
    %4 = llvm.zext nneg %a : i32 to i64
"""

from __future__ import annotations

from mlc.ir.core.attributes import IntegerAttr, IntegerType, Type, VectorType, i32
from mlc.ir.core.ir import Value
from mlc.ir.dialects.arith.constants import make_constant, wrap_int
from mlc.ir.interfaces.infer_type import InferType
from mlc.ir.interfaces.side_effects import (
    ConditionallySpeculatable,
    Speculatability,
    division_speculatability,
)
from mlc.ir.opdef.constraints import TypeMatches, UnitAttrConstraint
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import (
    AllTypesMatch,
    Commutative,
    NoMemoryEffect,
    Pure,
    SameOperandsAndResultType,
    SameTypeOperands,
)
from mlc.llvm.dialect.constraints import (
    NO_OVERFLOW,
    OVERFLOW_NSW,
    OVERFLOW_NUW,
    BoolOrBoolVector,
    FCmpPredicate,
    FloatOrFloatVector,
    ICmpPredicate,
    IntOrIntVector,
    IntOrPointerOrVector,
    LLVMType,
    OverflowFlags,
    PointerOrPointerVector,
    bool_like,
    is_llvm_compatible,
)
from mlc.llvm.dialect.types import (
    LLVM_FASTMATH_NONE,
    LLVMArrayType,
    LLVMFastMathFlags,
    LLVMPointerType,
    LLVMStructType,
    llvm,
)

# ------------------------------------------------------------------ integer arithmetic


class _IntOperandsOp(Op):
    lhs = OperandDef(IntOrIntVector)
    rhs = OperandDef(IntOrIntVector)
    res = ResultDef(IntOrIntVector)
    traits = (SameOperandsAndResultType,)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($res)"


class _IntBinaryOp(_IntOperandsOp):
    traits = (Pure,)


class _IntDivisionOp(_IntOperandsOp):
    """A division or remainder: undefined behaviour (a trap) for a zero divisor, and
    for a signed one `MIN / -1`, so it is speculated (hoisted out of a loop that may not
    run, say) only when its divisor is known to be neither."""

    traits = (NoMemoryEffect, ConditionallySpeculatable())
    signed = False

    def speculatability(self) -> Speculatability:
        return division_speculatability(self.rhs, self.signed)


class _IntOverflowOp(_IntBinaryOp):
    overflowFlags = AttrDef(OverflowFlags, default=NO_OVERFLOW,  # noqa: N815 - MLIR's name
                            doc="`nsw`/`nuw`: signed/unsigned wrap is poison")
    assembly_format = "$lhs `,` $rhs ($overflowFlags^)? attr-dict `:` type($res)"

    @classmethod
    def create_binary(cls, lhs: Value, rhs: Value, *, nsw: bool = False, nuw: bool = False
                      ) -> Op:
        """`lhs <op> rhs`, whose signed (`nsw`) or unsigned (`nuw`) wrap is poison."""
        return cls.build(lhs, rhs, overflowFlags=IntegerAttr(OVERFLOW_NSW * nsw + OVERFLOW_NUW * nuw,
                                                             i32))


_IS_EXACT = AttrDef(UnitAttrConstraint, optional=True,
                    doc="the result is poison if a nonzero bit is dropped")
_EXACT_FORMAT = "(`exact` $isExact^)? $lhs `,` $rhs attr-dict `:` type($res)"


class _IntExactOp(_IntBinaryOp):
    isExact = _IS_EXACT  # noqa: N815 - MLIR's name
    assembly_format = _EXACT_FORMAT


class _IntExactDivisionOp(_IntDivisionOp):
    isExact = _IS_EXACT  # noqa: N815 - MLIR's name
    assembly_format = _EXACT_FORMAT


@llvm.op
class AddOp(_IntOverflowOp):
    """Integer addition, wrapping around (LLVM's `add`)."""

    name = "llvm.add"
    traits = (Commutative,)


@llvm.op
class SubOp(_IntOverflowOp):
    """Integer subtraction, wrapping around (LLVM's `sub`)."""

    name = "llvm.sub"


@llvm.op
class MulOp(_IntOverflowOp):
    """Integer multiplication, wrapping around (LLVM's `mul`)."""

    name = "llvm.mul"
    traits = (Commutative,)


@llvm.op
class ShlOp(_IntOverflowOp):
    """Shift left; a shift by the width or more is poison (LLVM's `shl`)."""

    name = "llvm.shl"

    def fold(self, operands):
        # Two constants (MLIR's fold): a shift by the width or more is poison, left alone.
        lhs, rhs = operands
        if not (isinstance(lhs, IntegerAttr) and isinstance(rhs, IntegerAttr)):
            return None
        width = self.res.type.width
        shift = rhs.value % (1 << width)
        if shift >= width:
            return None
        return IntegerAttr(wrap_int(lhs.value << shift, self.res.type), self.res.type)


@llvm.op
class SDivOp(_IntExactDivisionOp):
    """Signed division rounding toward zero; by zero or `MIN / -1` is undefined
    behaviour (LLVM's `sdiv`)."""

    name = "llvm.sdiv"
    signed = True


@llvm.op
class UDivOp(_IntExactDivisionOp):
    """Unsigned division; by zero is undefined behaviour (LLVM's `udiv`)."""

    name = "llvm.udiv"


@llvm.op
class LShrOp(_IntExactOp):
    """Logical shift right (LLVM's `lshr`)."""

    name = "llvm.lshr"


@llvm.op
class AShrOp(_IntExactOp):
    """Arithmetic shift right, copying the sign bit (LLVM's `ashr`)."""

    name = "llvm.ashr"


@llvm.op
class SRemOp(_IntDivisionOp):
    """Signed remainder, with the dividend's sign; by zero or `MIN % -1` is undefined
    behaviour (LLVM's `srem`; MLIR 22 hoists it anyway: mlc does not)."""

    name = "llvm.srem"
    signed = True


@llvm.op
class URemOp(_IntDivisionOp):
    """Unsigned remainder; by zero is undefined behaviour (LLVM's `urem`; MLIR 22
    hoists it anyway: mlc does not)."""

    name = "llvm.urem"


@llvm.op
class AndOp(_IntBinaryOp):
    """Bitwise and (LLVM's `and`)."""

    name = "llvm.and"
    traits = (Commutative,)


@llvm.op
class OrOp(_IntBinaryOp):
    """Bitwise or; `disjoint` says no bit is set in both (LLVM's `or`)."""

    name = "llvm.or"
    isDisjoint = AttrDef(UnitAttrConstraint, optional=True,  # noqa: N815 - MLIR's name
                         doc="the result is poison if the operands share a set bit")
    traits = (Commutative,)
    assembly_format = "(`disjoint` $isDisjoint^)? $lhs `,` $rhs attr-dict `:` type($res)"

    def fold(self, operands):
        lhs, rhs = operands
        if not (isinstance(lhs, IntegerAttr) and isinstance(rhs, IntegerAttr)):
            return None
        return IntegerAttr(wrap_int(lhs.value | rhs.value, self.res.type), self.res.type)


@llvm.op
class XOrOp(_IntBinaryOp):
    """Bitwise exclusive or (LLVM's `xor`)."""

    name = "llvm.xor"
    traits = (Commutative,)


# ------------------------------------------------------------------ float arithmetic


_FASTMATH = AttrDef(LLVMFastMathFlags, default=LLVM_FASTMATH_NONE,
                    doc="the IEEE-754 guarantees the instruction may relax")


class _FloatBinaryOp(Op):
    lhs = OperandDef(FloatOrFloatVector)
    rhs = OperandDef(FloatOrFloatVector)
    res = ResultDef(FloatOrFloatVector)
    fastmathFlags = _FASTMATH  # noqa: N815 - MLIR's name
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($res)"


@llvm.op
class FAddOp(_FloatBinaryOp):
    """Floating-point addition (LLVM's `fadd`)."""

    name = "llvm.fadd"


@llvm.op
class FSubOp(_FloatBinaryOp):
    """Floating-point subtraction (LLVM's `fsub`)."""

    name = "llvm.fsub"


@llvm.op
class FMulOp(_FloatBinaryOp):
    """Floating-point multiplication (LLVM's `fmul`)."""

    name = "llvm.fmul"


@llvm.op
class FDivOp(_FloatBinaryOp):
    """Floating-point division (LLVM's `fdiv`)."""

    name = "llvm.fdiv"


@llvm.op
class FRemOp(_FloatBinaryOp):
    """Floating-point remainder, with the dividend's sign, as C's fmod (LLVM's `frem`)."""

    name = "llvm.frem"


@llvm.op
class FNegOp(Op):
    """Floating-point negation: the sign bit flipped (LLVM's `fneg`)."""

    name = "llvm.fneg"
    operand = OperandDef(FloatOrFloatVector)
    res = ResultDef(FloatOrFloatVector)
    fastmathFlags = _FASTMATH  # noqa: N815 - MLIR's name
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = "$operand attr-dict `:` type($res)"


# ------------------------------------------------------------------ comparisons and select


class _CmpOp(Op):
    res = ResultDef(BoolOrBoolVector)
    traits = (Pure, SameTypeOperands, InferType())
    assembly_format = "$predicate $lhs `,` $rhs attr-dict `:` type($lhs)"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [bool_like(operand_types[0])]

    def verify_custom(self) -> None:
        if self.res.type != bool_like(self.lhs.type):
            raise VerificationError("failed to verify that result type has i1 element type "
                                    "and same shape as operands")


@llvm.op
class ICmpOp(_CmpOp):
    """Integer or pointer comparison; the predicate is printed as a string and stored
    as LLVM numbers it (`"slt"` is `2 : i64`)."""

    name = "llvm.icmp"
    predicate = AttrDef(ICmpPredicate)
    lhs = OperandDef(IntOrPointerOrVector)
    rhs = OperandDef(IntOrPointerOrVector)

    def fold(self, operands):
        # As MLIR's: a value is equal to itself (`icmp eq %x, %x` is true, `ne` false;
        # MLIR leaves the ordering predicates alone, and so does mlc), and stack memory
        # is never at the null address (the alloca first, as MLIR puts it).
        predicate = ICmpPredicate.keyword(self.predicate)
        if predicate not in ("eq", "ne"):
            return None
        if self.lhs is self.rhs:
            return make_constant(self.res.type, int(predicate == "eq"))
        from mlc.llvm.dialect.ops_values import AllocaOp, ZeroOp

        lhs, rhs = self.lhs.defining_op, self.rhs.defining_op
        if isinstance(lhs, AllocaOp) and isinstance(rhs, ZeroOp):
            return make_constant(self.res.type, int(predicate == "ne"))
        if isinstance(lhs, ZeroOp) and isinstance(rhs, AllocaOp):
            self.set_operands([self.rhs, self.lhs])  # folded in place
            return self.res
        return None


@llvm.op
class FCmpOp(_CmpOp):
    """Floating-point comparison, ordered (`o...`: false if a NaN) or unordered
    (`u...`: true if a NaN); `"_false"` and `"_true"` are LLVM's constant predicates."""

    name = "llvm.fcmp"
    predicate = AttrDef(FCmpPredicate)
    lhs = OperandDef(FloatOrFloatVector)
    rhs = OperandDef(FloatOrFloatVector)
    fastmathFlags = _FASTMATH  # noqa: N815 - MLIR's name


@llvm.op
class SelectOp(Op):
    """`trueValue` where the condition holds, else `falseValue` (per element for a
    vector condition)."""

    name = "llvm.select"
    condition = OperandDef(BoolOrBoolVector)
    trueValue = OperandDef(LLVMType)  # noqa: N815 - MLIR's name
    falseValue = OperandDef(LLVMType)  # noqa: N815 - MLIR's name
    res = ResultDef(LLVMType)
    fastmathFlags = _FASTMATH  # noqa: N815 - MLIR's name
    traits = (Pure, AllTypesMatch(("trueValue", "falseValue", "res")))
    assembly_format = "operands attr-dict `:` type($condition) `,` type($res)"


# ------------------------------------------------------------------ casts


class _CastOp(Op):
    arg = OperandDef(LLVMType)
    res = ResultDef(LLVMType)
    traits = (Pure,)
    assembly_format = "$arg attr-dict `:` type($arg) `to` type($res)"


def _cast(op_name: str, doc: str, source, target, *, flag: str | None = None,
          keyword: str = "", overflow: bool = False, verify=None, fold=None) -> type[Op]:
    """Declare one cast op: `flag` names its unit attribute, written `keyword` before
    the operand (`zext nneg`); `overflow` gives it `overflowFlags` (`trunc`); `verify`
    and `fold` are its verifier and folder, if any."""
    namespace: dict = {"name": op_name, "__doc__": doc, "arg": OperandDef(source),
                       "res": ResultDef(target)}
    if flag is not None:
        namespace[flag] = AttrDef(UnitAttrConstraint, optional=True,
                                  doc="the operand is known not to be negative")
        namespace["assembly_format"] = (f"(`{keyword}` ${flag}^)? $arg attr-dict `:` type($arg) "
                                        "`to` type($res)")
    if overflow:
        namespace["overflowFlags"] = AttrDef(OverflowFlags, default=NO_OVERFLOW,
                                             doc="`nsw`/`nuw`: a value that changes is poison")
        namespace["assembly_format"] = ("$arg ($overflowFlags^)? attr-dict `:` type($arg) `to` "
                                        "type($res)")
    if verify is not None:
        namespace["verify_custom"] = lambda self: verify(self)
    if fold is not None:
        namespace["fold"] = lambda self, operands: fold(self, operands)
    class_name = "".join(part.capitalize() for part in op_name.split(".")[1:]) + "Op"
    return llvm.op(type(class_name, (_CastOp,), namespace))


def _verify_extension(op: Op) -> None:
    """MLIR's verifyExtOp: scalars to scalars, vectors to vectors of as many elements,
    and a wider integer (MLIR reports these without naming the op)."""
    source, target = op.arg.type, op.res.type
    if isinstance(source, VectorType):
        if not isinstance(target, VectorType):
            raise VerificationError("input type is a vector but output type is an integer",
                                    names_op=False)
        if _element_count(source) != _element_count(target):
            raise VerificationError("input and output vectors are of incompatible shape",
                                    names_op=False)
        source, target = source.element_type, target.element_type
    elif not isinstance(target, IntegerType):
        raise VerificationError("input type is an integer but output type is a vector",
                                names_op=False)
    if target.width <= source.width:
        raise VerificationError("integer width of the output type is smaller or equal to the "
                                "integer width of the input type", names_op=False)


def _element_count(type_: VectorType) -> int:
    count = 1
    for size in type_.shape:
        count *= size
    return count


def _fold_zext(op: Op, operands):
    """A constant zero-extended (MLIR folds scalars only)."""
    (arg,) = operands
    if not isinstance(arg, IntegerAttr) or not isinstance(op.res.type, IntegerType):
        return None
    return IntegerAttr(arg.value % (1 << op.arg.type.width), op.res.type)


def _verify_bitcast(op: Op) -> None:
    """A pointer casts only to a pointer of its address space, and a vector of
    pointers to such a vector (MLIR's BitcastOp::verify)."""
    source, target = op.arg.type, op.res.type
    source_ptr, target_ptr = _element_of(source), _element_of(target)
    if isinstance(source_ptr, LLVMPointerType) != isinstance(target_ptr, LLVMPointerType):
        raise VerificationError("can only cast pointers from and to pointers")
    if not isinstance(target_ptr, LLVMPointerType):
        return
    if isinstance(target, VectorType) and not isinstance(source, VectorType):
        raise VerificationError("cannot cast pointer to vector of pointers")
    if isinstance(source, VectorType) and not isinstance(target, VectorType):
        raise VerificationError("cannot cast vector of pointers to pointer")
    if source_ptr.address_space != target_ptr.address_space:
        raise VerificationError("cannot cast pointers of different address spaces, use "
                                "'llvm.addrspacecast' instead")


def _fold_chainable_cast(op: Op, operands):
    """cast(x : T, T) is x; cast(cast(x : T0, T1), T0) is x; a cast of a cast casts
    the first one's operand (MLIR's foldChainableCast)."""
    if op.arg.type == op.res.type:
        return op.arg
    previous = op.arg.defining_op
    if type(previous) is type(op):
        if previous.arg.type == op.res.type:
            return previous.arg
        op.set_operand(0, previous.arg)  # folded in place
        return op.res
    return None


def _element_of(type_: Type) -> Type:
    return type_.element_type if isinstance(type_, VectorType) else type_


TruncOp = _cast("llvm.trunc", "Integer truncation to a narrower type.",
                IntOrIntVector, IntOrIntVector, overflow=True)
ZExtOp = _cast("llvm.zext", "Zero extension to a wider integer type.",
               IntOrIntVector, IntOrIntVector, flag="nonNeg", keyword="nneg",
               verify=_verify_extension, fold=_fold_zext)
SExtOp = _cast("llvm.sext", "Sign extension to a wider integer type.",
               IntOrIntVector, IntOrIntVector, verify=_verify_extension)
FPTruncOp = _cast("llvm.fptrunc", "Float truncation to a narrower float type, rounding.",
                  FloatOrFloatVector, FloatOrFloatVector)
FPExtOp = _cast("llvm.fpext", "Float extension to a wider float type (exact).",
                FloatOrFloatVector, FloatOrFloatVector)
SIToFPOp = _cast("llvm.sitofp", "Signed integer to float, rounding.",
                 IntOrIntVector, FloatOrFloatVector)
UIToFPOp = _cast("llvm.uitofp", "Unsigned integer to float, rounding.",
                 IntOrIntVector, FloatOrFloatVector, flag="nonNeg", keyword="nneg")
FPToSIOp = _cast("llvm.fptosi", "Float to signed integer, rounding toward zero (poison if out "
                 "of range).", FloatOrFloatVector, IntOrIntVector)
FPToUIOp = _cast("llvm.fptoui", "Float to unsigned integer, rounding toward zero (poison if out "
                 "of range).", FloatOrFloatVector, IntOrIntVector)
# MLIR's LLVM_AnyNonAggregate: no struct or array, and a vector only of one dimension.
NonAggregate = TypeMatches(
    lambda t: is_llvm_compatible(t) and not isinstance(t, (LLVMStructType, LLVMArrayType))
    and not (isinstance(t, VectorType) and len(t.shape) != 1),
    "LLVM-compatible non-aggregate type")
BitcastOp = _cast("llvm.bitcast", "The same bits as another type of the same size.",
                  NonAggregate, NonAggregate, verify=_verify_bitcast, fold=_fold_chainable_cast)
PtrToIntOp = _cast("llvm.ptrtoint", "A pointer's address as an integer.",
                   PointerOrPointerVector, IntOrIntVector)
IntToPtrOp = _cast("llvm.inttoptr", "An integer as a pointer's address.",
                   IntOrIntVector, PointerOrPointerVector)
AddrSpaceCastOp = _cast("llvm.addrspacecast", "A pointer into another address space (the same "
                        "object, seen from there).", PointerOrPointerVector,
                        PointerOrPointerVector, fold=_fold_chainable_cast)
