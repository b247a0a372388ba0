"""The `cf` dialect: unstructured control flow between the blocks of a region
(MLIR's ControlFlow dialect), in MLIR 22's syntax.

`cf.br` jumps, `cf.cond_br` branches on an `i1`, `cf.switch` on an integer's value,
passing each successor block the values of its arguments; `cf.assert` stops the
program when its condition is false. The ops are general (any number of successor
operands of any type), as the lowering of structured control flow to LLVM needs.
Their canonicalization patterns are in `canonicalization.py` (the package imports
it).
"""

from __future__ import annotations

from mlc.ir.core.attributes import (
    Attribute,
    DenseElementsAttr,
    IntegerType,
    Type,
    VectorType,
    i32,
)
from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.core.ir import Block, Value
from mlc.ir.interfaces.control_flow import BranchLike
from mlc.ir.interfaces.side_effects import MemoryEffects, Write
from mlc.ir.opdef.constraints import I1, AnyInteger, AnyIntElementsAttr, DenseArrayOf, StrAttr
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, SuccessorDef, VerificationError
from mlc.ir.opdef.traits import AttrSizedOperandSegments, IsTerminator, Pure

cf = Dialect("cf", "Unstructured control flow: branches between the blocks of a region.",
             semantics="mlc.ir.dialects.cf.semantics")

_U64_MAX = (1 << 64) - 1


@cf.op
class AssertOp(Op):
    """Assert operation with message attribute

    Stops the program with the message `msg` if `arg` is false; does nothing if it
    is true. It counts as writing memory, so it is never erased as dead:

        cf.assert %ok, "Expected ... to be true"
    """

    name = "cf.assert"
    arg = OperandDef(I1, doc="the condition that must hold")
    msg = AttrDef(StrAttr, doc="what a runtime reports when the condition fails")
    traits = (MemoryEffects(Write()),)
    assembly_format = "$arg `,` $msg attr-dict"


@cf.op
class BranchOp(Op):
    """Branch operation

    Jumps to `dest`, whose arguments receive `destOperands` (as many, of the same
    types):

        cf.br ^bb3(%x : tensor<*xf32>)
    """

    name = "cf.br"
    destOperands = OperandDef(variadic=True, doc="the values of the successor's arguments")
    dest = SuccessorDef(doc="the block jumped to")
    traits = (Pure, IsTerminator, BranchLike("destOperands"))
    assembly_format = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict"


@cf.op
class CondBranchOp(Op):
    """Conditional branch operation

    Jumps to `trueDest` if `condition` is true, else to `falseDest`; each gets its own
    operands as its arguments. Both may be the same block. `branch_weights` (two
    integers) say how likely each way is, for code layout:

        cf.cond_br %flag weights([90, 10]), ^bb1(%a : i32), ^bb1(%b : i32)
    """

    name = "cf.cond_br"
    condition = OperandDef(I1, doc="which way to go")
    trueDestOperands = OperandDef(variadic=True, doc="the arguments of `trueDest`")
    falseDestOperands = OperandDef(variadic=True, doc="the arguments of `falseDest`")
    branch_weights = AttrDef(DenseArrayOf(i32), optional=True,
                             doc="relative likelihood of the true and the false way")
    trueDest = SuccessorDef(doc="where control goes if the condition is true")
    falseDest = SuccessorDef(doc="where control goes if the condition is false")
    traits = (AttrSizedOperandSegments, Pure, IsTerminator,
              BranchLike("trueDestOperands", "falseDestOperands", weights="branch_weights"))
    assembly_format = (
        "$condition (`weights` `(` $branch_weights^ `)`)? `,` "
        "$trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` "
        "$falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict")


@cf.op
class SwitchOp(Op):
    """Switch operation

    Jumps to the case destination whose value equals `flag` (compared as bits), or
    to `defaultDestination` if none does; each destination gets its own operands.
    `case_operand_segments` says how many of `caseOperands` each case passes:

        cf.switch %flag : i32, [
          default: ^bb1(%a : i32),
          42: ^bb1(%b : i32),
          43: ^bb3(%c : i32)
        ]

    Case values print as MLIR prints them: unsigned (`-1` of an `i32` flag reads
    back as `4294967295`).
    """

    name = "cf.switch"
    flag = OperandDef(AnyInteger, doc="the value compared with the cases")
    defaultOperands = OperandDef(variadic=True, doc="the arguments of `defaultDestination`")
    caseOperands = OperandDef(variadic=True,
                              doc="the arguments of each case, split by `case_operand_segments`")
    case_values = AttrDef(AnyIntElementsAttr, optional=True,
                          doc="one value per case, a vector of the flag's type")
    case_operand_segments = AttrDef(DenseArrayOf(i32), doc="how many operands each case passes")
    defaultDestination = SuccessorDef(doc="where control goes when no case matches")
    caseDestinations = SuccessorDef(variadic=True, doc="where each case goes")
    traits = (AttrSizedOperandSegments, Pure, IsTerminator,
              BranchLike("defaultOperands", "caseOperands", segments="case_operand_segments"))

    @classmethod
    def create_switch(cls, flag: Value, default: Block, default_operands: list[Value],
                      cases: list[tuple[int, Block, list[Value]]]) -> SwitchOp:
        """A switch on `flag` with its default and (value, block, operands) cases."""
        from mlc.ir.core.attributes import DenseArrayAttr

        values = [value for value, _, _ in cases]
        op = cls.build(flag, default_operands, [v for _, _, ops in cases for v in ops],
                       case_values=case_values_attr(values, flag.type) if cases else None,
                       case_operand_segments=DenseArrayAttr(
                           i32, tuple(len(ops) for _, _, ops in cases)),
                       successors=[default, *(block for _, block, _ in cases)])
        return op  # type: ignore[return-value]

    @property
    def cases(self) -> list[tuple[int, Block, list[Value]]]:
        """(value, destination, operands) of each case; values as the flag's bits
        (unsigned)."""
        branch = BranchLike.get(self)
        values = case_values_of(self)
        return [(value, block, branch.successor_operands(self, i + 1))
                for i, (value, block) in enumerate(zip(values, self.caseDestinations))]

    def verify_custom(self) -> None:
        values = self.case_values
        destinations = len(self.successors) - 1
        if values is None:
            if destinations:
                raise VerificationError(f"number of case values (0) should match number of "
                                        f"case destinations ({destinations})")
            return
        flag_type = self.flag.type
        if values.type.element_type != flag_type:
            raise VerificationError(f"'flag' type ('{flag_type}') should match case value "
                                    f"type ('{values.type.element_type}')")
        count = values.array.size
        if count != destinations:
            raise VerificationError(f"number of case values ({count}) should match number "
                                    f"of case destinations ({destinations})")

    # -------------------------------------------------------------- custom form

    @classmethod
    def parse(cls, p) -> SwitchOp:
        """`%flag : type, [ default: ^bb(...), value: ^bb(...), ... ]`."""
        flag = p.parse_operand()
        p.parse_colon()
        type_pos = p.current_pos()
        flag_type = p.parse_type()
        if not isinstance(flag_type, IntegerType):
            raise p.error(f"invalid kind of type specified: expected builtin.integer, but "
                          f"found '{flag_type}'", type_pos)
        if flag_type.width > 64:
            # Dense elements of wider integers have no storage in mlc yet.
            raise p.error(f"a switch on '{flag_type}' is not supported: case values are "
                          "at most 64 bits wide", type_pos)
        p.parse_comma()
        p.parse_punctuation("[")
        p.parse_keyword("default")
        p.parse_colon()
        default, default_operands = _parse_successor_and_operands(p)
        cases = []
        while p.parse_optional_comma():
            value_pos = p.current_pos()
            value = p.parse_integer()
            if not -(1 << 63) <= value <= _U64_MAX:
                raise p.error("integer value too large", value_pos)
            p.parse_colon()
            cases.append((value, *_parse_successor_and_operands(p)))
        p.parse_punctuation("]")
        attributes = p.parse_optional_attr_dict()
        op = cls.create_switch(p.resolve_operand(flag, flag_type), default, default_operands,
                               cases)
        for name, attr in attributes.items():
            op.attributes.setdefault(name, attr)
        return op

    def print(self, p) -> None:
        p.write(" ")
        p.value(self.flag)
        p.write(" : ")
        p.type(self.flag.type)
        p.write(", [")
        p.newline()
        p.write("  default: ")
        branch = BranchLike.get(self)
        _print_successor_and_operands(p, self.defaultDestination,
                                      branch.successor_operands(self, 0))
        cases = self.cases
        for value, block, operands in cases:
            p.write(",")
            p.newline()
            p.write(f"  {min(value, _U64_MAX)}: ")
            _print_successor_and_operands(p, block, operands)
        if cases:  # as MLIR: without cases, `]` follows the default on its line
            p.newline()
        p.write("]")
        p.attr_dict(self, {"case_values", "case_operand_segments", "operandSegmentSizes"})


def _parse_successor_and_operands(p) -> tuple[Block, list[Value]]:
    """`^bb` or `^bb(%a, %b : t1, t2)`."""
    block = p.parse_successor()
    if not p.parse_optional_punctuation("("):
        return block, []
    operands = p.parse_operand_list()
    p.parse_colon()
    types = p.parse_type_list()
    p.parse_punctuation(")")
    return block, p.resolve_operands(operands, types)


def _print_successor_and_operands(p, block: Block, operands: list[Value]) -> None:
    p.successor(block)
    if operands:
        p.write("(")
        p.value_list(operands)
        p.write(" : ")
        p.type_list([v.type for v in operands])
        p.write(")")


def case_values_attr(values: list[int], flag_type: Type) -> Attribute:
    """The `case_values` attribute of `values` for a flag of `flag_type`. As MLIR reads
    a case, a value is taken as 64 bits, then truncated or zero-extended to the
    flag's width."""
    width = flag_type.width  # type: ignore[attr-defined]
    stored = []
    for value in values:
        bits = (value & _U64_MAX) & ((1 << width) - 1)
        stored.append(bits - (1 << width) if width > 1 and bits >> (width - 1) else bits)
    return DenseElementsAttr.from_array(stored, VectorType((len(values),), flag_type))


def case_values_of(op: SwitchOp) -> list[int]:
    """The case values of a switch as its flag's bits (unsigned), in case order."""
    attr = op.case_values
    if attr is None:
        return []
    width = attr.type.element_type.width
    return [int(v) & ((1 << width) - 1) for v in attr.array.reshape(-1).tolist()]
