"""Region nesting depth: time and peak memory of a round trip (parse, verify, print)
of N nested regions, mlc-opt side by side with mlir-opt and xdsl-opt.

Two workloads, both one op per level:

* `generic`: `"test.wrap"() ({ ... }) : () -> ()` nested N deep around one
  `"test.leaf"`, unregistered ops in MLIR's generic form (`--allow-unregistered-dialect`);
* `module`: `module { module { ... } }`, a registered op in its custom form.

    .venv/bin/python benchmarks/nesting.py                        # 1k, 3k, 10k, 30k levels
    .venv/bin/python benchmarks/nesting.py --depths 1000,30000 --repeat 1
    .venv/bin/python benchmarks/nesting.py --write-readme          # and update README.md

Linear scaling gives time(30k) / time(10k) = 3. A tool that fails (mlir-opt's
recursive parser overflows its stack a few thousand levels deep) shows its error.
"""

from __future__ import annotations

import argparse
import platform
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from roundtrip import (
    README,
    TOOL_FACTORIES,
    WORK_DIR,
    Tool,
    _first_error_line,
    fmt_mb,
    fmt_ratio,
    fmt_seconds,
    fmt_size,
    markdown_table,
    run_child,
)

BEGIN_MARKER = "<!-- nesting:begin -->"
END_MARKER = "<!-- nesting:end -->"

WORKLOADS: dict[str, Callable[[int], str]] = {
    "generic": lambda depth: ('"test.wrap"() ({\n' * depth + '"test.leaf"() : () -> ()\n'
                              + "}) : () -> ()\n" * depth),
    "module": lambda depth: "module {\n" * depth + "}\n" * depth,
}
FLAGS = {"mlc-opt": ["--allow-unregistered-dialect"], "mlir-opt": ["--allow-unregistered-dialect"],
         "xdsl-opt": ["--allow-unregistered-dialect"]}


def workload_file(name: str, depth: int) -> Path:
    path = WORK_DIR / f"nesting-{name}-{depth}.mlir"
    if not path.exists():
        WORK_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(WORKLOADS[name](depth))
    return path


def measure(tool: Tool, path: Path, repeat: int, timeout: float) -> tuple[float | None, int | None, str]:
    """Best wall time, largest peak RSS (KB), and the error of a failed run."""
    best, peak = None, None
    for _ in range(repeat):
        run = run_child([str(tool.executable), str(path), *FLAGS[tool.name]], timeout)
        if run.returncode < 0:
            return None, None, f"crashed: {signal.Signals(-run.returncode).name}"
        if run.returncode != 0:
            return None, None, _first_error_line(run.stderr) or f"exit status {run.returncode}"
        best = run.seconds if best is None else min(best, run.seconds)
        peak = run.max_rss_kb if peak is None else max(peak, run.max_rss_kb)
    return best, peak, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", default="1000,3000,10000,30000",
                        help="comma-separated nesting depths (default: 1000,3000,10000,30000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best counts")
    parser.add_argument("--tools", default="mlc-opt,xdsl-opt,mlir-opt",
                        help="comma-separated subset of mlc-opt,xdsl-opt,mlir-opt")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before a run is killed")
    parser.add_argument("--xdsl-venv", help="an existing venv with xdsl")
    parser.add_argument("--mlir-opt", help="the mlir-opt executable")
    parser.add_argument("--write-readme", action="store_true",
                        help="write the table into benchmarks/README.md")
    args = parser.parse_args()
    args.log = lambda message: print(f"[nesting] {message}", file=sys.stderr, flush=True)
    depths = [int(d) for d in args.depths.split(",")]
    tools = [TOOL_FACTORIES[name](args) for name in args.tools.split(",")]
    rows = []
    times: dict[tuple[str, str, int], float | None] = {}
    for name in WORKLOADS:
        for depth in depths:
            path = workload_file(name, depth)
            for tool in tools:
                if not tool.available:
                    rows.append([f"`{name}`", fmt_size(depth), tool.name, "n/a", "n/a", tool.unavailable])
                    continue
                args.log(f"{name} {depth:,}: {tool.name}")
                seconds, peak, error = measure(tool, path, args.repeat, args.timeout)
                times[(name, tool.name, depth)] = seconds
                rows.append([f"`{name}`", fmt_size(depth), tool.name, fmt_seconds(seconds) if error == "" else "error",
                             fmt_mb(peak) if error == "" else "error", error.replace("|", "\\|")[:90]])
    growth_rows = []
    if len(depths) >= 2:
        small, large = depths[-2], depths[-1]
        for name in WORKLOADS:
            for tool in tools:
                a, b = times.get((name, tool.name, small)), times.get((name, tool.name, large))
                growth_rows.append([f"`{name}`", tool.name, fmt_ratio(b / a if a and b else None)])
    header = (f"Measured {time.strftime('%Y-%m-%d')} on {platform.system()} {platform.release()} "
              f"({platform.machine()}), Python {platform.python_version()}.\n\n"
              f"Tools: " + ", ".join(f"{t.name} {t.version}" for t in tools if t.available) + ".\n\n"
              f"`TOOL FILE --allow-unregistered-dialect > /dev/null`, best of {args.repeat}; peak RSS "
              f"is the child's max RSS.\n\n")
    table = markdown_table(["workload", "depth", "tool", "time", "peak RSS", "error"], rows)
    text = header + table
    if growth_rows:
        text += (f"\n\nGrowth: time({fmt_size(depths[-1])}) / time({fmt_size(depths[-2])}); linear "
                 f"scaling gives {depths[-1] / depths[-2]:.1f}×.\n\n"
                 + markdown_table(["workload", "tool", "growth"], growth_rows))
    print(text)
    if args.write_readme:
        readme = README.read_text()
        begin, end = readme.index(BEGIN_MARKER) + len(BEGIN_MARKER), readme.index(END_MARKER)
        README.write_text(readme[:begin] + "\n" + text + "\n" + readme[end:])
        args.log(f"wrote {README}")


if __name__ == "__main__":
    main()
