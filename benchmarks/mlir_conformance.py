"""MLIR conformance: how many of MLIR's own lit test cases mlc-opt passes, side by
side with mlir-opt.

    .venv/bin/python benchmarks/mlir_conformance.py                  # every file, a table
    .venv/bin/python benchmarks/mlir_conformance.py --files 'IR/*'   # some of them
    .venv/bin/python benchmarks/mlir_conformance.py --show 'output mismatch'
    .venv/bin/python benchmarks/mlir_conformance.py --write-readme   # update README.md

The test files (`TEST_FILES`, paths under `mlir/test/`) come from Debian's
`llvm-toolchain-22` source package, the version of the installed mlir-opt: on first
use the `.orig.tar.xz` is streamed from Debian's package pool and only those files
are extracted, into `benchmarks/.work/mlir-tests/` (never committed).

Each file is cut into cases the way MLIR's tests are written: the chunks between
`// -----` lines when a RUN line has `-split-input-file`, and within a chunk the
blocks that start at a `CHECK-LABEL` line (of any of the RUN lines' prefixes). A
RUN line runs as lit would run it (`not`, `2>&1`, pipes, pipefail), once per
chunk for a splitting RUN line (the chunk alone, at its lines in the file, so
diagnostics keep their line numbers) and once for the whole file otherwise; each
case's CHECK lines are then matched against that output with the `filecheck`
package, ending at the next block's label as FileCheck's blocks do. A case passes
for a tool when every RUN line passes on it.

For mlc-opt each `mlir-opt` of a RUN line is translated (`translate_opt_args`):
`--mlir-print-op-generic` becomes `--print-op-generic`, `-pass-pipeline=P`
becomes `-p P`, a pass flag stays a pass flag when mlc has the pass, and so on; each
`mlir-translate` (Target/LLVMIR's RUN lines) becomes mlc-translate with its flags
translated the same way (`TRANSLATE_OPTION_TRANSLATIONS`: `-mlir-to-llvmir`,
`-split-input-file`, `-verify-diagnostics`, `--no-implicit-module`).
An mlc failure gets one kind (`KINDS`, most basic first): unsupported flag (a
flag or pass mlc-opt lacks), unsupported op (mlc says an op or dialect that MLIR
has is unknown, or the input uses an op of MLIR's `test` dialect that mlc-opt's
dialects lack, which no fix of mlc's could make pass), crash (internal error, signal, timeout), valid input rejected
(an error where none is expected), diagnostic mismatch (the `expected-*`
diagnostics, or a failure expected with `not`, differ), output mismatch (the
CHECK lines do not match).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import fnmatch
import io
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from roundtrip import WORK_DIR, capture, markdown_table, mlc_tool, mlir_tool, write_readme

LLVM_MAJOR = 22
FALLBACK_VERSION = "22.1.8"  # when no mlir-opt says which version it is
POOLS = (  # Debian's package pools holding llvm-toolchain-22 (the archive, then security)
    "https://deb.debian.org/debian/pool/main/l/llvm-toolchain-22/",
    "https://deb.debian.org/debian-security/pool/updates/main/l/llvm-toolchain-22/",
)
SOURCES_DIR = WORK_DIR / "mlir-tests"
TEST_FILES = (  # globs under mlir/test/; `*` does not cross a `/`
    "IR/*.mlir",
    "Dialect/Arith/*.mlir",
    "Dialect/Func/*.mlir",
    "Dialect/Builtin/*.mlir",
    "Transforms/canonicalize.mlir",
    "Transforms/cse.mlir",
    "Transforms/test-symbol-dce.mlir",
    "Transforms/canonicalize-td.mlir",
    "Transforms/canonicalize-dce.mlir",
)
# The lower levels' dialects (issue 10's and 11's): extracted too, measured only when
# `--files` names them, so the default table stays issue 13's yardstick.
LOWER_LEVEL_FILES = (
    "Dialect/SCF/*.mlir",
    "Dialect/MemRef/*.mlir",
    "Dialect/Vector/*.mlir",
    "Dialect/Math/*.mlir",
    "Dialect/ControlFlow/*.mlir",
    "Dialect/UB/*.mlir",
    "Dialect/LLVMIR/*.mlir",
    "Conversion/SCFToControlFlow/*.mlir",
    "Conversion/ArithToLLVM/*.mlir",
    "Conversion/FuncToLLVM/*.mlir",
    "Conversion/MemRefToLLVM/*.mlir",
    "Conversion/VectorToLLVM/*.mlir",
    "Conversion/ControlFlowToLLVM/*.mlir",
    "Conversion/MathToLLVM/*.mlir",
    "Conversion/IndexToLLVM/*.mlir",
    "Transforms/loop-invariant-code-motion.mlir",
    "Target/LLVMIR/*.mlir",
)
EXTRACTED_FILES = TEST_FILES + LOWER_LEVEL_FILES
# `--files llvmir-basic`: the Target/LLVMIR files about the llvm dialect's own translation
# (the others translate other dialects — OpenMP, OpenACC, GPU targets, Arm/x86/RISC-V
# vector extensions, ptr, MLIR's test dialect — or run mlir-opt's target passes).
BASIC_LLVMIR = "llvmir-basic"
_NOT_BASIC_LLVMIR = re.compile(r"(omp|openmp|openacc|ompenmp|allocatable|gpu|nvvm|rocdl|arm-|"
                               r"amx|x86vector|vcix|xevm|ptr\.|target-to-|test\.)")

UNSUPPORTED_FLAG = "unsupported flag"
UNSUPPORTED_OP = "unsupported op"
CRASH = "crash"
VALID_INPUT_REJECTED = "valid input rejected"
DIAGNOSTIC_MISMATCH = "diagnostic mismatch"
OUTPUT_MISMATCH = "output mismatch"
KINDS = (UNSUPPORTED_FLAG, UNSUPPORTED_OP, CRASH, VALID_INPUT_REJECTED, DIAGNOSTIC_MISMATCH,
         OUTPUT_MISMATCH)  # a case failing several RUN lines gets the first of its kinds here

# mlir-opt option -> (mlc-opt option, whether it takes a value). Options missing from
# `mlc-opt --help` are dropped when the tools are set up, so they count as unsupported.
OPTION_TRANSLATIONS: dict[str, tuple[str, bool]] = {
    "allow-unregistered-dialect": ("--allow-unregistered-dialect", False),
    "split-input-file": ("--split-input-file", False),
    "verify-diagnostics": ("--verify-diagnostics", False),
    "verify-roundtrip": ("--verify-roundtrip", False),
    "mlir-print-op-generic": ("--print-op-generic", False),
    "mlir-print-debuginfo": ("--print-debuginfo", False),
    "mlir-print-local-scope": ("--print-local-scope", False),
    "mlir-elide-elementsattrs-if-larger": ("--elide-elementsattrs-if-larger", True),
    "mlir-print-elementsattrs-with-hex-if-larger": ("--print-elementsattrs-with-hex-if-larger",
                                                    True),
    "pass-pipeline": ("-p", True),
    "o": ("-o", True),
    "help": ("--help", False),
}
# mlir-translate option -> mlc-translate option, as OPTION_TRANSLATIONS (Target/LLVMIR's
# RUN lines: `mlir-translate -mlir-to-llvmir [-split-input-file] [-verify-diagnostics]`).
TRANSLATE_OPTION_TRANSLATIONS: dict[str, tuple[str, bool]] = {
    "mlir-to-llvmir": ("--mlir-to-llvmir", False),
    "allow-unregistered-dialect": ("--allow-unregistered-dialect", False),
    "split-input-file": ("--split-input-file", False),
    "verify-diagnostics": ("--verify-diagnostics", False),
    "no-implicit-module": ("--no-implicit-module", False),
    "o": ("-o", True),
}
# Options that change nothing mlc-opt could do differently: it runs passes on one thread.
IGNORED_OPTIONS = frozenset({"mlir-disable-threading"})
# The programs a RUN line may pipe, and mlc's counterpart of each.
MLC_COUNTERPARTS = {"mlir-opt": "mlc-opt", "mlir-translate": "mlc-translate"}

_RUN = re.compile(r"^\s*//\s*RUN:(.*)$")
_EXPECTED_DIAGNOSTIC = re.compile(r"\bexpected-(?:error|warning|remark|note)\b")
_SPLIT_MARKER = "// -----"
_DIRECTIVES = r"(?:-(?:LABEL|NEXT|SAME|DAG|NOT|EMPTY|COUNT-\d+))?"
_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


# --------------------------------------------------------------------- RUN lines


class Unsupported(Exception):
    """A RUN line, or one of its mlir-opt flags, that cannot be run as asked."""


@dataclass(frozen=True)
class Command:
    """One program of a RUN line's pipe: its arguments after the program name."""

    program: str
    args: tuple[str, ...]
    negated: bool = False  # `not PROGRAM`: must exit non-zero (a crash still fails)
    merge_stderr: bool = False  # `2>&1`


@dataclass(frozen=True)
class CheckOptions:
    """The FileCheck flags of a RUN line that the `filecheck` package honours."""

    prefixes: tuple[str, ...] = ("CHECK",)
    strict_whitespace: bool = False
    match_full_lines: bool = False
    enable_var_scope: bool = False
    allow_empty: bool = False


@dataclass(frozen=True)
class RunLine:
    """A parsed RUN line: the mlir-opt and mlir-translate commands of its pipe and its
    FileCheck, if any.

    `unsupported` says why the harness cannot run it (another program, a
    redirection, a lit substitution other than %s); such a RUN line fails on both
    tools."""

    line: int  # 1-based, of its first `// RUN:`
    text: str
    commands: tuple[Command, ...] = ()
    check: CheckOptions | None = None
    unsupported: str = ""

    @property
    def splits(self) -> bool:
        """Whether the first command cuts its input at `// -----` lines."""
        return bool(self.commands) and any(
            _option_name(arg) == "split-input-file" for arg in self.commands[0].args)

    @property
    def per_chunk(self) -> bool:
        """Whether the RUN line runs on each chunk alone. Not under `not`: a chunk alone
        need not fail when the file does (one failing chunk makes the status)."""
        return self.splits and not self.commands[0].negated

    def verifies_diagnostics(self, command: Command) -> bool:
        return any(_option_name(arg) == "verify-diagnostics" for arg in command.args)


def _option_name(arg: str) -> str:
    """`-foo=bar` and `--foo` -> `foo`; '' for a positional argument."""
    if not arg.startswith("-") or arg == "-":
        return ""
    return arg.lstrip("-").split("=", 1)[0]


def run_commands(lines: Sequence[str]) -> list[tuple[int, str]]:
    """The RUN commands of a test file: (1-based line, text), with lines ending in a
    backslash joined to the next RUN line as lit does."""
    commands: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, line in enumerate(lines, 1):
        match = _RUN.match(line)
        if not match:
            continue
        text = match.group(1).strip()
        start, before = pending if pending else (number, "")
        joined = f"{before} {text}".strip()
        if joined.endswith("\\"):
            pending = (start, joined[:-1].rstrip())
        else:
            commands.append((start, joined))
            pending = None
    if pending:
        commands.append(pending)
    return commands


def parse_run_line(line: int, text: str) -> RunLine:
    """Parse one RUN command: `[not] mlir-opt ARGS [2>&1] | ... [| FileCheck %s FLAGS]`
    (mlir-translate where mlir-opt may be)."""
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars="|")
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError as error:
        return RunLine(line, text, unsupported=f"cannot split the RUN line: {error}")
    pipe: list[list[str]] = [[]]
    for token in tokens:
        if token == "|":
            pipe.append([])
        else:
            pipe[-1].append(token)
    commands: list[Command] = []
    check: CheckOptions | None = None
    try:
        for index, words in enumerate(pipe):
            negated = bool(words) and words[0] == "not"
            words = words[1:] if negated else words
            merge = "2>&1" in words
            words = [word for word in words if word != "2>&1"]
            if not words:
                raise Unsupported("an empty command")
            program, args = words[0], words[1:]
            for arg in args:
                if re.match(r"^\d*[<>]", arg):
                    raise Unsupported(f"redirection {arg}")
                if re.search(r"%[^s]|%$", arg):
                    raise Unsupported(f"lit substitution in {arg}")
            if program == "FileCheck" and index == len(pipe) - 1 and not negated:
                check = parse_filecheck_args(args)
            elif program in MLC_COUNTERPARTS:
                commands.append(Command(program, tuple(args), negated, merge))
            else:
                raise Unsupported(f"program {program}")
    except Unsupported as error:
        return RunLine(line, text, unsupported=str(error))
    if not commands:
        return RunLine(line, text, unsupported="no mlir-opt or mlir-translate")
    return RunLine(line, text, tuple(commands), check)


def parse_filecheck_args(args: Sequence[str]) -> CheckOptions:
    """FileCheck's arguments: `%s` and the flags `CheckOptions` holds (others raise
    `Unsupported`; `--dump-input` changes only what a failure prints)."""
    prefixes: list[str] = []
    flags: dict[str, bool] = {}
    words = list(args)
    check_file_seen = False
    while words:
        word = words.pop(0)
        name = _option_name(word)
        value = word.split("=", 1)[1] if "=" in word and name else None
        if not name:
            if word != "%s" or check_file_seen:
                raise Unsupported(f"FileCheck argument {word}")
            check_file_seen = True
        elif name in ("check-prefix", "check-prefixes"):
            if value is None:
                if not words:
                    raise Unsupported(f"FileCheck {word} without a value")
                value = words.pop(0)
            prefixes += [prefix for prefix in value.split(",") if prefix]
        elif name in ("strict-whitespace", "match-full-lines", "enable-var-scope", "allow-empty"):
            flags[name.replace("-", "_")] = True
        elif name != "dump-input":
            raise Unsupported(f"FileCheck flag {word}")
    if not check_file_seen:
        raise Unsupported("FileCheck without %s")
    return CheckOptions(tuple(prefixes) or ("CHECK",), **flags)


# --------------------------------------------------------------- translation


@dataclass(frozen=True)
class MlcFlags:
    """What mlc-opt accepts: its options (`mlc-opt --help`) and pass names (each also
    a `--NAME[=OPTIONS]` flag)."""

    options: frozenset[str]
    passes: frozenset[str]
    ops: frozenset[str] = frozenset()  # every op of its dialects (`mlc-opt --list-ops`)


def translate_opt_args(args: Sequence[str], mlc: MlcFlags,
                       table: dict[str, tuple[str, bool]] = OPTION_TRANSLATIONS) -> list[str]:
    """mlir-opt's arguments as mlc-opt's, or `Unsupported` naming the first flag with
    no mlc-opt meaning; with `table` TRANSLATE_OPTION_TRANSLATIONS (and `mlc` of
    mlc-translate) mlir-translate's as mlc-translate's."""
    translated: list[str] = []
    words = list(args)
    while words:
        word = words.pop(0)
        name = _option_name(word)
        if not name:
            translated.append(word)
            continue
        value = word.split("=", 1)[1] if "=" in word else None
        if name in table and table[name][0] in mlc.options:
            option, takes_value = table[name]
            if takes_value:
                if value is None:
                    if not words:
                        raise Unsupported(f"{word} without a value")
                    value = words.pop(0)
                translated += [option, value]
            elif value is None or value.lower() in ("true", "1"):
                translated.append(option)
            elif value.lower() not in ("false", "0"):
                raise Unsupported(word)
        elif name in IGNORED_OPTIONS:
            continue
        elif name in mlc.passes:
            translated.append(f"--{name}" if value is None else f"--{name}={value}")
        else:
            raise Unsupported(word)
    return translated


def _help_options(executable: Path) -> frozenset[str]:
    """The options a tool's `--help` names."""
    return frozenset(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)",
                                capture([str(executable), "--help"])))


def mlc_translate_flags(mlc_translate: Path) -> MlcFlags:
    """Ask mlc-translate which options it has (it runs no passes)."""
    return MlcFlags(_help_options(mlc_translate), frozenset())


def mlc_flags(mlc_opt: Path) -> MlcFlags:
    """Ask mlc-opt which options and passes it has."""
    options = _help_options(mlc_opt)
    listing = capture([str(mlc_opt), "--list-passes"])
    passes: set[str] = set()
    section = ""
    for line in listing.splitlines():
        if line and not line.startswith(" "):
            section = line.rstrip(":")
        elif section in ("Passes", "Pipelines") and re.match(r"^  \S", line):
            passes.add(line.split()[0])
    ops = re.findall(r"^  ([\w$-]+\.[\w.$-]+)", capture([str(mlc_opt), "--list-ops"]),
                     re.MULTILINE)
    return MlcFlags(options, frozenset(passes), frozenset(ops))


# ------------------------------------------------------------ cutting into cases


@dataclass(frozen=True)
class Case:
    """A test case: one label block of a chunk (or a chunk without labels).

    Line numbers are 0-based indices into the file's lines. `check_lines` are the
    CHECK lines the case is judged by: the chunk's lines before its first label
    (typically `CHECK-DAG` map aliases, which later blocks use) and the block's;
    `terminator` is the next block's labels, which end this block in the output."""

    file: str
    chunk: int
    line: int
    check_lines: tuple[int, ...]
    terminator: tuple[int, ...]
    expects_diagnostics: bool
    earlier_lines: tuple[int, ...] = ()  # the chunk's blocks before this one
    span: tuple[int, int] = (0, 0)  # [start, end) of its input lines

    @property
    def name(self) -> str:
        return f"{self.file}:{self.line + 1}"


@dataclass
class TestFile:
    """A lit test file cut into chunks and cases."""

    relative: str  # under mlir/test/
    path: Path
    lines: list[str]
    runs: list[RunLine]
    chunks: list[tuple[int, int]]  # [start, end) line ranges, markers excluded
    cases: list[Case]
    check_prefix_of: dict[int, str]  # line -> the prefix of its check directive
    skipped: str = ""  # why lit would not run it (REQUIRES, XFAIL)

    def chunk_text(self, chunk: int) -> str:
        """The chunk at its place: the lines before it emptied, none after it (so a
        diagnostic at its end is where MLIR's own split puts it)."""
        start, end = self.chunks[chunk]
        return "\n" * start + "".join(self.lines[start:end])

    def check_text(self, lines: Iterable[int]) -> str:
        """The file with only `lines` kept, so FileCheck reports the file's line numbers;
        `[[# @LINE+N]]` is replaced by its number, which the package reads only when
        spelled `[[# @LINE + N]]`."""
        keep = set(lines)
        return "".join(_substitute_line(line, number + 1) if number in keep else "\n"
                       for number, line in enumerate(self.lines))


_LINE_EXPRESSION = re.compile(r"\[\[#?\s*@LINE\s*(?:([+-])\s*(\d+))?\s*\]\]")


def _substitute_line(line: str, number: int) -> str:
    def value(match: re.Match[str]) -> str:
        offset = int(match.group(2) or 0)
        return str(number - offset if match.group(1) == "-" else number + offset)

    return _LINE_EXPRESSION.sub(value, line)


def _check_line_pattern(prefixes: Iterable[str]) -> re.Pattern[str] | None:
    names = sorted(set(prefixes), key=lambda prefix: (-len(prefix), prefix))
    if not names:
        return None
    alternatives = "|".join(map(re.escape, names))
    return re.compile(rf"(?<![\w-])({alternatives})({_DIRECTIVES}):")


def split_chunks(lines: Sequence[str], split: bool) -> list[tuple[int, int]]:
    """[start, end) line ranges between `// -----` lines (one range if not `split`)."""
    if not split:
        return [(0, len(lines))]
    chunks, start = [], 0
    for number, line in enumerate(lines):
        if line.strip() == _SPLIT_MARKER:
            chunks.append((start, number))
            start = number + 1
    chunks.append((start, len(lines)))
    return chunks


def cut_cases(relative: str, lines: Sequence[str], runs: Sequence[RunLine]
              ) -> tuple[list[tuple[int, int]], list[Case], dict[int, str]]:
    """The chunks and cases of a test file, and the prefix of each CHECK line."""
    prefixes = [prefix for run in runs if run.check for prefix in run.check.prefixes]
    pattern = _check_line_pattern(prefixes)
    prefix_of: dict[int, str] = {}
    labels: set[int] = set()
    if pattern:
        for number, line in enumerate(lines):
            match = pattern.search(line)
            if match:
                prefix_of[number] = match.group(1)
                if match.group(2) == "-LABEL":
                    labels.add(number)
    chunks = split_chunks(lines, any(run.splits for run in runs))
    cases: list[Case] = []
    for index, (start, end) in enumerate(chunks):
        preamble: list[int] = []
        blocks: list[list[int]] = []
        for number in range(start, end):
            if number in labels and number - 1 not in labels:
                blocks.append([number])
            elif number in prefix_of:
                (blocks[-1] if blocks else preamble).append(number)
        expects = any(_EXPECTED_DIAGNOSTIC.search(lines[n]) for n in range(start, end))
        if not blocks:
            first = next((n for n in range(start, end) if lines[n].strip()), start)
            cases.append(Case(relative, index, min(first, len(lines) - 1), tuple(preamble), (),
                              expects, span=(start, end)))
            continue
        for position, block in enumerate(blocks):
            following = blocks[position + 1] if position + 1 < len(blocks) else []
            terminator = tuple(n for n in following if n in labels)
            earlier = [number for before in blocks[:position] for number in before]
            span = (block[0] if position else start, following[0] if following else end)
            cases.append(Case(relative, index, block[0], tuple(preamble + block), terminator,
                              expects, tuple(earlier), span))
    return chunks, cases, prefix_of


def _lit_skips(lines: Sequence[str], has_asserts: bool) -> str:
    """Why lit would not run this file on this machine ('' if it would)."""
    target = f"{platform.machine()}-unknown-linux-gnu"
    for line in lines:
        match = re.search(r"//\s*(REQUIRES|UNSUPPORTED|XFAIL):(.*)", line)
        if not match:
            continue
        directive, items = match.group(1), [item.strip() for item in match.group(2).split(",")]
        for item in items:
            regex = re.fullmatch(r"target=\{\{(.*)\}\}", item)
            holds = (re.fullmatch(regex.group(1), target) is not None if regex
                     else item == "asserts" and has_asserts)
            if directive == "REQUIRES" and not holds:
                return f"REQUIRES: {item}"
            if directive != "REQUIRES" and (holds or item == "*"):
                return f"{directive}: {item}"
    return ""


def load_test_file(path: Path, relative: str, has_asserts: bool) -> TestFile:
    """Read and cut one test file (bytes that are not UTF-8 survive unchanged)."""
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    lines = text.splitlines(keepends=True)
    runs = [parse_run_line(number, command) for number, command in run_commands(lines)]
    chunks, cases, prefix_of = cut_cases(relative, lines, runs)
    return TestFile(relative, path, lines, runs, chunks, cases, prefix_of,
                    _lit_skips(lines, has_asserts))


# -------------------------------------------------------------------- sources


def _glob_match(relative: str, pattern: str) -> bool:
    """fnmatch per path component (so `IR/*.mlir` does not reach `IR/sub/x.mlir`); a
    pattern without `/` matches the file name."""
    parts, wanted = PurePosixPath(relative).parts, PurePosixPath(pattern).parts
    if len(wanted) == 1:
        return fnmatch.fnmatchcase(parts[-1], wanted[0]) or fnmatch.fnmatchcase(relative, pattern)
    return len(parts) == len(wanted) and all(map(fnmatch.fnmatchcase, parts, wanted))


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


def _tarball_name(version: str) -> str:
    return f"llvm-toolchain-{LLVM_MAJOR}_{version}.orig.tar.xz"


def _exists(url: str) -> bool:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=60):
            return True
    except (urllib.error.URLError, OSError):
        return False


def find_tarball(version: str, log: Callable[[str], None]) -> tuple[str, str]:
    """(URL, version) of the source tarball of `version`, else of the closest 22.x a
    pool's listing offers."""
    for pool in POOLS:
        if _exists(pool + _tarball_name(version)):
            return pool + _tarball_name(version), version
    offered: dict[str, str] = {}
    for pool in POOLS:
        try:
            with urllib.request.urlopen(pool, timeout=60) as response:
                listing = response.read().decode("utf-8", "replace")
        except (urllib.error.URLError, OSError):
            continue
        tarball = rf"llvm-toolchain-{LLVM_MAJOR}_({LLVM_MAJOR}[\d.]*\d)\.orig\.tar\.xz"
        for found in re.findall(tarball, listing):
            offered.setdefault(found, pool + _tarball_name(found))
    if not offered:
        raise RuntimeError(f"{_tarball_name(version)} is in none of {', '.join(POOLS)}, and "
                           "their listings offer no other 22.x (--llvm-version picks one)")
    wanted = _version_key(version)
    closest = min(offered, key=lambda v: (sum(abs(a - b) * 1000 ** (2 - i) for i, (a, b)
                                                  in enumerate(zip(_version_key(v), wanted))), v))
    log(f"{_tarball_name(version)} is not in the pool; using {closest}, the closest")
    return offered[closest], closest


def ensure_sources(version: str, log: Callable[[str], None]) -> tuple[Path, str, str]:
    """The directory holding `mlir/test/...` for `version` (fetched on first use), the
    version the files are really from, and the tarball's URL."""
    root = SOURCES_DIR / version
    stamp = root / "source.txt"
    selection = " ".join(EXTRACTED_FILES)
    if stamp.exists():
        recorded = dict(line.split("=", 1) for line in stamp.read_text().splitlines()
                        if "=" in line)
        if recorded.get("files") == selection:
            return root, recorded["version"], recorded["url"]
    url, actual = find_tarball(version, log)
    log(f"fetching {url} (about 200 MB, streamed; only {len(EXTRACTED_FILES)} globs of mlir/test "
        "are kept)")
    SOURCES_DIR.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{version}-", dir=SOURCES_DIR))
    count = 0
    with urllib.request.urlopen(url, timeout=120) as response, \
            tarfile.open(fileobj=response, mode="r|xz") as archive:
        for member in archive:
            relative = member.name.split("/", 1)[1] if "/" in member.name else ""
            if not (member.isfile() and relative.startswith("mlir/test/")):
                continue
            under_test = relative.removeprefix("mlir/test/")
            if not any(_glob_match(under_test, pattern) for pattern in EXTRACTED_FILES):
                continue
            source = archive.extractfile(member)
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read() if source else b"")
            count += 1
    if not count:
        raise RuntimeError(f"{url} holds none of the test files")
    (staging / "source.txt").write_text(f"version={actual}\nurl={url}\nfiles={selection}\n")
    if root.exists():
        shutil.rmtree(root)
    staging.rename(root)
    log(f"extracted {count} files into {root}")
    return root, actual, url


def select_files(root: Path, patterns: Sequence[str]) -> list[str]:
    """The test files (paths under mlir/test/) matching `patterns` (by default issue
    13's, `TEST_FILES`), sorted."""
    base = root / "mlir" / "test"
    found = sorted(path.relative_to(base).as_posix() for path in base.rglob("*.mlir"))
    return [name for name in found
            if any(_glob_match(name, p) for p in (patterns or TEST_FILES) if p != BASIC_LLVMIR)
            or (BASIC_LLVMIR in patterns and _glob_match(name, "Target/LLVMIR/*.mlir")
                and not _NOT_BASIC_LLVMIR.match(PurePosixPath(name).name))]


# ------------------------------------------------------------------- running


@dataclass
class StageResult:
    """One command's run: its exit status (None: timed out) and its diagnostics."""

    argv: list[str]
    returncode: int | None
    messages: str  # stderr, or stdout when stderr went there (2>&1)


@dataclass
class Execution:
    """A RUN line's commands run on one input by one tool."""

    stages: list[StageResult] = field(default_factory=list)
    stdout: str = ""
    failed_stage: int | None = None  # the first command whose status is not the expected
    unsupported: str = ""  # the RUN line cannot be run (for mlc: a flag it lacks)

    @property
    def ok(self) -> bool:
        return not self.unsupported and self.failed_stage is None


@dataclass(frozen=True)
class Program:
    """How a tool runs one program of a RUN line's pipe."""

    executable: Path
    translate: Callable[[Sequence[str]], list[str]] | None = None  # None: as written


@dataclass(frozen=True)
class ToolUnderTest:
    """How to run a RUN line's `mlir-opt` commands with one tool (`executable`, with
    the arguments `translate`d), and its other programs (`mlir-translate`)."""

    name: str
    executable: Path
    translate: Callable[[Sequence[str]], list[str]] | None = None  # None: as written
    others: dict[str, Program] = field(default_factory=dict)

    def program(self, name: str) -> Program | None:
        """How this tool runs the RUN line's program `name` (None: it cannot)."""
        return Program(self.executable, self.translate) if name == "mlir-opt" \
            else self.others.get(name)


def execute(tool: ToolUnderTest, run: RunLine, input_path: Path, timeout: float,
            shown_as: str) -> Execution:
    """Run `run`'s commands on `input_path` in a pipe, as lit would (pipefail: every
    command must exit as expected); the messages name the input `shown_as`."""
    if run.unsupported:
        return Execution(unsupported=f"the harness cannot run this RUN line: {run.unsupported}")
    argvs: list[list[str]] = []
    for command in run.commands:
        args = [arg.replace("%s", str(input_path)) for arg in command.args]
        program = tool.program(command.program)
        if program is None:
            return Execution(unsupported=f"{tool.name} cannot run {command.program}")
        if program.translate is not None:
            try:
                args = program.translate(args)
            except Unsupported as error:
                return Execution(unsupported=f"{MLC_COUNTERPARTS[command.program]} has no "
                                             f"{error}")
        argvs.append([str(program.executable), *args])
    execution = Execution()
    stdin: bytes | None = None
    for index, (command, argv) in enumerate(zip(run.commands, argvs)):
        stderr_to = subprocess.STDOUT if command.merge_stderr else subprocess.PIPE
        try:
            done = subprocess.run(argv, input=stdin if index else None,
                                  stdin=subprocess.DEVNULL if not index else None,
                                  stdout=subprocess.PIPE, stderr=stderr_to, timeout=timeout,
                                  cwd=input_path.parent)
            returncode: int | None = done.returncode
            stdout, stderr = done.stdout, done.stderr or b""
        except subprocess.TimeoutExpired as expired:
            returncode, stdout, stderr = None, expired.stdout or b"", expired.stderr or b""
        text = stdout.decode("utf-8", "replace")
        messages = text if command.merge_stderr else stderr.decode("utf-8", "replace")
        messages = messages.replace(str(input_path), shown_as)
        execution.stages.append(StageResult(argv, returncode, messages))
        stdin, execution.stdout = stdout, text
        if returncode is None or (returncode <= 0 if command.negated else returncode != 0):
            execution.failed_stage = index
            break
    return execution


def filecheck(check_text: str, output: str, options: CheckOptions, name: str,
              workdir: Path) -> str:
    """Match `output` against the CHECK lines of `check_text` with the `filecheck`
    package; '' if they match, else its report."""
    from filecheck.matcher import Matcher
    from filecheck.options import Options

    check_path, output_path = workdir / name, workdir / "output"
    check_path.parent.mkdir(parents=True, exist_ok=True)
    check_path.write_text(check_text, encoding="utf-8", errors="surrogateescape")
    output_path.write_text(output, encoding="utf-8", errors="replace")
    try:
        matcher = Matcher.from_opts(Options(
            match_filename=str(check_path), input_file=str(output_path),
            check_prefixes=list(options.prefixes), strict_whitespace=options.strict_whitespace,
            match_full_lines=options.match_full_lines, enable_var_scope=options.enable_var_scope,
            allow_empty=options.allow_empty))
        report = io.StringIO()
        matcher.stderr = report
        with contextlib.redirect_stdout(io.StringIO()):  # the package prints debugging lines
            status = matcher.run()
    except Exception as error:  # noqa: BLE001 - the package's failures are a failed check
        return f"filecheck: {type(error).__name__}: {error}"
    text = _ANSI_ESCAPE.sub("", report.getvalue()).replace(str(workdir) + "/", "")
    return "" if status == 0 else text or f"filecheck exited {status}"


# ------------------------------------------------------------------ verdicts


@dataclass(frozen=True)
class Verdict:
    """A tool's result on a case: passed, or the kind of failure with what it said."""

    passed: bool
    kind: str = ""
    detail: str = ""
    run_line: int = 0  # the RUN line that failed
    subject: str = ""  # the missing op or flag, for the summary


PASSED = Verdict(True)

_UNKNOWN_OP = re.compile(r"custom op '([\w.$-]+)' is unknown"
                         r"|Dialect `[\w$-]+' not found for custom op '([\w.$-]+)'"
                         r"|unregistered operation '([\w.$-]+)' found in dialect"
                         r"|dialect '[\w$-]+' has no (?:type|attribute) '([\w.$-]+)'"
                         r"|dialect '([\w.$-]+)' is (?:not installed|unknown)"
                         r"|'[#!]([\w$-]+)\.[^']*' (?:type|attribute) created with unregistered")


_UNREGISTERED_DIALECT = "operation being parsed with an unregistered dialect"


def _first_error(messages: str, lines: int = 3) -> str:
    """The first `lines` lines from the first that mentions an error (else the start)."""
    all_lines = messages.strip().splitlines()
    start = next((i for i, line in enumerate(all_lines) if "error" in line), 0)
    return "\n".join(all_lines[start:start + lines])


def unknown_op(messages: str, verifying: bool, mlir_dialects: frozenset[str]) -> str:
    """The op or dialect an mlc error calls unknown, if MLIR has its dialect ('' if
    none). With --verify-diagnostics only unexpected errors count (an expected one
    is the test's point)."""
    # An attribute or type quoted in a message may span lines (`'#dlti.dl_spec<` ...
    # `>' attribute created with unregistered dialect`): one line each for the search.
    messages = re.sub(r"'[#!][^']*'", lambda quoted: quoted[0].replace("\n", " "), messages)
    lines = messages.splitlines()
    for index, line in enumerate(lines):
        if verifying and "unexpected" not in line:
            continue
        match = _UNKNOWN_OP.search(line)
        if match:
            name = next(group for group in match.groups() if group)
        elif _UNREGISTERED_DIALECT in line and index + 1 < len(lines):
            # MLIR's words name no op: it is the generic op on the source line shown.
            shown = re.search(r'"([\w$-]+\.[\w.$-]+)"\s*\(', lines[index + 1])
            name = shown.group(1) if shown else ""
        else:
            continue
        if name.split(".", 1)[0] in mlir_dialects:
            return name
    return ""


# An op of MLIR's C++ `test` dialect: quoted and followed by its operands (generic form),
# or first on its line after any results (custom form).
_TEST_OP = re.compile(r'"(test\.[\w.$-]+)"\s*\('
                      r"|^[ \t]*(?:%[^=\n]*=[ \t]*)?(test\.[\w.$-]+)(?![\w.$-])", re.MULTILINE)
_LINE_COMMENT = re.compile(r"//[^\n]*")


def missing_test_ops(text: str, known_ops: frozenset[str]) -> list[str]:
    """The ops of MLIR's `test` dialect that `text` uses (outside comments) and mlc-opt's
    dialects lack (`known_ops`), in the order of their first use."""
    found: dict[str, None] = {}
    for match in _TEST_OP.finditer(_LINE_COMMENT.sub("", text)):
        name = match.group(1) or match.group(2)
        if name not in known_ops:
            found.setdefault(name)
    return list(found)


def blame_missing_test_op(verdict: Verdict, test: TestFile, case: Case, run: RunLine,
                          known_ops: frozenset[str]) -> Verdict:
    """`verdict` as *unsupported op* when mlc-opt failed on input that uses an op of
    MLIR's `test` dialect it lacks: `--allow-unregistered-dialect` lets such an op
    parse, but no fix of mlc's could give it the C++ op's verifier, traits or output.
    The input is the case's own lines for an output mismatch (a block of the output
    is matched alone), else what the RUN line read (the chunk, or the whole file)."""
    if verdict.passed or verdict.kind not in (VALID_INPUT_REJECTED, DIAGNOSTIC_MISMATCH,
                                              OUTPUT_MISMATCH):
        return verdict
    if verdict.kind == OUTPUT_MISMATCH:
        text = "".join(test.lines[case.span[0]:case.span[1]])
    elif run.per_chunk:
        text = test.chunk_text(case.chunk)
    else:
        text = "".join(test.lines)
    missing = missing_test_ops(text, known_ops)
    if not missing:
        return verdict
    return Verdict(False, UNSUPPORTED_OP,
                   f"the input uses '{missing[0]}', an op of MLIR's test dialect that mlc-opt "
                   f"lacks; mlc-opt said:\n{verdict.detail}", verdict.run_line, missing[0])


def classify_mlc_failure(execution: Execution, run: RunLine, case: Case,
                         mlir_dialects: frozenset[str]) -> Verdict:
    """The kind of an mlc-opt run that did not exit as expected."""
    if execution.unsupported:
        flag = re.sub(r"^mlc-\w+ has no ", "", execution.unsupported)
        subject = "--" + _option_name(flag.split()[0]) if flag != execution.unsupported else ""
        return Verdict(False, UNSUPPORTED_FLAG, execution.unsupported, run.line, subject)
    assert execution.failed_stage is not None
    stage = execution.stages[execution.failed_stage]
    command = run.commands[execution.failed_stage]
    where = f"command {execution.failed_stage + 1}: " if len(run.commands) > 1 else ""
    messages = stage.messages
    if stage.returncode is None:
        return Verdict(False, CRASH, f"{where}timed out", run.line, "timeout")
    if stage.returncode < 0:
        return Verdict(False, CRASH, f"{where}killed by signal {-stage.returncode}", run.line,
                       f"signal {-stage.returncode}")
    if "Traceback (most recent call last)" in messages or "internal error:" in messages:
        line = next((line for line in messages.splitlines() if "internal error:" in line),
                    messages.strip().splitlines()[-1])
        return Verdict(False, CRASH, where + line.strip(), run.line,
                       re.sub(r"^.*internal error: (\w+).*$", r"\1", line.strip()))
    pipeline_error = re.search(r"^<pipeline>:\d+:\d+: error: (.*)$", messages, re.MULTILINE)
    if pipeline_error or "unrecognized arguments" in messages:
        subject = pipeline_error.group(1) if pipeline_error else "unrecognized arguments"
        subject = re.sub(r"^'([^']+)' does not refer to a registered pass.*", r"\1", subject)
        subject = re.sub(r" \(options: .*\)$", "", subject)
        return Verdict(False, UNSUPPORTED_FLAG, where + _first_error(messages), run.line, subject)
    verifying = run.verifies_diagnostics(command)
    op = unknown_op(messages, verifying, mlir_dialects)
    if op:
        return Verdict(False, UNSUPPORTED_OP, where + _first_error(messages), run.line, op)
    if command.negated:
        return Verdict(False, DIAGNOSTIC_MISMATCH, f"{where}exited 0 where a failure is expected",
                       run.line)
    if verifying and case.expects_diagnostics:
        return Verdict(False, DIAGNOSTIC_MISMATCH, where + _first_error(messages, 6), run.line)
    return Verdict(False, VALID_INPUT_REJECTED, where + _first_error(messages), run.line)


def judge(test: TestFile, case: Case, run: RunLine, execution: Execution, workdir: Path,
          classify: Callable[[Execution, RunLine, Case], Verdict] | None) -> Verdict:
    """One tool's verdict on one case for one RUN line. `classify` names the kind
    of a failed run (None: no kinds, for mlir-opt)."""
    if not execution.ok:
        if classify is not None:
            return classify(execution, run, case)
        stage = (execution.stages[execution.failed_stage]
                 if execution.failed_stage is not None else None)
        detail = execution.unsupported or (
            "timed out" if stage and stage.returncode is None
            else f"exit status {stage.returncode}: {_first_error(stage.messages)}" if stage else "")
        return Verdict(False, "failed", detail, run.line)
    if run.check is None:
        return PASSED
    prefixes = set(run.check.prefixes)
    if not any(test.check_prefix_of[n] in prefixes for n in case.check_lines):
        return PASSED  # the whole file has checks; this case has none for this RUN line
    name = Path(case.file).name
    lines = case.check_lines
    report = filecheck(test.check_text(lines + case.terminator), execution.stdout, run.check,
                       name, workdir)
    if report and "referenced before assignment" in report and case.earlier_lines:
        # A variable captured in an earlier block: FileCheck needs that block matched too.
        lines = tuple(sorted(set(case.earlier_lines + lines)))
        report = filecheck(test.check_text(lines + case.terminator), execution.stdout,
                           run.check, name, workdir)
    if report and case.terminator:
        # FileCheck would report a missing next label on the next block, not on this one.
        failed_line = re.search(rf"{re.escape(name)}:(\d+)", report)
        if failed_line and int(failed_line.group(1)) - 1 in case.terminator:
            report = filecheck(test.check_text(lines), execution.stdout, run.check, name,
                               workdir)
    if not report:
        return PASSED
    return Verdict(False, OUTPUT_MISMATCH if classify else "failed", report.strip(), run.line)


def combine(verdicts: Sequence[Verdict]) -> Verdict:
    """A case's verdict over its RUN lines: passed if all pass, else the failure of the
    most basic kind (the first RUN line among equals)."""
    failures = [v for v in verdicts if not v.passed]
    if not failures:
        return PASSED
    order = {kind: index for index, kind in enumerate(KINDS)}
    return min(failures, key=lambda v: (order.get(v.kind, len(KINDS)), v.run_line))


# ----------------------------------------------------------------- the whole


@dataclass(frozen=True)
class CaseResult:
    case: Case
    mlir: Verdict
    mlc: Verdict


@dataclass
class Report:
    """Everything the tables and --show need."""

    files: list[TestFile]
    results: list[CaseResult]
    source_version: str
    source_url: str
    tools: dict[str, str]  # name -> version
    seconds: float


def run_conformance(files: list[TestFile], tools: Sequence[ToolUnderTest],
                    mlir_dialects: frozenset[str], jobs: int, timeout: float,
                    log: Callable[[str], None],
                    mlc_ops: frozenset[str] = frozenset()) -> list[CaseResult]:
    """Run every RUN line of `files` with both tools (mlir-opt first) and judge every
    case; `mlc_ops` are mlc-opt's ops (see `blame_missing_test_op`)."""
    with tempfile.TemporaryDirectory(prefix="mlir-conformance-") as scratch:
        scratch_dir = Path(scratch)
        inputs: dict[tuple[str, int | None], Path] = {}
        tasks: list[tuple[ToolUnderTest, TestFile, RunLine, int | None]] = []
        for test in files:
            if test.skipped:
                continue
            for run in test.runs:
                units = list(range(len(test.chunks))) if run.per_chunk else [None]
                for unit in units:
                    if (test.relative, unit) not in inputs:
                        inputs[(test.relative, unit)] = _write_input(test, unit, scratch_dir)
                    tasks.extend((tool, test, run, unit) for tool in tools)
        log(f"{len(tasks)} runs of {len(files)} files with {jobs} jobs")
        executions: dict[tuple[str, str, int, int | None], Execution] = {}
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(execute, tool, run, inputs[(test.relative, unit)], timeout,
                                   test.relative):
                       (tool.name, test.relative, run.line, unit)
                       for tool, test, run, unit in tasks}
            for done, (future, key) in enumerate(futures.items(), 1):
                executions[key] = future.result()
                if done % 200 == 0:
                    log(f"{done}/{len(tasks)} runs done")
        results: list[CaseResult] = []
        check_dir = scratch_dir / "checks"

        def classify(execution: Execution, run: RunLine, case: Case) -> Verdict:
            return classify_mlc_failure(execution, run, case, mlir_dialects)

        for test in files:
            if test.skipped:
                continue
            for case in test.cases:
                verdicts: dict[str, list[Verdict]] = {tool.name: [] for tool in tools}
                for run in test.runs:
                    unit = case.chunk if run.per_chunk else None
                    for tool in tools:
                        execution = executions[(tool.name, test.relative, run.line, unit)]
                        kinds = None if tool.translate is None else classify
                        verdict = judge(test, case, run, execution, check_dir, kinds)
                        if kinds is not None:
                            verdict = blame_missing_test_op(verdict, test, case, run, mlc_ops)
                        verdicts[tool.name].append(verdict)
                results.append(CaseResult(case, combine(verdicts["mlir-opt"]),
                                          combine(verdicts["mlc-opt"])))
    return results


def _write_input(test: TestFile, chunk: int | None, scratch: Path) -> Path:
    """The file a RUN line reads: the test file itself, or one chunk of it in place."""
    if chunk is None:
        return test.path
    path = scratch / test.relative.replace("/", "_") / str(chunk) / Path(test.relative).name
    path.parent.mkdir(parents=True)
    path.write_text(test.chunk_text(chunk), encoding="utf-8", errors="surrogateescape")
    return path


# ------------------------------------------------------------------- reports


def _count(results: Iterable[CaseResult]) -> list[int]:
    results = list(results)
    kinds = collections.Counter(r.mlc.kind for r in results if not r.mlc.passed)
    return [len(results), sum(r.mlir.passed for r in results), sum(r.mlc.passed for r in results),
            *(kinds[kind] for kind in KINDS)]


def _percent(part: int, whole: int) -> str:
    return f"{part:,} ({100 * part / whole:.1f}%)" if whole else "0"


def render(report: Report, top: int = 12) -> str:
    """The markdown: a header, the per-file table with totals, the most frequent
    missing ops and flags."""
    by_file: dict[str, list[CaseResult]] = collections.defaultdict(list)
    for result in report.results:
        by_file[result.case.file].append(result)
    header = ["file", "cases", "mlir-opt passes", "mlc passes", *KINDS]
    rows = []
    for test in report.files:
        if test.skipped:
            rows.append([f"`{test.relative}`", "—", "—", "—", *(["—"] * len(KINDS))])
            continue
        rows.append([f"`{test.relative}`", *(f"{n:,}" for n in _count(by_file[test.relative]))])
    totals = _count(report.results)
    rows.append(["**total**", f"**{totals[0]:,}**", f"**{_percent(totals[1], totals[0])}**",
                 f"**{_percent(totals[2], totals[0])}**", *(f"**{n:,}**" for n in totals[3:])])
    skipped = [f"`{t.relative}` ({t.skipped})" for t in report.files if t.skipped]
    tools = ", ".join(f"{name} {version}" for name, version in report.tools.items())
    lines = [
        f"Measured {time.strftime('%Y-%m-%d')} with {tools}, in {report.seconds:.0f} s.",
        "",
        f"Test files: MLIR {report.source_version}'s `mlir/test/` "
        f"(`{report.source_url.rsplit('/', 1)[-1]}`, Debian's llvm-toolchain-{LLVM_MAJOR} "
        "source package).",
        "",
        f"{totals[0]:,} cases in {len(report.files) - len(skipped)} files: mlir-opt passes "
        f"{totals[1]:,}, mlc-opt {totals[2]:,}. The last {len(KINDS)} columns count mlc-opt's "
        "failures by kind.",
    ]
    if skipped:
        lines += ["", "Not run (as lit would not): " + ", ".join(skipped) + "."]
    lines += ["", markdown_table(header, rows)]
    for kind, title in ((UNSUPPORTED_OP, "Ops and dialects mlc-opt lacks"),
                        (UNSUPPORTED_FLAG, "Flags, passes and options mlc-opt lacks"),
                        (CRASH, "Crashes")):
        subjects = collections.Counter(r.mlc.subject for r in report.results
                                       if r.mlc.kind == kind and r.mlc.subject)
        if subjects:
            ranked = sorted(subjects.items(), key=lambda item: (-item[1], item[0]))[:top]
            lines += ["", f"{title}, by the cases they fail (first {len(ranked)} of "
                      f"{len(subjects)}): " + ", ".join(f"`{s}` {n}" for s, n in ranked) + "."]
    return "\n".join(lines) + "\n"


def show(report: Report, kind: str, lines: int) -> str:
    """The failing cases of one kind (or mlir-opt's failures, kind `mlir-opt`), each
    with its RUN line and the first `lines` lines of what went wrong."""
    out = []
    tests = {test.relative: test for test in report.files}
    for result in report.results:
        verdict = result.mlir if kind == "mlir-opt" else result.mlc
        if verdict.passed or (kind not in ("mlir-opt", "all") and verdict.kind != kind):
            continue
        run = next(r for r in tests[result.case.file].runs if r.line == verdict.run_line)
        detail = "\n".join("    " + line for line in verdict.detail.splitlines()[:lines])
        out.append(f"{result.case.name} [{verdict.kind}] RUN: {run.text}\n{detail}")
    return "\n".join(out) + ("\n" if out else "")


# ---------------------------------------------------------------------- main


def translators(mlir_opt: Path, mlc_opt: Path) -> tuple[dict[str, Program], dict[str, Program]]:
    """How each tool runs `mlir-translate`: mlir-translate beside mlir-opt (of the same
    version suffix), mlc-translate beside mlc-opt with its arguments translated. A tool
    missing leaves its RUN lines unsupported."""
    mlir_translate = mlir_opt.with_name(mlir_opt.name.replace("mlir-opt", "mlir-translate"))
    mlc_translate = mlc_opt.with_name("mlc-translate")
    mlir_others = {"mlir-translate": Program(mlir_translate)} if mlir_translate.exists() else {}
    if not mlc_translate.exists():
        return mlir_others, {}
    flags = mlc_translate_flags(mlc_translate)
    return mlir_others, {"mlir-translate": Program(mlc_translate, lambda a: translate_opt_args(
        a, flags, TRANSLATE_OPTION_TRANSLATIONS))}


def _log(message: str) -> None:
    print(f"[mlir_conformance] {message}", file=sys.stderr, flush=True)


def build_arg_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", action="append", default=[], metavar="GLOB",
                        help="only the test files matching GLOB, a path under mlir/test/ "
                             "(IR/*.mlir) or a file name (repeatable); "
                             f"'{BASIC_LLVMIR}': Target/LLVMIR's files of the llvm dialect")
    parser.add_argument("--jobs", type=int, default=2, help="runs at once (default: 2)")
    parser.add_argument("--timeout", type=float, default=60,
                        help="seconds before one command is killed (default: 60)")
    parser.add_argument("--show", metavar="KIND", choices=[*KINDS, "all", "mlir-opt"],
                        help="also list mlc-opt's failing cases of KIND (one of: "
                             + ", ".join(KINDS) + "; 'all'; or 'mlir-opt' for its failures)")
    parser.add_argument("--show-lines", type=int, default=8, metavar="N",
                        help="lines of each difference --show prints (default: 8)")
    parser.add_argument("--llvm-version", help="the MLIR sources to test with (default: the "
                        f"installed mlir-opt's version, else {FALLBACK_VERSION})")
    parser.add_argument("--mlir-opt", help="the mlir-opt executable (default: found on PATH)")
    parser.add_argument("--write-readme", action="store_true",
                        help="write the table into benchmarks/README.md")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    if args.jobs < 1:
        print("mlir_conformance.py: error: --jobs must be at least 1", file=sys.stderr)
        return 2
    mlc, mlir = mlc_tool(args), mlir_tool(args)
    for tool in (mlc, mlir):
        if not tool.available:
            print(f"mlir_conformance.py: error: {tool.name}: {tool.unavailable}", file=sys.stderr)
            return 1
    installed = re.match(r"(\d+\.\d+\.\d+)", mlir.version)
    version = args.llvm_version or (installed.group(1) if installed else FALLBACK_VERSION)
    try:
        root, actual_version, url = ensure_sources(version, _log)
    except (OSError, RuntimeError, tarfile.TarError, urllib.error.URLError) as error:
        print(f"mlir_conformance.py: error: cannot get the MLIR test files: {error}",
              file=sys.stderr)
        return 1
    names = select_files(root, args.files)
    if not names:
        print(f"mlir_conformance.py: error: no test file matches {', '.join(args.files)}",
              file=sys.stderr)
        return 2
    has_asserts = "with assertions" in capture([str(mlir.executable), "--version"])
    files = [load_test_file(root / "mlir" / "test" / name, name, has_asserts) for name in names]
    flags = mlc_flags(mlc.executable)
    dialects = frozenset(re.findall(r"[\w]+", capture([str(mlir.executable), "--show-dialects"])
                                    .partition("Available Dialects:")[2]))
    mlir_others, mlc_others = translators(mlir.executable, mlc.executable)
    tools = [ToolUnderTest("mlir-opt", mlir.executable, others=mlir_others),
             ToolUnderTest("mlc-opt", mlc.executable, lambda a: translate_opt_args(a, flags),
                           mlc_others)]
    started = time.perf_counter()
    results = run_conformance(files, tools, dialects, args.jobs, args.timeout, _log,
                              flags.ops)
    report = Report(files, results, actual_version, url,
                    {"mlir-opt": mlir.version, "mlc-opt": mlc.version},
                    time.perf_counter() - started)
    text = render(report)
    sys.stdout.write(text)
    if args.show:
        sys.stdout.write(f"\n## {args.show}\n\n" + show(report, args.show, args.show_lines))
    if args.write_readme:
        write_readme({"conformance": text})
        _log("wrote benchmarks/README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
