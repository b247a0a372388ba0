"""ONNX control flow, resolved at import: If on a condition known at import time takes
its branch; Loop and Scan, whose iteration counts are then known, are unrolled (their
bodies converted once per iteration, as TVM's frontend unrolls static loops)."""

from __future__ import annotations

import numpy as np

from mlc.ir import Value
from mlc.onnx.node import Node
from mlc.onnx.registry import converter

# Unrolling copies the body once per iteration: past this, the model is refused.
MAX_UNROLLED_ITERATIONS = 4096


@converter("If", 1)
def if_(node: Node) -> list[Value]:
    condition = node.constant(0)
    node.check(condition.size == 1, f"the condition has {condition.size} elements, not one")
    return node.graph("then_branch" if bool(condition.reshape(-1)[0]) else "else_branch")


def _stack(node: Node, pieces: list[Value], axis: int) -> Value:
    """`pieces` (one per iteration) stacked along a new `axis`."""
    expanded = [node.b.expand_dims(p, axis=axis) for p in pieces]
    return expanded[0] if len(expanded) == 1 else node.b.concat(expanded, axis=axis)


def _scalar(node: Node, value, dtype) -> Value:
    return node.b.const(np.array(value, dtype))


@converter("Loop", 1)
def loop(node: Node) -> list[Value]:
    """Loop(M, cond, v...): the body runs while i < M and cond, each run's condition
    known at import time; scan outputs are stacked along a new first axis."""
    trip_count = node.optional_constant(0)
    condition = node.optional_input(1)
    carried = list(node.inputs[2:])
    node.check(all(v is not None for v in carried), "loop-carried values must be given")
    limit = MAX_UNROLLED_ITERATIONS if trip_count is None else int(trip_count.reshape(-1)[0])
    go_on = True if condition is None else bool(node.constant(1).reshape(-1)[0])
    scans: list[list[Value]] = []
    iteration = 0
    while go_on and iteration < limit:
        node.check(iteration < MAX_UNROLLED_ITERATIONS,
                   f"the loop runs more than {MAX_UNROLLED_ITERATIONS} iterations at import")
        counter = _scalar(node, iteration, np.int64)
        flag = _scalar(node, go_on, np.bool_)
        outputs = node.graph("body", [counter, flag, *carried])
        carried = outputs[1:1 + len(carried)]
        scans.append(outputs[1 + len(carried):])
        condition_value = outputs[0]
        go_on = bool(node.known(condition_value).reshape(-1)[0]) \
            if condition is not None or trip_count is None else True
        iteration += 1
    scan_count = len(node.proto.output) - len(carried)
    node.check(scan_count == 0 or scans, "a loop that runs no iteration has empty scan outputs "
               "of unknown shape")
    stacked = [_stack(node, [s[k] for s in scans], 0) for k in range(scan_count)]
    return [*carried, *stacked]


@converter("Scan", 9)
def scan(node: Node) -> list[Value]:
    """Scan(states..., scan inputs...): the body runs once per element along each scan
    input's axis (forwards or backwards), its scan outputs stacked along theirs."""
    count = node.attr("num_scan_inputs")
    inputs = node.inputs
    states, sequences = list(inputs[:len(inputs) - count]), list(inputs[len(inputs) - count:])
    in_axes = node.attr("scan_input_axes", [0] * count)
    in_directions = node.attr("scan_input_directions", [0] * count)
    in_axes = [a + len(s.type.shape) if a < 0 else a for a, s in zip(in_axes, sequences)]
    lengths = {s.type.shape[a] for s, a in zip(sequences, in_axes)}
    node.check(len(lengths) == 1, f"the scan inputs have different lengths {sorted(lengths)}")
    length = lengths.pop()
    node.check(0 < length <= MAX_UNROLLED_ITERATIONS,
               f"a scan of {length} iterations is not unrolled (1 to {MAX_UNROLLED_ITERATIONS} are)")
    scans: list[list[Value]] = []
    for t in range(length):
        slices = []
        for s, axis, backwards in zip(sequences, in_axes, in_directions):
            slices.append(_entry(node, s, length - 1 - t if backwards else t, axis))
        outputs = node.graph("body", [*states, *slices])
        states = outputs[:len(states)]
        scans.append(outputs[len(states):])
    scan_count = len(scans[0])
    out_axes = node.attr("scan_output_axes", [0] * scan_count)
    out_directions = node.attr("scan_output_directions", [0] * scan_count)
    stacked = []
    for k in range(scan_count):
        pieces = [s[k] for s in scans]
        if out_directions[k]:
            pieces.reverse()
        rank = len(pieces[0].type.shape) + 1
        axis = out_axes[k] + rank if out_axes[k] < 0 else out_axes[k]
        stacked.append(_stack(node, pieces, axis))
    return [*states, *stacked]


@converter("Scan", 8)
def scan_8(node: Node) -> list[Value]:
    """Scan before opset 9: sequence_lens (optional), then states (B, ...) and scan
    inputs (B, T, ...) with a batch axis first; each batch entry scanned on its own
    (time on axis 0 of its slice, or backwards per `directions`) and the results
    stacked back along the batch axis. Every sequence must run the whole length."""
    count = node.attr("num_scan_inputs")
    inputs = node.inputs
    lengths = inputs[0]
    states = list(inputs[1:len(inputs) - count])
    sequences = list(inputs[len(inputs) - count:])
    directions = node.attr("directions", [0] * count)
    steps = {s.type.shape[1] for s in sequences}
    node.check(len(steps) == 1, f"the scan inputs have different lengths {sorted(steps)}")
    length = steps.pop()
    if lengths is not None:
        known = node.known(lengths)
        node.check(bool(np.all(known == length)),
                   f"sequence_lens {known.tolist()} shorter than the scan inputs ({length}) "
                   "are not supported")
    node.check(0 < length <= MAX_UNROLLED_ITERATIONS,
               f"a scan of {length} iterations is not unrolled (1 to {MAX_UNROLLED_ITERATIONS} are)")
    batch = (states or sequences)[0].type.shape[0]
    per_entry: list[list[Value]] = []
    for entry in range(batch):
        entry_states = [_entry(node, s, entry, 0) for s in states]
        entry_sequences = [_entry(node, s, entry, 0) for s in sequences]
        scans: list[list[Value]] = []
        for t in range(length):
            slices = [_entry(node, s, length - 1 - t if backwards else t, 0)
                      for s, backwards in zip(entry_sequences, directions)]
            outputs = node.graph("body", [*entry_states, *slices])
            entry_states = outputs[:len(entry_states)]
            scans.append(outputs[len(entry_states):])
        stacked = [_stack(node, [s[k] for s in scans], 0) for k in range(len(scans[0]))]
        per_entry.append([*entry_states, *stacked])
    return [_stack(node, [results[k] for results in per_entry], 0)
            for k in range(len(per_entry[0]))]


def _entry(node: Node, value: Value, index: int, axis: int) -> Value:
    """Entry `index` of `value` along `axis`, the axis dropped."""
    piece = node.b.slice(value, starts=[index], ends=[index + 1], axes=[axis], steps=[1])
    return node.b.squeeze(piece, axes=[axis])
