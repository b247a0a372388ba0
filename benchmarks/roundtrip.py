"""Round-trip benchmark: parse + verify + print with mlc-opt, xdsl-opt and mlir-opt.

    python benchmarks/roundtrip.py [--sizes 1000,10000,100000] [--repeat 3] [--write-readme]

Measures, for each tool that is available:

* whole process: wall time of `TOOL FILE > /dev/null` (best of --repeat), ops/s and
  the peak memory (max RSS) of the child process;
* in process: the parse, verify and print phases timed separately inside one
  process (mlc and xdsl through their Python APIs, see `phases.py`; mlir-opt through
  its `--mlir-timing` report, where verification is part of the parser);
* start-up: wall time on a trivial file (best of 5);
* growth: time(largest size) / time(next size), which is the size ratio for a tool
  that scales linearly.

and prints the results as markdown tables. `--write-readme` also puts them into
`benchmarks/README.md`, between the `roundtrip` markers.

xdsl is installed into its own venv, `benchmarks/.work/xdsl-venv`, on the first run
(`--xdsl-venv` points to another one). When that fails (no network, say) the xdsl
columns read "n/a" and the notes say why.

Adding a workload or a pipeline is adding an entry: a `Pipeline` to `PIPELINES`
(with the flags each tool needs for it) and a `Case` to `CASES`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import workloads

BENCH_DIR = Path(__file__).resolve().parent
WORK_DIR = workloads.WORK_DIR
README = BENCH_DIR / "README.md"
PHASES_SCRIPT = BENCH_DIR / "phases.py"
DEFAULT_XDSL_VENV = WORK_DIR / "xdsl-venv"
BEGIN_MARKER = "<!-- roundtrip:begin -->"
END_MARKER = "<!-- roundtrip:end -->"
STARTUP_REPEAT = 5
PHASE_NAMES = ("parse", "verify", "print")


# --------------------------------------------------------------------------- model


@dataclass(frozen=True)
class Pipeline:
    """What a tool does to its input, as command-line flags per tool.

    A tool missing from `flags` does not support the pipeline; its cells read "n/a".
    """

    name: str
    description: str
    flags: dict[str, tuple[str, ...]]


ROUNDTRIP = Pipeline(
    "roundtrip", "parse, verify, print",
    {"mlc-opt": (), "xdsl-opt": (), "mlir-opt": ()},
)
# A later pipeline, e.g. canonicalization, is one more entry:
#   Pipeline("canonicalize", "parse, verify, canonicalize, print",
#            {"mlc-opt": ("-p", "canonicalize"), "xdsl-opt": ("-p", "canonicalize"),
#             "mlir-opt": ("--canonicalize",)})
PIPELINES = [ROUNDTRIP]


@dataclass(frozen=True)
class Case:
    """One workload kind (see `workloads.GENERATORS`) through one pipeline."""

    workload: str
    pipeline: Pipeline
    in_process: bool = False  # also time parse / verify / print inside one process

    @property
    def title(self) -> str:
        return f"`{self.workload}` workload, {self.pipeline.name} ({self.pipeline.description})"


CASES = [Case("arith", ROUNDTRIP, in_process=True)]


@dataclass
class Tool:
    """A command-line tool under test.

    `executable` is None when the tool is not available; `unavailable` then says why.
    `phases` times parse / verify / print of a file in one process (None: not
    supported); it returns the best seconds of each phase, a phase missing from the
    result being part of another (mlir-opt verifies inside its parser).
    """

    name: str
    executable: Path | None
    version: str = ""
    unavailable: str = ""
    phases: Callable[[Path, int, float], dict[str, float]] | None = None

    @property
    def available(self) -> bool:
        return self.executable is not None

    def command(self, path: Path, pipeline: Pipeline) -> list[str] | None:
        """The command line running `pipeline` on `path`, output on stdout; None if
        the tool cannot run it."""
        if self.executable is None or self.name not in pipeline.flags:
            return None
        return [str(self.executable), str(path), *pipeline.flags[self.name]]


@dataclass
class Measurement:
    """One cell group of the tables: a tool on one input."""

    tool: str
    case: str  # "<workload>/<pipeline>", or "startup"
    size: int  # arith ops in the input
    seconds: float | None = None  # best wall time of the whole process
    peak_rss_kb: int | None = None  # largest max RSS over the runs
    phases: dict[str, float] = field(default_factory=dict)  # in-process best times
    error: str = ""  # why there is no number ("n/a: ...", or the tool's error)

    @property
    def ops_per_second(self) -> float | None:
        if not self.seconds or not self.size:
            return None
        return self.size / self.seconds

    @property
    def phase_total(self) -> float | None:
        return sum(self.phases.values()) if self.phases else None


# ------------------------------------------------------------------ child processes


@dataclass
class ChildRun:
    seconds: float
    max_rss_kb: int
    returncode: int
    stderr: str


def _rss_kb(ru_maxrss: int) -> int:
    return ru_maxrss // 1024 if sys.platform == "darwin" else ru_maxrss  # bytes on macOS


def run_child(argv: Sequence[str], timeout: float) -> ChildRun:
    """Run `argv` with stdout to /dev/null; its wall time, peak RSS, status, stderr.

    The child is started with posix_spawn and reaped with wait4, which reports the
    resource usage of exactly that child (unlike getrusage(RUSAGE_CHILDREN), which
    accumulates over all children ever waited for).
    """
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as err:
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_DUP2, err.fileno(), 2),
        ]
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], list(argv), os.environ, file_actions=actions)
        timer = threading.Timer(timeout, _kill, (pid,))
        timer.start()
        try:
            _, status, usage = os.wait4(pid, 0)
        except BaseException:  # e.g. Ctrl-C: do not leave the child running
            _kill(pid)
            os.waitpid(pid, 0)
            raise
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        err.seek(0)
        stderr = err.read()
    returncode = os.waitstatus_to_exitcode(status)
    if returncode == -9 and seconds >= timeout:
        stderr += f"\n(killed after the {timeout:.0f} s timeout)"
    return ChildRun(seconds, _rss_kb(usage.ru_maxrss), returncode, stderr)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass


def _first_error_line(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if "error" in line.lower():
            return line
    return lines[-1] if lines else "no message"


def capture(argv: Sequence[str], timeout: float = 60) -> str:
    """The stdout of a short helper command; empty on any failure."""
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return ""
    return result.stdout.strip() if result.returncode == 0 else ""


# ------------------------------------------------------------------------ the tools


def _phases_helper(python: Path, library: str) -> Callable[[Path, int, float], dict[str, float]]:
    """Phase timing through `phases.py`, run by `python` (mlc's or xdsl's venv)."""

    def phases(path: Path, repeat: int, timeout: float) -> dict[str, float]:
        argv = [str(python), str(PHASES_SCRIPT), library, str(path), "--repeat", str(repeat)]
        try:
            result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"timed out after {timeout:.0f} s") from None
        if result.returncode != 0:  # a traceback: its last line is the exception
            lines = result.stderr.strip().splitlines() or ["no message"]
            raise RuntimeError(lines[-1])
        report = json.loads(result.stdout)
        return {name: report[name] for name in PHASE_NAMES}

    return phases


def mlc_tool(args: argparse.Namespace) -> Tool:
    """mlc-opt from the venv of the interpreter running this script."""
    executable = Path(sys.executable).parent / "mlc-opt"
    if not executable.exists():
        return Tool("mlc-opt", None, unavailable=f"{executable} does not exist")
    version = capture([str(executable), "--version"]).removeprefix("mlc-opt ").strip()
    commit = capture(["git", "-C", str(BENCH_DIR.parent), "describe", "--always", "--dirty"])
    if commit:
        version += f" (git {commit})"
    return Tool("mlc-opt", executable, version,
                phases=_phases_helper(Path(sys.executable), "mlc"))


def _find_mlir_opt() -> Path | None:
    """mlir-opt-22 if installed, else the newest `mlir-opt-N`, else `mlir-opt`."""
    preferred = shutil.which("mlir-opt-22")
    if preferred:
        return Path(preferred)
    versioned: list[tuple[int, Path]] = []
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        for candidate in Path(directory or ".").glob("mlir-opt-[0-9]*"):
            suffix = candidate.name.removeprefix("mlir-opt-")
            if suffix.isdigit() and os.access(candidate, os.X_OK):
                versioned.append((int(suffix), candidate))
    if versioned:
        return max(versioned)[1]
    plain = shutil.which("mlir-opt")
    return Path(plain) if plain else None


_TIMING_LINE = re.compile(r"^\s*([\d.]+)\s+\(\s*[\d.]+%\)\s+(\S.*?)\s*$")


def parse_mlir_timing(report: str) -> dict[str, float]:
    """Seconds per top-level entry of an `--mlir-timing-display=list` report."""
    times = {}
    for line in report.splitlines():
        match = _TIMING_LINE.match(line)
        if match:
            times[match.group(2)] = float(match.group(1))
    return times


def _mlir_phases(executable: Path) -> Callable[[Path, int, float], dict[str, float]]:
    """Phase timing from mlir-opt's own timer: "Parser" (which includes verifying
    the parsed module) and "Output"."""

    def phases(path: Path, repeat: int, timeout: float) -> dict[str, float]:
        argv = [str(executable), str(path), "--mlir-timing", "--mlir-timing-display=list"]
        best = {"parse": float("inf"), "print": float("inf")}
        for _ in range(repeat):
            run = run_child(argv, timeout)
            if run.returncode != 0:
                raise RuntimeError(_first_error_line(run.stderr))
            report = parse_mlir_timing(run.stderr)
            best["parse"] = min(best["parse"], report["Parser"])
            best["print"] = min(best["print"], report["Output"])
        return best

    return phases


def mlir_tool(args: argparse.Namespace) -> Tool:
    """mlir-opt: --mlir-opt, or found on PATH."""
    executable = Path(args.mlir_opt) if args.mlir_opt else _find_mlir_opt()
    if executable is None or not executable.exists():
        return Tool("mlir-opt", None, unavailable="mlir-opt is not installed")
    match = re.search(r"LLVM version (\S+)", capture([str(executable), "--version"]))
    version = f"{match.group(1) if match else '(unknown version)'} ({executable})"
    return Tool("mlir-opt", executable, version, phases=_mlir_phases(executable))


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _xdsl_version(python: Path) -> str:
    return capture([str(python), "-c",
                    "import importlib.metadata as m; print(m.version('xdsl'))"])


def ensure_xdsl_venv(venv: Path, create: bool, log: Callable[[str], None]) -> str:
    """Make sure `venv` has xdsl, creating it if `create`; returns "" or why not."""
    python = _venv_python(venv)
    if python.exists() and _xdsl_version(python):
        return ""
    if not create:
        return f"no xdsl in {venv}"
    log(f"creating {venv} and installing xdsl (first run only)...")
    shutil.rmtree(venv, ignore_errors=True)
    steps = {
        "python -m venv": [sys.executable, "-m", "venv", str(venv)],
        "pip install xdsl": [str(python), "-m", "pip", "install", "--quiet",
                             "--disable-pip-version-check", "xdsl"],
    }
    for label, step in steps.items():
        try:
            result = subprocess.run(step, capture_output=True, text=True, timeout=900)
            failure = _first_error_line(result.stderr) if result.returncode != 0 else ""
        except (OSError, subprocess.SubprocessError) as exc:
            failure = str(exc)
        if failure:
            shutil.rmtree(venv, ignore_errors=True)  # retry from scratch next time
            return f"`{label}` failed: {failure}"
    return ""


def xdsl_tool(args: argparse.Namespace) -> Tool:
    """xdsl-opt from its own venv (created on the first run)."""
    venv = Path(args.xdsl_venv) if args.xdsl_venv else DEFAULT_XDSL_VENV
    reason = ensure_xdsl_venv(venv, create=not args.xdsl_venv, log=args.log)
    if reason:
        return Tool("xdsl-opt", None, unavailable=reason)
    python = _venv_python(venv)
    executable = python.parent / "xdsl-opt"
    if not executable.exists():
        return Tool("xdsl-opt", None, unavailable=f"{executable} does not exist")
    return Tool("xdsl-opt", executable, _xdsl_version(python),
                phases=_phases_helper(python, "xdsl"))


# Tool factories by name, in table column order.
TOOL_FACTORIES: dict[str, Callable[[argparse.Namespace], Tool]] = {
    "mlc-opt": mlc_tool,
    "xdsl-opt": xdsl_tool,
    "mlir-opt": mlir_tool,
}


# ---------------------------------------------------------------------- measuring


def measure_process(tool: Tool, command: list[str] | None, case: str, size: int,
                    repeat: int, timeout: float) -> Measurement:
    """Best wall time and peak RSS of `command` over `repeat` runs."""
    row = Measurement(tool.name, case, size)
    if not tool.available:
        row.error = f"n/a: {tool.unavailable}"
        return row
    if command is None:
        row.error = "n/a: pipeline not supported"
        return row
    for _ in range(repeat):
        try:
            run = run_child(command, timeout)
        except OSError as exc:
            row.error = f"cannot run {command[0]}: {exc}"
            row.seconds = row.peak_rss_kb = None
            return row
        if run.returncode != 0:
            row.error = f"exit status {run.returncode}: {_first_error_line(run.stderr)}"
            row.seconds = row.peak_rss_kb = None
            return row
        row.seconds = min(row.seconds or run.seconds, run.seconds)
        row.peak_rss_kb = max(row.peak_rss_kb or 0, run.max_rss_kb)
    return row


def measure_phases(tool: Tool, path: Path, case: str, size: int, repeat: int,
                   timeout: float) -> Measurement:
    """Best in-process time of each phase."""
    row = Measurement(tool.name, case, size)
    if not tool.available:
        row.error = f"n/a: {tool.unavailable}"
    elif tool.phases is None:
        row.error = "n/a: no in-process timing"
    else:
        try:
            row.phases = tool.phases(path, repeat, timeout)
        except (RuntimeError, KeyError, ValueError, OSError) as exc:
            row.error = f"in-process timing failed: {exc}"
    return row


@dataclass
class Results:
    """Everything one run of the benchmark measured."""

    sizes: list[int]
    repeat: int
    tools: list[Tool]
    startup: list[Measurement] = field(default_factory=list)
    process: dict[str, list[Measurement]] = field(default_factory=dict)  # by case title
    phases: dict[str, list[Measurement]] = field(default_factory=dict)  # by case title
    load_average: float = field(default_factory=lambda: os.getloadavg()[0])


def run_benchmarks(tools: list[Tool], sizes: list[int], repeat: int, timeout: float,
                   log: Callable[[str], None]) -> Results:
    results = Results(sizes, repeat, tools)
    trivial = workloads.trivial_path()
    for tool in tools:
        log(f"start-up: {tool.name}")
        results.startup.append(measure_process(
            tool, tool.command(trivial, ROUNDTRIP), "startup", 0, STARTUP_REPEAT, timeout))
    for case in CASES:
        case_id = f"{case.workload}/{case.pipeline.name}"
        process_rows = results.process.setdefault(case.title, [])
        phase_rows = results.phases.setdefault(case.title, [])
        for size in sizes:
            path = workloads.workload_path(case.workload, size)
            for tool in tools:
                log(f"{case_id} {size:,} ops: {tool.name}, whole process")
                process_rows.append(measure_process(
                    tool, tool.command(path, case.pipeline), case_id, size, repeat, timeout))
                if case.in_process:
                    log(f"{case_id} {size:,} ops: {tool.name}, in process")
                    phase_rows.append(measure_phases(tool, path, case_id, size, repeat,
                                                     timeout))
    return results


# ------------------------------------------------------------------------ tables


def fmt_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms" if seconds >= 0.01 else f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def fmt_rate(rate: float | None) -> str:
    if rate is None:
        return "—"
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M"
    return f"{rate / 1e3:.1f} k" if rate >= 1e3 else f"{rate:.0f}"


def fmt_mb(kb: int | None) -> str:
    return "—" if kb is None else f"{kb / 1024:.0f} MB"


def fmt_ratio(ratio: float | None) -> str:
    return "—" if ratio is None else f"{ratio:.1f}×"


def fmt_size(size: int) -> str:
    return f"{size:,}"


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A markdown table, first column left-aligned and the others right-aligned."""
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _cell(row: Measurement | None, value: str) -> str:
    if row is None:
        return "—"
    if row.error:
        return "n/a" if row.error.startswith("n/a") else "error"
    return value


def _find(rows: list[Measurement], tool: str, size: int) -> Measurement | None:
    return next((r for r in rows if r.tool == tool and r.size == size), None)


def process_table(rows: list[Measurement], tools: list[Tool], sizes: list[int]) -> str:
    header = ["ops"]
    for tool in tools:
        header += [f"{tool.name} time", f"{tool.name} ops/s", f"{tool.name} peak RSS"]
    body = []
    for size in sizes:
        line = [fmt_size(size)]
        for tool in tools:
            row = _find(rows, tool.name, size)
            line += [_cell(row, fmt_seconds(row and row.seconds)),
                     _cell(row, fmt_rate(row and row.ops_per_second)),
                     _cell(row, fmt_mb(row and row.peak_rss_kb))]
        body.append(line)
    return markdown_table(header, body)


def phases_table(rows: list[Measurement], tools: list[Tool], sizes: list[int]) -> str:
    """One row per size and tool: the phases side by side."""
    body = []
    for size in sizes:
        for tool in tools:
            row = _find(rows, tool.name, size)
            line = [fmt_size(size), tool.name]
            for phase in PHASE_NAMES:
                seconds = row.phases.get(phase) if row else None
                line.append(_cell(row, fmt_seconds(seconds) if seconds is not None
                                  else "(in parse)"))
            total = row.phase_total if row else None
            line += [_cell(row, fmt_seconds(total)),
                     _cell(row, fmt_rate(size / total if total else None))]
            body.append(line)
    return markdown_table(["ops", "tool", *PHASE_NAMES, "total", "ops/s"], body)


def startup_table(rows: list[Measurement]) -> str:
    body = [[r.tool, _cell(r, fmt_seconds(r.seconds)), _cell(r, fmt_mb(r.peak_rss_kb))]
            for r in rows]
    return markdown_table(["tool", "wall time", "peak RSS"], body)


def _ratio(rows: list[Measurement], tool: str, small: int, large: int,
           value: Callable[[Measurement], float | None]) -> float | None:
    a, b = _find(rows, tool, small), _find(rows, tool, large)
    if a is None or b is None or a.error or b.error:
        return None
    va, vb = value(a), value(b)
    return vb / va if va and vb else None


def growth_table(results: Results, case_title: str) -> str | None:
    """time(largest) / time(second largest) per tool; None with fewer than 2 sizes."""
    sizes = sorted(results.sizes)
    if len(sizes) < 2:
        return None
    small, large = sizes[-2], sizes[-1]
    process = results.process.get(case_title, [])
    phases = results.phases.get(case_title, [])
    body = []
    for tool in results.tools:
        whole = _ratio(process, tool.name, small, large, lambda r: r.seconds)
        inner = _ratio(phases, tool.name, small, large, lambda r: r.phase_total)
        body.append([tool.name, fmt_ratio(whole), fmt_ratio(inner) if phases else "—"])
    label = f"time({fmt_size(large)}) / time({fmt_size(small)})"
    return (f"{label}; linear scaling gives {large / small:.1f}×.\n\n"
            + markdown_table(["tool", "whole process", "in process (total)"], body))


def machine_info() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{platform.system()} {platform.release()} ({platform.machine()}), {cpu}, "
            f"{os.cpu_count()} CPUs, Python {platform.python_version()}")


def notes(results: Results) -> list[str]:
    """Why some cells read n/a or error, once per distinct reason."""
    seen: dict[str, None] = {}
    everything = results.startup + [r for rows in results.process.values() for r in rows]
    everything += [r for rows in results.phases.values() for r in rows]
    for row in everything:
        if row.error.startswith("n/a"):
            seen.setdefault(f"{row.tool}: {row.error}", None)
        elif row.error:
            where = "start-up" if row.case == "startup" else f"{row.case}, {row.size:,} ops"
            seen.setdefault(f"{row.tool} ({where}): {row.error}", None)
    return list(seen)


def render(results: Results) -> str:
    """All tables of a run, as markdown."""
    available = [t for t in results.tools if t.available]
    versions = ", ".join(f"{t.name} {t.version}".strip() for t in available) or "none"
    parts = [
        f"Measured {time.strftime('%Y-%m-%d')} on {machine_info()}; load average "
        f"{results.load_average:.2f} at the start.",
        f"Tools: {versions}.",
    ]
    for case_title, rows in results.process.items():
        parts += [f"### Whole process: {case_title}",
                  f"`TOOL FILE > /dev/null`, best of {results.repeat}; ops/s counts the "
                  "arith ops of the input; peak RSS is the child's max RSS.",
                  process_table(rows, results.tools, results.sizes)]
        if results.phases.get(case_title):
            parts += [f"### In process: {case_title}",
                      f"Best of {results.repeat} per phase, after a warm-up on a small "
                      "module. mlc and xdsl: their Python APIs (`phases.py`); mlir-opt: its "
                      "`--mlir-timing` report, whose parser also verifies.",
                      phases_table(results.phases[case_title], results.tools, results.sizes)]
        growth = growth_table(results, case_title)
        if growth:
            parts += [f"### Growth: {case_title}", growth]
    trivial = " ".join(workloads.TRIVIAL.split())
    parts += ["### Start-up",
              f"`TOOL trivial.mlir > /dev/null` with `{trivial}`, best of {STARTUP_REPEAT}.",
              startup_table(results.startup)]
    if notes(results):
        parts += ["### Notes", "\n".join(f"- {note}" for note in notes(results))]
    return "\n\n".join(parts) + "\n"


# ------------------------------------------------------------------------ README


README_INTRO = f"""# Benchmarks

How fast mlc handles IR compared with [xDSL](https://xdsl.dev) (also Python) and
MLIR's `mlir-opt` (C++).

`roundtrip.py` measures parse + verify + print round trips on generated workloads
(`workloads.py`: one function of 1,000 / 10,000 / 100,000 arith ops): the wall time
and peak memory of each tool as a whole process, the time of each phase inside one
process, start-up time on a trivial file, and how time grows with the input size.

    .venv/bin/python benchmarks/roundtrip.py                 # print the tables
    .venv/bin/python benchmarks/roundtrip.py --write-readme  # and update this file
    .venv/bin/python benchmarks/roundtrip.py --sizes 1000,10000 --repeat 5

The first run installs xdsl into `benchmarks/.work/xdsl-venv`; mlir-opt is used
when installed (`mlir-opt-22`, or `--mlir-opt PATH`). Workload files are generated
into `benchmarks/.work/` on demand.

## Results

{BEGIN_MARKER}
{END_MARKER}
"""


def write_readme(tables: str, readme: Path = README) -> None:
    """Put `tables` between the markers of `readme`, creating it if missing."""
    text = readme.read_text(encoding="utf-8") if readme.exists() else README_INTRO
    if BEGIN_MARKER not in text or END_MARKER not in text:
        text = text.rstrip("\n") + f"\n\n## Results\n\n{BEGIN_MARKER}\n{END_MARKER}\n"
    before, rest = text.split(BEGIN_MARKER, 1)
    _, after = rest.split(END_MARKER, 1)
    readme.write_text(f"{before}{BEGIN_MARKER}\n{tables}{END_MARKER}{after}", encoding="utf-8")


# --------------------------------------------------------------------------- main


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of sizes: {text}") from None
    if not sizes or min(sizes) <= 0:
        raise argparse.ArgumentTypeError("sizes must be positive")
    return sizes


def build_arg_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=_sizes,
                        default=list(workloads.STANDARD_SIZES),
                        help="comma-separated op counts (default: 1000,10000,100000)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per measurement; the best counts (default: 3)")
    parser.add_argument("--tools", help="comma-separated subset of "
                        f"{','.join(TOOL_FACTORIES)} (default: all)")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds before one run is killed (default: 1800)")
    parser.add_argument("--xdsl-venv", help="use this existing venv with xdsl instead "
                        "of creating benchmarks/.work/xdsl-venv")
    parser.add_argument("--mlir-opt", help="the mlir-opt executable (default: found on PATH)")
    parser.add_argument("--json", type=Path, help="also write the raw measurements here")
    parser.add_argument("--write-readme", action="store_true",
                        help="write the tables into benchmarks/README.md")
    return parser


def _log(message: str) -> None:
    print(f"[roundtrip] {message}", file=sys.stderr, flush=True)


def _dump_json(results: Results, path: Path) -> None:
    data = {
        "machine": machine_info(),
        "sizes": results.sizes,
        "repeat": results.repeat,
        "tools": [{"name": t.name, "version": t.version, "unavailable": t.unavailable}
                  for t in results.tools],
        "startup": [asdict(r) for r in results.startup],
        "process": {k: [asdict(r) for r in v] for k, v in results.process.items()},
        "phases": {k: [asdict(r) for r in v] for k, v in results.phases.items()},
    }
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    args.log = _log
    if args.repeat < 1:
        print("roundtrip.py: error: --repeat must be at least 1", file=sys.stderr)
        return 2
    wanted = [name.strip() for name in args.tools.split(",")] if args.tools else []
    unknown = [name for name in wanted if name not in TOOL_FACTORIES]
    if unknown:
        print(f"roundtrip.py: error: unknown tools {', '.join(unknown)}; known: "
              f"{', '.join(TOOL_FACTORIES)}", file=sys.stderr)
        return 2
    tools = [factory(args) for name, factory in TOOL_FACTORIES.items()
             if not wanted or name in wanted]
    for tool in tools:
        _log(f"{tool.name}: {tool.executable or 'n/a (' + tool.unavailable + ')'}")
    results = run_benchmarks(tools, args.sizes, args.repeat, args.timeout, _log)
    tables = render(results)
    sys.stdout.write(tables)
    if args.json:
        _dump_json(results, args.json)
    if args.write_readme:
        write_readme(tables)
        _log(f"wrote {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
