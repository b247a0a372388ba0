"""ONNX coverage: how many of ONNX's own backend node tests mlc passes, through the
graph interpreter after graph-optimize (as `make test` runs the suite).

    .venv/bin/python benchmarks/onnx_coverage.py                 # the table, ~30 s
    .venv/bin/python benchmarks/onnx_coverage.py --show passing  # skipped tests that pass
    .venv/bin/python benchmarks/onnx_coverage.py --show failing  # each failure, one line
    .venv/bin/python benchmarks/onnx_coverage.py --write-readme  # update the README's table

The cases are built in memory from the installed onnx's case generators
(`mlc.onnx.suite`); the tests mlc skips are `tests/onnx_suite/skipped.txt`. The
lists under the table rank what mlc lacks by the tests it fails.
"""

from __future__ import annotations

import argparse
import collections
import re
import signal
import sys
import time
from pathlib import Path

from roundtrip import markdown_table, write_readme

ROOT = Path(__file__).resolve().parent.parent
SKIP_LIST = ROOT / "tests" / "onnx_suite" / "skipped.txt"
TIMEOUT_S = 60


class _Timeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Timeout()


def run_all(cases) -> dict[str, str | None]:
    """Each case's failure, one line (None: passed)."""
    from mlc.onnx.suite import run_case

    signal.signal(signal.SIGALRM, _on_alarm)
    results: dict[str, str | None] = {}
    for name, case in sorted(cases.items()):
        signal.alarm(TIMEOUT_S)
        try:
            run_case(case)
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


def table(cases, results, targets) -> str:
    from mlc.onnx.suite import is_float32_case

    def row(label: str, names) -> list[str]:
        names = list(names)
        passed = sum(1 for n in names if results[n] is None)
        return [label, f"{len(names):,}", f"{passed:,}", f"{passed / max(len(names), 1):.1%}"]

    float32 = [n for n, c in cases.items() if is_float32_case(c)]
    skipped = [n for n in cases if n in targets]
    rows = [row("all node tests", cases),
            row("all float32 node tests", float32),
            row("skipped (`tests/onnx_suite/skipped.txt`)", skipped)]
    return markdown_table(["node tests", "tests", "mlc passes", "share"], rows)


def ranking(results, limit: int = 15) -> str:
    missing = collections.Counter()
    for reason in results.values():
        op = reason and _missing_op(reason)
        if op:
            missing[op] += 1
    top = ", ".join(f"`{op}` {n}" for op, n in missing.most_common(limit))
    return f"ONNX ops mlc has no converter for, by the tests they fail (first {limit} of {len(missing)}): {top}."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", choices=("passing", "failing"),
                        help="list the skipped tests that pass, or every failure")
    parser.add_argument("--write-readme", action="store_true",
                        help="put the table into the README's ONNX section")
    args = parser.parse_args(argv)

    import onnx

    from mlc.onnx.suite import node_cases, read_skip_list

    targets = set(read_skip_list(SKIP_LIST))
    cases = node_cases()
    began = time.perf_counter()
    results = run_all(cases)
    elapsed = time.perf_counter() - began
    text = (f"Measured {time.strftime('%Y-%m-%d')} with onnx {onnx.__version__}, in "
            f"{elapsed:.0f} s (`benchmarks/onnx_coverage.py`).\n\n"
            + table(cases, results, targets) + "\n\n" + ranking(results) + "\n")
    sys.stdout.write(text)
    if args.show == "passing":
        for name in sorted(n for n in cases if n in targets and results[n] is None):
            print(name)
    elif args.show == "failing":
        for name, reason in sorted(results.items()):
            if reason is not None:
                print(f"{name}: {reason}")
    if args.write_readme:
        write_readme({"onnx-coverage": text}, readme=ROOT / "README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
