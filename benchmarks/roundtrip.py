"""Round-trip and pass benchmarks: mlc-opt, xdsl-opt and mlir-opt side by side.

    python benchmarks/roundtrip.py [--sizes 1000,10000,100000] [--repeat 3]
                                   [--pipelines roundtrip,canonicalize,cse] [--write-readme]

Measures, for each tool that is available and each case (a workload through a
pipeline: a plain round trip, parse + verify + print, or a pass between them):

* whole process: wall time of `TOOL FILE [PASS FLAGS] > /dev/null` (best of
  --repeat), ops/s, the peak memory (max RSS) of the child process, and the time
  ratio mlc-opt / xdsl-opt;
* in process: the parse, verify, (pass) and print phases timed separately inside
  one process (mlc and xdsl through their Python APIs, see `phases.py`; mlir-opt
  through its `--mlir-timing` report, where verification is part of the parser);
* ops left (pass cases): how many ops the tool's output holds, counted exactly on
  the generic form of the output (see `count_ops`);
* start-up: wall time on a trivial file (best of 5);
* growth: time(largest size) / time(next size), which is the size ratio for a tool
  that scales linearly.

and prints the results as markdown tables. `--write-readme` also puts them into
`benchmarks/README.md`: the round trips between the `roundtrip` markers, the passes
between the `passes` markers (a section that was not run is left as it is).

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
SECTION_MARKERS = {  # README section -> (begin, end)
    "roundtrip": (BEGIN_MARKER, END_MARKER),
    "passes": ("<!-- passes:begin -->", "<!-- passes:end -->"),
    "graph": ("<!-- graph:begin -->", "<!-- graph:end -->"),
    "conformance": ("<!-- conformance:begin -->", "<!-- conformance:end -->"),
    "onnx-coverage": ("<!-- onnx-coverage:begin -->", "<!-- onnx-coverage:end -->"),
    "onnx-import": ("<!-- onnx-import:begin -->", "<!-- onnx-import:end -->"),
}
STARTUP_REPEAT = 5
PHASE_NAMES = ("parse", "verify", "print")


# --------------------------------------------------------------------------- model


@dataclass(frozen=True)
class Pipeline:
    """What a tool does to its input, as command-line flags per tool.

    A tool missing from `flags` does not support the pipeline; its cells read "n/a".
    `pass_name` is the pass a pass pipeline runs: `phases.py --pass` times it in
    process under that name, and `mlir_timer` is its entry in mlir-opt's
    `--mlir-timing` report. Pass pipelines go to the README's `passes` section.
    """

    name: str
    description: str
    flags: dict[str, tuple[str, ...]]
    pass_name: str = ""
    mlir_timer: str = ""

    @property
    def section(self) -> str:
        return "passes" if self.pass_name else "roundtrip"

    @property
    def phase_names(self) -> tuple[str, ...]:
        """The in-process phases, "pass" being the pass."""
        return ("parse", "verify", "pass", "print") if self.pass_name else PHASE_NAMES

    def phase_label(self, phase: str) -> str:
        return self.pass_name if phase == "pass" else phase


ROUNDTRIP = Pipeline(
    "roundtrip", "parse, verify, print",
    {"mlc-opt": (), "xdsl-opt": (), "mlir-opt": ()},
)
# Every tool verifies the input after parsing and the IR again after the pass
# (mlc-opt and mlir-opt: verify-each, on by default; xdsl-opt: after the pipeline).
CANONICALIZE = Pipeline(
    "canonicalize", "parse, verify, canonicalize, verify, print",
    {"mlc-opt": ("--canonicalize",), "xdsl-opt": ("-p", "canonicalize"),
     "mlir-opt": ("--canonicalize",)},
    pass_name="canonicalize", mlir_timer="Canonicalizer",
)
# mlc's cse has opt level 3, which is mlc-opt's default --opt-level: it runs.
CSE = Pipeline(
    "cse", "parse, verify, cse, verify, print",
    {"mlc-opt": ("--cse",), "xdsl-opt": ("-p", "cse"), "mlir-opt": ("--cse",)},
    pass_name="cse", mlir_timer="CSE",
)
PIPELINES = [ROUNDTRIP, CANONICALIZE, CSE]


@dataclass(frozen=True)
class Case:
    """One workload kind (see `workloads.GENERATORS`) through one pipeline."""

    workload: str
    pipeline: Pipeline
    in_process: bool = False  # also time parse / verify / (pass) / print in one process
    count_ops: bool = False  # also count the ops of each tool's output

    @property
    def title(self) -> str:
        return f"`{self.workload}` workload, {self.pipeline.name} ({self.pipeline.description})"

    @property
    def id(self) -> str:
        return f"{self.workload}/{self.pipeline.name}"


CASES = [
    Case("arith", ROUNDTRIP, in_process=True),
    Case("arith", CANONICALIZE, in_process=True, count_ops=True),
    Case("folding", CANONICALIZE, in_process=True, count_ops=True),
    Case("arith", CSE, in_process=True, count_ops=True),
    Case("folding", CSE, in_process=True, count_ops=True),
]


@dataclass
class Tool:
    """A command-line tool under test.

    `executable` is None when the tool is not available; `unavailable` then says why.
    `phases` times the phases of a pipeline (`Pipeline.phase_names`) on a file in one
    process (None: not supported); it returns the best seconds of each phase, a phase
    missing from the result being part of another (mlir-opt verifies inside its
    parser).
    """

    name: str
    executable: Path | None
    version: str = ""
    unavailable: str = ""
    phases: Callable[[Path, Pipeline, int, float], dict[str, float]] | None = None

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
    ops_left: int | None = None  # ops in the output (cases with count_ops)
    op_names: dict[str, int] = field(default_factory=dict)  # ops in the output by name
    count_error: str = ""  # why ops_left is missing

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


# The process that run_child starts to run a command: it spawns the command with
# stdin and stdout on /dev/null (stderr is its own), reaps it with wait4 and prints
# "STATUS MAX_RSS SECONDS", or "oserror MESSAGE" if the command cannot be started.
# See run_child for why this is a process of its own.
_SPAWNER = """\
import os, sys, time
argv = sys.argv[1:]
actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
           (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
start = time.perf_counter()
try:
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
except OSError as exc:
    print("oserror", exc)
    sys.exit(0)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss, seconds)
"""


def run_child(argv: Sequence[str], timeout: float) -> ChildRun:
    """Run `argv` with stdout to /dev/null; its wall time, peak RSS, status, stderr.

    The command is started with posix_spawn and reaped with wait4, which reports the
    resource usage of exactly that child (unlike getrusage(RUSAGE_CHILDREN), which
    accumulates over all children ever waited for). It is started by a small helper
    process (`_SPAWNER`, `python -S`), not by this one: on Linux, exec() records the
    peak RSS of the memory it replaces in the new program's max RSS, and a child
    spawned by this process (vfork-style posix_spawn or fork) replaces memory that is
    this process's, whose peak grows with the outputs the benchmark reads. Through
    the helper, the floor of a reported peak RSS is the helper's own (about 8 MB),
    below every tool's. The helper also times the command, so its own start-up is
    not counted.
    """
    command = [sys.executable, "-S", "-E", "-c", _SPAWNER, *argv]
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as err, \
            tempfile.TemporaryFile(mode="w+", encoding="utf-8") as report:
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_DUP2, report.fileno(), 1),
            (os.POSIX_SPAWN_DUP2, err.fileno(), 2),
        ]
        start = time.perf_counter()
        # Its own process group, so that a timeout kills the command too.
        pid = os.posix_spawn(command[0], command, os.environ, file_actions=actions,
                             setpgroup=0)
        timer = threading.Timer(timeout, _kill, (pid,))
        timer.start()
        try:
            _, status = os.waitpid(pid, 0)
        except BaseException:  # e.g. Ctrl-C: do not leave the command running
            _kill(pid)
            os.waitpid(pid, 0)
            raise
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        err.seek(0)
        stderr = err.read()
        report.seek(0)
        fields = report.read().split(maxsplit=2)
    if fields and fields[0] == "oserror":
        raise OSError(fields[1] + " " + fields[2] if len(fields) > 2 else "cannot spawn")
    if len(fields) != 3:  # the helper died: killed at the timeout, or it failed
        returncode = os.waitstatus_to_exitcode(status)
        if returncode == -9 and wall >= timeout:
            stderr += f"\n(killed after the {timeout:.0f} s timeout)"
        return ChildRun(wall, 0, returncode if returncode else -1, stderr)
    returncode, max_rss, seconds = int(fields[0]), int(fields[1]), float(fields[2])
    return ChildRun(seconds, _rss_kb(max_rss), returncode, stderr)


def _kill(pid: int) -> None:
    """Kill the process group of `pid` (the helper and the command it runs)."""
    try:
        os.killpg(pid, 9)
    except (ProcessLookupError, PermissionError):
        pass


# The exception line of a Python traceback: `OverflowError: ...`, `pkg.mod.Error: ...`.
_EXCEPTION_LINE = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Failure)\b")
_TRACEBACK = "Traceback (most recent call last):"


def _first_error_line(stderr: str) -> str:
    """The line of `stderr` that says what went wrong: the exception of a Python
    traceback (its last one, not the notes after it), else the first line that
    mentions an error, else the last line."""
    if _TRACEBACK in stderr:
        for line in stderr.rsplit(_TRACEBACK, 1)[1].splitlines():
            if _EXCEPTION_LINE.match(line):
                return line.strip()
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


def _phases_helper(python: Path, library: str
                   ) -> Callable[[Path, Pipeline, int, float], dict[str, float]]:
    """Phase timing through `phases.py`, run by `python` (mlc's or xdsl's venv)."""

    def phases(path: Path, pipeline: Pipeline, repeat: int, timeout: float
               ) -> dict[str, float]:
        argv = [str(python), str(PHASES_SCRIPT), library, str(path), "--repeat", str(repeat)]
        if pipeline.pass_name:
            argv += ["--pass", pipeline.pass_name]
        try:
            result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"timed out after {timeout:.0f} s") from None
        if result.returncode != 0:  # a traceback
            raise RuntimeError(_first_error_line(result.stderr))
        report = json.loads(result.stdout)
        return {name: report[name] for name in pipeline.phase_names}

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


def _mlir_phases(executable: Path
                 ) -> Callable[[Path, Pipeline, int, float], dict[str, float]]:
    """Phase timing from mlir-opt's own timer: "Parser" (which includes verifying
    the parsed module), the pass's entry (`Pipeline.mlir_timer`) and "Output"."""

    def phases(path: Path, pipeline: Pipeline, repeat: int, timeout: float
               ) -> dict[str, float]:
        flags = pipeline.flags.get("mlir-opt")
        if flags is None or (pipeline.pass_name and not pipeline.mlir_timer):
            raise RuntimeError(f"no mlir-opt timing for {pipeline.name}")
        argv = [str(executable), str(path), *flags,
                "--mlir-timing", "--mlir-timing-display=list"]
        timers = {"parse": "Parser", "print": "Output"}
        if pipeline.pass_name:
            timers["pass"] = pipeline.mlir_timer
        best = dict.fromkeys(timers, float("inf"))
        for _ in range(repeat):
            run = run_child(argv, timeout)
            if run.returncode != 0:
                raise RuntimeError(_first_error_line(run.stderr))
            report = parse_mlir_timing(run.stderr)
            for phase, timer in timers.items():
                best[phase] = min(best[phase], report[timer])
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


def _why_not(tool: Tool, command: list[str] | None) -> str:
    """Why `command` of `tool` cannot run ("n/a: ..."); "" if it can."""
    if not tool.available:
        return f"n/a: {tool.unavailable}"
    if command is None:
        return "n/a: pipeline not supported"
    return ""


def measure_process(tool: Tool, command: list[str] | None, case: str, size: int,
                    repeat: int, timeout: float) -> Measurement:
    """Best wall time and peak RSS of `command` over `repeat` runs."""
    row = Measurement(tool.name, case, size)
    row.error = _why_not(tool, command)
    if row.error or command is None:
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


def measure_phases(tool: Tool, path: Path, pipeline: Pipeline, case: str, size: int,
                   repeat: int, timeout: float) -> Measurement:
    """Best in-process time of each phase."""
    row = Measurement(tool.name, case, size)
    if not tool.available:
        row.error = f"n/a: {tool.unavailable}"
    elif tool.phases is None:
        row.error = "n/a: no in-process timing"
    else:
        try:
            row.phases = tool.phases(path, pipeline, repeat, timeout)
        except (RuntimeError, KeyError, ValueError, OSError) as exc:
            row.error = f"in-process timing failed: {exc}"
    return row


# A line of MLIR's generic form that starts an op: `"dialect.op"(`, after the op's
# results (`%0 = `, `%0:2 = `) if it has any. Nothing else in the generic form starts
# a line with a quote: attributes, types and block labels come after or are `^bb`.
_GENERIC_OP_LINE = re.compile(r'^[ \t]*(?:%[^=\n]*=[ \t]*)?"([^"\n]+)"\(', re.MULTILINE)


@dataclass
class OpCounter:
    """Counts the ops of MLIR text exactly, whatever syntax it is printed in.

    `argv` reads MLIR on stdin and prints it in the generic form (mlir-opt
    `--mlir-print-op-generic`, else mlc-opt `--print-op-generic`), where every op,
    nested ones included, starts its own line; those lines are counted by op name.
    """

    argv: list[str]

    def count(self, text: str, timeout: float) -> dict[str, int]:
        try:
            result = subprocess.run(self.argv, input=text, capture_output=True, text=True,
                                    timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"{Path(self.argv[0]).name} timed out") from None
        if result.returncode != 0:
            raise RuntimeError(f"{Path(self.argv[0]).name} cannot read it: "
                               f"{_first_error_line(result.stderr)}")
        counts: dict[str, int] = {}
        for name in _GENERIC_OP_LINE.findall(result.stdout):
            counts[name] = counts.get(name, 0) + 1
        return counts


def op_counter(tools: list[Tool]) -> OpCounter | None:
    """Generic-form printing by mlir-opt, or by mlc-opt without it; None if neither."""
    by_name = {tool.name: tool for tool in tools if tool.available}
    if "mlir-opt" in by_name:
        return OpCounter([str(by_name["mlir-opt"].executable), "--mlir-print-op-generic", "-"])
    if "mlc-opt" in by_name:
        return OpCounter([str(by_name["mlc-opt"].executable), "--print-op-generic", "-"])
    return None


def count_output_ops(row: Measurement, tool: Tool, command: list[str] | None,
                     counter: OpCounter | None, timeout: float) -> None:
    """Run `command` once, keeping its output, and count the ops in it into
    `row.ops_left` / `row.op_names` (or say why not in `row.count_error`)."""
    row.count_error = _why_not(tool, command)
    if row.count_error or command is None:
        return
    if counter is None:
        row.count_error = "n/a: neither mlir-opt nor mlc-opt to count ops with"
        return
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        row.count_error = f"timed out after {timeout:.0f} s"
        return
    if result.returncode != 0:
        row.count_error = f"exit status {result.returncode}: {_first_error_line(result.stderr)}"
        return
    try:
        row.op_names = counter.count(result.stdout, timeout)
    except RuntimeError as exc:
        row.count_error = f"counting the output's ops failed: {exc}"
        return
    row.ops_left = sum(row.op_names.values())


@dataclass
class Results:
    """Everything one run of the benchmark measured."""

    sizes: list[int]
    repeat: int
    tools: list[Tool]
    cases: list[Case] = field(default_factory=list)
    startup: list[Measurement] = field(default_factory=list)
    process: dict[str, list[Measurement]] = field(default_factory=dict)  # by case title
    phases: dict[str, list[Measurement]] = field(default_factory=dict)  # by case title
    input_ops: dict[str, int | None] = field(default_factory=dict)  # by "<workload>/<size>"
    load: dict[str, tuple[float, float]] = field(default_factory=dict)  # by case title
    load_average: float = field(default_factory=lambda: os.getloadavg()[0])


def run_benchmarks(tools: list[Tool], sizes: list[int], repeat: int, timeout: float,
                   log: Callable[[str], None], cases: Sequence[Case] = tuple(CASES)
                   ) -> Results:
    results = Results(sizes, repeat, tools, list(cases))
    if any(case.pipeline.section == "roundtrip" for case in cases):
        trivial = workloads.trivial_path()
        for tool in tools:
            log(f"start-up: {tool.name}")
            results.startup.append(measure_process(
                tool, tool.command(trivial, ROUNDTRIP), "startup", 0, STARTUP_REPEAT, timeout))
    counter = op_counter(tools) if any(case.count_ops for case in cases) else None
    for case in cases:
        load_before = os.getloadavg()[0]
        process_rows = results.process.setdefault(case.title, [])
        phase_rows = results.phases.setdefault(case.title, [])
        for size in sizes:
            path = workloads.workload_path(case.workload, size)
            input_key = f"{case.workload}/{size}"
            if case.count_ops and counter and input_key not in results.input_ops:
                try:
                    counts = counter.count(path.read_text(encoding="utf-8"), timeout)
                    results.input_ops[input_key] = sum(counts.values())
                except RuntimeError:
                    results.input_ops[input_key] = None
            for tool in tools:
                command = tool.command(path, case.pipeline)
                counted = Measurement(tool.name, case.id, size)
                if case.count_ops:
                    # Untimed, before the timed runs: also warms up the file cache.
                    log(f"{case.id} {size:,} ops: {tool.name}, ops in the output")
                    count_output_ops(counted, tool, command, counter, timeout)
                log(f"{case.id} {size:,} ops: {tool.name}, whole process")
                row = measure_process(tool, command, case.id, size, repeat, timeout)
                row.ops_left, row.op_names = counted.ops_left, counted.op_names
                row.count_error = counted.count_error
                process_rows.append(row)
                if case.in_process:
                    log(f"{case.id} {size:,} ops: {tool.name}, in process")
                    phase_rows.append(measure_phases(tool, path, case.pipeline, case.id,
                                                     size, repeat, timeout))
        results.load[case.title] = (load_before, os.getloadavg()[0])
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


def fmt_ratio(ratio: float | None, digits: int = 1) -> str:
    return "—" if ratio is None else f"{ratio:.{digits}f}×"


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


def _time_ratio(rows: list[Measurement], size: int, numerator: str, denominator: str,
                value: Callable[[Measurement], float | None]) -> float | None:
    """value(numerator's row) / value(denominator's row) at `size`."""
    a, b = _find(rows, numerator, size), _find(rows, denominator, size)
    if a is None or b is None or a.error or b.error:
        return None
    va, vb = value(a), value(b)
    return va / vb if va and vb else None


def _has_tools(tools: list[Tool], *names: str) -> bool:
    return all(any(t.name == name for t in tools) for name in names)


def process_table(rows: list[Measurement], tools: list[Tool], sizes: list[int]) -> str:
    header = ["ops"]
    for tool in tools:
        header += [f"{tool.name} time", f"{tool.name} ops/s", f"{tool.name} peak RSS"]
    with_ratio = _has_tools(tools, "mlc-opt", "xdsl-opt")
    if with_ratio:
        header.append("mlc/xdsl time")
    body = []
    for size in sizes:
        line = [fmt_size(size)]
        for tool in tools:
            row = _find(rows, tool.name, size)
            line += [_cell(row, fmt_seconds(row and row.seconds)),
                     _cell(row, fmt_rate(row and row.ops_per_second)),
                     _cell(row, fmt_mb(row and row.peak_rss_kb))]
        if with_ratio:
            line.append(fmt_ratio(_time_ratio(rows, size, "mlc-opt", "xdsl-opt",
                                              lambda r: r.seconds), digits=2))
        body.append(line)
    return markdown_table(header, body)


def phases_table(rows: list[Measurement], tools: list[Tool], sizes: list[int],
                 pipeline: Pipeline = ROUNDTRIP) -> str:
    """One row per size and tool: the phases side by side."""
    phases = pipeline.phase_names
    body = []
    for size in sizes:
        for tool in tools:
            row = _find(rows, tool.name, size)
            line = [fmt_size(size), tool.name]
            for phase in phases:
                seconds = row.phases.get(phase) if row else None
                line.append(_cell(row, fmt_seconds(seconds) if seconds is not None
                                  else "(in parse)"))
            total = row.phase_total if row else None
            line += [_cell(row, fmt_seconds(total)),
                     _cell(row, fmt_rate(size / total if total else None))]
            if pipeline.pass_name:
                seconds = row.phases.get("pass") if row else None
                line.append(_cell(row, fmt_rate(size / seconds if seconds else None)))
            body.append(line)
    header = ["ops", "tool", *(pipeline.phase_label(p) for p in phases), "total", "ops/s"]
    if pipeline.pass_name:
        header.append(f"{pipeline.pass_name} ops/s")
    return markdown_table(header, body)


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


def growth_table(results: Results, case: Case) -> str | None:
    """time(largest) / time(second largest) per tool; None with fewer than 2 sizes."""
    sizes = sorted(results.sizes)
    if len(sizes) < 2:
        return None
    small, large = sizes[-2], sizes[-1]
    process = results.process.get(case.title, [])
    phases = results.phases.get(case.title, [])
    pass_name = case.pipeline.pass_name
    body = []
    for tool in results.tools:
        whole = _ratio(process, tool.name, small, large, lambda r: r.seconds)
        inner = _ratio(phases, tool.name, small, large, lambda r: r.phase_total)
        line = [tool.name, fmt_ratio(whole), fmt_ratio(inner) if phases else "—"]
        if pass_name:
            alone = _ratio(phases, tool.name, small, large, lambda r: r.phases.get("pass"))
            line.append(fmt_ratio(alone) if phases else "—")
        body.append(line)
    header = ["tool", "whole process", "in process (total)"]
    if pass_name:
        header.append(f"in process ({pass_name} only)")
    label = f"time({fmt_size(large)}) / time({fmt_size(small)})"
    return (f"{label}; linear scaling gives {large / small:.1f}×.\n\n"
            + markdown_table(header, body))


def ops_left_table(results: Results, pipeline: Pipeline) -> str | None:
    """Ops in each tool's output after `pipeline`, per workload and size."""
    cases = [c for c in results.cases if c.pipeline.name == pipeline.name and c.count_ops]
    if not cases:
        return None
    tools = results.tools
    with_diff = _has_tools(tools, "mlc-opt", "mlir-opt")
    body = []
    for case in cases:
        rows = results.process.get(case.title, [])
        for size in results.sizes:
            found = results.input_ops.get(f"{case.workload}/{size}")
            line = [f"`{case.workload}`", fmt_size(size),
                    "—" if found is None else fmt_size(found)]
            for tool in tools:
                row = _find(rows, tool.name, size)
                if row is None or row.ops_left is None:
                    missing = row.count_error if row else ""
                    line.append("n/a" if not missing or missing.startswith("n/a") else "error")
                else:
                    line.append(fmt_size(row.ops_left))
            if with_diff:
                mlc, mlir = _find(rows, "mlc-opt", size), _find(rows, "mlir-opt", size)
                if mlc and mlir and mlc.ops_left is not None and mlir.ops_left is not None:
                    diff = mlc.ops_left - mlir.ops_left
                    line.append(f"{diff:+,}" if diff else "0")
                else:
                    line.append("—")
            body.append(line)
    header = ["workload", "ops", "input", *(t.name for t in tools)]
    if with_diff:
        header.append("mlc − mlir")
    return markdown_table(header, body)


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


def notes(results: Results, section: str | None = None) -> list[str]:
    """Why some cells read n/a or error, once per distinct reason (only for the
    cases of `section`, start-up belonging to "roundtrip", when given)."""
    titles = {c.title for c in results.cases
              if section is None or c.pipeline.section == section}
    seen: dict[str, None] = {}
    everything = results.startup if section in (None, "roundtrip") else []
    everything = everything + [r for title, rows in results.process.items()
                               if title in titles for r in rows]
    everything += [r for title, rows in results.phases.items() if title in titles
                   for r in rows]
    for row in everything:
        where = "start-up" if row.case == "startup" else f"{row.case}, {row.size:,} ops"
        if row.error.startswith("n/a"):
            seen.setdefault(f"{row.tool}: {row.error}", None)
        elif row.error:
            seen.setdefault(f"{row.tool} ({where}): {row.error}", None)
        if row.count_error and not row.error and not row.count_error.startswith("n/a"):
            seen.setdefault(f"{row.tool} ({where}, ops left): {row.count_error}", None)
    return list(seen)


def _commands(pipeline: Pipeline, tools: list[Tool]) -> str:
    if not pipeline.pass_name:
        return "`TOOL FILE > /dev/null`"
    commands = [" ".join([tool.name, "FILE", *pipeline.flags[tool.name]])
                for tool in tools if tool.name in pipeline.flags]
    return ", ".join(f"`{command} > /dev/null`" for command in commands)


def case_parts(results: Results, case: Case) -> list[str]:
    """The tables of one case: whole process, in process, growth."""
    title, pipeline = case.title, case.pipeline
    start, end = results.load.get(title, (results.load_average, results.load_average))
    parts = [f"### Whole process: {title}",
             f"{_commands(pipeline, results.tools)}, best of {results.repeat}; ops/s "
             "counts the arith ops of the input; peak RSS is the child's max RSS; "
             "mlc/xdsl time is mlc-opt's time over xdsl-opt's (below 1: mlc-opt is "
             f"faster). Load average {start:.2f} at the start of this case, {end:.2f} at "
             "its end.",
             process_table(results.process[title], results.tools, results.sizes)]
    if results.phases.get(title):
        if pipeline.pass_name:
            how = (f"mlc and xdsl: their Python APIs (`phases.py --pass "
                   f"{pipeline.pass_name}`, the pass without the verification after "
                   f"it); mlir-opt: its `--mlir-timing` report (\"Parser\", which also "
                   f"verifies, \"{pipeline.mlir_timer}\" and \"Output\"). The last "
                   f"column is the input's arith ops over the {pipeline.pass_name} time.")
        else:
            how = ("mlc and xdsl: their Python APIs (`phases.py`); mlir-opt: its "
                   "`--mlir-timing` report, whose parser also verifies.")
        parts += [f"### In process: {title}",
                  f"Best of {results.repeat} per phase, after a warm-up on a small "
                  f"module. {how}",
                  phases_table(results.phases[title], results.tools, results.sizes,
                               pipeline)]
    growth = growth_table(results, case)
    if growth:
        parts += [f"### Growth: {title}", growth]
    return parts


FOLDING_TEXT = """\
The `folding` workload (`workloads.py`) is one function of N arith ops written so that
folding has real work: starting from the two arguments it grows a chain of live
values, each step either a plain `addf`/`mulf`/`subf` on live values (one step in
four) or one of four patterns, chosen at random: a chain of 2 to 4 constants
combined by `addf`/`mulf`/`subf` and then applied to the chain (the constant part
folds to one constant), `x * 1.0` and `x - 0.0` (both fold to `x`), and `x op c`
with `c` one of 2.0, 0.5 and 3.0, constants repeated thousands of times (which
canonicalize and cse deduplicate). Every step feeds the returned value, so dead-code
elimination alone removes nothing and the function still depends on its arguments
after folding. The `arith` workload of the round trips is not built to fold, but
passes still have work on it: each op takes its operands from the last 20 values, so
many results are never used and the ops producing them are dead (canonicalize erases
them all; mlir-opt's cse erases the ops that are unused when it reaches them), and
some `addf`/`mulf`/`subf` combine two constants and fold. At 100,000 ops (standard
seed) the arguments drop out of that window for good (no value from op 11,436 on
depends on them), so the returned value is a constant expression of some 88,000 ops:
canonicalize folds the whole function to one constant (NaN, after f32 overflows to
infinities), and xdsl 0.74's folder raises on the first overflow instead."""

OPS_LEFT_TEXT = """\
"Ops left" counts every op in a tool's output, `builtin.module`, `func.func` and
`func.return` included (so the input column is N + 3). The output (the stdout of one
more run of the command below, untimed, before the timed ones) is printed again in
MLIR's generic form, where each op, nested ones included, starts its own line with
its quoted name (`"arith.addf"(`, after its results if it has any), and those lines
are counted. The generic form is printed by:

    {counter}

`mlc − mlir` is mlc-opt's count minus mlir-opt's (the target is 0)."""


def _header(results: Results) -> list[str]:
    available = [t for t in results.tools if t.available]
    versions = ", ".join(f"{t.name} {t.version}".strip() for t in available) or "none"
    return [f"Measured {time.strftime('%Y-%m-%d')} on {machine_info()}; load average "
            f"{results.load_average:.2f} at the start.",
            f"Tools: {versions}."]


def render_sections(results: Results) -> dict[str, str]:
    """The tables of a run as markdown, by README section ("roundtrip", "passes");
    a section none of whose cases ran is missing."""
    sections: dict[str, str] = {}
    roundtrip_cases = [c for c in results.cases if c.pipeline.section == "roundtrip"]
    pass_cases = [c for c in results.cases if c.pipeline.section == "passes"]
    if roundtrip_cases:
        parts = _header(results)
        for case in roundtrip_cases:
            parts += case_parts(results, case)
        trivial = " ".join(workloads.TRIVIAL.split())
        parts += ["### Start-up",
                  f"`TOOL trivial.mlir > /dev/null` with `{trivial}`, best of "
                  f"{STARTUP_REPEAT}.",
                  startup_table(results.startup)]
        if notes(results, "roundtrip"):
            parts += ["### Notes",
                      "\n".join(f"- {note}" for note in notes(results, "roundtrip"))]
        sections["roundtrip"] = "\n\n".join(parts) + "\n"
    if pass_cases:
        parts = _header(results) + [FOLDING_TEXT]
        counter = op_counter(results.tools)
        pipelines = list({c.pipeline.name: c.pipeline
                          for c in pass_cases if c.count_ops}.values())
        if pipelines:
            name = Path(counter.argv[0]).name if counter else "(no tool)"
            parts.append(OPS_LEFT_TEXT.format(counter=" ".join([name, *counter.argv[1:]])
                                              if counter else name))
        for pipeline in pipelines:
            table = ops_left_table(results, pipeline)
            if table:
                parts += [f"### Ops left after {pipeline.name}", table]
        for case in pass_cases:
            parts += case_parts(results, case)
        if notes(results, "passes"):
            parts += ["### Notes",
                      "\n".join(f"- {note}" for note in notes(results, "passes"))]
        sections["passes"] = "\n\n".join(parts) + "\n"
    return sections


def render(results: Results) -> str:
    """All tables of a run, as markdown."""
    return "\n".join(render_sections(results).values())


# ------------------------------------------------------------------------ README


README_INTRO = f"""# Benchmarks

How fast mlc handles IR compared with [xDSL](https://xdsl.dev) (also Python) and
MLIR's `mlir-opt` (C++).

`roundtrip.py` measures, on generated workloads (`workloads.py`: one function of
1,000 / 10,000 / 100,000 arith ops), parse + verify + print round trips and the
`canonicalize` and `cse` passes: the wall time and peak memory of each tool as a
whole process, the time of each phase (and of the pass) inside one process, how time
grows with the input size, start-up time on a trivial file, and, for the passes, how
many ops each tool leaves.

    .venv/bin/python benchmarks/roundtrip.py                 # print the tables
    .venv/bin/python benchmarks/roundtrip.py --write-readme  # and update this file
    .venv/bin/python benchmarks/roundtrip.py --sizes 1000,10000 --repeat 5
    .venv/bin/python benchmarks/roundtrip.py --pipelines canonicalize,cse

The first run installs xdsl into `benchmarks/.work/xdsl-venv`; mlir-opt is used
when installed (`mlir-opt-22`, or `--mlir-opt PATH`). Workload files are generated
into `benchmarks/.work/` on demand.

## Results: round trips

{BEGIN_MARKER}
{END_MARKER}

## Results: passes

{SECTION_MARKERS["passes"][0]}
{SECTION_MARKERS["passes"][1]}
"""

SECTION_TITLES = {"roundtrip": "Results: round trips", "passes": "Results: passes",
                  "graph": "Results: graph-optimize and fusion",
                  "conformance": "Results: MLIR conformance",
                  "onnx-coverage": "ONNX node tests",
                  "onnx-import": "Results: ONNX import"}


def write_readme(sections: dict[str, str] | str, readme: Path = README) -> None:
    """Put each section's tables between its markers in `readme` (a plain string is
    the roundtrip section), creating the file or missing markers as needed; the
    sections not given are left as they are."""
    if isinstance(sections, str):
        sections = {"roundtrip": sections}
    text = readme.read_text(encoding="utf-8") if readme.exists() else README_INTRO
    for section, tables in sections.items():
        begin, end = SECTION_MARKERS[section]
        if begin not in text or end not in text:
            text = (text.rstrip("\n")
                    + f"\n\n## {SECTION_TITLES[section]}\n\n{begin}\n{end}\n")
        before, rest = text.split(begin, 1)
        _, after = rest.split(end, 1)
        text = f"{before}{begin}\n{tables}{end}{after}"
    readme.write_text(text, encoding="utf-8")


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
    parser.add_argument("--pipelines", help="comma-separated subset of "
                        f"{','.join(p.name for p in PIPELINES)} (default: all)")
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
        "cases": [c.title for c in results.cases],
        "load_average": results.load_average,
        "load": results.load,
        "startup": [asdict(r) for r in results.startup],
        "process": {k: [asdict(r) for r in v] for k, v in results.process.items()},
        "phases": {k: [asdict(r) for r in v] for k, v in results.phases.items()},
        "input_ops": results.input_ops,
    }
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _unknown(wanted: list[str], known: Iterable[str], what: str) -> str:
    known = list(known)
    unknown = [name for name in wanted if name not in known]
    if not unknown:
        return ""
    return f"roundtrip.py: error: unknown {what} {', '.join(unknown)}; known: {', '.join(known)}"


def main(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    args.log = _log
    if args.repeat < 1:
        print("roundtrip.py: error: --repeat must be at least 1", file=sys.stderr)
        return 2
    wanted = [name.strip() for name in args.tools.split(",")] if args.tools else []
    pipelines = [name.strip() for name in args.pipelines.split(",")] if args.pipelines else []
    error = (_unknown(wanted, TOOL_FACTORIES, "tools")
             or _unknown(pipelines, (p.name for p in PIPELINES), "pipelines"))
    if error:
        print(error, file=sys.stderr)
        return 2
    tools = [factory(args) for name, factory in TOOL_FACTORIES.items()
             if not wanted or name in wanted]
    cases = [case for case in CASES if not pipelines or case.pipeline.name in pipelines]
    for tool in tools:
        _log(f"{tool.name}: {tool.executable or 'n/a (' + tool.unavailable + ')'}")
    results = run_benchmarks(tools, args.sizes, args.repeat, args.timeout, _log, cases)
    sections = render_sections(results)
    sys.stdout.write("\n".join(sections.values()))
    if args.json:
        _dump_json(results, args.json)
    if args.write_readme:
        write_readme(sections)
        _log(f"wrote {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
