"""Declaring passes (register_pass, options dataclasses), textual pipelines
(parse_pipeline, canonical text, nesting, errors with their columns) and named
pipelines."""

import dataclasses
from dataclasses import dataclass

import pytest

from mlc.ir.passes.pipeline import (
    PipelineError,
    PipelineNode,
    parse_pipeline,
    pipeline_from_passes,
)
from mlc.ir.passes.registry import (
    PASSES,
    PIPELINES,
    NoOptions,
    Pass,
    format_option,
    option_name,
    parse_option,
    register_pass,
    register_pipeline,
)


@dataclass(frozen=True)
class UnitTestOptions:
    count: int = 3
    enable_thing: bool = True
    ratio: float = 0.5
    label: str = "x"
    names: tuple = ()


@register_pass("unit-test-pipeline-options", opt_level=1, options=UnitTestOptions,
               summary="(unit test) a pass with every kind of option",
               statistics=(("num-things", "things done"),))
class OptionsPass(Pass):
    def run(self, op, run):
        pass


@register_pass("unit-test-pipeline-plain")
class PlainPass(Pass):
    def run(self, op, run):
        pass


@register_pass("unit-test-pipeline-on-func", anchor="func.func")
class OnFuncPass(Pass):
    def run(self, op, run):
        pass


register_pipeline("unit-test-named", "unit-test-pipeline-plain,unit-test-pipeline-options{count=7}",
                  "(unit test) a named pipeline")
register_pipeline("unit-test-named-nested", "func.func(unit-test-named)")
register_pipeline("unit-test-recursive", "unit-test-pipeline-plain,unit-test-recursive")
register_pipeline("unit-test-broken", "unit-test-pipeline-plain,unit-test-no-such-pass")

DEFAULTS = "count=3 enable-thing=true ratio=0.5 label=x names="


def _error(text: str):
    with pytest.raises(PipelineError) as info:
        parse_pipeline(text)
    diagnostic = info.value.diagnostics[0]
    assert diagnostic.severity == "error"
    return diagnostic.message, diagnostic.loc.column


# ---------------------------------------------------------------------- registry


def test_register_pass_records_its_info():
    info = PASSES["unit-test-pipeline-options"].info
    assert info.name == "unit-test-pipeline-options"
    assert info.opt_level == 1
    assert info.options is UnitTestOptions
    assert info.anchor is None and info.required == ()
    assert info.statistics == (("num-things", "things done"),)
    assert PASSES["unit-test-pipeline-plain"].info.options is NoOptions
    assert PASSES["unit-test-pipeline-on-func"].info.anchor == "func.func"


def test_pass_options_default_and_pipeline_text():
    p = OptionsPass()
    assert p.options == UnitTestOptions()
    assert p.name == "unit-test-pipeline-options"
    assert p.pipeline_text() == f"unit-test-pipeline-options{{{DEFAULTS}}}"
    assert PlainPass().pipeline_text() == "unit-test-pipeline-plain"
    custom = OptionsPass(UnitTestOptions(count=9, enable_thing=False, names=("a", "b")))
    assert custom.pipeline_text() == ("unit-test-pipeline-options{count=9 enable-thing=false "
                                      "ratio=0.5 label=x names=a,b}")


def test_registering_another_class_under_a_taken_name_fails():
    with pytest.raises(ValueError, match="already registered"):
        @register_pass("unit-test-pipeline-plain")
        class Other(Pass):
            def run(self, op, run):
                pass
    assert PASSES["unit-test-pipeline-plain"] is PlainPass
    # Registering the same class again is harmless.
    assert register_pass("unit-test-pipeline-plain")(PlainPass) is PlainPass


def test_option_spelling_helpers():
    assert option_name("max_num_rewrites") == "max-num-rewrites"
    assert format_option(True) == "true" and format_option(False) == "false"
    assert format_option(("a", "b")) == "a,b" and format_option(()) == ""
    assert format_option(2.5) == "2.5"
    fields = {f.name: f for f in dataclasses.fields(UnitTestOptions)}
    assert parse_option(fields["count"], "12") == 12
    assert parse_option(fields["enable_thing"], "") is True
    assert parse_option(fields["enable_thing"], "0") is False
    assert parse_option(fields["ratio"], "1e-3") == 0.001
    assert parse_option(fields["names"], "a,,b,") == ("a", "b")
    assert parse_option(fields["label"], "hello") == "hello"
    with pytest.raises(ValueError):
        parse_option(fields["enable_thing"], "yes")
    with pytest.raises(ValueError):
        parse_option(fields["count"], "1.5")


# ---------------------------------------------------------------------- parsing


def test_unanchored_list_means_builtin_module():
    node = parse_pipeline("unit-test-pipeline-plain , unit-test-pipeline-plain")
    assert isinstance(node, PipelineNode) and node.anchor == "builtin.module"
    assert node.text() == "builtin.module(unit-test-pipeline-plain,unit-test-pipeline-plain)"


def test_empty_pipeline():
    assert parse_pipeline("").text() == "builtin.module()"
    assert parse_pipeline("   ").elements == []


def test_explicit_root_is_not_wrapped_twice():
    text = "builtin.module(unit-test-pipeline-plain)"
    assert parse_pipeline(text).text() == text


def test_nesting_and_every_option_in_the_canonical_text():
    node = parse_pipeline("builtin.module(func.func(unit-test-pipeline-plain,"
                          "unit-test-pipeline-options{count=4}),unit-test-pipeline-plain)")
    assert node.text() == ("builtin.module(func.func(unit-test-pipeline-plain,"
                           "unit-test-pipeline-options{count=4 enable-thing=true ratio=0.5 label=x "
                           "names=}),unit-test-pipeline-plain)")
    inner = node.elements[0]
    assert isinstance(inner, PipelineNode) and inner.anchor == "func.func"
    assert [p.name for p in node.passes()] == ["unit-test-pipeline-plain",
                                               "unit-test-pipeline-options",
                                               "unit-test-pipeline-plain"]


def test_any_anchor():
    node = parse_pipeline("any(unit-test-pipeline-plain)")
    assert node.elements[0].anchor is None
    assert node.text() == "builtin.module(any(unit-test-pipeline-plain))"


def test_option_values():
    node = parse_pipeline("unit-test-pipeline-options{ count=5  enable-thing=false "
                          "ratio=2.25 label=hi names={p,q} }")
    (p,) = node.elements
    assert p.options == UnitTestOptions(5, False, 2.25, "hi", ("p", "q"))
    (flag,) = parse_pipeline("unit-test-pipeline-options{enable-thing}").elements
    assert flag.options.enable_thing is True
    (empty,) = parse_pipeline("unit-test-pipeline-options{}").elements
    assert empty.options == UnitTestOptions()


@pytest.mark.parametrize("text", [
    "unit-test-pipeline-plain,unit-test-pipeline-options{count=4 names=a,b}",
    "builtin.module(func.func(unit-test-pipeline-options{label=y}),any(unit-test-pipeline-plain))",
    "cse,symbol-dce",
])
def test_canonical_text_parses_back_to_itself(text):
    canonical = parse_pipeline(text).text()
    assert parse_pipeline(canonical).text() == canonical


def test_empty_option_value_followed_by_another_option():
    (p,) = parse_pipeline("unit-test-pipeline-options{names= label=y}").elements
    assert p.options.names == () and p.options.label == "y"


def test_canonicalize_canonical_text_parses_back():
    canonical = parse_pipeline("canonicalize").text()
    (p,) = parse_pipeline(canonical).elements
    assert p.options == PASSES["canonicalize"].info.options()


def test_empty_nested_pipeline_parses():
    assert parse_pipeline("builtin.module()").text() == "builtin.module()"
    assert parse_pipeline("func.func()").text() == "builtin.module(func.func())"


def test_canonical_text_of_a_string_option_with_spaces_parses_back():
    canonical = parse_pipeline("unit-test-pipeline-options{label={a b}}").text()
    assert parse_pipeline(canonical).text() == canonical


def test_pass_anchored_on_another_op_is_nested_implicitly():
    node = parse_pipeline("unit-test-pipeline-on-func,unit-test-pipeline-on-func,"
                          "unit-test-pipeline-plain,unit-test-pipeline-on-func")
    assert node.text() == ("builtin.module(func.func(unit-test-pipeline-on-func,"
                           "unit-test-pipeline-on-func),unit-test-pipeline-plain,"
                           "func.func(unit-test-pipeline-on-func))")
    # Already on its anchor: no extra level.
    assert parse_pipeline("func.func(unit-test-pipeline-on-func)").text() == \
        "builtin.module(func.func(unit-test-pipeline-on-func))"


def test_pipeline_from_passes():
    node = pipeline_from_passes([PlainPass(), OnFuncPass(), OptionsPass()])
    assert node.text() == ("builtin.module(unit-test-pipeline-plain,"
                           f"func.func(unit-test-pipeline-on-func),unit-test-pipeline-options{{{DEFAULTS}}})")


# ---------------------------------------------------------------------- named pipelines


def test_named_pipeline_expands_in_place():
    assert PIPELINES["unit-test-named"][1] == "(unit test) a named pipeline"
    assert parse_pipeline("unit-test-named,unit-test-pipeline-plain").text() == (
        "builtin.module(unit-test-pipeline-plain,unit-test-pipeline-options{count=7 "
        "enable-thing=true ratio=0.5 label=x names=},unit-test-pipeline-plain)")
    assert parse_pipeline("unit-test-named-nested").text() == (
        "builtin.module(func.func(unit-test-pipeline-plain,unit-test-pipeline-options{count=7 "
        "enable-thing=true ratio=0.5 label=x names=}))")


def test_named_pipeline_errors():
    message, column = _error("unit-test-pipeline-plain,unit-test-named{count=1}")
    assert message == "named pipeline 'unit-test-named' takes no options"
    assert column == 41
    message, _ = _error("unit-test-recursive")
    assert message == "named pipeline 'unit-test-recursive' expands recursively"
    message, _ = _error("unit-test-broken")
    assert message == "'unit-test-no-such-pass' does not refer to a registered pass or pass pipeline"


def test_a_named_pipeline_can_be_redefined():
    register_pipeline("unit-test-redefined", "unit-test-pipeline-plain")
    register_pipeline("unit-test-redefined", "unit-test-pipeline-on-func")
    assert parse_pipeline("unit-test-redefined").text() == \
        "builtin.module(func.func(unit-test-pipeline-on-func))"


# ---------------------------------------------------------------------- errors


@pytest.mark.parametrize("text,message,column", [
    ("unit-test-nope", "'unit-test-nope' does not refer to a registered pass or pass pipeline", 1),
    ("unit-test-pipeline-plain,  unit-test-nope",
     "'unit-test-nope' does not refer to a registered pass or pass pipeline", 28),
    ("unit-test-pipeline-plain,", "expected a pass or op name, found end of pipeline", 26),
    ("unit-test-pipeline-plain)", "unexpected ')' in pipeline", 25),
    ("func.func(unit-test-pipeline-plain", "expected ')', found end of pipeline", 35),
    ("unit-test-pipeline-plain unit-test-pipeline-plain", "unexpected 'u' in pipeline", 26),
    (",", "expected a pass or op name, found ','", 1),
    ("unit-test-pipeline-options{bogus=1}",
     "pass 'unit-test-pipeline-options' has no option 'bogus' (options: count, enable-thing, "
     "ratio, label, names)", 28),
    ("unit-test-pipeline-plain{x=1}",
     "pass 'unit-test-pipeline-plain' has no option 'x' (options: none)", 26),
    ("unit-test-pipeline-options{count=4 count=x}",
     "invalid value for option 'count' of 'unit-test-pipeline-options': invalid literal for int() "
     "with base 10: 'x'", 36),
    ("unit-test-pipeline-options{enable-thing=maybe}",
     "invalid value for option 'enable-thing' of 'unit-test-pipeline-options': expected true or "
     "false, got 'maybe'", 28),
    ("unit-test-pipeline-options{count=4", "unterminated '{' in pass options", 35),
])
def test_errors_are_diagnostics_with_a_column(text, message, column):
    assert _error(text) == (message, column)


def test_error_diagnostic_points_into_the_pipeline_source():
    with pytest.raises(PipelineError) as info:
        parse_pipeline("unit-test-pipeline-plain,unit-test-nope")
    loc = info.value.diagnostics[0].loc
    assert loc.filename == "<pipeline>" and loc.line == 1 and loc.column == 26
