"""The `loop` dialect: TensorIR's structure in MLIR syntax, the level schedules work on.

A kernel is a `func.func` on memrefs in destination-passing style (outputs are
arguments). Its body nests `loop.for`s; the computation sits in `loop.block`s whose
iteration variables are bound to the loop variables around them by an affine map:

    func.func @mm_relu(%A: memref<128x128xf32>, %B: memref<128x128xf32>,
                       %C: memref<128x128xf32>) {
      %Y = loop.alloc_buffer : memref<128x128xf32>
      loop.for %i = 0 to 128 {
        loop.for %j = 0 to 128 {
          loop.for %k = 0 to 128 {
            loop.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j),
                           %vk = reduce(128, %k))
                reads(%A[%vi, %vk], %B[%vk, %vj]) writes(%Y[%vi, %vj]) {
              loop.init {
                %zero = arith.constant 0.000000e+00 : f32
                loop.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
              }
              %a = loop.load %A[%vi, %vk] : memref<128x128xf32>
              ...
            }
          }
        }
      }
      ...
    }

A block is TVM's `T.block`: its iteration variables have a kind (`spatial`: each
value computes a different output element; `reduce`: values accumulate into one) and an
extent; its body reads and writes buffers only through them (never through the loop
variables), which is what lets schedules move loops around it. The `loop.init` region
runs before the first reduction step of each output element (when every reduce
variable is 0). The read and write regions are inferred from the body's accesses and
printed as TVM prints `T.reads`/`T.writes` (`?` for an index computed from data);
where they are written in the input they must agree with the body. `loop.for` has a
kind (`serial`, `parallel`, `vectorized`, `unrolled`), printed before its variable,
and keeps annotations as its other attributes.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.affine_expr import AffineExpr, constant, print_affine_expr
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr
from mlc.ir.core.attributes import (
    Attribute,
    DenseArrayAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    i64,
)
from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.interfaces.side_effects import Allocate, MemoryEffects, Read, Write
from mlc.ir.opdef.constraints import (
    AnyMemRef,
    AnyType,
    AttrOfClass,
    DenseArrayConstraint,
    ElementsAttrConstraint,
    Index,
    IntAttrOf,
    StrAttr,
    StringKeyword,
    TypedAttr,
)
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, RegionDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import (
    NoTerminator,
    Pure,
    RecursiveMemoryEffects,
    SameOperandsAndResultType,
    SingleBlock,
)
from mlc.ir.text.affine_parser import AffineParseError, parse_affine_exprs_of_ssa_ids
from mlc.ir.text.asm_parser import AsmParser, closing_bracket

loop = Dialect("loop", "TensorIR-like loop nests on buffers: the level schedules transform.",
               semantics="mlc.loop.semantics")

LOOP_KINDS = ("serial", "parallel", "vectorized", "unrolled")
ITER_KINDS = {"S": "spatial", "R": "reduce"}
_ITER_LETTERS = {name: letter for letter, name in ITER_KINDS.items()}
index = IndexType()
AffineMapConstraint = AttrOfClass((AffineMapAttr,), "affine map attribute")


@loop.op
class AllocBufferOp(Op):
    """A buffer local to the kernel (TVM's `T.alloc_buffer`)

    Its storage lives as long as the function that holds it:

        %Y = loop.alloc_buffer : memref<128x128xf32>
    """

    name = "loop.alloc_buffer"
    memref = ResultDef(AnyMemRef, doc="the new buffer")
    traits = (MemoryEffects(Allocate("memref")),)
    assembly_format = "attr-dict `:` type($memref)"

    def verify_custom(self) -> None:
        type_ = self.memref.type
        if not isinstance(type_, MemRefType) or any(d is None or d < 0 for d in type_.shape):
            raise VerificationError("buffers must have a static shape")


@loop.op
class ViewOp(Op):
    """A typed buffer over the bytes of a storage buffer (memory planning's sharing)

    `loop-plan-memory` lets buffers whose lifetimes do not overlap use one storage:

        %storage0 = loop.alloc_buffer : memref<200704xi8>
        %a = loop.view %storage0 : memref<200704xi8> to memref<1x64x28x28xf32>
    """

    name = "loop.view"
    source = OperandDef(AnyMemRef, doc="the storage: a one-dimensional buffer of i8")
    result = ResultDef(AnyMemRef, doc="the buffer it is viewed as")
    traits = (Pure,)
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def verify_custom(self) -> None:
        source, result = self.source.type, self.result.type
        if not (isinstance(source, MemRefType) and len(source.shape) == 1
                and source.element_type == IntegerType(8) and source.shape[0] >= 0):
            raise VerificationError("the storage must be a static memref<Nxi8>")
        if not isinstance(result, MemRefType) or any(d is None or d < 0 for d in result.shape):
            raise VerificationError("the view must have a static shape")
        needed = byte_size(result)
        if needed is None or needed > source.shape[0]:
            raise VerificationError(f"the view needs {needed} bytes, the storage has "
                                    f"{source.shape[0]}")


def byte_size(type_: MemRefType) -> int | None:
    """How many bytes a static memref of whole-byte elements holds (None otherwise)."""
    element = type_.element_type
    width = getattr(element, "width", None)
    if isinstance(element, IndexType):
        width = 64
    if width is None or width % 8 and width != 1:
        return None
    count = 1
    for d in type_.shape:
        count *= d
    return count * max(1, width // 8)


@loop.op
class ConstantOp(Op):
    """A buffer holding constant data (a graph constant: weights)

    The elements are a `dense` literal or a `dense_resource` blob, a tensor of the
    buffer's shape and element type; kernels read the buffer and never write it:

        %w = loop.constant dense<[1.0, 2.0]> : tensor<2xf32> -> memref<2xf32>

    (MLIR says this with a `memref.global` and a `memref.get_global`.)
    """

    name = "loop.constant"
    value = AttrDef(ElementsAttrConstraint, doc="the elements")
    memref = ResultDef(AnyMemRef, doc="the buffer")
    traits = (MemoryEffects(Allocate("memref")),)
    assembly_format = "$value attr-dict `->` type($memref)"

    def verify_custom(self) -> None:
        type_, value_type = self.memref.type, self.value.type
        if not isinstance(type_, MemRefType) or any(d is None or d < 0 for d in type_.shape):
            raise VerificationError("buffers must have a static shape")
        if tuple(value_type.shape) != tuple(type_.shape) or \
                value_type.element_type != type_.element_type:
            raise VerificationError(f"the value's type {value_type} does not match the buffer "
                                    f"type {type_}")


@loop.op
class ForOp(Op):
    """A loop from 0 to a constant extent

    `kind` says how the iterations run: one after another (`serial`, not printed), on
    threads (`parallel`), as SIMD lanes (`vectorized`) or unrolled; attributes after
    the body are annotations for later passes:

        loop.for parallel %i = 0 to 128 {
          ...
        } {pragma_auto_unroll = 16 : i64}
    """

    name = "loop.for"
    extent = AttrDef(IntAttrOf(i64), doc="the number of iterations")
    kind = AttrDef(StringKeyword(LOOP_KINDS), default=StringAttr("serial"),
                   doc="how the iterations run")
    body = RegionDef(single_block=True)
    traits = (NoTerminator, SingleBlock, RecursiveMemoryEffects)

    @classmethod
    def parse(cls, p: AsmParser) -> ForOp:
        kind = p.parse_optional_keyword(LOOP_KINDS[1:]) or "serial"
        variable = p.parse_argument()
        variable.type = index
        p.parse_equal()
        lower_pos = p.current_pos()
        if p.parse_integer() != 0:
            raise p.error("loops start at 0", lower_pos)
        p.parse_keyword("to")
        extent_pos = p.current_pos()
        extent = p.parse_integer()
        if not 0 < extent < 1 << 63:
            raise p.error("expected a positive extent that fits in i64", extent_pos)
        body = p.parse_region([variable], cls)
        attributes = p.parse_optional_attr_dict()
        attributes["extent"] = IntegerAttr(extent, i64)
        if kind != "serial":
            attributes["kind"] = StringAttr(kind)
        return cls.create((), (), attributes, [body])  # type: ignore[return-value]

    def print(self, p) -> None:
        kind = self.loop_kind
        p.write(" " if kind == "serial" else f" {kind} ")
        p.value(self.induction_variable)
        p.write(f" = 0 to {self.extent.value} ")
        p.region(self.regions[0], print_entry_args=False)
        p.attr_dict(self, {"extent", "kind"})

    @classmethod
    def create_loop(cls, extent: int, kind: str = "serial",
                    annotations: dict[str, Attribute] | None = None) -> ForOp:
        """A loop with an empty body (its block has the induction variable)."""
        attributes = dict(annotations or {})
        attributes["extent"] = IntegerAttr(extent, i64)
        if kind != "serial":
            attributes["kind"] = StringAttr(kind)
        return cls.create((), (), attributes, [Region([Block([index])])])  # type: ignore

    @property
    def loop_kind(self) -> str:
        return self.attributes["kind"].value if "kind" in self.attributes else "serial"

    @property
    def induction_variable(self) -> Value:
        return self.regions[0].blocks[0].args[0]

    @property
    def body_block(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def annotations(self) -> dict[str, Attribute]:
        return {k: v for k, v in self.attributes.items() if k not in ("extent", "kind")}

    def verify_custom(self) -> None:
        if self.extent.value <= 0:
            raise VerificationError("expected a positive extent")
        block = self.body_block
        if len(block.args) != 1 or not isinstance(block.args[0].type, IndexType):
            raise VerificationError("the body must have one index argument, the loop variable")


@loop.op
class BlockOp(Op):
    """A unit of computation with named iteration variables (TVM's `T.block`)

    Each iteration variable has a kind (`spatial` or `reduce`), an extent, and a value
    given by an affine expression of the loop variables around the block:

        loop.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j0 * 4 + %j1),
                       %vk = reduce(128, %k))
            reads(%A[%vi, %vk], %B[%vk, %vj]) writes(%Y[%vi, %vj]) {
          loop.init { ... }
          ...
        }

    The body reads and writes buffers only at indices computed from the iteration
    variables, or from values it loaded (a gather's data-dependent index).
    `reads(...)`/`writes(...)` are the regions it accesses, inferred from the body (a
    reduction's read of its own output is not listed, as in TVM); a data-dependent
    index is `?` there (`reads(%I[%vi], %X[?, %vj])`).

    An optional predicate (TVM's `T.where`) runs the block only at the loop iterations
    where every condition holds: each is an affine expression of loop variables, less
    than a constant. `split` adds one when its factors overshoot the extent (30 split
    into 8 x 4), so a binding may leave its domain where the predicate is false:

        loop.block "Y"(%vi = spatial(30, %i0 * 4 + %i1)) where(%i0 * 4 + %i1 < 30)
            reads(%X[%vi]) writes(%Y[%vi]) { ... }
    """

    name = "loop.block"
    bindings = OperandDef(Index, variadic=True,
                          doc="the loop variables the iteration variables are computed from")
    block_name = AttrDef(StrAttr, doc="the name schedules find the block by")
    iter_kinds = AttrDef(StrAttr, doc="one letter per iteration variable: S spatial, R reduce")
    iter_extents = AttrDef(DenseArrayConstraint, doc="the extent of each iteration variable")
    binding_map = AttrDef(AffineMapConstraint, doc="iteration variables from `bindings`")
    predicate = AttrDef(AffineMapConstraint, optional=True,
                        doc="the predicate's left-hand sides, from `bindings`")
    predicate_bounds = AttrDef(DenseArrayConstraint, optional=True,
                               doc="the predicate's right-hand sides: result k of "
                                   "`predicate` must be less than bound k")
    body = RegionDef(single_block=True)
    traits = (NoTerminator, SingleBlock, RecursiveMemoryEffects)

    @classmethod
    def parse(cls, p: AsmParser) -> BlockOp:
        name = p.parse_string()
        p.parse_punctuation("(")
        variables, kinds, extents, exprs = [], [], [], []
        ssa_ids: dict[str, AffineExpr] = {}
        operands: list = []
        if not p.parse_optional_punctuation(")"):
            while True:
                variable = p.parse_argument()
                variable.type = index
                p.parse_equal()
                kind_pos = p.current_pos()
                kind = p.parse_keyword()
                if kind not in _ITER_LETTERS:
                    raise p.error("expected 'spatial' or 'reduce'", kind_pos)
                p.parse_punctuation("(")
                extents.append(p.parse_integer())
                p.parse_comma()
                expr_pos = p.current_pos()
                binding = p.parse_affine_exprs_of_ssa_ids(")", ssa_ids, operands)
                if len(binding) != 1:
                    raise p.error("expected one affine expression", expr_pos)
                exprs.extend(binding)
                variables.append(variable)
                kinds.append(_ITER_LETTERS[kind])
                if not p.parse_optional_comma():
                    break
            p.parse_punctuation(")")
        conditions = _parse_where(p, ssa_ids, operands)
        written_regions = {}
        for keyword in ("reads", "writes"):
            keyword_pos = p.current_pos()
            if p.parse_optional_keyword(keyword):
                written_regions[keyword] = keyword_pos
                p.parse_punctuation("(")
                end = closing_bracket(p.text, p.pos, ")")
                if end < 0:
                    raise p.expected("')'")
                p.pos = p.last_end = end + 1
        attributes = p.parse_optional_attr_dict_with_keyword()
        body = p.parse_region(variables, cls)
        values = p.resolve_operands(operands, [index] * len(operands))
        attributes.update(block_name=StringAttr(name), iter_kinds=StringAttr("".join(kinds)),
                          iter_extents=DenseArrayAttr(i64, tuple(extents)),
                          binding_map=AffineMapAttr(AffineMap(len(operands), 0, tuple(exprs))))
        attributes.update(_predicate_attributes(len(operands), conditions))
        op = cls.create(values, (), attributes, [body])
        after = p.pos
        for keyword, pos in written_regions.items():
            p.pos = pos
            _check_written_regions(p, op, keyword, [v.name for v in variables])
        p.pos = after
        return op  # type: ignore[return-value]

    def print(self, p) -> None:
        p.write(" ")
        p.attr(self.block_name)
        p.write("(")
        names = [p.names.get(v, "%?") for v in self.bindings]
        for i, (variable, kind, extent, expr) in enumerate(
                zip(self.iteration_variables, self.iter_kind_names, self.extents,
                    self.binding_map.value.results)):
            if i:
                p.write(", ")
            p.value(variable)
            p.write(f" = {kind}({extent}, {print_affine_expr(expr, names)})")
        p.write(")")
        conditions = self.predicate_conditions
        if conditions:
            p.write(" where(" + ", ".join(f"{print_affine_expr(expr, names)} < {bound}"
                                          for expr, bound in conditions) + ")")
        for keyword in ("reads", "writes"):
            p.write(f" {keyword}")
            p.write(self.region_text(keyword, p.names))
        p.attr_dict(self, {"block_name", "iter_kinds", "iter_extents", "binding_map",
                           "predicate", "predicate_bounds"}, keyword=True)
        p.write(" ")
        p.region(self.regions[0], print_entry_args=False)

    @classmethod
    def create_block(cls, name: str, kinds: str, extents: Sequence[int],
                     bindings: Sequence[Value], binding_map: AffineMap) -> BlockOp:
        """A block with an empty body; `kinds` has one letter per iteration variable
        (`S` spatial, `R` reduce)."""
        attributes = {"block_name": StringAttr(name), "iter_kinds": StringAttr(kinds),
                      "iter_extents": DenseArrayAttr(i64, tuple(extents)),
                      "binding_map": AffineMapAttr(binding_map)}
        body = Region([Block([index] * len(kinds))])
        return cls.create(list(bindings), (), attributes, [body])  # type: ignore

    def rebind(self, operands: Sequence[Value], binding_map: AffineMap,
               conditions: Sequence[tuple[AffineExpr, int]] | None = None) -> None:
        """Set the bindings and, when given, the predicate's conditions (affine
        expressions over `operands`, each less than its bound; empty: no predicate).
        Without `conditions` the predicate keeps its expressions, so the caller must
        not have renumbered the operands it uses."""
        self.set_operands(list(operands))
        self.attributes["binding_map"] = AffineMapAttr(binding_map)
        if conditions is None:
            conditions = self.predicate_conditions
        for key in ("predicate", "predicate_bounds"):
            self.attributes.pop(key, None)
        self.attributes.update(_predicate_attributes(len(operands), conditions))

    # ----------------------------------------------------------------- accessors

    @property
    def predicate_conditions(self) -> list[tuple[AffineExpr, int]]:
        """The predicate as (expression of the binding operands, bound) pairs: the
        block runs where every expression is less than its bound ([] when it always
        runs)."""
        predicate = self.attributes.get("predicate")
        if predicate is None:
            return []
        bounds = self.attributes["predicate_bounds"].values
        return list(zip(predicate.value.results, bounds))

    def predicate_holds(self, binding_values: Sequence[int]) -> bool:
        """Whether the block runs when its binding operands have these values."""
        return all(expr.evaluate(binding_values) < bound
                   for expr, bound in self.predicate_conditions)

    @property
    def block_name_str(self) -> str:
        return self.attributes["block_name"].value

    @property
    def body_block(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def iteration_variables(self) -> list[Value]:
        return list(self.body_block.args)

    @property
    def kinds(self) -> str:
        return self.attributes["iter_kinds"].value

    @property
    def iter_kind_names(self) -> list[str]:
        return [ITER_KINDS.get(letter, letter) for letter in self.kinds]

    @property
    def extents(self) -> tuple[int, ...]:
        return tuple(self.attributes["iter_extents"].values)

    @property
    def init(self) -> InitOp | None:
        first = self.body_block.first_op
        return first if isinstance(first, InitOp) else None

    def accesses(self) -> tuple[list[Access], list[Access]]:
        """The body's loads and the stores (init's included), as TVM's region
        inference sees them."""
        reads: list[Access] = []
        writes: list[Access] = []
        for op in self.walk_nested():
            if isinstance(op, LoadOp):
                reads.append(Access(op.memref, op.index_exprs_over(self)))
            elif isinstance(op, StoreOp):
                writes.append(Access(op.memref, op.index_exprs_over(self)))
        if self.init is not None:  # a reduction's read of its output is implied
            written = {(w.buffer, w.indices) for w in writes}
            reads = [r for r in reads if (r.buffer, r.indices) not in written]
        return _unique(reads), _unique(writes)

    def _verify_predicate(self, ranges: dict) -> None:
        predicate = self.attributes.get("predicate")
        bounds = self.attributes.get("predicate_bounds")
        if (predicate is None) != (bounds is None):
            raise VerificationError("'predicate' and 'predicate_bounds' go together")
        if predicate is None:
            return
        if predicate.value.num_dims != len(self.bindings) or predicate.value.num_symbols:
            raise VerificationError("the predicate must take one dimension per binding operand")
        if len(bounds.values) != predicate.value.num_results or not predicate.value.results:
            raise VerificationError("the predicate needs one bound per condition")
        for expr, bound in self.predicate_conditions:
            if not expr.is_pure_affine():
                raise VerificationError(f"the predicate's condition {expr} < {bound} is not "
                                        "affine")

    def walk_nested(self):
        stack = list(reversed(list(self.body_block.ops())))
        while stack:
            op = stack.pop()
            yield op
            for region in reversed(op.regions):
                for block in reversed(region.blocks):
                    stack.extend(reversed(list(block.ops())))

    def region_text(self, keyword: str, names: dict[Value, str] | None = None) -> str:
        """`(%A[%vi, %vk], %B[%vk, %vj])`: the read or write regions as printed."""
        reads, writes = self.accesses()
        accesses = reads if keyword == "reads" else writes
        variable_names = [(names or {}).get(v) or f"%v{i}"
                          for i, v in enumerate(self.iteration_variables)]
        parts = []
        for access in accesses:
            buffer = (names or {}).get(access.buffer) or "%?"
            indices = ", ".join(print_affine_expr(e, variable_names) if e is not None else "?"
                                for e in access.indices)
            parts.append(f"{buffer}[{indices}]")
        return "(" + ", ".join(parts) + ")"

    def verify_custom(self) -> None:
        kinds, extents = self.kinds, self.extents
        if any(letter not in ITER_KINDS for letter in kinds):
            raise VerificationError("iteration kinds must be 'S' (spatial) or 'R' (reduce)")
        count = len(kinds)
        binding_map = self.binding_map.value
        if len(extents) != count or binding_map.num_results != count:
            raise VerificationError(f"{count} iteration variables need {count} extents and "
                                    f"{count} bindings")
        if binding_map.num_dims != len(self.bindings) or binding_map.num_symbols:
            raise VerificationError("the binding map must take one dimension per binding "
                                    "operand")
        if len(self.body_block.args) != count:
            raise VerificationError(f"the body must have {count} index arguments, the "
                                    "iteration variables")
        if any(extent <= 0 for extent in extents):
            raise VerificationError("iteration extents must be positive")
        loops = [_defining_loop(v) for v in self.bindings]
        for position, loop_op in enumerate(loops):
            if loop_op is None:
                raise VerificationError(f"binding #{position} is not the variable of an "
                                        "enclosing loop.for")
        ranges = {_dim(d): (0, loop_op.extent.value - 1) for d, loop_op in enumerate(loops)}
        conditions = self.predicate_conditions
        self._verify_predicate(ranges)
        for i, (expr, extent) in enumerate(zip(binding_map.results, extents)):
            low, high = expr.bound(ranges)
            if high is not None and high >= extent and conditions:
                high = _upper_bound_under(expr, conditions, ranges, high)
            if high is not None and high >= extent and conditions:
                high = _largest_value_where(expr, conditions, ranges, high)
            if low is None or high is None or low < 0 or high >= extent:
                raise VerificationError(
                    f"iteration variable #{i} is bound to values in [{low}, {high}], outside "
                    f"its domain [0, {extent})")
            if kinds[i] == "R":
                for d, loop_op in enumerate(loops):
                    if expr.is_function_of_dim(d) and loop_op.loop_kind in ("parallel",
                                                                            "vectorized"):
                        raise VerificationError(
                            f"reduce iteration variable #{i} is bound to a "
                            f"{loop_op.loop_kind} loop; a reduction cannot run its steps at "
                            "once")
        init = self.init
        if init is not None and "R" not in kinds:
            raise VerificationError("only a block with reduce iteration variables has an init")
        for op in self.body_block.ops():
            if isinstance(op, InitOp) and op is not init:
                raise VerificationError("'loop.init' must be the first op of its block, and "
                                        "only one")
        _, writes = self.accesses()
        if not writes:
            raise VerificationError("the block writes no buffer")
        inside = set(self.iteration_variables)
        for op in self.walk_nested():
            for operand in op.operands:
                loop_op = _defining_loop(operand)
                if loop_op is not None and operand not in inside and _encloses(loop_op, self):
                    raise VerificationError(
                        f"'{op.name}' uses the variable of a loop around the block; a block "
                        "computes only from its iteration variables")


@loop.op
class InitOp(Op):
    """A reduction's initialisation (TVM's `T.init()`)

    The first op of a `loop.block` with reduce iteration variables; it runs before the
    block's first reduction step for each output element, i.e. when every reduce
    variable is 0:

        loop.init {
          loop.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
        }
    """

    name = "loop.init"
    body = RegionDef(single_block=True)
    traits = (NoTerminator, SingleBlock, RecursiveMemoryEffects)
    assembly_format = "$body attr-dict"

    def verify_custom(self) -> None:
        if not isinstance(self.parent_op, BlockOp):
            raise VerificationError("expects parent op 'loop.block'")


class _AccessOp(Op):
    """What loads and stores share: a buffer and affine indices over index values."""

    @property
    def index_map(self) -> AffineMap:
        return self.attributes["map"].value

    def index_exprs_over(self, block: BlockOp) -> tuple[AffineExpr | None, ...]:
        """The indices as expressions of `block`'s iteration variables (`None` for an
        index that is not a function of them alone)."""
        positions = {v: i for i, v in enumerate(block.iteration_variables)}
        replacements = []
        for value in self.indices:
            position = positions.get(value)
            replacements.append(None if position is None else _dim(position))
        results = []
        for expr in self.index_map.results:
            used = [d for d in range(len(replacements)) if expr.is_function_of_dim(d)]
            if any(replacements[d] is None for d in used):
                results.append(None)
            else:
                filled = [r if r is not None else _dim(0) for r in replacements]
                results.append(expr.replace_dims(filled))
        return tuple(results)

    def verify_indices(self, may_leave_bounds: bool = False) -> None:
        buffer_type = self.memref.type
        index_map = self.index_map
        if not isinstance(buffer_type, MemRefType):
            return
        if index_map.num_results != len(buffer_type.shape):
            raise VerificationError(f"expects {len(buffer_type.shape)} indices for "
                                    f"{buffer_type}, got {index_map.num_results}")
        if index_map.num_dims != len(self.indices) or index_map.num_symbols:
            raise VerificationError("the index map must take one dimension per index operand")
        if may_leave_bounds:
            return
        ranges = {}
        for d, value in enumerate(self.indices):
            extent = _known_extent(value)
            if extent is None:
                return
            ranges[_dim(d)] = (0, extent - 1)
        for axis, (expr, size) in enumerate(zip(index_map.results, buffer_type.shape)):
            low, high = expr.bound(ranges)
            if low is not None and high is not None and (low < 0 or high >= size):
                raise VerificationError(f"index {axis} takes values in [{low}, {high}], out "
                                        f"of the buffer's bounds [0, {size})")

    @staticmethod
    def _parse_access(p: AsmParser) -> tuple[object, list, AffineMap]:
        buffer = p.parse_operand()
        operands: list = []
        p.parse_punctuation("[")
        # `%m[]` indexes a rank-0 buffer
        exprs = [] if p.parse_optional_punctuation("]") else \
            p.parse_affine_exprs_of_ssa_ids("]", {}, operands)
        return buffer, operands, AffineMap(len(operands), 0, tuple(exprs))

    def _print_access(self, p, printed: set[str] = frozenset()) -> None:
        p.value(self.memref)
        names = [p.names.get(v, "%?") for v in self.indices]
        p.write("[" + ", ".join(print_affine_expr(e, names) for e in self.index_map.results)
                + "]")
        padding = self.attributes.get("padding")
        if padding is not None and "padding" in printed:
            p.write(" padding(")
            p.attr(padding)
            p.write(")")
        p.attr_dict(self, {"map", *printed})
        p.write(" : ")
        p.type(self.memref.type)


@loop.op
class LoadOp(_AccessOp):
    """Reads one element of a buffer at affine indices

        %a = loop.load %A[%vi, %vk * 2 + 1] : memref<128x257xf32>

    With `padding`, indices outside the buffer read that value instead (a padded
    convolution's input), so the indices may leave the buffer's bounds:

        %x = loop.load %X[%vh - 1, %vw - 1] padding(0.000000e+00 : f32) : memref<8x8xf32>

    An index operand may also be a value computed in the block (a gather's index, read
    from a tensor and `arith.index_cast`); the verifier cannot bound such an access, the
    interpreter reports it when it leaves the buffer:

        %i = arith.index_cast %n : i32 to index
        %x = loop.load %X[%i, %vj] : memref<5x3xf32>
    """

    name = "loop.load"
    memref = OperandDef(AnyMemRef, doc="the buffer")
    indices = OperandDef(Index, variadic=True, doc="the values the indices are computed from")
    map = AttrDef(AffineMapConstraint, doc="the indices from `indices`")
    padding = AttrDef(TypedAttr, optional=True,
                      doc="the value read at indices outside the buffer")
    result = ResultDef(AnyType, doc="the element")
    traits = (MemoryEffects(Read("memref")),)

    @classmethod
    def parse(cls, p: AsmParser) -> LoadOp:
        buffer, operands, index_map = cls._parse_access(p)
        padding = None
        if p.parse_optional_keyword("padding"):
            p.parse_punctuation("(")
            padding = p.parse_attribute()
            p.parse_punctuation(")")
        attributes = p.parse_optional_attr_dict()
        type_pos = p.current_pos()
        buffer_type = p.parse_colon_type()
        if not isinstance(buffer_type, MemRefType):
            raise p.error("expected a memref type", type_pos)
        values = [p.resolve_operand(buffer, buffer_type),
                  *p.resolve_operands(operands, [index] * len(operands))]
        attributes["map"] = AffineMapAttr(index_map)
        if padding is not None:
            attributes["padding"] = padding
        return cls.create(values, [buffer_type.element_type], attributes)  # type: ignore

    def print(self, p) -> None:
        p.write(" ")
        self._print_access(p, {"padding"})

    def verify_custom(self) -> None:
        element_type = getattr(self.memref.type, "element_type", None)
        if element_type is not None and self.result.type != element_type:
            raise VerificationError("result type must be the buffer's element type")
        padding = self.attributes.get("padding")
        if padding is not None and getattr(padding, "type", None) != element_type:
            raise VerificationError(f"padding must be a {element_type} value")
        self.verify_indices(may_leave_bounds=padding is not None)


@loop.op
class StoreOp(_AccessOp):
    """Writes one element of a buffer at affine indices

        loop.store %v, %Y[%vi, %vj] : memref<128x128xf32>
    """

    name = "loop.store"
    value = OperandDef(AnyType, doc="the element written")
    memref = OperandDef(AnyMemRef, doc="the buffer")
    indices = OperandDef(Index, variadic=True, doc="the values the indices are computed from")
    map = AttrDef(AffineMapConstraint, doc="the indices from `indices`")
    traits = (MemoryEffects(Write("memref")),)

    @classmethod
    def parse(cls, p: AsmParser) -> StoreOp:
        value = p.parse_operand()
        p.parse_comma()
        buffer, operands, index_map = cls._parse_access(p)
        attributes = p.parse_optional_attr_dict()
        type_pos = p.current_pos()
        buffer_type = p.parse_colon_type()
        if not isinstance(buffer_type, MemRefType):
            raise p.error("expected a memref type", type_pos)
        values = [p.resolve_operand(value, buffer_type.element_type),
                  p.resolve_operand(buffer, buffer_type),
                  *p.resolve_operands(operands, [index] * len(operands))]
        attributes["map"] = AffineMapAttr(index_map)
        return cls.create(values, (), attributes)  # type: ignore[return-value]

    def print(self, p) -> None:
        p.write(" ")
        p.value(self.value)
        p.write(", ")
        self._print_access(p)

    def verify_custom(self) -> None:
        if isinstance(self.memref.type, MemRefType) and \
                self.value.type != self.memref.type.element_type:
            raise VerificationError("the value's type must be the buffer's element type")
        self.verify_indices()


@loop.op
class CheckIndexOp(Op):
    """Checks an index read from data against the extent of the axis it addresses

    A scatter matches positions instead of loading at its indices, so no access would
    check them; it checks each one in a stage of its own. The result is the index when
    it lies in [0, bound), else 0 (a safe position), and the failure is reported as
    an out-of-range access is (the interpreter raises; native code records it for the
    runtime, see :mod:`mlc.loop.index_checks`). `target` names what the index
    addresses, for the message:

        %t = loop.check_index %i {bound = 4 : i64, target = "index 0 of %p0 : memref<4x3xf32>"} : i64
    """

    name = "loop.check_index"
    index = OperandDef(AnyType, doc="the index (a signless integer)")
    bound = AttrDef(IntAttrOf(i64), doc="the extent of the axis it addresses")
    target = AttrDef(StrAttr, doc="the axis and buffer it addresses, for the message")
    result = ResultDef(AnyType, doc="the index, or 0 when it is out of range")
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = "$index attr-dict `:` type($result)"

    @classmethod
    def build_check(cls, index: Value, bound: int, target: str) -> CheckIndexOp:
        """`index` checked against [0, `bound`)."""
        return cls.create([index], [index.type], {"bound": IntegerAttr(bound, i64),
                                                  "target": StringAttr(target)})

    def verify_custom(self) -> None:
        type_ = self.index.type
        if not isinstance(type_, IntegerType) or type_.width == 1:
            raise VerificationError(f"the index must be an integer, not {type_}")
        if self.attributes["bound"].value < 0:
            raise VerificationError("the bound must not be negative")


# ------------------------------------------------------------------ helpers

ENUMERATED_POINTS = 1 << 20
"""How many loop iterations the verifier visits, at most, to bound a binding under a
predicate the interval reasoning cannot see through (a fused loop split again)."""


def _largest_value_where(expr: AffineExpr, conditions: Sequence[tuple[AffineExpr, int]],
                         ranges: dict, high: int) -> int:
    """The largest value `expr` takes at the points of `ranges` where the predicate
    holds, found by visiting them (numpy) when they are at most ENUMERATED_POINTS;
    `high` otherwise."""
    import numpy as np

    used = sorted({d for d in ranges if expr.is_function_of_dim(d.position)
                   or any(c.is_function_of_dim(d.position) for c, _ in conditions)},
                  key=lambda d: d.position)
    count = 1
    for d in used:
        count *= ranges[d][1] - ranges[d][0] + 1
    if count > ENUMERATED_POINTS:
        return high
    grids = np.meshgrid(*[np.arange(ranges[d][0], ranges[d][1] + 1, dtype=np.int64)
                          for d in used], indexing="ij")
    values: list = [0] * (max(d.position for d in ranges) + 1)
    for d, grid in zip(used, grids):
        values[d.position] = grid.reshape(-1)
    holds = np.ones(count, bool)
    for condition, bound in conditions:
        holds &= np.asarray(condition.evaluate(values)) < bound
    if not holds.any():
        return -1
    return int(np.broadcast_to(np.asarray(expr.evaluate(values)), (count,))[holds].max())


def _parse_where(p: AsmParser, ssa_ids: dict[str, AffineExpr], operands: list
                 ) -> list[tuple[AffineExpr, int]]:
    """`where(%i0 * 4 + %i1 < 30, ...)` after a block's iteration variables, if there;
    its loop variables join the bindings' operands."""
    if not p.parse_optional_keyword("where"):
        return []
    p.parse_punctuation("(")
    conditions = []
    while True:
        expr_pos = p.current_pos()
        if closing_bracket(p.text, p.pos, "<") < 0:
            raise p.error("expected a condition `expression < constant`", expr_pos)
        exprs = p.parse_affine_exprs_of_ssa_ids("<", ssa_ids, operands)
        if len(exprs) != 1:
            raise p.error("expected one affine expression before '<'", expr_pos)
        conditions.append((exprs[0], p.parse_integer()))
        if not p.parse_optional_comma():
            break
    p.parse_punctuation(")")
    return conditions


def _predicate_attributes(num_operands: int, conditions: Sequence[tuple[AffineExpr, int]]
                          ) -> dict[str, Attribute]:
    if not conditions:
        return {}
    return {"predicate": AffineMapAttr(AffineMap(num_operands, 0,
                                                 tuple(e for e, _ in conditions))),
            "predicate_bounds": DenseArrayAttr(i64, tuple(b for _, b in conditions))}


def _upper_bound_under(expr: AffineExpr, conditions: Sequence[tuple[AffineExpr, int]],
                       ranges: dict, high: int) -> int:
    """The largest value `expr` takes where the predicate holds, as far as its
    conditions `c < bound` show it, or `high`. Two views of each condition: `expr - c`
    bounded above (`expr` is `c` plus a small offset), and `c` as an atom taking values
    below `bound` where it is a subexpression of `expr` (a fused `c floordiv 6`)."""
    atom = _dim(max((d.position for d in ranges), default=-1) + 1)
    for condition, bound in conditions:
        difference = constant(0) if condition == expr else expr - condition
        _, extra = difference.bound(ranges)
        if extra is not None:
            high = min(high, bound - 1 + extra)
        replaced = expr.replace({condition: atom})
        low_c, _ = condition.bound(ranges)
        if low_c is not None and low_c >= bound:
            return -1  # the predicate never holds: the block never runs
        if replaced != expr:
            _, limit = replaced.bound({**ranges, atom: (low_c, bound - 1)})
            if limit is not None:
                high = min(high, limit)
    return high


class Access:
    """One access of a block's body: a buffer and its indices as expressions of the
    block's iteration variables (`None` where an index is not)."""

    __slots__ = ("buffer", "indices")

    def __init__(self, buffer: Value, indices: tuple[AffineExpr | None, ...]):
        self.buffer = buffer
        self.indices = indices


def _unique(accesses: list[Access]) -> list[Access]:
    seen: set = set()
    result = []
    for access in accesses:
        key = (access.buffer, access.indices)
        if key not in seen:
            seen.add(key)
            result.append(access)
    return result


def _dim(position: int) -> AffineExpr:
    from mlc.ir.core.affine_expr import dim

    return dim(position)


def _defining_loop(value: Value) -> ForOp | None:
    """The loop.for whose induction variable `value` is, if it is one."""
    owner = getattr(value, "owner", None)
    if isinstance(owner, Block) and owner.parent_op is not None and \
            isinstance(owner.parent_op, ForOp):
        return owner.parent_op
    return None


def _encloses(outer: Operation, inner: Operation) -> bool:
    op = inner.parent_op
    while op is not None:
        if op is outer:
            return True
        op = op.parent_op
    return False


def _known_extent(value: Value) -> int | None:
    """How many values an index takes, when it is a block's iteration variable or a
    loop variable (both start at 0)."""
    owner = getattr(value, "owner", None)
    if not isinstance(owner, Block) or owner.parent_op is None:
        return None
    parent = owner.parent_op
    if isinstance(parent, ForOp):
        return parent.extent.value
    if isinstance(parent, BlockOp):
        return parent.extents[value.index]
    return None


def _parse_region_indices(p: AsmParser, seed: dict[str, AffineExpr],
                          keyword: str) -> tuple[AffineExpr | None, ...]:
    """The indices of one region in `reads(...)`/`writes(...)`, after its `[`: affine
    expressions of the iteration variables, or `?` for a data-dependent index."""
    if p.parse_optional_punctuation("]"):
        return ()
    start = p.current_pos()
    end = closing_bracket(p.text, start, "]")
    if end < 0:
        raise p.expected("']'")
    pieces, depth, begin = [], 0, start
    for pos in range(start, end + 1):
        char = p.text[pos]
        depth += {"(": 1, ")": -1}.get(char, 0)
        if (char == "," and depth == 0) or pos == end:
            pieces.append((begin, pos))
            begin = pos + 1
    indices: list[AffineExpr | None] = []
    for begin, stop in pieces:
        if p.text[begin:stop].strip() == "?":
            indices.append(None)
            continue
        names = dict(seed)
        try:
            [expr] = parse_affine_exprs_of_ssa_ids(p.text, begin, stop, names)
        except AffineParseError as exc:
            raise p.error(exc.message, exc.offset) from None
        if len(names) != len(seed):
            raise p.error(f"{keyword} may only index by the block's iteration variables "
                          "(or `?` for an index computed from data)", begin)
        indices.append(expr)
    p.pos = p.last_end = end + 1
    return tuple(indices)


def _check_written_regions(p: AsmParser, op: BlockOp, keyword: str,
                           variable_names: list[str]) -> None:
    """Read `reads(...)` or `writes(...)` at the cursor and check it lists what the
    block's body accesses (a parse error at the list otherwise)."""
    start = p.current_pos()
    p.parse_keyword(keyword)
    p.parse_punctuation("(")
    seed = {name: _dim(i) for i, name in enumerate(variable_names)}
    written = []
    if not p.parse_optional_punctuation(")"):
        while True:
            buffer = p.parse_operand()[0]
            p.parse_punctuation("[")
            written.append((buffer, _parse_region_indices(p, seed, keyword)))
            if not p.parse_optional_comma():
                break
        p.parse_punctuation(")")
    reads, writes = op.accesses()
    inferred = [(a.buffer, a.indices) for a in (reads if keyword == "reads" else writes)]
    if set(written) != set(inferred):
        names = {v: n for n, (group, _) in p.state.values.items() for v in group}
        names.update(zip(op.iteration_variables, variable_names))
        raise p.error(f"{keyword} do not match the body, which accesses "
                      f"{op.region_text(keyword, names)}", start)


__all__ = ["AllocBufferOp", "BlockOp", "CheckIndexOp", "ForOp", "InitOp", "LoadOp", "StoreOp",
           "ViewOp", "byte_size", "loop",
           "Access", "LOOP_KINDS", "ITER_KINDS"]
