"""graph-bind-params on random graph programs: binding any subset of @main's
parameters to arrays computes, on the remaining inputs, exactly what the unbound
program computes on all of them (the constants hold the same bits the arguments did)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mlc.graph import evaluate
from mlc.graph.passes.bind_params import bind_params

sys.path.insert(0, str(Path(__file__).parent))
from graph_programs import graph_programs  # noqa: E402


@settings(max_examples=30, deadline=None)
@given(graph_programs(max_ops=6), st.data())
def test_binding_parameters_keeps_what_main_computes(program, data):
    module = program.module()
    [main] = [op for op in module.regions[0].ops() if op.sym_name.value == "main"]
    names = [arg.name_hint for arg in main.entry_block.args]
    inputs = program.inputs(seed=1)
    expected = evaluate(module, inputs)
    bound = data.draw(st.lists(st.sampled_from(range(len(names))), unique=True))
    assert bind_params(module, {names[i]: inputs[i] for i in bound}) == len(bound)
    rest = [value for i, value in enumerate(inputs) if i not in bound]
    for got, want in zip(evaluate(module, rest), expected, strict=True):
        np.testing.assert_array_equal(got, want)
