"""mlc folds arith's binary ops on constants exactly as mlir-opt-22's canonicalizer does.

Batches of cases, each a function applying one op to two constants (i8, i16, i32, i64;
f32 for the float ops), go through one mlir-opt process per batch and through mlc's
canonicalize: random batches, and one batch of every op on every pair of special
values (i1, i8, i64, f32). For every function both must return the same thing: the
same constant, bit for bit (a NaN's sign and payload, -0.0), or the op left unfolded
on the same constants (MLIR does not fold poison or undefined results: a shift by the
bit width or more, a division by zero, MIN / -1, and some ceildivsi of MIN).

The values favour where folders go wrong: zero, one, minus one, the extremes, shift
amounts around the bit width; for f32 zeros of both signs, infinities, NaNs with
payloads and signaling NaNs, denormals, and random bit patterns.
"""

from __future__ import annotations

import subprocess

from hypothesis import given, settings
from hypothesis import strategies as st

from mlc.ir import Context, FloatAttr, parse_module, print_op
from mlc.ir.passes.manager import run_pipeline

INT_OPS = ("arith.shli", "arith.shrui", "arith.shrsi", "arith.maxsi", "arith.maxui",
           "arith.minsi", "arith.minui", "arith.ceildivsi", "arith.ceildivui",
           "arith.floordivsi", "arith.divsi", "arith.divui")
# Two results each: the sum and its carry, the low and high halves.
EXTENDED_OPS = ("arith.addui_extended", "arith.mulsi_extended", "arith.mului_extended")
FLOAT_OPS = ("arith.maxnumf", "arith.minnumf", "arith.maximumf", "arith.minimumf")
INT_WIDTHS = (8, 16, 32, 64)


@st.composite
def int_values(draw, width: int) -> int:
    low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    special = st.sampled_from([0, 1, -1, 2, -2, low, high, low + 1, high - 1, width - 1, width,
                               width + 1])
    return draw(st.one_of(special, special, st.integers(low, high)))  # 2/3 special


F32_SPECIAL = [
    0x00000000, 0x80000000,  # +0.0, -0.0
    0x3F800000, 0xBF800000,  # 1.0, -1.0
    0x7F800000, 0xFF800000,  # +inf, -inf
    0x7FC00000, 0xFFC00000,  # quiet NaNs
    0x7FC00001, 0xFFC12345,  # quiet NaNs with payloads
    0x7F800001, 0xFFA00000,  # signaling NaNs
    0x00000001, 0x807FFFFF,  # denormals
    0x7F7FFFFF, 0xFF7FFFFF,  # the largest finite values
]


def f32_bits():
    return st.one_of(st.sampled_from(F32_SPECIAL), st.integers(0, (1 << 32) - 1))


@st.composite
def cases(draw) -> tuple[str, str, str, str]:
    """(op, type, lhs literal, rhs literal)."""
    op = draw(st.sampled_from(INT_OPS + EXTENDED_OPS + FLOAT_OPS))
    if op in FLOAT_OPS:
        lhs, rhs = draw(f32_bits()), draw(f32_bits())
        return op, "f32", f"0x{lhs:08X}", f"0x{rhs:08X}"
    width = draw(st.sampled_from(INT_WIDTHS))
    values = int_values(width)
    flag = ""
    if op in ("arith.divsi", "arith.divui", "arith.shrui", "arith.shrsi"):
        flag = draw(st.sampled_from(("", " exact")))
    return op + flag, f"i{width}", str(draw(values)), str(draw(values))


def _function(index: int, case: tuple[str, str, str, str]) -> str:
    op, type_, lhs, rhs = case
    name, _, flag = op.partition(" ")
    flag = f" {flag}" if flag else ""
    if name in EXTENDED_OPS:
        second = "i1" if name == "arith.addui_extended" else type_
        signature = f"-> ({type_}, {second})"
        types = f"{type_}, i1" if name == "arith.addui_extended" else type_
        body = (f"    %r:2 = {name} %a, %b : {types}\n"
                f"    return %r#0, %r#1 : {type_}, {second}\n")
    else:
        signature = f"-> {type_}"
        body = f"    %r = {name} %a, %b{flag} : {type_}\n    return %r : {type_}\n"
    return (f"  func.func @case{index}() {signature} {{\n"
            f"    %a = arith.constant {lhs} : {type_}\n"
            f"    %b = arith.constant {rhs} : {type_}\n" + body + "  }\n")


def _returned(module) -> dict[str, list[str]]:
    """For each function, what it returns: a constant's attribute, or the op computing
    it with its attributes and operands (constants, or arguments), as text (NaN bit
    patterns included)."""
    returned = {}
    for func in module.walk():
        if func.name != "func.func":
            continue
        ret = list(func.regions[0].blocks[0].ops())[-1]
        items = []
        for value in ret.operands:
            op = value.defining_op
            if op is None:
                items.append("argument")
            elif op.name == "arith.constant":
                attr = op.attributes["value"]
                if isinstance(attr, FloatAttr):  # bit for bit
                    items.append(f"0x{attr.bits:X} : {attr.type}")
                else:
                    items.append(str(attr))
            else:  # with its attributes (a predicate), and arguments as such
                operands = [_operand_text(o) for o in op.operands]
                attributes = {k: str(v) for k, v in sorted(op.attributes.items())}
                items.append(f"{op.name}({', '.join(operands)}) {attributes} #{value.index}")
        returned[func.attributes["sym_name"].value] = items
    return returned


def _operand_text(value) -> str:
    """An operand: a constant's attribute, else what defines it."""
    op = value.defining_op
    if op is None:
        return "argument"
    return str(op.attributes["value"]) if op.name == "arith.constant" else op.name


def _special_ints(width: int) -> list[int]:
    low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    if width == 1:
        return [0, -1]
    return sorted({0, 1, -1, 2, -2, 3, low, high, low + 1, high - 1, width - 1, width})


def _special_cases() -> list[tuple[str, str, str, str]]:
    """Every op on every pair of special values (i1, i8 and i64; f32)."""
    batch = []
    for width in (1, 8, 64):
        values = _special_ints(width)
        for op in INT_OPS + EXTENDED_OPS:
            for flag in (("", " exact") if op in ("arith.divsi", "arith.shrsi") else ("",)):
                batch.extend((op + flag, f"i{width}", str(a), str(b))
                             for a in values for b in values)
    for op in FLOAT_OPS:
        batch.extend((op, "f32", f"0x{a:08X}", f"0x{b:08X}")
                     for a in F32_SPECIAL for b in F32_SPECIAL)
    return batch


def test_special_values_fold_as_mlir_opt(mlir_opt):
    _check_batch(mlir_opt, _special_cases())


# Casts of special values: (op and flags, source type, target type, value literals).
F16_SPECIAL = [0x0000, 0x8000, 0x3C00, 0x7C00, 0xFC00, 0x7E00, 0x7E01, 0x7D01, 0xFE55, 0x0001,
               0x7BFF]
F32_NEAR_F16 = [0x3F8CCCCD,  # 1.1: rounds
                0x3FC00000,  # 1.5: exact
                0x477FE000,  # 65504: the largest f16
                0x477FF000,  # between it and the overflow threshold
                0x33800000,  # 2**-24: f16's smallest denormal
                0x33000000,  # half of it: a tie to zero
                0x7FC02000]  # a quiet NaN whose payload fits f16's
CAST_CASES = [
    *((f"arith.truncf{mode}", "f32", target, f"0x{v:08X}")
      for mode in ("", " to_nearest_even", " downward", " upward", " toward_zero",
                   " to_nearest_away")
      for target in ("f16", "bf16") for v in F32_SPECIAL + F32_NEAR_F16),
    *(("arith.extf", "f16", "f32", f"0x{v:04X}") for v in F16_SPECIAL),
    *(("arith.bitcast", "f32", "i32", f"0x{v:08X}") for v in F32_SPECIAL),
    *(("arith.bitcast", "i16", "f16", str(v)) for v in _special_ints(16)),
    *(("arith.bitcast", "f16", "bf16", f"0x{v:04X}") for v in F16_SPECIAL),
    *((op, source, target, str(v)) for op in ("arith.index_castui", "arith.index_cast")
      for source, target in (("i8", "index"), ("i64", "index"))
      for v in _special_ints(int(source[1:]))),
    *((op, "index", target, str(v)) for op in ("arith.index_castui", "arith.index_cast")
      for target in ("i1", "i8", "i64") for v in _special_ints(64)),
]


def test_special_casts_fold_as_mlir_opt(mlir_opt):
    functions = []
    for index, (op, source, target, value) in enumerate(CAST_CASES):
        name, _, mode = op.partition(" ")
        functions.append(f"  func.func @case{index}() -> {target} {{\n"
                         f"    %a = arith.constant {value} : {source}\n"
                         f"    %r = {name} %a{' ' + mode if mode else ''} : {source} to "
                         f"{target}\n    return %r : {target}\n  }}\n")
    _check_text(mlir_opt, "module {\n" + "".join(functions) + "}\n", CAST_CASES)


@settings(max_examples=50)
@given(st.lists(cases(), min_size=30, max_size=60))
def test_folds_match_mlir_opt(mlir_opt, batch):
    _check_batch(mlir_opt, batch)


def _check_batch(mlir_opt: str, batch: list[tuple[str, str, str, str]]) -> None:
    """One mlir-opt run over the batch; mlc's results must be the same, case by case."""
    _check_text(mlir_opt, "module {\n" + "".join(_function(i, c) for i, c in enumerate(batch))
                + "}\n", batch)


def _check_text(mlir_opt: str, text: str, batch: list) -> None:
    """`text` holds one function `@case<i>` per item of `batch`."""
    theirs = subprocess.run([mlir_opt, "--canonicalize", "-"], input=text, capture_output=True,
                            text=True, check=False)
    assert theirs.returncode == 0, theirs.stderr
    ours = parse_module(text, Context())
    assert run_pipeline(ours, "canonicalize").success
    expected = _returned(parse_module(theirs.stdout, Context()))
    actual = _returned(ours)
    for index, case in enumerate(batch):
        name = f"case{index}"
        assert actual[name] == expected[name], (case, print_op(ours))
