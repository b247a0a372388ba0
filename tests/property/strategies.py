"""Hypothesis strategies for mlc IR: builtin types, attributes, locations and random,
well-formed modules.

Modules are trees of unregistered ops (`"test.op_N"(...)`, in the installed `test`
dialect but not declared by it, and `"unk.op_N"(...)`, of no dialect) with regions,
blocks, block arguments and successors, mixed with registered `builtin`, `func` and
`arith` ops built with correct types so that their custom assembly formats are
exercised; values carry name hints (`%x`, `%a.b`, `%x_0`...) that the printer must
keep unique.
Every generated module verifies: operands are drawn only from values that dominate
the use (earlier results in the same block, the block's arguments, and the values of
enclosing blocks, never across an op isolated from above), successors name non-entry
blocks of the same region and sit on the last op of a block, and registered ops get
operand types their declarations accept.

Every feature is generated; bugs these strategies found are pinned by direct
regression tests in test_roundtrip.py (`test_bug_*`).
"""

from __future__ import annotations

import functools
import math
import operator
import struct

import numpy as np
from affine_strategies import affine_map_attrs, integer_set_attrs, memref_layouts
from hypothesis import strategies as st

from mlc.ir import (
    DYNAMIC,
    ArrayAttr,
    Block,
    CallSiteLoc,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    FloatType,
    FunctionType,
    FusedLoc,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NameLoc,
    OpaqueAttr,
    OpaqueType,
    Operation,
    RankedTensorType,
    Region,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    TupleType,
    TypeAttr,
    UnknownLoc,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
    bf16,
    f16,
    f32,
    f64,
    i1,
    i64,
    index,
    none,
    unit,
)
from mlc.ir.dialects import arith, arith_casts
from mlc.ir.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from mlc.ir.dialects.func import CallOp, FuncOp, ReturnOp

# ============================================================================ types
# Kinds that only some versions of mlc have are detected, so the suite runs on both.

try:
    from mlc.ir.core.attributes import ComplexType
except ImportError:  # pragma: no cover - older mlc
    ComplexType = None
from mlc.ir.core import attributes as _attributes_module

HAS_SCALABLE_VECTORS = "scalable" in getattr(VectorType, "__dataclass_fields__", {})
_LAYOUTS = getattr(_attributes_module, "_FLOAT_LAYOUT", {})
# tf32, f80 and f128: as types and float attributes (dense storage has no dtype for them).
EXTRA_FLOAT_TYPES = tuple(FloatType(n) for n in ("tf32", "f80", "f128") if n in _LAYOUTS)

SIGNEDNESS = ("signless", "signed", "unsigned")
FLOAT_TYPES = (f16, bf16, f32, f64)
ALL_FLOAT_TYPES = FLOAT_TYPES + EXTRA_FLOAT_TYPES

int_widths = st.one_of(st.sampled_from([1, 8, 16, 32, 64]), st.integers(1, 128))
integer_types = st.builds(IntegerType, int_widths, st.sampled_from(SIGNEDNESS))
signless_int_types = st.builds(IntegerType, int_widths)
float_types = st.sampled_from(FLOAT_TYPES)
any_float_types = st.sampled_from(ALL_FLOAT_TYPES)
scalar_types = st.one_of(integer_types, any_float_types, st.just(index))

static_dims = st.integers(0, 4)
dims = st.one_of(static_dims, st.just(DYNAMIC))
vector_dims = st.integers(1, 4)  # vector dimensions are positive and static


def shapes(shape_dims=dims, max_size=3):
    """Tensor and memref shapes, rank 0 to `max_size`, `?` anywhere."""
    return st.lists(shape_dims, max_size=max_size).map(tuple)


@st.composite
def vector_types(draw, elements=scalar_types, min_rank=0):
    """`vector<...>`: 0-D, and with scalable (`[4]`) dimensions where mlc has them."""
    shape = tuple(draw(st.lists(vector_dims, min_size=min_rank, max_size=3)))
    if HAS_SCALABLE_VECTORS and shape and draw(st.integers(0, 3)) == 0:
        scalable = tuple(draw(st.lists(st.booleans(), min_size=len(shape), max_size=len(shape))))
        # `scalable` all False is the same type as `()`, but compares unequal to it;
        # the parser builds `()`, so only that spelling is generated.
        if any(scalable):
            return VectorType(shape, draw(elements), scalable)
    return VectorType(shape, draw(elements))


complex_types = (st.builds(ComplexType, st.one_of(any_float_types, integer_types))
                 if ComplexType is not None else st.nothing())

# Tensor and memref elements: scalars, complex numbers, or vectors of scalars.
container_elements = st.one_of(scalar_types, complex_types, vector_types(min_rank=1))

# Encodings: any attribute is allowed; a few simple ones.
tensor_encodings = st.one_of(
    st.none(),
    st.builds(StringAttr, st.text(max_size=5)),
    st.builds(IntegerAttr, st.integers(-3, 3)),
    st.just(OpaqueAttr("#unk.enc<sparse>")),
)


def ranked_tensor_types(elements=container_elements, shape_dims=dims):
    return st.builds(RankedTensorType, shapes(shape_dims), elements, tensor_encodings)


unranked_tensor_types = st.builds(UnrankedTensorType, container_elements)

# Memory spaces: integers (MLIR elides their `: i64`), strings.
memory_spaces = st.one_of(
    st.none(),
    st.builds(IntegerAttr, st.integers(0, 7)),
    st.builds(IntegerAttr, st.integers(0, 7), st.sampled_from([IntegerType(32), IntegerType(64)])),
    st.builds(StringAttr, st.sampled_from(["gpu", "global", "a b"])),
)


@st.composite
def memref_types(draw):
    shape = draw(shapes())
    return MemRefType(shape, draw(container_elements), draw(memref_layouts(len(shape))),
                      draw(memory_spaces))


unranked_memref_types = st.builds(UnrankedMemRefType, container_elements, memory_spaces)

# Types of a dialect that is not loaded: kept as text. Bodies hold nested types and
# strings with the characters that end a body (`>`), to check the balanced scan.
opaque_types = st.sampled_from([
    OpaqueType("unk", ".t"), OpaqueType("unk", ".t<1, 2>"), OpaqueType("unk", '.t<"a>b">'),
    OpaqueType("unk", ".t<i32, (i32) -> f32>"), OpaqueType("unk", '.t<"\\"">'),
])

leaf_types = st.one_of(
    scalar_types,
    st.just(none),
    complex_types,
    ranked_tensor_types(),
    unranked_tensor_types,
    vector_types(),
    memref_types(),
    unranked_memref_types,
    opaque_types,
)


def _composite_types(children):
    type_lists = st.lists(children, max_size=3).map(tuple)
    return st.one_of(
        st.builds(FunctionType, type_lists, type_lists),
        st.builds(TupleType, type_lists),
    )


types = st.recursive(leaf_types, _composite_types, max_leaves=6)
"""Any builtin type, nested (function types of tuples of function types...)."""

# ============================================================================ floats

_FLOAT_WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "tf32": 19, "f80": 80, "f128": 128}
# Stored mantissa bits (for f80 this includes its explicit integer bit).
_FLOAT_MANTISSA = {"f16": 10, "bf16": 7, "f32": 23, "f64": 52, "tf32": 10, "f80": 64, "f128": 112}


def special_float_bits(type_: FloatType) -> list[int]:
    """Bit patterns worth always trying: zeros, infinities, NaNs with payloads,
    denormals, the extremes, and 1.0."""
    width = _FLOAT_WIDTH[type_.name]
    mant = _FLOAT_MANTISSA[type_.name]
    exp_bits = width - 1 - mant
    sign = 1 << (width - 1)
    exp_mask = ((1 << exp_bits) - 1) << mant
    # f80 keeps the integer bit of the significand: set for normals, infinities, NaNs.
    j = 1 << 63 if type_.name == "f80" else 0
    frac_bits = mant - 1 if j else mant
    frac_mask = (1 << frac_bits) - 1
    quiet = 1 << (frac_bits - 1)
    one = (((1 << (exp_bits - 1)) - 1) << mant) | j
    return [
        0, sign,                                            # +0.0, -0.0
        exp_mask | j, sign | exp_mask | j,                  # +inf, -inf
        exp_mask | j | quiet, sign | exp_mask | j | quiet,  # quiet NaNs
        exp_mask | j | quiet | 1,                           # quiet NaN with a payload
        exp_mask | j | 1,                                   # signalling NaN
        exp_mask | j | frac_mask, sign | exp_mask | j | frac_mask,
        1, sign | 1,                                        # smallest denormals
        frac_mask, sign | frac_mask,                        # largest denormals
        (1 << mant) | j,                                    # smallest normal
        exp_mask - 1, sign | (exp_mask - 1),                # largest finite
        one, sign | one,                                    # 1.0, -1.0
    ]


def _beyond_f64(bits: int, type_: FloatType) -> bool:
    """Whether an f80/f128 pattern is finite with a magnitude beyond f64's range."""
    if type_.name not in ("f80", "f128") or not is_finite_bits(bits, type_):
        return False
    exponent = (bits >> _FLOAT_MANTISSA[type_.name]) & 0x7FFF
    return exponent - 16383 > 1022


def float_bits(type_: FloatType):
    """Any bit pattern of `type_`, biased towards the special ones."""
    width = _FLOAT_WIDTH[type_.name]
    bits = st.one_of(st.sampled_from(special_float_bits(type_)), st.integers(0, (1 << width) - 1))
    return bits


@st.composite
def float_attrs(draw, types_=any_float_types):
    type_ = draw(types_)
    return FloatAttr(draw(float_bits(type_)), type_)


def is_finite_bits(bits: int, type_: FloatType) -> bool:
    width = _FLOAT_WIDTH[type_.name]
    mant = _FLOAT_MANTISSA[type_.name]
    exp_mask = ((1 << (width - 1 - mant)) - 1) << mant
    return bits & exp_mask != exp_mask


# ====================================================================== attributes

def int_range(type_) -> tuple[int, int]:
    if isinstance(type_, IndexType):
        return -(1 << 63), (1 << 63) - 1
    if type_.width == 1 and type_.signedness == "signless":
        return 0, 1
    if type_.signedness == "unsigned":
        return 0, (1 << type_.width) - 1
    return -(1 << (type_.width - 1)), (1 << (type_.width - 1)) - 1


integer_attr_types = st.one_of(integer_types, st.just(index))


@st.composite
def integer_attrs(draw, types_=integer_attr_types):
    type_ = draw(types_)
    low, high = int_range(type_)
    value = draw(st.one_of(st.sampled_from(sorted({low, high, 0, max(low, min(high, 1)),
                                                   max(low, -1)})),
                           st.integers(low, high)))
    return IntegerAttr(value, type_)


bool_attrs = st.booleans().map(lambda b: IntegerAttr(int(b), i1))

# Text with everything a string attribute must escape: quotes, backslashes, control
# characters, non-ASCII; and, through surrogateescape, bytes that are not UTF-8.
string_values = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=12),
    st.text(st.sampled_from('"\\\n\t\r\x00\x7f\xe9\u2603\U0001f600 ab{}<>[]()@#%^:,='), max_size=12),
    st.binary(max_size=8).map(lambda b: b.decode("utf-8", "surrogateescape")),
)
string_attrs = st.builds(StringAttr, string_values)

bare_identifiers = st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_$.]{0,6}\Z")
# Names that are keywords somewhere in the grammar: the contextual lexer must still
# read them as plain identifiers in an attribute dictionary.
keyword_names = st.sampled_from(["loc", "true", "false", "unit", "dense", "array", "tensor",
                                 "memref", "vector", "attributes", "to", "i32", "f32", "index",
                                 "none", "func", "module", "fastmath", "affine_map", "x"])
# Any non-empty name (quoted when it is not an identifier).
attr_names = st.one_of(bare_identifiers, keyword_names, string_values.filter(bool))

symbol_names = st.one_of(bare_identifiers, st.from_regex(r"\A[A-Za-z_][\w$.\-]{0,6}\Z"),
                         string_values.filter(bool))
symbol_ref_attrs = st.builds(SymbolRefAttr, symbol_names, st.lists(symbol_names, max_size=3).map(tuple))


# ---------------------------------------------------------------- dense elements

# Element types that dense storage supports (integers up to 64 bits).
dense_int_types = st.builds(IntegerType, st.one_of(st.sampled_from([1, 8, 16, 32, 64]),
                                                   st.integers(1, 64)),
                            st.sampled_from(SIGNEDNESS))
dense_element_types = st.one_of(dense_int_types, float_types, st.just(index))


def _uint_dtype(width: int):
    return {16: np.uint16, 32: np.uint32, 64: np.uint64}[width]


def _float_view(bits: list[int], type_: FloatType, shape) -> np.ndarray:
    raw = np.array(bits, dtype=_uint_dtype(_FLOAT_WIDTH[type_.name])).reshape(shape)
    if type_.name == "bf16":
        return raw  # bf16 elements are stored as their raw 16-bit patterns
    return raw.view({"f16": np.float16, "f32": np.float32, "f64": np.float64}[type_.name])


def _scalar_values(draw, element_type, count: int, finite_only: bool):
    if isinstance(element_type, FloatType):
        bits = float_bits(element_type)
        if finite_only:
            bits = bits.filter(lambda b: is_finite_bits(b, element_type))
        return draw(st.lists(bits, min_size=count, max_size=count))
    low, high = int_range(element_type)
    if element_type == i1:
        return draw(st.lists(st.booleans(), min_size=count, max_size=count))
    return draw(st.lists(st.integers(low, high), min_size=count, max_size=count))


def _make_array(values, element_type, shape):
    if isinstance(element_type, FloatType):
        return _float_view(values, element_type, shape)
    return np.array(values, dtype=object).reshape(shape)


@st.composite
def dense_elements_attrs(draw, element_types=dense_element_types, shaped=None,
                         quiet_nans_only=False):
    """`dense<...>` of a small static tensor or vector: splats, nested lists, every
    float bit pattern (bf16 too)."""
    element_type = draw(element_types)
    if shaped is None:
        kind = draw(st.sampled_from(["tensor", "vector"]))
        if kind == "vector" and isinstance(element_type, IndexType | FloatType | IntegerType):
            shape = tuple(draw(st.lists(vector_dims, min_size=1, max_size=3)))
            type_ = VectorType(shape, element_type)
        else:
            shape = tuple(draw(st.lists(st.integers(1, 3), max_size=3)))
            if draw(st.booleans()):
                shape = tuple(0 for _ in shape)
            type_ = RankedTensorType(shape, element_type)
    else:
        type_ = draw(shaped(element_type))
    count = math.prod(type_.shape)
    if draw(st.booleans()) or count == 0:  # a splat
        value = _scalar_values(draw, element_type, 1, False)
        bits = _fix_nans(value, element_type, quiet_nans_only)
        array = _make_array(bits, element_type, (1,)).reshape(())
    else:
        values = _fix_nans(_scalar_values(draw, element_type, count, False), element_type,
                           quiet_nans_only)
        array = _make_array(values, element_type, type_.shape)
    return DenseElementsAttr.from_array(array, type_)


def _fix_nans(values, element_type, quiet_only: bool):
    """With `quiet_only`, replace signalling/payload NaNs by canonical quiet ones
    (f32 signalling NaNs become quiet, f16 NaNs the canonical one); off by default."""
    if not quiet_only or not isinstance(element_type, FloatType) or element_type.name in ("bf16", "f64"):
        return values
    mant = _FLOAT_MANTISSA[element_type.name]
    sign = 1 << (_FLOAT_WIDTH[element_type.name] - 1)
    out = []
    for b in values:
        if not is_finite_bits(b, element_type) and b & ((1 << mant) - 1):
            if element_type.name == "f16":
                b = (b & sign) | 0x7E00
            else:
                b |= 1 << (mant - 1)
        out.append(b)
    return out


# ---------------------------------------------------------------- dense arrays

DENSE_ARRAY_TYPES = (i1, IntegerType(8), IntegerType(16), IntegerType(32), i64, f32, f64)


@st.composite
def dense_array_attrs(draw):
    element_type = draw(st.sampled_from(DENSE_ARRAY_TYPES))
    n = draw(st.integers(0, 4))
    if isinstance(element_type, FloatType):
        width = _FLOAT_WIDTH[element_type.name]
        values = tuple(draw(st.lists(st.floats(width=width), min_size=n, max_size=n)))
    elif element_type == i1:
        values = tuple(int(b) for b in draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    else:
        low, high = int_range(element_type)
        values = tuple(draw(st.lists(st.integers(low, high), min_size=n, max_size=n)))
    return DenseArrayAttr(element_type, values)


resource_handles = st.one_of(bare_identifiers, st.sampled_from(["a b", "x\"y", "1st", "e\u00e9"]))
dense_resource_attrs = st.builds(
    DenseResourceElementsAttr,
    st.builds(RankedTensorType, st.lists(static_dims, max_size=2).map(tuple), scalar_types),
    resource_handles)

def _flag_sets(flag_class):
    """Any combination of an enum.Flag's members."""
    return st.frozensets(st.sampled_from(list(flag_class))).map(
        lambda members: functools.reduce(operator.or_, members, flag_class(0)))


fastmath_attrs = _flag_sets(arith.FastMath).map(arith.FastMathFlags)
overflow_attrs = _flag_sets(arith.Overflow).map(arith.IntegerOverflowFlags)

opaque_attrs = st.sampled_from([
    OpaqueAttr("#unk.a"), OpaqueAttr("#unk.a<1, [2]>"), OpaqueAttr('#unk.a<"}>">'),
])

_stride = st.one_of(st.none(), st.integers(-(1 << 63), (1 << 63) - 1))
strided_attrs = st.builds(StridedLayoutAttr, st.lists(_stride, max_size=3).map(tuple), _stride)


def has_nonfinite_f64(attr) -> bool:
    """Whether `attr` is a NaN or infinite f64, or an array holding one."""
    if isinstance(attr, FloatAttr):
        return attr.type == f64 and not is_finite_bits(attr.bits, f64)
    if isinstance(attr, ArrayAttr):
        return any(has_nonfinite_f64(a) for a in attr.elements)
    return False


def _array_elements(children):
    return children


leaf_attrs = st.one_of(
    integer_attrs(),
    float_attrs(),
    bool_attrs,
    string_attrs,
    st.just(unit),
    types.map(TypeAttr),
    symbol_ref_attrs,
    dense_elements_attrs(),
    dense_array_attrs(),
    dense_resource_attrs,
    fastmath_attrs,
    overflow_attrs,
    opaque_attrs,
    strided_attrs,
    affine_map_attrs,
    integer_set_attrs,
)


def _composite_attrs(children):
    return st.one_of(
        st.lists(_array_elements(children), max_size=4).map(lambda xs: ArrayAttr(tuple(xs))),
        st.dictionaries(attr_names, children, max_size=3).map(DictionaryAttr.from_dict),
    )


attributes = st.recursive(leaf_attrs, _composite_attrs, max_leaves=8)
"""Any attribute (not a location), nested in arrays and dictionaries."""

attr_dicts = st.dictionaries(attr_names, attributes, max_size=3)
"""Discardable attributes of an op."""

# Inside modules, smaller types and attributes keep examples small and quick to draw;
# the type and attribute properties cover deep nesting.
module_types = st.recursive(leaf_types, _composite_types, max_leaves=3)
module_attributes = st.recursive(leaf_attrs, _composite_attrs, max_leaves=4)
module_attr_dicts = st.dictionaries(attr_names, module_attributes, max_size=2)

# ======================================================================= locations

filenames = st.one_of(st.sampled_from(["a.mlir", "dir/x.onnx", ""]), string_values)


def _composite_locs(children):
    return st.one_of(
        st.builds(NameLoc, string_values, st.one_of(st.none(), children)),
        st.builds(CallSiteLoc, children, children),
        st.builds(FusedLoc, st.lists(children, max_size=3).map(tuple),
                  st.one_of(st.none(), st.builds(StringAttr, string_values),
                            st.builds(IntegerAttr, st.integers(0, 9)))),
    )


locations = st.recursive(
    st.one_of(st.just(UnknownLoc()),
              st.builds(FileLineColLoc, filenames, st.integers(0, 10**6), st.integers(0, 999))),
    _composite_locs, max_leaves=4)

# ========================================================================= modules

# Value names a parse can give: identifiers, never a number or `argN` (those are the
# printer's own names).
name_hints = st.sampled_from(["x", "x_0", "x_1", "y", "a.b", "a-b", "$v", "_", "arg", "argx",
                              "arg0_", "cst", "x0"])

# Types that arith constants can have.
arith_scalar_int = st.one_of(st.builds(IntegerType, st.sampled_from([1, 8, 16, 32, 64])),
                             st.just(index))


def _arith_shaped(elements):
    return st.one_of(
        elements,
        st.builds(VectorType, st.lists(vector_dims, min_size=1, max_size=2).map(tuple), elements),
        st.builds(RankedTensorType, st.lists(st.integers(1, 3), max_size=2).map(tuple), elements),
        st.builds(RankedTensorType, shapes(dims, 2), elements),
    )


arith_int_like = _arith_shaped(arith_scalar_int)
arith_float_like = _arith_shaped(float_types)

INT_BINARY = (arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.RemSIOp, arith.RemUIOp,
              arith.CeilDivSIOp, arith.CeilDivUIOp, arith.FloorDivSIOp, arith.MaxSIOp,
              arith.MaxUIOp, arith.MinSIOp, arith.MinUIOp)
INT_OVERFLOW_BINARY = (arith.AddIOp, arith.SubIOp, arith.MulIOp, arith.ShLIOp)
INT_EXACT_BINARY = (arith.DivSIOp, arith.DivUIOp, arith.ShRUIOp, arith.ShRSIOp)
INT_EXTENDED = (arith.AddUIExtendedOp, arith.MulSIExtendedOp, arith.MulUIExtendedOp)
FLOAT_BINARY = (arith.AddFOp, arith.SubFOp, arith.MulFOp, arith.DivFOp, arith.RemFOp,
                arith.MaximumFOp, arith.MinimumFOp, arith.MaxNumFOp, arith.MinNumFOp)


def _with_element(type_, element):
    if isinstance(type_, VectorType):
        return VectorType(type_.shape, element)
    if isinstance(type_, RankedTensorType):
        return RankedTensorType(type_.shape, element, type_.encoding)
    return element


def _element(type_):
    return type_.element_type if isinstance(type_, VectorType | RankedTensorType) else type_


class ModuleGen:
    """Draws one module. `visible` lists are the values that dominate the point where
    the next op goes."""

    def __init__(self, draw, *, registered: bool, locs: bool, max_depth: int,
                 max_ops: int, hints: bool, graph_uses: bool):
        self.draw = draw
        self.registered = registered
        self.locs = locs
        self.max_depth = max_depth
        self.max_ops = max_ops
        self.hints = hints
        self.graph_uses = graph_uses

    # ------------------------------------------------------------ small helpers

    def loc(self):
        return self.draw(locations) if self.locs else UnknownLoc()

    def hint(self):
        if self.hints and self.draw(st.booleans()):
            return self.draw(name_hints)
        return None

    def block(self, arg_types) -> Block:
        return Block(arg_types, [self.hint() for _ in arg_types],
                     [self.loc() if self.locs and self.draw(st.booleans()) else None
                      for _ in arg_types])

    def add(self, block: Block, visible: list, op: Operation) -> Operation:
        if self.locs:
            op.loc = self.loc()
        if self.hints:
            for result in op.results:
                result.name_hint = self.hint()
        block.append(op)
        visible.extend(op.results)
        return op

    def value_of_type(self, block: Block, visible: list, type_):
        """A value of `type_` that dominates the end of `block`: an existing one, or a
        new constant or unregistered op appended to `block`."""
        candidates = [v for v in visible if v.type == type_]
        if candidates and self.draw(st.booleans()):
            return self.draw(st.sampled_from(candidates))
        attr = self.constant_for(type_)
        if attr is not None and self.registered:
            op = arith.ConstantOp.build(value=attr)
        else:
            op = Operation(f"test.def_{self.draw(st.integers(0, 2))}", [], [type_])
        return self.add(block, visible, op).results[0]

    def constant_for(self, type_):
        """An arith.constant value of `type_`, or None if it cannot have one."""
        element = _element(type_)
        if not (isinstance(element, FloatType | IndexType)
                or (isinstance(element, IntegerType) and element.signedness == "signless"
                    and element.width <= 64)):
            return None
        if isinstance(type_, VectorType | RankedTensorType):
            if not type_.has_static_shape() or isinstance(type_, RankedTensorType) and type_.encoding:
                return None
            if 0 in type_.shape and len(type_.shape) > 1:
                pass  # empty literals of any rank print as `dense<>`
            if isinstance(element, FloatType) and element not in FLOAT_TYPES:
                return None  # no dense storage
            if any(getattr(type_, "scalable", ())):
                return None
            return self.draw(dense_elements_attrs(st.just(element), shaped=lambda e: st.just(type_),
                                                  quiet_nans_only=True))
        if isinstance(type_, FloatType):
            return FloatAttr(self.draw(float_bits(type_)), type_)
        if isinstance(type_, IntegerType | IndexType):
            return self.draw(integer_attrs(st.just(type_)))
        return None

    # ------------------------------------------------------------ modules

    def module(self, depth: int = 0, top: bool = True, taken: frozenset = frozenset()) -> ModuleOp:
        """A module; `taken` are the symbol names already used in the enclosing module."""
        draw = self.draw
        sym_name = draw(st.one_of(st.none(), symbol_names.filter(lambda n: n not in taken))) \
            if not top or draw(st.booleans()) else None
        module = ModuleOp.build(sym_name=StringAttr(sym_name) if sym_name is not None else None)
        if draw(st.integers(0, 3)) == 0:
            # A module's discardable attributes have dialect-prefixed names.
            module.attributes.update({"test." + k: v for k, v in draw(module_attr_dicts).items()})
        module.loc = self.loc()
        funcs = []
        names = []
        if self.registered:
            names = draw(st.lists(symbol_names, max_size=3, unique=True))
            for name in names:
                fn_type = FunctionType(tuple(draw(st.lists(module_types, max_size=3))),
                                       tuple(draw(st.lists(module_types, max_size=2))))
                funcs.append((name, fn_type))
        body = module.body
        visible: list = []
        kinds = ["unregistered"]
        if self.registered:
            kinds.append("arith")
            if depth < self.max_depth:
                kinds.append("module")
        items = [("func", fn) for fn in funcs]
        items += [(kind, None) for kind in draw(st.lists(st.sampled_from(kinds), max_size=self.max_ops))]
        for kind, fn in draw(st.permutations(items)):
            if kind == "func":
                self.func(body, fn, funcs, depth)
            elif kind == "module":
                nested = self.module(depth + 1, top=False, taken=frozenset(names))
                if "sym_name" in nested.attributes:
                    names.append(nested.attributes["sym_name"].value)
                body.append(nested)
            elif kind == "arith":
                self.arith_op(body, visible)
            else:
                self.unregistered_op(body, visible, depth, funcs, successor_pool=[])
        if self.graph_uses:
            self.add_graph_uses(body)
        return module

    def add_graph_uses(self, block: Block) -> None:
        """The module body is a graph region: ops may use any value of the block,
        including later ones and their own results."""
        results = [r for op in block.ops() for r in op.results]
        if not results:
            return
        for op in block.ops():
            if op.op_def is None and self.draw(st.integers(0, 2)) == 0:
                extra = self.draw(st.lists(st.sampled_from(results), min_size=1, max_size=2))
                op.set_operands(op.operands + extra)

    # ------------------------------------------------------------ functions

    def func(self, block: Block, signature, funcs, depth: int) -> None:
        draw = self.draw
        name, fn_type = signature
        visibility = draw(st.sampled_from([None, "private", "public", "nested"]))
        declaration = visibility in ("private", "nested") and draw(st.integers(0, 3)) == 0
        if declaration:
            fn = FuncOp.build(sym_name=StringAttr(name), function_type=TypeAttr(fn_type),
                              sym_visibility=StringAttr(visibility), regions=[Region()])
        else:
            fn = FuncOp.create_function(name, fn_type, visibility)
            entry = fn.entry_block
            for arg in entry.args:
                arg.name_hint = self.hint()
                if self.locs and self.draw(st.booleans()):
                    arg.loc = self.loc()
            self.func_body(fn, fn_type, funcs, depth)
        for key, count in (("arg_attrs", len(fn_type.inputs)), ("res_attrs", len(fn_type.results))):
            if count and draw(st.integers(0, 3)) == 0:
                # Only dialect attributes (a prefixed name) may sit on a function's
                # values; `other` is no installed dialect, so nothing checks them further.
                dicts = [DictionaryAttr.from_dict(draw(st.dictionaries(
                    attr_names.map(lambda n: "other." + n), module_attributes, max_size=2)))
                    for _ in range(count)]
                # A signature shows only non-empty dictionaries: an all-empty array is
                # the same as none (MLIR drops it when it is built).
                if any(d.entries for d in dicts):
                    fn.attributes[key] = ArrayAttr(tuple(dicts))
        if draw(st.integers(0, 3)) == 0:
            fn.attributes.update({k: v for k, v in draw(module_attr_dicts).items()
                                  if k not in FuncOp.op_def.attributes})
        fn.loc = self.loc()
        block.append(fn)

    def func_body(self, fn: FuncOp, fn_type: FunctionType, funcs, depth: int) -> None:
        draw = self.draw
        region = fn.regions[0]
        extra = [self.block(draw(st.lists(module_types, max_size=2)))
                 for _ in range(draw(st.integers(0, 2)))]
        for b in extra:
            region.append(b)
        for b in region.blocks:
            visible = list(b.args)
            self.ops(b, visible, depth + 1, funcs, in_func=True)
            if extra and draw(st.booleans()):
                # An unregistered terminator branching to the other blocks.
                self.add(b, visible, Operation(
                    f"test.br_{draw(st.integers(0, 1))}",
                    draw(st.lists(st.sampled_from(visible), max_size=2)) if visible else [],
                    [], draw(st.dictionaries(attr_names, module_attributes, max_size=1)),
                    successors=draw(st.lists(st.sampled_from(extra), min_size=1, max_size=2))))
            else:
                values = [self.value_of_type(b, visible, t) for t in fn_type.results]
                self.add(b, visible, ReturnOp.build(values))

    # ------------------------------------------------------------ op lists

    def ops(self, block: Block, visible: list, depth: int, funcs, in_func: bool) -> None:
        for _ in range(self.draw(st.integers(0, self.max_ops))):
            choices = ["unregistered"]
            if self.registered:
                choices += ["arith", "arith", "cast"]
                if in_func and funcs:
                    choices.append("call")
            kind = self.draw(st.sampled_from(choices))
            if kind == "arith":
                self.arith_op(block, visible)
            elif kind == "call":
                self.call(block, visible, funcs)
            elif kind == "cast":
                self.cast(block, visible)
            else:
                self.unregistered_op(block, visible, depth, funcs, successor_pool=[],
                                     in_func=in_func)

    def region(self, outer_visible: list, depth: int, funcs, in_func: bool) -> Region:
        """A region of an unregistered op: any number of blocks (none, one empty...)."""
        draw = self.draw
        blocks = [self.block(draw(st.lists(module_types, max_size=2)))
                  for _ in range(draw(st.integers(0, 3)))]
        region = Region(blocks)
        for b in blocks:
            # Only values of enclosing blocks and of this block dominate here.
            visible = list(outer_visible) + list(b.args)
            self.ops(b, visible, depth, funcs, in_func)
            if len(blocks) > 1 and draw(st.booleans()):
                self.unregistered_op(b, visible, depth, funcs, successor_pool=blocks[1:],
                                     in_func=in_func)
        return region

    def unregistered_op(self, block: Block, visible: list, depth: int, funcs,
                        successor_pool: list, in_func: bool = False) -> Operation:
        draw = self.draw
        name = draw(st.one_of(st.builds("test.op_{}".format, st.integers(0, 3)),
                              st.builds("unk.op_{}".format, st.integers(0, 3)),
                              st.sampled_from(["test.op", "test.a-b", "test.x$y.z", "test", "unk",
                                               "test.\u00e9", "test.a b", 'test.q"t', "test.b\\s"])))
        operands = draw(st.lists(st.sampled_from(visible), max_size=3)) if visible else []
        result_types = draw(st.lists(module_types, max_size=3))
        attrs = draw(module_attr_dicts)
        regions = []
        if depth < self.max_depth:
            for _ in range(draw(st.integers(0, 2))):
                region = self.region(visible, depth + 1, funcs, in_func)
                regions.append(region)
        successors = draw(st.lists(st.sampled_from(successor_pool), min_size=1, max_size=2)) \
            if successor_pool else []
        op = Operation(name, operands, result_types, attrs, regions, successors)
        return self.add(block, visible, op)

    # ------------------------------------------------------------ registered ops

    def arith_op(self, block: Block, visible: list) -> None:
        draw = self.draw
        kind = draw(st.sampled_from(["constant", "float", "int", "negf", "cmpi", "cmpf",
                                     "select", "extended"]))
        if kind == "constant":
            type_ = draw(st.one_of(arith_int_like, arith_float_like))
            attr = self.constant_for(type_)
            if attr is not None:
                self.add(block, visible, arith.ConstantOp.build(value=attr))
            return
        if kind in ("float", "negf", "cmpf"):
            type_ = draw(arith_float_like)
        else:
            type_ = draw(arith_int_like)
        lhs = self.value_of_type(block, visible, type_)
        rhs = self.value_of_type(block, visible, type_)
        if kind == "float":
            cls = draw(st.sampled_from(FLOAT_BINARY))
            op = cls.build(lhs, rhs, fastmath=draw(fastmath_attrs))
        elif kind == "negf":
            op = arith.NegFOp.build(lhs, fastmath=draw(fastmath_attrs))
        elif kind == "int":
            cls = draw(st.sampled_from(INT_BINARY + INT_OVERFLOW_BINARY + INT_EXACT_BINARY))
            if cls in INT_OVERFLOW_BINARY:
                op = cls.build(lhs, rhs, overflowFlags=draw(overflow_attrs))
            elif cls in INT_EXACT_BINARY:
                op = cls.build(lhs, rhs, isExact=unit if draw(st.booleans()) else None)
            else:
                op = cls.build(lhs, rhs)
        elif kind == "extended":
            cls = draw(st.sampled_from(INT_EXTENDED))
            second = _with_element(type_, i1) if cls is arith.AddUIExtendedOp else type_
            op = cls.build(lhs, rhs, result_types=[type_, second])
        elif kind == "cmpi":
            predicate = draw(st.sampled_from(arith.CmpIPredicate.cases))
            op = arith.CmpIOp.build(lhs, rhs, predicate=arith.CmpIPredicate.attr(predicate))
        elif kind == "cmpf":
            predicate = draw(st.sampled_from(arith.CmpFPredicate.cases))
            op = arith.CmpFOp.build(lhs, rhs, predicate=arith.CmpFPredicate.attr(predicate),
                                    fastmath=draw(fastmath_attrs))
        else:  # select, between values of any type
            value_type = draw(st.one_of(module_types, st.just(type_)))
            cond_type = i1 if not isinstance(value_type, VectorType | RankedTensorType) \
                or draw(st.booleans()) else _with_element(value_type, i1)
            cond = self.value_of_type(block, visible, cond_type)
            a = self.value_of_type(block, visible, value_type)
            b = self.value_of_type(block, visible, value_type)
            op = arith.SelectOp.build(cond, a, b)
        self.add(block, visible, op)

    def cast(self, block: Block, visible: list) -> None:
        draw = self.draw
        kind = draw(st.sampled_from(["extf", "truncf", "ext", "trunci", "index_cast", "itofp",
                                     "fptoi", "bitcast", "unrealized"]))
        shape = draw(st.sampled_from(["scalar", "vector", "tensor"]))
        shp = tuple(draw(st.lists(vector_dims, min_size=1, max_size=2)))

        def shaped(element):
            if shape == "vector":
                return VectorType(shp, element)
            if shape == "tensor":
                return RankedTensorType(shp, element)
            return element

        widths = [1, 8, 16, 32, 64]
        if kind == "unrealized":
            inputs = [self.value_of_type(block, visible, t)
                      for t in draw(st.lists(module_types, max_size=2))]
            op = UnrealizedConversionCastOp.build(
                inputs, result_types=draw(st.lists(module_types, min_size=1, max_size=2)))
            self.add(block, visible, op)
            return
        attrs = {}
        if kind in ("extf", "truncf"):
            pairs = [(a, b) for a in FLOAT_TYPES for b in FLOAT_TYPES if a.width < b.width]
            small, big = draw(st.sampled_from(pairs))
            src, dst = (small, big) if kind == "extf" else (big, small)
            cls = arith_casts.ExtFOp if kind == "extf" else arith_casts.TruncFOp
            if draw(st.booleans()):
                attrs["fastmath"] = draw(fastmath_attrs)
            if kind == "truncf" and draw(st.booleans()):
                mode = draw(st.sampled_from(arith.RoundingMode.cases))
                attrs["roundingmode"] = arith.RoundingMode.attr(mode)
        elif kind in ("ext", "trunci"):
            a, b = sorted(draw(st.lists(st.sampled_from(widths), min_size=2, max_size=2,
                                        unique=True)))
            small, big = IntegerType(a), IntegerType(b)
            if kind == "ext":
                src, dst = small, big
                cls = draw(st.sampled_from([arith_casts.ExtSIOp, arith_casts.ExtUIOp]))
            else:
                src, dst, cls = big, small, arith_casts.TruncIOp
        elif kind == "index_cast":
            other = IntegerType(draw(st.sampled_from(widths)))
            src, dst = draw(st.sampled_from([(index, other), (other, index)]))
            cls = draw(st.sampled_from([arith_casts.IndexCastOp, arith_casts.IndexCastUIOp]))
        elif kind == "itofp":
            src, dst = IntegerType(draw(st.sampled_from(widths))), draw(float_types)
            cls = draw(st.sampled_from([arith_casts.SIToFPOp, arith_casts.UIToFPOp]))
        elif kind == "bitcast":
            same_width = [(a, b) for a in (*FLOAT_TYPES, *map(IntegerType, widths))
                          for b in (*FLOAT_TYPES, *map(IntegerType, widths))
                          if a.width == b.width]
            src, dst = draw(st.sampled_from(same_width))
            cls = arith_casts.BitcastOp
        else:
            src, dst = draw(float_types), IntegerType(draw(st.sampled_from(widths)))
            cls = draw(st.sampled_from([arith_casts.FPToSIOp, arith_casts.FPToUIOp]))
        value = self.value_of_type(block, visible, shaped(src))
        self.add(block, visible, cls.build(value, result_types=[shaped(dst)], **attrs))

    def call(self, block: Block, visible: list, funcs) -> None:
        name, fn_type = self.draw(st.sampled_from(funcs))
        args = [self.value_of_type(block, visible, t) for t in fn_type.inputs]
        op = CallOp.build(args, callee=SymbolRefAttr(name), result_types=list(fn_type.results))
        self.add(block, visible, op)


@st.composite
def modules(draw, *, registered: bool = True, locs: bool = False, max_depth: int = 2,
            max_ops: int = 2, hints: bool = True, graph_uses: bool = True):
    """A random well-formed `builtin.module`."""
    gen = ModuleGen(draw, registered=registered, locs=locs, max_depth=max_depth,
                    max_ops=max_ops, hints=hints, graph_uses=graph_uses)
    return gen.module()


def float_value(bits: int, type_: FloatType) -> float:
    """The value of a bit pattern (bf16 widened), for messages."""
    if type_.name == "bf16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    return struct.unpack({"f16": "<e", "f32": "<f", "f64": "<d"}[type_.name],
                         bits.to_bytes(_FLOAT_WIDTH[type_.name] // 8, "little"))[0]
