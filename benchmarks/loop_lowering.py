"""The lowering stages on the acceptance networks, beside graph-optimize: how long each
takes, how many kernels the networks call and how many distinct kernels are lowered,
and the memory the plan saves.

    .venv/bin/python benchmarks/loop_lowering.py
    .venv/bin/python benchmarks/loop_lowering.py --networks resnet18 --repeat 3

Each stage is timed in process on the module the previous stage left (the best of
`--repeat` runs, each from a fresh build): graph-optimize, graph-lower-to-loop,
loop-plan-memory, loop-lower, then canonicalize on the lowered module. The whole
ResNet-18 path to scf must stay well under the 2 s compile budget the LLVM issue
measures.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time

from mlc.graph.examples import mlp, mobilenet_v2_blocks, resnet18, transformer_encoder
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins

NETWORKS = {"mlp": mlp, "resnet18": resnet18, "mobilenet_v2": mobilenet_v2_blocks,
            "transformer": transformer_encoder}
STAGES = ("graph-optimize", "graph-lower-to-loop", "loop-plan-memory", "loop-lower",
          "canonicalize")


def _main_calls(module) -> tuple[int, int]:
    """Calls in @main, and the distinct functions they call."""
    calls, callees = 0, set()
    for op in module.walk():
        if op.name == "func.call":
            calls += 1
            callees.add(op.attributes["callee"].root)
    return calls, len(callees)


def measure(build, repeat: int) -> dict:
    best = {stage: float("inf") for stage in STAGES}
    facts: dict = {}
    for _ in range(repeat):
        module = build().module
        for stage in STAGES:
            gc.collect()
            began = time.perf_counter()
            with PassContext(opt_level=3):
                result = run_pipeline(module, stage)
            elapsed = time.perf_counter() - began
            if not result.success:
                raise RuntimeError(f"{stage} failed: {result.diagnostics[:1]}")
            best[stage] = min(best[stage], elapsed)
            if stage == "graph-lower-to-loop":
                facts["calls"], facts["kernels"] = _main_calls(module)
    # The plan's figures, on a fresh lowering (the pass rewrote the one above).
    module = build().module
    with PassContext(opt_level=3):
        run_pipeline(module, "graph-optimize,graph-lower-to-loop")
    from mlc.loop.plan_memory import plan_memory

    before = after = 0
    for op in module.regions[0].ops():
        if op.name == "func.func" and op.attributes["sym_name"].value == "main":
            plan = plan_memory(op)
            before, after = plan.bytes_before, plan.bytes_after
    facts["bytes_before"], facts["bytes_after"] = before, after
    facts["times"] = best
    return facts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="*", default=list(NETWORKS), choices=list(NETWORKS))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    load_pass_plugins()
    header = ("| network | calls | distinct kernels | intermediate bytes | planned bytes | "
              + " | ".join(STAGES) + " | lowering total |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for name in args.networks:
        facts = measure(NETWORKS[name], args.repeat)
        times = facts["times"]
        lowering = sum(times[s] for s in STAGES[1:])
        cells = [name, str(facts["calls"]), str(facts["kernels"]),
                 f"{facts['bytes_before']:,}", f"{facts['bytes_after']:,}",
                 *(f"{times[s] * 1000:.0f} ms" for s in STAGES), f"{lowering * 1000:.0f} ms"]
        print("| " + " | ".join(cells) + " |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
