"""A reference interpreter for the `arith`, `math`, `func` and `cf` dialects (and
`ub.poison`), on scalars and vectors, and the `vector` ops that take vectors apart and
put them together.

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
  ops' handlers are in :mod:`mlc.ir.dialects.memref_semantics`.

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

Ops are dispatched by name through :data:`OP_HANDLERS` (extend it with
:func:`register_handler`); an op without a handler raises
:class:`UnsupportedOperation`.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from mlc.ir.core.attributes import (
    FLOAT_FORMATS,
    FloatAttr,
    FloatType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    RankedTensorType,
    Type,
    VectorType,
    bits_to_float,
    element_dtype,
    float_to_bits,
    round_int_to_precision,
)
from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.opdef.traits import NoTerminator

__all__ = [
    "AssertionFailure",
    "BranchTo",
    "DEFAULT_MAX_BRANCHES",
    "DEFAULT_MAX_CALL_DEPTH",
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
    "evaluate",
    "normalize",
    "register_handler",
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


def _holds_poison(value) -> bool:
    return value is POISON or (isinstance(value, tuple) and any(v is POISON for v in value))


class UnmodelledNaN(UndefinedBehavior):
    """A result that depends on what the interpreter does not keep of a NaN: its
    payload and whether it signals (a bit cast of a NaN; maxnumf/minnumf of one NaN,
    which gives the other operand for a quiet NaN and a NaN for a signaling one, as
    LLVM folds it). For comparing runs it counts as undefined: any value may come."""


# ============================================================================ integers


def _int_width(type_: Type) -> int:
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
    width = _int_width(type_)
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def to_unsigned(value: int, type_: Type) -> int:
    """`value`'s bits read as an unsigned number."""
    return value & ((1 << _int_width(type_)) - 1)


def canonical_int(value: int, type_: Type) -> int:
    """`value` modulo 2**width, in the documented representation of `type_`."""
    width = _int_width(type_)
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
    if _holds_poison(value):
        raise UndefinedBehavior("a poison value is stored")
    buffer[tuple(indices)] = value


def _check_in_bounds(buffer: np.ndarray, indices: Sequence[int]) -> None:
    if len(indices) != buffer.ndim or any(
            not 0 <= i < n for i, n in zip(indices, buffer.shape)):
        raise UndefinedBehavior(f"access at {list(indices)} out of the bounds of a buffer "
                                f"of shape {list(buffer.shape)}")


# ============================================================================ the interpreter

OP_HANDLERS: dict[str, Handler] = {}
"""Op name -> handler(interpreter, op, operand values) -> result values."""


def register_handler(*names: str) -> Callable[[Handler], Handler]:
    """Decorator: interpret the ops called `names` with the decorated function."""

    def register(fn: Handler) -> Handler:
        for name in names:
            OP_HANDLERS[name] = fn
        return fn

    return register


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


class _Return(Exception):
    """Unwinds a function's run at its `func.return`."""

    def __init__(self, values: list[ScalarValue]):
        super().__init__()
        self.values = values


class Interpreter:
    """Runs functions of one module; see the module docstring for the semantics."""

    def __init__(self, module: Operation, max_call_depth: int = DEFAULT_MAX_CALL_DEPTH,
                 handlers: dict[str, Handler] | None = None,
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
            from mlc.ir.core.attributes import SymbolRefAttr
            from mlc.ir.dialects.func import lookup_symbol

            found = lookup_symbol(from_op, SymbolRefAttr(name))
        if found is None:
            for region in self.module.regions:
                for op in region.ops():
                    sym = op.attributes.get("sym_name")
                    if sym is not None and getattr(sym, "value", None) == name:
                        found = op
                        break
        if found is None or found.name != "func.func":
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
            # A declaration may name the function it stands for (one per signature).
            extern = function.attributes.get("mlc.extern")
            return self._call_external(getattr(extern, "value", name), fn_type, args)
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
        from mlc.ir.extern import get_func

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
        except _Return as ret:
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
        for op in block.ops():
            handler = self.handlers.get(op.name)
            if handler is None:
                raise UnsupportedOperation(f"no interpreter handler for '{op.name}'")
            try:
                operands = [env[v] for v in op.operands]
            except KeyError:
                raise InterpreterError(f"'{op.name}' uses a value not defined before it"
                                       ) from None
            if _has_vector_operand_or_result(op) and op.name in ELEMENTWISE_OPS:
                results = _map_elements(self, handler, op, operands)
            elif op.name in ELEMENTWISE_OPS and _poisoned(op.name, operands):
                results = [POISON] * len(op.results)
            elif op.name in _DECIDES_ON_OPERAND_0 and operands and _holds_poison(operands[0]):
                raise UndefinedBehavior(f"'{op.name}' decides on a poison value")
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


# Ops whose behaviour depends on their first operand (a branch condition, a switch's
# flag, an assertion): given poison, the program's behaviour is undefined.
_DECIDES_ON_OPERAND_0 = frozenset({"cf.cond_br", "cf.switch", "cf.assert"})


def evaluate(module: Operation, function_name: str, args: Sequence[object],
             max_call_depth: int = DEFAULT_MAX_CALL_DEPTH) -> list[ScalarValue]:
    """Run the function `function_name` of `module` on `args`; its results.

    Raises :class:`UndefinedBehavior` when the run hits undefined behaviour,
    :class:`UnsupportedOperation` for ops or types the interpreter does not handle and
    :class:`RecursionLimitExceeded` past `max_call_depth` nested calls.
    """
    interpreter = Interpreter(module, max_call_depth)
    return interpreter.call(interpreter.lookup_function(function_name), args)


# ============================================================================ func


@register_handler("func.return")
def _return(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Ends the enclosing function's run with `operands` as its results (returning
    poison is undefined behaviour)."""
    if any(_holds_poison(v) for v in operands):
        raise UndefinedBehavior("a poison value is returned (a shift by the bit width or "
                                "more)")
    raise _Return(list(operands))


@register_handler("func.call")
def _call(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Runs the callee, looked up from the call's nearest symbol table."""
    callee = op.attributes["callee"]
    if getattr(callee, "nested", ()):
        raise UnsupportedOperation("calls to nested symbols are not supported")
    return interp.call(interp.lookup_function(callee.root, op), operands)


# ============================================================================ cf


def _successor_values(op: Operation, index: int, operands: list[ScalarValue]) -> BranchTo:
    """Jump to successor `index` of a branch op with the operands it passes there."""
    from mlc.ir.interfaces.control_flow import BranchLike

    start, size = BranchLike.get(op).successor_operand_range(op, index)
    return BranchTo(op.successors[index], list(operands[start:start + size]))


@register_handler("cf.br")
def _br(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> BranchTo:
    """Jumps to the successor."""
    return _successor_values(op, 0, operands)


@register_handler("cf.cond_br")
def _cond_br(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> BranchTo:
    """Jumps to the first successor if the condition is true, else to the second."""
    return _successor_values(op, 0 if operands[0] else 1, operands)


@register_handler("cf.switch")
def _switch(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> BranchTo:
    """Jumps to the case whose value has the flag's bits, else to the default."""
    from mlc.ir.dialects.cf import case_values_of

    flag = to_unsigned(operands[0], op.operands[0].type)
    for index, value in enumerate(case_values_of(op)):
        if value == flag:
            return _successor_values(op, index + 1, operands)
    return _successor_values(op, 0, operands)


@register_handler("cf.assert")
def _assert(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Stops the program with the message if the condition is false."""
    if not operands[0]:
        raise AssertionFailure(op.attributes["msg"].value)
    return []


# ============================================================================ arith


def _result_type(op: Operation) -> Type:
    """The scalar type of the op's first result."""
    type_ = op.results[0].type
    if not isinstance(type_, (IntegerType, IndexType, FloatType)):
        raise UnsupportedOperation(f"'{op.name}' on {type_}: only scalars are supported")
    return type_


@register_handler("arith.constant")
def _constant(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """An integer or float constant, scalar or vector (every NaN payload reads as NaN)."""
    attr = op.attributes["value"]
    if isinstance(op.results[0].type, VectorType):
        return [_dense_elements(attr, op.results[0].type)]
    type_ = _result_type(op)
    if isinstance(attr, IntegerAttr):
        return [canonical_int(attr.value, type_)]
    if isinstance(attr, FloatAttr):
        return [float_of_bits(attr.bits, attr.type)]
    raise UnsupportedOperation(f"constant {attr} is not supported")


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


def _quieted(value: float) -> float:
    """`value`, with the quiet bit set if it is a NaN (a conversion quiets a signaling
    NaN, keeping its payload, as LLVM's fpext does)."""
    if not math.isnan(value):
        return value
    bits = struct.unpack("<Q", struct.pack("<d", value))[0] | 1 << 51
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _flag_names(attr) -> frozenset[str]:
    """The names of the flags set in a flag-set attribute (fastmath, overflow)."""
    flags = getattr(attr, "flags", None)
    if flags is None:
        return frozenset()
    return frozenset(member.name for member in type(flags) if member in flags)


def _overflow_flags(op: Operation) -> frozenset[str]:
    """The op's `nsw`/`nuw` flags."""
    return _flag_names(op.attributes.get("overflowFlags"))


def _int_binary(exact: Callable[[int, int], int]) -> Handler:
    """addi/subi/muli: wrap around; `nsw`/`nuw` overflow is undefined."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        type_ = _result_type(op)
        a, b = operands
        flags = _overflow_flags(op)
        if "nsw" in flags:
            signed = exact(to_signed(a, type_), to_signed(b, type_))
            if signed != to_signed(signed, type_):
                raise UndefinedBehavior(f"'{op.name}' with nsw overflows (signed)")
        if "nuw" in flags:
            unsigned = exact(to_unsigned(a, type_), to_unsigned(b, type_))
            if unsigned != to_unsigned(unsigned, type_):
                raise UndefinedBehavior(f"'{op.name}' with nuw overflows (unsigned)")
        return [canonical_int(exact(a, b), type_)]

    return handler


register_handler("arith.addi")(_int_binary(lambda a, b: a + b))
register_handler("arith.subi")(_int_binary(lambda a, b: a - b))
register_handler("arith.muli")(_int_binary(lambda a, b: a * b))


def _bitwise(fn: Callable[[int, int], int]) -> Handler:
    """andi/ori/xori on the two's complement bits."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        type_ = _result_type(op)
        a, b = (to_unsigned(v, type_) for v in operands)
        return [canonical_int(fn(a, b), type_)]

    return handler


register_handler("arith.andi")(_bitwise(lambda a, b: a & b))
register_handler("arith.ori")(_bitwise(lambda a, b: a | b))
register_handler("arith.xori")(_bitwise(lambda a, b: a ^ b))


def _signed_quotient_and_remainder(op: Operation, operands: list[ScalarValue]) -> tuple[int, int]:
    """Quotient rounded toward zero, remainder with the dividend's sign; undefined for a
    zero divisor and for MIN / -1."""
    type_ = _result_type(op)
    a, b = (to_signed(v, type_) for v in operands)
    if b == 0:
        raise UndefinedBehavior(f"'{op.name}': division by zero")
    quotient = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        quotient = -quotient
    if quotient != to_signed(quotient, type_):
        raise UndefinedBehavior(f"'{op.name}': signed division overflows")
    return quotient, a - quotient * b


def _unsigned_operands(op: Operation, operands: list[ScalarValue]) -> tuple[int, int]:
    """The operands read as unsigned; undefined for a zero divisor."""
    type_ = _result_type(op)
    a, b = (to_unsigned(v, type_) for v in operands)
    if b == 0:
        raise UndefinedBehavior(f"'{op.name}': division by zero")
    return a, b


def _check_exact(op: Operation, remainder: int) -> None:
    """`exact`: a division or right shift that drops nonzero bits is poison."""
    if remainder and "isExact" in op.attributes:
        raise UndefinedBehavior(f"'{op.name}' with exact drops nonzero bits")


@register_handler("arith.divsi")
def _divsi(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Signed division, rounding toward zero."""
    quotient, remainder = _signed_quotient_and_remainder(op, operands)
    _check_exact(op, remainder)
    return [canonical_int(quotient, _result_type(op))]


@register_handler("arith.remsi")
def _remsi(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Signed remainder, with the sign of the dividend."""
    return [canonical_int(_signed_quotient_and_remainder(op, operands)[1], _result_type(op))]


@register_handler("arith.divui")
def _divui(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Unsigned division."""
    a, b = _unsigned_operands(op, operands)
    _check_exact(op, a % b)
    return [canonical_int(a // b, _result_type(op))]


@register_handler("arith.ceildivsi", "arith.floordivsi")
def _rounding_divsi(interp: Interpreter, op: Operation, operands: list[ScalarValue]
                    ) -> list[ScalarValue]:
    """Signed division rounding toward +infinity (ceildivsi) or -infinity (floordivsi);
    undefined for a zero divisor and for MIN / -1."""
    quotient, remainder = _signed_quotient_and_remainder(op, operands)
    if remainder:  # the quotient was truncated toward zero: one step off, or right
        a, b = (to_signed(v, _result_type(op)) for v in operands)
        positive = (a < 0) == (b < 0)
        if op.name == "arith.ceildivsi" and positive:
            quotient += 1
        elif op.name == "arith.floordivsi" and not positive:
            quotient -= 1
    return [canonical_int(quotient, _result_type(op))]


@register_handler("arith.ceildivui")
def _ceildivui(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Unsigned division rounding up."""
    a, b = _unsigned_operands(op, operands)
    return [canonical_int(-(-a // b), _result_type(op))]


def _shift_amount(op: Operation, amount: ScalarValue) -> int | None:
    """The shift amount read as unsigned; None (poison) for the bit width or more."""
    type_ = _result_type(op)
    amount = to_unsigned(amount, type_)
    return amount if amount < _int_width(type_) else None


@register_handler("arith.shli")
def _shli(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Left shift; `nsw`: poison unless shifting back (arithmetically) gives the value,
    `nuw`: poison if a one bit is shifted out."""
    type_ = _result_type(op)
    amount = _shift_amount(op, operands[1])
    if amount is None:
        return [POISON]
    value = to_unsigned(operands[0], type_)
    result = to_unsigned(value << amount, type_)
    flags = _overflow_flags(op)
    if "nsw" in flags and to_signed(result, type_) >> amount != to_signed(value, type_):
        raise UndefinedBehavior(f"'{op.name}' with nsw overflows (signed)")
    if "nuw" in flags and result >> amount != value:
        raise UndefinedBehavior(f"'{op.name}' with nuw overflows (unsigned)")
    return [canonical_int(result, type_)]


@register_handler("arith.shrui", "arith.shrsi")
def _shr(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Right shift filling with zeros (shrui) or copies of the sign bit (shrsi)."""
    type_ = _result_type(op)
    amount = _shift_amount(op, operands[1])
    if amount is None:
        return [POISON]
    read = to_unsigned if op.name == "arith.shrui" else to_signed
    value = read(operands[0], type_)
    _check_exact(op, to_unsigned(value, type_) & ((1 << amount) - 1))
    return [canonical_int(value >> amount, type_)]


def _extremum(signed: bool, pick: Callable[[int, int], int]) -> Handler:
    """maxsi/maxui/minsi/minui: the greater or smaller operand, read signed or not."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        type_ = _result_type(op)
        read = to_signed if signed else to_unsigned
        return [canonical_int(pick(*(read(v, type_) for v in operands)), type_)]

    return handler


register_handler("arith.maxsi")(_extremum(True, max))
register_handler("arith.maxui")(_extremum(False, max))
register_handler("arith.minsi")(_extremum(True, min))
register_handler("arith.minui")(_extremum(False, min))


@register_handler("arith.addui_extended")
def _addui_extended(interp: Interpreter, op: Operation, operands: list[ScalarValue]
                    ) -> list[ScalarValue]:
    """The wrapped sum, and 1 if the unsigned sum overflowed."""
    type_ = _result_type(op)
    total = sum(to_unsigned(v, type_) for v in operands)
    return [canonical_int(total, type_), int(total >> _int_width(type_) != 0)]


@register_handler("arith.mulsi_extended", "arith.mului_extended")
def _mul_extended(interp: Interpreter, op: Operation, operands: list[ScalarValue]
                  ) -> list[ScalarValue]:
    """The low and high halves of the double-width product (signed or unsigned)."""
    type_ = _result_type(op)
    read = to_signed if op.name == "arith.mulsi_extended" else to_unsigned
    a, b = (read(v, type_) for v in operands)
    product = a * b
    return [canonical_int(product, type_), canonical_int(product >> _int_width(type_), type_)]


@register_handler("arith.remui")
def _remui(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Unsigned remainder."""
    a, b = _unsigned_operands(op, operands)
    return [canonical_int(a % b, _result_type(op))]


_CMPI = {
    "eq": (False, lambda a, b: a == b), "ne": (False, lambda a, b: a != b),
    "slt": (True, lambda a, b: a < b), "sle": (True, lambda a, b: a <= b),
    "sgt": (True, lambda a, b: a > b), "sge": (True, lambda a, b: a >= b),
    "ult": (False, lambda a, b: a < b), "ule": (False, lambda a, b: a <= b),
    "ugt": (False, lambda a, b: a > b), "uge": (False, lambda a, b: a >= b),
}


def _predicate(op: Operation) -> str:
    """The keyword of a cmpi/cmpf predicate."""
    from mlc.ir.dialects.arith import CmpFPredicate, CmpIPredicate

    enum = CmpIPredicate if op.name == "arith.cmpi" else CmpFPredicate
    return enum.keyword(op.attributes["predicate"])


@register_handler("arith.cmpi")
def _cmpi(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Signed (`s...`, i1 `true` is -1) or unsigned comparison; 1 or 0."""
    type_ = op.operands[0].type
    signed, compare = _CMPI[_predicate(op)]
    convert = to_signed if signed else to_unsigned
    a, b = (convert(v, type_) for v in operands)
    return [int(compare(a, b))]


def _check_fastmath(op: Operation, values: Sequence[ScalarValue]) -> None:
    """`nnan`/`ninf`: a NaN/infinite operand or result is poison."""
    flags = _flag_names(op.attributes.get("fastmath"))
    if "nnan" in flags and any(math.isnan(v) for v in values):
        raise UndefinedBehavior(f"'{op.name}' with nnan on a NaN")
    if "ninf" in flags and any(math.isinf(v) for v in values):
        raise UndefinedBehavior(f"'{op.name}' with ninf on an infinity")


def _float_binary(fn: Callable[[float, float], float]) -> Handler:
    """An IEEE-754 op computed exactly enough in f64, then rounded once to the type."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        a, b = operands
        result = round_float(fn(a, b), _result_type(op))
        _check_fastmath(op, [a, b, result])
        return [result]

    return handler


def _divide(a: float, b: float) -> float:
    """IEEE-754 division (Python raises on a zero divisor)."""
    if b == 0.0:
        if math.isnan(a) or a == 0.0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _fmod(a: float, b: float) -> float:
    """C's fmod: NaN for an infinite dividend or a zero divisor."""
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0.0:
        return math.nan
    if math.isinf(b):
        return a
    return math.fmod(a, b)  # exact, with the sign of a


def _maximum(a: float, b: float) -> float:
    """IEEE-754 2019 maximum: NaN-propagating."""
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b:  # +0.0 is greater than -0.0
        return a if math.copysign(1.0, a) > 0 else b
    return a if a > b else b


def _minimum(a: float, b: float) -> float:
    """IEEE-754 2019 minimum: NaN-propagating."""
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b:  # -0.0 is less than +0.0
        return a if math.copysign(1.0, a) < 0 else b
    return a if a < b else b


register_handler("arith.addf")(_float_binary(lambda a, b: a + b))
register_handler("arith.subf")(_float_binary(lambda a, b: a - b))
register_handler("arith.mulf")(_float_binary(lambda a, b: a * b))
register_handler("arith.divf")(_float_binary(_divide))
register_handler("arith.remf")(_float_binary(_fmod))
def _maximum_number(a: float, b: float) -> float:
    """maxnumf: the other operand of a NaN (which operand, and what a signaling NaN
    does, depend on what the interpreter does not keep: see UnmodelledNaN)."""
    if math.isnan(a) and math.isnan(b):
        return math.nan
    if math.isnan(a) or math.isnan(b):
        raise UnmodelledNaN("maxnumf of a NaN (quiet: the other operand; signaling: NaN)")
    return _maximum(a, b)


def _minimum_number(a: float, b: float) -> float:
    """minnumf: as maxnumf."""
    if math.isnan(a) and math.isnan(b):
        return math.nan
    if math.isnan(a) or math.isnan(b):
        raise UnmodelledNaN("minnumf of a NaN (quiet: the other operand; signaling: NaN)")
    return _minimum(a, b)


register_handler("arith.maximumf")(_float_binary(_maximum))
register_handler("arith.minimumf")(_float_binary(_minimum))
register_handler("arith.maxnumf")(_float_binary(_maximum_number))
register_handler("arith.minnumf")(_float_binary(_minimum_number))


@register_handler("arith.negf")
def _negf(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Flips the sign (of NaNs too)."""
    _result_type(op)
    _check_fastmath(op, operands)
    return [-operands[0]]


def _cmpf_value(predicate: str, a: float, b: float) -> bool:
    """Whether `a predicate b` holds."""
    unordered = math.isnan(a) or math.isnan(b)
    if predicate in ("false", "true"):
        return predicate == "true"
    if predicate == "ord":
        return not unordered
    if predicate == "uno":
        return unordered
    relation = {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
                "ge": a >= b}[predicate[1:]]
    return (unordered or relation) if predicate[0] == "u" else (not unordered and relation)


@register_handler("arith.cmpf")
def _cmpf(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Ordered (`o...`: false on NaN) or unordered (`u...`: true on NaN) comparison."""
    _check_fastmath(op, operands)
    return [int(_cmpf_value(_predicate(op), *operands))]


@register_handler("arith.select")
def _select(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """`condition ? true_value : false_value`."""
    _result_type(op)
    if op.operands[0].type != IntegerType(1):
        raise UnsupportedOperation("arith.select with a shaped condition is not supported")
    condition, true_value, false_value = operands
    return [true_value if condition else false_value]


# ------------------------------------------------------------------ casts


def _cast(fn: Callable[[ScalarValue, Type, Type, Operation], ScalarValue]) -> Handler:
    """A scalar cast: `fn(value, source type, target type, op)`."""
    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        source = op.operands[0].type
        target = _result_type(op)
        if not isinstance(source, (IntegerType, IndexType, FloatType)):
            raise UnsupportedOperation(f"'{op.name}' from {source}: only scalars are supported")
        return [fn(operands[0], source, target, op)]

    return handler


def _float_to_int(signed: bool) -> Callable[[ScalarValue, Type, Type, Operation], ScalarValue]:
    """fptosi/fptoui: round toward zero; NaN, infinities and out-of-range values are
    poison (undefined)."""
    def convert(value: ScalarValue, source: Type, target: Type, op: Operation) -> ScalarValue:
        if math.isnan(value) or math.isinf(value):
            raise UndefinedBehavior(f"'{op.name}' of {value}")
        truncated = math.trunc(value)
        width = _int_width(target)
        low, high = ((-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed
                     else (0, (1 << width) - 1))
        if not low <= truncated <= high:
            raise UndefinedBehavior(f"'{op.name}' of {value} does not fit in {target}")
        return canonical_int(truncated, target)

    return convert


def _bitcast(value: ScalarValue, source: Type, target: Type, op: Operation) -> ScalarValue:
    """The same bits read as the target type (a NaN's bits are not kept: unmodelled)."""
    if isinstance(source, FloatType):
        if math.isnan(value):
            raise UnmodelledNaN("bitcast of a NaN (its payload is not kept)")
        bits = float_to_bits(value, source)
    else:
        bits = to_unsigned(value, source)
    if isinstance(target, FloatType):
        return bits_to_float(bits, target)
    return canonical_int(bits, target)


def _truncf(value: ScalarValue, source: Type, target: Type, op: Operation) -> ScalarValue:
    """Rounded in the op's rounding mode (default: to nearest even)."""
    mode = op.attributes.get("roundingmode")
    return round_float(value, target, ROUNDING_MODES[mode.value] if mode is not None
                       else "to_nearest_even")


_CASTS: dict[str, Callable[[ScalarValue, Type, Type, Operation], ScalarValue]] = {
    "arith.index_cast": lambda v, s, t, op: canonical_int(to_signed(v, s), t),
    "arith.index_castui": lambda v, s, t, op: canonical_int(to_unsigned(v, s), t),
    "arith.bitcast": _bitcast,
    "arith.extsi": lambda v, s, t, op: canonical_int(to_signed(v, s), t),
    "arith.extui": lambda v, s, t, op: canonical_int(to_unsigned(v, s), t),
    "arith.trunci": lambda v, s, t, op: canonical_int(v, t),
    "arith.sitofp": lambda v, s, t, op: round_int_to_float(to_signed(v, s), t),
    "arith.uitofp": lambda v, s, t, op: round_int_to_float(to_unsigned(v, s), t),
    "arith.fptosi": _float_to_int(True),
    "arith.fptoui": _float_to_int(False),
    "arith.extf": lambda v, s, t, op: _quieted(round_float(v, t)),
    "arith.truncf": _truncf,
}

for _name, _convert in _CASTS.items():
    register_handler(_name)(_cast(_convert))


# ============================================================================ ub and math


@register_handler("ub.poison")
def _poison(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Poison, passed on lazily as a shift by the bit width's is (see the module docstring)."""
    return [POISON] * len(op.results)


def _float_function(fn: Callable[..., float]) -> Handler:
    """A math op on scalar floats: `fn` on the operands (doubles holding values of the
    type), rounded once to the type; `nnan`/`ninf` as for arith's float ops."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        result = round_float(fn(*operands), _result_type(op))
        _check_fastmath(op, [*operands, result])
        return [result]

    return handler


def _nan_on_domain_error(fn: Callable[[float], float]) -> Callable[[float], float]:
    """`fn` with C's answers where Python raises: NaN outside the domain (sin of an
    infinity, log or sqrt of a negative number), an infinity past the range."""

    def checked(x: float) -> float:
        if math.isnan(x):
            return x
        try:
            return fn(x)
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan

    return checked


def _log(base_log: Callable[[float], float]) -> Callable[[float], float]:
    """log/log2: -inf at zero (either sign), NaN below it."""

    def log(x: float) -> float:
        if x == 0.0:
            return -math.inf
        return _nan_on_domain_error(base_log)(x)

    return log


def _rsqrt(x: float) -> float:
    """1 / sqrt(x): infinity of x's sign at a zero, NaN below zero."""
    if x == 0.0:
        return math.copysign(math.inf, x)
    return _nan_on_domain_error(lambda v: 1.0 / math.sqrt(v))(x)


def _is_odd_integer(x: float) -> bool:
    return math.isfinite(x) and x == math.floor(x) and math.fmod(x, 2.0) != 0.0


def _pow(a: float, b: float) -> float:
    """C's pow: a zero to a negative power is an infinity (signed for an odd power of
    -0.0), a negative base to a non-integral power NaN, overflow an infinity."""
    try:
        return math.pow(a, b)
    except OverflowError:
        return -math.inf if a < 0 and _is_odd_integer(b) else math.inf
    except ValueError:
        if a == 0.0:
            return math.copysign(math.inf, a) if _is_odd_integer(b) else math.inf
        return math.nan


def _round_half_away(x: float) -> float:
    """C's round: halfway cases away from zero; the sign of a zero result kept."""
    if not math.isfinite(x):
        return x
    return math.copysign(math.floor(abs(x) + 0.5) if abs(x) < 2.0 ** 52 else abs(x), x)


def _integral(rounding: Callable[[float], int]) -> Callable[[float], float]:
    """floor/ceil on floats: infinities and NaN unchanged, a zero result signed as x."""

    def rounded(x: float) -> float:
        if not math.isfinite(x):
            return x
        return math.copysign(float(rounding(x)), x)

    return rounded


def _fma(a: float, b: float, c: float) -> float:
    """a * b + c computed exactly, then rounded to a double (rounded again to a
    narrower type by the handler: for f32 and smaller, two roundings)."""
    from fractions import Fraction

    if not all(math.isfinite(v) for v in (a, b, c)):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:  # the sign of a zero sum, as IEEE-754 gives it
        return (a * b) + c
    try:
        return float(exact)
    except OverflowError:
        return math.copysign(math.inf, exact)


def _odd_overflow(fn: Callable[[float], float]) -> Callable[[float], float]:
    """An odd function (sinh) whose overflow is an infinity of x's sign."""

    def checked(x: float) -> float:
        try:
            return fn(x)
        except OverflowError:
            return math.copysign(math.inf, x)

    return checked


def _atanh(x: float) -> float:
    """atanh: ±inf at ±1, NaN outside [-1, 1] (Python raises at both)."""
    if abs(x) == 1.0:
        return math.copysign(math.inf, x)
    return _nan_on_domain_error(math.atanh)(x)


_MATH: dict[str, Callable[..., float]] = {
    "math.absf": abs,
    "math.sin": _nan_on_domain_error(math.sin),
    "math.cos": _nan_on_domain_error(math.cos),
    "math.exp": _nan_on_domain_error(math.exp),
    "math.exp2": _nan_on_domain_error(lambda x: math.pow(2.0, x)),
    "math.log": _log(math.log),
    "math.log2": _log(math.log2),
    "math.expm1": _nan_on_domain_error(math.expm1),
    "math.log1p": lambda x: -math.inf if x == -1.0 else _nan_on_domain_error(math.log1p)(x),
    "math.tanh": math.tanh,
    "math.sqrt": lambda x: math.copysign(0.0, x) if x == 0.0 else
    _nan_on_domain_error(math.sqrt)(x),
    "math.rsqrt": _rsqrt,
    "math.erf": math.erf,
    "math.floor": _integral(math.floor),
    "math.ceil": _integral(math.ceil),
    "math.round": _round_half_away,
    "math.powf": _pow,
    "math.copysign": math.copysign,
    "math.fma": _fma,
    "math.tan": _nan_on_domain_error(math.tan),
    "math.asin": _nan_on_domain_error(math.asin),
    "math.acos": _nan_on_domain_error(math.acos),
    "math.atan": math.atan,
    "math.sinh": _odd_overflow(math.sinh),
    "math.cosh": _nan_on_domain_error(math.cosh),
    "math.asinh": math.asinh,
    "math.acosh": _nan_on_domain_error(math.acosh),
    "math.atanh": _atanh,
    "math.roundeven": _integral(round),
}

for _name, _function in _MATH.items():
    register_handler(_name)(_float_function(_function))


@register_handler("math.ipowi")
def _ipowi(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    from mlc.ir.dialects.math import integer_power

    type_ = _result_type(op)
    base, exponent = (to_signed(v, type_) for v in operands)
    result = integer_power(base, exponent, _int_width(type_))
    if result is None:
        raise UndefinedBehavior(f"'{op.name}': zero raised to the negative power {exponent} "
                                "(a division by zero)")
    return [canonical_int(result, type_)]


# ============================================================================ vectors

ELEMENTWISE_OPS = frozenset(name for name in OP_HANDLERS
                            if name.startswith(("arith.", "math."))) - {"arith.constant"}
"""The ops that apply to vectors element by element."""


def _poisoned(name: str, operands: list) -> bool:
    """Whether an elementwise op's result is poison: an operand is, or for `select`
    its condition is (the value it does not pick may be)."""
    if name == "arith.select":
        return operands[0] is POISON
    return any(v is POISON for v in operands)


def _has_vector_operand_or_result(op: Operation) -> bool:
    return any(isinstance(v.type, VectorType) for v in (*op.operands, *op.results))


class _TypedValue:
    __slots__ = ("type",)

    def __init__(self, type_: Type):
        self.type = type_


class _ElementView:
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


def _map_elements(interp: Interpreter, handler: Handler, op: Operation,
                  operands: list) -> list:
    """Run the scalar `handler` on each element (a scalar operand, such as select's
    condition, applies to every element)."""
    view = _ElementView(op)
    count = math.prod(next(v.type for v in (*op.operands, *op.results)
                           if isinstance(v.type, VectorType)).shape)
    columns: list[list] = [[] for _ in op.results]
    for i in range(count):
        scalars = [v[i] if isinstance(v, tuple) else v for v in operands]
        results = ([POISON] * len(columns) if _poisoned(op.name, scalars)
                   else handler(interp, view, scalars))
        for column, result in zip(columns, results):
            column.append(result)
    return [tuple(column) for column in columns]


def _dense_elements(attr, type_: VectorType) -> tuple:
    """The values of a dense constant, in the interpreter's representation."""
    from mlc.ir.core.attributes import DenseElementsAttr

    element = type_.element_type
    if not isinstance(attr, DenseElementsAttr):
        raise UnsupportedOperation(f"constant {attr} is not supported")
    if isinstance(element, FloatType):
        if element.name in ("f16", "f32", "f64"):
            return tuple(float(v) for v in attr.array.flat)
        return tuple(float_of_bits(int(v), element) for v in attr.array.flat)
    return tuple(canonical_int(int(v), element) for v in attr.array.flat)


def _as_array(value, type_: Type):
    """A vector value as a numpy object array of its shape (a scalar as itself)."""
    import numpy as np

    if not isinstance(type_, VectorType):
        return value
    array = np.empty(len(value), dtype=object)
    array[:] = list(value)
    return array.reshape(type_.shape)


def _from_array(array, type_: Type):
    if not isinstance(type_, VectorType):
        return array
    return tuple(array.reshape(-1).tolist())


def _array_attr_ints(attr) -> list[int]:
    return [a.value for a in attr.elements]


@register_handler("vector.extract")
def _vector_extract(interp: Interpreter, op: Operation, operands: list) -> list:
    """The element or sub-vector at the static position."""
    position = tuple(op.attributes["static_position"].values)
    array = _as_array(operands[0], op.operands[0].type)
    return [_from_array(array[position], op.results[0].type)]


@register_handler("vector.insert")
def _vector_insert(interp: Interpreter, op: Operation, operands: list) -> list:
    """The dest with the element or sub-vector at the static position replaced."""
    position = tuple(op.attributes["static_position"].values)
    array = _as_array(operands[1], op.operands[1].type).copy()
    array[position] = _as_array(operands[0], op.operands[0].type)
    return [_from_array(array, op.results[0].type)]


@register_handler("vector.extract_strided_slice")
def _vector_extract_strided_slice(interp: Interpreter, op: Operation, operands: list) -> list:
    """The slice at `offsets` of `sizes`, every `strides`-th element."""
    offsets, sizes, strides = (_array_attr_ints(op.attributes[k])
                               for k in ("offsets", "sizes", "strides"))
    array = _as_array(operands[0], op.operands[0].type)
    index = tuple(slice(o, o + n * s, s) for o, n, s in zip(offsets, sizes, strides))
    return [_from_array(array[index], op.results[0].type)]


@register_handler("vector.insert_strided_slice")
def _vector_insert_strided_slice(interp: Interpreter, op: Operation, operands: list) -> list:
    """The dest with the slice at `offsets` replaced by the source."""
    source_type, dest_type = op.operands[0].type, op.operands[1].type
    offsets = _array_attr_ints(op.attributes["offsets"])
    strides = [1] * (len(dest_type.shape) - len(source_type.shape)) + \
        _array_attr_ints(op.attributes["strides"])
    sizes = [1] * (len(dest_type.shape) - len(source_type.shape)) + list(source_type.shape)
    array = _as_array(operands[1], dest_type).copy()
    index = tuple(slice(o, o + n * s, s) for o, n, s in zip(offsets, sizes, strides))
    array[index] = _as_array(operands[0], source_type).reshape(sizes)
    return [_from_array(array, op.results[0].type)]


@register_handler("vector.shape_cast")
def _vector_shape_cast(interp: Interpreter, op: Operation, operands: list) -> list:
    """The same elements in the same order."""
    return [operands[0]]


@register_handler("vector.broadcast")
def _vector_broadcast(interp: Interpreter, op: Operation, operands: list) -> list:
    """numpy's broadcast of the source to the result shape."""
    import numpy as np

    result_type = op.results[0].type
    source = _as_array(operands[0], op.operands[0].type)
    array = np.empty(1, dtype=object)
    array[0] = source
    source = source if isinstance(op.operands[0].type, VectorType) else array.reshape(())
    return [_from_array(np.broadcast_to(source, result_type.shape), result_type)]


# The handlers of dialects kept in modules of their own register themselves here.
from mlc.ir.dialects import memref_semantics, scf_semantics, vector_semantics  # noqa: E402, F401
