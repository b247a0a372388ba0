"""The pure parts of benchmarks/mlir_conformance.py: reading RUN lines, translating
mlir-opt's flags to mlc-opt's, cutting a test file into cases, judging and
classifying results. No network and no mlir-opt needed."""

import sys
from pathlib import Path

import pytest

from tests.benchmark_scripts import benchmark_script


@pytest.fixture(scope="module")
def conformance():
    """The script as a module (it imports its sibling `roundtrip`)."""
    with benchmark_script("mlir_conformance") as module:
        yield module




def mlc_flags(conformance):
    return conformance.MlcFlags(
        options=frozenset({"--allow-unregistered-dialect", "--split-input-file",
                           "--verify-diagnostics", "--print-op-generic", "--print-debuginfo",
                           "-p", "-o"}),
        passes=frozenset({"canonicalize", "cse"}))


# ------------------------------------------------------------------ RUN lines


def test_run_commands_join_continuations(conformance):
    lines = ["// RUN: mlir-opt %s -foo \\\n", "// RUN:   --split-input-file | FileCheck %s\n",
             "func.func @f()\n", "// RUN: mlir-opt %s\n"]
    assert conformance.run_commands(lines) == [
        (1, "mlir-opt %s -foo --split-input-file | FileCheck %s"), (4, "mlir-opt %s")]


def test_parse_run_line_pipe_not_and_stderr(conformance):
    run = conformance.parse_run_line(
        3, "not mlir-opt %s -split-input-file 2>&1 | mlir-opt -verify-diagnostics| "
           "FileCheck %s -check-prefix GENERIC --check-prefixes=A,B --strict-whitespace")
    assert not run.unsupported
    first, second = run.commands
    assert (first.negated, first.merge_stderr, first.args) == (True, True,
                                                               ("%s", "-split-input-file"))
    assert (second.negated, second.args) == (False, ("-verify-diagnostics",))
    assert run.check.prefixes == ("GENERIC", "A", "B") and run.check.strict_whitespace
    assert run.splits and not run.per_chunk  # under `not` the file runs whole


def test_parse_run_line_quoted_pipeline(conformance):
    run = conformance.parse_run_line(
        1, "mlir-opt %s -pass-pipeline='builtin.module(func.func(cse))' | FileCheck %s")
    assert run.commands[0].args == ("%s", "-pass-pipeline=builtin.module(func.func(cse))")
    assert run.check.prefixes == ("CHECK",) and run.per_chunk is False


@pytest.mark.parametrize("text, reason", [
    ("mlir-opt %s | llc", "program llc"),
    ("mlir-opt %s -o %t", "lit substitution"),
    ("mlir-opt %s > %t.out", "redirection"),
    ("mlir-opt %s | FileCheck %s --implicit-check-not=foo", "FileCheck flag"),
    ("FileCheck %s", "no mlir-opt or mlir-translate"),
])
def test_parse_run_line_says_what_it_cannot_run(conformance, text, reason):
    assert reason in conformance.parse_run_line(1, text).unsupported


# ---------------------------------------------------------------- translation


@pytest.mark.parametrize("mlir, mlc", [
    (["%s", "-allow-unregistered-dialect", "--mlir-print-op-generic"],
     ["%s", "--allow-unregistered-dialect", "--print-op-generic"]),
    (["-pass-pipeline=builtin.module(func.func(canonicalize{test-convergence}))"],
     ["-p", "builtin.module(func.func(canonicalize{test-convergence}))"]),
    (["-o=/dev/null", "-mlir-print-debuginfo"], ["-o", "/dev/null", "--print-debuginfo"]),
    (["-o", "-"], ["-o", "-"]),
    (["-canonicalize=test-convergence", "-cse"], ["--canonicalize=test-convergence", "--cse"]),
    (["--mlir-disable-threading=true", "-verify-diagnostics=false"], []),
])
def test_translate_opt_args(conformance, mlir, mlc):
    assert conformance.translate_opt_args(mlir, mlc_flags(conformance)) == mlc


@pytest.mark.parametrize("mlir, flag", [
    (["%s", "-test-greedy-patterns"], "-test-greedy-patterns"),
    (["--mlir-print-local-scope"], "--mlir-print-local-scope"),  # mapped, but not in this mlc
    (["-emit-bytecode"], "-emit-bytecode"),
    (["-verify-diagnostics=maybe"], "-verify-diagnostics=maybe"),
])
def test_translate_opt_args_names_the_missing_flag(conformance, mlir, flag):
    with pytest.raises(conformance.Unsupported, match=flag):
        conformance.translate_opt_args(mlir, mlc_flags(conformance))


def test_mlc_flags_reads_the_installed_mlc_opt(conformance):
    flags = conformance.mlc_flags(Path(sys.executable).parent / "mlc-opt")
    assert {"--print-op-generic", "--verify-diagnostics", "-p"} <= flags.options
    assert {"canonicalize", "cse", "symbol-dce"} <= flags.passes
    assert {"arith.addi", "func.func", "test.for"} <= flags.ops  # mlc's own test dialect too


# ------------------------------------------------------------------- cutting

SPLIT_FILE = """\
// RUN: mlir-opt %s -split-input-file | FileCheck %s
// RUN: mlir-opt %s -split-input-file | FileCheck %s --check-prefix=GEN

// CHECK-DAG: #[[MAP:.*]] = affine_map
// CHECK-LABEL: func @a
// GEN-LABEL: func @a
// CHECK: return
func.func @a() { return }

// CHECK-LABEL: func @b
func.func @b() { return }

// -----

// expected-error@+1 {{bad}}
func.func @c() -> i32 { return }
// -----
""".splitlines(keepends=True)


def cut(conformance, lines):
    runs = [conformance.parse_run_line(n, t) for n, t in conformance.run_commands(lines)]
    return runs, *conformance.cut_cases("x.mlir", lines, runs)


def test_cut_cases_chunks_and_label_blocks(conformance):
    runs, chunks, cases, prefix_of = cut(conformance, SPLIT_FILE)
    assert chunks == [(0, 12), (13, 16), (17, 17)]  # 0-based, markers left out
    assert [(c.chunk, c.line + 1) for c in cases] == [(0, 5), (0, 10), (1, 15), (2, 17)]
    first, second, third, _ = cases
    # The preamble (the CHECK-DAG before the first label) belongs to every block;
    # consecutive labels of two prefixes open one block.
    assert [n + 1 for n in first.check_lines] == [4, 5, 6, 7]
    assert first.terminator == (9,) and second.terminator == ()
    assert [n + 1 for n in second.check_lines] == [4, 10]
    assert second.earlier_lines == (4, 5, 6)
    assert third.expects_diagnostics and not first.expects_diagnostics
    assert prefix_of[5] == "GEN" and prefix_of[3] == "CHECK"
    # A case's input: the first block from its chunk's start, each up to the next label.
    assert [c.span for c in cases] == [(0, 9), (9, 12), (13, 16), (17, 17)]


def test_without_split_the_file_is_one_chunk(conformance):
    lines = ["// RUN: mlir-opt %s | FileCheck %s\n", "// CHECK-LABEL: @a\n", "// -----\n",
             "// CHECK-LABEL: @b\n"]
    _, chunks, cases, _ = cut(conformance, lines)
    assert chunks == [(0, 4)] and [c.line for c in cases] == [1, 3]


def test_chunk_text_keeps_line_numbers(conformance, tmp_path):
    path = tmp_path / "x.mlir"
    path.write_text("".join(SPLIT_FILE))
    test = conformance.load_test_file(path, "x.mlir", has_asserts=False)
    chunk = test.chunk_text(1).splitlines()
    assert len(chunk) == 16 and not any(chunk[:13])
    assert chunk[15] == "func.func @c() -> i32 { return }"


def test_check_text_keeps_only_the_case_and_resolves_line_expressions(conformance, tmp_path):
    path = tmp_path / "x.mlir"
    path.write_text("// RUN: mlir-opt %s | FileCheck %s\n\n"
                    "// CHECK: loc(\"x\":[[# @LINE+1]]:3) [[# @LINE - 1]] [[@LINE]]\n"
                    "// CHECK: other\n")
    test = conformance.load_test_file(path, "x.mlir", has_asserts=False)
    assert test.check_text([2]).splitlines() == ["", "", '// CHECK: loc("x":4:3) 2 3', ""]


def test_lit_skips_follow_requires_and_xfail(conformance):
    assert conformance._lit_skips(["// REQUIRES: asserts\n"], has_asserts=False)
    assert not conformance._lit_skips(["// REQUIRES: asserts\n"], has_asserts=True)
    assert not conformance._lit_skips(["// XFAIL: target={{(s390x|sparc.*)-.*}}\n"], False)
    assert conformance._lit_skips(["// XFAIL: *\n"], False)


def test_glob_match_does_not_cross_directories(conformance):
    match = conformance._glob_match
    assert match("Dialect/Builtin/ops.mlir", "Dialect/Builtin/*.mlir")
    assert not match("Dialect/Builtin/Bytecode/attrs.mlir", "Dialect/Builtin/*.mlir")
    assert match("Transforms/cse.mlir", "cse.mlir")


# ----------------------------------------------------------- judging, kinds


def test_judge_ends_a_block_at_the_next_label(conformance, tmp_path):
    """A CHECK-NOT at the end of a block must not see the next block's output (as in
    FileCheck), and a missing next label is the next block's failure, not this one's."""
    path = tmp_path / "x.mlir"
    path.write_text("// RUN: mlir-opt %s | FileCheck %s\n"
                    "// CHECK-LABEL: @a\n// CHECK-NOT: addi\n"
                    "// CHECK-LABEL: @b\n// CHECK: addi\n")
    test = conformance.load_test_file(path, "x.mlir", has_asserts=False)
    run = test.runs[0]
    first, second = test.cases

    def verdicts(output):
        execution = conformance.Execution(stdout=output)
        return [conformance.judge(test, case, run, execution, tmp_path / "checks", None).passed
                for case in (first, second)]

    assert verdicts("func @a\nfunc @b\naddi\n") == [True, True]
    assert verdicts("func @a\naddi\nfunc @b\naddi\n") == [False, True]
    assert verdicts("func @a\nfunc @c\naddi\n") == [False, False]  # addi follows @a
    assert verdicts("func @a\n") == [True, False]


def failed(conformance, messages, run_text="mlir-opt %s", returncode=1, stdout=""):
    run = conformance.parse_run_line(1, run_text)
    stage = conformance.StageResult(["mlc-opt"], returncode, messages)
    return run, conformance.Execution([stage], stdout, failed_stage=0)


@pytest.mark.parametrize("messages, returncode, run_text, expects, kind, subject", [
    ("x.mlir:2:8: error: custom op 'memref.alloc' is unknown (dialect 'memref' is not "
     "installed)", 1, "mlir-opt %s", False, "unsupported op", "memref.alloc"),
    ("x.mlir:2:8: error: Dialect `memref' not found for custom op 'memref.alloc'", 1,
     "mlir-opt %s", False, "unsupported op", "memref.alloc"),
    ("x.mlir:2:16: error: operation being parsed with an unregistered dialect. If this is "
     "intended, please use -allow-unregistered-dialect with the MLIR tool used\n"
     '  %0 = "memref.alloc"() : () -> memref<2xf32>\n               ^', 1, "mlir-opt %s", False,
     "unsupported op", "memref.alloc"),
    ("x.mlir:2:8: error: dialect 'test' has no attribute 'test.custom'", 1, "mlir-opt %s",
     False, "unsupported op", "test.custom"),
    ("x.mlir:2:8: error: '!memref.x<2>' type created with unregistered dialect. If this is "
     "intended, please use -allow-unregistered-dialect with the MLIR tool used", 1,
     "mlir-opt %s", False, "unsupported op", "memref"),
    # An unknown op of a dialect MLIR lacks too is the input's fault, not mlc's.
    ("x.mlir:2:8: error: custom op 'foo.bar' is unknown", 1, "mlir-opt %s", False,
     "valid input rejected", ""),
    # Under --verify-diagnostics only an unexpected error tells that mlc lacks the op.
    ("x.mlir:2:8: error: expected error \"custom op 'memref.x' is unknown\" was not produced",
     1, "mlir-opt %s -verify-diagnostics", True, "diagnostic mismatch", ""),
    ("<pipeline>:1:11: error: 'test-foo' does not refer to a registered pass or pass "
     "pipeline", 1, "mlir-opt %s", False, "unsupported flag", "test-foo"),
    ("mlc-opt: internal error: AttributeError: 'list' object has no attribute 'x'", 1,
     "mlir-opt %s", False, "crash", "AttributeError"),
    ("", -11, "mlir-opt %s", False, "crash", "signal 11"),
    ("", None, "mlir-opt %s", False, "crash", "timeout"),
    ("", 0, "not mlir-opt %s", False, "diagnostic mismatch", ""),
    ("x.mlir:1:1: error: unexpected error: bad", 1, "mlir-opt %s -verify-diagnostics", False,
     "valid input rejected", ""),
])
def test_classify_mlc_failure(conformance, messages, returncode, run_text, expects, kind,
                              subject):
    run, execution = failed(conformance, messages, run_text, returncode)
    case = conformance.Case("x.mlir", 0, 0, (), (), expects)
    verdict = conformance.classify_mlc_failure(execution, run, case,
                                               frozenset({"memref", "test", "arith"}))
    assert (verdict.passed, verdict.kind, verdict.subject) == (False, kind, subject)


def test_untranslatable_flag_is_an_unsupported_flag(conformance):
    run = conformance.parse_run_line(4, "mlir-opt %s -test-clone | FileCheck %s")
    tool = conformance.ToolUnderTest(
        "mlc-opt", Path("mlc-opt"), lambda args: conformance.translate_opt_args(
            args, mlc_flags(conformance)))
    execution = conformance.execute(tool, run, Path("x.mlir"), 1, "x.mlir")
    case = conformance.Case("x.mlir", 0, 0, (), (), False)
    verdict = conformance.classify_mlc_failure(execution, run, case, frozenset())
    assert (verdict.kind, verdict.subject, verdict.run_line) == (
        "unsupported flag", "--test-clone", 4)


def test_combine_takes_the_most_basic_kind(conformance):
    verdict = conformance.Verdict
    mismatch = verdict(False, "output mismatch", run_line=1)
    flag = verdict(False, "unsupported flag", run_line=3)
    assert conformance.combine([conformance.PASSED, mismatch, flag]) is flag
    assert conformance.combine([conformance.PASSED, conformance.PASSED]).passed


# ---------------------------------------------------- ops of MLIR's test dialect

def test_missing_test_ops_reads_both_forms_and_skips_comments(conformance):
    text = """\
%0 = "test.op_with_memread"() : () -> i32  // expected-error {{'test.in_comment' op}}
%1, %2 = test.graph_region {
  test.for
  "test.op_with_memread"() : () -> ()
}
#a = #test.attr<"x">
"foo"() {name = "test.not_an_op"} : () -> ()
"""
    known = frozenset({"test.for"})
    assert conformance.missing_test_ops(text, known) == ["test.op_with_memread",
                                                         "test.graph_region"]


TEST_OP_FILE = """\
// RUN: mlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect
// expected-error@+1 {{graph regions}}
test.graph_region { "foo"() : () -> () }
// -----
// expected-error@+1 {{bad}}
"foo"() : () -> ()
"""


@pytest.mark.parametrize("chunk, kind, expected_kind, subject", [
    (0, "diagnostic mismatch", "unsupported op", "test.graph_region"),
    (0, "valid input rejected", "unsupported op", "test.graph_region"),
    (0, "crash", "crash", ""),  # a crash is mlc's fault whatever the input
    (1, "diagnostic mismatch", "diagnostic mismatch", ""),  # no test op in this chunk
])
def test_a_test_op_mlc_lacks_makes_the_case_unsupported(conformance, tmp_path, chunk, kind,
                                                         expected_kind, subject):
    path = tmp_path / "x.mlir"
    path.write_text(TEST_OP_FILE)
    test = conformance.load_test_file(path, "x.mlir", has_asserts=False)
    case, run = test.cases[chunk], test.runs[0]
    verdict = conformance.Verdict(False, kind, "x.mlir:3:1: error: ...", run.line)
    blamed = conformance.blame_missing_test_op(verdict, test, case, run, frozenset({"test.for"}))
    assert (blamed.kind, blamed.subject) == (expected_kind, subject)
    # With the op in mlc's dialects the failure is mlc's own.
    known = frozenset({"test.graph_region"})
    assert conformance.blame_missing_test_op(verdict, test, case, run, known) is verdict


def test_an_output_mismatch_looks_at_the_case_block_only(conformance, tmp_path):
    path = tmp_path / "x.mlir"
    path.write_text("// RUN: mlir-opt %s -allow-unregistered-dialect | FileCheck %s\n"
                    "// CHECK-LABEL: @a\nfunc.func @a() { \"test.unknown_op\"() : () -> () }\n"
                    "// CHECK-LABEL: @b\nfunc.func @b() { return }\n")
    test = conformance.load_test_file(path, "x.mlir", has_asserts=False)
    run = test.runs[0]
    mismatch = conformance.Verdict(False, "output mismatch", "", run.line)
    first, second = (conformance.blame_missing_test_op(mismatch, test, case, run, frozenset())
                     for case in test.cases)
    assert (first.kind, first.subject) == ("unsupported op", "test.unknown_op")
    assert second is mismatch


# ------------------------------------------------------------- mlir-translate

def test_mlir_translate_run_lines_are_driven(conformance):
    run = conformance.parse_run_line(
        1, "mlir-opt %s -canonicalize | mlir-translate -mlir-to-llvmir -split-input-file "
           "| FileCheck %s")
    assert not run.unsupported
    assert [c.program for c in run.commands] == ["mlir-opt", "mlir-translate"]
    flags = conformance.MlcFlags(frozenset({"--mlir-to-llvmir", "--split-input-file",
                                            "--verify-diagnostics", "-o"}), frozenset())
    table = conformance.TRANSLATE_OPTION_TRANSLATIONS
    assert conformance.translate_opt_args(["%s", "-mlir-to-llvmir", "-verify-diagnostics"],
                                          flags, table) == ["%s", "--mlir-to-llvmir",
                                                            "--verify-diagnostics"]
    with pytest.raises(conformance.Unsupported, match="test-to-llvmir"):
        conformance.translate_opt_args(["-test-to-llvmir"], flags, table)


def test_a_tool_without_a_translator_cannot_run_translate_lines(conformance):
    run = conformance.parse_run_line(2, "mlir-translate -mlir-to-llvmir %s | FileCheck %s")
    tool = conformance.ToolUnderTest("mlc-opt", Path("mlc-opt"), lambda args: list(args))
    execution = conformance.execute(tool, run, Path("x.mlir"), 1, "x.mlir")
    assert "cannot run mlir-translate" in execution.unsupported
    flag = conformance.ToolUnderTest(
        "mlc-opt", Path("mlc-opt"), None, {"mlir-translate": conformance.Program(
            Path("mlc-translate"), lambda args: conformance.translate_opt_args(
                args, conformance.MlcFlags(frozenset(), frozenset()),
                conformance.TRANSLATE_OPTION_TRANSLATIONS))})
    execution = conformance.execute(flag, run, Path("x.mlir"), 1, "x.mlir")
    verdict = conformance.classify_mlc_failure(
        execution, run, conformance.Case("x.mlir", 0, 0, (), (), False), frozenset())
    assert (verdict.kind, verdict.subject) == ("unsupported flag", "--mlir-to-llvmir")


def test_an_unregistered_attribute_over_several_lines_is_an_unsupported_op(conformance):
    messages = ("x.mlir:3:35: error: '#dlti.dl_spec<\n#dlti.dl_entry<i64, 64>>' attribute "
                "created with unregistered dialect. If this is intended, ...\n")
    assert conformance.unknown_op(messages, False, frozenset({"dlti"})) == "dlti"


def test_the_basic_llvmir_selection(conformance, tmp_path):
    base = tmp_path / "mlir" / "test" / "Target" / "LLVMIR"
    base.mkdir(parents=True)
    for name in ("llvmir.mlir", "nneg.mlir", "openmp-llvm.mlir", "nvvmir.mlir", "ptr.mlir",
                 "target-to-data-layout-no-init.mlir", "test.mlir"):
        (base / name).write_text("")
    assert conformance.select_files(tmp_path, ["llvmir-basic"]) == [
        "Target/LLVMIR/llvmir.mlir", "Target/LLVMIR/nneg.mlir"]
