"""mlc-opt as a user runs it: exit statuses, `-o` written only on success, standard
input, malformed inputs that must end in a diagnostic (never a Python traceback or an
"internal error"), and byte-identical output from run to run.

Every test runs the installed `mlc-opt` of this venv as a subprocess.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

MLC_OPT = Path(sys.executable).parent / "mlc-opt"

GOOD = """\
func.func @good(%arg0: f32, %arg1: i32) -> f32 {
  %cst = arith.constant 1.500000e+00 : f32
  %0 = arith.addf %arg0, %cst fastmath<fast> : f32
  %1 = arith.cmpi slt, %arg1, %arg1 : i32
  %2 = arith.select %1, %0, %arg0 : f32
  return %2 : f32
}
"""

# Verifies badly: operand #1 of arith.addf is an i32 (line 2, column 8).
BAD_VERIFY = """\
func.func @bad(%arg0: f32, %arg1: i32) -> f32 {
  %0 = "arith.addf"(%arg0, %arg1) : (f32, i32) -> f32
  return %0 : f32
}
"""

BAD_PARSE = "func.func @bad( {\n"

# A program touching much of the syntax, for truncation and determinism.
SAMPLE = """\
#map = affine_map<(d0) -> (d0 + 1)>
module @m attributes {foo.attr = 1 : i64} {
  func.func private @decl(i32, f32) -> (i1, index)
  func.func @args(%arg0: i32 {foo.a = 1 : i64}, %arg1: tensor<2x?xf32>) -> (i32 {foo.r}, f32) attributes {foo.fn = "y\\22"} {
    %cst = arith.constant 1.000000e+00 : f32 loc("a.mlir":1:2)
    %0:2 = call @multi(%arg0) : (i32) -> (i32, f32) loc(fused["b.mlir":3:4, "c.mlir":5:6])
    %1 = arith.addi %0#0, %0#0 overflow<nsw> : i32 loc(#loc1)
    %2 = "foo.op"(%1) <{p = 1 : i32}> {a = [1, "two", @sym::@nested], m = #map} : (i32) -> i32
    "foo.br"(%2)[^bb1] : (i32) -> ()
  ^bb1(%3: i32):
    %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
    %r = arith.constant dense_resource<blob1> : tensor<2xi32>
    return %3, %cst : i32, f32 loc(callsite("d.mlir":7:8 at "e.mlir":9:10))
  }
  func.func @multi(%arg0: i32) -> (i32, f32) {
    %cst = arith.constant 0x7FC00000 : f32
    return %arg0, %cst : i32, f32
  }
}
#loc1 = loc("alias.mlir":1:1)
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000"
    }
  }
#-}
"""

DIAGNOSTIC_RE = re.compile(rb"^(?:\S+:\d+:\d+: error: |mlc-opt: error: )", re.MULTILINE)


def run(*args: object, stdin: bytes | None = None, env: dict[str, str] | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(MLC_OPT), *map(str, args)], input=stdin if stdin is not None else b"",
                          capture_output=True, timeout=300, env=env, cwd=cwd)


def assert_no_crash(result: subprocess.CompletedProcess[bytes]) -> None:
    """No traceback, no internal error, no Python warning; exit 0 or 1."""
    err = result.stderr
    assert b"Traceback" not in err, err.decode(errors="replace")
    assert b"internal error" not in err, err.decode(errors="replace")
    assert b"Warning:" not in err, err.decode(errors="replace")
    assert result.returncode in (0, 1), (result.returncode, err.decode(errors="replace"))


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def test_mlc_opt_is_installed():
    assert MLC_OPT.exists(), f"{MLC_OPT} is missing: run `make test` (it installs the packages)"


# ------------------------------------------------------------------ exit statuses


def test_valid_input_exits_0(tmp_path):
    result = run(write(tmp_path / "good.mlir", GOOD))
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr == b""
    assert result.stdout.startswith(b"module {\n  func.func @good(")


def test_verifier_error_exits_1_with_rendered_diagnostic(tmp_path):
    path = write(tmp_path / "bad.mlir", BAD_VERIFY)
    result = run(path)
    assert result.returncode == 1
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert lines[0] == (f"{path}:2:8: error: 'arith.addf' op operand #1 must be "
                        "floating-point-like, but got 'i32'")
    assert lines[1] == '  %0 = "arith.addf"(%arg0, %arg1) : (f32, i32) -> f32'
    assert lines[2] == "       ^"


def test_parse_error_exits_1(tmp_path):
    path = write(tmp_path / "bad.mlir", BAD_PARSE)
    result = run(path)
    assert result.returncode == 1
    assert result.stdout == b""
    assert result.stderr.startswith(f"{path}:1:16: error: ".encode())
    assert_no_crash(result)


def test_version_exits_0():
    result = run("--version")
    assert result.returncode == 0
    assert re.fullmatch(rb"mlc-opt \d+\.\d+\.\d+\S*\n", result.stdout), result.stdout


def test_help_exits_0():
    result = run("--help")
    assert result.returncode == 0
    assert result.stdout.startswith(b"usage: mlc-opt")


def test_list_ops_exits_0():
    result = run("--list-ops")
    assert result.returncode == 0
    for op in (b"arith.addf", b"arith.constant", b"builtin.module", b"func.func", b"func.call"):
        assert op in result.stdout


@pytest.mark.parametrize("args", [
    ["--bogus"],
    ["--elide-elementsattrs-if-larger", "abc"],
    ["--elide-elementsattrs-if-larger"],
    ["-o"],
    ["a.mlir", "b.mlir"],
    ["--print-debuginfo=yes"],
    ["--op-docs"],
], ids=lambda args: " ".join(args))
def test_bad_command_line_exits_nonzero_without_traceback(args):
    result = run(*args)
    assert result.returncode != 0
    assert result.stdout == b""
    assert b"mlc-opt: error:" in result.stderr
    assert_no_crash(result)


def test_unknown_dialect_for_op_docs_exits_1():
    result = run("--op-docs", "nosuchdialect")
    assert result.returncode == 1
    assert b"mlc-opt: error: no dialect named 'nosuchdialect'" in result.stderr


def test_missing_input_exits_1(tmp_path):
    result = run(tmp_path / "does-not-exist.mlir")
    assert result.returncode == 1
    assert result.stdout == b""
    assert b"mlc-opt: error: cannot read" in result.stderr
    assert b"No such file or directory" in result.stderr
    assert_no_crash(result)


def test_directory_as_input_exits_1(tmp_path):
    result = run(tmp_path)
    assert result.returncode == 1
    assert b"mlc-opt: error: cannot read" in result.stderr
    assert_no_crash(result)


def test_verify_diagnostics_exit_statuses(tmp_path):
    met = write(tmp_path / "met.mlir", BAD_VERIFY.replace(
        '  %0 = "arith.addf"', '  // expected-error@+1 {{must be floating-point-like}}\n  %0 = "arith.addf"'))
    result = run(met, "--verify-diagnostics")
    assert result.returncode == 0, result.stderr.decode()
    unmet = write(tmp_path / "unmet.mlir", "// expected-error@+1 {{never}}\nfunc.func private @f()\n")
    result = run(unmet, "--verify-diagnostics")
    assert result.returncode == 1
    assert b'expected error "never" was not produced' in result.stderr
    unexpected = write(tmp_path / "unexpected.mlir", BAD_VERIFY)
    result = run(unexpected, "--verify-diagnostics")
    assert result.returncode == 1
    assert b"unexpected error: 'arith.addf' op operand #1" in result.stderr


def test_split_input_file_exit_status_is_1_if_any_chunk_fails(tmp_path):
    path = write(tmp_path / "split.mlir", GOOD + "// -----\n" + BAD_VERIFY + "// -----\n" + GOOD)
    result = run(path, "--split-input-file")
    assert result.returncode == 1
    assert result.stderr.count(b": error: ") == 1
    assert f"{path}:10:8: error:".encode() in result.stderr


# ------------------------------------------------------------------ -o


def test_output_file_written_on_success(tmp_path):
    out = tmp_path / "out.mlir"
    result = run(write(tmp_path / "good.mlir", GOOD), "-o", out)
    assert result.returncode == 0
    assert result.stdout == b""
    assert out.read_bytes() == run(tmp_path / "good.mlir").stdout


def test_output_file_replaced_on_success(tmp_path):
    out = write(tmp_path / "out.mlir", "old contents\n")
    result = run(write(tmp_path / "good.mlir", GOOD), "-o", out)
    assert result.returncode == 0
    assert out.read_text().startswith("module {")


FAILING_INPUTS = {
    "verifier error": BAD_VERIFY.encode(),
    "parse error": BAD_PARSE.encode(),
    "not UTF-8": b"func.func @f() {\n  return \xff\n}\n",
    "empty chunk fails": (GOOD + "// -----\n" + BAD_VERIFY).encode(),
}


@pytest.mark.parametrize("name", list(FAILING_INPUTS))
def test_failed_run_leaves_existing_output_untouched(tmp_path, name):
    old = b"keep me\x00\xff exactly\n"
    out = write(tmp_path / "out.mlir", old)
    before = out.stat()
    result = run(write(tmp_path / "in.mlir", FAILING_INPUTS[name]), "--split-input-file", "-o", out)
    assert result.returncode == 1
    assert_no_crash(result)
    assert out.read_bytes() == old
    assert out.stat().st_mtime_ns == before.st_mtime_ns
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "out.mlir"]


def test_failed_run_does_not_create_output(tmp_path):
    out = tmp_path / "out.mlir"
    result = run(write(tmp_path / "bad.mlir", BAD_VERIFY), "-o", out)
    assert result.returncode == 1
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir"]


# --verify-diagnostics runs that fail: (input, what stderr says at which line:column).
# BAD_VERIFY's error is at 2:8; an expectation `@+1` on a line of its own before it.
def _expecting(designator_line: str) -> str:
    return BAD_VERIFY.replace('  %0 = "arith.addf"', designator_line + '\n  %0 = "arith.addf"')


FAILING_VERIFY_DIAGNOSTICS = {
    "unterminated text": (_expecting("  // expected-error@+1 {{must be floating-point-like"),
                          "2:24: error: the expected text must end its line with '}}'"),
    "text then more": (_expecting("  // expected-error@+1 {{must be floating-point-like}} !"),
                       "2:24: error: the expected text must end its line with '}}'"),
    "designator @x": (_expecting("  // expected-error@x {{must be floating-point-like}}"),
                      "2:20: error: invalid designator '@x'"),
    "designator @+": (_expecting("  // expected-error@+ {{must be floating-point-like}}"),
                      "2:20: error: invalid designator '@+'"),
    "designator @above2": (_expecting("  // expected-error@above2 {{floating-point-like}}"),
                           "2:20: error: invalid designator '@above2'"),
    "designator @belowx": (_expecting("  // expected-error@belowx {{floating-point-like}}"),
                           "2:20: error: invalid designator '@belowx'"),
    "no braces": (_expecting("  // expected-error@+1 must be floating-point-like"),
                  "2:24: error: expected '{{' after 'expected-error@+1'"),
    "regex with no end": (_expecting("  // expected-error-re@+1 {{operand {{[0-9]+ must}}"),
                          "2:6: error: found start of regex with no end '}}'"),
    "bad regex": (_expecting("  // expected-error-re@+1 {{operand {{(}}}}"),
                  "2:6: error: invalid regex: "),
    "wrong text": (_expecting("  // expected-error@+1 {{must be an integer}}"),
                   '2:6: error: expected error "must be an integer" was not produced'),
    "wrong line": (_expecting("  // expected-error@+2 {{must be floating-point-like}}"),
                   "3:8: error: unexpected error: 'arith.addf' op operand #1"),
    "wrong severity": (_expecting("  // expected-warning@+1 {{must be floating-point-like}}"),
                       "2:6: error: 'error' diagnostic emitted when expecting a 'warning'"),
    "offset past the end": (_expecting("  // expected-error@+100 {{must be floating-point-like}}"),
                            '2:6: error: expected error "must be floating-point-like" was not'),
    "offset before the start": ("func.func private @f()\n// expected-error@-5 {{nothing}}\n",
                                '2:4: error: expected error "nothing" was not produced'),
    "expected, none emitted": (GOOD + "// expected-remark@above {{a remark}}\n",
                               '8:4: error: expected remark "a remark" was not produced'),
    "emitted, none expected": (BAD_VERIFY, "2:8: error: unexpected error: 'arith.addf'"),
}


@pytest.mark.parametrize("split", [False, True], ids=["whole", "split"])
@pytest.mark.parametrize("name", list(FAILING_VERIFY_DIAGNOSTICS))
def test_failed_verify_diagnostics_run_does_not_create_output(tmp_path, name, split):
    text, message = FAILING_VERIFY_DIAGNOSTICS[name]
    path = write(tmp_path / "in.mlir", text)
    out = tmp_path / "out.mlir"
    result = run(path, "--verify-diagnostics", *(["--split-input-file"] if split else []), "-o", out)
    assert result.returncode == 1, result.stderr.decode()
    assert_no_crash(result)
    assert f"{path}:{message}" in result.stderr.decode()
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir"]


@pytest.mark.parametrize("split", [False, True], ids=["whole", "split"])
def test_failed_verify_diagnostics_in_one_chunk_writes_no_output(tmp_path, split):
    # The expectation of the second chunk fails; the first and third are fine.
    text = "\n// -----\n".join([
        "func.func private @a()",
        "// expected-error@+1 {{never comes}}\nfunc.func private @b()",
        _expecting("  // expected-error@+1 {{must be floating-point-like}}"),
    ])
    path = write(tmp_path / "in.mlir", text)
    out = tmp_path / "out.mlir"
    result = run(path, "--verify-diagnostics", *(["--split-input-file"] if split else []), "-o", out)
    assert result.returncode == 1
    assert f'{path}:3:4: error: expected error "never comes" was not produced' in result.stderr.decode()
    assert not out.exists()
    # The same run without the failing expectation succeeds and writes the file.
    write(path, text.replace("// expected-error@+1 {{never comes}}\n", ""))
    result = run(path, "--verify-diagnostics", *(["--split-input-file"] if split else []), "-o", out)
    assert result.returncode == 0, result.stderr.decode()
    assert out.read_text().count("module {") == (2 if split else 0)


BAD_PIPELINES = {
    # pipeline: (column of the error, the start of its message)
    "nope": (1, "'nope' does not refer to a registered pass or pass pipeline"),
    "cse,,dce": (5, "expected a pass or op name"),
    "builtin.module(cse": (15, "unbalanced parentheses"),
    "cse)": (4, "unbalanced parentheses"),
    "canonicalize{max-iterations=2": (13, "unbalanced braces"),
    "canonicalize{bogus=1}": (14, "pass 'canonicalize' has no option 'bogus'"),
    "canonicalize{max-iterations=abc}": (29, "invalid value for option 'max-iterations'"),
    "canonicalize{fold=true fold=false}": (24, "option 'fold' of 'canonicalize' is given twice"),
    "graph-fuse-ops{max-depth=-1}": (26, "invalid value for option 'max-depth'"),
    "graph-fold-constant{max-growth-elements=-1}": (41, "invalid value for option 'max-growth"),
    "graph-alter-op-layout{block=0}": (29, "invalid value for option 'block'"),
    "func.func(cse)": (1, "can't run 'func.func' pass manager on 'builtin.module' op"),
    "builtin.module(func.func(symbol-dce))": (26, "pass 'symbol-dce' cannot run on 'func.func'"),
}


@pytest.mark.parametrize("pipeline", list(BAD_PIPELINES))
def test_bad_pipeline_is_a_located_error_exit_1_and_no_output(tmp_path, pipeline):
    column, message = BAD_PIPELINES[pipeline]
    out = tmp_path / "out.mlir"
    # --opt-level 0 would skip every pass named here: they are checked all the same.
    result = run(write(tmp_path / "in.mlir", GOOD), "-p", pipeline, "--opt-level", "0", "-o", out)
    assert result.returncode == 1
    assert_no_crash(result)
    lines = result.stderr.decode().splitlines()
    assert lines[0].startswith(f"<pipeline>:1:{column}: error: {message}"), lines
    assert lines[1:3] == [pipeline, " " * (column - 1) + "^"]
    assert result.stdout == b"" and not out.exists()


def test_missing_input_leaves_output_untouched(tmp_path):
    out = write(tmp_path / "out.mlir", "keep me\n")
    result = run(tmp_path / "missing.mlir", "-o", out)
    assert result.returncode == 1
    assert out.read_text() == "keep me\n"


def test_successful_run_leaves_no_temporary_file(tmp_path):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    result = run(write(tmp_path / "good.mlir", GOOD), "-o", out_dir / "out.mlir")
    assert result.returncode == 0
    assert [p.name for p in out_dir.iterdir()] == ["out.mlir"]


def test_output_may_be_the_input(tmp_path):
    path = write(tmp_path / "inout.mlir", GOOD)
    expected = run(path).stdout
    result = run(path, "-o", path)
    assert result.returncode == 0
    assert path.read_bytes() == expected


def test_output_dash_is_stdout(tmp_path):
    result = run(write(tmp_path / "good.mlir", GOOD), "-o", "-")
    assert result.returncode == 0
    assert result.stdout.startswith(b"module {")
    assert not (tmp_path / "-").exists()


def test_output_into_missing_directory_is_a_diagnostic(tmp_path):
    result = run(write(tmp_path / "good.mlir", GOOD), "-o", tmp_path / "no-such-dir" / "out.mlir")
    assert_no_crash(result)
    assert result.returncode == 1
    assert b"mlc-opt: error: cannot write" in result.stderr


# ------------------------------------------------------------------ standard input


def test_stdin_dash(tmp_path):
    expected = run(write(tmp_path / "good.mlir", GOOD)).stdout
    result = run("-", stdin=GOOD.encode())
    assert result.returncode == 0
    assert result.stdout == expected


def test_stdin_without_argument(tmp_path):
    expected = run(write(tmp_path / "good.mlir", GOOD)).stdout
    result = run(stdin=GOOD.encode())
    assert result.returncode == 0
    assert result.stdout == expected


def test_stdin_diagnostics_name_stdin():
    result = run("-", stdin=BAD_VERIFY.encode())
    assert result.returncode == 1
    assert result.stderr.startswith(b"<stdin>:2:8: error: ")


def test_closed_stdout_is_not_a_traceback(tmp_path):
    body = "".join(f"  %{i} = arith.addi %arg0, %arg0 : i32\n" for i in range(20000))
    path = write(tmp_path / "big.mlir",
                 "func.func @f(%arg0: i32) -> i32 {\n" + body + "  return %arg0 : i32\n}\n")
    with subprocess.Popen([str(MLC_OPT), str(path)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read()
        proc.wait(timeout=300)
    assert b"Traceback" not in err, err.decode(errors="replace")
    assert b"internal error" not in err, err.decode(errors="replace")


# ------------------------------------------------------------------ malformed inputs


def _long_dense() -> bytes:
    values = ", ".join(str(i % 100) for i in range(100_000))
    return f"%0 = arith.constant dense<[{values}]> : tensor<100000xi32>\n".encode()


def _many_attrs() -> bytes:
    attrs = ", ".join(f"a{i} = {i}" for i in range(20_000))
    return f'"foo.op"() {{{attrs}}} : () -> ()\n'.encode()


# name -> (input, expected exit status or None for "0 or 1")
MALFORMED: dict[str, tuple[bytes, int | None]] = {
    "empty file": (b"", 0),
    "whitespace only": (b"  \n\t\n\r\n", 0),
    "comment only": (b"// nothing here\n", 0),
    "binary garbage": (bytes(range(256)), 1),
    "random bytes": (random.Random(1234).randbytes(4096), 1),
    "random printable": ("".join(random.Random(99).choice("%@^#!{}()[]<>:=,\"'x0 \n")
                                 for _ in range(2000)).encode(), 1),
    "non-UTF-8 byte in a string": (b'"foo.op"() {a = "caf\xe9"} : () -> ()\n', 1),
    "UTF-16": ("func.func private @f()\n".encode("utf-16"), 1),
    "UTF-8 BOM": (b"\xef\xbb\xbffunc.func private @f()\n", None),
    "NUL byte": (b"func.func @f() {\x00 return }\n", 1),
    "CRLF line endings": (b"func.func @f() {\r\n  return\r\n}\r\n", 0),
    "tabs": (b"func.func @f() {\n\treturn\n}\n", 0),
    "truncated custom op": (b"%0 = arith.addf", 1),
    "truncated generic op": (b'"arith.addf"(', 1),
    "truncated function": (b"func.func @f(%arg0: i32) -> i32 {\n  return %arg0 : i32\n", 1),
    "truncated type": (b"func.func private @f(tensor<2x", 1),
    "truncated dense": (b"%0 = arith.constant dense<[1, 2", 1),
    "truncated string": (b'"foo.op"() {a = "abc', 1),
    "truncated resource section": (b"{-#\n  dialect_resources: {\n    builtin: {\n", 1),
    "unbalanced open braces": (b"{{{{\n", 1),
    "unbalanced close braces": (b"}}}}\n", 1),
    "extra close brace": (b"func.func @f() {\n  return\n}\n}\n", 1),
    "unbalanced parens": (b'"foo.op"(( : () -> ()', 1),
    "unbalanced angle brackets": (b"func.func private @f(tensor<<<4xf32>)", 1),
    "unbalanced square brackets": (b'"foo.op"() {a = [[[1]} : () -> ()', 1),
    "lone sigils": (b"% @ ^ # ! \"", 1),
    "only equals": (b"=\n", 1),
    "operation without op": (b"%0 = \n", 1),
    "bad escape": (b'"foo.op"() {a = "\\zz"} : () -> ()', 1),
    "very long comment line": (b"func.func private @f()\n// " + b"x" * 200_000 + b"\n", 0),
    "very long identifier": (b"func.func private @" + b"a" * 100_000 + b"()\n", 0),
    "very long line of code": (_long_dense(), 0),
    "very many attributes": (_many_attrs(), 1),
    "very long undefined value": (b"func.func @f() {\n  return %" + b"v" * 100_000 + b" : i32\n}\n", 1),
    "long integer literal": (b"%0 = arith.constant " + b"9" * 4000 + b" : i64\n", None),
    "huge float exponent": (b"%0 = arith.constant 1.0e99999 : f32\n", None),
    "huge dimension": (b"func.func private @f(tensor<" + b"9" * 100 + b"xf32>)\n", None),
    "many results": (b"%0:100000 = \"foo.op\"() : () -> ()\n", 1),
    "negative result count": (b"%0:-1 = \"foo.op\"() : () -> ()\n", 1),
    "deep regions": (b'"foo.op"() ({\n' * 200 + b"}) : () -> ()\n" * 200, 1),
    "undefined alias": (b"func.func private @f(!nope)\n", 1),
    "self-referencing alias": (b"#a = [#a]\n", 1),
    "empty dense of wrong type": (b"%0 = arith.constant dense<> : tensor<2xf32>\n", 1),
    "dense of wrong kind": (b'%0 = arith.constant dense<["a"]> : tensor<1xi32>\n', 1),
    "split marker only": (b"// -----\n", 0),
}


# Malformed inputs that mlc does not handle yet: name -> (input, reason).
# Inputs that once hit bugs; kept here with the bug they exposed, none open now.
MALFORMED_BUGS: dict[str, tuple[bytes, str]] = {}
MALFORMED["integer literal over 4300 digits"] = (b"%0 = arith.constant " + b"9" * 5000 + b" : i64\n", 1)


@pytest.mark.parametrize("name", [
    *MALFORMED,
    *(pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=reason))
      for name, (_, reason) in MALFORMED_BUGS.items()),
])
def test_malformed_input_is_a_diagnostic(tmp_path, name):
    data, expected_status = MALFORMED[name] if name in MALFORMED else (MALFORMED_BUGS[name][0], 1)
    path = write(tmp_path / "input.mlir", data)
    result = run(path)
    assert_no_crash(result)
    if expected_status is not None:
        assert result.returncode == expected_status, result.stderr.decode(errors="replace")
    if result.returncode == 1:
        assert DIAGNOSTIC_RE.search(result.stderr), result.stderr.decode(errors="replace")
        assert result.stdout == b""


@pytest.mark.parametrize("name", ["binary garbage", "NUL byte", "truncated function",
                                  "unbalanced open braces"])
def test_malformed_input_on_stdin_is_a_diagnostic(name):
    data, _ = MALFORMED[name]
    result = run("-", stdin=data)
    assert_no_crash(result)
    assert result.returncode == 1


def test_every_truncation_of_a_program_is_a_diagnostic(tmp_path):
    """Each prefix of SAMPLE as one chunk of a --split-input-file run: one process."""
    cuts = sorted(set(range(0, len(SAMPLE), 7)) | {len(SAMPLE)})
    chunks = [SAMPLE[:cut] for cut in cuts]
    # A prefix that ends inside a line would swallow the split marker: end each with \n.
    text = "\n// -----\n".join(chunks) + "\n"
    result = run(write(tmp_path / "prefixes.mlir", text), "--split-input-file",
                 "--allow-unregistered-dialect")
    assert_no_crash(result)


@pytest.mark.parametrize("name,data", [
    ("nested arrays", b'"foo.op"() {a = ' + b"[" * 3000 + b"]" * 3000 + b"} : () -> ()\n"),
    ("nested tuple types", b"func.func private @f(" + b"tuple<" * 2000 + b"i32" + b">" * 2000 + b")\n"),
])
def test_deep_nesting_is_not_an_internal_error(tmp_path, name, data):
    result = run(write(tmp_path / "deep.mlir", data), "--allow-unregistered-dialect")
    assert_no_crash(result)


def test_dense_integer_out_of_range_is_a_diagnostic(tmp_path):
    result = run(write(tmp_path / "d.mlir", b"%0 = arith.constant dense<[1, 300]> : tensor<2xi8>\n"))
    assert_no_crash(result)
    assert result.returncode == 1


def test_name_location_is_not_an_internal_error(tmp_path):
    result = run(write(tmp_path / "n.mlir", b'func.func @f() {\n  return loc("name")\n}\n'))
    assert_no_crash(result)
    assert result.returncode == 0


def test_forward_alias_in_nested_location_is_not_an_internal_error(tmp_path):
    data = b'func.func @f() {\n  return loc(callsite(#loc1 at "b":1:1))\n}\n#loc1 = loc("a":1:1)\n'
    result = run(write(tmp_path / "l.mlir", data), "--print-debuginfo")
    assert_no_crash(result)


def test_no_python_warning_on_overflowing_dense_float(tmp_path):
    result = run(write(tmp_path / "f.mlir", b"%0 = arith.constant dense<[1.0e40, 1.0]> : tensor<2xf32>\n"))
    assert_no_crash(result)
    assert result.returncode == 0
    assert result.stderr == b""


# ------------------------------------------------------------------ determinism


DETERMINISM_FLAGS = [
    [],
    ["--print-op-generic"],
    ["--print-debuginfo"],
    ["--print-op-generic", "--print-debuginfo"],
    ["--elide-elementsattrs-if-larger", "2"],
    ["--print-elementsattrs-with-hex-if-larger", "2"],
]


@pytest.mark.parametrize("flags", DETERMINISM_FLAGS, ids=lambda f: " ".join(f) or "custom")
def test_same_input_twice_gives_identical_output(tmp_path, flags):
    path = write(tmp_path / "sample.mlir", SAMPLE)
    first = run(path, "--allow-unregistered-dialect", *flags)
    second = run(path, "--allow-unregistered-dialect", *flags)
    assert first.returncode == 0, first.stderr.decode()
    assert first.stdout == second.stdout
    assert first.stderr == second.stderr == b""


def test_output_does_not_depend_on_hash_seed(tmp_path):
    path = write(tmp_path / "sample.mlir", SAMPLE)
    outputs = set()
    errors = set()
    bad = write(tmp_path / "bad.mlir", BAD_VERIFY + "// -----\n" + BAD_PARSE)
    for seed in ("0", "1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        result = run(path, "--allow-unregistered-dialect", "--print-debuginfo", env=env)
        assert result.returncode == 0, result.stderr.decode()
        outputs.add(result.stdout)
        errors.add(run(bad, "--split-input-file", env=env).stderr)
    assert len(outputs) == 1
    assert len(errors) == 1


def test_output_is_a_fixed_point(tmp_path):
    """Printing what mlc printed gives the same bytes (custom and generic)."""
    first = run(write(tmp_path / "sample.mlir", SAMPLE), "--allow-unregistered-dialect")
    assert first.returncode == 0, first.stderr.decode()
    second = run("-", "--allow-unregistered-dialect", stdin=first.stdout)
    assert second.stdout == first.stdout
    generic = run("-", "--allow-unregistered-dialect", "--print-op-generic", stdin=first.stdout)
    again = run("-", "--allow-unregistered-dialect", "--print-op-generic", stdin=generic.stdout)
    assert again.stdout == generic.stdout


def test_print_flags_also_answer_to_mlir_opts_names(tmp_path):
    path = tmp_path / "in.mlir"
    path.write_text(SAMPLE)
    pairs = [("--print-op-generic",), ("--print-debuginfo",), ("--print-local-scope",),
             ("--elide-elementsattrs-if-larger", "1"),
             ("--print-elementsattrs-with-hex-if-larger", "1")]
    for flag, *value in pairs:
        ours = run(path, "--allow-unregistered-dialect", flag, *value)
        theirs = run(path, "--allow-unregistered-dialect", "--mlir-" + flag[2:], *value)
        assert ours.returncode == theirs.returncode == 0, theirs.stderr
        assert ours.stdout == theirs.stdout
    # and differ from the default output, so the flag did something
    assert run(path, "--allow-unregistered-dialect", "--mlir-print-op-generic").stdout \
        != run(path, "--allow-unregistered-dialect").stdout
