"""A brand-new op declared here, with an assembly format, round-trips with no other code."""

from mlc.ir import (
    AttrDef,
    Context,
    Dialect,
    Op,
    OperandDef,
    PrintOptions,
    RegionDef,
    ResultDef,
    parse_module,
    print_op,
    verify,
)
from mlc.ir.opdef.constraints import AnyAttr, FloatLike, IntEnum, StrAttr, UnitAttrConstraint
from mlc.ir.opdef.traits import NoTerminator, Pure, SameOperandsAndResultType

toy = Dialect("toy", "A dialect declared inside a test.")

Rounding = IntEnum("Rounding", ("nearest", "up", "down"))


@toy.op
class ScaleOp(Op):
    """Multiplies by a factor, with a rounding mode and an optional tag."""

    name = "toy.scale"
    input = OperandDef(FloatLike)
    output = ResultDef(FloatLike)
    factor = AttrDef(AnyAttr)
    mode = AttrDef(Rounding)
    tag = AttrDef(StrAttr, optional=True)
    exact = AttrDef(UnitAttrConstraint, optional=True)
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = ("$mode $input `by` $factor (`tagged` $tag^)? (`exact` $exact^)? "
                       "attr-dict `:` type($output)")


@toy.op
class GroupOp(Op):
    """Holds a region; prints it after a keyword."""

    name = "toy.group"
    inputs = OperandDef(variadic=True)
    body = RegionDef()
    traits = (NoTerminator,)
    assembly_format = "`(` $inputs `)` attr-dict `:` type($inputs) `do` $body"


TEXT = """\
module {
  func.func @f(%x: f32) -> f32 {
    %0 = toy.scale up %x by 2.000000e+00 : f32 tagged "a\\\\b" exact : f32
    %1 = toy.scale nearest %0 by 3 : i32 {note = 1 : i64} : f32
    toy.group(%0, %1) : f32, f32 do {
      %2 = toy.scale down %x by 1.000000e+00 : f32 : f32
    }
    return %1 : f32
  }
}
"""


def test_custom_format_round_trips():
    ctx = Context([toy])
    module = parse_module(TEXT, ctx)
    verify(module)
    printed = print_op(module)
    assert printed == TEXT
    generic = print_op(module, PrintOptions(generic=True))
    assert '"toy.scale"' in generic and "mode = 1 : i64" in generic
    again = parse_module(generic, Context([toy]))
    assert print_op(again) == TEXT


def test_declaration_gives_accessors_and_docs():
    ctx = Context([toy])
    module = parse_module(TEXT, ctx)
    scale = next(op for op in module.walk() if isinstance(op, ScaleOp))
    assert Rounding.keyword(scale.mode) == "up"
    assert scale.tag.value == "a\\b"
    assert scale.output.type == scale.input.type
    from mlc.ir.opdef.docs import dialect_markdown

    docs = dialect_markdown(toy)
    assert "## `toy.scale`" in docs and "Multiplies by a factor" in docs


# ------------------------------------------------------- dialect types and attributes

from mlc.ir import DialectAttribute, DialectType, Type, parse_attribute, parse_type  # noqa: E402


@toy.type
class PairType(DialectType):
    """`!toy.pair<f32, i32>`, parsed and printed by hand (the API a format compiles to)."""

    name = "toy.pair"
    first: Type
    second: Type

    @classmethod
    def parse(cls, p):
        p.parse_punctuation("<")
        first = p.parse_type()
        p.parse_comma()
        second = p.parse_type()
        p.parse_punctuation(">")
        return cls(first, second)

    def print(self, w) -> None:
        w.write("<")
        w.type(self.first)
        w.write(", ")
        w.type(self.second)
        w.write(">")


@toy.attribute
class ColorAttr(DialectAttribute):
    """`#toy.color<red>`."""

    name = "toy.color"
    color: str

    @classmethod
    def parse(cls, p):
        p.parse_punctuation("<")
        pos = p.current_pos()
        color = p.parse_keyword()
        if color not in ("red", "green"):
            raise p.error(f"unknown color '{color}'", pos)
        p.parse_punctuation(">")
        return cls(color)

    def print(self, w) -> None:
        w.write(f"<{self.color}>")


def test_dialect_types_and_attributes_round_trip():
    ctx = Context([toy])
    pair = parse_type("!toy.pair<tensor<2xf32>, !toy.pair<i1, index>>", ctx)
    assert isinstance(pair, PairType) and isinstance(pair.second, PairType)
    assert str(pair) == "!toy.pair<tensor<2xf32>, !toy.pair<i1, index>>"
    text = ('func.func @f(%p: !toy.pair<f32, i32>) attributes {c = #toy.color<red>} {\n'
            '  return\n}\n')
    module = parse_module(text, Context([toy]))
    printed = print_op(module)
    assert "%p: !toy.pair<f32, i32>" in printed and "c = #toy.color<red>" in printed
    assert print_op(parse_module(printed, Context([toy]))) == printed
    assert parse_attribute("#toy.color<green>", Context([toy])) == ColorAttr("green")


def test_dialect_attribute_errors_are_diagnostics():
    import pytest

    from mlc.ir import DiagnosticError

    with pytest.raises(DiagnosticError, match="unknown color 'blue'"):
        parse_attribute("#toy.color<blue>", Context([toy]))
    with pytest.raises(DiagnosticError, match="has no attribute 'toy.shape'"):
        parse_attribute("#toy.shape<round>", Context([toy]))
