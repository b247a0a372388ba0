"""A build compiled on several cores (mlc.llvm.compile_parts): the module's functions
split into parts, each lowered and compiled by a forked worker process, the objects
linked here. What it makes computes bit for bit what a one-process build makes; a
worker that fails or dies leaves the build to this process; the parts' LLVM IR links
into one module, exports as one library and is kept by the build cache."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest

from mlc.graph.examples import EXAMPLES
from mlc.llvm import compile_parts
from mlc.llvm.build import BuildError, build
from mlc.llvm.jit import clear_compile_cache

SMALL_RESNET = {"image_size": 32, "num_classes": 10}


@pytest.fixture(scope="module")
def resnet():
    example = EXAMPLES["resnet18"](**SMALL_RESNET)
    return example, example.inputs(seed=2)


@pytest.fixture(scope="module")
def serial(resnet):
    """The small ResNet-18 built in this process, and what it computes."""
    example, inputs = resnet
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MLC_CACHE", "0")
        model = built(example.module, 1, patch)
    return model, model(**inputs)


@pytest.fixture
def no_cache(monkeypatch):
    monkeypatch.setenv("MLC_CACHE", "0")
    clear_compile_cache()
    yield
    clear_compile_cache()


def built(module, jobs: int, monkeypatch):
    monkeypatch.setenv(compile_parts.ENV_COMPILE_JOBS, str(jobs))
    clear_compile_cache()
    return build(module, num_threads=1)


def stage_names(model) -> list[str]:
    return [name for name, _ in model.timings.stages]


def test_a_build_in_parts_computes_what_one_process_builds(resnet, serial, no_cache,
                                                           monkeypatch):
    example, inputs = resnet
    serial, _ = serial
    parted = built(example.module, 2, monkeypatch)
    assert "native code in 2 processes" in stage_names(parted)
    assert "native code in 2 processes" not in stage_names(serial)
    assert len(parted.llvm_ir_parts) == 2 and len(serial.llvm_ir_parts) == 1
    assert len(parted.timings.parts) == 2 and "part 2 of 2" in parted.timings.report()
    np.testing.assert_array_equal(parted(**inputs), serial(**inputs))
    # The parts link into one module defining every kernel the serial build defines.
    assert sorted(defined(parted.llvm_ir)) == sorted(defined(serial.llvm_ir))
    profile = parted.profile(*inputs.values(), runs=1)
    assert {row.name for row in profile.kernels} == {row.name for row in
                                                     serial.profile(*inputs.values(), runs=1).kernels}


def defined(llvm_ir: str) -> list[str]:
    import re

    return [name for name in re.findall(r"^define [^@]*@\"?([\w.$]+)\"?\(", llvm_ir, re.M)
            if "_parallel_" not in name]


def test_the_parts_are_balanced_and_deterministic(resnet):
    from mlc.llvm.build import LOOP_PLAN, _run, graph_to_loops
    from mlc.llvm.target import Target
    from mlc.loop.rules import default_schedule

    module = resnet[0].module.clone()
    _run(module, graph_to_loops(Target()), required=("graph-alter-op-layout",
                                                      "graph-fold-scale-axis"))
    default_schedule(module, Target().schedule_target)
    _run(module, LOOP_PLAN)
    parts = compile_parts.partition(module, 2, first=("main",), min_ops=0)
    assert parts == compile_parts.partition(module.clone(), 2, first=("main",), min_ops=0)
    assert "main" in parts[0] and len(parts) == 2
    functions = {fn.sym_name.value: fn for fn in compile_parts._defined_functions(module)}
    assert sorted(parts[0] + parts[1]) == sorted(functions)
    sizes = [sum(compile_parts._size(functions[name]) for name in part) for part in parts]
    largest = max(compile_parts._size(fn) for fn in functions.values())
    assert abs(sizes[0] - sizes[1]) <= largest
    assert compile_parts.partition(module, 1, min_ops=0) is None
    assert compile_parts.partition(module, 2, min_ops=10 ** 9) is None


@pytest.mark.parametrize("failure", ["raises", "dies"])
def test_a_failing_worker_leaves_the_build_to_this_process(resnet, serial, no_cache,
                                                           monkeypatch, failure):
    example, inputs = resnet
    expected = serial[1]
    parent = os.getpid()
    real = compile_parts.narrow_to_part

    def narrow(module, parts, index):
        if index == 1 and os.getpid() != parent:
            if failure == "dies":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError("a bug in part 2")
        real(module, parts, index)

    monkeypatch.setattr(compile_parts, "narrow_to_part", narrow)
    model = built(example.module, 2, monkeypatch)
    assert not any("processes" in name for name in stage_names(model))
    np.testing.assert_array_equal(model(**inputs), expected)


def test_a_bad_job_count_is_a_build_error(resnet, no_cache, monkeypatch):
    monkeypatch.setenv(compile_parts.ENV_COMPILE_JOBS, "many")
    with pytest.raises(BuildError, match="MLC_COMPILE_JOBS='many': a whole number"):
        build(resnet[0].module)


def gather_model():
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from mlc.onnx import import_onnx

    rng = np.random.default_rng(0)
    weights = [numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)
               for name, shape in (("table", (100, 64)), ("w1", (64, 64)), ("w2", (64, 32)))]
    nodes = [helper.make_node("Gather", ["table", "ids"], ["rows"]),
             helper.make_node("MatMul", ["rows", "w1"], ["h"]),
             helper.make_node("Relu", ["h"], ["r"]),
             helper.make_node("MatMul", ["r", "w2"], ["y"])]
    graph = helper.make_graph(nodes, "gather", [helper.make_tensor_value_info(
        "ids", TensorProto.INT64, [16])], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, [16, 32])], weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    return import_onnx(model)


def test_a_model_with_index_checks_is_parted_after_loop_lower(no_cache, monkeypatch):
    # A gather's checks are numbered module-wide: such a module is split only once
    # loop-lower has run in this process, and an index out of range is still reported.
    from mlc.llvm.native_call import NativeIndexError

    module = gather_model()
    ids = np.arange(16, dtype=np.int64) * 6
    monkeypatch.setattr(compile_parts, "MIN_PARTED_OPS", 0)
    serial = built(module, 1, monkeypatch)
    parted = built(module, 2, monkeypatch)
    names = stage_names(parted)
    assert "native code in 2 processes" in names and "loop-lower" in names
    np.testing.assert_array_equal(parted(ids), serial(ids))
    ids[3] = 100
    with pytest.raises(NativeIndexError, match="100"):
        parted(ids)


def test_a_parted_build_exports_and_is_cached(resnet, serial, tmp_path, monkeypatch):
    from mlc.llvm import load_module

    example, inputs = resnet
    expected = serial[1]
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MLC_CACHE", raising=False)
    first = built(example.module, 2, monkeypatch)
    assert "native code in 2 processes" in stage_names(first)
    second = built(example.module, 2, monkeypatch)
    assert stage_names(second) == ["build cache lookup", "LLVM object code from the compile cache"]
    np.testing.assert_array_equal(second(**inputs), expected)
    path = first.export_library(tmp_path / "resnet.so")
    np.testing.assert_array_equal(load_module(path)(**inputs), expected)
