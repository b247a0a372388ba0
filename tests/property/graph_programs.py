"""Hypothesis strategies for random graph-dialect programs: `@main` functions whose
ops form random DAGs over a few parameters, with multi-use values, small shapes and
a mix of every fusion pattern kind.

    @given(graph_programs())
    def test_something(program):
        module = program.module()               # a fresh, verified module
        outputs = evaluate(module, program.inputs())

What is generated (each kind only when the graph dialect declares its op, so the
strategy keeps working while ops are being added):

- elementwise: relu, neg, abs, tanh, clip, leaky_relu, sigmoid, exp, dropout, ONNX's
  activations (elu, selu, celu, thresholded_relu, softplus, softsign, mish,
  hard_sigmoid, hard_swish, swish), and cast round trips (f32 -> f64 -> f32 folds
  away, f32 -> f16 -> f32 must not);
- broadcast: add, subtract, multiply, maximum, minimum between values, and with
  constants of every broadcasting shape (scalar, per channel, full, one that
  broadcasts the value up), including splats of 1 and 0 and per-channel scales;
  divide by constants away from zero; bias_add; prelu with a constant slope;
- injective: reshape (and to the same shape), flatten, transpose (and of a
  transpose), expand_dims then squeeze, slice, pad, concat;
- reductions (sum, mean, max, min), softmax, pooling;
- conv2d (groups, depthwise, strides, padding, dilation), dense, batch_norm (any
  axis), layer_norm, with constant weights, or parameters for weights;
- constant-only subgraphs (so fold-constant has work) and values used many times.

Values stay in the ops' domains and bounded: every value carries a bound on its
magnitude (inputs are in [-1, 1]; weights are scaled by their fan-in), and an op is
only generated while its result's bound stays below BOUND_LIMIT, so float32 neither
overflows nor warns (the tests run with `-W error`). Structure is drawn from
hypothesis (so it shrinks); the numbers in constants come from a numpy generator
seeded by a drawn integer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from mlc.graph import GraphBuilder
from mlc.graph.dialect import graph
from mlc.ir import Context, Operation, parse_module, print_op, verify
from mlc.ir.core.attributes import TypeAttr, f16, f64
from mlc.ir.core.ir import Value

BOUND_LIMIT = 1e4  # largest magnitude a generated value may reach (float32 stays exact enough)

# ONNX's activations: attribute values, and a bound of the result from the operand's.
ACTIVATIONS = {
    "elu": ({"alpha": 0.5}, lambda b: b),
    "selu": ({}, lambda b: 1.06 * max(b, 1.68)),
    "celu": ({"alpha": 2.0}, lambda b: max(b, 2.0)),
    "thresholded_relu": ({"alpha": 0.25}, lambda b: b),
    "softplus": ({}, lambda b: b + 0.7),
    "softsign": ({}, lambda b: 1.0),
    "mish": ({}, lambda b: b),
    "hard_sigmoid": ({"alpha": 0.3, "beta": 0.4}, lambda b: 1.0),
    "hard_swish": ({}, lambda b: b),
    "swish": ({"alpha": 1.5}, lambda b: b),
}


@dataclass(frozen=True)
class GraphProgram:
    """A generated program: its text, and the shapes of @main's parameters."""

    text: str
    arg_shapes: tuple[tuple[int, ...], ...]

    def module(self) -> Operation:
        """A fresh module of the program (passes change modules in place)."""
        module = parse_module(self.text, Context())
        verify(module)
        return module

    def inputs(self, seed: int = 0) -> list[np.ndarray]:
        """Arguments for @main: float32 values uniform in [-1, 1]."""
        rng = np.random.default_rng(seed)
        return [rng.uniform(-1, 1, shape).astype(np.float32) for shape in self.arg_shapes]


@dataclass
class _Value:
    value: Value
    bound: float  # an upper bound of every element's magnitude
    constant: bool  # computed from constants only

    @property
    def shape(self) -> tuple[int, ...]:
        return self.value.type.shape


def _declared(*names: str) -> bool:
    return all(f"graph.{n}" in graph.ops for n in names)


def _has_attrs(name: str, *attrs: str) -> bool:
    cls = graph.ops.get(f"graph.{name}")
    return cls is not None and all(a in cls.op_def.attributes for a in attrs)


def _broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    rank = max(len(a), len(b))
    a, b = (1,) * (rank - len(a)) + a, (1,) * (rank - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(out)


class _Generator:
    """Builds one program step by step; every `step_*` method adds one op (or a few)
    to the pool, or returns False when it does not apply to the pool as it is."""

    def __init__(self, draw, seed: int):
        self.draw = draw
        self.rng = np.random.default_rng(seed)
        self.b = GraphBuilder()
        self.pool: list[_Value] = []
        self.arg_shapes: list[tuple[int, ...]] = []

    # ------------------------------------------------------------------ helpers

    def add(self, value: Value, bound: float, constant: bool) -> _Value:
        entry = _Value(value, float(bound), constant)
        self.pool.append(entry)
        return entry

    def param(self, shape: Sequence[int]) -> _Value:
        shape = tuple(shape)
        value = self.b.param(f"x{len(self.arg_shapes)}", shape)
        self.arg_shapes.append(shape)
        return self.add(value, 1.0, False)

    def constant(self, array: np.ndarray) -> _Value:
        array = np.asarray(array, np.float32)
        bound = float(np.abs(array).max()) if array.size else 0.0
        return self.add(self.b.const(array), bound, True)

    def pick(self, accept: Callable[[_Value], bool] = lambda v: True) -> _Value | None:
        """A value of the pool satisfying `accept`, the most recent ones more likely
        (deep chains), any of them possible (many uses)."""
        candidates = [v for v in self.pool if accept(v)]
        if not candidates:
            return None
        if self.draw(st.booleans()):
            return candidates[-1 - self.draw(st.integers(0, min(2, len(candidates) - 1)))]
        return candidates[self.draw(st.integers(0, len(candidates) - 1))]

    def uniform(self, shape, low: float = -1.0, high: float = 1.0) -> np.ndarray:
        return self.rng.uniform(low, high, shape).astype(np.float32)

    def constant_like(self, shape: tuple[int, ...], kind: str) -> np.ndarray:
        """A constant operand for a value of `shape`: its shape chosen to broadcast
        in one of the ways models do, its elements by `kind`."""
        shapes = [(), shape]
        if len(shape) >= 2:
            shapes.append((shape[1],) + (1,) * (len(shape) - 2))  # per channel (NCHW)
            shapes.append((1,) + shapes[-1])
        if len(shape) >= 1:
            shapes.append((shape[-1],))  # per feature (last axis)
            shapes.append((2,) + shape)  # broadcasts the value up
        target = self.draw(st.sampled_from(shapes))
        if kind == "one":
            return np.ones(target, np.float32)
        if kind == "zero":
            return np.zeros(target, np.float32)
        if kind == "away_from_zero":
            return (self.uniform(target, 0.5, 2.0) * self.rng.choice([-1, 1], target)).astype(np.float32)
        return self.uniform(target, -2.0, 2.0)

    # ------------------------------------------------------------------ steps

    def step_param(self) -> bool:
        if len(self.arg_shapes) >= 3:
            return False
        self.param(self.draw(_shapes()))
        return True

    def step_constant(self) -> bool:
        base = self.pick()
        shape = base.shape if base is not None else self.draw(_shapes())
        self.constant(self.uniform(shape))
        return True

    def step_unary(self) -> bool:
        x = self.pick()
        name = self.draw(st.sampled_from(["relu", "neg", "abs", "tanh", "clip", "leaky_relu",
                                          "sigmoid", "exp", "dropout", "cast", *ACTIVATIONS]))
        if name == "exp" and x.bound > 8:
            return False
        if name == "cast":
            middle = self.draw(st.sampled_from([f64, f16]))
            if middle == f16 and x.bound > 6e4:
                return False
            # TypeAttr spelled out: GraphAttr.to_attr passes a bare type through as if it
            # were already the attribute.
            wide = self.b.cast(x.value, dtype=TypeAttr(middle))
            self.add(self.b.cast(wide, dtype=TypeAttr(x.value.type.element_type)), x.bound, x.constant)
            return True
        if not _declared(name):
            return False
        bound = {"tanh": 1.0, "sigmoid": 1.0, "exp": math.exp(x.bound)}.get(name, x.bound)
        attrs = {}
        if name in ACTIVATIONS:
            attrs, bound_of = ACTIVATIONS[name]
            bound = bound_of(x.bound)
        if name == "clip":
            low = self.draw(st.sampled_from([-1.0, 0.0]))
            attrs = {"min": low, "max": self.draw(st.sampled_from([1.0, 6.0]))}
            bound = min(x.bound, attrs["max"])
        if name == "leaky_relu":
            attrs = {"alpha": 0.1}
        self.add(getattr(self.b, name)(x.value, **attrs), bound, x.constant)
        return True

    def step_binary(self) -> bool:
        x = self.pick()
        name = self.draw(st.sampled_from(["add", "subtract", "multiply", "maximum", "minimum",
                                          "prelu"]))
        if name == "prelu":  # the slope broadcasts one way, to x
            y = self.constant(self.constant_like(x.shape, "random"))
            if _broadcast(y.shape, x.shape) != x.shape or x.bound * y.bound > BOUND_LIMIT:
                return False
            self.add(self.b.prelu(x.value, y.value), x.bound * max(1.0, y.bound), x.constant)
            return True
        if self.draw(st.booleans()):
            y = self.pick(lambda v: _broadcast(v.shape, x.shape) is not None and v.value is not x.value
                          and len(_broadcast(v.shape, x.shape)) <= 4)
        else:
            kind = self.draw(st.sampled_from(["random", "one", "zero"]))
            y = self.constant(self.constant_like(x.shape, kind))
        if y is None:
            return False
        bound = {"add": x.bound + y.bound, "subtract": x.bound + y.bound,
                 "multiply": x.bound * y.bound}.get(name, max(x.bound, y.bound))
        if bound > BOUND_LIMIT:
            return False
        lhs, rhs = (x, y) if self.draw(st.booleans()) else (y, x)
        self.add(getattr(self.b, name)(lhs.value, rhs.value), bound, x.constant and y.constant)
        return True

    def step_divide(self) -> bool:
        x = self.pick()
        y = self.constant(self.constant_like(x.shape, self.draw(st.sampled_from(["one", "away_from_zero"]))))
        self.add(self.b.divide(x.value, y.value), x.bound * 2, x.constant)
        return True

    def step_scale(self) -> bool:
        """multiply by a per-channel (or scalar) constant, right after a conv2d or
        dense: what graph-fold-scale-axis folds."""
        x = self.pick(lambda v: v.value.defining_op is not None
                      and v.value.defining_op.name in ("graph.conv2d", "graph.dense"))
        if x is None:
            return False
        axis = 1 if x.value.defining_op.name == "graph.conv2d" else len(x.shape) - 1
        channels = x.shape[axis]
        shape = self.draw(st.sampled_from([(), (channels,) + (1,) * (len(x.shape) - axis - 1),
                                           (1,) * axis + (channels,) + (1,) * (len(x.shape) - axis - 1)]))
        scale = self.uniform(shape, 0.5, 2.0)
        if self.draw(st.booleans()):  # through a bias
            bias = self.constant(self.uniform((channels,) + (1,) * (len(x.shape) - axis - 1)))
            x = self.add(self.b.add(x.value, bias.value), x.bound + bias.bound, x.constant)
        s = self.constant(scale)
        self.add(self.b.multiply(x.value, s.value), x.bound * 2, x.constant)
        return True

    def step_bias_add(self) -> bool:
        if not _has_attrs("bias_add", "axis"):
            return False
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return False
        axis = self.draw(st.integers(0, len(x.shape) - 1))
        bias = self.constant(self.uniform((x.shape[axis],)))
        self.add(self.b.bias_add(x.value, bias.value, axis=axis), x.bound + bias.bound, x.constant)
        return True

    def step_reshape(self) -> bool:
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return False
        shape = x.shape
        choice = self.draw(st.sampled_from(["same", "flat", "merge", "split"]))
        if choice == "same":
            target = shape
        elif choice == "flat":
            target = (-1,)
        elif choice == "merge" and len(shape) >= 2:
            i = self.draw(st.integers(0, len(shape) - 2))
            target = shape[:i] + (shape[i] * shape[i + 1],) + shape[i + 2:]
        elif choice == "split" and len(shape) <= 3:
            target = (1,) + shape
        else:
            return False
        self.add(self.b.reshape(x.value, shape=target), x.bound, x.constant)
        return True

    def step_flatten(self) -> bool:
        if not _declared("flatten"):
            return False
        x = self.pick(lambda v: len(v.shape) >= 2)
        if x is None:
            return False
        self.add(self.b.flatten(x.value), x.bound, x.constant)
        return True

    def step_transpose(self) -> bool:
        if not _declared("transpose"):
            return False
        x = self.pick(lambda v: len(v.shape) >= 2)
        if x is None:
            return False
        for _ in range(self.draw(st.integers(1, 2))):  # twice: a pair to compose
            perm = self.draw(st.permutations(range(len(x.shape))))
            x = self.add(self.b.transpose(x.value, axes=tuple(perm)), x.bound, x.constant)
        return True

    def step_expand_squeeze(self) -> bool:
        if not _declared("expand_dims", "squeeze"):
            return False
        x = self.pick(lambda v: len(v.shape) <= 3)
        if x is None:
            return False
        axis = self.draw(st.integers(0, len(x.shape)))
        x = self.add(self.b.expand_dims(x.value, axis=axis), x.bound, x.constant)
        if self.draw(st.booleans()):
            self.add(self.b.squeeze(x.value, axes=(axis,)), x.bound, x.constant)
        return True

    def step_slice_pad(self) -> bool:
        x = self.pick(lambda v: len(v.shape) >= 1 and v.shape[-1] >= 2)
        if x is None:
            return False
        if self.draw(st.booleans()):
            if not _has_attrs("slice", "starts", "ends", "axes"):
                return False
            rank = len(x.shape)
            self.add(self.b.slice(x.value, starts=(1,), ends=(x.shape[-1],), axes=(rank - 1,)),
                     x.bound, x.constant)
        else:
            if not _has_attrs("pad", "pads"):
                return False
            pads = (0,) * (2 * len(x.shape) - 1) + (1,)
            self.add(self.b.pad(x.value, pads=pads), x.bound, x.constant)
        return True

    def step_concat(self) -> bool:
        if not _has_attrs("concat", "axis"):
            return False
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return False
        y = self.pick(lambda v: v.shape == x.shape) or x  # x twice: one value, two uses
        self.add(self.b.concat([x.value, y.value], axis=len(x.shape) - 1),
                 max(x.bound, y.bound), x.constant and y.constant)
        return True

    def step_split(self) -> bool:
        # Several results: fusion reads each through a get-item node.
        if not _declared("split"):
            return False
        x = self.pick(lambda v: len(v.shape) >= 1 and v.shape[-1] >= 2)
        if x is None:
            return False
        extent = x.shape[-1]
        first = self.draw(st.integers(1, extent - 1))
        pieces = self.b.split(x.value, sections=(first, extent - first), axis=len(x.shape) - 1)
        for piece in pieces:
            self.add(piece, x.bound, x.constant)
        return True

    def step_reduce(self) -> bool:
        name = self.draw(st.sampled_from(["sum", "mean", "max", "min"]))
        if not _has_attrs(name, "axes", "keepdims"):
            return False
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return False
        axis = self.draw(st.integers(0, len(x.shape) - 1))
        keepdims = self.draw(st.booleans())
        bound = x.bound * (x.shape[axis] if name == "sum" else 1)
        if bound > BOUND_LIMIT:
            return False
        self.add(getattr(self.b, name)(x.value, axes=(axis,), keepdims=keepdims), bound, x.constant)
        return True

    def step_softmax(self) -> bool:
        if not _has_attrs("softmax", "axis"):
            return False
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return False
        self.add(self.b.softmax(x.value, axis=-1), 1.0, x.constant)
        return True

    def step_pool(self) -> bool:
        x = self.pick(lambda v: len(v.shape) == 4 and v.shape[2] >= 2 and v.shape[3] >= 2)
        if x is None:
            return False
        name = self.draw(st.sampled_from(["max_pool2d", "avg_pool2d", "global_avg_pool2d"]))
        if name == "global_avg_pool2d":
            if not _declared(name):
                return False
            self.add(self.b.global_avg_pool2d(x.value), x.bound, x.constant)
            return True
        if not _has_attrs(name, "pool_size", "strides"):
            return False
        self.add(getattr(self.b, name)(x.value, pool_size=(2, 2), strides=(1, 1)), x.bound, x.constant)
        return True

    def step_conv2d(self) -> bool:
        x = self.pick(lambda v: len(v.shape) == 4 and not v.constant)
        if x is None:
            return False
        n, c, h, w = x.shape
        groups = self.draw(st.sampled_from([g for g in range(1, c + 1) if c % g == 0]))
        out = groups * self.draw(st.integers(1, max(1, 4 // groups)))
        pad = self.draw(st.integers(0, 1))
        kh = self.draw(st.integers(1, min(3, h + 2 * pad)))
        kw = self.draw(st.integers(1, min(3, w + 2 * pad)))
        stride = self.draw(st.integers(1, 2))
        dilation = 2 if self.draw(st.integers(0, 4)) == 0 and h + 2 * pad >= 2 * kh - 1 \
            and w + 2 * pad >= 2 * kw - 1 else 1
        weight_shape = (out, c // groups, kh, kw)
        fan_in = (c // groups) * kh * kw
        if self.draw(st.integers(0, 4)) == 0:
            weight = self.param(weight_shape)
            gain = fan_in
        else:
            weight = self.constant(self.uniform(weight_shape) / fan_in)
            gain = 1.0  # |W| <= 1/fan_in: each output is at most max |x|
        bound = x.bound * gain
        if bound > BOUND_LIMIT:
            return False
        self.add(self.b.conv2d(x.value, weight.value, strides=(stride, stride), padding=pad,
                               dilation=(dilation, dilation), groups=groups), bound, False)
        return True

    def step_dense(self) -> bool:
        x = self.pick(lambda v: 1 <= len(v.shape) <= 3 and not v.constant)
        if x is None:
            return False
        k = x.shape[-1]
        units = self.draw(st.integers(1, 4))
        if self.draw(st.integers(0, 4)) == 0:
            weight, gain = self.param((units, k)), k
        else:
            weight, gain = self.constant(self.uniform((units, k)) / k), 1.0
        if x.bound * gain > BOUND_LIMIT:
            return False
        self.add(self.b.dense(x.value, weight.value), x.bound * gain, False)
        return True

    def step_batch_norm(self) -> bool:
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return False
        axis = self.draw(st.integers(0, len(x.shape) - 1))
        channels = x.shape[axis]
        gamma, beta, mean = (self.uniform((channels,)) for _ in range(3))
        var = self.uniform((channels,), 0.25, 2.0)
        operands = [self.constant(a) for a in (gamma, beta, mean, var)]
        if self.draw(st.integers(0, 4)) == 0:  # statistics that are not constants
            operands[2] = self.param((channels,))
        bound = (x.bound + 1.0) * 2.0 + 1.0  # |x - mean| / sqrt(var) * |gamma| + |beta|
        if bound > BOUND_LIMIT:
            return False
        self.add(self.b.batch_norm(x.value, *(o.value for o in operands), axis=axis), bound,
                 x.constant and all(o.constant for o in operands))
        return True

    def step_layer_norm(self) -> bool:
        x = self.pick(lambda v: len(v.shape) >= 1 and v.shape[-1] >= 2)
        if x is None:
            return False
        axis = self.draw(st.integers(-min(2, len(x.shape)), -1))
        trailing = x.shape[axis:]
        gamma, beta = self.constant(self.uniform(trailing)), self.constant(self.uniform(trailing))
        bound = math.sqrt(math.prod(trailing)) + 1.0
        self.add(self.b.layer_norm(x.value, gamma.value, beta.value, axis=axis), bound, x.constant)
        return True

    STEPS = ("param", "constant", "unary", "binary", "divide", "scale", "bias_add", "reshape", "split",
             "flatten", "transpose", "expand_squeeze", "slice_pad", "concat", "reduce",
             "softmax", "pool", "conv2d", "dense", "batch_norm", "layer_norm")

    # ------------------------------------------------------------------ the program

    def finish(self) -> GraphProgram:
        """Return every value nobody uses (the sinks of the DAG) that an op computed."""
        outputs = [v.value for v in self.pool
                   if not v.value.uses and v.value.defining_op is not None
                   and v.value.defining_op.name != "graph.constant"]
        if not outputs:
            outputs = [self.pool[-1].value]
        module = self.b.module(*outputs)
        verify(module)
        return GraphProgram(print_op(module), tuple(self.arg_shapes))


def _shapes() -> st.SearchStrategy[tuple[int, ...]]:
    """Small parameter shapes: NCHW images, (N, features), vectors."""
    dim = st.integers(1, 4)
    return st.one_of(
        st.tuples(st.integers(1, 2), dim, st.integers(1, 5), st.integers(1, 5)),
        st.tuples(st.integers(1, 2), st.integers(1, 6)),
        st.tuples(st.integers(1, 6)),
    )


@st.composite
def graph_programs(draw, min_ops: int = 1, max_ops: int = 12,
                   steps: Sequence[str] = _Generator.STEPS) -> GraphProgram:
    """A random graph program of `min_ops` to `max_ops` generation steps, each one of
    `steps` (names of `_Generator.step_*`)."""
    gen = _Generator(draw, draw(st.integers(0, 2**32 - 1)))
    gen.param(draw(_shapes()))
    target = draw(st.integers(min_ops, max_ops))
    done = attempts = 0
    while done < target and attempts < 4 * max_ops:
        attempts += 1
        if getattr(gen, f"step_{draw(st.sampled_from(list(steps)))}")():
            done += 1
    return gen.finish()
