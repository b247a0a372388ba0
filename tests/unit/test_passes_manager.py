"""The pass manager: PassContext rules and configuration, prerequisites, instruments,
verify-each, failures, cached analyses, nested pipelines and mlc.skip_optimization."""

import threading
from dataclasses import dataclass

import pytest

from mlc.ir import Context, Diagnostic, DiagnosticError, StringAttr, parse_module, print_op
from mlc.ir.passes.context import (
    CONFIG_KEYS,
    DEFAULT_OPT_LEVEL,
    ConfigError,
    PassContext,
    register_config,
)
from mlc.ir.passes.instruments import PassInstrument, SkipReporter, Statistics
from mlc.ir.passes.manager import PassManager, run_pipeline
from mlc.ir.passes.pipeline import parse_pipeline
from mlc.ir.passes.registry import Pass, PassFailure, register_pass

LOG: list[tuple] = []


def _label(op) -> str:
    name = op.attributes.get("sym_name")
    return f"@{name.value}" if isinstance(name, StringAttr) else op.name


@dataclass(frozen=True)
class TagOptions:
    tag: str = ""


@register_pass("unit-test-mgr-record", options=TagOptions)
class Record(Pass):
    def run(self, op, run):
        LOG.append(("record", run.options.tag, _label(op)))


@register_pass("unit-test-mgr-level3", opt_level=3)
class Level3(Pass):
    def run(self, op, run):
        LOG.append(("level3", _label(op)))


@register_pass("unit-test-mgr-prereq", opt_level=0)
class Prereq(Pass):
    def run(self, op, run):
        LOG.append(("prereq", _label(op)))


@register_pass("unit-test-mgr-needs-prereq", required=("unit-test-mgr-prereq",))
class NeedsPrereq(Pass):
    def run(self, op, run):
        LOG.append(("needs", _label(op)))


@register_pass("unit-test-mgr-on-func", anchor="func.func")
class OnFunc(Pass):
    def run(self, op, run):
        LOG.append(("on-func", _label(op)))


@register_pass("unit-test-mgr-fail")
class Fail(Pass):
    def run(self, op, run):
        run.emit(Diagnostic("warning", "unit test: about to fail", op.loc))
        raise PassFailure([Diagnostic("error", "unit test: failed on purpose", op.loc)])


@register_pass("unit-test-mgr-fail-silently")
class FailSilently(Pass):
    def run(self, op, run):
        raise PassFailure()


@register_pass("unit-test-mgr-diagnostic-error")
class RaiseDiagnosticError(Pass):
    def run(self, op, run):
        raise DiagnosticError(Diagnostic("error", "unit test: diagnostic error", op.loc))


@register_pass("unit-test-mgr-break-ir")
class BreakIR(Pass):
    """Erase the terminator of every function: the IR no longer verifies."""

    def run(self, op, run):
        for func in list(op.regions[0].ops()):
            func.regions[0].blocks[0].last_op.erase()


# ---------------------------------------------------------------------- analyses


class CountingAnalysis:
    created = 0

    def __init__(self, op):
        type(self).created += 1
        self.op = op


class OtherAnalysis:
    created = 0

    def __init__(self, op):
        type(self).created += 1


SEEN_ANALYSES: list = []


@register_pass("unit-test-mgr-use-analysis")
class UseAnalysis(Pass):
    def run(self, op, run):
        first = run.get_analysis(CountingAnalysis)
        second = run.get_analysis(CountingAnalysis)
        assert first is second and first.op is op
        run.get_analysis(OtherAnalysis)
        SEEN_ANALYSES.append(first)


@register_pass("unit-test-mgr-use-and-preserve")
class UseAndPreserve(Pass):
    preserves = (CountingAnalysis,)

    def run(self, op, run):
        SEEN_ANALYSES.append(run.get_analysis(CountingAnalysis))


@register_pass("unit-test-mgr-preserving")
class Preserving(Pass):
    preserves = (CountingAnalysis,)

    def run(self, op, run):
        pass


@register_pass("unit-test-mgr-preserve-all")
class PreserveAll(Pass):
    def run(self, op, run):
        run.mark_all_analyses_preserved()


@register_pass("unit-test-mgr-noop")
class Noop(Pass):
    def run(self, op, run):
        pass


# ---------------------------------------------------------------------- configuration

register_config("unit-test-mgr.count", int, 4, "(unit test) an int")
register_config("unit-test-mgr.flag", bool, False, "(unit test) a bool")
register_config("unit-test-mgr.name", str, "x", "(unit test) a str")

CONFIG_SEEN: list = []


@register_pass("unit-test-mgr-read-config")
class ReadConfig(Pass):
    def run(self, op, run):
        ctx = run.pass_context
        CONFIG_SEEN.append((ctx.get_config("unit-test-mgr.count"),
                            ctx.get_config("unit-test-mgr.flag"),
                            ctx.get_config("unit-test-mgr.name")))


MODULE = """
func.func @f(%x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  return %a : i32
}
func.func @g() attributes {mlc.skip_optimization} {
  return
}
func.func @h() {
  return
}
"""


@pytest.fixture
def module():
    LOG.clear()
    return parse_module(MODULE, Context())


class RecordingInstrument(PassInstrument):
    def __init__(self, name="i", decline=()):
        self.name = name
        self.decline = set(decline)
        self.events: list[tuple] = []

    def enter_pass_ctx(self):
        self.events.append((self.name, "enter"))

    def exit_pass_ctx(self):
        self.events.append((self.name, "exit"))

    def should_run(self, pass_, op):
        self.events.append((self.name, "should_run", pass_.name))
        return pass_.name not in self.decline

    def run_before_pass(self, pass_, op):
        self.events.append((self.name, "before", pass_.name, _label(op)))

    def run_after_pass(self, pass_, op):
        self.events.append((self.name, "after", pass_.name, _label(op)))

    def run_after_pass_failed(self, pass_, op):
        self.events.append((self.name, "failed", pass_.name, _label(op)))

    def run_skipped(self, pass_, op, reason):
        self.events.append((self.name, "skipped", pass_.name, reason))


# ---------------------------------------------------------------------- PassContext


def test_default_context():
    assert DEFAULT_OPT_LEVEL == 2
    ctx = PassContext.current()
    assert ctx.opt_level == 2
    assert ctx.required == frozenset() and ctx.disabled == frozenset()
    assert ctx.instruments == [] and ctx.config == {}


def test_current_is_the_innermost_active_context():
    outer = PassContext(opt_level=1)
    inner = PassContext(opt_level=3)
    with outer:
        assert PassContext.current() is outer
        with inner as entered:
            assert entered is inner
            assert PassContext.current() is inner
        assert PassContext.current() is outer
    assert PassContext.current() is not outer
    assert PassContext.current().opt_level == DEFAULT_OPT_LEVEL


def test_current_is_thread_local():
    seen = {}

    def other_thread():
        seen["ctx"] = PassContext.current()
        with PassContext(opt_level=0) as mine:
            seen["mine"] = PassContext.current() is mine

    ctx = PassContext(opt_level=3)
    with ctx:
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
        assert PassContext.current() is ctx
    assert seen["ctx"] is not ctx and seen["ctx"].opt_level == DEFAULT_OPT_LEVEL
    assert seen["mine"]


def test_opt_level_gates_passes(module):
    skips = RecordingInstrument()
    with PassContext(instruments=[skips]):
        assert run_pipeline(module, "unit-test-mgr-level3,unit-test-mgr-record{tag=a}").success
    assert LOG == [("record", "a", "builtin.module")]
    assert ("i", "skipped", "unit-test-mgr-level3", "opt level 3 > 2") in skips.events
    LOG.clear()
    with PassContext(opt_level=3):
        assert run_pipeline(module, "unit-test-mgr-level3").success
    assert LOG == [("level3", "builtin.module")]


def test_required_beats_opt_level_and_disabled_beats_required(module):
    with PassContext(opt_level=0, required={"unit-test-mgr-level3"}):
        run_pipeline(module, "unit-test-mgr-level3")
    assert LOG == [("level3", "builtin.module")]
    LOG.clear()
    skips = RecordingInstrument()
    with PassContext(opt_level=3, required={"unit-test-mgr-level3"},
                     disabled={"unit-test-mgr-level3", "unit-test-mgr-record"},
                     instruments=[skips]):
        assert run_pipeline(module, "unit-test-mgr-level3,unit-test-mgr-record").success
    assert LOG == []
    assert [e for e in skips.events if e[1] == "skipped"] == [
        ("i", "skipped", "unit-test-mgr-level3", "disabled"),
        ("i", "skipped", "unit-test-mgr-record", "disabled")]


def test_pass_enabled_reasons():
    info = Level3.info
    assert PassContext().pass_enabled(info) == (False, "opt level 3 > 2")
    assert PassContext(opt_level=3).pass_enabled(info) == (True, "")
    assert PassContext(required={info.name}).pass_enabled(info) == (True, "")
    assert PassContext(opt_level=3, disabled={info.name}).pass_enabled(info) == (False, "disabled")


def test_unknown_config_keys_raise_listing_the_known_ones():
    with pytest.raises(ConfigError) as info:
        PassContext(config={"unit-test-mgr.nope": 1})
    message = str(info.value)
    assert "unknown PassContext config key 'unit-test-mgr.nope'" in message
    for key in ("unit-test-mgr.count", "unit-test-mgr.flag", "canonicalize.max-iterations"):
        assert key in message
    with pytest.raises(ConfigError, match="unit-test-mgr.nope"):
        PassContext().get_config("unit-test-mgr.nope")
    assert issubclass(ConfigError, ValueError)


def test_config_values_are_typed():
    ctx = PassContext(config={"unit-test-mgr.count": "7", "unit-test-mgr.flag": "true",
                              "unit-test-mgr.name": "abc"})
    assert ctx.config == {"unit-test-mgr.count": 7, "unit-test-mgr.flag": True,
                          "unit-test-mgr.name": "abc"}
    assert PassContext(config={"unit-test-mgr.flag": "0"}).get_config("unit-test-mgr.flag") is False
    assert PassContext(config={"unit-test-mgr.count": 9}).get_config("unit-test-mgr.count") == 9
    assert PassContext().get_config("unit-test-mgr.count") == 4  # the default
    assert CONFIG_KEYS["unit-test-mgr.count"].doc == "(unit test) an int"


@pytest.mark.parametrize("key,value", [
    ("unit-test-mgr.count", "seven"),
    ("unit-test-mgr.count", True),  # a bool is not an int here
    ("unit-test-mgr.count", 1.5),
    ("unit-test-mgr.flag", "maybe"),
    ("unit-test-mgr.flag", 1),
    ("unit-test-mgr.name", 3),
])
def test_config_values_of_the_wrong_type_raise(key, value):
    with pytest.raises(ConfigError, match=f"invalid value for config key '{key}': expected "):
        PassContext(config={key: value})


def test_passes_read_the_context_configuration(module):
    CONFIG_SEEN.clear()
    run_pipeline(module, "unit-test-mgr-read-config")
    with PassContext(config={"unit-test-mgr.count": 1, "unit-test-mgr.flag": True}):
        run_pipeline(module, "unit-test-mgr-read-config")
    assert CONFIG_SEEN == [(4, False, "x"), (1, True, "x")]


_SLOW_TO_CONVERGE = """
func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %c1 : i32
  %b = arith.addi %a, %c1 : i32
  return %b : i32
}
"""


def test_canonicalize_max_iterations_option_warns_when_not_converged():
    module = parse_module(_SLOW_TO_CONVERGE, Context())
    result = run_pipeline(module, "canonicalize{max-iterations=1}")
    assert result.success
    assert [d.severity for d in result.diagnostics] == ["warning"]
    assert "did not converge after 1 iterations" in result.diagnostics[0].message
    module = parse_module(_SLOW_TO_CONVERGE, Context())
    result = run_pipeline(module, "canonicalize{max-iterations=1 test-convergence=true}")
    assert not result.success
    assert result.diagnostics[-1].severity == "error"


def test_canonicalize_max_iterations_config_key_is_honoured():
    module = parse_module(_SLOW_TO_CONVERGE, Context())
    with PassContext(config={"canonicalize.max-iterations": 1}):
        result = run_pipeline(module, "canonicalize")
    assert any("did not converge after 1 iterations" in d.message for d in result.diagnostics)


# ---------------------------------------------------------------------- prerequisites


def test_prerequisites_run_first(module):
    instrument = RecordingInstrument()
    with PassContext(instruments=[instrument]):
        assert run_pipeline(module, "unit-test-mgr-needs-prereq").success
    assert LOG == [("prereq", "builtin.module"), ("needs", "builtin.module")]
    befores = [e[2] for e in instrument.events if e[1] == "before"]
    assert befores == ["unit-test-mgr-prereq", "unit-test-mgr-needs-prereq"]


def test_prerequisites_that_already_ran_are_not_repeated(module):
    run_pipeline(module, "unit-test-mgr-prereq,unit-test-mgr-needs-prereq,"
                         "unit-test-mgr-needs-prereq")
    assert LOG == [("prereq", "builtin.module"), ("needs", "builtin.module"),
                   ("needs", "builtin.module")]


def test_prerequisites_run_per_anchor_op(module):
    PassManager(parse_pipeline("builtin.module(func.func(unit-test-mgr-needs-prereq))")).run(module)
    assert LOG == [("prereq", "@f"), ("needs", "@f"), ("prereq", "@h"), ("needs", "@h")]


# ---------------------------------------------------------------------- instruments


def test_instrument_hooks_are_called_in_order(module):
    instrument = RecordingInstrument()
    with PassContext(instruments=[instrument]):
        assert instrument.events == [("i", "enter")]
        result = run_pipeline(module, "unit-test-mgr-record{tag=a},unit-test-mgr-fail,"
                                      "unit-test-mgr-record{tag=b}")
    assert not result.success
    assert instrument.events == [
        ("i", "enter"),
        ("i", "should_run", "unit-test-mgr-record"),
        ("i", "before", "unit-test-mgr-record", "builtin.module"),
        ("i", "after", "unit-test-mgr-record", "builtin.module"),
        ("i", "should_run", "unit-test-mgr-fail"),
        ("i", "before", "unit-test-mgr-fail", "builtin.module"),
        ("i", "failed", "unit-test-mgr-fail", "builtin.module"),
        ("i", "exit"),
    ]
    assert LOG == [("record", "a", "builtin.module")]  # the pipeline stopped at the failure


def test_several_instruments_are_called_in_their_order(module):
    log = []

    class Tap(PassInstrument):
        def __init__(self, name):
            self.name = name

        def run_before_pass(self, pass_, op):
            log.append((self.name, "before"))

        def run_after_pass(self, pass_, op):
            log.append((self.name, "after"))

    with PassContext(instruments=[Tap("1"), Tap("2")]):
        run_pipeline(module, "unit-test-mgr-noop")
    assert log == [("1", "before"), ("2", "before"), ("1", "after"), ("2", "after")]


def test_should_run_false_skips_the_pass_and_reports_it(module):
    instrument = RecordingInstrument(decline={"unit-test-mgr-record"})
    with PassContext(instruments=[instrument]):
        assert run_pipeline(module, "unit-test-mgr-record,unit-test-mgr-noop").success
    assert LOG == []
    assert instrument.events[:3] == [
        ("i", "enter"),
        ("i", "should_run", "unit-test-mgr-record"),
        ("i", "skipped", "unit-test-mgr-record", "an instrument declined"),
    ]
    assert ("i", "before", "unit-test-mgr-noop", "builtin.module") in instrument.events


def test_should_run_is_not_asked_about_passes_the_context_disables(module):
    instrument = RecordingInstrument()
    with PassContext(disabled={"unit-test-mgr-noop"}, instruments=[instrument]):
        run_pipeline(module, "unit-test-mgr-noop")
    assert instrument.events == [("i", "enter"),
                                 ("i", "skipped", "unit-test-mgr-noop", "disabled"),
                                 ("i", "exit")]


def test_skip_reporter_writes_why(module):
    import io

    stream = io.StringIO()
    with PassContext(instruments=[SkipReporter(stream)]):
        run_pipeline(module, "unit-test-mgr-level3,func.func(unit-test-mgr-level3)")
    assert stream.getvalue().splitlines() == [
        "mlc-opt: skipped pass 'unit-test-mgr-level3' on 'builtin.module': opt level 3 > 2",
        "mlc-opt: skipped pass 'unit-test-mgr-level3' on 'func.func' @f: opt level 3 > 2",
        "mlc-opt: skipped pass 'unit-test-mgr-level3' on 'func.func' @h: opt level 3 > 2",
    ]


def test_statistics_instrument_sums_pass_counters():
    module = parse_module("""
    func.func @f(%x: i32) -> (i32, i32) {
      %a = arith.addi %x, %x : i32
      %b = arith.addi %x, %x : i32
      return %a, %b : i32, i32
    }
    func.func @g(%x: i32) -> (i32, i32) {
      %a = arith.muli %x, %x : i32
      %b = arith.muli %x, %x : i32
      return %a, %b : i32, i32
    }""", Context())
    stats = Statistics()
    with PassContext(opt_level=3, instruments=[stats]):
        assert run_pipeline(module, "builtin.module(func.func(cse))").success
    assert stats.totals == {"cse": {"num-cse": 2}}
    assert "(2) num-cse - ops erased as duplicates" in stats.report()


# ---------------------------------------------------------------------- failures


def test_pass_failure_diagnostics_are_returned(module):
    result = run_pipeline(module, "unit-test-mgr-fail")
    assert not result.success
    assert [(d.severity, d.message) for d in result.diagnostics] == [
        ("warning", "unit test: about to fail"), ("error", "unit test: failed on purpose")]


def test_pass_failure_without_diagnostics_names_the_pass(module):
    result = run_pipeline(module, "unit-test-mgr-fail-silently")
    assert not result.success
    assert [d.message for d in result.diagnostics] == ["pass 'unit-test-mgr-fail-silently' failed"]


def test_diagnostic_error_in_a_pass_is_a_failure(module):
    instrument = RecordingInstrument()
    with PassContext(instruments=[instrument]):
        result = run_pipeline(module, "unit-test-mgr-diagnostic-error")
    assert not result.success
    assert [d.message for d in result.diagnostics] == ["unit test: diagnostic error"]
    assert ("i", "failed", "unit-test-mgr-diagnostic-error", "builtin.module") in instrument.events


def test_verify_each_failure_names_the_pass(module):
    instrument = RecordingInstrument()
    with PassContext(instruments=[instrument]):
        result = run_pipeline(module, "unit-test-mgr-break-ir,unit-test-mgr-record")
    assert not result.success
    assert result.diagnostics[0].severity == "error"
    assert result.diagnostics[0].message == \
        "verification failed after running pass 'unit-test-mgr-break-ir'"
    assert len(result.diagnostics) > 1  # the verifier's own findings follow
    assert "block with no terminator" in result.diagnostics[1].message
    assert ("i", "failed", "unit-test-mgr-break-ir", "builtin.module") in instrument.events
    assert not any(e[1] == "after" for e in instrument.events)
    assert LOG == []


def test_without_verify_each_the_broken_ir_goes_through(module):
    result = run_pipeline(module, "unit-test-mgr-break-ir,unit-test-mgr-record",
                          verify_each=False)
    assert result.success
    assert LOG == [("record", "", "builtin.module")]


def test_a_pipeline_anchored_elsewhere_fails(module):
    func = module.regions[0].blocks[0].first_op
    result = run_pipeline(func, "unit-test-mgr-noop")
    assert not result.success
    assert result.diagnostics[0].message == \
        "can't run 'builtin.module' pass manager on 'func.func' op"


# ---------------------------------------------------------------------- analyses


def _analysis_run(module, pipeline: str) -> tuple[int, int]:
    CountingAnalysis.created = OtherAnalysis.created = 0
    SEEN_ANALYSES.clear()
    manager = PassManager(parse_pipeline(pipeline))
    assert manager.run(module).success
    return CountingAnalysis.created, OtherAnalysis.created


def test_analysis_is_computed_once_and_cached(module):
    assert _analysis_run(module, "unit-test-mgr-use-analysis") == (1, 1)


def test_analyses_are_invalidated_unless_preserved(module):
    # The user itself preserves nothing: the second run recomputes both.
    assert _analysis_run(module, "unit-test-mgr-use-analysis,unit-test-mgr-use-analysis") == (2, 2)
    assert SEEN_ANALYSES[0] is not SEEN_ANALYSES[1]
    # A preserving pass in between does not help: the first user already dropped them.
    assert _analysis_run(module, "unit-test-mgr-use-analysis,unit-test-mgr-preserving,"
                                 "unit-test-mgr-use-analysis") == (2, 2)


def test_preserved_analyses_survive_a_pass(module):
    CountingAnalysis.created = 0
    manager = PassManager(parse_pipeline("unit-test-mgr-noop"))
    manager.analyses.get(CountingAnalysis, module)
    manager.analyses.get(OtherAnalysis, module)
    manager.analyses.invalidate((CountingAnalysis,))
    assert (CountingAnalysis, module) in manager.analyses.cache
    assert (OtherAnalysis, module) not in manager.analyses.cache
    assert manager.analyses.computed == 2


def test_preserving_pass_keeps_its_analysis(module):
    CountingAnalysis.created = 0
    SEEN_ANALYSES.clear()
    manager = PassManager(parse_pipeline("unit-test-mgr-use-and-preserve,unit-test-mgr-preserving,"
                                         "unit-test-mgr-use-and-preserve,unit-test-mgr-noop,"
                                         "unit-test-mgr-use-and-preserve"))
    assert manager.run(module).success
    assert CountingAnalysis.created == 2
    assert SEEN_ANALYSES[0] is SEEN_ANALYSES[1] is not SEEN_ANALYSES[2]


def test_mark_all_analyses_preserved(module):
    assert _analysis_run(module, "unit-test-mgr-use-analysis,unit-test-mgr-preserve-all") == (1, 1)
    CountingAnalysis.created = 0
    manager = PassManager(parse_pipeline("unit-test-mgr-preserve-all"))
    manager.analyses.get(CountingAnalysis, module)
    manager.run(module)
    assert (CountingAnalysis, module) in manager.analyses.cache


def test_analyses_are_per_op(module):
    manager = PassManager(parse_pipeline("builtin.module(func.func(unit-test-mgr-use-analysis))"))
    SEEN_ANALYSES.clear()
    CountingAnalysis.created = 0
    manager.run(module)
    assert CountingAnalysis.created == 2  # @f and @h
    assert [_label(a.op) for a in SEEN_ANALYSES] == ["@f", "@h"]


# ---------------------------------------------------------------------- nesting


def test_nested_pipelines_skip_functions_marked_skip_optimization(module):
    assert run_pipeline(module, "func.func(unit-test-mgr-record{tag=n}),"
                                "unit-test-mgr-on-func").success
    assert LOG == [("record", "n", "@f"), ("record", "n", "@h"), ("on-func", "@f"),
                   ("on-func", "@h")]


def test_module_level_passes_still_see_skipped_functions():
    module = parse_module("""
    func.func @g() -> i32 attributes {mlc.skip_optimization} {
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %a = arith.addi %c1, %c2 : i32
      return %a : i32
    }""", Context())
    before = print_op(module)
    assert run_pipeline(module, "builtin.module(func.func(canonicalize))").success
    assert print_op(module) == before
    assert run_pipeline(module, "canonicalize").success
    assert "arith.addi" not in print_op(module)


def test_nested_pipeline_order_is_per_op(module):
    assert run_pipeline(module, "builtin.module(func.func(unit-test-mgr-record{tag=1},"
                                "unit-test-mgr-record{tag=2}))").success
    assert LOG == [("record", "1", "@f"), ("record", "2", "@f"), ("record", "1", "@h"),
                   ("record", "2", "@h")]


def test_any_anchor_runs_on_every_op_directly_inside(module):
    assert run_pipeline(module, "builtin.module(any(unit-test-mgr-record{tag=any}))").success
    assert LOG == [("record", "any", "@f"), ("record", "any", "@h")]


# ---------------------------------------------------------------------- anchors at run time


def test_a_pipeline_on_another_op_than_the_one_given_runs_nothing(module):
    result = run_pipeline(module, "func.func(unit-test-mgr-record)")
    assert not result.success and LOG == []
    (error,) = result.diagnostics
    assert error.message == "can't run 'func.func' pass manager on 'builtin.module' op"
    assert (error.loc.filename, error.loc.line, error.loc.column) == ("<pipeline>", 1, 1)
    # On a function it runs.
    func = next(iter(module.regions[0].ops()))
    assert run_pipeline(func, "func.func(unit-test-mgr-record{tag=x})").success
    assert LOG == [("record", "x", "@f")]
    # An unanchored list is on builtin.module.
    result = run_pipeline(func, "unit-test-mgr-record")
    assert [d.message for d in result.diagnostics] == [
        "can't run 'builtin.module' pass manager on 'func.func' op"]


def test_a_pass_on_an_op_without_the_trait_it_needs_fails_before_running(module):
    result = run_pipeline(module, "builtin.module(any(unit-test-mgr-record,symbol-dce))")
    assert not result.success
    assert LOG == [("record", "", "@f")]  # stopped at symbol-dce on @f
    (error,) = result.diagnostics
    assert error.message == ("pass 'symbol-dce' cannot run on 'func.func': it needs an op with "
                             "the SymbolTable trait")
    assert error.loc == module.regions[0].blocks[0].first_op.loc
    (note,) = error.notes
    assert note.message == "the pass is scheduled here" and note.loc.column == 41


# ---------------------------------------------------------------------- the IR Context of a run

CTX_SEEN: list = []


@register_pass("unit-test-mgr-ctx", dialects=("arith",))
class SeeContext(Pass):
    def run(self, op, run):
        CTX_SEEN.append((run.ctx, run.pass_context))


def test_a_run_sees_the_ir_context_it_was_given():
    ctx = Context()
    module = parse_module("func.func @f() {\n  return\n}", ctx)
    CTX_SEEN.clear()
    pass_context = PassContext(opt_level=1)
    with pass_context:
        assert run_pipeline(module, "unit-test-mgr-ctx", ctx=ctx).success
    [(seen, seen_pass_context)] = CTX_SEEN
    assert seen is ctx and seen_pass_context is pass_context
    assert "arith" in ctx.dialects  # the pass creates arith ops: loaded before it runs


def test_without_a_context_a_run_gets_one_holding_the_modules_dialects():
    module = parse_module("func.func @f(%x: i32) -> i32 {\n  return %x : i32\n}", Context())
    CTX_SEEN.clear()
    assert run_pipeline(module, "unit-test-mgr-ctx").success
    [(seen, _)] = CTX_SEEN
    assert sorted(seen.dialects) == ["arith", "builtin", "func"]
    assert not seen.allow_unregistered
