"""The `llvm` dialect's constants, globals, memory and aggregate ops, in MLIR 22's
syntax:

    %c = llvm.mlir.constant(1.5 : f32) : f32
    llvm.mlir.global internal constant @table(dense<[1.0, 2.0]> : tensor<2xf32>) : !llvm.array<2 x f32>
    %p = llvm.getelementptr inbounds %base[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %x = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32
    %s = llvm.insertvalue %x, %agg[1] : !llvm.struct<(i32, f32)>
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    FloatAttr,
    FloatType,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    RankedTensorType,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    VectorType,
    i8,
    i32,
    i64,
    unit,
)
from mlc.ir.core.ir import Region, Value
from mlc.ir.dialects.arith.constants import constant_scalars, make_constant
from mlc.ir.dialects.func import lookup_symbol
from mlc.ir.dialects.memref import AUTOMATIC_ALLOCATION_SCOPE
from mlc.ir.interfaces.infer_type import InferType, TypeInferenceError
from mlc.ir.interfaces.side_effects import (
    Allocate,
    EffectInstance,
    EffectKind,
    MemoryEffects,
    Read,
    Write,
    is_memory_effect_free,
)
from mlc.ir.opdef.constraints import (
    AnyAttr,
    ArrayOf,
    DenseArrayOf,
    FlatSymbolRefAttr,
    IntAttrOf,
    StrAttr,
    SymbolNameAttr,
    TypeAttrOf,
    TypeMatches,
    UnitAttrConstraint,
)
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, RegionDef, ResultDef, VerificationError
from mlc.ir.opdef.directive import Directive
from mlc.ir.opdef.traits import (
    AllTypesMatch,
    ConstantLike,
    Pure,
    Symbol,
    TypesMatchWith,
    constant_attribute,
)
from mlc.ir.text.asm_parser import AsmParser
from mlc.ir.text.printer import Printer
from mlc.llvm.dialect.constraints import (
    DEFAULT_VISIBILITY,
    GEP_INBOUNDS,
    NO_UNNAMED_ADDR,
    NO_WRAP_NONE,
    NOT_ATOMIC,
    AnyInteger,
    AnyVector,
    AtomicBinOp,
    AtomicOrdering,
    GEPNoWrapFlags,
    LLVMType,
    NonNegativeI32Attr,
    Pointer,
    PointerOrPointerVector,
    UnnamedAddr,
    Visibility,
)
from mlc.llvm.dialect.ops_control import (
    LLVMFuncOp,
    parse_linkage_prefix,
    parse_sparse_keyword,
    print_linkage_prefix,
    print_unnamed_addr,
)
from mlc.llvm.dialect.types import (
    Linkage,
    LinkageAttr,
    LLVMArrayType,
    LLVMFunctionType,
    LLVMLabelType,
    LLVMMetadataType,
    LLVMPointerType,
    LLVMStructType,
    LLVMTokenType,
    LLVMVoidType,
    PoisonAttr,
    UndefAttr,
    ZeroAttr,
    llvm,
)

# MLIR prints the result types of `shufflevector` and `extract/insertvalue` with a
# custom directive that writes nothing, after the space the printer puts before it: a
# trailing space, which the formats here write as the literal ` `.



def _element_count(type_: Type) -> int:
    """How many scalars `type_` holds: vectors and tensors by their shape, arrays
    nested, anything else one (MLIR's getNumElements)."""
    if isinstance(type_, LLVMArrayType):
        return type_.size * _element_count(type_.element)
    shape = getattr(type_, "shape", None)
    if shape is None:
        return 1
    count = 1
    for size in shape:
        count *= size
    return count


# ------------------------------------------------------------------ constants


@llvm.op
class ConstantOp(Op):
    """A constant: an integer, float, string (an `!llvm.array` of `i8`) or dense
    elements (a vector, or an array of scalars or vectors)."""

    name = "llvm.mlir.constant"
    value = AttrDef(AnyAttr)
    res = ResultDef(LLVMType)
    traits = (Pure, ConstantLike)
    assembly_format = "`(` $value `)` attr-dict `:` type($res)"

    @classmethod
    def create_constant(cls, value: int | float, type_: Type) -> ConstantOp:
        """The scalar `value` of the integer or float type `type_`."""
        attr = FloatAttr.from_value(float(value), type_) if isinstance(type_, FloatType) \
            else IntegerAttr(int(value), type_)
        return cls.build(value=attr, result_types=[type_])  # type: ignore[return-value]

    def verify_custom(self) -> None:
        # MLIR's ConstantOp::verify, its checks in its order and words.
        value, type_ = self.value, self.res.type
        if isinstance(value, StringAttr):
            size = len(value.value.encode("utf-8", "surrogateescape"))
            if not (isinstance(type_, LLVMArrayType) and type_.element == i8
                    and type_.size == size):
                raise VerificationError(f"expected array type of {size} i8 elements for the "
                                        "string constant")
            return
        if isinstance(type_, LLVMStructType):
            _verify_struct_constant(value, type_)
            return
        if isinstance(value, IntegerAttr):
            if not isinstance(type_, IntegerType):
                raise VerificationError("expected integer type")
        elif isinstance(value, FloatAttr):
            _verify_float_semantics(value.type, type_)
        elif isinstance(value, (DenseElementsAttr, DenseResourceElementsAttr)):
            if _has_scalable_vector(type_):
                # A scalable vector's length is unknown: only a splat fills it.
                if not (isinstance(value, DenseElementsAttr) and _is_splat(value)):
                    raise VerificationError("scalable vector type requires a splat attribute")
                return
            if not isinstance(type_, (VectorType, LLVMArrayType)):
                raise VerificationError("expected vector or array type")
            expected, got = _element_count(type_), _element_count(value.type)
            if expected != got:
                raise VerificationError(f"type and attribute have a different number of "
                                        f"elements: {expected} vs. {got}")
            attr_element = value.type.element_type
            result_element = _innermost_element(type_)
            if isinstance(attr_element, FloatType):
                _verify_float_semantics(attr_element, result_element)
            elif isinstance(attr_element, IntegerType) and \
                    not isinstance(result_element, IntegerType):
                raise VerificationError("expected integer element type for integer elements "
                                        "attribute")
        elif isinstance(value, ArrayAttr):
            if not isinstance(type_, LLVMArrayType):
                raise VerificationError("expected array or struct type for array attribute")
            _verify_array_of_structs_constant(value, type_, 0)
        else:
            raise VerificationError("only supports integer, float, string or elements "
                                    "attributes")

    def fold(self, operands):
        return self.value


def _verify_float_semantics(attr_type: Type, type_: Type) -> None:
    """A float constant's type is its attribute's, or an integer of its width (the bits
    of a float LLVM lacks)."""
    if isinstance(type_, FloatType):
        if type_ != attr_type:
            raise VerificationError("attribute and type have different float semantics")
    elif isinstance(type_, IntegerType) and type_.width != attr_type.width:
        raise VerificationError(f"expected integer type of width {attr_type.width}")


def _verify_struct_constant(value, type_: LLVMStructType) -> None:
    if not isinstance(value, ArrayAttr):
        raise VerificationError("expected array attribute for struct type")
    if len(value.elements) != len(type_.fields):
        raise VerificationError(f"expected array attribute of size {len(type_.fields)}")
    for index, (element, field_type) in enumerate(zip(value.elements, type_.fields)):
        if not (isinstance(field_type, FloatType) or
                (isinstance(field_type, IntegerType) and field_type.signedness == "signless")
                or field_type == IndexType()):
            raise VerificationError("expected struct element types to be floating point type "
                                    "or integer type")
        if not isinstance(element, (FloatAttr, IntegerAttr)):
            raise VerificationError("expected element of array attribute to be floating point "
                                    "or integer")
        if element.type != field_type:
            raise VerificationError(f"struct element at index {index} is of wrong type")


def _verify_array_of_structs_constant(value: ArrayAttr, type_: LLVMArrayType, dim: int) -> None:
    """An array attribute for an array type nests as the type does, down to structs
    (or pointers) whose values are arrays of scalars (MLIR's verifyStructArrayConstant)."""
    elements = value.elements
    if len(elements) != type_.size:
        raise VerificationError(f"array attribute size does not match array type size in "
                                f"dimension {dim}: {len(elements)} vs. {type_.size}")
    element_type = type_.element
    if isinstance(element_type, LLVMArrayType):
        for index, element in enumerate(elements):
            if isinstance(element, (ZeroAttr, UndefAttr)):
                continue
            if not isinstance(element, ArrayAttr):
                raise VerificationError(f"nested attribute for sub-array in dimension {dim} at "
                                        f"index {index} must be a zero, or undef, or array "
                                        "attribute")
            _verify_array_of_structs_constant(element, element_type, dim + 1)
        return
    if isinstance(element_type, LLVMPointerType):
        for index, element in enumerate(elements):
            if not (isinstance(element, (ZeroAttr, UndefAttr, PoisonAttr))
                    or (isinstance(element, SymbolRefAttr) and not element.nested)):
                raise VerificationError(f"pointer array element at index {index} must be a flat "
                                        "symbol reference, zero, undef, or poison")
        return
    if not isinstance(element_type, LLVMStructType):
        raise VerificationError("for array with an array attribute must have a struct element "
                                "type")
    for index, element in enumerate(elements):
        if isinstance(element, (ZeroAttr, UndefAttr)):
            continue
        if not isinstance(element, ArrayAttr):
            raise VerificationError(f"nested attribute for struct element at index {index} must "
                                    "be a zero, or undef, or array attribute")
        if len(element.elements) != len(element_type.fields):
            raise VerificationError(f"nested array attribute size for struct element at index "
                                    f"{index} must match struct size: {len(element.elements)} "
                                    f"vs. {len(element_type.fields)}")


def _has_scalable_vector(type_: Type) -> bool:
    if isinstance(type_, VectorType):
        return any(type_.scalable) or _has_scalable_vector(type_.element_type)
    if isinstance(type_, LLVMArrayType):
        return _has_scalable_vector(type_.element)
    return False


def _innermost_element(type_: Type) -> Type:
    while isinstance(type_, LLVMArrayType):
        type_ = type_.element
    return type_.element_type if isinstance(type_, VectorType) else type_


def _is_splat(value: DenseElementsAttr) -> bool:
    return value.is_splat()


class _PlaceholderValueOp(Op):
    """A constant with no value written: it folds to its dialect attribute, so the
    canonicalizer unique equal ones (as MLIR's, where these ops are ConstantLike)."""

    res = ResultDef(LLVMType)
    traits = (Pure, ConstantLike)
    assembly_format = "attr-dict `:` type($res)"
    constant: Attribute

    def fold(self, operands):
        return self.constant


@llvm.op
class UndefOp(_PlaceholderValueOp):
    """An undefined value: each use may see any value of its type."""

    name = "llvm.mlir.undef"
    constant = UndefAttr()


@llvm.op
class PoisonOp(_PlaceholderValueOp):
    """A poison value: what an instruction with undefined behaviour gives."""

    name = "llvm.mlir.poison"
    constant = PoisonAttr()


@llvm.op
class ZeroOp(_PlaceholderValueOp):
    """The zero of any type: 0, 0.0, a null pointer, an all-zero aggregate."""

    name = "llvm.mlir.zero"
    constant = ZeroAttr()

    def fold(self, operands):
        # A builtin zero where one exists (`0 : i32`, `dense<0.0>`), as MLIR's
        # getZeroAttr, so integer folds read it; #llvm.zero otherwise.
        type_ = self.res.type
        if isinstance(type_, (IntegerType, FloatType)):
            return make_constant(type_, 0)
        if isinstance(type_, VectorType) and isinstance(type_.element_type,
                                                        (IntegerType, FloatType)):
            return make_constant(type_, 0)
        return self.constant


# ------------------------------------------------------------------ globals


@llvm.op
class GlobalOp(Op):
    """A global variable: its type, linkage (always written), an initial value (an
    attribute, or a region computing it) and whether it is `constant`:

        llvm.mlir.global private constant @pi(3.14 : f32) {addr_space = 0 : i32} : f32
        llvm.mlir.global internal constant @msg("hi\\00") {addr_space = 0 : i32}

    A string initializer implies the type, an `!llvm.array` of `i8`."""

    name = "llvm.mlir.global"
    global_type = AttrDef(TypeAttrOf(Type, "any type attribute"))
    constant = AttrDef(UnitAttrConstraint, optional=True)
    sym_name = AttrDef(SymbolNameAttr)
    linkage = AttrDef(LinkageAttr)
    dso_local = AttrDef(UnitAttrConstraint, optional=True)
    thread_local_ = AttrDef(UnitAttrConstraint, optional=True)
    externally_initialized = AttrDef(UnitAttrConstraint, optional=True)
    value = AttrDef(AnyAttr, optional=True)
    alignment = AttrDef(IntAttrOf(), optional=True)
    addr_space = AttrDef(NonNegativeI32Attr(), default=IntegerAttr(0, i32))
    unnamed_addr = AttrDef(UnnamedAddr, optional=True)
    section = AttrDef(StrAttr, optional=True)
    visibility_ = AttrDef(Visibility, default=DEFAULT_VISIBILITY)
    initializer = RegionDef(single_block=True)
    traits = (Symbol,)

    _IN_SYNTAX = frozenset({"sym_name", "global_type", "constant", "value", "linkage",
                            "unnamed_addr", "thread_local_", "visibility_"})

    @classmethod
    def parse(cls, p: AsmParser) -> GlobalOp:
        name_pos = p.current_pos()  # MLIR reports some errors at the op's name
        attrs: dict = {}
        parse_linkage_prefix(p, attrs)
        if p.parse_optional_keyword("thread_local") is not None:
            attrs["thread_local_"] = unit
        unnamed = parse_sparse_keyword(p, UnnamedAddr, "none")
        attrs["unnamed_addr"] = unnamed if unnamed is not None else NO_UNNAMED_ADDR
        if p.parse_optional_keyword("constant") is not None:
            attrs["constant"] = unit
        attrs["sym_name"] = StringAttr(p.parse_symbol_name())
        p.parse_punctuation("(")
        if not p.parse_optional_punctuation(")"):
            attrs["value"] = p.parse_attribute()
            p.parse_punctuation(")")
        p.parse_optional_attr_dict(attrs)
        global_type = None
        if p.parse_optional_punctuation(":"):
            global_type = p.parse_type()
            if p.parse_optional_comma():
                raise p.error("expected zero or one type", name_pos)
        value = attrs.get("value")
        if global_type is None:
            if not isinstance(value, StringAttr):
                raise p.error("type can only be omitted for string globals", name_pos)
            global_type = LLVMArrayType(len(value.value.encode("utf-8", "surrogateescape")), i8)
        attrs["global_type"] = TypeAttr(global_type)
        region = p.parse_optional_region((), cls)
        op = cls.create((), (), attrs, [region if region is not None else Region()])
        return op  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        print_linkage_prefix(p, self, always_linkage=True)
        if self.thread_local_ is not None:
            p.write(" thread_local")
        print_unnamed_addr(p, self)
        if self.constant is not None:
            p.write(" constant")
        p.write(" ")
        p.symbol_name(self.sym_name.value)
        p.write("(")
        if self.value is not None:
            p.attr(self.value)
        p.write(")")
        p.attr_dict(self, set(self._IN_SYNTAX), elide_defaults=False)
        if isinstance(self.value, StringAttr):
            return
        p.write(" : ")
        p.type(self.global_type.value)
        if self.regions[0].blocks:
            p.write(" ")
            p.region(self.regions[0], print_entry_args=False)

    def verify_custom(self) -> None:
        # MLIR's GlobalOp::verify, in its order (the region's checks follow).
        if isinstance(self.global_type.value, (LLVMVoidType, LLVMTokenType, LLVMMetadataType,
                                               LLVMLabelType, LLVMFunctionType)):
            raise VerificationError("expects type to be a valid element type for an LLVM global")
        value = self.value
        if isinstance(value, StringAttr):
            global_type = self.global_type.value
            size = len(value.value.encode("utf-8", "surrogateescape"))
            if not (isinstance(global_type, LLVMArrayType) and global_type.element == i8
                    and global_type.size == size):
                raise VerificationError("requires an i8 array type of the length equal to that "
                                        "of the string attribute")
        linkage = self.linkage.linkage
        if linkage == Linkage.common and value is not None and not _is_zero_attribute(value):
            raise VerificationError("expected zero value for 'common' linkage")
        if linkage == Linkage.appending and \
                not isinstance(self.global_type.value, LLVMArrayType):
            raise VerificationError("expected array type for 'appending' linkage")
        alignment = self.alignment
        if alignment is not None and (alignment.value <= 0
                                      or alignment.value & (alignment.value - 1)):
            raise VerificationError("alignment attribute is not a power of 2", names_op=False)

    def verify_regions(self) -> None:
        block = self.regions[0].blocks[0] if self.regions[0].blocks else None
        if block is None:
            return
        returned = block.last_op
        result = returned.operand(0) if returned is not None and returned.op_operands else None
        if result is None:
            raise VerificationError("initializer region cannot return void")
        if result.type != self.global_type.value:
            raise VerificationError(f"initializer region type '{result.type}' does not match "
                                    f"global type '{self.global_type.value}'")
        for op in block.ops():
            if not is_memory_effect_free(op):
                raise VerificationError("ops with side effects not allowed in global "
                                        "initializers", at=op, names_op=False)
        if self.value is not None:
            raise VerificationError("cannot have both initializer value and region")


def _is_zero_attribute(value) -> bool:
    """Whether a global's initial value is all zeros (MLIR's isZeroAttribute)."""
    if isinstance(value, (IntegerAttr, FloatAttr)):
        return value.value == 0
    if isinstance(value, DenseElementsAttr):
        return all(v == 0 for v in value.array.flat)
    if isinstance(value, ArrayAttr):
        return all(_is_zero_attribute(v) for v in value.elements)
    return False


class _GlobalXtorsOp(Op):
    """What `llvm.mlir.global_ctors` and `global_dtors` share: functions run before
    `main` starts or after it returns, each with a priority (lower first) and a
    datum (a symbol or `#llvm.zero`)."""

    priorities = AttrDef(ArrayOf(IntAttrOf(i32)))
    data = AttrDef(ArrayOf(AnyAttr))
    KIND = ""

    def functions(self) -> tuple:
        return self.attributes[self.KIND].elements

    def verify_custom(self) -> None:
        # MLIR's verify (data, then counts), then its symbol checks.
        data = self.data.elements
        if data and not all(isinstance(d, ZeroAttr) or
                            (isinstance(d, SymbolRefAttr) and not d.nested) for d in data):
            raise VerificationError("data element must be symbol or #llvm.zero",
                                    names_op=False)
        if not len(self.functions()) == len(self.priorities.elements) == len(data):
            raise VerificationError(f"{self.KIND}, priorities, and data must have the same "
                                    "number of elements", names_op=False)
        for symbol in self.functions():
            target = lookup_symbol(self, symbol)
            if not isinstance(target, LLVMFuncOp):
                raise VerificationError(f"'{symbol.root}' does not reference a valid LLVM "
                                        "function")
            if target.is_declaration:
                raise VerificationError(f"'{symbol.root}' does not have a definition")


def _xtors_op(kind: str, class_name: str, doc: str) -> type[Op]:
    """Declare `llvm.mlir.global_<kind>`: the functions in `<kind>`, then priorities
    and data, all written as keywords."""
    namespace = {"name": f"llvm.mlir.global_{kind}", "__doc__": doc, "__module__": __name__,
                 kind: AttrDef(ArrayOf(FlatSymbolRefAttr)), "KIND": kind,
                 "assembly_format": f"`{kind}` `=` ${kind} `,` `priorities` `=` $priorities "
                                    "`,` `data` `=` $data attr-dict"}
    return llvm.op(type(class_name, (_GlobalXtorsOp,), namespace))


GlobalCtorsOp = _xtors_op("ctors", "GlobalCtorsOp", """The module's constructors (LLVM's
    `@llvm.global_ctors`):

        llvm.mlir.global_ctors ctors = [@init], priorities = [65535 : i32], data = [#llvm.zero]
    """)
GlobalDtorsOp = _xtors_op("dtors", "GlobalDtorsOp", "The module's destructors (LLVM's "
                          "`@llvm.global_dtors`), as `global_ctors`.")


@llvm.op
class AddressOfOp(Op):
    """The address of a global or function, by symbol."""

    name = "llvm.mlir.addressof"
    global_name = AttrDef(FlatSymbolRefAttr)
    res = ResultDef(Pointer)
    traits = (Pure, ConstantLike)
    assembly_format = "$global_name attr-dict `:` type($res)"

    def fold(self, operands):
        """The symbol: equal addresses are one constant to the canonicalizer."""
        return self.global_name

    @classmethod
    def create_address(cls, symbol: str, address_space: int = 0) -> AddressOfOp:
        op = cls.build(global_name=SymbolRefAttr(symbol),
                       result_types=[LLVMPointerType(address_space)])
        return op  # type: ignore[return-value]

    def verify_custom(self) -> None:
        target = lookup_symbol(self, self.global_name)
        if not isinstance(target, (GlobalOp, LLVMFuncOp)):
            raise VerificationError("must reference a global defined by 'llvm.mlir.global', "
                                    "'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'")
        if isinstance(target, GlobalOp) and \
                target.addr_space.value != self.res.type.address_space:
            raise VerificationError("pointer address space must match address space of the "
                                    "referenced global")


# ------------------------------------------------------------------ memory


class _MemoryAccessOp(Op):
    """What a load and a store share: alignment, volatility, atomicity, metadata."""

    alignment = AttrDef(IntAttrOf(), optional=True, doc="the alignment in bytes")
    volatile_ = AttrDef(UnitAttrConstraint, optional=True)
    nontemporal = AttrDef(UnitAttrConstraint, optional=True)
    invariantGroup = AttrDef(UnitAttrConstraint, optional=True)  # noqa: N815 - MLIR's name
    ordering = AttrDef(AtomicOrdering, default=NOT_ATOMIC)
    syncscope = AttrDef(StrAttr, optional=True)
    access_groups = AttrDef(optional=True)
    alias_scopes = AttrDef(optional=True)
    noalias_scopes = AttrDef(optional=True)
    tbaa = AttrDef(optional=True)

    # The orderings LLVM's instruction cannot have (a load cannot release, a store
    # cannot acquire).
    UNSUPPORTED_ORDERINGS: frozenset[str] = frozenset()

    def accessed_type(self) -> Type:
        """The type of the value read or written."""
        raise NotImplementedError

    def memory_effects(self) -> list[EffectInstance]:
        """The declared access, and for a volatile or at least monotonic one also a read
        and a write of all memory: it may synchronise with other threads or devices, so
        it is never dead (MLIR's LoadOp/StoreOp::getEffects)."""
        effects = MemoryEffects.get(self).declared_effects_of(self)
        if self.volatile_ is not None or \
                AtomicOrdering.keyword(self.ordering) not in ("not_atomic", "unordered"):
            effects += [EffectInstance(EffectKind.WRITE, None),
                        EffectInstance(EffectKind.READ, None)]
        return effects

    def verify_custom(self) -> None:
        # MLIR's verifyAtomicMemOp, its checks in its order.
        ordering = AtomicOrdering.keyword(self.ordering)
        if ordering == "not_atomic":
            if self.syncscope is not None:
                raise VerificationError("expected syncscope to be null for non-atomic access")
            return
        type_ = self.accessed_type()
        if not atomic_access_type(type_):
            raise VerificationError(f"unsupported type '{type_}' for atomic access")
        if ordering in self.UNSUPPORTED_ORDERINGS:
            raise VerificationError(f"unsupported ordering '{ordering}'")
        if self.alignment is None:
            raise VerificationError("expected alignment for atomic access")


def atomic_access_type(type_: Type) -> bool:
    """Whether an atomic load, store or exchange may access a `type_` (LLVM's rule: an
    integer, float or pointer whose size is a power of two of at least 8 bits; a
    pointer is 64 bits wide under the default data layout)."""
    if isinstance(type_, LLVMPointerType):
        return True
    if not isinstance(type_, (IntegerType, FloatType)):
        return False
    return type_.width >= 8 and type_.width & (type_.width - 1) == 0


@llvm.op
class AllocaOp(Op):
    """Stack memory for `arraySize` values of `elem_type`, freed when the function
    returns: `llvm.alloca %n x f32 : (i64) -> !llvm.ptr`."""

    name = "llvm.alloca"
    arraySize = OperandDef(AnyInteger)  # noqa: N815 - MLIR's name
    alignment = AttrDef(IntAttrOf(), optional=True)
    elem_type = AttrDef(TypeAttrOf(Type, "any type attribute"))
    inalloca = AttrDef(UnitAttrConstraint, optional=True)
    res = ResultDef(Pointer)
    traits = (MemoryEffects(Allocate("res", resource=AUTOMATIC_ALLOCATION_SCOPE)),)

    @classmethod
    def parse(cls, p: AsmParser) -> AllocaOp:
        # MLIR's AllocaOp::parse, for its words: the trailing type is checked before
        # the operand is resolved.
        name_pos = p.current_pos()
        attrs: dict = {}
        if p.parse_optional_keyword("inalloca") is not None:
            attrs["inalloca"] = unit
        size = p.parse_operand()
        p.parse_keyword("x")
        elem_type = p.parse_type()
        p.parse_optional_attr_dict(attrs)
        p.parse_colon()
        type_pos = p.current_pos()
        signature = p.parse_type()
        alignment = attrs.get("alignment")
        if alignment is not None:
            if not isinstance(alignment, IntegerAttr):
                raise p.error("expected integer alignment", name_pos)
            if alignment.value == 0:
                del attrs["alignment"]
        if not (isinstance(signature, FunctionType) and len(signature.inputs) == 1
                and len(signature.results) == 1):
            raise p.error("expected trailing function type with one argument and one result",
                          type_pos)
        operand = p.resolve_operand(size, signature.inputs[0])
        attrs["elem_type"] = TypeAttr(elem_type)
        return cls.create([operand], [signature.results[0]], attrs)  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        if self.inalloca is not None:
            p.write(" inalloca")
        p.write(" ")
        p.value(self.arraySize)
        p.write(" x ")
        p.type(self.elem_type.value)
        p.attr_dict(self, {"elem_type", "inalloca"})
        p.write(" : ")
        p.type(FunctionType((self.arraySize.type,), (self.res.type,)))

    @classmethod
    def create_alloca(cls, count: Value, elem_type: Type, alignment: int | None = None
                      ) -> AllocaOp:
        """Stack memory for `count` values of `elem_type`, aligned to `alignment` bytes."""
        op = cls.build(count, elem_type=TypeAttr(elem_type), result_types=[LLVMPointerType()],
                       alignment=None if alignment is None else IntegerAttr(alignment, i64))
        return op  # type: ignore[return-value]


class _GEPIndices(Directive):
    """`[1, %i, 0]`: constant indices inline, dynamic ones as operands; the constants
    are stored in `rawConstantIndices`, where a dynamic index is INT32_MIN."""

    name = "GEPIndices"

    def parse(self, p) -> tuple:
        operands, raw = [], []
        while True:
            value = p.parse_optional_integer()
            if value is None:
                operands.append(p.parse_operand())
                raw.append(DYNAMIC_INDEX)
            else:
                raw.append(value)
            if not p.parse_optional_comma():
                break
        return operands, DenseArrayAttr(i32, tuple(raw))

    def print(self, w, op, dynamic, raw) -> None:
        dynamic = iter(dynamic)
        for i, index in enumerate(raw.values):
            if i:
                w.write(", ")
            if index == DYNAMIC_INDEX:
                w.value(next(dynamic))
            else:
                w.write(str(index))


DYNAMIC_INDEX = -(1 << 31)
llvm.directive(_GEPIndices())


@llvm.op
class GEPOp(Op):
    """Address arithmetic (LLVM's `getelementptr`): `base` plus the offset of the
    element the indices select in `elem_type`; constant indices are written inline,
    and a struct field's index must be one:

        %p = llvm.getelementptr inbounds %base[%i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f32, i32)>
    """

    name = "llvm.getelementptr"
    base = OperandDef(PointerOrPointerVector)
    dynamicIndices = OperandDef(AnyInteger, variadic=True)  # noqa: N815 - MLIR's name
    rawConstantIndices = AttrDef(DenseArrayOf(i32))  # noqa: N815 - MLIR's name
    elem_type = AttrDef(TypeAttrOf(Type, "any type attribute"))
    noWrapFlags = AttrDef(GEPNoWrapFlags, default=NO_WRAP_NONE)  # noqa: N815 - MLIR's name
    res = ResultDef(PointerOrPointerVector)
    traits = (Pure,)
    assembly_format = ("($noWrapFlags^)? $base `[` custom<GEPIndices>($dynamicIndices, "
                       "$rawConstantIndices) `]` attr-dict `:` functional-type(operands, results) "
                       "`,` $elem_type")

    @classmethod
    def create_gep(cls, base: Value, indices: Sequence[Value | int], elem_type: Type, *,
                   inbounds: bool = False) -> GEPOp:
        """The address of `base[indices...]` in `elem_type`, each index a value or a
        constant (a struct field's must be); `inbounds` promises it stays inside the
        object (LLVM's `inbounds`, which implies `nusw`)."""
        raw = tuple(DYNAMIC_INDEX if isinstance(i, Value) else i for i in indices)
        op = cls.build(base, [i for i in indices if isinstance(i, Value)],
                       rawConstantIndices=DenseArrayAttr(i32, raw),
                       elem_type=TypeAttr(elem_type),
                       noWrapFlags=IntegerAttr(GEP_INBOUNDS if inbounds else 0, i32),
                       result_types=[LLVMPointerType()])
        return op  # type: ignore[return-value]

    def fold(self, operands):
        """`gep %x[0]` of the base's type is %x; a dynamic index that is a constant
        (fitting in 32 bits) becomes a constant index (MLIR's GEPOp::fold)."""
        raw = list(self.rawConstantIndices.values)
        dynamic = list(self.dynamicIndices)
        constants = iter(operands[1:])
        indices: list = []  # an int or a Value per index
        values = iter(dynamic)
        for index in raw:
            if index == DYNAMIC_INDEX:
                value, constant = next(values), next(constants)
                indices.append((value, constant))
            else:
                indices.append((index, None))
        if self.base.type == self.res.type and len(indices) == 1:
            only, constant = indices[0]
            if only == 0 or (isinstance(constant, IntegerAttr) and constant.value == 0):
                return self.base
        changed = False
        new_raw, new_dynamic = [], []
        for item, constant in indices:
            if isinstance(constant, IntegerAttr) and -(1 << 31) <= constant.value < (1 << 31):
                new_raw.append(constant.value)
                changed = True
            elif isinstance(item, Value):
                new_raw.append(DYNAMIC_INDEX)
                new_dynamic.append(item)
            else:
                new_raw.append(item)
        if not changed:
            return None
        self.set_operands([self.base, *new_dynamic])
        self.attributes["rawConstantIndices"] = DenseArrayAttr(i32, tuple(new_raw))
        return self.res

    def verify_custom(self) -> None:
        # MLIR refuses the lone flag (its parser never makes it), not its combinations.
        if self.noWrapFlags.value == 1:
            raise VerificationError("'inbounds_flag' cannot be used directly.")
        raw = self.rawConstantIndices.values
        if sum(1 for i in raw if i == DYNAMIC_INDEX) != len(self.dynamicIndices):
            raise VerificationError("expected as many dynamic indices as specified in "
                                    "'rawConstantIndices'")
        type_ = self.elem_type.value
        for position, index in enumerate(raw[1:], start=1):
            if isinstance(type_, LLVMStructType):
                if index == DYNAMIC_INDEX:
                    raise VerificationError(f"expected index {position} indexing a struct to "
                                            "be constant")
                if not 0 <= index < len(type_.fields):
                    raise VerificationError(f"index {position} indexing a struct is out of "
                                            "bounds")
                type_ = type_.fields[index]
            elif isinstance(type_, (LLVMArrayType, VectorType)):
                type_ = type_.element if isinstance(type_, LLVMArrayType) else \
                    type_.element_type
            else:
                raise VerificationError(f"type '{type_}' cannot be indexed (index #{position})")


@llvm.op
class LoadOp(_MemoryAccessOp):
    """Reads a value from memory; `volatile`, `atomic <ordering>` and `invariant` are
    written before the attributes:

        %x = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32
    """

    name = "llvm.load"
    addr = OperandDef(Pointer)
    invariant = AttrDef(UnitAttrConstraint, optional=True)
    res = ResultDef(LLVMType)
    traits = (MemoryEffects(Read("addr")),)
    assembly_format = ("(`volatile` $volatile_^)? $addr (`atomic` (`syncscope` `(` $syncscope^ "
                       "`)`)? $ordering^)? (`invariant` $invariant^)? (`invariant_group` "
                       "$invariantGroup^)? attr-dict `:` type($addr) `->` type($res)")

    UNSUPPORTED_ORDERINGS = frozenset({"release", "acq_rel"})

    def accessed_type(self) -> Type:
        return self.res.type

    @classmethod
    def create_load(cls, addr: Value, type_: Type, alignment: int | None = None) -> LoadOp:
        """A load of a `type_` from `addr`, aligned to `alignment` bytes."""
        op = cls.build(addr, result_types=[type_],
                       alignment=None if alignment is None else IntegerAttr(alignment, i64))
        return op  # type: ignore[return-value]


@llvm.op
class StoreOp(_MemoryAccessOp):
    """Writes a value to memory:

        llvm.store %x, %p {alignment = 4 : i64} : f32, !llvm.ptr
    """

    name = "llvm.store"
    value = OperandDef(LLVMType)
    addr = OperandDef(Pointer)
    traits = (MemoryEffects(Write("addr")),)
    assembly_format = ("(`volatile` $volatile_^)? $value `,` $addr (`atomic` (`syncscope` `(` "
                       "$syncscope^ `)`)? $ordering^)? (`invariant_group` $invariantGroup^)? "
                       "attr-dict `:` type($value) `,` type($addr)")

    UNSUPPORTED_ORDERINGS = frozenset({"acquire", "acq_rel"})

    def accessed_type(self) -> Type:
        return self.value.type

    @classmethod
    def create_store(cls, value: Value, addr: Value, alignment: int | None = None) -> StoreOp:
        """A store of `value` to `addr`, aligned to `alignment` bytes."""
        op = cls.build(value, addr, alignment=None if alignment is None
                       else IntegerAttr(alignment, i64))
        return op  # type: ignore[return-value]


_FLOAT_BIN_OPS = frozenset({"fadd", "fsub", "fmax", "fmin", "fmaximum", "fminimum"})


def _at_least_monotonic(attr) -> bool:
    return AtomicOrdering.keyword(attr) not in ("not_atomic", "unordered")


@llvm.op
class AtomicRMWOp(Op):
    """Atomically combines a value with the one in memory (LLVM's `atomicrmw`): the
    result is the value before. `xchg` stores `val`; the `f` operations take floats,
    the others integers:

        %old = llvm.atomicrmw add %p, %one monotonic : !llvm.ptr, i64
    """

    name = "llvm.atomicrmw"
    ptr = OperandDef(Pointer)
    val = OperandDef(TypeMatches(
        lambda t: isinstance(t, (FloatType, LLVMPointerType))
        or (isinstance(t, IntegerType) and t.signedness == "signless")
        or (isinstance(t, VectorType) and len(t.shape) == 1 and not any(t.scalable)),
        "floating point LLVM type or LLVM pointer type or signless integer or LLVM "
        "dialect-compatible fixed-length vector type"))
    bin_op = AttrDef(AtomicBinOp)
    ordering = AttrDef(AtomicOrdering)
    syncscope = AttrDef(StrAttr, optional=True)
    alignment = AttrDef(IntAttrOf(), optional=True, doc="the alignment in bytes")
    volatile_ = AttrDef(UnitAttrConstraint, optional=True)
    access_groups = AttrDef(optional=True)
    alias_scopes = AttrDef(optional=True)
    noalias_scopes = AttrDef(optional=True)
    tbaa = AttrDef(optional=True)
    res = ResultDef(LLVMType)
    traits = (MemoryEffects(Read("ptr"), Write("ptr")),
              TypesMatchWith("res", "val", lambda t: t,
                             "result #0 and operand #1 have the same type"))
    assembly_format = ("(`volatile` $volatile_^)? $bin_op $ptr `,` $val (`syncscope` `(` "
                       "$syncscope^ `)`)? $ordering attr-dict `:` type($ptr) `,` "
                       "type($val)")

    def verify_custom(self) -> None:
        operation = AtomicBinOp.keyword(self.bin_op)
        type_ = self.val.type
        if operation == "xchg":
            if not atomic_access_type(type_):
                raise VerificationError("unexpected LLVM IR type for 'xchg' bin_op")
        elif operation in _FLOAT_BIN_OPS:
            if isinstance(type_, VectorType):
                if not isinstance(type_.element_type, FloatType):
                    raise VerificationError("expected LLVM IR floating point type for vector "
                                            "element")
            elif not isinstance(type_, FloatType):
                raise VerificationError("expected LLVM IR floating point type")
        elif not (isinstance(type_, IntegerType) and type_.width in (8, 16, 32, 64)):
            raise VerificationError("expected LLVM IR integer type")
        if not _at_least_monotonic(self.ordering):
            raise VerificationError("expected at least 'monotonic' ordering")


@llvm.op
class AtomicCmpXchgOp(Op):
    """Atomically replaces the value in memory by `val` if it equals `cmp` (LLVM's
    `cmpxchg`): the result is the value before and whether it was replaced. `weak`
    may fail even when equal; the second ordering is the failure's:

        %r = llvm.cmpxchg %p, %zero, %one acq_rel monotonic : !llvm.ptr, i64
        %won = llvm.extractvalue %r[1] : !llvm.struct<(i64, i1)>
    """

    name = "llvm.cmpxchg"
    ptr = OperandDef(Pointer)
    cmp = OperandDef(LLVMType)
    val = OperandDef(LLVMType)
    success_ordering = AttrDef(AtomicOrdering)
    failure_ordering = AttrDef(AtomicOrdering)
    syncscope = AttrDef(StrAttr, optional=True)
    alignment = AttrDef(IntAttrOf(), optional=True, doc="the alignment in bytes")
    weak = AttrDef(UnitAttrConstraint, optional=True)
    volatile_ = AttrDef(UnitAttrConstraint, optional=True)
    access_groups = AttrDef(optional=True)
    alias_scopes = AttrDef(optional=True)
    noalias_scopes = AttrDef(optional=True)
    tbaa = AttrDef(optional=True)
    res = ResultDef(LLVMType)
    traits = (MemoryEffects(Read("ptr"), Write("ptr")),
              TypesMatchWith("cmp", "val", lambda t: t,
                             "operand #1 and operand #2 have the same type"),
              TypesMatchWith("res", "val", lambda t: LLVMStructType((t, IntegerType(1))),
                             "result #0 has an LLVM struct type consisting of the type of "
                             "operand #2 and a bool"),
              InferType(checked=False))
    assembly_format = ("(`weak` $weak^)? (`volatile` $volatile_^)? $ptr `,` $cmp `,` $val "
                       "(`syncscope` `(` $syncscope^ `)`)? $success_ordering $failure_ordering "
                       "attr-dict `:` type($ptr) `,` type($val)")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [LLVMStructType((operand_types[2], IntegerType(1)))]

    def verify_custom(self) -> None:
        type_ = self.val.type
        if not isinstance(type_, (IntegerType, LLVMPointerType)):
            raise VerificationError(f"'val' must be signless integer or LLVM pointer type, "
                                    f"but got '{type_}'")
        if not atomic_access_type(type_):
            raise VerificationError("unexpected LLVM IR type")
        if not (_at_least_monotonic(self.success_ordering)
                and _at_least_monotonic(self.failure_ordering)):
            raise VerificationError("ordering must be at least 'monotonic'")
        if AtomicOrdering.keyword(self.failure_ordering) in ("release", "acq_rel"):
            raise VerificationError("failure ordering cannot be 'release' or 'acq_rel'")


# ------------------------------------------------------------------ vectors


def _element_of(type_: Type) -> Type:
    return type_.element_type if isinstance(type_, VectorType) else type_


@llvm.op
class ExtractElementOp(Op):
    """One element of a vector, at a dynamic position."""

    name = "llvm.extractelement"
    vector = OperandDef(AnyVector)
    position = OperandDef(AnyInteger)
    res = ResultDef(LLVMType)
    traits = (Pure, TypesMatchWith("res", "vector", lambda t: _element_of(t),
                                   "result type matches vector element type"),
              InferType(checked=False))
    assembly_format = "$vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [_element_of(operand_types[0])]


@llvm.op
class InsertElementOp(Op):
    """A vector with one element, at a dynamic position, replaced."""

    name = "llvm.insertelement"
    vector = OperandDef(AnyVector)
    value = OperandDef(LLVMType)
    position = OperandDef(AnyInteger)
    res = ResultDef(AnyVector)
    traits = (Pure, AllTypesMatch(("vector", "res")),
              TypesMatchWith("value", "vector", _element_of,
                             "argument type matches vector element type"), InferType())
    assembly_format = ("$value `,` $vector `[` $position `:` type($position) `]` attr-dict `:` "
                       "type($vector)")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [operand_types[0]]


@llvm.op
class ShuffleVectorOp(Op):
    """A vector of elements picked from two by `mask` (indices into their
    concatenation; -1 for poison)."""

    name = "llvm.shufflevector"
    v1 = OperandDef(AnyVector)
    v2 = OperandDef(AnyVector)
    mask = AttrDef(DenseArrayOf(i32))
    res = ResultDef(AnyVector)
    traits = (Pure, AllTypesMatch(("v1", "v2")), InferType())
    assembly_format = "$v1 `,` $v2 $mask attr-dict `:` type($v1) ` `"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        mask = attributes.get("mask")
        if not isinstance(mask, DenseArrayAttr):
            raise TypeInferenceError(cls.op_def.name, "needs a mask")
        source = operand_types[0]
        return [VectorType((len(mask.values),), _element_of(source),
                           getattr(source, "scalable", (False,))[:1])]

    def fold(self, operands):
        # A one-element vector shuffled to its only element is itself.
        type_ = self.v1.type
        if len(type_.shape) == 1 and type_.shape[0] == 1 and tuple(self.mask.values) == (0,):
            return self.v1
        return None

    def verify_custom(self) -> None:
        if any(getattr(self.v1.type, "scalable", ())) and any(self.mask.values):
            raise VerificationError("expected a splat operation for scalable vectors")

    @classmethod
    def create_shuffle(cls, v1: Value, v2: Value, mask: Sequence[int]) -> ShuffleVectorOp:
        """The vector of the elements of `v1` and `v2` (concatenated) at `mask`'s
        positions (-1: poison)."""
        return cls.build(v1, v2, mask=DenseArrayAttr(i32, tuple(mask)))  # type: ignore[return-value]


# ------------------------------------------------------------------ aggregates


def _element_at(constant, index: int):
    """Element `index` of a constant aggregate: of a dense elements attribute (flat),
    of an array attribute; `#llvm.zero/undef/poison` stand for all their elements."""
    if isinstance(constant, (ZeroAttr, UndefAttr, PoisonAttr)):
        return constant
    if isinstance(constant, ArrayAttr):
        return constant.elements[index] if 0 <= index < len(constant.elements) else None
    if isinstance(constant, DenseElementsAttr):
        # As MLIR's: elements are read in row-major order, whatever the nesting (so
        # only the position of a scalar in a one-dimensional constant folds).
        element = constant.type.element_type
        flat = constant.array.reshape(-1)
        if not isinstance(element, (IntegerType, FloatType)) or not 0 <= index < flat.size:
            return None  # complex elements (a struct each) are not folded
        scalar = DenseElementsAttr.from_array(flat[index], RankedTensorType((1,), element))
        return make_constant(element, constant_scalars(scalar)[1])
    return None


def aggregate_element_type(container: Type, position: tuple[int, ...]) -> Type:
    """The type of the element at `position` in a struct or array; raises ValueError
    with MLIR's words when there is none."""
    from mlc.llvm.dialect.constraints import is_llvm_compatible

    if not is_llvm_compatible(container):
        raise ValueError(f"expected LLVM IR Dialect type, got '{container}'")
    type_ = container
    for index in position:
        if isinstance(type_, LLVMStructType):
            if not 0 <= index < len(type_.fields):
                raise ValueError(f"position out of bounds: {index}")
            type_ = type_.fields[index]
        elif isinstance(type_, LLVMArrayType):
            if not 0 <= index < type_.size:
                raise ValueError(f"position out of bounds: {index}")
            type_ = type_.element
        else:
            raise ValueError(f"expected LLVM IR structure/array type, got: '{type_}'")
    return type_


def _parse_position_and_type(p: AsmParser) -> tuple:
    """`[i, j] {attrs} : !container` of extractvalue and insertvalue: the position, the
    attributes (with the position), the container's type and the element's there."""
    position = DenseArrayOf(i64).spelling.parse(p)
    attrs = p.parse_optional_attr_dict()
    p.parse_colon()
    container_type = p.parse_type()
    try:
        element = aggregate_element_type(container_type, tuple(position.values))
    except ValueError as exc:
        raise p.error(str(exc)) from None  # where the parser stands, as MLIR reports it
    attrs["position"] = position
    return position, attrs, container_type, element


@llvm.op
class ExtractValueOp(Op):
    """The element of a struct or array at a constant position."""

    name = "llvm.extractvalue"
    container = OperandDef(LLVMType)
    position = AttrDef(DenseArrayOf(i64))
    res = ResultDef(LLVMType)
    traits = (Pure, InferType(checked=False))

    @classmethod
    def parse(cls, p: AsmParser) -> ExtractValueOp:
        container = p.parse_operand()
        position, attrs, container_type, result_type = _parse_position_and_type(p)
        operand = p.resolve_operand(container, container_type)
        return cls.create([operand], [result_type], attrs)  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        p.write(" ")
        p.value(self.container)
        p.write("[" + ", ".join(str(v) for v in self.position.values) + "]")
        p.attr_dict(self, {"position"})
        p.write(" : ")
        p.type(self.container.type)
        p.write(" ")  # the trailing space, as MLIR

    @classmethod
    def create_extract(cls, container: Value, position: Sequence[int]) -> ExtractValueOp:
        """The element of the struct or array `container` at `position`."""
        op = cls.build(container, position=DenseArrayAttr(i64, tuple(position)))
        return op  # type: ignore[return-value]

    def fold(self, operands):
        """MLIR 22's fold: an extract from an extract is one extract; from a constant,
        the element (`#llvm.zero/undef/poison` of an element are themselves); else read
        through the `insertvalue`s that built the container, back to the one that wrote
        the position, past those that wrote elsewhere, stopping at one that wrote a part
        or a whole of the position (the other insertions would be missed)."""
        position = tuple(self.position.values)
        source = self.container.defining_op
        if isinstance(source, ExtractValueOp):
            self.set_operand(0, source.container)
            self.attributes["position"] = DenseArrayAttr(
                i64, tuple(source.position.values) + position)
            return self.res
        # An llvm.mlir.constant's value may be typed otherwise than the op (a tensor
        # for an array), so it is read from the op itself.
        constant = operands[0] if operands[0] is not None or source is None \
            or not source.has_trait(ConstantLike) else constant_attribute(source)
        if constant is not None:
            for index in position:
                constant = _element_at(constant, index)
                if constant is None:
                    return None
            return constant
        changed = False
        insert = source
        while isinstance(insert, InsertValueOp):
            written = tuple(insert.position.values)
            if written == position:
                return insert.value
            if position[:len(written)] == written:
                # Inside the inserted aggregate: mlir-opt-22 reads on into it only when
                # it too was built by insertvalues or is a constant.
                inner = insert.value.defining_op
                if not isinstance(inner, InsertValueOp) and \
                        (inner is None or not inner.has_trait(ConstantLike)):
                    break
                self.set_operand(0, insert.value)
                position = position[len(written):]
                self.attributes["position"] = DenseArrayAttr(i64, position)
                changed = True
                insert = inner
                continue
            if written[:len(position)] == position:  # the insertion is inside what is read
                break
            self.set_operand(0, insert.container)
            changed = True
            insert = insert.container.defining_op
        return self.res if changed else None

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        position = attributes.get("position")
        try:
            return [aggregate_element_type(operand_types[0], tuple(position.values))]
        except ValueError as exc:
            raise TypeInferenceError(cls.op_def.name, str(exc)) from None

    def verify_custom(self) -> None:
        try:
            element = aggregate_element_type(self.container.type, tuple(self.position.values))
        except ValueError as exc:
            raise VerificationError(str(exc)) from None
        if element != self.res.type:
            raise VerificationError(f"Type mismatch: extracting from '{self.container.type}' "
                                    f"should produce '{element}' but this op returns "
                                    f"'{self.res.type}'")


@llvm.op
class InsertValueOp(Op):
    """A struct or array with the element at a constant position replaced."""

    name = "llvm.insertvalue"
    container = OperandDef(LLVMType)
    value = OperandDef(LLVMType)
    position = AttrDef(DenseArrayOf(i64))
    res = ResultDef(LLVMType)
    traits = (Pure, AllTypesMatch(("container", "res")))

    @classmethod
    def create_insert(cls, container: Value, value: Value, position: Sequence[int]
                      ) -> InsertValueOp:
        """`container` (a struct or array) with `value` at `position`."""
        op = cls.build(container, value, position=DenseArrayAttr(i64, tuple(position)),
                       result_types=[container.type])
        return op  # type: ignore[return-value]

    @classmethod
    def parse(cls, p: AsmParser) -> InsertValueOp:
        value = p.parse_operand()
        p.parse_comma()
        container = p.parse_operand()
        position, attrs, container_type, value_type = _parse_position_and_type(p)
        operands = [p.resolve_operand(container, container_type),
                    p.resolve_operand(value, value_type)]
        return cls.create(operands, [container_type], attrs)  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        p.write(" ")
        p.value(self.value)
        p.write(", ")
        p.value(self.container)
        p.write("[" + ", ".join(str(v) for v in self.position.values) + "]")
        p.attr_dict(self, {"position"})
        p.write(" : ")
        p.type(self.container.type)
        p.write(" ")  # the trailing space, as MLIR

    def verify_custom(self) -> None:
        try:
            element = aggregate_element_type(self.container.type, tuple(self.position.values))
        except ValueError as exc:
            raise VerificationError(str(exc)) from None
        if element != self.value.type:
            raise VerificationError(f"Type mismatch: cannot insert '{self.value.type}' into "
                                    f"'{self.container.type}'")
