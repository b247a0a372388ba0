"""The reference interpreter's engine: the value model, the run of functions, blocks
and regions, and the registry of op semantics. Each dialect's semantics live beside the
dialect (`mlc/ir/dialects/arith/semantics.py`, `mlc/loop/semantics.py`, ...),
registered against its op classes with :func:`impl`.

    from mlc.ir.interpreter import evaluate

    results = evaluate(module, "main", [3, 2.5])

It is meant as an oracle: it implements the ops' semantics directly (it does not
reuse the folders), so comparing a program's results before and after a
transformation checks the transformation.

Value representation
--------------------
* Integers (`iN`, `index`) are Python `int`s in MLIR's printed range: signless
  integers wider than one bit are signed, `-2**(N-1) <= v < 2**(N-1)`; `i1` is `0`
  or `1` (`true` is `1`; the ops that read their operands as signed, such as
  `divsi`, `cmpi slt`, `extsi` and `sitofp`, see `1` as `-1`). `index` is 64 bits
  wide. Unsigned (`uiN`) integer types hold `0 <= v < 2**N`.
* Floats (`f16`, `bf16`, `f32`, `f64`) are Python `float`s holding a value exactly
  representable in the type: every result is rounded to the type (nearest, ties
  to even, with subnormals and overflow to infinity). NaN payloads are not modelled:
  a NaN is just `math.nan` (possibly negated).
* Vectors (`vector<3x2xi32>`) are tuples of their elements' values, in row-major
  order. The arith ops apply to them element by element; `vector.extract`,
  `vector.insert`, their strided-slice forms, `vector.shape_cast` and
  `vector.broadcast` rearrange them.
* Ranked tensors are numpy arrays of `element_dtype` (values, never written in place);
  ops of other dialects on them (the graph dialect's) register their handlers.
* Memrefs are numpy arrays (views for subviews) of :func:`buffer_dtype`, shared by
  reference: a function writing into an argument's buffer writes into the caller's
  array (destination-passing style). :func:`load_element` and :func:`store_element`
  read and write one element (out of bounds is undefined behaviour). The `memref`
  ops' handlers are in memref's semantics module.

Arguments are normalised the same way: ints (and bools) are wrapped to the width of
the parameter's integer type, floats (and ints) rounded to the float type.

Undefined behaviour
-------------------
Where MLIR leaves the result undefined or poison, the interpreter raises
:class:`UndefinedBehavior` as soon as the op executes (eagerly, even if the poison
value would never be observed): integer division or remainder by zero, signed
division or remainder overflow (`MIN / -1`), float to integer conversion of NaN,
infinity or an out-of-range value, `addi`/`subi`/`muli`/`shli` overflow under the
`nsw`/`nuw` flags, a division or right shift that drops nonzero bits under `exact`,
and a NaN or infinity met by a float op with the `nnan` or `ninf` fastmath flag.
Two things are modelled lazily, as LLVM's poison: `ub.poison` and a shift by the bit
width or more give :data:`POISON`, which every op but `select` passes on (a `select` may discard
it: lowerings such as the wide-integer emulation rely on that), and which is
undefined behaviour once a function returns it. Such programs can legally change results under
transformation. :class:`UnmodelledNaN` (a kind of it) marks results that depend on
NaN payloads, which the interpreter does not keep.

External functions
------------------
A call of a function declared without a body runs the Python function registered
under its name with :func:`mlc.ir.extern.register_func` (memrefs passed as the shared
arrays, so a destination-passing function writes its outputs in place); a declaration
with a string attribute `mlc.extern` runs the function registered under that name
instead (one Python function declared once per signature).

Control flow
------------
A function may have several blocks: `cf.br`, `cf.cond_br` and `cf.switch` jump
between them, passing their operands as the arguments of the block jumped to. A
`cf.assert` whose condition is false raises :class:`AssertionFailure` with its
message. A run taking more than `max_branches` branches stops with an
:class:`InterpreterError`, so a transformed endless loop cannot hang a comparison.

An op with regions (a loop, a conditional) runs them from its handler with
:meth:`Interpreter.run_region`, as often as its semantics say; the region's
terminator hands values back to it (its handler returns :class:`Yield`; a region of an op declared `NoTerminator` simply
ends, handing back nothing). Regions see
every value of the function run that encloses them.

Ops are dispatched by class through :data:`OP_HANDLERS` (extend it with
:func:`impl`); an op without a handler raises :class:`UnsupportedOperation`. A
dialect names the module of its semantics (`Dialect(..., semantics=...)`), which
the engine imports the first time it meets an op of the dialect: registration
happens by import, but neither `mlc-opt` nor a dialect's ops pay for the
interpreter (numpy) until something runs.

An op with the `ElementwiseMappable` trait is interpreted on scalars: the engine
maps its handler over the elements of vector operands, and gives poison when an
operand is poison (unless the op was registered with `handles_poison`, as
`arith.select`, which may discard a poison operand it does not pick).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module

import numpy as np

from mlc.ir.core.attributes import (
    FLOAT_FORMATS,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    RankedTensorType,
    SymbolRefAttr,
    Type,
    VectorType,
    bits_to_float,
    element_dtype,
    round_int_to_precision,
)
from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.dialects.func.ops import FuncOp, lookup_symbol
from mlc.ir.extern import get_func, registered_name
from mlc.ir.opdef.traits import ElementwiseMappable, NoTerminator

__all__ = [
    "AssertionFailure",
    "BranchTo",
    "DEFAULT_MAX_BRANCHES",
    "DEFAULT_MAX_CALL_DEPTH",
    "ELEMENTWISE_OPS",
    "FunctionReturn",
    "OP_HANDLERS",
    "POISON",
    "Interpreter",
    "InterpreterError",
    "ROUNDING_MODES",
    "RecursionLimitExceeded",
    "UndefinedBehavior",
    "UnmodelledNaN",
    "Yield",
    "buffer_dtype",
    "canonical_int",
    "load_element",
    "store_element",
    "to_signed",
    "to_unsigned",
    "UnsupportedOperation",
    "ElementView",
    "evaluate",
    "flag_names",
    "float_of_bits",
    "handler_for",
    "holds_poison",
    "impl",
    "int_width",
    "map_elements",
    "normalize",
    "round_float",
    "round_int_to_float",
]

DEFAULT_MAX_CALL_DEPTH = 64
"""How deeply `func.call`s may nest before :class:`RecursionLimitExceeded`."""

DEFAULT_MAX_BRANCHES = 1_000_000
"""How many branches one function run may take before it is taken for an endless loop."""

ScalarValue = int | float
"""A scalar's value; a vector's is a tuple of them (see the module docstring)."""
Handler = Callable[["Interpreter", Operation, list[ScalarValue]], "list[ScalarValue] | BranchTo"]


class InterpreterError(Exception):
    """The program cannot be interpreted (base class of the interpreter's errors)."""


class UndefinedBehavior(InterpreterError):
    """An op executed on operands for which MLIR defines no result (or poison)."""


class UnsupportedOperation(InterpreterError):
    """An op, type or structure that the interpreter does not handle."""


class RecursionLimitExceeded(InterpreterError):
    """`func.call`s nested deeper than the interpreter's limit."""


class _Poison:
    """The one poison value (see the module docstring)."""

    def __repr__(self) -> str:
        return "POISON"


POISON = _Poison()
"""The result of a shift by the bit width or more; see the module docstring."""


def holds_poison(value) -> bool:
    """Whether `value` is poison or a vector holding a poison element."""
    return value is POISON or (isinstance(value, tuple) and any(v is POISON for v in value))


class UnmodelledNaN(UndefinedBehavior):
    """A result that depends on what the interpreter does not keep of a NaN: its
    payload and whether it signals (a bit cast of a NaN; maxnumf/minnumf of one NaN,
    which gives the other operand for a quiet NaN and a NaN for a signaling one, as
    LLVM folds it). For comparing runs it counts as undefined: any value may come."""


# ============================================================================ integers


def int_width(type_: Type) -> int:
    """The width in bits of an integer type; 64 for `index`."""
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width
    raise UnsupportedOperation(f"expected an integer or index type, got {type_}")


def _is_unsigned_type(type_: Type) -> bool:
    """Whether `type_` is a `uiN`."""
    return isinstance(type_, IntegerType) and type_.signedness == "unsigned"


def to_signed(value: int, type_: Type) -> int:
    """`value`'s bits read as a two's complement number (`i1` 1 is -1)."""
    width = int_width(type_)
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def to_unsigned(value: int, type_: Type) -> int:
    """`value`'s bits read as an unsigned number."""
    return value & ((1 << int_width(type_)) - 1)


def canonical_int(value: int, type_: Type) -> int:
    """`value` modulo 2**width, in the documented representation of `type_`."""
    width = int_width(type_)
    if width == 1 or _is_unsigned_type(type_):
        return to_unsigned(value, type_)
    return to_signed(value, type_)


# ============================================================================ floats

def _float_format(type_: Type) -> tuple[int, int, int]:
    """(precision, minimum normal exponent, maximum exponent) of an IEEE float type."""
    fmt = FLOAT_FORMATS.get(type_.name) if isinstance(type_, FloatType) else None
    if fmt is None or fmt.nonfinite != "ieee":
        raise UnsupportedOperation(f"expected an IEEE float type, got {type_}")
    return fmt.precision, 1 - fmt.bias, fmt.bias


def _max_finite(precision: int, emax: int) -> float:
    """The largest finite value of a float format."""
    return math.ldexp((1 << precision) - 1, emax - precision + 1)


ROUNDING_MODES = ("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")
"""arith's rounding modes (`arith.truncf`'s `roundingmode`), by their keywords."""


def round_float(value: float, type_: Type, mode: str = "to_nearest_even") -> float:
    """`value` rounded to `type_` in the rounding `mode` (default: nearest, ties to
    even). Beyond the largest finite value: infinity, except where the mode rounds
    toward zero (toward_zero, downward of a positive value, upward of a negative one),
    which gives the largest finite value, as IEEE-754 says."""
    precision, emin, emax = _float_format(type_)
    if precision == 53 or math.isnan(value) or math.isinf(value) or value == 0.0:
        return value
    _, exponent = math.frexp(value)  # |value| = m * 2**exponent, 0.5 <= m < 1
    ulp_exponent = max(exponent - 1, emin) - (precision - 1)
    # Scaling by a power of two is exact, and so is taking the fraction of the result.
    scaled = math.ldexp(abs(value), -ulp_exponent)
    whole = math.floor(scaled)
    fraction = scaled - whole
    toward_zero = (mode == "toward_zero" or (mode == "downward" and value > 0)
                   or (mode == "upward" and value < 0))
    if mode == "to_nearest_even":
        magnitude = round(scaled)
    elif mode == "to_nearest_away":
        magnitude = whole + (fraction >= 0.5)
    elif toward_zero:
        magnitude = whole
    else:  # away from zero: upward of a positive value, downward of a negative one
        magnitude = whole + (fraction > 0)
    try:
        rounded = math.ldexp(magnitude, ulp_exponent)
    except OverflowError:  # rounded up past f64's range: certainly past the type's
        rounded = math.inf
    largest = _max_finite(precision, emax)
    if rounded > largest:
        rounded = largest if toward_zero else math.inf
    return math.copysign(rounded, value)


def round_int_to_float(value: int, type_: Type) -> float:
    """The integer `value` rounded (once, exactly) to `type_`."""
    precision, _, emax = _float_format(type_)
    magnitude = abs(round_int_to_precision(value, precision))
    if magnitude > _max_finite(precision, emax):
        result = math.inf
    else:
        result = float(magnitude)
    return -result if value < 0 else result


# ============================================================================ values


def normalize(value: object, type_: Type) -> ScalarValue:
    """A Python value as the interpreter represents a value of `type_`."""
    if isinstance(type_, (IntegerType, IndexType)):
        if isinstance(value, bool):
            value = int(value)
        if not isinstance(value, int):
            raise TypeError(f"expected an int for {type_}, got {value!r}")
        return canonical_int(value, type_)
    if isinstance(type_, FloatType):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"expected a float for {type_}, got {value!r}")
        if isinstance(value, int):
            return round_int_to_float(value, type_)
        return round_float(value, type_)
    if isinstance(type_, VectorType) and not any(type_.scalable or ()):
        if not isinstance(value, (tuple, list)) or len(value) != math.prod(type_.shape):
            raise TypeError(f"expected {math.prod(type_.shape)} elements for {type_}, "
                            f"got {value!r}")
        return tuple(normalize(v, type_.element_type) for v in value)
    if isinstance(type_, MemRefType):
        return _check_buffer(value, type_)
    if isinstance(type_, RankedTensorType):
        array = np.asarray(value)
        if tuple(array.shape) != tuple(type_.shape):
            raise TypeError(f"expected shape {tuple(type_.shape)} for {type_}, got "
                            f"{tuple(array.shape)}")
        return np.asarray(array, element_dtype(type_.element_type))
    raise UnsupportedOperation(f"values of type {type_} are not supported")


# ============================================================================ buffers

_NUMPY_INTS = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_NUMPY_UINTS = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_NUMPY_FLOATS = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
                 "bf16": np.float32}  # bf16 values are rounded on store, so f32 holds them


def buffer_dtype(element_type: Type) -> np.dtype:
    """The numpy dtype of the array holding a memref of `element_type`.

    Integers keep the interpreter's value ranges (signless ones signed, `i1` as
    bool); widths numpy lacks are held as Python ints in an object array."""
    if isinstance(element_type, IndexType):
        return np.dtype(np.int64)
    if isinstance(element_type, IntegerType):
        if element_type.width == 1 and element_type.signedness == "signless":
            return np.dtype(np.bool_)
        table = _NUMPY_UINTS if element_type.signedness == "unsigned" else _NUMPY_INTS
        return np.dtype(table.get(element_type.width, object))
    if isinstance(element_type, FloatType) and str(element_type) in _NUMPY_FLOATS:
        return np.dtype(_NUMPY_FLOATS[str(element_type)])
    raise UnsupportedOperation(f"buffers of {element_type} are not supported")


def _check_buffer(value: object, type_: MemRefType) -> np.ndarray:
    """A memref's value: a numpy array (or a view) of the type's static shape and
    `buffer_dtype`; shared, never copied, so stores are seen by every holder."""
    if not isinstance(value, np.ndarray):
        raise TypeError(f"expected a numpy array for {type_}, got {type(value).__name__}")
    expected = buffer_dtype(type_.element_type)
    shape_ok = len(value.shape) == len(type_.shape) and all(
        d is None or d < 0 or d == n for d, n in zip(type_.shape, value.shape))
    if not shape_ok or value.dtype != expected:
        raise TypeError(f"expected an array of shape {tuple(type_.shape)} and dtype "
                        f"{expected} for {type_}, got {value.shape} {value.dtype}")
    return value


def load_element(buffer: np.ndarray, indices: Sequence[int], element_type: Type) -> ScalarValue:
    """The value at `indices` of a memref's array, as the interpreter represents it;
    an index out of bounds is undefined behaviour."""
    _check_in_bounds(buffer, indices)
    return normalize(buffer[tuple(indices)].item(), element_type)


def store_element(buffer: np.ndarray, indices: Sequence[int], value: ScalarValue) -> None:
    """Write `value` at `indices` of a memref's array (out of bounds is undefined
    behaviour, as is storing poison)."""
    _check_in_bounds(buffer, indices)
    if holds_poison(value):
        raise UndefinedBehavior("a poison value is stored")
    buffer[tuple(indices)] = value


def _check_in_bounds(buffer: np.ndarray, indices: Sequence[int]) -> None:
    if len(indices) != buffer.ndim or any(
            not 0 <= i < n for i, n in zip(indices, buffer.shape)):
        raise UndefinedBehavior(f"access at {list(indices)} out of the bounds of a buffer "
                                f"of shape {list(buffer.shape)}")


# ============================================================================ the interpreter

OP_HANDLERS: dict[type[Operation], Handler] = {}
"""Op class -> handler(interpreter, op, operand values) -> result values."""

ELEMENTWISE_OPS: set[type[Operation]] = set()
"""The registered op classes that apply to vectors element by element (those with
the `ElementwiseMappable` trait)."""

_HANDLES_POISON: set[type[Operation]] = set()


def impl(*op_classes: type[Operation], handles_poison: bool = False
         ) -> Callable[[Handler], Handler]:
    """Decorator: interpret the ops of `op_classes` with the decorated function.

    `handles_poison`: an elementwise op whose handler itself decides what a poison
    operand gives (the engine otherwise gives poison for any)."""

    def register(fn: Handler) -> Handler:
        for op_class in op_classes:
            OP_HANDLERS[op_class] = fn
            if ElementwiseMappable in op_class.op_def.trait_set:
                ELEMENTWISE_OPS.add(op_class)
            if handles_poison:
                _HANDLES_POISON.add(op_class)
        return fn

    return register


def handler_for(op_class: type[Operation]) -> Handler | None:
    """The handler of `op_class`, importing its dialect's semantics module the first
    time; None if the dialect defines none for it."""
    handler = OP_HANDLERS.get(op_class)
    if handler is None:
        op_def = getattr(op_class, "op_def", None)
        module = getattr(op_def.dialect, "semantics", None) if op_def is not None else None
        if module is not None:
            import_module(module)
            handler = OP_HANDLERS.get(op_class)
    return handler


class AssertionFailure(InterpreterError):
    """A `cf.assert` met a false condition: the program stops with its message."""


@dataclass(frozen=True)
class BranchTo:
    """What a terminator's handler returns to jump: the block control goes to and the
    values of its arguments."""

    block: Block
    values: list[ScalarValue]


@dataclass(frozen=True)
class Yield:
    """What a region terminator's handler returns (`scf.yield`, `loop.yield`): the
    values the region hands back to the op that runs it (see
    :meth:`Interpreter.run_region`)."""

    values: list


_END_OF_BLOCK = Yield([])


class FunctionReturn(Exception):
    """Raised by a function's return op to end its run with `values` (caught by
    :meth:`Interpreter.run_block`)."""

    def __init__(self, values: list[ScalarValue]):
        super().__init__()
        self.values = values


class Interpreter:
    """Runs functions of one module; see the module docstring for the semantics."""

    def __init__(self, module: Operation, max_call_depth: int = DEFAULT_MAX_CALL_DEPTH,
                 handlers: dict[type[Operation], Handler] | None = None,
                 max_branches: int = DEFAULT_MAX_BRANCHES):
        self.module = module
        self.max_call_depth = max_call_depth
        self.max_branches = max_branches
        self.handlers = OP_HANDLERS if handlers is None else handlers
        self.depth = 0
        # The values of the function run in progress (nested regions add theirs).
        self.env: dict[Value, object] = {}
        # What a dialect keeps for the whole run, by key (memref's globals' arrays).
        self.state: dict[str, object] = {}

    def lookup_function(self, name: str, from_op: Operation | None = None) -> Operation:
        """The `func.func` called `name`: in `from_op`'s symbol table, else the module's."""
        found: Operation | None = None
        if from_op is not None:
            found = lookup_symbol(from_op, SymbolRefAttr(name))
        if found is None:
            for region in self.module.regions:
                for op in region.ops():
                    sym = op.attributes.get("sym_name")
                    if sym is not None and getattr(sym, "value", None) == name:
                        found = op
                        break
        if not isinstance(found, FuncOp):
            raise InterpreterError(f"no function named @{name}")
        return found

    def call(self, function: Operation, args: Sequence[object]) -> list[ScalarValue]:
        """Run `function` (a `func.func`) on `args`; its results."""
        fn_type = function.attributes["function_type"].value
        name = function.attributes["sym_name"].value
        if len(args) != len(fn_type.inputs):
            raise InterpreterError(f"@{name} takes {len(fn_type.inputs)} arguments, "
                                   f"got {len(args)}")
        if not function.regions or not function.regions[0].blocks:
            return self._call_external(registered_name(function), fn_type, args)
        blocks = function.regions[0].blocks
        if self.depth >= self.max_call_depth:
            raise RecursionLimitExceeded(f"calls nested deeper than {self.max_call_depth} "
                                         f"(calling @{name})")
        values = [normalize(a, t) for a, t in zip(args, fn_type.inputs)]
        self.depth += 1
        try:
            return self.run_block(blocks[0], values)
        finally:
            self.depth -= 1

    def _call_external(self, name: str, fn_type, args: Sequence[object]) -> list[object]:
        """A declaration's call: the Python function registered under its name
        (:mod:`mlc.ir.extern`), given the arguments as they are (memrefs shared)."""
        external = get_func(name)
        if external is None:
            raise UnsupportedOperation(f"@{name} is a declaration without a body, and no "
                                       "external function is registered under that name")
        values = [normalize(a, t) for a, t in zip(args, fn_type.inputs)]
        returned = external(*values)
        results = [] if returned is None else \
            list(returned) if isinstance(returned, tuple) else [returned]
        if len(results) != len(fn_type.results):
            raise InterpreterError(f"external function '{name}' returned {len(results)} "
                                   f"values for {len(fn_type.results)} results")
        return [normalize(r, t) for r, t in zip(results, fn_type.results)]

    def run_block(self, block: Block, args: Sequence[ScalarValue]) -> list[ScalarValue]:
        """Execute a function body from `block` with its arguments bound to `args`,
        following the branches of its region (a handler returns a :class:`BranchTo`),
        until a `func.return`. Values stay bound across blocks: a block only uses
        values of the blocks that dominate it, all run before it."""
        outer_env, self.env = self.env, {}
        try:
            self._run_from(block, args)
        except FunctionReturn as ret:
            return ret.values
        finally:
            self.env = outer_env
        raise InterpreterError("a function body ended in a region terminator, not a "
                               "func.return")

    def run_region(self, region: Region, args: Sequence[object]) -> list[object]:
        """Execute a region nested in the op being interpreted, its entry block's
        arguments bound to `args`, until a terminator hands values back to the op
        (its handler returns :class:`Yield`); those values.

        The region sees every value of the enclosing function run: a handler of an op
        with regions (a loop, a conditional) calls this once per execution of the
        region, as the op's semantics say."""
        if not region.blocks:
            raise InterpreterError("an empty region cannot run")
        return self._run_from(region.blocks[0], args)

    def _run_from(self, block: Block, args: Sequence[object]) -> list[object]:
        env = self.env
        branches = 0
        while True:
            env.update(zip(block.args, args))
            target = self._run_ops(block, env)
            if isinstance(target, Yield):
                return target.values
            branches += 1
            if branches > self.max_branches:
                raise InterpreterError(f"more than {self.max_branches} branches taken "
                                       "(an endless loop?)")
            block, args = target.block, target.values

    def _run_ops(self, block: Block, env: dict[Value, object]) -> BranchTo | Yield:
        handlers = self.handlers
        for op in block.ops():
            op_class = type(op)
            handler = handlers.get(op_class)
            if handler is None:
                handler = self._load_handler(op)
            try:
                operands = [env[v] for v in op.operands]
            except KeyError:
                raise InterpreterError(f"'{op.name}' uses a value not defined before it"
                                       ) from None
            if op_class in ELEMENTWISE_OPS and _has_vector_operand_or_result(op):
                results = map_elements(self, handler, op, operands)
            elif op_class in ELEMENTWISE_OPS and _poisoned(op_class, operands):
                results = [POISON] * len(op.results)
            else:
                results = handler(self, op, operands)
            if isinstance(results, (BranchTo, Yield)):
                return results
            if len(results) != len(op.results):
                raise InterpreterError(f"handler of '{op.name}' returned {len(results)} "
                                       f"values for {len(op.results)} results")
            env.update(zip(op.results, results))
        parent = block.parent_op
        if parent is not None and parent.has_trait(NoTerminator):
            return _END_OF_BLOCK  # a region whose op declares no terminator ends here
        raise InterpreterError("block ended without a terminator")

    def _load_handler(self, op: Operation) -> Handler:
        """The handler of an op met for the first time: its dialect's semantics are
        imported (when this interpreter uses the registry)."""
        handler = handler_for(type(op)) if self.handlers is OP_HANDLERS else None
        if handler is None:
            raise UnsupportedOperation(f"no interpreter handler for '{op.name}'")
        return handler


def evaluate(module: Operation, function_name: str, args: Sequence[object],
             max_call_depth: int = DEFAULT_MAX_CALL_DEPTH) -> list[ScalarValue]:
    """Run the function `function_name` of `module` on `args`; its results.

    Raises :class:`UndefinedBehavior` when the run hits undefined behaviour,
    :class:`UnsupportedOperation` for ops or types the interpreter does not handle and
    :class:`RecursionLimitExceeded` past `max_call_depth` nested calls.
    """
    interpreter = Interpreter(module, max_call_depth)
    return interpreter.call(interpreter.lookup_function(function_name), args)


def float_of_bits(bits: int, type_: FloatType) -> float:
    """The interpreter's value of a float's bit pattern: bits_to_float's, except that a
    NaN keeps its payload, its fraction moved to the top of a double's fraction (where
    an extension, arith.extf or LLVM's fpext, puts it: mlir-opt's folds keep it too)."""
    fmt = FLOAT_FORMATS[type_.name]
    if fmt.nonfinite == "ieee" and fmt.width < 64 and not fmt.explicit_integer_bit:
        top = (1 << fmt.exponent_bits) - 1
        fraction = bits & ((1 << fmt.mantissa_bits) - 1)
        if (bits >> fmt.mantissa_bits) & top == top and fraction:
            sign = (bits >> (fmt.exponent_bits + fmt.mantissa_bits)) & 1
            double = sign << 63 | 0x7FF << 52 | fraction << (52 - fmt.mantissa_bits)
            return struct.unpack("<d", double.to_bytes(8, "little"))[0]
    return bits_to_float(bits, type_)


# ============================================================================ vectors

def _poisoned(op_class: type[Operation], operands: list) -> bool:
    """Whether an elementwise op's result is poison before it runs: an operand is
    (an op that `handles_poison` decides itself)."""
    return op_class not in _HANDLES_POISON and any(v is POISON for v in operands)


def flag_names(attr) -> frozenset[str]:
    """The names of the flags set in a flag-set attribute (fastmath, overflow)."""
    flags = getattr(attr, "flags", None)
    if flags is None:
        return frozenset()
    return frozenset(member.name for member in type(flags) if member in flags)


def _has_vector_operand_or_result(op: Operation) -> bool:
    return any(isinstance(v.type, VectorType) for v in (*op.operands, *op.results))


class _TypedValue:
    __slots__ = ("type",)

    def __init__(self, type_: Type):
        self.type = type_


class ElementView:
    """An elementwise op seen on one element: its operand and result types are the
    element types (what a scalar handler reads)."""

    __slots__ = ("name", "attributes", "operands", "results")

    def __init__(self, op: Operation):
        self.name = op.name
        self.attributes = op.attributes
        self.operands = [_TypedValue(_element_type(v.type)) for v in op.operands]
        self.results = [_TypedValue(_element_type(v.type)) for v in op.results]


def _element_type(type_: Type) -> Type:
    return type_.element_type if isinstance(type_, VectorType) else type_


def map_elements(interp: Interpreter, handler: Handler, op: Operation,
                 operands: list) -> list:
    """Run the scalar `handler` on each element (a scalar operand, such as select's
    condition, applies to every element)."""
    view = ElementView(op)
    count = math.prod(next(v.type for v in (*op.operands, *op.results)
                           if isinstance(v.type, VectorType)).shape)
    columns: list[list] = [[] for _ in op.results]
    for i in range(count):
        scalars = [v[i] if isinstance(v, tuple) else v for v in operands]
        results = ([POISON] * len(columns) if _poisoned(type(op), scalars)
                   else handler(interp, view, scalars))
        for column, result in zip(columns, results):
            column.append(result)
    return [tuple(column) for column in columns]


