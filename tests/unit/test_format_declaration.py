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
