"""The `scf` dialect: structured control flow (MLIR's SCF dialect), in MLIR 22's syntax.

Loops and conditionals as ops with regions: `scf.for` counts from a lower to an
upper bound (an index or integer induction variable) carrying values from one
iteration to the next (`iter_args`); `scf.if` runs one of two regions; `scf.while`
runs its `before` region, then, while the condition it passes to `scf.condition`
holds, its `after` region; `scf.parallel` runs its body for every point of an
iteration space, combining values with the reductions of `scf.reduce`;
`scf.execute_region` runs a region of any number of blocks; `scf.index_switch`
runs the region of the case its index selects. Regions hand values back with
`scf.yield`.

A region whose terminator yields nothing is printed without it (and read with it
implied), as mlir-opt prints them. The canonicalization patterns are in
`canonicalization.py`, what the ops do in the interpreter in `semantics.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.attributes import (
    DenseArrayAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    Type,
    i1,
    i32,
    i64,
    unit,
)
from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.interfaces.control_flow import RegionBranch, RegionBranchTerminator, ReturnLike
from mlc.ir.interfaces.loop_like import LoopLike
from mlc.ir.interfaces.side_effects import ConditionallySpeculatable, Speculatability
from mlc.ir.opdef.constraints import (
    I1,
    DenseArrayOf,
    IntegerOrIndex,
    UnitAttrConstraint,
)
from mlc.ir.opdef.constraints import (
    Index as IndexConstraint,
)
from mlc.ir.opdef.declare import (
    AttrDef,
    Op,
    OperandDef,
    RegionDef,
    ResultDef,
    VerificationError,
)
from mlc.ir.opdef.traits import (
    AllTypesMatch,
    AttrSizedOperandSegments,
    HasParent,
    IsTerminator,
    Pure,
    RecursivelySpeculatable,
    RecursiveMemoryEffects,
    SingleBlock,
)
from mlc.ir.text.asm_parser import Argument, AsmParser
from mlc.ir.text.printer import Printer

scf = Dialect("scf", "Structured control flow: loops and conditionals as ops with regions.",
              semantics="mlc.ir.dialects.scf.semantics")

_YIELD_PARENTS = ("scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while")


# ------------------------------------------------------------------ shared syntax


def ensure_terminator(region: Region, arg_types: Sequence[Type] = ()) -> None:
    """Give `region` the `scf.yield` its custom form may leave implied: a block if it
    has none, a yield without operands if its block does not end in a terminator
    (MLIR's SingleBlockImplicitTerminator::ensureTerminator)."""
    if not region.blocks:
        region.append(Block(arg_types))
    block = region.blocks[0]
    last = block.last_op
    if last is None or last.op_def is None or not last.has_trait(IsTerminator):
        block.append(YieldOp.build([]))


def _parse_assignment_list(p: AsmParser) -> tuple[list[Argument], list]:
    """`(%inner = %outer, ...)`: the region arguments and the operands they take."""
    p.parse_punctuation("(")
    arguments, operands = [], []
    if p.parse_optional_punctuation(")"):
        return arguments, operands
    while True:
        arguments.append(p.parse_argument())
        p.parse_equal()
        operands.append(p.parse_operand())
        if not p.parse_optional_comma():
            break
    p.parse_punctuation(")")
    return arguments, operands


def _print_assignment_list(p: Printer, prefix: str, inner: Sequence[Value],
                           outer: Sequence[Value]) -> None:
    if not outer:
        return
    p.write(prefix + "(")
    for i, (a, b) in enumerate(zip(inner, outer)):
        if i:
            p.write(", ")
        p.value(a)
        p.write(" = ")
        p.value(b)
    p.write(")")


def _parse_optional_arrow_types(p: AsmParser) -> list[Type]:
    """`-> type` or `-> (type, ...)`, or nothing."""
    if not p.parse_optional_arrow():
        return []
    return _parse_optional_arrow_types_after_arrow(p)


def _print_optional_arrow_types(p: Printer, types: Sequence[Type]) -> None:
    """MLIR's printOptionalArrowTypeList: parentheses unless one non-function type."""
    if not types:
        return
    p.write(" -> ")
    if len(types) == 1 and not isinstance(types[0], FunctionType):
        p.type(types[0])
    else:
        p.write("(")
        p.type_list(types)
        p.write(")")


def _parse_operand_list_in_parens(p: AsmParser, count: int | None = None) -> list:
    """`(%a, %b)`; with `count`, exactly that many (MLIR's words otherwise)."""
    pos = p.current_pos()
    p.parse_punctuation("(")
    operands = [] if p.parse_optional_punctuation(")") else None
    if operands is None:
        operands = p.parse_operand_list()
        p.parse_punctuation(")")
    if count is not None and len(operands) != count:
        raise p.error(f"expected {count} operands", pos)
    return operands


def _terminator_of(op: Operation, region: Region, cls: type, message: str):
    """The terminator of `region`'s first block if it is a `cls`, else a
    VerificationError with `message` and a note at the terminator (MLIR's
    verifyAndGetTerminator)."""
    if region.blocks and region.blocks[0].last_op is not None:
        last = region.blocks[0].last_op
        if isinstance(last, cls):
            return last
        raise VerificationError(message, [("terminator here", last.loc)])
    raise VerificationError(message)


def _check_implicit_terminator(op: Operation) -> None:
    """SingleBlockImplicitTerminator<scf.yield>'s check of every non-empty region."""
    for region in op.regions:
        if not region.blocks:
            continue
        block = region.blocks[0]
        last = block.last_op
        if last is None:
            raise VerificationError("expects a non-empty block")
        if not isinstance(last, YieldOp):
            raise VerificationError(
                f"expects regions to end with 'scf.yield', found '{last.name}'",
                [("in custom textual format, the absence of terminator implies 'scf.yield'",
                  last.loc)])


def constant_int(value: Value) -> int | None:
    """The integer an `arith.constant` (or other constant-like op) gives `value`."""
    from mlc.ir.dialects.arith.constants import constant_value_of

    attr = constant_value_of(value)
    return attr.value if isinstance(attr, IntegerAttr) else None


# ------------------------------------------------------------------ scf.yield


@scf.op
class YieldOp(Op):
    """Loop yield and termination operation

    Ends a region of `scf.for`, `scf.if`, `scf.while` (its `after` region),
    `scf.execute_region` or `scf.index_switch`, handing its operands back to the op:
    to the next iteration of a loop, or as the op's results. A yield without
    operands may be left out of the custom form.
    """

    name = "scf.yield"
    yielded = OperandDef(variadic=True, doc="the values handed back")
    traits = (Pure, IsTerminator, ReturnLike, HasParent(_YIELD_PARENTS))
    assembly_format = "attr-dict ($yielded^ `:` type($yielded))?"


# ------------------------------------------------------------------ scf.for


@scf.op
class ForOp(Op):
    """For operation

    Runs its body for the values of the induction variable from `lowerBound` up to
    `upperBound` (exclusive) by `step`, compared as signed integers (as unsigned
    with `unsigned`); the bounds and step are of one type, index or a signless
    integer. `initArgs` are the first values of the loop-carried values, the
    body's arguments after the induction variable; the body yields the next ones,
    and the op's results are those after the last iteration (the inits, if there
    is none):

        %sum = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %zero) -> (f32) {
          %t = ...
          scf.yield %t : f32
        }
        scf.for unsigned %j = %a to %b step %s : i32 {
          ...
        }

    The step must be positive; a loop whose step is not 1 is not speculatable (it
    may wrap past the upper bound and not end).
    """

    name = "scf.for"
    lowerBound = OperandDef(IntegerOrIndex, doc="the first value of the induction variable")  # noqa: N815
    upperBound = OperandDef(IntegerOrIndex, doc="the bound it stays below")  # noqa: N815
    step = OperandDef(IntegerOrIndex, doc="how much it grows each iteration")
    initArgs = OperandDef(variadic=True, doc="the initial loop-carried values")  # noqa: N815
    outputs = ResultDef(variadic=True, doc="the loop-carried values after the last iteration")
    unsignedCmp = AttrDef(UnitAttrConstraint, optional=True,  # noqa: N815
                          doc="compare the induction variable with the bound as unsigned")
    region = RegionDef(single_block=True, doc="the body: induction variable, then iter_args")
    traits = (AllTypesMatch(("lowerBound", "upperBound", "step")), RecursiveMemoryEffects,
              ConditionallySpeculatable(), SingleBlock,
              LoopLike(body="region", lower_bounds="lowerBound", upper_bounds="upperBound",
                       steps="step", inits="initArgs"),
              RegionBranch({"parent": ("region", "parent"), "region": ("region", "parent")},
                           entry_operands="initArgs"))

    @classmethod
    def create_for(cls, lower: Value, upper: Value, step: Value,
                   inits: Sequence[Value] = (), unsigned: bool = False) -> ForOp:
        """A loop with a body block of the induction variable and iter_args (no
        terminator when it carries values: the caller yields them)."""
        body = Block([lower.type, *(v.type for v in inits)])
        op = cls.build(lower, upper, step, list(inits), result_types=[v.type for v in inits],
                       unsignedCmp=unit if unsigned else None, regions=[Region([body])])
        if not inits:
            body.append(YieldOp.build([]))
        return op  # type: ignore[return-value]

    @property
    def body(self) -> Block:
        return self.region.blocks[0]

    @property
    def induction_var(self) -> Value:
        return self.body.args[0]

    @property
    def region_iter_args(self) -> list[Value]:
        return list(self.body.args[1:])

    @property
    def yield_op(self) -> YieldOp:
        return self.body.last_op  # type: ignore[return-value]

    def speculatability(self) -> Speculatability:
        if constant_int(self.step) == 1:
            return Speculatability.RECURSIVELY_SPECULATABLE
        return Speculatability.NOT_SPECULATABLE

    def verify_custom(self) -> None:
        if len(self.initArgs) != len(self.results):
            raise VerificationError(
                "mismatch in number of loop-carried values and defined values")
        _check_implicit_terminator(self)

    def verify_regions(self) -> None:
        body = self.region.entry
        if body is None or not body.args:
            raise VerificationError("expected induction variable to be same type as bounds "
                                    "and step")
        if body.args[0].type != self.lowerBound.type:
            raise VerificationError("expected induction variable to be same type as bounds "
                                    "and step")
        if len(body.args) - 1 != len(self.results):
            raise VerificationError("mismatch in number of basic block args and defined values")

    @classmethod
    def parse(cls, p: AsmParser) -> ForOp:
        """`[unsigned] %iv = %lb to %ub step %s [iter_args(%a = %x, ...) -> (types)]
        [: type] {body} [attrs]`."""
        name_pos = p.current_pos()
        unsigned = p.parse_optional_keyword("unsigned") is not None
        iv = p.parse_argument()
        p.parse_equal()
        lower = p.parse_operand()
        p.parse_keyword("to")
        upper = p.parse_operand()
        p.parse_keyword("step")
        step = p.parse_operand()
        arguments: list[Argument] = []
        operands: list = []
        result_types: list[Type] = []
        if p.parse_optional_keyword("iter_args") is not None:
            arguments, operands = _parse_assignment_list(p)
            p.parse_arrow()
            result_types = _parse_optional_arrow_types_after_arrow(p)
        if len(arguments) != len(result_types):
            raise p.error("mismatch in number of loop-carried values and defined values",
                          name_pos)
        iv_type: Type = p.parse_type() if p.parse_optional_punctuation(":") else IndexType()
        iv.type = iv_type
        bounds = p.resolve_operands([lower, upper, step], [iv_type] * 3)
        inits = []
        for argument, operand, type_ in zip(arguments, operands, result_types):
            argument.type = type_
            inits.append(p.resolve_operand(operand, type_))
        body = p.parse_region([iv, *arguments], cls)
        ensure_terminator(body, [iv_type, *result_types])
        attributes = p.parse_optional_attr_dict()
        if unsigned:
            attributes["unsignedCmp"] = unit
        return cls.create([*bounds, *inits], result_types, attributes,  # type: ignore[return-value]
                          [body])

    def print(self, p: Printer) -> None:
        if self.unsignedCmp is not None:
            p.write(" unsigned")
        p.write(" ")
        p.value(self.induction_var)
        p.write(" = ")
        p.value(self.lowerBound)
        p.write(" to ")
        p.value(self.upperBound)
        p.write(" step ")
        p.value(self.step)
        inits = self.initArgs
        _print_assignment_list(p, " iter_args", self.region_iter_args, inits)
        if inits:
            p.write(" -> (")
            p.type_list([v.type for v in inits])
            p.write(")")
        p.write(" ")
        iv_type = self.induction_var.type
        if not isinstance(iv_type, IndexType):
            p.write(" : ")
            p.type(iv_type)
            p.write(" ")
        p.region(self.region, print_entry_args=False, print_terminators=bool(inits))
        p.attr_dict(self, {"unsignedCmp"})


def _parse_optional_arrow_types_after_arrow(p: AsmParser) -> list[Type]:
    """After `->`: `type` or `(type, ...)`."""
    if p.parse_optional_punctuation("("):
        if p.parse_optional_punctuation(")"):
            return []
        types = p.parse_type_list()
        p.parse_punctuation(")")
        return types
    return [p.parse_type()]


# ------------------------------------------------------------------ scf.if


@scf.op
class IfOp(Op):
    """if-then-else operation

    Runs `thenRegion` if `condition` is true, else `elseRegion`, which may be
    absent when the op has no results; the region that runs yields the results:

        %x = scf.if %c -> (f32) {
          scf.yield %a : f32
        } else {
          scf.yield %b : f32
        }
    """

    name = "scf.if"
    condition = OperandDef(I1, doc="which region runs")
    outputs = ResultDef(variadic=True, doc="what the region that ran yields")
    thenRegion = RegionDef(single_block=True, doc="runs if the condition holds")  # noqa: N815
    elseRegion = RegionDef(single_block=True,  # noqa: N815
                           doc="runs otherwise; may be empty without results")
    traits = (RecursiveMemoryEffects, RecursivelySpeculatable, SingleBlock,
              RegionBranch({"parent": ("thenRegion", "elseRegion"),
                            "elseRegion": ("parent",), "thenRegion": ("parent",)}))

    @classmethod
    def create_if(cls, condition: Value, result_types: Sequence[Type] = (),
                  with_else: bool = True) -> IfOp:
        """An if with empty blocks (each ends in a yield when there are no results;
        with results, the caller adds the yields)."""
        regions = []
        for present in (True, with_else):
            region = Region()
            if present:
                block = region.append(Block())
                if not result_types:
                    block.append(YieldOp.build([]))
            regions.append(region)
        return cls.build(condition, result_types=list(result_types),  # type: ignore[return-value]
                         regions=regions)

    @property
    def then_block(self) -> Block:
        return self.thenRegion.blocks[0]

    @property
    def else_block(self) -> Block | None:
        blocks = self.elseRegion.blocks
        return blocks[0] if blocks else None

    def verify_custom(self) -> None:
        _check_implicit_terminator(self)
        if self.results and not self.elseRegion.blocks:
            raise VerificationError("must have an else block if defining values")
        for region in self.regions:
            if region.blocks and region.blocks[0].args:
                raise VerificationError("region #"
                                        f"{self.regions.index(region)} should have no arguments")

    @classmethod
    def parse(cls, p: AsmParser) -> IfOp:
        """`%cond [-> (types)] {then} [else {else}] [attrs]`."""
        condition = p.resolve_operand(p.parse_operand(), i1)
        result_types = _parse_optional_arrow_types(p)
        then_region = p.parse_region((), cls)
        ensure_terminator(then_region)
        else_region = Region()
        if p.parse_optional_keyword("else") is not None:
            else_region = p.parse_region((), cls)
            ensure_terminator(else_region)
        attributes = p.parse_optional_attr_dict()
        return cls.create([condition], result_types, attributes,  # type: ignore[return-value]
                          [then_region, else_region])

    def print(self, p: Printer) -> None:
        p.write(" ")
        p.value(self.condition)
        results = self.results
        if results:
            p.write(" -> (")
            p.type_list([r.type for r in results])
            p.write(")")
        p.write(" ")
        p.region(self.thenRegion, print_entry_args=False, print_terminators=bool(results))
        if self.elseRegion.blocks:
            p.write(" else ")
            p.region(self.elseRegion, print_entry_args=False,
                     print_terminators=bool(results))
        p.attr_dict(self, set())


# ------------------------------------------------------------------ scf.while


@scf.op
class ConditionOp(Op):
    """loop continuation condition

    Ends the `before` region of `scf.while`: if `condition` holds, the loop goes on
    to its `after` region with `args` as that region's arguments; otherwise it
    ends, with `args` as its results.
    """

    name = "scf.condition"
    condition = OperandDef(I1, doc="whether the loop goes on")
    args = OperandDef(variadic=True, doc="the `after` region's arguments, or the results")
    traits = (Pure, IsTerminator, HasParent(("scf.while",)), RegionBranchTerminator("args"))
    assembly_format = "`(` $condition `)` attr-dict ($args^ `:` type($args))?"


@scf.op
class WhileOp(Op):
    """a generic 'while' loop

    Runs `before` on the loop-carried values (first `inits`); it ends in
    `scf.condition`, which either passes values to `after` or ends the loop with
    them as the results; `after` yields the loop-carried values of the next
    iteration:

        %res = scf.while (%arg1 = %init1) : (f32) -> f32 {
          %condition = call @evaluate_condition(%arg1) : (f32) -> i1
          scf.condition(%condition) %arg1 : f32
        } do {
        ^bb0(%arg2: f32):
          %next = call @payload(%arg2) : (f32) -> f32
          scf.yield %next : f32
        }
    """

    name = "scf.while"
    inits = OperandDef(variadic=True, doc="the first loop-carried values")
    outputs = ResultDef(variadic=True, doc="what `scf.condition` passes out")
    before = RegionDef(doc="computes the condition")
    after = RegionDef(doc="the loop body")
    # RegionBranch is verified before LoopLike, as MLIR lists them for scf.while.
    traits = (RecursiveMemoryEffects,
              RegionBranch({"parent": ("before",), "before": ("after", "parent"),
                            "after": ("before",)}, entry_operands="inits"),
              LoopLike(body=("before", "after"), inits="inits", results=False))

    def verify_custom(self) -> None:
        for index, (name, region) in enumerate((("before", self.before),
                                                ("after", self.after))):
            if len(region.blocks) != 1:
                raise VerificationError(f"region #{index} ('{name}') failed to verify "
                                        "constraint: region with 1 blocks")
        for region in (self.before, self.after):
            if region.blocks[0].first_op is None:
                raise VerificationError("expects a non-empty block")
        _terminator_of(self, self.before, ConditionOp,
                       "expects the 'before' region to terminate with 'scf.condition'")
        _terminator_of(self, self.after, YieldOp,
                       "expects the 'after' region to terminate with 'scf.yield'")

    @property
    def condition_op(self) -> ConditionOp:
        return self.before.blocks[0].last_op  # type: ignore[return-value]

    @property
    def yield_op(self) -> YieldOp:
        return self.after.blocks[0].last_op  # type: ignore[return-value]

    @classmethod
    def parse(cls, p: AsmParser) -> WhileOp:
        """`[(%a = %x, ...)] : (types) -> types {before} do {after} [attributes {...}]`."""
        arguments: list[Argument] = []
        operands: list = []
        if _peek(p, "("):
            arguments, operands = _parse_assignment_list(p)
        p.parse_colon()
        type_pos = p.current_pos()
        function_type = p.parse_type()
        if not isinstance(function_type, FunctionType):
            raise p.error(f"invalid kind of type specified: expected builtin.function, but "
                          f"found '{function_type}'", type_pos)
        if len(function_type.inputs) != len(operands):
            raise p.error(f"expected as many input types as operands (expected "
                          f"{len(operands)} got {len(function_type.inputs)})", type_pos)
        inits = p.resolve_operands(operands, list(function_type.inputs))
        for argument, type_ in zip(arguments, function_type.inputs):
            argument.type = type_
        before = p.parse_region(arguments, cls)
        p.parse_keyword("do")
        after = p.parse_region((), cls)
        attributes = p.parse_optional_attr_dict_with_keyword()
        return cls.create(inits, list(function_type.results),  # type: ignore[return-value]
                          attributes, [before, after])

    def print(self, p: Printer) -> None:
        before_args = self.before.blocks[0].args if self.before.blocks else []
        _print_assignment_list(p, " ", before_args, self.inits)
        p.write(" : ")
        p.type(FunctionType(tuple(v.type for v in self.inits),
                            tuple(r.type for r in self.results)))
        p.write(" ")
        p.region(self.before, print_entry_args=False)
        p.write(" do ")
        p.region(self.after)
        p.attr_dict(self, set(), keyword=True)


def _peek(p: AsmParser, punctuation: str) -> bool:
    """Whether the next token is `punctuation` (nothing is consumed)."""
    pos = p.pos
    found = p.parse_optional_punctuation(punctuation)
    p.pos = pos
    return found


# ------------------------------------------------------------------ scf.parallel


@scf.op
class ReduceReturnOp(Op):
    """terminator for reduce operation

    Ends a reduction region of `scf.reduce`, with the combined value.
    """

    name = "scf.reduce.return"
    result = OperandDef(doc="the two values combined")
    traits = (Pure, IsTerminator, HasParent(("scf.reduce",)))
    assembly_format = "$result attr-dict `:` type($result)"

    def verify_custom(self) -> None:
        block = self.parent
        if block is None or not block.args:
            return
        expected = block.args[0].type
        if expected != self.result.type:
            raise VerificationError(f"must have type '{expected}' (the type of the "
                                    "reduction inputs)")


@scf.op
class ReduceOp(Op):
    """reduce operation for scf.parallel

    Ends the body of `scf.parallel`: each operand is this iteration's contribution
    to one of the loop's results, combined with the others by the reduction region
    of the same position (two arguments of the operand's type, ending in
    `scf.reduce.return`). The order in which contributions are combined is not
    specified, so a reduction should be associative and commutative.

        scf.reduce(%operand : f32) {
        ^bb0(%lhs : f32, %rhs: f32):
          %res = arith.addf %lhs, %rhs : f32
          scf.reduce.return %res : f32
        }
    """

    name = "scf.reduce"
    reduced = OperandDef(variadic=True, doc="this iteration's contribution to each result")
    reductions = RegionDef(variadic=True, single_block=True,
                           doc="one combining region per operand")
    traits = (IsTerminator, HasParent(("scf.parallel",)), RecursiveMemoryEffects)

    def verify_regions(self) -> None:
        operands, regions = self.reduced, self.reductions
        if len(regions) != len(operands):
            raise VerificationError(f"expects number of reduction regions: {len(regions)} to "
                                    f"be the same as number of reduction operands: "
                                    f"{len(operands)}")
        for i, (value, region) in enumerate(zip(operands, regions)):
            block = region.entry
            if block is None or block.last_op is None:
                raise VerificationError(f"{i}-th reduction has an empty body")
            if len(block.args) != 2 or any(a.type != value.type for a in block.args):
                raise VerificationError(f"expected two block arguments with type "
                                        f"'{value.type}' in the {i}-th reduction region")
            if not isinstance(block.last_op, ReduceReturnOp):
                raise VerificationError("reduction bodies must be terminated with an "
                                        "'scf.reduce.return' op")

    @classmethod
    def parse(cls, p: AsmParser) -> ReduceOp:
        """`[(%a, ... : types)] {region}, {region} [attrs]`."""
        values: list[Value] = []
        if p.parse_optional_punctuation("("):
            operands = p.parse_operand_list()
            p.parse_colon()
            types = p.parse_type_list()
            p.parse_punctuation(")")
            values = p.resolve_operands(operands, types)
        regions = []
        region = p.parse_optional_region((), cls)
        while region is not None:
            regions.append(region)
            if not _peek_comma_brace(p):
                break
            p.parse_comma()
            region = p.parse_region((), cls)
        attributes = p.parse_optional_attr_dict()
        return cls.create(values, [], attributes, regions)  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        values = self.reduced
        if values:
            p.write("(")
            p.value_list(values)
            p.write(" : ")
            p.type_list([v.type for v in values])
            p.write(")")
        p.write(" ")
        for i, region in enumerate(self.reductions):
            if i:
                p.write(", ")
            p.region(region)
        p.attr_dict(self, set())


def _peek_comma_brace(p: AsmParser) -> bool:
    """Whether `, {` follows (another region of a region list)."""
    pos = p.pos
    found = p.parse_optional_comma() and _peek(p, "{")
    p.pos = pos
    return found


@scf.op
class ParallelOp(Op):
    """parallel for operation

    Runs its body for every point of the iteration space `lowerBound` to
    `upperBound` (exclusive) by `step`, one index induction variable per dimension,
    in no specified order (possibly at once). The body ends in `scf.reduce`, whose
    reductions combine each iteration's contribution with `initVals` into the
    results:

        %sum = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1)
            init (%zero) -> f32 {
          %v = memref.load %buffer[%i, %j] : memref<?x?xf32>
          scf.reduce(%v : f32) {
          ^bb0(%lhs: f32, %rhs: f32):
            %s = arith.addf %lhs, %rhs : f32
            scf.reduce.return %s : f32
          }
        }
    """

    name = "scf.parallel"
    lowerBound = OperandDef(IndexConstraint, variadic=True, doc="one per dimension")  # noqa: N815
    upperBound = OperandDef(IndexConstraint, variadic=True, doc="one per dimension")  # noqa: N815
    step = OperandDef(IndexConstraint, variadic=True, doc="one per dimension, positive")
    initVals = OperandDef(variadic=True, doc="the initial value of each reduction")  # noqa: N815
    outputs = ResultDef(variadic=True, doc="the reductions' values")
    region = RegionDef(single_block=True, doc="the body: one induction variable per dimension")
    traits = (AttrSizedOperandSegments, RecursiveMemoryEffects, RecursivelySpeculatable,
              SingleBlock,
              LoopLike(body="region", lower_bounds="lowerBound", upper_bounds="upperBound",
                       steps="step"),
              RegionBranch({"parent": ("region",), "region": ("region", "parent")}))

    @property
    def body(self) -> Block:
        return self.region.blocks[0]

    @property
    def reduce_op(self) -> ReduceOp:
        return self.body.last_op  # type: ignore[return-value]

    def verify_custom(self) -> None:
        steps = self.step
        if not steps:
            raise VerificationError("needs at least one tuple element for lowerBound, "
                                    "upperBound and step")
        for value in steps:
            constant = constant_int(value)
            if constant is not None and constant <= 0:
                raise VerificationError("constant step operand must be positive")
        body = self.region.entry
        count = len(body.args) if body is not None else 0
        if count != len(steps):
            raise VerificationError(f"expects the same number of induction variables: "
                                    f"{count} as bound and step values: {len(steps)}")
        if len(self.lowerBound) != len(steps) or len(self.upperBound) != len(steps):
            raise VerificationError("expects the same number of lower bounds, upper bounds "
                                    "and steps")
        if any(not isinstance(a.type, IndexType) for a in body.args):
            raise VerificationError("expects arguments for the induction variable to be of "
                                    "index type")
        reduce = _terminator_of(self, self.region, ReduceOp,
                                "expects body to terminate with 'scf.reduce'")
        # The reductions are counted by their regions: a mismatch with the operands
        # is scf.reduce's to report, once its regions are verified.
        results, reductions = len(self.results), len(reduce.reductions)
        if results != reductions:
            raise VerificationError(f"expects number of results: {results} to be the same "
                                    f"as number of reductions: {reductions}")
        if results != len(self.initVals):
            raise VerificationError(f"expects number of results: {results} to be the same "
                                    f"as number of initial values: {len(self.initVals)}")
        for i, (result, value) in enumerate(zip(self.results, reduce.reduced)):
            if result.type != value.type:
                raise VerificationError(
                    f"expects type of {i}-th reduction operand: '{value.type}' to be the "
                    f"same as the {i}-th result type: '{result.type}'", at=reduce)

    @classmethod
    def parse(cls, p: AsmParser) -> ParallelOp:
        """`(%i, ...) = (lbs) to (ubs) step (steps) [init (values)] [-> types] {body}`."""
        name_pos = p.current_pos()
        p.parse_punctuation("(")
        ivs: list[Argument] = []
        if not p.parse_optional_punctuation(")"):
            while True:
                ivs.append(p.parse_argument())
                if not p.parse_optional_comma():
                    break
            p.parse_punctuation(")")
        index = IndexType()
        p.parse_equal()
        lower = p.resolve_operands(_parse_operand_list_in_parens(p, len(ivs)),
                                   [index] * len(ivs))
        p.parse_keyword("to")
        upper = p.resolve_operands(_parse_operand_list_in_parens(p, len(ivs)),
                                   [index] * len(ivs))
        p.parse_keyword("step")
        steps = p.resolve_operands(_parse_operand_list_in_parens(p, len(ivs)),
                                   [index] * len(ivs))
        init_operands: list = []
        if p.parse_optional_keyword("init") is not None:
            init_operands = _parse_operand_list_in_parens(p)
        result_types = _parse_optional_arrow_types(p)
        for iv in ivs:
            iv.type = index
        body = p.parse_region(ivs, cls)
        attributes = p.parse_optional_attr_dict()
        if len(init_operands) != len(result_types):
            raise p.error(f"number of operands and types do not match: got "
                          f"{len(init_operands)} operands and {len(result_types)} types",
                          name_pos)
        inits = p.resolve_operands(init_operands, result_types)
        if not body.blocks:
            body.append(Block([index] * len(ivs)))
        block = body.blocks[0]
        if block.last_op is None or block.last_op.op_def is None or \
                not block.last_op.has_trait(IsTerminator):
            block.append(ReduceOp.create([], [], {}, []))
        attributes["operandSegmentSizes"] = DenseArrayAttr(
            i32, (len(lower), len(upper), len(steps), len(inits)))
        return cls.create([*lower, *upper, *steps, *inits],  # type: ignore[return-value]
                          result_types, attributes, [body])

    def print(self, p: Printer) -> None:
        p.write(" (")
        p.value_list(self.body.args)
        p.write(") = (")
        p.value_list(self.lowerBound)
        p.write(") to (")
        p.value_list(self.upperBound)
        p.write(") step (")
        p.value_list(self.step)
        p.write(")")
        if self.initVals:
            p.write(" init (")
            p.value_list(self.initVals)
            p.write(")")
        _print_optional_arrow_types(p, [r.type for r in self.results])
        p.write(" ")
        p.region(self.region, print_entry_args=False)
        p.attr_dict(self, {"operandSegmentSizes"})


# ------------------------------------------------------------------ scf.execute_region


@scf.op
class ExecuteRegionOp(Op):
    """operation that executes its region exactly once

    Runs its region, which may have several blocks (branching with `cf`), once;
    the `scf.yield` that ends it gives the results. It lets unstructured control
    flow sit where only one block may:

        %v = scf.execute_region -> i64 {
          cf.cond_br %c, ^bb1, ^bb2
        ^bb1:
          scf.yield %a : i64
        ^bb2:
          scf.yield %b : i64
        }

    With `no_inline`, canonicalization leaves it in place.
    """

    name = "scf.execute_region"
    outputs = ResultDef(variadic=True, doc="what the region yields")
    no_inline = AttrDef(UnitAttrConstraint, optional=True,
                        doc="keep the op: canonicalize does not inline its region")
    region = RegionDef(doc="runs once; no arguments")
    traits = (RecursiveMemoryEffects, RecursivelySpeculatable,
              RegionBranch({"parent": ("region",), "region": ("parent",)}))

    def verify_custom(self) -> None:
        if not self.region.blocks:
            raise VerificationError("region needs to have at least one block")
        if self.region.blocks[0].args:
            raise VerificationError("region cannot have any arguments")

    @classmethod
    def parse(cls, p: AsmParser) -> ExecuteRegionOp:
        """`[no_inline] [-> types] {region} [attrs]`."""
        attributes = {}
        if p.parse_optional_keyword("no_inline") is not None:
            attributes["no_inline"] = unit
        result_types = _parse_optional_arrow_types(p)
        region = p.parse_region((), cls)
        attributes.update(p.parse_optional_attr_dict())
        return cls.create([], result_types, attributes, [region])  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        if self.no_inline is not None:
            p.write(" no_inline")
        _print_optional_arrow_types(p, [r.type for r in self.results])
        p.write(" ")
        p.region(self.region, print_entry_args=False)
        p.attr_dict(self, {"no_inline"})


# ------------------------------------------------------------------ scf.index_switch


@scf.op
class IndexSwitchOp(Op):
    """switch-case operation on an index argument

    Runs the region of the case whose value equals `arg`, or `defaultRegion` if
    none does; the region that runs yields the results:

        %0 = scf.index_switch %i -> i32
        case 2 {
          scf.yield %a : i32
        }
        default {
          scf.yield %b : i32
        }
    """

    name = "scf.index_switch"
    arg = OperandDef(IndexConstraint, doc="the value compared with the cases")
    outputs = ResultDef(variadic=True, doc="what the region that ran yields")
    cases = AttrDef(DenseArrayOf(i64), doc="one value per case region")
    defaultRegion = RegionDef(single_block=True, doc="runs when no case matches")  # noqa: N815
    caseRegions = RegionDef(variadic=True, single_block=True,  # noqa: N815
                            doc="one region per case value")
    traits = (RecursiveMemoryEffects, RecursivelySpeculatable, SingleBlock)

    @property
    def case_values(self) -> list[int]:
        return [int(v) for v in self.cases.values]

    def verify_custom(self) -> None:
        values, regions = self.case_values, self.caseRegions
        if len(values) != len(regions):
            raise VerificationError(f"has {len(regions)} case regions but {len(values)} "
                                    "case values")
        seen: set[int] = set()
        for value in values:
            if value in seen:
                raise VerificationError(f"has duplicate case value: {value}")
            seen.add(value)
        result_types = [r.type for r in self.results]
        named = [("default region", self.defaultRegion),
                 *((f"case region #{i}", r) for i, r in enumerate(regions))]
        for name, region in named:
            last = region.blocks[0].last_op if region.blocks else None
            if last is None:
                raise VerificationError("expects a non-empty block")
            if not isinstance(last, YieldOp):
                raise VerificationError(f"expected region to end with scf.yield, but got "
                                        f"{last.name}")
            types = [v.type for v in last.operands]
            if len(types) != len(result_types):
                raise VerificationError(f"expected each region to return {len(result_types)} "
                                        f"values, but {name} returns {len(types)}",
                                        [("see yield operation here", last.loc)])
            for i, (expected, got) in enumerate(zip(result_types, types)):
                if expected != got:
                    raise VerificationError(f"expected result #{i} of each region to be "
                                            f"'{expected}'",
                                            [(f"{name} returns '{got}' here", last.loc)])

    @classmethod
    def parse(cls, p: AsmParser) -> IndexSwitchOp:
        """`%arg [attrs] [-> types] (case N {region})* default {region}`."""
        arg = p.resolve_operand(p.parse_operand(), IndexType())
        attributes = p.parse_optional_attr_dict()
        result_types: list[Type] = []
        if p.parse_optional_arrow():
            result_types = p.parse_type_list()
        values, case_regions = [], []
        while p.parse_optional_keyword("case") is not None:
            values.append(p.parse_integer())
            region = p.parse_region((), cls)
            ensure_terminator(region)
            case_regions.append(region)
        p.parse_keyword("default")
        default = p.parse_region((), cls)
        ensure_terminator(default)
        attributes["cases"] = DenseArrayAttr(i64, tuple(values))
        return cls.create([arg], result_types, attributes,  # type: ignore[return-value]
                          [default, *case_regions])

    def print(self, p: Printer) -> None:
        p.write(" ")
        p.value(self.arg)
        p.attr_dict(self, {"cases"})
        if self.results:
            p.write(" -> ")
            p.type_list([r.type for r in self.results])
        p.write(" ")
        for value, region in zip(self.case_values, self.caseRegions):
            p.newline()
            p.write(f"case {value} ")
            p.region(region, print_entry_args=False, print_terminators=bool(self.results))
        p.newline()
        p.write("default ")
        p.region(self.defaultRegion, print_entry_args=False,
                 print_terminators=bool(self.results))

