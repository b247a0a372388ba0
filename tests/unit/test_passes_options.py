"""Pass options declared once (type, domain, config key, doc) and what that one
declaration drives: parsing and checking values, the config keys it registers, and
which value a run uses (given > PassContext > default)."""

from dataclasses import dataclass

import pytest

from mlc.ir import Context, parse_module
from mlc.ir.passes.context import CONFIG_KEYS, ConfigError, PassContext, register_config
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.options import (
    Domain,
    OptionError,
    declared_options,
    describe_kind,
    did_you_mean,
    option,
    parse_value,
)
from mlc.ir.passes.pipeline import parse_pipeline
from mlc.ir.passes.registry import Pass, register_pass


@dataclass(frozen=True)
class LimitOptions:
    limit: int = option(5, min=1, max=9, config="unit-test-opt.limit", doc="a bounded int")
    level: int = option(2, min=0, from_opt_level=True, doc="follows the opt level")
    mode: str = option("fast", choices=("fast", "slow"), doc="one of two")
    names: tuple[str, ...] = option((), choices=("a", "b"), doc="some of two")
    plain: float = 0.5


SEEN: list = []


@register_pass("unit-test-opt-limit", opt_level=3, options=LimitOptions)
class LimitPass(Pass):
    def run(self, op, run):
        SEEN.append(run.options)


MODULE = "func.func @f() {\n  return\n}\n"


def _run(pipeline: str, **context) -> LimitOptions:
    SEEN.clear()
    with PassContext(**context):
        assert run_pipeline(parse_module(MODULE, Context()), pipeline).success
    (options,) = SEEN
    return options


# ---------------------------------------------------------------------- declaring


def test_the_declaration_gives_type_domain_default_and_doc():
    specs = {spec.name: spec for spec in LimitPass.info.option_specs}
    assert list(specs) == ["limit", "level", "mode", "names", "plain"]
    assert specs["limit"].describe() == "int in [1, 9] = 5 (config unit-test-opt.limit)"
    assert specs["level"].describe() == "int >= 0 = the PassContext's opt level"
    assert specs["mode"].describe() == "str in {fast, slow} = fast"
    assert specs["names"].describe() == 'list in {a, b} = ""'
    assert specs["plain"].describe() == "float = 0.5" and specs["plain"].doc == ""
    assert specs["limit"].doc == "a bounded int"


def test_an_option_naming_a_config_key_registers_it_with_its_type_and_domain():
    key = CONFIG_KEYS["unit-test-opt.limit"]
    assert (key.type, key.default, key.domain, key.doc) == (int, 5, Domain(1, 9), "a bounded int")
    with pytest.raises(ConfigError, match="invalid value for config key 'unit-test-opt.limit': "
                                          r"expected an int in \[1, 9\], got '10'"):
        PassContext(config={"unit-test-opt.limit": "10"})
    with pytest.raises(ConfigError, match=r"expected an int in \[1, 9\], got '0'"):
        PassContext(config={"unit-test-opt.limit": 0})


def test_a_config_key_declared_twice_must_agree():
    assert register_config("unit-test-opt.limit", int, 5, min=1, max=9) is CONFIG_KEYS["unit-test-opt.limit"]
    with pytest.raises(ValueError, match="already registered as int in \\[1, 9\\] = 5, not int = 5"):
        register_config("unit-test-opt.limit", int, 5)


@pytest.mark.parametrize("options,message", [
    ("complex", "options are bool, int, float, str, tuple"),
    ("floats", "is a tuple of <class 'float'>; tuples hold strs or ints"),
    ("no_default", "has no default"),
    ("outside", "the default of option 'n' of Outside: expected an int >= 1, got '0'"),
])
def test_bad_declarations_are_refused(options, message):
    @dataclass(frozen=True)
    class Complex:
        z: complex = 1j

    @dataclass(frozen=True)
    class NoDefault:
        n: int

    @dataclass(frozen=True)
    class Outside:
        n: int = option(0, min=1)

    @dataclass(frozen=True)
    class Floats:
        xs: tuple[float, ...] = ()

    cls = {"complex": Complex, "no_default": NoDefault, "outside": Outside,
           "floats": Floats}[options]
    with pytest.raises((TypeError, ValueError), match=message):
        declared_options(cls)


def test_an_option_falls_back_to_a_config_key_or_the_opt_level_not_both():
    with pytest.raises(ValueError, match="not both"):
        option(1, config="x", from_opt_level=True)


def test_register_config_refuses_a_default_outside_its_domain_and_odd_types():
    with pytest.raises(ValueError, match="the default of config key 'unit-test-opt.bad'"):
        register_config("unit-test-opt.bad", int, -1, min=0)
    with pytest.raises(TypeError, match="config key 'unit-test-opt.odd' has type"):
        register_config("unit-test-opt.odd", dict, {})
    assert "unit-test-opt.bad" not in CONFIG_KEYS and "unit-test-opt.odd" not in CONFIG_KEYS


# ---------------------------------------------------------------------- values


@pytest.mark.parametrize("kind,domain,text,value", [
    (int, Domain(), "-3", -3),
    (int, Domain(min=0), "0", 0),
    (float, Domain(max=1.0), "1e-3", 0.001),
    (bool, Domain(), "1", True),
    (bool, Domain(), "false", False),
    (str, Domain(choices=("x", "y")), "y", "y"),
    (tuple, Domain(choices=("x", "y")), "x,,y,", ("x", "y")),
    (tuple, Domain(min=1, element=int), "1,8,16", (1, 8, 16)),
])
def test_parse_value(kind, domain, text, value):
    assert parse_value(kind, domain, text) == value


@pytest.mark.parametrize("kind,domain,text,message", [
    (int, Domain(), "0x10", "expected an int, got '0x10'"),
    (int, Domain(min=0), "-1", "expected an int >= 0, got '-1'"),
    (int, Domain(), "1.5", "expected an int, got '1.5'"),
    (float, Domain(min=0.0, max=1.0), "2", "expected a float in [0.0, 1.0], got '2'"),
    (bool, Domain(), "yes", "expected true or false, got 'yes'"),
    (str, Domain(choices=("x", "y")), "z", "'z' is not one of x, y"),
    (tuple, Domain(choices=("x", "xy")), "x,xyz", "'xyz' is not one of x, xy; did you mean 'xy'?"),
    (tuple, Domain(min=1, element=int), "8,x",
     "expected a comma-separated list of ints >= 1, got '8,x'"),
    (tuple, Domain(min=1, element=int), "8,0",
     "expected a comma-separated list of ints >= 1, got '8,0'"),
])
def test_parse_value_says_what_was_expected(kind, domain, text, message):
    with pytest.raises(OptionError) as info:
        parse_value(kind, domain, text)
    assert str(info.value) == message


def test_a_tuple_of_ints_option_holds_ints_in_its_domain():
    @dataclass(frozen=True)
    class Widths:
        widths: tuple[int, ...] = option((8,), min=1)

    [spec] = declared_options(Widths)
    assert spec.kind is tuple and spec.domain.element is int
    assert spec.parse("16,32") == (16, 32)
    assert spec.check([1, 8]) == (1, 8)
    for bad in (("8",), (0,), (True,)):
        with pytest.raises(OptionError):
            spec.check(bad)


def test_describe_kind():
    assert describe_kind(int, Domain(min=1)) == "an int >= 1"
    assert describe_kind(bool, Domain()) == "true or false"


def test_did_you_mean():
    assert did_you_mean("csee", ["cse", "dce", "canonicalize"]) == "; did you mean 'cse'?"
    assert did_you_mean("zzz", ["cse", "dce"]) == ""


def test_pipeline_values_outside_the_domain_are_located_errors():
    with pytest.raises(Exception) as info:
        parse_pipeline("unit-test-opt-limit{mode=slow names=a,c}")
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.message == ("invalid value for option 'names' of 'unit-test-opt-limit': "
                                  "'c' is not one of a, b")
    assert diagnostic.loc.column == 37


# ---------------------------------------------------------------------- which value a run uses


def test_default_when_neither_given_nor_configured():
    assert _run("unit-test-opt-limit", opt_level=3) == LimitOptions(5, 3, "fast", (), 0.5)


def test_config_key_beats_the_default():
    assert _run("unit-test-opt-limit", opt_level=3, config={"unit-test-opt.limit": 7}).limit == 7


def test_given_beats_the_config_key_also_when_equal_to_the_default():
    options = _run("unit-test-opt-limit{limit=5}", opt_level=3, config={"unit-test-opt.limit": 7})
    assert options.limit == 5
    assert _run("unit-test-opt-limit{limit=2}", opt_level=3,
                config={"unit-test-opt.limit": 7}).limit == 2


def test_an_option_following_the_opt_level():
    assert _run("unit-test-opt-limit", opt_level=3).level == 3
    # Required passes run below their opt level; the option still follows the context.
    assert _run("unit-test-opt-limit", opt_level=0, required={"unit-test-opt-limit"}).level == 0
    assert _run("unit-test-opt-limit{level=1}", opt_level=3).level == 1


def test_the_same_parsed_pipeline_resolves_under_each_context():
    node = parse_pipeline("unit-test-opt-limit{mode=slow}")
    (p,) = node.elements
    assert p.given == {"mode": "slow"}
    assert node.text(PassContext(opt_level=1, config={"unit-test-opt.limit": 9})) == \
        "builtin.module(unit-test-opt-limit{limit=9 level=1 mode=slow names= plain=0.5})"
    assert node.text(PassContext(opt_level=2)) == \
        "builtin.module(unit-test-opt-limit{limit=5 level=2 mode=slow names= plain=0.5})"


def test_prerequisites_resolve_their_options_from_the_context_too():
    @register_pass("unit-test-opt-needs-limit", required=("unit-test-opt-limit",))
    class NeedsLimit(Pass):
        def run(self, op, run):
            pass

    SEEN.clear()
    with PassContext(opt_level=3, config={"unit-test-opt.limit": 8}):
        assert run_pipeline(parse_module(MODULE, Context()), "unit-test-opt-needs-limit").success
    assert [o.limit for o in SEEN] == [8]


# ---------------------------------------------------------------------- the real passes


def test_fuse_ops_max_depth_given_then_config_then_default():
    from mlc.graph.passes.fuse_ops import FuseOps

    assert FuseOps().resolve_options(PassContext()).max_depth == 256
    assert FuseOps().resolve_options(
        PassContext(config={"graph.fuse-ops.max-depth": 4})).max_depth == 4
    assert FuseOps(max_depth=256).resolve_options(
        PassContext(config={"graph.fuse-ops.max-depth": 4})).max_depth == 256
    with pytest.raises(OptionError, match="expected an int >= 0, got '-1'"):
        FuseOps(max_depth=-1)


def test_fuse_ops_opt_level_follows_the_context_when_forced_to_run():
    from mlc.graph import GraphBuilder

    b = GraphBuilder()
    x = b.param("x", (4,))
    module = b.module(b.neg(b.exp(x)))
    with PassContext(opt_level=0, required={"graph-fuse-ops"}):
        assert run_pipeline(module, "graph-fuse-ops").success
    kernels = [op.sym_name.value for op in module.regions[0].ops() if op.sym_name.value != "main"]
    assert kernels == ["fused_exp", "fused_neg"]  # level 0: every op alone


def test_pass_context_checks_pass_names_and_opt_level():
    with pytest.raises(ConfigError, match="disabled pass 'csee' is not a registered pass; "
                                          "did you mean 'cse'\\?"):
        PassContext(disabled={"csee"})
    with pytest.raises(ConfigError, match="required pass 'zzz' is not a registered pass$"):
        PassContext(required=["zzz"])
    with pytest.raises(ConfigError, match="the opt level is an int >= 0, got -1"):
        PassContext(opt_level=-1)


def test_computed_choices_are_asked_for_when_a_value_is_checked():
    asked = []

    def names():
        asked.append(1)
        return ["alpha", "beta"]

    domain = Domain(choices=names, choices_name="greek names")
    assert domain.describe() == " of greek names" and asked == []
    assert parse_value(tuple, domain, "beta,alpha") == ("beta", "alpha")
    with pytest.raises(OptionError) as info:
        parse_value(tuple, domain, "alpha,betta")
    assert str(info.value) == "'betta' is not among the greek names; did you mean 'beta'?"
    assert len(asked) == 2
    with pytest.raises(ValueError, match="computed choices need a choices_name"):
        option((), choices=names)


def _pairs_problem(value: tuple[str, ...]) -> str | None:
    bad = next((v for v in value if v.count("=") != 1), None)
    return None if bad is None else f"'{bad}' is not KEY=VALUE"


@dataclass(frozen=True)
class PairsOptions:
    pairs: tuple[str, ...] = option((), check=_pairs_problem, config="unit-test-opt.pairs",
                                    doc="KEY=VALUE pairs, a format no domain says")


@register_pass("unit-test-opt-pairs", opt_level=0, options=PairsOptions)
class PairsPass(Pass):
    def run(self, op, run):
        SEEN.append(run.options)


def test_a_check_refuses_a_value_wherever_it_comes_from():
    domain = Domain(check=_pairs_problem)
    assert parse_value(tuple, domain, "a=1,b=2") == ("a=1", "b=2")
    with pytest.raises(OptionError, match="^'b' is not KEY=VALUE$"):
        parse_value(tuple, domain, "a=1,b")
    # In a pipeline: located at the value, before anything runs.
    with pytest.raises(Exception) as info:
        parse_pipeline("unit-test-opt-pairs{pairs=a=1,b}")
    [diagnostic] = info.value.diagnostics
    assert diagnostic.message == ("invalid value for option 'pairs' of 'unit-test-opt-pairs': "
                                  "'b' is not KEY=VALUE")
    assert diagnostic.loc.column == 27
    # From Python, and from the PassContext config key the option falls back to.
    with pytest.raises(OptionError, match="'c' is not KEY=VALUE"):
        PairsPass(pairs=("c",))
    with pytest.raises(ConfigError, match="'d' is not KEY=VALUE"):
        PassContext(config={"unit-test-opt.pairs": ("d",)})
    assert _run("unit-test-opt-pairs{pairs=x=1}").pairs == ("x=1",)


def test_canonicalize_pattern_options_take_pattern_names():
    from mlc.ir.passes.generic.canonicalize import Canonicalize, canonicalization_pattern_names

    names = canonicalization_pattern_names()
    assert "AddIAddConstant" in names and len(names) == len(set(names))
    assert Canonicalize(disable_patterns=["AddIAddConstant"]).given == {
        "disable_patterns": ("AddIAddConstant",)}
    with pytest.raises(OptionError, match="'NoSuch' is not among the canonicalization pattern names"):
        Canonicalize(enable_patterns=("NoSuch",))
