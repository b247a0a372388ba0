"""Pass instruments: hooks around every pass, and the built-in ones behind mlc-opt's
flags (IR printing, timing, statistics, skip reports)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from mlc.ir.core.ir import Operation


class PassInstrument:
    """Hooks called by the pass manager; override what you need."""

    def enter_pass_ctx(self) -> None:
        """The PassContext holding this instrument was entered."""

    def exit_pass_ctx(self) -> None:
        """The PassContext holding this instrument was left."""

    def should_run(self, pass_, op: Operation) -> bool:
        """Return False to skip `pass_` on `op`."""
        return True

    def run_before_pass(self, pass_, op: Operation) -> None:
        """Just before `pass_` runs on `op`."""

    def run_after_pass(self, pass_, op: Operation) -> None:
        """After `pass_` ran on `op` successfully (raise PassFailure to fail the
        pipeline there, as a check of the pass's result)."""

    def run_after_pass_failed(self, pass_, op: Operation) -> None:
        """After `pass_` failed on `op`."""

    def run_skipped(self, pass_, op: Operation, reason: str) -> None:
        """`pass_` did not run on `op` (opt level, disabled, an instrument said so)."""


def _op_label(op: Operation) -> str:
    sym = op.attributes.get("sym_name")
    name = getattr(sym, "value", None)
    return f"'{op.name}' @{name}" if name else f"'{op.name}'"


class PrintIR(PassInstrument):
    """--print-ir-before/after[-all], --print-ir-after-change, --print-ir-after-failure."""

    def __init__(self, printer, before: set[str] | None = None, after: set[str] | None = None,
                 before_all: bool = False, after_all: bool = False, after_change: bool = False,
                 after_failure: bool = False, stream: TextIO | None = None):
        self.printer = printer  # op -> text
        self.before = before or set()
        self.after = after or set()
        self.before_all = before_all
        self.after_all = after_all
        self.after_change = after_change
        self.after_failure = after_failure
        self.stream = stream
        self._snapshots: dict[int, str] = {}

    def _out(self) -> TextIO:
        return self.stream or sys.stderr

    def _dump(self, title: str, pass_, op: Operation, text: str | None = None) -> None:
        self._out().write(f"// -----// IR Dump {title} {pass_.name} ({pass_.name}) on "
                          f"{_op_label(op)} //----- //\n")
        self._out().write(text if text is not None else self.printer(op))
        self._out().write("\n")

    def run_before_pass(self, pass_, op: Operation) -> None:
        if self.before_all or pass_.name in self.before:
            self._dump("Before", pass_, op)
        if self.after_change:
            self._snapshots[id(op)] = self.printer(op)

    def run_after_pass(self, pass_, op: Operation) -> None:
        # --print-ir-after-change filters the after-dumps (all passes if none named)
        # to the runs that changed the IR, as in MLIR.
        selected = self.after_all or pass_.name in self.after or (
            self.after_change and not self.after)
        if not selected:
            return
        if self.after_change:
            before = self._snapshots.pop(id(op), None)
            after = self.printer(op)
            if after != before:
                self._dump("After", pass_, op, after)
        else:
            self._dump("After", pass_, op)

    def run_after_pass_failed(self, pass_, op: Operation) -> None:
        if self.after_failure:
            self._dump("After Failed", pass_, op)


class Timing(PassInstrument):
    """--timing: a tree of wall times, parse/verify/print included; skipped passes
    are listed as such."""

    def __init__(self):
        self.rows: list[tuple[int, str, float | None, str]] = []  # depth, name, seconds, note
        self._stack: list[tuple[int, float]] = []
        self.start = time.perf_counter()

    def record(self, name: str, seconds: float, depth: int = 0) -> None:
        self.rows.append((depth, name, seconds, ""))

    def run_before_pass(self, pass_, op: Operation) -> None:
        self.rows.append((1, pass_.name, None, ""))
        self._stack.append((len(self.rows) - 1, time.perf_counter()))

    def _finish(self, note: str = "") -> None:
        index, started = self._stack.pop()
        depth, name, _, _ = self.rows[index]
        self.rows[index] = (depth, name, time.perf_counter() - started, note)

    def run_after_pass(self, pass_, op: Operation) -> None:
        self._finish()

    def run_after_pass_failed(self, pass_, op: Operation) -> None:
        self._finish("failed")

    def run_skipped(self, pass_, op: Operation, reason: str) -> None:
        self.rows.append((1, pass_.name, None, f"skipped: {reason}"))

    def report(self) -> str:
        total = time.perf_counter() - self.start
        lines = ["===" + "-" * 73 + "===",
                 "                         ... Execution time report ...",
                 "===" + "-" * 73 + "===",
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        # Passes that ran on several ops (e.g. each function) are summed per name.
        merged: dict[tuple[int, str, str], float | None] = {}
        order: list[tuple[int, str, str]] = []
        for depth, name, seconds, note in self.rows:
            key = (depth, name, note)
            if key not in merged:
                order.append(key)
                merged[key] = seconds
            elif seconds is not None:
                merged[key] = (merged[key] or 0.0) + seconds
        for depth, name, note in order:
            seconds = merged[(depth, name, note)]
            indent = "  " * depth
            if seconds is None:
                lines.append(f"  {'':>17}  {indent}{name} ({note})")
            else:
                share = 100.0 * seconds / total if total else 0.0
                label = f"{indent}{name}" + (f" ({note})" if note else "")
                lines.append(f"  {seconds:7.4f} ({share:5.1f}%)  {label}")
        lines.append(f"  {total:7.4f} (100.0%)  Total")
        return "\n".join(lines) + "\n"


class Statistics(PassInstrument):
    """--pass-statistics: the counters each pass declares, summed over its runs."""

    def __init__(self):
        self.totals: dict[str, dict[str, int]] = {}
        self.order: list[str] = []
        self.descriptions: dict[str, dict[str, str]] = {}

    def run_after_pass(self, pass_, op: Operation) -> None:
        if pass_.name not in self.totals:
            self.order.append(pass_.name)
            self.totals[pass_.name] = {name: 0 for name, _ in pass_.info.statistics}
            self.descriptions[pass_.name] = dict(pass_.info.statistics)
        counts = self.totals[pass_.name]
        for name, value in pass_.statistics.items():
            counts[name] = counts.get(name, 0) + value
        pass_.statistics.clear()

    def report(self) -> str:
        lines = ["===" + "-" * 73 + "===",
                 "                         ... Pass statistics report ...",
                 "===" + "-" * 73 + "==="]
        for name in self.order:
            lines.append(name)
            for stat, value in self.totals[name].items():
                description = self.descriptions[name].get(stat, "")
                lines.append(f"  ({value}) {stat} - {description}")
        return "\n".join(lines) + "\n"


class SkipReporter(PassInstrument):
    """--print-pass-skips: say when a pass does not run, and why."""

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream

    def run_skipped(self, pass_, op: Operation, reason: str) -> None:
        (self.stream or sys.stderr).write(f"mlc-opt: skipped pass '{pass_.name}' on "
                                          f"{_op_label(op)}: {reason}\n")
