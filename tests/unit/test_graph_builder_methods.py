"""GraphBuilder's typed op methods are generated from the graph op declarations
(`python -m mlc.graph.op_methods_gen`): the checked-in module is what the generator
renders now, every graph op has its method with the op's operands and attributes as
parameters, and a method builds the same op as the generic `op`."""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np

import mlc.graph.op_methods
from mlc.graph import GraphBuilder, graph
from mlc.graph.op_base import GraphOp
from mlc.graph.op_methods_gen import render
from mlc.ir import print_op


def test_checked_in_methods_are_current():
    checked_in = Path(mlc.graph.op_methods.__file__).read_text()
    assert checked_in == render(), ("regenerate with: python -m mlc.graph.op_methods_gen > "
                                    "packages/dialect-graph/src/mlc/graph/op_methods.py")


def test_every_graph_op_has_a_method_with_its_operands_and_attributes():
    for full_name, cls in graph.ops.items():
        short = full_name.split(".", 1)[1]
        method = getattr(GraphBuilder, short)
        parameters = inspect.signature(method).parameters
        if issubclass(cls, GraphOp):
            operands = [o.name for o in cls.op_def.operands]
            given = [p for p in parameters if p not in ("self", "name", "loc", "spellings")]
            # Operands in order, then the attributes (the required ones first).
            assert given[:len(operands)] == operands, full_name
            assert sorted(given[len(operands):]) == sorted(cls.op_def.attributes), full_name
            assert method.__doc__, full_name


def test_a_method_builds_what_op_builds():
    def build(use_method: bool) -> str:
        b = GraphBuilder()
        x = b.param("x", (1, 2, 6, 6))
        w = b.const(np.ones((4, 2, 3, 3), np.float32))
        if use_method:
            y = b.conv2d(x, w, strides=(2, 2), padding=1, name="y")
            parts = b.split(y, sections=(2, 2), axis=1)
        else:
            y = b.op("conv2d", x, w, strides=(2, 2), padding=1, name="y")
            parts = b.op("split", y, sections=(2, 2), axis=1)
        return print_op(b.module(b.add(parts[0], parts[1])))

    assert build(True) == build(False)
