"""Diagnostics: every error carries a location and renders with the line and a caret."""

import re

import pytest

from mlc.ir import Context, DiagnosticError, SourceManager, parse_module, verify
from mlc.ir.core.attributes import FileLineColLoc
from mlc.ir.diagnostics import Diagnostic, SourceFile
from mlc.ir.verify.expected import ExpectedDiagnostics


def _render(text: str, allow_unregistered: bool = False) -> str:
    sources = SourceManager()
    source = sources.add("in.mlir", text)
    with pytest.raises(DiagnosticError) as info:
        module = parse_module(text, Context(allow_unregistered=allow_unregistered), source=source)
        verify(module)
    return "".join(sources.render(d) for d in info.value.diagnostics)


def test_undefined_value_is_reported_at_its_use():
    text = "func.func @f() -> f32 {\n  return %nope : f32\n}\n"
    assert _render(text) == (
        "in.mlir:2:10: error: use of undeclared SSA value name\n"
        "  return %nope : f32\n"
        "         ^\n")


def test_type_constraint_violation_points_at_the_op():
    text = 'func.func @f(%a: i32) {\n  %0 = "arith.addf"(%a, %a) : (i32, i32) -> i32\n  return\n}\n'
    rendered = _render(text)
    assert rendered.startswith("in.mlir:2:8: error: 'arith.addf' op operand #0 must be "
                               "floating-point-like, but got 'i32'\n")
    assert rendered.endswith('  %0 = "arith.addf"(%a, %a) : (i32, i32) -> i32\n       ^\n')


def test_syntax_error_names_what_was_expected():
    rendered = _render("func.func @f( {\n}\n")
    # As mlir-opt-22 reports it: just after the text before the bad token.
    assert rendered.startswith("in.mlir:1:14: error: expected non-function type")


def test_redefinition_has_a_note_at_the_first_definition():
    text = ("func.func @f(%a: f32) {\n  %x = arith.addf %a, %a : f32\n"
            "  %x = arith.mulf %a, %a : f32\n  return\n}\n")
    rendered = _render(text)
    assert "in.mlir:3:3: error: redefinition of SSA value '%x'" in rendered
    assert "in.mlir:2:3: note: previously defined here" in rendered


def test_dominance_violation_with_note():
    text = ("func.func @f(%a: f32) {\n  %0 = arith.addf %1, %a : f32\n"
            "  %1 = arith.mulf %a, %a : f32\n  return\n}\n")
    rendered = _render(text)
    # mlir-opt-22's words: neither the op nor the operand is named.
    assert "in.mlir:2:8: error: operand #0 does not dominate this use" in rendered
    assert "in.mlir:3:8: note: operand defined here (op in the same block)" in rendered


def test_unknown_custom_op():
    # mlir-opt-22's words: an op of an unknown dialect, with the dialects there are; an
    # unknown op of a known dialect; a name without a dialect, tried in the default one.
    rendered = _render("func.func @f() {\n  foo.bar\n  return\n}\n")
    assert rendered.startswith("in.mlir:2:3: error: Dialect `foo' not found for custom op "
                               "'foo.bar'")
    # The dialects loaded so far (other tests load more), sorted.
    available = re.search(r"in.mlir:2:3: note: Available dialects: (.*)\n", rendered)
    assert available, rendered
    names = available.group(1).split(", ")
    assert names == sorted(names) and {"arith", "builtin", "func"} <= set(names)
    rendered = _render("func.func @f() {\n  arith.bar\n  return\n}\n")
    assert rendered.startswith("in.mlir:2:3: error: custom op 'arith.bar' is unknown\n")
    rendered = _render("func.func @f() {\n  bar\n  return\n}\n")
    assert rendered.startswith("in.mlir:2:3: error: custom op 'bar' is unknown (tried "
                               "'func.bar' as well)")


def test_unregistered_generic_op_needs_the_flag():
    # mlir-opt-22's words: for a dialect that is not there, and for an op its dialect lacks.
    text = '"foo.bar"() : () -> ()\n'
    assert "operation being parsed with an unregistered dialect" in _render(text)
    parse_module(text, Context(allow_unregistered=True))
    text = '"arith.bar"() : () -> ()\n'
    assert ("unregistered operation 'arith.bar' found in dialect ('arith') that does not allow "
            "unknown operations") in _render(text)


def test_expectations_are_read_as_mlir_opt_reads_them():
    text = ("op  // expected-error {{a}} expected-error {{b}}\n"   # one expectation: "a}} ...{{b"
            "// expected-note@below {{n}}\n"
            "// expected-note@below {{m}}\n"
            "op\n"                                                 # line 4, for both @below
            "// expected-remark@above {{r}}\n"                     # line 4 too
            "// expected-warning@unknown {{w}}\n")
    expected = ExpectedDiagnostics(SourceFile("in.mlir", text))
    assert expected.problems == []
    assert [(e.severity, e.line, e.text) for e in expected.expectations] == [
        ("error", 1, "a}} expected-error {{b"), ("note", 4, "n"), ("note", 4, "m"),
        ("remark", 4, "r"), ("warning", None, "w")]

    def at(line: int) -> FileLineColLoc:
        return FileLineColLoc("in.mlir", line, 1)

    # An expectation is met by every diagnostic it matches, as in MLIR.
    assert expected.check([Diagnostic("note", "n and n", at(4)), Diagnostic("note", "n", at(4)),
                           Diagnostic("warning", "w", None)]) == []
    [problem] = expected.check([Diagnostic("remark", "m", at(4))])
    assert problem.message == "'remark' diagnostic emitted when expecting a 'note'"
    assert [p.message for p in expected.finish()] == [
        'expected error "a}} expected-error {{b" was not produced',
        'expected note "m" was not produced', 'expected remark "r" was not produced']


def test_use_across_isolation_is_reported_as_mlir_opt_does():
    # The parser cannot write such IR (the name is out of scope): a rewrite can.
    text = ("func.func @f(%a: i32) {\n  %0 = arith.addi %a, %a : i32\n"
            '  "foo.region"() ({\n    func.func @g(%b: i32) {\n'
            "      %1 = arith.addi %b, %b : i32\n      return\n    }\n"
            '    "foo.end"() : () -> ()\n  }) : () -> ()\n  return\n}\n')
    sources = SourceManager()
    source = sources.add("in.mlir", text)
    module = parse_module(text, Context(allow_unregistered=True), source=source)
    outer, inner = [op for op in module.walk() if op.name == "arith.addi"]
    inner.set_operand(0, outer.results[0])
    with pytest.raises(DiagnosticError) as info:
        verify(module)
    rendered = "".join(sources.render(d) for d in info.value.diagnostics)
    assert rendered.startswith(
        "in.mlir:5:12: error: 'arith.addi' op using value defined outside the region\n")
    assert "in.mlir:4:5: note: required by region isolation constraints\n" in rendered
