"""ONNX coverage: how many of ONNX's own backend tests mlc passes, beside onnxruntime
on the same cases, in the same run.

    .venv/bin/python benchmarks/onnx_coverage.py                  # the tables, ~1 min
    .venv/bin/python benchmarks/onnx_coverage.py --native         # mlc natively too
    .venv/bin/python benchmarks/onnx_coverage.py --no-onnxruntime # mlc alone
    .venv/bin/python benchmarks/onnx_coverage.py --show passing   # skipped tests that pass
    .venv/bin/python benchmarks/onnx_coverage.py --show failing   # each mlc failure, one line
    .venv/bin/python benchmarks/onnx_coverage.py --show gap       # what onnxruntime passes and mlc not
    .venv/bin/python benchmarks/onnx_coverage.py --write-readme   # update the README's table

Cases: the node tests built in memory from the installed onnx's case generators
(`mlc.onnx.suite.node_cases`), and the model tests of its simple, pytorch-converted
and pytorch-operator folders (`model_cases`). mlc runs them through its ONNX backend
(import, graph-optimize, the graph interpreter; with --native, also compiled with
mlc.llvm), as `make test` does; onnxruntime (CPU provider, one thread) runs them in its
own venv (ort_venv.py, ort_suite.py). Both are judged by ONNX's runner's assertion and
each case's tolerances. The skip lists are `tests/onnx_suite/skipped*.txt`.
"""

from __future__ import annotations

import argparse
import collections
import re
import signal
import sys
import time
from pathlib import Path

from ort_venv import ort_python, run_json
from roundtrip import markdown_table, write_readme

ROOT = Path(__file__).resolve().parent.parent
SKIP_LIST = ROOT / "tests" / "onnx_suite" / "skipped.txt"
TIMEOUT_S = 60


class _Timeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Timeout()


def run_all(cases, run) -> dict[str, str | None]:
    """Each case's failure under `run(case)`, one line (None: passed)."""
    signal.signal(signal.SIGALRM, _on_alarm)
    results: dict[str, str | None] = {}
    for name, case in sorted(cases.items()):
        signal.alarm(TIMEOUT_S)
        try:
            run(case)
            results[name] = None
        except _Timeout:
            results[name] = f"timeout ({TIMEOUT_S} s)"
        except Exception as exc:  # each case's failure is data here
            results[name] = _reason(exc)
        finally:
            signal.alarm(0)
    return results


def _reason(exc: Exception) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    node_lines = [re.sub(r"^node '[^']*': ", "", line) for line in lines if line.startswith("node '")]
    if node_lines:
        return node_lines[0]
    first = lines[0] if lines else type(exc).__name__
    first = re.sub(r"^<model>: error: ", "", first)
    return f"{type(exc).__name__}: {first}" if isinstance(exc, AssertionError) else first


def _missing_op(reason: str) -> str | None:
    match = re.match(r"([\w.]+) \(opset \d+\): mlc has no converter", reason)
    return match.group(1) if match else None


def _row(label: str, names, columns: dict[str, dict]) -> list[str]:
    names = list(names)
    cells = [label, f"{len(names):,}"]
    for results in columns.values():
        passed = sum(1 for n in names if results.get(n, "") is None)
        cells.append(f"{passed:,} ({passed / max(len(names), 1):.1%})")
    return cells


def table(node_cases, model_cases, columns: dict[str, dict], skipped) -> str:
    from mlc.onnx.suite import is_float32_case

    float32 = [n for n, c in node_cases.items() if is_float32_case(c)]
    rows = [_row("all node tests", node_cases, columns),
            _row("float32 node tests", float32, columns),
            _row("node tests mlc skips (`tests/onnx_suite/skipped.txt`)",
                 [n for n in node_cases if n in skipped], columns),
            _row("model folders (simple, pytorch-converted, pytorch-operator)", model_cases,
                 columns)]
    return markdown_table(["ONNX backend tests", "tests", *columns], rows)


def gap_summary(mlc: dict, ort: dict, limit: int = 12) -> str:
    """What onnxruntime passes and mlc does not, by the reason mlc gives."""
    gap = [n for n, failure in mlc.items() if failure is not None and ort.get(n, "") is None]
    if not gap:
        return "mlc passes every test onnxruntime passes."
    reasons = collections.Counter(_category(mlc[n]) for n in gap)
    ranked = ", ".join(f"{reason} {count}" for reason, count in reasons.most_common(limit))
    return (f"onnxruntime passes {len(gap)} test(s) that mlc does not, by mlc's reason "
            f"(first {min(limit, len(reasons))} of {len(reasons)}): {ranked}.")


def _category(reason: str) -> str:
    op = _missing_op(reason)
    if op:
        return f"`{op}` (no converter)"
    if "STRING" in reason or "string" in reason:
        return "strings"
    if "sequence" in reason.lower():
        return "sequences"
    if "no opset of the default ONNX domain" in reason:
        return "models of the ai.onnx.ml domain alone"
    return f"`{reason[:60]}`"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--native", action="store_true", help="run mlc natively too")
    parser.add_argument("--no-onnxruntime", action="store_true", help="run mlc alone")
    parser.add_argument("--show", choices=("passing", "failing", "gap"),
                        help="list the skipped tests that pass, every mlc failure, or the "
                             "tests onnxruntime passes and mlc does not")
    parser.add_argument("--write-readme", action="store_true",
                        help="put the tables into the README's ONNX section")
    args = parser.parse_args(argv)

    import onnx

    from mlc.onnx.suite import model_cases, node_cases, read_skip_list, run_case, run_model_case

    skipped = set(read_skip_list(SKIP_LIST))
    nodes, models = node_cases(), model_cases()
    began = time.perf_counter()
    columns = {"mlc passes": {**run_all(nodes, run_case), **run_all(models, run_model_case)}}
    if args.native:
        columns["mlc native passes"] = {
            **run_all(nodes, lambda c: run_case(c, native=True)),
            **run_all(models, lambda c: run_model_case(c, native=True))}
    elapsed = time.perf_counter() - began
    ort_note = ""
    if not args.no_onnxruntime:
        python = ort_python()
        ort = python if isinstance(python, str) else run_json(python, Path(__file__).parent / "ort_suite.py")
        if isinstance(ort, str):
            ort_note = f" onnxruntime: {ort}."
        else:
            columns[f"onnxruntime {ort['version']} passes"] = {**ort["node"], **ort["models"]}
    mlc = columns["mlc passes"]
    ort_results = next((r for c, r in columns.items() if c.startswith("onnxruntime")), None)
    text = (f"Measured {time.strftime('%Y-%m-%d')} with onnx {onnx.__version__}; mlc in "
            f"{elapsed:.0f} s (`benchmarks/onnx_coverage.py`).{ort_note}\n\n"
            + table(nodes, models, columns, skipped) + "\n\n")
    if ort_results is not None:
        text += gap_summary(mlc, ort_results) + "\n"
    missing = collections.Counter(op for op in map(_missing_op, (r for r in mlc.values() if r))
                                  if op)
    if missing:
        top = ", ".join(f"`{op}` {n}" for op, n in missing.most_common(15))
        text += (f"\nONNX ops mlc has no converter for, by the tests they fail (first "
                 f"{min(15, len(missing))} of {len(missing)}): {top}.\n")
    sys.stdout.write(text)
    if args.show == "passing":
        for name in sorted(n for n in nodes if n in skipped and mlc[n] is None):
            print(name)
    elif args.show == "failing":
        for name, reason in sorted(mlc.items()):
            if reason is not None:
                print(f"{name}: {reason}")
    elif args.show == "gap" and ort_results is not None:
        for name, reason in sorted(mlc.items()):
            if reason is not None and ort_results.get(name, "") is None:
                print(f"{name}: {reason}")
    if args.write_readme:
        write_readme({"onnx-coverage": text}, readme=ROOT / "README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
