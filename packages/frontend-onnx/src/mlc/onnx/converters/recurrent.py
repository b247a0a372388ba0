"""ONNX's recurrent layers (RNN, GRU, LSTM), unrolled over their static sequence
length as TVM's ONNX frontend does: the input projections of every step in one dense,
then one step's gates after another (a dense with the recurrence weights, the gate
activations, the state update), each direction on its own.

`sequence_lens` (known or not at import) masks the steps past each batch entry's
length: the state stops changing there and the output is zero. A reverse direction
reads each entry's own sequence backwards: the steps are permuted per entry (index
len - 1 - t below len, t past it, a permutation that is its own inverse), run forward,
and permuted back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mlc.ir import Value, i64
from mlc.onnx.node import Node
from mlc.onnx.registry import converter

# ONNX's activation functions of recurrent layers: (takes alpha, takes beta, default
# alpha, default beta, how to build it).
_ACTIVATIONS: dict[str, tuple[bool, bool, float, float, Callable]] = {
    "Relu": (False, False, 0.0, 0.0, lambda b, x, a, c: b.relu(x)),
    "Tanh": (False, False, 0.0, 0.0, lambda b, x, a, c: b.tanh(x)),
    "Sigmoid": (False, False, 0.0, 0.0, lambda b, x, a, c: b.sigmoid(x)),
    "Softsign": (False, False, 0.0, 0.0, lambda b, x, a, c: b.softsign(x)),
    "Softplus": (False, False, 0.0, 0.0, lambda b, x, a, c: b.softplus(x)),
    "LeakyRelu": (True, False, 0.01, 0.0, lambda b, x, a, c: b.leaky_relu(x, alpha=a)),
    "ThresholdedRelu": (True, False, 1.0, 0.0, lambda b, x, a, c: b.thresholded_relu(x, alpha=a)),
    "Elu": (True, False, 1.0, 0.0, lambda b, x, a, c: b.elu(x, alpha=a)),
    "HardSigmoid": (True, True, 0.2, 0.5, lambda b, x, a, c: b.hard_sigmoid(x, alpha=a, beta=c)),
    "Affine": (True, True, 1.0, 0.0, lambda b, x, a, c: _affine(b, x, a, c)),
    "ScaledTanh": (True, True, 1.0, 1.0, lambda b, x, a, c: _scale(b, b.tanh(_scale(b, x, c)), a)),
}


def _scale(b, x: Value, factor: float) -> Value:
    return x if factor == 1.0 else b.multiply(x, b.const(np.array(factor), dtype=x.type.element_type))


def _affine(b, x: Value, alpha: float, beta: float) -> Value:
    y = _scale(b, x, alpha)
    return y if beta == 0.0 else b.add(y, b.const(np.array(beta), dtype=x.type.element_type))


Activation = Callable[[Value], Value]


@dataclass
class _Layer:
    """What one recurrent node says, its inputs in the (seq, batch, features) layout."""

    node: Node
    x: Value                       # (seq, batch, input)
    hidden: int
    directions: list[str]          # "forward" and/or "reverse"
    gates: int
    lengths: Value | None          # (batch,) int64, or None: every step counts
    activations: list[list[Activation]]  # per direction
    clip: float | None

    @property
    def seq(self) -> int:
        return self.x.type.shape[0]

    @property
    def batch(self) -> int:
        return self.x.type.shape[1]


def _layer(node: Node, gates: int, activations_per_direction: int,
           default_activations: list[str]) -> _Layer:
    b = node.b
    x = node.input(0)
    node.check(len(x.type.shape) == 3, f"X must be 3-D, got shape {list(x.type.shape)}")
    layout = node.attr("layout", 0)
    node.check(layout in (0, 1), f"layout {layout} is not supported")
    if layout == 1:
        x = b.transpose(x, axes=[1, 0, 2])
    direction = node.attr("direction", "forward")
    node.check(direction in ("forward", "reverse", "bidirectional"),
               f"direction '{direction}' is not supported")
    directions = ["forward", "reverse"] if direction == "bidirectional" else [direction]
    hidden = node.attr("hidden_size", None)
    if hidden is None:
        hidden = node.shape(2)[1]
    weight = node.input(1)
    node.check(tuple(weight.type.shape) == (len(directions), gates * hidden, x.type.shape[2]),
               f"W has shape {list(weight.type.shape)}, expected "
               f"{[len(directions), gates * hidden, x.type.shape[2]]}")
    names = node.attr("activations", default_activations * len(directions))
    node.check(len(names) == activations_per_direction * len(directions),
               f"{len(names)} activations for {len(directions)} direction(s), expected "
               f"{activations_per_direction} each")
    alphas = list(node.attr("activation_alpha", []))
    betas = list(node.attr("activation_beta", []))
    built: list[Activation] = []
    for name in names:
        known = _ACTIVATIONS.get(name)
        node.check(known is not None, f"activation '{name}' is not supported")
        takes_alpha, takes_beta, alpha, beta, build = known
        alpha = alphas.pop(0) if takes_alpha and alphas else alpha
        beta = betas.pop(0) if takes_beta and betas else beta
        built.append(lambda v, build=build, alpha=alpha, beta=beta: build(b, v, alpha, beta))
    per_direction = [built[i * activations_per_direction:(i + 1) * activations_per_direction]
                     for i in range(len(directions))]
    lengths = node.optional_input(4)
    if lengths is not None:
        try:
            known = node.known(lengths)
            if np.all(known == x.type.shape[0]):
                lengths = None  # every sequence is whole
        except Exception:  # noqa: BLE001 - lengths known only when run
            pass
    if lengths is not None and lengths.type.element_type != i64:
        lengths = b.cast(lengths, dtype=i64)
    clip = node.attr("clip", None)
    return _Layer(node, x, hidden, directions, gates, lengths, per_direction,
                  None if clip is None else float(clip))


def _slice(b, value: Value, axis: int, index: int, count: int = 1) -> Value:
    return b.slice(value, starts=[index], ends=[index + count], axes=[axis], steps=[1])


def _take(b, value: Value, axis: int, index: int) -> Value:
    """`value`'s entry `index` along `axis`, the axis dropped."""
    return b.squeeze(_slice(b, value, axis, index), axes=[axis])


def _initial(layer: _Layer, index: int, direction: int) -> Value:
    """The initial state of `direction` (input `index`: initial_h or initial_c), zeros
    when the node has none."""
    b, node = layer.node.b, layer.node
    element = layer.x.type.element_type
    state = node.optional_input(index)
    if state is None:
        return b.const(np.zeros((layer.batch, layer.hidden)), dtype=element)
    return _take(b, state, 0, direction)


def _step_masks(layer: _Layer) -> list[Value | None]:
    """Per step, (batch, 1) true where the step is inside that entry's sequence."""
    b = layer.node.b
    if layer.lengths is None:
        return [None] * layer.seq
    lengths = b.expand_dims(layer.lengths, axis=1)
    return [b.less(b.const(np.array(t, np.int64)), lengths) for t in range(layer.seq)]


def _per_entry_reversal(layer: _Layer, values: Value) -> Value:
    """`values` (seq, batch, n) with each entry's steps below its length reversed."""
    b = layer.node.b
    seq, batch, width = values.type.shape
    steps = b.const(np.arange(seq, dtype=np.int64).reshape(seq, 1))
    lengths = b.expand_dims(layer.lengths, axis=0)  # (1, batch)
    inside = b.less(steps, lengths)
    reversed_steps = b.subtract(b.subtract(lengths, b.const(np.array(1, np.int64))), steps)
    index = b.where(inside, reversed_steps, b.broadcast_to(steps, shape=[seq, batch]))
    index = b.broadcast_to(b.expand_dims(index, axis=2), shape=[seq, batch, width])
    return b.gather_elements(values, index, axis=0)


Cell = Callable[[Value, list[Value]], tuple[Value, list[Value]]]


def _run(layer: _Layer, projected: Value, states: list[Value], cell: Cell,
         reverse: bool) -> tuple[Value, list[Value]]:
    """Unroll `cell` over the steps of `projected` (seq, batch, gates·hidden: the
    input projection with its biases) from `states`: (Y of this direction
    (seq, batch, hidden), the final states)."""
    b = layer.node.b
    element = layer.x.type.element_type
    per_entry = reverse and layer.lengths is not None
    if per_entry:
        projected = _per_entry_reversal(layer, projected)
    order = range(layer.seq - 1, -1, -1) if reverse and not per_entry else range(layer.seq)
    masks = _step_masks(layer)
    zeros = b.const(np.zeros((layer.batch, layer.hidden)), dtype=element)
    outputs: dict[int, Value] = {}
    for t in order:
        output, new_states = cell(_take(b, projected, 0, t), states)
        mask = masks[t]
        if mask is not None:
            new_states = [b.where(mask, new, old) for new, old in zip(new_states, states)]
            output = b.where(mask, output, zeros)
        states = new_states
        outputs[t] = b.expand_dims(output, axis=0)
    y = b.concat([outputs[t] for t in range(layer.seq)], axis=0)
    if per_entry:
        y = _per_entry_reversal(layer, y)
    return y, states


def _projections(layer: _Layer, direction: int) -> tuple[Value, Value, Value | None]:
    """(X·Wᵀ + Wb + Rb for every step, R of the direction, Rb when a gate needs it
    apart (GRU's linear_before_reset), else None)."""
    b, node = layer.node.b, layer.node
    width = layer.gates * layer.hidden
    projected = b.dense(layer.x, _take(b, node.input(1), 0, direction))
    recurrence = _take(b, node.input(2), 0, direction)
    bias = node.optional_input(3)
    if bias is None:
        return projected, recurrence, None
    bias = _take(b, bias, 0, direction)
    input_bias, recurrence_bias = _slice(b, bias, 0, 0, width), _slice(b, bias, 0, width, width)
    return projected, recurrence, (input_bias, recurrence_bias)


def _gates(b, value: Value, count: int) -> list[Value]:
    parts = b.split(value, sections=[value.type.shape[-1] // count] * count, axis=-1)
    return parts if isinstance(parts, list) else [parts]


def _clipped(layer: _Layer, value: Value) -> Value:
    if layer.clip is None:
        return value
    return layer.node.b.clip(value, min=-layer.clip, max=layer.clip)


def _outputs(layer: _Layer, ys: list[Value], finals: list[list[Value]]) -> list[Value]:
    """Y (seq, directions, batch, hidden) and the final states (directions, batch,
    hidden), in the node's layout."""
    b, node = layer.node.b, layer.node
    y = b.concat([b.expand_dims(v, axis=1) for v in ys], axis=1)
    states = [b.concat([b.expand_dims(f[i], axis=0) for f in finals], axis=0)
              for i in range(len(finals[0]))]
    if node.attr("layout", 0) == 1:
        y = b.transpose(y, axes=[2, 0, 1, 3])
        states = [b.transpose(s, axes=[1, 0, 2]) for s in states]
    return [y, *states]


def _biased(b, projected: Value, biases) -> Value:
    if biases is None:
        return projected
    return b.add(b.add(projected, biases[0]), biases[1])


@converter("RNN", 7)
def rnn(node: Node) -> list[Value]:
    """Ht = f(Xt·Wᵀ + Ht-1·Rᵀ + Wb + Rb)."""
    layer = _layer(node, 1, 1, ["Tanh"])
    b = node.b
    ys, finals = [], []
    for d, direction in enumerate(layer.directions):
        projected, recurrence, biases = _projections(layer, d)
        [f] = layer.activations[d]

        def cell(x_t, states, recurrence=recurrence, f=f):
            h = f(_clipped(layer, b.add(x_t, b.dense(states[0], recurrence))))
            return h, [h]

        y, states = _run(layer, _biased(b, projected, biases), [_initial(layer, 5, d)], cell,
                         direction == "reverse")
        ys.append(y)
        finals.append(states)
    return _outputs(layer, ys, finals)


@converter("GRU", 7)
def gru(node: Node) -> list[Value]:
    """z, r = f(Xt·Wᵀ + Ht-1·Rᵀ + biases); h = g(Xt·Whᵀ + (r ⊙ Ht-1)·Rhᵀ + Rbh + Wbh),
    or with linear_before_reset g(Xt·Whᵀ + r ⊙ (Ht-1·Rhᵀ + Rbh) + Wbh);
    Ht = (1 - z) ⊙ h + z ⊙ Ht-1."""
    layer = _layer(node, 3, 2, ["Sigmoid", "Tanh"])
    b = node.b
    before_reset = bool(node.attr("linear_before_reset", 0))
    element = layer.x.type.element_type
    one = b.const(np.array(1.0), dtype=element)
    ys, finals = [], []
    for d, direction in enumerate(layer.directions):
        projected, recurrence, biases = _projections(layer, d)
        if biases is not None:
            projected = b.add(projected, biases[0])
        r_zr, r_h = _slice(b, recurrence, 0, 0, 2 * layer.hidden), \
            _slice(b, recurrence, 0, 2 * layer.hidden, layer.hidden)
        rb_zr = rb_h = None
        if biases is not None:
            rb_zr, rb_h = _gates(b, biases[1], 3)[:2], _gates(b, biases[1], 3)[2]
            rb_zr = b.concat(rb_zr, axis=0)
        f, g = layer.activations[d]

        def cell(x_t, states, r_zr=r_zr, r_h=r_h, rb_zr=rb_zr, rb_h=rb_h, f=f, g=g):
            h_prev = states[0]
            x_z, x_r, x_h = _gates(b, x_t, 3)
            recurrent = b.dense(h_prev, r_zr)
            if rb_zr is not None:
                recurrent = b.add(recurrent, rb_zr)
            h_z, h_r = _gates(b, recurrent, 2)
            z = f(_clipped(layer, b.add(x_z, h_z)))
            r = f(_clipped(layer, b.add(x_r, h_r)))
            if before_reset:
                hidden = b.dense(h_prev, r_h)
                if rb_h is not None:
                    hidden = b.add(hidden, rb_h)
                hidden = b.multiply(r, hidden)
            else:
                hidden = b.dense(b.multiply(r, h_prev), r_h)
                if rb_h is not None:
                    hidden = b.add(hidden, rb_h)
            h = g(_clipped(layer, b.add(x_h, hidden)))
            new = b.add(b.multiply(b.subtract(one, z), h), b.multiply(z, h_prev))
            return new, [new]

        y, states = _run(layer, projected, [_initial(layer, 5, d)], cell, direction == "reverse")
        ys.append(y)
        finals.append(states)
    return _outputs(layer, ys, finals)


@converter("LSTM", 7)
def lstm(node: Node) -> list[Value]:
    """i = f(Xt·Wiᵀ + Ht-1·Riᵀ + Pi ⊙ Ct-1 + b), f likewise with Pf (or 1 - i with
    input_forget), c = g(Xt·Wcᵀ + Ht-1·Rcᵀ + b), Ct = f ⊙ Ct-1 + i ⊙ c,
    o = f(Xt·Woᵀ + Ht-1·Roᵀ + Po ⊙ Ct + b), Ht = o ⊙ h(Ct). Gates in ONNX's order
    i, o, f, c."""
    layer = _layer(node, 4, 3, ["Sigmoid", "Tanh", "Tanh"])
    b = node.b
    couple = bool(node.attr("input_forget", 0))
    element = layer.x.type.element_type
    one = b.const(np.array(1.0), dtype=element)
    peepholes = node.optional_input(7)
    ys, finals = [], []
    for d, direction in enumerate(layer.directions):
        projected, recurrence, biases = _projections(layer, d)
        p_i = p_o = p_f = None
        if peepholes is not None:
            p_i, p_o, p_f = _gates(b, _take(b, peepholes, 0, d), 3)
        f, g, h = layer.activations[d]

        def cell(x_t, states, recurrence=recurrence, p_i=p_i, p_o=p_o, p_f=p_f, f=f, g=g, h=h):
            h_prev, c_prev = states
            gates = _gates(b, b.add(x_t, b.dense(h_prev, recurrence)), 4)
            pre_i, pre_o, pre_f, pre_c = gates
            if p_i is not None:
                pre_i = b.add(pre_i, b.multiply(p_i, c_prev))
                pre_f = b.add(pre_f, b.multiply(p_f, c_prev))
            i = f(_clipped(layer, pre_i))
            forget = b.subtract(one, i) if couple else f(_clipped(layer, pre_f))
            c = b.add(b.multiply(forget, c_prev), b.multiply(i, g(_clipped(layer, pre_c))))
            if p_o is not None:
                pre_o = b.add(pre_o, b.multiply(p_o, c))
            o = f(_clipped(layer, pre_o))
            new_h = b.multiply(o, h(c))
            return new_h, [new_h, c]

        initial = [_initial(layer, 5, d), _initial(layer, 6, d)]
        y, states = _run(layer, _biased(b, projected, biases), initial, cell,
                         direction == "reverse")
        ys.append(y)
        finals.append(states)
    return _outputs(layer, ys, finals)
