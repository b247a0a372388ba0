"""Declaring passes (register_pass, options dataclasses), textual pipelines
(parse_pipeline, canonical text, nesting, errors with their columns) and named
pipelines."""

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlc.ir.opdef.traits import SymbolTable
from mlc.ir.passes.generic.canonicalize import CanonicalizeOptions
from mlc.ir.passes.options import OptionError, format_value
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


@register_pass("unit-test-pipeline-on-module", anchor="builtin.module")
class OnModulePass(Pass):
    def run(self, op, run):
        pass


@register_pass("unit-test-pipeline-needs-table", op_traits=(SymbolTable,))
class NeedsTablePass(Pass):
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
    assert p.given == {} and p.resolve_options() == UnitTestOptions()
    assert p.name == "unit-test-pipeline-options"
    assert p.pipeline_text() == f"unit-test-pipeline-options{{{DEFAULTS}}}"
    assert PlainPass().pipeline_text() == "unit-test-pipeline-plain"
    custom = OptionsPass(count=9, enable_thing=False, names=["a", "b"])
    assert custom.given == {"count": 9, "enable_thing": False, "names": ("a", "b")}
    assert custom.pipeline_text() == ("unit-test-pipeline-options{count=9 enable-thing=false "
                                      "ratio=0.5 label=x names=a,b}")


def test_pass_objects_check_the_options_given_to_them():
    with pytest.raises(OptionError, match="pass 'unit-test-pipeline-options' has no option 'bogus'"):
        OptionsPass(bogus=1)
    with pytest.raises(OptionError, match="invalid value for option 'count' of "
                                          "'unit-test-pipeline-options': expected an int, got str"):
        OptionsPass(count="3")
    with pytest.raises(OptionError, match="expected an int, got bool"):
        OptionsPass(count=True)
    assert OptionsPass(ratio=2).given == {"ratio": 2.0}  # an int is a float


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
    info = OptionsPass.info
    assert [spec.name for spec in info.option_specs] == ["count", "enable-thing", "ratio", "label",
                                                         "names"]
    assert info.option("enable_thing") is info.option("enable-thing")
    assert format_value(True) == "true" and format_value(False) == "false"
    assert format_value(("a", "b")) == "a,b" and format_value(()) == ""
    assert format_value(2.5) == "2.5"
    assert info.option("count").parse("12") == 12
    assert info.option("enable-thing").parse("0") is False
    assert info.option("ratio").parse("1e-3") == 0.001
    assert info.option("names").parse("a,,b,") == ("a", "b")
    assert info.option("label").parse("hello") == "hello"
    with pytest.raises(OptionError, match="expected true or false, got 'yes'"):
        info.option("enable-thing").parse("yes")
    with pytest.raises(OptionError, match="expected an int, got '1.5'"):
        info.option("count").parse("1.5")


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
    node = parse_pipeline("builtin.module(any(unit-test-pipeline-plain))")
    assert node.elements[0].anchor is None
    assert node.text() == "builtin.module(any(unit-test-pipeline-plain))"


def test_a_pipeline_of_one_nested_pipeline_runs_on_that_op():
    node = parse_pipeline("func.func(unit-test-pipeline-plain)")
    assert node.anchor == "func.func" and node.loc.column == 1
    assert parse_pipeline(" any(unit-test-pipeline-plain)").anchor is None
    # Not when the nested pipeline comes from a named pipeline: a list means the module.
    assert parse_pipeline("unit-test-named-nested").anchor == "builtin.module"


def test_option_values():
    node = parse_pipeline("unit-test-pipeline-options{ count=5  enable-thing=false "
                          "ratio=2.25 label=hi names={p,q} }")
    (p,) = node.elements
    assert p.resolve_options() == UnitTestOptions(5, False, 2.25, "hi", ("p", "q"))
    (flag,) = parse_pipeline("unit-test-pipeline-options{enable-thing}").elements
    assert flag.given == {"enable_thing": True}
    (empty,) = parse_pipeline("unit-test-pipeline-options{}").elements
    assert empty.given == {} and empty.resolve_options() == UnitTestOptions()


def test_the_parsed_pipeline_records_which_options_were_given():
    (p,) = parse_pipeline("unit-test-pipeline-options{label=x count=3}").elements
    assert p.given == {"label": "x", "count": 3}  # given, although equal to the defaults


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
    assert p.given == {"names": (), "label": "y"}


def test_canonicalize_canonical_text_parses_back():
    canonical = parse_pipeline("canonicalize").text()
    (p,) = parse_pipeline(canonical).elements
    assert p.resolve_options() == CanonicalizeOptions()


def test_empty_nested_pipeline_parses():
    assert parse_pipeline("builtin.module()").text() == "builtin.module()"
    assert parse_pipeline("func.func()").text() == "func.func()"
    assert parse_pipeline("func.func(),func.func()").text() == "builtin.module(func.func(),func.func())"


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
    assert parse_pipeline("builtin.module(func.func(unit-test-pipeline-on-func))").text() == \
        "builtin.module(func.func(unit-test-pipeline-on-func))"
    # In any(...) too: any op may hold functions.
    assert parse_pipeline("builtin.module(any(unit-test-pipeline-on-func))").text() == \
        "builtin.module(any(func.func(unit-test-pipeline-on-func)))"


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


def test_named_pipeline_errors_are_located_where_the_pipeline_is_named():
    message, column = _error("unit-test-pipeline-plain,unit-test-named{count=1}")
    assert message == "named pipeline 'unit-test-named' takes no options"
    assert column == 41
    message, column = _error("unit-test-pipeline-plain, unit-test-recursive")
    assert message == ("in named pipeline 'unit-test-recursive': named pipeline "
                       "'unit-test-recursive' expands recursively")
    assert column == 27
    message, column = _error("unit-test-broken")
    assert message == ("in named pipeline 'unit-test-broken': 'unit-test-no-such-pass' does not "
                       "refer to a registered pass or pass pipeline")
    assert column == 1


def test_a_named_pipeline_can_be_redefined():
    register_pipeline("unit-test-redefined", "unit-test-pipeline-plain")
    register_pipeline("unit-test-redefined", "unit-test-pipeline-on-func")
    assert parse_pipeline("unit-test-redefined").text() == \
        "builtin.module(func.func(unit-test-pipeline-on-func))"


# ---------------------------------------------------------------------- errors


@pytest.mark.parametrize("text,message,column", [
    ("zzz", "'zzz' does not refer to a registered pass or pass pipeline", 1),
    ("unit-test-pipeline-plain,  zzz", "'zzz' does not refer to a registered pass or pass pipeline",
     28),
    ("unit-test-pipeline-plan", "'unit-test-pipeline-plan' does not refer to a registered pass or "
     "pass pipeline; did you mean 'unit-test-pipeline-plain'?", 1),
    ("unit-test-pipeline-plain,", "expected a pass or op name, found end of pipeline", 26),
    ("unit-test-pipeline-plain)", "unbalanced parentheses: ')' without a matching '('", 25),
    ("builtin.module(unit-test-pipeline-plain))",
     "unbalanced parentheses: ')' without a matching '('", 41),
    ("func.func(unit-test-pipeline-plain", "unbalanced parentheses: this '(' is never closed", 10),
    ("builtin.module(func.func(unit-test-pipeline-plain)",
     "unbalanced parentheses: this '(' is never closed", 15),
    ("func.func(", "unbalanced parentheses: this '(' is never closed", 10),
    ("unit-test-pipeline-plain}", "unbalanced braces: '}' without a matching '{'", 25),
    ("unit-test-pipeline-options{count=4", "unbalanced braces: this '{' is never closed", 27),
    ("unit-test-pipeline-options{label={a b}", "unbalanced braces: this '{' is never closed", 27),
    ("unit-test-pipeline-options{label={a b", "unbalanced braces: this '{' is never closed", 34),
    ("unit-test-pipeline-plain unit-test-pipeline-plain",
     "expected ',' between pipeline elements, found 'u'", 26),
    ("func.func(unit-test-pipeline-plain unit-test-pipeline-plain)",
     "expected ',' or ')', found 'u'", 36),
    (",", "expected a pass or op name, found ','", 1),
    ("unit-test-pipeline-plain,,unit-test-pipeline-plain", "expected a pass or op name, found ','", 26),
    ("func.func(,)", "expected a pass or op name, found ','", 11),
    ("(unit-test-pipeline-plain)", "expected a pass or op name, found '('", 1),
    ("unit-test-pipeline-plain(unit-test-pipeline-plain)",
     "'unit-test-pipeline-plain' is not an op name (dialect.op) or 'any': only ops have nested "
     "pipelines", 1),
    ("unit-test-pipeline-options{bogus=1}",
     "pass 'unit-test-pipeline-options' has no option 'bogus' (options: count, enable-thing, "
     "ratio, label, names)", 28),
    ("unit-test-pipeline-plain{x=1}",
     "pass 'unit-test-pipeline-plain' has no option 'x' (options: none)", 26),
    ("unit-test-pipeline-options{=1}", "expected an option name, found '='", 28),
    ("unit-test-pipeline-options{count=4 count=x}",
     "option 'count' of 'unit-test-pipeline-options' is given twice", 36),
    ("unit-test-pipeline-options{count=x}",
     "invalid value for option 'count' of 'unit-test-pipeline-options': expected an int, got 'x'",
     34),
    ("unit-test-pipeline-options{count}",
     "option 'count' of 'unit-test-pipeline-options' needs a value: an int", 28),
    ("unit-test-pipeline-options{count=}",
     "invalid value for option 'count' of 'unit-test-pipeline-options': expected an int, got ''",
     34),
    ("unit-test-pipeline-options{ratio=fast}",
     "invalid value for option 'ratio' of 'unit-test-pipeline-options': expected a float, "
     "got 'fast'", 34),
    ("unit-test-pipeline-options{enable-thing=maybe}",
     "invalid value for option 'enable-thing' of 'unit-test-pipeline-options': expected true or "
     "false, got 'maybe'", 41),
    ('unit-test-pipeline-options{label="x}', "unterminated '\"' in pass options", 34),
])
def test_errors_are_diagnostics_with_a_column(text, message, column):
    assert _error(text) == (message, column)


def test_error_diagnostic_points_into_the_pipeline_source():
    with pytest.raises(PipelineError) as info:
        parse_pipeline("unit-test-pipeline-plain,zzz")
    loc = info.value.diagnostics[0].loc
    assert loc.filename == "<pipeline>" and loc.line == 1 and loc.column == 26


# ---------------------------------------------------------------------- anchors


@pytest.mark.parametrize("text,message,column", [
    ("builtin.module(func.func(unit-test-pipeline-needs-table))",
     "pass 'unit-test-pipeline-needs-table' cannot run on 'func.func': it needs an op with the "
     "SymbolTable trait", 26),
    ("builtin.module(func.func(symbol-dce))",
     "pass 'symbol-dce' cannot run on 'func.func': it needs an op with the SymbolTable trait", 26),
    ("func.func(cse,symbol-dce)",
     "pass 'symbol-dce' cannot run on 'func.func': it needs an op with the SymbolTable trait", 15),
    ("builtin.module(func.func(unit-test-pipeline-on-module))",
     "pass 'unit-test-pipeline-on-module' runs on 'builtin.module' ops; it cannot be nested in a "
     "pipeline on 'func.func'", 26),
    ("builtin.module(func.func(func.return(cse)))",
     "can't schedule passes on 'func.return' ops: they are not marked 'IsolatedFromAbove'", 26),
    ("builtin.module(func.fnc(cse))", "'func.fnc' is not an op of the 'func' dialect", 16),
])
def test_anchor_errors_are_located_at_the_pass_or_the_anchor(text, message, column):
    assert _error(text) == (message, column)


def test_anchors_that_can_hold_the_pass_are_accepted():
    assert parse_pipeline("symbol-dce,builtin.module(unit-test-pipeline-needs-table)").text() == \
        "builtin.module(symbol-dce,builtin.module(unit-test-pipeline-needs-table))"
    # An op of a dialect that is not installed may be anything: checked when it runs.
    assert parse_pipeline("builtin.module(nodialect.op(cse))").text() == \
        "builtin.module(nodialect.op(cse))"
    # any(...) may hold a symbol table: checked when it runs.
    assert parse_pipeline("builtin.module(any(symbol-dce))").text() == \
        "builtin.module(any(symbol-dce))"


def test_a_named_pipeline_pass_is_located_where_the_pipeline_is_named():
    register_pipeline("unit-test-named-table", "unit-test-pipeline-plain,symbol-dce")
    assert _error("builtin.module(func.func(unit-test-named-table))") == (
        "pass 'symbol-dce' cannot run on 'func.func': it needs an op with the SymbolTable trait", 26)


# ---------------------------------------------------------------------- round trips

def _representable(text: str) -> bool:
    """A value holding a quote is written in braces, so its braces must pair up."""
    depth = 0
    for char in text:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            break
    return '"' not in text or depth == 0


_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12).filter(_representable)


@settings(max_examples=200, deadline=None)
@given(count=st.integers(-10**12, 10**12), flag=st.booleans(),
       ratio=st.floats(allow_nan=False, allow_infinity=False), label=_TEXT,
       names=st.lists(_TEXT.filter(lambda t: t and "," not in t), max_size=3))
def test_the_canonical_text_of_any_options_parses_back_to_them(count, flag, ratio, label, names):
    p = OptionsPass(count=count, enable_thing=flag, ratio=ratio, label=label, names=names)
    text = p.pipeline_text()
    (back,) = parse_pipeline(text).elements
    assert back.resolve_options() == p.resolve_options(), text


@pytest.mark.parametrize("label,spelling", [
    ("a b", "{a b}"),  # as MLIR prints it
    ('say "hi" {x}', '{say "hi" {x}}'),
    ("a } b", '"a } b"'),  # braces that do not pair up: quoted
    ("x", "x"),
    ("", ""),
])
def test_how_a_label_is_spelled(label, spelling):
    p = OptionsPass(label=label)
    assert f"label={spelling} names=}}" in p.pipeline_text()
    (back,) = parse_pipeline(p.pipeline_text()).elements
    assert back.given["label"] == label
