"""The READMEs run as written: every fenced block of README.md and the package READMEs
is executed the way a newcomer would, so the documentation cannot drift from the code.

Blocks by their info string:

- ```` ```sh ````: one command a line, run by `sh` from a scratch directory holding a
  copy of `examples/`, in order (a later command may read what an earlier one wrote),
  with this venv's `bin` first on PATH. A command whose comment starts with `# error`
  must fail: exit status 1 and an `error:` diagnostic. Every other command must exit 0.
  No command may end in a Python traceback or an "internal error". `make` lines are
  skipped (they are the set-up this test runs inside).
- ```` ```console ````: a transcript; each `$ command` line is run like the above and
  its output (stdout and stderr as a terminal interleaves them) must match the lines
  after it, where a line `...` stands for any lines and `...` inside a line for any text.
  A transcript showing an `error:` must come from a command that exits 1, any other
  from one that exits 0.
- ```` ```python ````: run as a script in the scratch directory, in a fresh interpreter;
  a top-level `print(...)` with a comment on its line is checked: when it prints one
  line, the comment must start with that line (`print(x)  # (2, 3)`).
- ```` ```python excerpt ````: part of a larger file, only checked to be Python.
"""

from __future__ import annotations

import ast
import difflib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
READMES = ["README.md", "packages/ir-core/README.md", "packages/dialect-graph/README.md"]
KNOWN_INFO = {"sh", "console", "python", "python excerpt"}
TIMEOUT = 120

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)


@dataclass(frozen=True)
class Block:
    """A fenced block: where it is, its info string and its text."""

    readme: str
    line: int  # the line of the block's first text line
    info: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.readme}:{self.line}"


def fenced_blocks(readme: str) -> list[Block]:
    """The fenced blocks of `readme` (a path relative to the repository root)."""
    text = (ROOT / readme).read_text(encoding="utf-8")
    return [Block(readme, text.count("\n", 0, m.start(2)) + 1, m.group(1).strip(), m.group(2))
            for m in _FENCE.finditer(text)]


BLOCKS = [block for readme in READMES for block in fenced_blocks(readme)]


def split_comment(line: str) -> tuple[str, str]:
    """A shell line's command and its comment (the text after an unquoted `#` that
    starts a word), both stripped."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].strip(), line[i + 1:].strip()
    return line.strip(), ""


@dataclass(frozen=True)
class Command:
    """A command of a `sh` block or a transcript, and what the README says of it."""

    block: Block
    line: int
    text: str
    comment: str
    expected_output: str | None = None  # a transcript's; None for `sh` blocks

    @property
    def where(self) -> str:
        return f"{self.block.readme}:{self.line}"

    @property
    def must_fail(self) -> bool:
        if self.expected_output is not None:
            return "error:" in self.expected_output
        return self.comment.startswith("error")


def commands() -> list[Command]:
    """Every command of the `sh` blocks and transcripts, in README order."""
    found = []
    for block in BLOCKS:
        lines = block.text.splitlines()
        if block.info == "sh":
            for offset, line in enumerate(lines):
                command, comment = split_comment(line)
                if command and not command.startswith("make "):
                    found.append(Command(block, block.line + offset, command, comment))
        elif block.info == "console":
            starts = [i for i, line in enumerate(lines) if line.startswith("$ ")]
            assert starts and starts[0] == 0, f"{block.where}: a transcript starts with '$ '"
            for start, end in zip(starts, [*starts[1:], len(lines)]):
                command, comment = split_comment(lines[start][2:])
                found.append(Command(block, block.line + start, command, comment,
                                     "\n".join(lines[start + 1:end])))
    return found


COMMANDS = commands()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A scratch directory a newcomer's commands run in: `examples/` as in a checkout,
    so that what they write (out.mlir, repro.mlir) stays out of the repository."""
    directory = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", directory / "examples")
    return directory


def tool_environment() -> dict[str, str]:
    """The environment of a shell with this venv's `bin` first on PATH; output
    unbuffered so that stdout and stderr interleave as on a terminal."""
    env = {k: v for k, v in os.environ.items() if k != "MLC_DEBUG"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONUNBUFFERED"] = "1"
    return env


@dataclass(frozen=True)
class Outcome:
    returncode: int
    output: str  # stdout and stderr, interleaved


@pytest.fixture(scope="module")
def outcomes(workspace: Path) -> dict[Command, Outcome]:
    """Every command run once, in README order (the reproducer a command writes is
    what the next one reads)."""
    results = {}
    env = tool_environment()
    for command in COMMANDS:
        done = subprocess.run(["sh", "-c", command.text], cwd=workspace, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=TIMEOUT)
        results[command] = Outcome(done.returncode, done.stdout)
    return results


def transcript_pattern(expected: str) -> re.Pattern:
    """A transcript's expected output as a regex: a line `...` matches any lines, `...`
    within a line any text; trailing blanks are ignored."""
    parts = []
    for line in expected.splitlines():
        line = line.rstrip()
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.split("...")) + r"[ \t]*\n")
    return re.compile("".join(parts))


@pytest.mark.parametrize("command", COMMANDS, ids=[c.where for c in COMMANDS])
def test_command_runs_as_written(command: Command, outcomes: dict[Command, Outcome]) -> None:
    outcome = outcomes[command]
    shown = f"{command.where}: $ {command.text}\n(exit status {outcome.returncode})\n{outcome.output}"
    assert "Traceback (most recent call last)" not in outcome.output, shown
    assert "internal error" not in outcome.output, shown
    if command.must_fail:
        assert outcome.returncode == 1, shown
        assert re.search(r"(^|\n)\S[^\n]*: error: ", outcome.output), shown
    else:
        assert outcome.returncode == 0, shown
    if command.expected_output is not None:
        actual = "".join(line.rstrip() + "\n" for line in outcome.output.splitlines())
        if not transcript_pattern(command.expected_output).fullmatch(actual):
            diff = "\n".join(difflib.unified_diff(command.expected_output.splitlines(),
                                                  actual.splitlines(), "README", "actual",
                                                  lineterm=""))
            pytest.fail(f"{command.where}: the output differs from the README's:\n{diff}")


def test_crash_reproducer_example_writes_a_reproducer(workspace: Path,
                                                      outcomes: dict[Command, Outcome]) -> None:
    """The README's `--crash-reproducer` line fails for real and leaves a reproducer
    holding its input and pipeline, which fails the same way on its own."""
    [writer] = [c for c in COMMANDS if "--crash-reproducer" in c.text]
    [runner] = [c for c in COMMANDS if "--run-reproducer" in c.text]
    assert outcomes[writer].returncode == 1
    reproducer = (workspace / "repro.mlir").read_text()
    assert "mlir_reproducer" in reproducer and "test-convergence=true" in reproducer
    assert "@twice_product" in reproducer
    first_error = outcomes[writer].output.split("error: ", 1)[1].splitlines()[0]
    assert first_error in outcomes[runner].output


def test_every_block_is_of_a_known_kind() -> None:
    unknown = [f"{b.where}: ```{b.info}" for b in BLOCKS if b.info not in KNOWN_INFO]
    assert not unknown, "blocks this test does not know how to run: " + ", ".join(unknown)
    assert len([c for c in COMMANDS if c.must_fail]) >= 3  # the convention is in use


# ------------------------------------------------------------------ Python

# Runs a snippet as a script whose line numbers are the README's, recording what each
# print call made directly by the snippet's top level wrote.
_RUNNER = r"""
import builtins, io, json, sys
readme, first_line, record_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
code = compile("\n" * (first_line - 1) + sys.stdin.read(), readme, "exec")
printed = []
real_print = builtins.print

def print(*args, **kwargs):
    frame = sys._getframe(1)
    if frame.f_code is code and "file" not in kwargs:
        buffer = io.StringIO()
        real_print(*args, file=buffer, **kwargs)
        printed.append((frame.f_lineno, buffer.getvalue()))
    real_print(*args, **kwargs)

builtins.print = print
namespace = {"__name__": "__main__"}
try:
    exec(code, namespace)
finally:
    with open(record_path, "w") as f:
        json.dump(printed, f)
"""

PYTHON_BLOCKS = [b for b in BLOCKS if b.info.startswith("python")]


def checked_prints(block: Block) -> dict[int, str]:
    """README line of each `print(...)` statement outside functions and classes that
    has a comment on its last line, and that comment."""
    comments = {}
    for token in tokenize.generate_tokens(io.StringIO(block.text).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string[1:].strip()
    found = {}

    def visit(statements: list[ast.stmt]) -> None:
        for statement in statements:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            call = statement.value if isinstance(statement, ast.Expr) else None
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                    and call.func.id == "print" and statement.end_lineno in comments):
                found[block.line + statement.lineno - 1] = comments[statement.end_lineno]
            for field in ("body", "orelse", "finalbody", "handlers"):
                visit(getattr(statement, field, []))

    visit(ast.parse(block.text).body)
    return found


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=[b.where for b in PYTHON_BLOCKS])
def test_python_block_runs_as_written(block: Block, workspace: Path, tmp_path: Path) -> None:
    if block.info == "python excerpt":
        ast.parse(block.text, f"{block.readme}:{block.line}")
        return
    record = tmp_path / "printed.json"
    done = subprocess.run([sys.executable, "-c", _RUNNER, block.readme, str(block.line), str(record)],
                          input=block.text, cwd=workspace, env=tool_environment(),
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, f"{block.where}:\n{done.stderr}"
    printed: dict[int, list[str]] = {}
    for line, text in json.loads(record.read_text()):
        printed.setdefault(line, []).append(text)
    for line, comment in checked_prints(block).items():
        assert line in printed, f"{block.readme}:{line}: the print did not run"
        for text in printed[line]:
            lines = text.rstrip("\n").splitlines()
            if len(lines) == 1:
                assert comment.startswith(lines[0].strip()), (
                    f"{block.readme}:{line}: prints {lines[0]!r}, the comment says {comment!r}")


def test_cases_example_is_accepted_by_mlir_opt(mlir_opt: str) -> None:
    """As the README says: the expected-error comments of examples/cases.mlir hold for
    mlir-opt too, so they check mlc's diagnostics against MLIR's own."""
    done = subprocess.run([mlir_opt, str(ROOT / "examples/cases.mlir"), "--split-input-file",
                           "--verify-diagnostics", "-o", os.devnull],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
