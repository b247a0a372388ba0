"""`scf.forall` and its terminator `scf.forall.in_parallel` (MLIR's ForallOp), in MLIR
22's syntax; imported with the rest of the `scf` dialect.

`scf.forall` runs its body for every point of an iteration space whose bounds and
steps are each a constant or an index value (a mixed static/dynamic list, as
`memref.subview`'s offsets), in no specified order; the normalized form gives only
the upper bounds:

    scf.forall (%i, %j) in (%n, 8) {
      ...
    }
    scf.forall (%i) = (%lb) to (%ub) step (4) {
      ...
    } {mapping = [#gpu.thread<x>]}

Its `shared_outs` are tensors the iterations write parts of through the ops of
`scf.forall.in_parallel`, which must implement MLIR's ParallelCombiningOpInterface
(`tensor.parallel_insert_slice`); mlc has no such op, so its in_parallel regions are
empty, and the interpreter and convert-scf-to-cf take only a forall without outputs
(a bufferized one), as MLIR's lowering to `scf.parallel` does.
"""

from __future__ import annotations

from mlc.ir.core.attributes import ArrayAttr, DenseArrayAttr, IndexType, i32, i64
from mlc.ir.core.ir import Block, Region, Value
from mlc.ir.dialects.index_lists import (
    DYNAMIC_INDEX,
    mixed_values,
    parse_index_list,
    print_index_list,
    static_array,
)
from mlc.ir.dialects.scf.ops import (
    _parse_assignment_list,
    _print_assignment_list,
    constant_int,
    scf,
)
from mlc.ir.opdef.constraints import DenseArrayOf, Index
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, RegionDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import (
    AttrSizedOperandSegments,
    HasParent,
    IsTerminator,
    NoTerminator,
    RecursiveMemoryEffects,
    SingleBlock,
)
from mlc.ir.text.asm_parser import AsmParser
from mlc.ir.text.printer import Printer


@scf.op
class InParallelOp(Op):
    """terminates a `forall` block

    Ends the body of `scf.forall`; its region holds the ops that write each
    iteration's part of the shared outputs (none when the forall has no outputs).
    The custom form of a forall without results leaves it out.
    """

    name = "scf.forall.in_parallel"
    region = RegionDef(single_block=True, doc="the parallel-combining ops")
    traits = (IsTerminator, HasParent(("scf.forall",)), SingleBlock, NoTerminator,
              RecursiveMemoryEffects)

    def verify_custom(self) -> None:
        # MLIR accepts only ops of its ParallelCombiningOpInterface here
        # (`tensor.parallel_insert_slice`, ...), none of which mlc has.
        block = self.region.entry
        if block is not None and block.first_op is not None:
            raise VerificationError("expected only ParallelCombiningOpInterface ops")

    @classmethod
    def create_empty(cls) -> InParallelOp:
        """The terminator of a forall without outputs: an empty block."""
        return cls.build(regions=[Region([Block()])])  # type: ignore[return-value]

    @classmethod
    def parse(cls, p: AsmParser) -> InParallelOp:
        """`{ops} [attrs]`."""
        region = p.parse_region((), cls)
        if not region.blocks:
            region.append(Block())
        attributes = p.parse_optional_attr_dict()
        return cls.create([], [], attributes, [region])  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        p.write(" ")
        p.region(self.region, print_entry_args=False, print_terminators=False)
        p.attr_dict(self, set())


@scf.op
class ForallOp(Op):
    """evaluate a block multiple times in parallel

    Runs its body once for every point of the iteration space from `lowerBound` to
    `upperBound` (exclusive) by `step` in each dimension, in no specified order
    (possibly at once); each bound and step is a constant (`static...`) or an index
    value (its static entry is the dynamic marker). The body's arguments are an index
    per dimension, then one per shared output; it ends in `scf.forall.in_parallel`.
    `mapping` may say how the dimensions map to processors (`#gpu.thread<x>`).
    """

    name = "scf.forall"
    dynamicLowerBound = OperandDef(Index, variadic=True,  # noqa: N815
                                   doc="the lower bounds that are values")
    dynamicUpperBound = OperandDef(Index, variadic=True,  # noqa: N815
                                   doc="the upper bounds that are values")
    dynamicStep = OperandDef(Index, variadic=True, doc="the steps that are values")  # noqa: N815
    outputs = OperandDef(variadic=True, doc="the shared outputs (tensors)")
    shared_results = ResultDef(variadic=True, doc="the shared outputs after every iteration")
    staticLowerBound = AttrDef(DenseArrayOf(i64), doc="each lower bound, or the dynamic marker")  # noqa: N815
    staticUpperBound = AttrDef(DenseArrayOf(i64), doc="each upper bound, or the dynamic marker")  # noqa: N815
    staticStep = AttrDef(DenseArrayOf(i64), doc="each step, or the dynamic marker")  # noqa: N815
    mapping = AttrDef(optional=True, doc="how the dimensions map to processors (an array)")
    region = RegionDef(single_block=True,
                       doc="the body: an index per dimension, then the shared outputs")
    traits = (AttrSizedOperandSegments, RecursiveMemoryEffects, SingleBlock)

    @property
    def rank(self) -> int:
        return len(self.staticLowerBound.values)

    @property
    def body(self) -> Block:
        return self.region.blocks[0]

    @property
    def induction_vars(self) -> list[Value]:
        return list(self.body.args[:self.rank])

    @property
    def region_out_args(self) -> list[Value]:
        return list(self.body.args[self.rank:])

    def mixed_lower_bound(self) -> list[int | Value]:
        return mixed_values(self.staticLowerBound, self.dynamicLowerBound)

    def mixed_upper_bound(self) -> list[int | Value]:
        return mixed_values(self.staticUpperBound, self.dynamicUpperBound)

    def mixed_step(self) -> list[int | Value]:
        return mixed_values(self.staticStep, self.dynamicStep)

    def is_normalized(self) -> bool:
        """Every lower bound is 0 and every step 1 (constants or constant values):
        the custom form gives the upper bounds only."""
        def all_equal(entries, wanted: int) -> bool:
            return all((e if isinstance(e, int) else constant_int(e)) == wanted
                       for e in entries)
        return all_equal(self.mixed_lower_bound(), 0) and all_equal(self.mixed_step(), 1)

    def verify_custom(self) -> None:
        # SingleBlockImplicitTerminator's check comes first, as MLIR's traits do.
        body = self.region.entry
        last = body.last_op if body is not None else None
        if body is not None and not isinstance(last, InParallelOp):
            if last is None:
                raise VerificationError("expects a non-empty block")
            raise VerificationError(
                f"expects regions to end with 'scf.forall.in_parallel', found '{last.name}'",
                [("in custom textual format, the absence of terminator implies "
                  "'scf.forall.in_parallel'", self.loc)])
        rank, outputs = self.rank, self.outputs
        if len(self.results) != len(outputs):
            raise VerificationError(f"produces {len(self.results)} results, but has only "
                                    f"{len(outputs)} outputs")
        args = body.args if body is not None else []
        if len(args) != rank + len(outputs):
            raise VerificationError(f"region expects {rank} arguments")
        for i in range(rank):
            if not isinstance(args[i].type, IndexType):
                raise VerificationError(f"expects {i}-th block argument to be an index")
        for i, output in enumerate(outputs):
            if args[rank + i].type != output.type:
                raise VerificationError(f"type mismatch between {i}-th output and "
                                        "corresponding block argument")
        mapping = self.mapping
        if isinstance(mapping, ArrayAttr) and mapping.elements and len(mapping.elements) != rank:
            raise VerificationError("mapping attribute size must match op rank")
        for name, static, dynamic in (("lower bound", self.staticLowerBound,
                                       self.dynamicLowerBound),
                                      ("upper bound", self.staticUpperBound,
                                       self.dynamicUpperBound),
                                      ("step", self.staticStep, self.dynamicStep)):
            # MLIR's verifyListOfOperandsOrIntegers, whose errors do not name the op.
            if len(static.values) != rank:
                raise VerificationError(f"{name} expects {rank} elements, but got "
                                        f"{len(static.values)}", names_op=False)
            expected = sum(1 for v in static.values if v == DYNAMIC_INDEX)
            if len(dynamic) != expected:
                raise VerificationError(f"expected {expected} dynamic {name} values",
                                        names_op=False)

    @classmethod
    def parse(cls, p: AsmParser) -> ForallOp:
        """`(%i, ...) in (ubs)` or `(%i, ...) = (lbs) to (ubs) step (steps)`, then
        `[shared_outs(%o = %t, ...) -> (types)] {body} [attrs]`."""
        index = IndexType()
        p.parse_punctuation("(")
        ivs = []
        if not p.parse_optional_punctuation(")"):
            while True:
                ivs.append(p.parse_argument())
                if not p.parse_optional_comma():
                    break
            p.parse_punctuation(")")
        if p.parse_optional_keyword("in") is not None:
            dynamic_upper, static_upper = parse_index_list(p, "()")
            dynamic_lower, static_lower = [], static_array([0] * len(ivs))
            dynamic_step, static_step = [], static_array([1] * len(ivs))
        else:
            p.parse_equal()
            dynamic_lower, static_lower = parse_index_list(p, "()")
            p.parse_keyword("to")
            dynamic_upper, static_upper = parse_index_list(p, "()")
            p.parse_keyword("step")
            dynamic_step, static_step = parse_index_list(p, "()")
        bounds = p.resolve_operands([*dynamic_lower, *dynamic_upper, *dynamic_step],
                                    [index] * (len(dynamic_lower) + len(dynamic_upper)
                                               + len(dynamic_step)))
        out_args, out_operands, result_types = [], [], []
        outs_pos = p.current_pos()
        if p.parse_optional_keyword("shared_outs") is not None:
            out_args, out_operands = _parse_assignment_list(p)
            if p.parse_optional_arrow():
                p.parse_punctuation("(")
                result_types = p.parse_type_list()
                p.parse_punctuation(")")
            if len(out_operands) != len(result_types):
                raise p.error(f"number of operands and types do not match: got "
                              f"{len(out_operands)} operands and {len(result_types)} types",
                              outs_pos)
        outputs = p.resolve_operands(out_operands, result_types)
        for iv in ivs:
            iv.type = index
        for arg, type_ in zip(out_args, result_types):
            arg.type = type_
        region = p.parse_region([*ivs, *out_args], cls)
        if not region.blocks:
            region.append(Block([index] * len(ivs) + list(result_types)))
        block = region.blocks[0]
        last = block.last_op
        if last is None or last.op_def is None or not last.has_trait(IsTerminator):
            block.append(InParallelOp.create_empty())
        attributes = p.parse_optional_attr_dict()
        attributes.update(staticLowerBound=static_lower, staticUpperBound=static_upper,
                          staticStep=static_step)
        attributes["operandSegmentSizes"] = DenseArrayAttr(
            i32, (len(dynamic_lower), len(dynamic_upper), len(dynamic_step), len(outputs)))
        return cls.create([*bounds, *outputs], result_types, attributes,  # type: ignore[return-value]
                          [region])

    def print(self, p: Printer) -> None:
        p.write(" (")
        p.value_list(self.induction_vars)
        if self.is_normalized():
            p.write(") in ")
            print_index_list(p, self.dynamicUpperBound, self.staticUpperBound, "()")
        else:
            p.write(") = ")
            print_index_list(p, self.dynamicLowerBound, self.staticLowerBound, "()")
            p.write(" to ")
            print_index_list(p, self.dynamicUpperBound, self.staticUpperBound, "()")
            p.write(" step ")
            print_index_list(p, self.dynamicStep, self.staticStep, "()")
        _print_assignment_list(p, " shared_outs", self.region_out_args, self.outputs)
        p.write(" ")
        if self.outputs:
            p.write("-> (")
            p.type_list([r.type for r in self.results])
            p.write(") ")
        p.region(self.region, print_entry_args=False, print_terminators=bool(self.results))
        p.attr_dict(self, {"operandSegmentSizes", "staticLowerBound", "staticUpperBound",
                           "staticStep"})


