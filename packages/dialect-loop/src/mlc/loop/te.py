"""Tensor expressions: define a computation as TVM's TE does, get a `loop` kernel.

    from mlc.loop import te

    A = te.placeholder((128, 128), "float32", name="A")
    B = te.placeholder((128, 128), "float32", name="B")
    k = te.reduce_axis(128, name="k")
    Y = te.compute((128, 128), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
    C = te.compute((128, 128), lambda i, j: te.maximum(Y[i, j], 0.0), name="C")
    kernel = te.create_prim_func([A, B, C], name="mm_relu")   # a func.func

`compute` calls its function with one spatial axis per output dimension (named after
the function's parameters) and records the expression it returns; nothing is
evaluated. Indices are affine expressions of axes (`X[i * 2 + r]`) and of integer
values read from tensors (`X[I[i]]`, a gather: a data-dependent index, which becomes an
`arith.index_cast` operand of the `loop.load`; the rule keeps it in bounds, or the
interpreter reports the access). A reduction
(`sum`, `prod`, `max`, `min` over reduce axes) must be the whole expression, as in TVM;
`max` and `min` of two values are the elementwise `maximum` and `minimum`. TVM's other
spellings work too: `reduce_axis((lo, hi))`, and `A(i, j)` for `A[i, j]`.
`create_prim_func` turns the tensors reachable from its arguments into one kernel in
destination-passing style: the listed tensors are the function's memref arguments
(inputs and outputs alike), every other computed tensor becomes a `loop.alloc_buffer`,
and each computed tensor becomes a loop nest (spatial loops, then reduce loops) around
one `loop.block` named after the tensor, with an init for reductions.

Unsigned integer tensors (`ui8` ... `ui64`) are stored in buffers of the signless type
of their width (`storage_type`: arith computes on signless integers, as MLIR's); their
expressions keep the unsigned type, and lowering picks the unsigned arith op from it:
`cmpi ult/ule/ugt/uge`, `divui`, `remui`, `maxui`/`minui`, `shrui`, `uitofp`,
`fptoui`, `extui`.
"""

from __future__ import annotations

import inspect
import itertools
import math
from collections.abc import Callable, Sequence

from mlc.ir.core.affine_bounds import simplify_in_ranges
from mlc.ir.core.affine_expr import AffineExpr, constant, dim
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr
from mlc.ir.core.attributes import (
    FloatAttr,
    FloatType,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Type,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from mlc.ir.core.ir import Block, Region, Value
from mlc.ir.dialects import arith as A
from mlc.ir.dialects import math as M
from mlc.ir.dialects.arith import CmpFPredicate, CmpIPredicate, FastMath, FastMathFlags
from mlc.ir.dialects.arith import casts as C
from mlc.ir.dialects.func import FuncOp, ReturnOp
from mlc.ir.opdef.declare import Op
from mlc.loop.ops import AllocBufferOp, BlockOp, CheckIndexOp, ForOp, InitOp, LoadOp, StoreOp

__all__ = [
    "Axis", "Expr", "IndexExpr", "Tensor", "TEError", "Var", "var",
    "placeholder", "compute", "reduce_axis", "sum", "prod", "max", "min", "maximum",
    "minimum", "exp", "log", "tanh", "sqrt", "rsqrt", "erf", "abs", "floor", "ceil", "sin",
    "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
    "roundeven", "sigmoid", "power", "remainder", "bitwise_and", "bitwise_or", "bitwise_xor",
    "shift_left", "shift_right", "equal", "not_equal", "isnan", "if_then_else",
    "cast", "bitcast", "check_index", "checks_indices", "const", "pad", "inline",
    "compute_inline", "Interner", "stages", "reads", "reads_in", "reads_with_padding",
    "create_prim_func",
    "reduction_identity", "storage_type",
]

DTYPES: dict[str, Type] = {"float16": f16, "float32": f32, "float64": f64, "bool": i1,
                           "int8": i8, "int16": i16, "int32": i32, "int64": i64}


_CONTRACT = FastMathFlags(FastMath.contract)

# The op each TE function is emitted as.
_BITWISE_OPS = {"bitwise_and": A.AndIOp, "bitwise_or": A.OrIOp, "bitwise_xor": A.XOrIOp,
                "shift_left": A.ShLIOp, "shift_right": A.ShRSIOp}
_FLOAT_BINARY_OPS = {"add": A.AddFOp, "sub": A.SubFOp, "mul": A.MulFOp, "div": A.DivFOp,
                     "rem": A.RemFOp, "maximum": A.MaximumFOp, "minimum": A.MinimumFOp}
_INT_BINARY_OPS = {"add": A.AddIOp, "sub": A.SubIOp, "mul": A.MulIOp, "div": A.DivSIOp,
                   "rem": A.RemSIOp, "maximum": A.MaxSIOp, "minimum": A.MinSIOp}
# Unsigned integer tensors are stored signless; these read them as unsigned.
_UNSIGNED_BINARY_OPS = {**_INT_BINARY_OPS, "div": A.DivUIOp, "rem": A.RemUIOp,
                        "maximum": A.MaxUIOp, "minimum": A.MinUIOp}
_MATH_OPS = {
    "exp": M.ExpOp, "log": M.LogOp, "tanh": M.TanhOp, "sqrt": M.SqrtOp, "rsqrt": M.RsqrtOp,
    "erf": M.ErfOp, "absf": M.AbsFOp, "floor": M.FloorOp, "ceil": M.CeilOp, "sin": M.SinOp,
    "cos": M.CosOp, "tan": M.TanOp, "asin": M.AsinOp, "acos": M.AcosOp, "atan": M.AtanOp,
    "sinh": M.SinhOp, "cosh": M.CoshOp, "asinh": M.AsinhOp, "acosh": M.AcoshOp,
    "atanh": M.AtanhOp, "roundeven": M.RoundEvenOp, "powf": M.PowFOp, "ipowi": M.IPowIOp,
}


def storage_type(dtype: Type) -> Type:
    """The type arith computes `dtype` values in: the signless integer of an unsigned
    one's width (the same bits); any other type itself."""
    if isinstance(dtype, IntegerType) and dtype.signedness == "unsigned":
        return IntegerType(dtype.width)
    return dtype


def _is_unsigned(dtype: Type) -> bool:
    return isinstance(dtype, IntegerType) and dtype.signedness == "unsigned"


class TEError(ValueError):
    """A tensor expression that cannot be built or lowered (says why)."""


def _dtype(dtype: str | Type) -> Type:
    if isinstance(dtype, Type):
        return dtype
    if dtype not in DTYPES:
        raise TEError(f"unknown dtype '{dtype}' (known: {', '.join(DTYPES)})")
    return DTYPES[dtype]


# ------------------------------------------------------------------ index expressions

_axis_ids = itertools.count()


class IndexExpr:
    """An affine expression of axes, and of data-dependent indices: what tensors are
    indexed by. `values` maps each dimension of `affine` that is not an axis to the
    integer expression whose value it stands for (`X[j + I[i]]`)."""

    __slots__ = ("affine", "values")

    def __init__(self, affine: AffineExpr, values: dict[int, Expr] | None = None):
        self.affine = affine
        self.values = values or {}

    @staticmethod
    def of(value: IndexExpr | Expr | int) -> IndexExpr:
        if isinstance(value, IndexExpr):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return IndexExpr(constant(value))
        if isinstance(value, Expr):
            return _data_index(value)
        raise TEError(f"an index must be an affine expression of axes or an integer value, "
                      f"not {value!r}")

    def _with(self, affine: AffineExpr, other: IndexExpr | None = None) -> IndexExpr:
        values = self.values if other is None or not other.values else \
            {**self.values, **other.values}
        return IndexExpr(affine, values)

    def __add__(self, other):
        other = IndexExpr.of(other)
        return self._with(self.affine + other.affine, other)

    def __radd__(self, other):
        other = IndexExpr.of(other)
        return self._with(other.affine + self.affine, other)

    def __sub__(self, other):
        other = IndexExpr.of(other)
        return self._with(self.affine - other.affine, other)

    def __rsub__(self, other):
        other = IndexExpr.of(other)
        return self._with(other.affine - self.affine, other)

    def __neg__(self): return self._with(constant(-1) * self.affine)

    def __mul__(self, other):
        if not isinstance(other, int):
            raise TEError("indices multiply only by integer constants (they stay affine)")
        return self._with(self.affine * other)

    __rmul__ = __mul__

    def __floordiv__(self, other):
        return self._with(self.affine.floordiv(_int_constant(other)))

    def __mod__(self, other):
        return self._with(self.affine.mod(_int_constant(other)))


def _data_index(value: Expr) -> IndexExpr:
    """An index standing for an integer value computed from tensor elements: a
    dimension of its own, bound to `value`."""
    if not isinstance(value.dtype, IntegerType) or value.dtype.width == 1:
        raise TEError(f"a data-dependent index must be an integer value, not {value.dtype}")
    if isinstance(value, Reduce):
        raise TEError("a reduction must be the whole expression of a compute, not an index")
    uid = next(_axis_ids)
    return IndexExpr(dim(uid), {uid: value})


def _int_constant(value) -> int:
    if not isinstance(value, int) or value <= 0:
        raise TEError("indices divide only by positive integer constants")
    return value


class Axis(IndexExpr):
    """An iteration axis: spatial (one per output dimension) or reduce."""

    __slots__ = ("name", "extent", "kind", "uid")

    def __init__(self, name: str, extent: int, kind: str):
        uid = next(_axis_ids)
        super().__init__(dim(uid))
        self.name, self.extent, self.kind, self.uid = name, extent, kind, uid

    def __repr__(self) -> str:
        return f"Axis({self.name}, {self.extent}, {'reduce' if self.kind == 'R' else 'spatial'})"


def reduce_axis(extent: int | tuple[int, int], name: str = "k") -> Axis:
    """A reduction axis over `range(extent)`, or, spelled as TVM does with a domain
    `(lo, hi)`, over `range(lo, hi)` (an axis starting at `lo`: its loop still counts
    from 0, and every use of the axis adds `lo`)."""
    if isinstance(extent, (tuple, list)):
        if len(extent) != 2 or any(not _is_int(bound) for bound in extent) \
                or extent[1] <= extent[0]:
            raise TEError(f"a reduce axis domain is (lo, hi) with integers lo < hi, got "
                          f"{tuple(extent)!r}")
        lo, hi = extent
        axis = Axis(name, hi - lo, "R")
        if lo:
            axis.affine = axis.affine + lo
        return axis
    if not _is_int(extent) or extent <= 0:
        raise TEError(f"a reduce axis needs a positive extent or a domain (lo, hi), got "
                      f"{extent!r}")
    return Axis(name, extent, "R")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ------------------------------------------------------------------ value expressions


class Expr:
    """A scalar value computed from tensor elements (built with Python's operators and
    the functions of this module)."""

    __slots__ = ("dtype",)

    def __init__(self, dtype: Type):
        self.dtype = dtype

    def __add__(self, other): return _binary("add", self, other)
    def __radd__(self, other): return _binary("add", other, self)
    def __sub__(self, other): return _binary("sub", self, other)
    def __rsub__(self, other): return _binary("sub", other, self)
    def __mul__(self, other): return _binary("mul", self, other)
    def __rmul__(self, other): return _binary("mul", other, self)
    def __truediv__(self, other): return _binary("div", self, other)
    def __rtruediv__(self, other): return _binary("div", other, self)
    def __neg__(self): return Call("neg", (self,), self.dtype)
    def __lt__(self, other): return _compare("lt", self, other)
    def __le__(self, other): return _compare("le", self, other)
    def __gt__(self, other): return _compare("gt", self, other)
    def __ge__(self, other): return _compare("ge", self, other)


class Const(Expr):
    __slots__ = ("value",)

    def __init__(self, value: float | int, dtype: Type):
        super().__init__(dtype)
        self.value = value


class Read(Expr):
    """An element of a tensor; with `padding`, indices outside the tensor read that
    value (see :func:`pad`)."""

    __slots__ = ("tensor", "indices", "padding")

    def __init__(self, tensor: Tensor, indices: tuple[IndexExpr, ...],
                 padding: float | int | None = None):
        super().__init__(tensor.dtype)
        self.tensor, self.indices, self.padding = tensor, indices, padding


class IndexValue(Expr):
    """An index expression used as a value (cast to `dtype`)."""

    __slots__ = ("index",)

    def __init__(self, index: IndexExpr, dtype: Type):
        super().__init__(dtype)
        self.index = index


class Call(Expr):
    """An elementwise operation: `add`, `maximum`, `exp`, `select`, `cast`, `cmp.lt`...;
    `params` are constants it takes besides its arguments (`check_index`'s bound and
    target)."""

    __slots__ = ("func", "args", "params")

    def __init__(self, func: str, args: tuple[Expr, ...], dtype: Type, params: tuple = ()):
        super().__init__(dtype)
        self.func, self.args, self.params = func, args, params


class Reduce(Expr):
    """A reduction over reduce axes, starting from `identity` (None: the combiner's
    usual one, see `reduction_identity`)."""

    __slots__ = ("combiner", "value", "axes", "identity")

    def __init__(self, combiner: str, value: Expr, axes: tuple[Axis, ...],
                 identity: float | int | None = None):
        super().__init__(value.dtype)
        self.combiner, self.value, self.axes, self.identity = combiner, value, axes, identity


def const(value: float | int, dtype: str | Type = "float32") -> Expr:
    """A constant of `dtype`."""
    return Const(value, _dtype(dtype))


def _as_expr(value, like: Expr | None) -> Expr:
    if isinstance(value, Expr):
        return value
    if isinstance(value, IndexExpr):
        return IndexValue(value, like.dtype if like is not None else i64)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        dtype = like.dtype if like is not None else (f32 if isinstance(value, float) else i32)
        if isinstance(value, float) and not isinstance(dtype, FloatType):
            raise TEError(f"operands of different types: {dtype} and the float {value} "
                          "(use te.cast)")
        return Const(value, dtype)
    raise TEError(f"not a tensor expression: {value!r}")


def _pair(a, b) -> tuple[Expr, Expr]:
    x = _as_expr(a, b if isinstance(b, Expr) else None)
    y = _as_expr(b, x)
    if x.dtype != y.dtype:
        raise TEError(f"operands of different types: {x.dtype} and {y.dtype} (use te.cast)")
    return x, y


def _binary(func: str, a, b) -> Expr:
    x, y = _pair(a, b)
    return Call(func, (x, y), x.dtype)


def _compare(predicate: str, a, b) -> Expr:
    x, y = _pair(a, b)
    return Call("cmp." + predicate, (x, y), i1)


def equal(a, b) -> Expr:
    """Whether two values are equal, elementwise (false when either is NaN)."""
    return _compare("eq", a, b)


def isnan(x) -> Expr:
    """Whether a value is NaN, elementwise (never, for integers)."""
    value = _as_expr(x, None)
    return Call("isnan", (value,), i1)


def maximum(a, b) -> Expr:
    """The larger of two values, elementwise (NaN-propagating for floats)."""
    return _binary("maximum", a, b)


def minimum(a, b) -> Expr:
    """The smaller of two values, elementwise (NaN-propagating for floats)."""
    return _binary("minimum", a, b)


def _unary(func: str) -> Callable[[Expr], Expr]:
    def apply(x) -> Expr:
        value = _as_expr(x, None)
        if not isinstance(value.dtype, FloatType):
            raise TEError(f"{func} takes a floating-point value, not {value.dtype}")
        return Call(func, (value,), value.dtype)

    apply.__name__ = func
    apply.__doc__ = f"`math.{func}` of a floating-point value, elementwise."
    return apply


exp = _unary("exp")
log = _unary("log")
tanh = _unary("tanh")
sqrt = _unary("sqrt")
rsqrt = _unary("rsqrt")
erf = _unary("erf")
abs = _unary("absf")  # noqa: A001 - TE's name
floor = _unary("floor")
ceil = _unary("ceil")
sin = _unary("sin")
cos = _unary("cos")
tan = _unary("tan")
asin = _unary("asin")
acos = _unary("acos")
atan = _unary("atan")
sinh = _unary("sinh")
cosh = _unary("cosh")
asinh = _unary("asinh")
acosh = _unary("acosh")
atanh = _unary("atanh")
roundeven = _unary("roundeven")


def power(base, exponent) -> Expr:
    """`base` to the power `exponent`, elementwise: C's pow for floats (`math.powf`);
    for integers `math.ipowi` (wrapping; a negative exponent gives 1/base^|exponent|
    truncated toward zero, and zero to it is undefined)."""
    x, y = _pair(base, exponent)
    if not isinstance(x.dtype, (FloatType, IntegerType)) or x.dtype == i1:
        raise TEError(f"power takes floating-point or integer values, not {x.dtype}")
    return Call("powf" if isinstance(x.dtype, FloatType) else "ipowi", (x, y), x.dtype)


def _integer_binary(func: str, doc: str) -> Callable[[object, object], Expr]:
    def apply(a, b) -> Expr:
        x, y = _pair(a, b)
        if not isinstance(x.dtype, IntegerType):
            raise TEError(f"{func} takes integer values, not {x.dtype}")
        return Call(func, (x, y), x.dtype)

    apply.__name__ = func
    apply.__doc__ = doc
    return apply


bitwise_and = _integer_binary("bitwise_and", "a & b on the integers' bits, elementwise.")
bitwise_or = _integer_binary("bitwise_or", "a | b on the integers' bits, elementwise.")
bitwise_xor = _integer_binary("bitwise_xor", "a ^ b on the integers' bits, elementwise.")
shift_left = _integer_binary(
    "shift_left", "a << b, elementwise (`arith.shli`): a shift by the bit width or more, or "
    "by a negative amount, is poison, so a rule must keep b in range.")
shift_right = _integer_binary(
    "shift_right", "a >> b, arithmetic (sign-filling) for signless integers, logical for "
    "unsigned ones, elementwise (`arith.shrsi`, `arith.shrui`): b must lie in [0, bit "
    "width), as for `shift_left`.")


def remainder(a, b) -> Expr:
    """a - b·trunc(a/b), elementwise: the remainder with the sign of `a` (C's fmod for
    floats, `arith.remsi` for integers)."""
    return _binary("rem", a, b)


def not_equal(a, b) -> Expr:
    """a != b, elementwise (true when either is NaN: the negation of `equal`)."""
    return _compare("ne", a, b)


def sigmoid(x) -> Expr:
    """1 / (1 + exp(-x))."""
    value = _as_expr(x, None)
    return 1.0 / (1.0 + exp(-value))


def if_then_else(condition: Expr, then_value, else_value) -> Expr:
    """`then_value` where `condition` holds, else `else_value`."""
    if not isinstance(condition, Expr) or condition.dtype != i1:
        raise TEError("if_then_else needs a boolean condition (a comparison)")
    x, y = _pair(then_value, else_value)
    return Call("select", (condition, x, y), x.dtype)


def cast(value, dtype: str | Type) -> Expr:
    """`value` converted to `dtype` (indices too)."""
    target = _dtype(dtype)
    if isinstance(value, IndexExpr):
        return IndexValue(value, target)
    source = _as_expr(value, None)
    return source if source.dtype == target else Call("cast", (source,), target)


def check_index(value, tensor: Tensor, axis: int) -> Expr:
    """`value`, an integer read from data, checked as an index along `axis` of
    `tensor`: an index outside [0, extent) is reported as an access there would be
    (`loop.check_index`; the result is then 0). For a rule that matches positions
    instead of loading at them (a scatter), so that a bad index is not silently
    ignored."""
    index = _as_expr(value, None)
    if not isinstance(index.dtype, IntegerType) or index.dtype.width == 1:
        raise TEError(f"check_index needs an integer value, not {index.dtype}")
    if not 0 <= axis < len(tensor.shape):
        raise TEError(f"{tensor.name} has no axis {axis}")
    target = f"index {axis} of %{tensor.name} : {MemRefType(tensor.shape, tensor.dtype)}"
    return Call("check_index", (index,), index.dtype, (tensor.shape[axis], target))


def checks_indices(tensor: Tensor) -> bool:
    """Whether computing `tensor` checks an index (see `check_index`)."""
    stack, seen = [tensor.body], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Call) and node.func == "check_index":
            return True
        stack.extend(_children(node))
    return False


def bitcast(value, dtype: str | Type) -> Expr:
    """`value`'s bits read as `dtype`, a type of the same width (arith.bitcast)."""
    target = _dtype(dtype)
    source = _as_expr(value, None)
    return source if source.dtype == target else Call("bitcast", (source,), target)


def _reduction(combiner: str):
    def reduce(expr, axis: Axis | Sequence[Axis], identity: float | int | None = None) -> Expr:
        axes = (axis,) if isinstance(axis, Axis) else tuple(axis)
        if not axes or any(not isinstance(a, Axis) or a.kind != "R" for a in axes):
            raise TEError(f"te.{combiner} reduces over reduce axes (te.reduce_axis)")
        return Reduce(combiner, _as_expr(expr, None), axes, identity)

    reduce.__name__ = combiner
    reduce.__doc__ = (f"The {combiner} of `expr` over the reduce axes `axis`, starting from "
                      "`identity` (by default the usual one; a float sum may want -0.0, "
                      "the identity that keeps a sum of -0.0s negative).")
    return reduce


def _is_reduce_axes(value) -> bool:
    if isinstance(value, Axis):
        return value.kind == "R"
    return isinstance(value, (list, tuple))


def _reduction_or_elementwise(combiner: str, elementwise: Callable[[object, object], Expr]):
    """TVM's `te.max`/`te.min`: a reduction over reduce axes (`te.max(x, axis=k)`, or
    positionally `te.max(x, k)`), and on two values the elementwise operation
    (`te.max(Y[i, j], 0)`)."""
    reduction = _reduction(combiner)

    def apply(expr, other=None, identity: float | int | None = None, *,
              axis: Axis | Sequence[Axis] | None = None) -> Expr:
        if axis is not None:
            if other is not None:
                raise TEError(f"te.{combiner} takes reduce axes or a second value, not both")
            return reduction(expr, axis, identity)
        if other is None:
            raise TEError(f"te.{combiner} needs reduce axes (axis=...) or a second value")
        if _is_reduce_axes(other):
            return reduction(expr, other, identity)
        if identity is not None:
            raise TEError(f"te.{combiner} of two values takes no identity")
        return elementwise(expr, other)

    apply.__name__ = combiner
    apply.__doc__ = (f"The {combiner} of `expr` over the reduce axes `axis` (starting from "
                     "`identity`, by default the usual one); or, when the second argument "
                     f"is a value rather than reduce axes, the elementwise {combiner}imum "
                     f"of the two values (as te.{combiner}imum).")
    return apply


sum = _reduction("sum")  # noqa: A001 - TE's name
prod = _reduction("prod")  # TOPI's name
max = _reduction_or_elementwise("max", maximum)  # noqa: A001
min = _reduction_or_elementwise("min", minimum)  # noqa: A001


# ------------------------------------------------------------------ tensors


class Tensor:
    """A placeholder (an input) or a computed tensor; indexing it reads an element."""

    __slots__ = ("name", "shape", "dtype", "axes", "body")

    def __init__(self, name: str, shape: tuple[int, ...], dtype: Type,
                 axes: tuple[Axis, ...] = (), body: Expr | None = None):
        self.name, self.shape, self.dtype, self.axes, self.body = name, shape, dtype, axes, body

    @property
    def is_placeholder(self) -> bool:
        return self.body is None

    def __getitem__(self, indices) -> Expr:
        if not isinstance(indices, tuple):
            indices = (indices,)
        if len(indices) != len(self.shape):
            raise TEError(f"{self.name} has {len(self.shape)} dimensions, indexed with "
                          f"{len(indices)}")
        return Read(self, tuple(IndexExpr.of(i) for i in indices))

    def __call__(self, *indices) -> Expr:
        """`A(i, j)` is `A[i, j]` (TVM's spelling)."""
        return self[indices]

    def __repr__(self) -> str:
        return f"Tensor({self.name}, {self.shape}, {self.dtype})"


class Var:
    """TVM's `te.var`: a named size. mlc's tensors have static shapes, so a shape may
    not hold one (a TEError says so and names it); bind the size in Python instead."""

    def __init__(self, name: str = "v", dtype: str = "int32"):
        self.name, self.dtype = name, dtype

    def __repr__(self) -> str:
        return f"te.var({self.name!r})"


def var(name: str = "v", dtype: str = "int32") -> Var:
    """A named size (TVM's `te.var`); see :class:`Var`."""
    return Var(name, dtype)


def _shape(shape) -> tuple[int, ...]:
    shape = (shape,) if isinstance(shape, (int, Var)) else tuple(shape)
    symbolic = [d for d in shape if isinstance(d, Var)]
    if symbolic:
        raise TEError(f"the shape {tuple(d.name if isinstance(d, Var) else d for d in shape)} "
                      f"holds the symbolic size {symbolic[0].name!r} (te.var): mlc's tensors "
                      f"have static shapes; give {symbolic[0].name} as an int (a Python "
                      "variable) and build a function per size")
    if any(not isinstance(d, int) or d <= 0 for d in shape):
        raise TEError(f"shapes are positive integers, got {shape}")
    return shape


def placeholder(shape: Sequence[int] | int, dtype: str | Type = "float32",
                name: str = "placeholder") -> Tensor:
    """An input tensor."""
    element = _dtype(dtype)
    if isinstance(element, IntegerType) and element.signedness == "signed":
        # Signless integers compute as signed ones; an explicitly signed type would
        # need its own storage rule, and no frontend makes one.
        raise TEError(f"{name} has {element} elements: tensor expressions compute on "
                      "signless and unsigned integers only")
    return Tensor(name, _shape(shape), element)


def compute(shape: Sequence[int] | int, fcompute: Callable[..., object],
            name: str = "compute") -> Tensor:
    """The tensor whose element at each index is `fcompute(*index)`."""
    shape = _shape(shape)
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    parameters = [p.name for p in inspect.signature(fcompute).parameters.values()
                  if p.kind in positional]
    names = parameters if len(parameters) == len(shape) else \
        [f"i{n}" for n in range(len(shape))]
    axes = tuple(Axis(n, extent, "S") for n, extent in zip(names, shape))
    body = _as_expr(fcompute(*axes), None)
    _check_no_nested_reduction(body, top=True)
    return Tensor(name, shape, body.dtype, axes, body)


def pad(tensor: Tensor, before: Sequence[int], after: Sequence[int] | None = None,
        value: float | int = 0.0, name: str | None = None) -> Tensor:
    """`tensor` with `before[d]` elements of `value` in front of dimension `d` and
    `after[d]` behind it (TOPI's `nn.pad`); reads outside `tensor` give `value`."""
    after = before if after is None else after
    if len(before) != len(tensor.shape) or len(after) != len(tensor.shape) or \
            any(not isinstance(n, int) or n < 0 for n in (*before, *after)):
        raise TEError(f"pad needs one non-negative amount per dimension of {tensor.name} "
                      "before and after")
    shape = tuple(d + b + a for d, b, a in zip(tensor.shape, before, after))

    def padded(*index):
        return Read(tensor, tuple(i - b for i, b in zip(index, before)), value)

    return compute(shape, padded, name=name or f"{tensor.name}_pad")


def _children(node: Expr) -> list[Expr]:
    """The expressions `node` is computed from: a call's arguments, a reduction's
    value, the data-dependent indices of a read or an index value."""
    if isinstance(node, Call):
        return list(node.args)
    if isinstance(node, Reduce):
        return [node.value]
    if isinstance(node, Read):
        return [v for index in node.indices for v in index.values.values()]
    if isinstance(node, IndexValue):
        return list(node.index.values.values())
    return []


def _check_no_nested_reduction(expr: Expr, top: bool) -> None:
    stack = [(expr, top)]
    seen: set[int] = set()
    while stack:
        node, at_top = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Reduce) and not at_top:
            raise TEError("a reduction must be the whole expression of a compute")
        stack.extend((child, False) for child in _children(node))


# ------------------------------------------------------------------ inlining


# Dimension numbers no axis gets (axes are numbered from 0 up): an interned index's
# data-dependent dimensions, renamed.
_VALUE_DIMS = 1 << 40


class Interner:
    """Makes structurally equal expressions one object (hash-consing), across the
    inlinings of one kernel. Inlining producers first copies a stage's expression into
    each reader; when a reader also reads it through another inlined stage (a diamond),
    the copies are equal but distinct, and without this each level of diamonds would
    double the kernel."""

    def __init__(self) -> None:
        self._known: dict[tuple, Expr] = {}

    def __call__(self, node: Expr) -> Expr:
        """The one expression equal to `node`, whose operands must already be interned."""
        key = self._key(node)
        if key is None:
            return node
        return self._known.setdefault(key, node)

    @staticmethod
    def _index_key(index: IndexExpr) -> tuple:
        # Data-dependent dimensions get fresh numbers on each rewrite: name them by
        # their (interned) value instead.
        values = sorted(index.values.items(), key=lambda item: id(item[1]))
        renamed = {dim(uid): dim(_VALUE_DIMS + position) for position, (uid, _) in enumerate(values)}
        affine = index.affine.replace(renamed) if renamed else index.affine
        return affine, tuple(id(value) for _, value in values)

    def _key(self, node: Expr) -> tuple | None:
        if isinstance(node, Call):
            return ("call", node.func, node.dtype, tuple(id(a) for a in node.args), node.params)
        if isinstance(node, Read):
            return ("read", id(node.tensor), node.padding,
                    tuple(self._index_key(i) for i in node.indices))
        if isinstance(node, IndexValue):
            return ("index", node.dtype, self._index_key(node.index))
        if isinstance(node, Const):
            return ("const", node.dtype, type(node.value), repr(node.value))  # -0.0 is not 0.0
        return None


def inline(expr: Expr, stage: Tensor, interner: Interner | None = None) -> Expr:
    """`expr` with every read of `stage` replaced by `stage`'s own expression at the
    read's indices (its axes replaced by the read's index expressions, composed as
    affine expressions): what TVM's `compute_inline` does to the stage's readers.

    `stage` must be computed without a reduction, and no read of it may be padded
    (a padded read would need the stage's values outside its bounds). Shared
    subexpressions stay shared, and equal reads of `stage` become one expression, so
    the kernel computes each once per element; with one `interner` for every inlining
    into a kernel, equal expressions met along different paths become one too."""
    if stage.is_placeholder or isinstance(stage.body, Reduce):
        raise TEError(f"only a stage computed without a reduction can be inlined, not "
                      f"{stage.name}")
    intern = interner or Interner()
    rebound: dict[tuple, Expr] = {}  # (indices of the read) -> stage's expression there
    memo: dict[int, Expr] = {}

    def visit(node: Expr) -> Expr:
        known = memo.get(id(node))
        if known is not None:
            return known
        if isinstance(node, Read) and node.tensor is stage:
            if node.padding is not None:
                raise TEError(f"{stage.name} is read with padding, so it cannot be inlined")
            indices = tuple(_rewrite_index(i, visit) for i in node.indices)
            key = tuple(i.affine for i in indices)
            result = rebound.get(key)
            if result is None:
                mapping = {axis.affine: index for axis, index in zip(stage.axes, indices)}
                result = rebound[key] = _rebind(stage.body, mapping, intern)
        else:
            result = intern(_rebuilt(node, visit, lambda i: _rewrite_index(i, visit)))
        memo[id(node)] = result
        return result

    return visit(expr)


def _rebind(expr: Expr, mapping: dict[AffineExpr, IndexExpr], intern: Interner) -> Expr:
    """`expr` with its axes (dims of `mapping`) replaced by index expressions."""
    memo: dict[int, Expr] = {}

    def visit(node: Expr) -> Expr:
        known = memo.get(id(node))
        if known is not None:
            return known
        if isinstance(node, Reduce):
            raise TEError("a reduction must be the whole expression of a compute")
        result = intern(_rebuilt(node, visit, lambda i: _rewrite_index(i, visit, mapping)))
        memo[id(node)] = result
        return result

    return visit(expr)


def _rebuilt(node: Expr, visit: Callable[[Expr], Expr],
             index: Callable[[IndexExpr], IndexExpr]) -> Expr:
    """`node` with its operands rewritten by `visit` and its indices by `index`
    (`node` itself when nothing changes)."""
    if isinstance(node, Read):
        indices = tuple(index(i) for i in node.indices)
        same = all(a is b for a, b in zip(indices, node.indices))
        return node if same else Read(node.tensor, indices, node.padding)
    if isinstance(node, IndexValue):
        rewritten = index(node.index)
        return node if rewritten is node.index else IndexValue(rewritten, node.dtype)
    if isinstance(node, Call):
        args = tuple(visit(a) for a in node.args)
        same = all(a is b for a, b in zip(args, node.args))
        return node if same else Call(node.func, args, node.dtype, node.params)
    if isinstance(node, Reduce):
        value = visit(node.value)
        return node if value is node.value else \
            Reduce(node.combiner, value, node.axes, node.identity)
    return node


def _rewrite_index(index: IndexExpr, visit: Callable[[Expr], Expr],
                   mapping: dict[AffineExpr, IndexExpr] | None = None) -> IndexExpr:
    """`index` with its data-dependent values rewritten by `visit` (a changed value
    gets a dimension of its own) and the axes that are keys of `mapping` replaced by
    their index expressions; `index` itself when nothing changes."""
    replacements: dict[AffineExpr, AffineExpr] = {}
    values: dict[int, Expr] = {}
    for uid, value in index.values.items():
        new = visit(value)
        if new is value:
            values[uid] = value
        else:
            fresh = next(_axis_ids)
            replacements[dim(uid)] = dim(fresh)
            values[fresh] = new
    for expr in index.affine.walk():
        target = (mapping or {}).get(expr)
        if target is not None:
            replacements[expr] = target.affine
            values.update(target.values)
    if not replacements:
        return index
    affine = index.affine.replace(replacements)
    used = {e.position for e in affine.walk() if e.kind.name == "DIM"}
    return IndexExpr(affine, {uid: v for uid, v in values.items() if uid in used})


def compute_inline(stage: Tensor, readers: Sequence[Tensor],
                   interner: Interner | None = None) -> None:
    """Inline `stage` into each of `readers` (their expressions are rewritten in place,
    see :func:`inline`, which `interner` is passed to); afterwards they no longer read
    `stage`, and a kernel built from them has no block (and no buffer) for it."""
    for reader in readers:
        if reader.body is not None:
            reader.body = inline(reader.body, stage, interner)


# ------------------------------------------------------------------ lowering


def create_prim_func(arguments: Sequence[Tensor], name: str = "main") -> FuncOp:
    """The kernel computing every tensor reachable from `arguments` (see the module
    docstring); the arguments' order is the function's."""
    if not arguments:
        raise TEError("create_prim_func needs the kernel's tensors")
    buffer_types = [MemRefType(t.shape, storage_type(t.dtype)) for t in arguments]
    func = FuncOp.create_function(name, FunctionType(tuple(buffer_types), ()))
    entry = func.entry_block
    buffers: dict[Tensor, Value] = {}
    for tensor, arg in zip(arguments, entry.args):
        if tensor in buffers:
            raise TEError(f"tensor {tensor.name} is listed twice")
        buffers[tensor] = arg
        arg.name_hint = tensor.name
    stages = _topological_order(arguments)
    for tensor in stages:
        if tensor.is_placeholder and tensor not in buffers:
            raise TEError(f"placeholder {tensor.name} is used but not an argument of the "
                          "kernel")
        if not tensor.is_placeholder and tensor not in buffers:
            alloc = entry.append(AllocBufferOp.build(
                result_types=[MemRefType(tensor.shape, storage_type(tensor.dtype))]))
            alloc.results[0].name_hint = tensor.name
            buffers[tensor] = alloc.results[0]
    for tensor in stages:
        if not tensor.is_placeholder:
            _lower_stage(tensor, buffers, entry)
    entry.append(ReturnOp.build([]))
    return func


def _topological_order(roots: Sequence[Tensor]) -> list[Tensor]:
    order: list[Tensor] = []
    done: set[int] = set()
    for root in roots:
        stack = [(root, False)]
        while stack:
            tensor, expanded = stack.pop()
            if id(tensor) in done:
                continue
            if expanded:
                done.add(id(tensor))
                order.append(tensor)
                continue
            stack.append((tensor, True))
            stack.extend((t, False) for t in _reads_of(tensor))
    return order


def stages(outputs: Sequence[Tensor]) -> list[Tensor]:
    """Every tensor `outputs` are computed from, placeholders too, producers first."""
    return _topological_order(outputs)


def reads(tensor: Tensor, stage: Tensor, padded: bool = False) -> bool:
    """Whether `tensor`'s expression reads `stage` (with `padded`: with padding)."""
    return any(read.tensor is stage and (not padded or read.padding is not None)
               for read in reads_in(tensor))


def reads_with_padding(tensor: Tensor) -> bool:
    """Whether `tensor`'s expression reads anything with padding (a padding stage)."""
    return any(read.padding is not None for read in reads_in(tensor))


def reads_in(tensor: Tensor) -> list[Read]:
    """The reads in `tensor`'s expression, each shared subexpression visited once
    (inlining shares them: a tree walk could take exponential time)."""
    found: list[Read] = []
    seen: set[int] = set()
    stack = [tensor.body] if tensor.body is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Read):
            found.append(node)
        stack.extend(_children(node))
    return found


def _reads_of(tensor: Tensor) -> list[Tensor]:
    return [read.tensor for read in reads_in(tensor)]


def _lower_stage(tensor: Tensor, buffers: dict[Tensor, Value], entry: Block) -> None:
    body = tensor.body
    reduce_axes = body.axes if isinstance(body, Reduce) else ()
    axes = tensor.axes + reduce_axes
    container = entry
    loop_vars = []
    for axis in axes:
        loop_op = container.append(ForOp.create_loop(axis.extent))
        loop_op.induction_variable.name_hint = axis.name
        loop_vars.append(loop_op.induction_variable)
        container = loop_op.body_block
    block = container.append(BlockOp.create_block(
        tensor.name, "".join(a.kind for a in axes), [a.extent for a in axes], loop_vars,
        AffineMap.identity(len(axes))))
    for variable, axis in zip(block.iteration_variables, axes):
        variable.name_hint = "v" + axis.name
    positions = {axis.uid: n for n, axis in enumerate(axes)}
    extents = [a.extent for a in axes]
    emitter = _Emitter(block.body_block, block.iteration_variables, positions, buffers,
                       contract=_contracts(body), extents=extents)
    output = buffers[tensor]
    out_indices = [axis for axis in tensor.axes]
    if isinstance(body, Reduce):
        init = block.body_block.append(InitOp.create((), (), {}, [Region([Block()])]))
        init_emitter = _Emitter(init.regions[0].blocks[0], block.iteration_variables,
                                positions, buffers, extents=extents)
        identity = reduction_identity(body.combiner, body.dtype) if body.identity is None \
            else body.identity
        init_emitter.store(init_emitter.constant(identity,
                                                 body.dtype), output, out_indices)
        current = emitter.load(output, out_indices, body.dtype)
        step = emitter.value(body.value)
        emitter.store(emitter.combine(body.combiner, current, step, body.dtype), output,
                      out_indices)
    else:
        emitter.store(emitter.value(body), output, out_indices)


def _contracts(body: Expr) -> bool:
    """Whether the float adds, subtracts and multiplies computing `body` carry
    `fastmath<contract>`: they do in a float sum, which is one expression
    `acc + a * b + ...` (C's `-ffp-contract=on` rule: a product added within one
    expression may be one fused multiply-add, rounded once). Without the flag LLVM
    forms no FMA, and a matmul runs at half the speed the core can."""
    return isinstance(body, Reduce) and body.combiner == "sum" and \
        isinstance(body.dtype, FloatType)


def _scalar_attr(value: float | int, dtype: Type):
    """`value` as an attribute of the type arith computes `dtype` in (an unsigned value
    as the signless integer of the same bits)."""
    if isinstance(dtype, FloatType):
        return FloatAttr.from_value(float(value), dtype)
    if _is_unsigned(dtype):
        bits = int(value) % (1 << dtype.width)
        return IntegerAttr(bits - (1 << dtype.width) if bits >> (dtype.width - 1) else bits,
                           storage_type(dtype))
    return IntegerAttr(int(value), dtype)


def reduction_identity(combiner: str, dtype: Type) -> float | int:
    """What a `combiner` reduction of `dtype` values starts from (its identity)."""
    if isinstance(dtype, FloatType):
        return {"sum": 0.0, "prod": 1.0, "max": -math.inf, "min": math.inf}[combiner]
    width = dtype.width if isinstance(dtype, IntegerType) else 64
    if _is_unsigned(dtype):
        return {"sum": 0, "prod": 1, "max": 0, "min": (1 << width) - 1}[combiner]
    return {"sum": 0, "prod": 1, "max": -(1 << (width - 1)),
            "min": (1 << (width - 1)) - 1}[combiner]


class _AppendTo:
    """What IndexBuilder inserts through, for a block being built from scratch."""

    def __init__(self, block: Block):
        self.block = block

    def insert(self, op):
        return self.block.append(op)


class _Emitter:
    """Appends the arith/math/loop ops computing expressions to one block."""

    def __init__(self, block: Block, variables: list[Value], positions: dict[int, int],
                 buffers: dict[Tensor, Value], contract: bool = False,
                 extents: Sequence[int] = ()):
        self.block, self.variables, self.positions, self.buffers = (block, variables,
                                                                     positions, buffers)
        # The iteration variables' ranges simplify indices: a blocked layout's
        # `(oc_block * 16 + oc_inner) mod 16` is `oc_inner`.
        self.ranges = {dim(n): (0, extent - 1) for n, extent in enumerate(extents)}
        # Float add/sub/mul carry fastmath<contract> (see _contracts).
        self.contract = contract
        self.memo: dict[object, Value] = {}

    def op(self, cls: type[Op], operands: Sequence[Value], result_type: Type | None = None,
           **attributes) -> Value:
        built = cls.build(*operands, result_types=None if result_type is None
                          else [result_type], **attributes)
        self.block.append(built)
        return built.results[0] if built.results else None

    def constant(self, value: float | int, dtype: Type) -> Value:
        return self.op(A.ConstantOp, [], value=_scalar_attr(value, dtype))

    def indices(self, indices: Sequence[IndexExpr]) -> tuple[list[Value], AffineMap]:
        """The operands and map of an access at `indices`: the block's iteration
        variables, then one `index` value per data-dependent index."""
        operands = list(self.variables)
        mapping = {dim(uid): dim(position) for uid, position in self.positions.items()}
        exprs = []
        for index in indices:
            for uid, value in index.values.items():
                if dim(uid) not in mapping:
                    mapping[dim(uid)] = dim(len(operands))
                    operands.append(self.index_of(value))
            for expr in index.affine.walk():
                if expr.kind.name == "DIM" and dim(expr.position) not in mapping:
                    raise TEError("an index uses an axis that is not the tensor's (axes "
                                  "belong to the compute that made them)")
            exprs.append(simplify_in_ranges(index.affine.replace(mapping), self.ranges))
        return operands, AffineMap(len(operands), 0, tuple(exprs))

    def index_of(self, value: Expr) -> Value:
        """An integer expression's value as an `index` (`arith.index_cast`, which
        sign-extends), computed once per block."""
        key = ("index", id(value))
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self.op(C.IndexCastOp, [self.value(value)],
                                             IndexType())
        return known

    def load(self, buffer: Value, indices: Sequence[IndexExpr], dtype: Type,
             padding: float | int | None = None) -> Value:
        operands, index_map = self.indices(indices)
        attributes = {"map": AffineMapAttr(index_map)}
        if padding is not None:
            attributes["padding"] = _scalar_attr(padding, dtype)
        built = LoadOp.create([buffer, *operands], [storage_type(dtype)], attributes)
        self.block.append(built)
        return built.results[0]

    def store(self, value: Value, buffer: Value, indices: Sequence[IndexExpr]) -> None:
        operands, index_map = self.indices(indices)
        self.block.append(StoreOp.create([value, buffer, *operands], [],
                                         {"map": AffineMapAttr(index_map)}))

    def combine(self, combiner: str, a: Value, b: Value, dtype: Type) -> Value:
        return self.call({"sum": "add", "prod": "mul", "max": "maximum",
                          "min": "minimum"}[combiner],
                         [a, b], dtype, dtype)

    def value(self, expr: Expr) -> Value:
        known = self.memo.get(id(expr))
        if known is not None:
            return known
        if isinstance(expr, Const):
            result = self.constant(expr.value, expr.dtype)
        elif isinstance(expr, Read):
            if expr.tensor not in self.buffers:
                raise TEError(f"tensor {expr.tensor.name} is not part of the kernel")
            result = self.load(self.buffers[expr.tensor], expr.indices, expr.dtype,
                               expr.padding)
        elif isinstance(expr, IndexValue):
            operands, index_map = self.indices([expr.index])
            apply = self.index_value(operands, index_map)
            result = self.cast(apply, IndexType(), expr.dtype)
        elif isinstance(expr, Call) and expr.func == "check_index":
            bound, target = expr.params
            checked = CheckIndexOp.build_check(self.value(expr.args[0]), bound, target)
            self.block.append(checked)
            result = checked.results[0]
        elif isinstance(expr, Call):
            args = [self.value(a) for a in expr.args]
            source = expr.args[0].dtype
            result = self.call(expr.func, args, source, expr.dtype)
        else:
            raise TEError("a reduction must be the whole expression of a compute")
        self.memo[id(expr)] = result
        return result

    def index_value(self, operands: list[Value], index_map: AffineMap) -> Value:
        """The index `index_map` computes, with arith ops (loop-lower's IndexBuilder:
        floordiv and mod rounding as affine maps do)."""
        from mlc.loop.lower import IndexBuilder

        return IndexBuilder(_AppendTo(self.block)).expr(index_map.results[0], operands)

    def cast(self, value: Value, source: Type, target: Type) -> Value:
        """`value` of `source` converted to `target` (types of expressions: unsigned
        integers read as such, computed in their storage type)."""
        if source == target:
            return value
        stored = storage_type(target)
        if isinstance(source, IndexType):
            as_int = self.op(C.IndexCastOp, [value], i64 if not isinstance(
                target, IntegerType) else stored)
            return self.cast(as_int, i64, target) if not isinstance(target, IntegerType) \
                else as_int
        # i1 and unsigned integers are zero-extended and read as non-negative.
        zero_extends = isinstance(source, IntegerType) and (source.width == 1
                                                            or _is_unsigned(source))
        if isinstance(source, FloatType) and isinstance(target, FloatType):
            wider = target.width > source.width
            return self.op(C.ExtFOp if wider else C.TruncFOp, [value], target)
        if isinstance(source, IntegerType) and isinstance(target, FloatType):
            return self.op(C.UIToFPOp if zero_extends else C.SIToFPOp, [value], target)
        if isinstance(source, FloatType) and isinstance(target, IntegerType):
            return self.op(C.FPToUIOp if _is_unsigned(target) else C.FPToSIOp, [value], stored)
        if isinstance(source, IntegerType) and isinstance(target, IntegerType):
            if target.width > source.width:
                return self.op(C.ExtUIOp if zero_extends else C.ExtSIOp, [value], stored)
            if target.width == source.width:  # signless <-> unsigned: the same bits
                return value
            return self.op(C.TruncIOp, [value], stored)
        raise TEError(f"cannot cast {source} to {target}")

    def call(self, func: str, args: list[Value], source: Type, dtype: Type) -> Value:
        is_float = isinstance(source, FloatType)
        if func == "cast":
            return self.cast(args[0], source, dtype)
        if func == "select":
            return self.op(A.SelectOp, args)
        if func == "bitcast":
            if storage_type(source) == storage_type(dtype):
                return args[0]
            return self.op(C.BitcastOp, args, storage_type(dtype))
        if func == "isnan":
            if not is_float:
                return self.constant(0, i1)
            return self.op(A.CmpFOp, [args[0], args[0]],
                           predicate=CmpFPredicate.attr("uno"))
        if func.startswith("cmp."):
            predicate = func[4:]
            if is_float:
                # Ordered but for !=, which holds for NaN (IEEE's negation of ==).
                prefix = "u" if predicate == "ne" else "o"
                return self.op(A.CmpFOp, args, predicate=CmpFPredicate.attr(prefix + predicate))
            prefix = "" if predicate in ("eq", "ne") else "u" if _is_unsigned(source) else "s"
            return self.op(A.CmpIOp, args, predicate=CmpIPredicate.attr(prefix + predicate))
        if func == "neg":
            if is_float:
                return self.op(A.NegFOp, args)
            zero = self.constant(0, source)
            return self.op(A.SubIOp, [zero, args[0]])
        if func in ("bitwise_and", "bitwise_or", "bitwise_xor", "shift_left", "shift_right"):
            unsigned = func == "shift_right" and _is_unsigned(source)
            return self.op(A.ShRUIOp if unsigned else _BITWISE_OPS[func], args)
        if func in ("add", "sub", "mul", "div", "rem", "maximum", "minimum"):
            table = _FLOAT_BINARY_OPS if is_float else \
                _UNSIGNED_BINARY_OPS if _is_unsigned(source) else _INT_BINARY_OPS
            op_class = table[func]
            if is_float and self.contract and func in ("add", "sub", "mul"):
                return self.op(op_class, args, fastmath=_CONTRACT)
            return self.op(op_class, args)
        op_class = _MATH_OPS.get(func)
        if op_class is None:
            raise TEError(f"no op computes {func}")
        return self.op(op_class, args)


