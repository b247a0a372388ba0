"""graph-optimize on the acceptance networks: kernels after fusion and time, beside
TVM's Relax pipeline on the same topologies; and how the time grows with depth.

    .venv/bin/python benchmarks/graph_optimize.py            # mlc only
    .venv/bin/python benchmarks/graph_optimize.py --tvm      # with TVM (own venv, see
                                                             # tvm_reference.py)
    .venv/bin/python benchmarks/graph_optimize.py --tvm --write-readme

Times are in process, excluding building the network: the best of `--repeat` runs,
each on a freshly built module. "fuse-ops" is graph-fuse-ops alone, run after the rest
of the pipeline.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
from pathlib import Path

from mlc.graph.examples import deep_convnet, mlp, mobilenet_v2_blocks, resnet18, transformer_encoder
from mlc.graph.fusion.outline import is_primitive
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import PIPELINES, load_pass_plugins

BENCH_DIR = Path(__file__).resolve().parent
NETWORKS = {"mlp": mlp, "resnet18": resnet18, "mobilenet_v2": mobilenet_v2_blocks,
            "transformer": transformer_encoder}
DEPTHS = (8, 16, 40, 80)  # BasicBlocks; ResNet-18 has 8, the last is 10x deeper


def _ops(module) -> int:
    return sum(1 for op in module.walk() if op.name.startswith("graph."))


def _kernels(module) -> int:
    return sum(1 for op in module.regions[0].ops() if op.name == "func.func" and is_primitive(op))


def _run(module, pipeline: str) -> float:
    gc.collect()
    began = time.perf_counter()
    with PassContext(opt_level=3):
        result = run_pipeline(module, pipeline)
    elapsed = time.perf_counter() - began
    if not result.success:
        raise RuntimeError(f"{pipeline} failed: {result.diagnostics[:1]}")
    return elapsed


def measure(build, repeat: int) -> dict:
    """Best-of-`repeat` times of graph-optimize and of fuse-ops alone on fresh builds."""
    load_pass_plugins()
    without_fusion = PIPELINES["graph-optimize"][0].replace(",graph-fuse-ops", "")
    best_total = best_fusion = float("inf")
    for _ in range(repeat):
        module = build().module
        ops_before = _ops(module)
        best_total = min(best_total, _run(module, "graph-optimize"))
        kernels = _kernels(module)
        module = build().module
        _run(module, without_fusion)
        best_fusion = min(best_fusion, _run(module, "graph-fuse-ops"))
    return {"ops_before": ops_before, "kernels": kernels, "pipeline_s": best_total,
            "fusion_s": best_fusion}


def tvm_figures() -> dict | None:
    """TVM's figures from tvm_reference.py (which installs TVM in its own venv)."""
    script = BENCH_DIR / "tvm_reference.py"
    try:
        out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                             timeout=1800, check=True).stdout
        return json.loads(out[out.index("{"):])
    except (subprocess.SubprocessError, ValueError, OSError) as exc:
        print(f"TVM reference unavailable: {exc}", file=sys.stderr)
        return None


def _ms(seconds: float | None) -> str:
    return "n/a" if seconds is None else f"{seconds * 1000:.0f} ms"


def tables(mlc: dict, depth: dict, tvm: dict | None) -> str:
    tvm_nets = (tvm or {}).get("networks", tvm or {})
    version = (tvm or {}).get("tvm_version", "")
    rows = ["| network | ops | mlc kernels | TVM kernels | mlc graph-optimize | TVM pipeline "
            "| mlc fuse-ops | TVM fusion |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, m in mlc.items():
        t = tvm_nets.get(name, {}) if isinstance(tvm_nets, dict) else {}
        rows.append(f"| {name} | {m['ops_before']} | {m['kernels']} | {t.get('kernels', 'n/a')} | "
                    f"{_ms(m['pipeline_s'])} | {_ms(t.get('pipeline_s'))} | {_ms(m['fusion_s'])} | "
                    f"{_ms(t.get('fusion_s'))} |")
    growth = ["| BasicBlocks | ops | kernels | mlc graph-optimize | per op | TVM pipeline |",
              "|---:|---:|---:|---:|---:|---:|"]
    for blocks, m in depth.items():
        t = tvm_nets.get(f"deep_{blocks // 8}", {}) if isinstance(tvm_nets, dict) else {}
        growth.append(f"| {blocks} | {m['ops_before']} | {m['kernels']} | {_ms(m['pipeline_s'])} | "
                      f"{m['pipeline_s'] / m['ops_before'] * 1e6:.0f} µs | {_ms(t.get('pipeline_s'))} |")
    first, last = depth[DEPTHS[0]], depth[DEPTHS[-1]]
    ratio = last["pipeline_s"] / first["pipeline_s"]
    size = last["ops_before"] / first["ops_before"]
    note = (f"\n{DEPTHS[-1] // DEPTHS[0]}x the blocks ({size:.1f}x the ops): graph-optimize takes "
            f"{ratio:.1f}x the time.\n")
    head = "TVM " + version + " (Relax pipeline, see tvm_reference.py)" if tvm else "TVM not measured"
    return ("### Networks (" + head + ")\n\n" + "\n".join(rows) + "\n\n### Growth with depth "
            "(deep_convnet: 1x64x14x14, BasicBlocks of 64 channels)\n\n" + "\n".join(growth) + "\n"
            + note)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tvm", action="store_true", help="also run benchmarks/tvm_reference.py")
    parser.add_argument("--write-readme", action="store_true",
                        help="put the tables in benchmarks/README.md (graph section)")
    args = parser.parse_args()
    mlc = {name: measure(build, args.repeat) for name, build in NETWORKS.items()}
    depth = {blocks: measure(lambda b=blocks: deep_convnet(blocks=b), args.repeat)
             for blocks in DEPTHS}
    text = tables(mlc, depth, tvm_figures() if args.tvm else None)
    print(text)
    if args.write_readme:
        sys.path.insert(0, str(BENCH_DIR))
        from roundtrip import write_readme

        write_readme({"graph": text})
    return 0


if __name__ == "__main__":
    sys.exit(main())
