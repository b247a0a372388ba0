"""`loop-lower`: scheduled loop IR to MLIR's standard dialects, as a dialect conversion.

- `loop.for` becomes `scf.for` (serial), `scf.parallel` (parallel), its body repeated
  with the variable a constant (unrolled), or vector ops over its iterations
  (vectorized, see :mod:`mlc.loop.vectorize`; a loop it cannot vectorize stays a
  serial `scf.for`, and the pass says why in a remark);
- `loop.block` disappears: its body is inlined where it stood, each iteration
  variable computed from the loop variables by its binding (arith on `index`);
- a block's `loop.init` becomes an `scf.if` on "every reduce variable is 0"
  (predicated), before the rest of the block's body; a block's predicate (`where`)
  becomes an `scf.if` around all of it;
- `loop.load`/`loop.store` become `memref.load`/`memref.store` at the indices their
  affine maps compute; a padded load is an `scf.if` on the indices being in bounds,
  yielding the padding otherwise; an index loaded from data (a gather's) is checked
  against its bound, and a failure recorded for the runtime to report
  (:mod:`mlc.loop.index_checks`), as is a `loop.check_index` (a scatter's);
- loops whose blocks have a predicate are first peeled, so the full tiles run without
  it (:mod:`mlc.loop.peel`);
- each `loop.alloc_buffer` is first shrunk to the box one loop iteration uses
  (:mod:`mlc.loop.compact`), then becomes a `memref.alloca` at its function's entry
  when small (`STACK_BUFFER_BYTES`), else a `memref.alloc` freed by a
  `memref.dealloc` before each return of its function; `loop.view` (planned storage) becomes `memref.view`; a
  `loop.constant` (weights) becomes a private constant `memref.global` read with
  `memref.get_global`.

`loop-invariant-code-motion` and `canonicalize` clean the result (index arithmetic
hoisted out of loops, constants shared).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from mlc.ir.core.affine_bounds import _linear_form
from mlc.ir.core.affine_expr import AffineExpr, constant
from mlc.ir.core.affine_map import AffineMapAttr
from mlc.ir.core.attributes import (
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    VectorType,
    i1,
    i64,
)
from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects import arith, memref, scf
from mlc.ir.dialects.arith.casts import IndexCastOp
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.dialects.func import FuncOp, ReturnOp
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import (
    ConversionPattern,
    ConversionTarget,
    apply_partial_conversion,
)
from mlc.ir.rewrite.pattern import PatternSet
from mlc.loop.index_checks import IndexChecks
from mlc.loop.indexing import access_over_bindings
from mlc.loop.ops import (
    AllocBufferOp,
    BlockOp,
    CheckIndexOp,
    ConstantOp,
    ForOp,
    LoadOp,
    StoreOp,
    ViewOp,
    byte_size,
)

index = IndexType()


# ------------------------------------------------------------------ index arithmetic


class IndexBuilder:
    """Emits the arith ops computing affine expressions of index values, through a
    rewriter, sharing the constants it makes (and, with a `shared` cache, the
    expressions computed before in the same block: what the unrolled copies of a
    tile share)."""

    def __init__(self, rewriter, shared: ValueCache | None = None):
        self.rewriter = rewriter
        self.shared = shared
        self.constants: dict[int, Value] = {}

    def constant(self, value: int) -> Value:
        known = self.constants.get(value)
        if known is None and self.shared is not None:
            known = self.shared.get(self.rewriter, ("constant", value))
        if known is None:
            known = self.rewriter.insert(
                arith.ConstantOp.build(value=IntegerAttr(value, index))).results[0]
            if self.shared is not None:
                self.shared.put(self.rewriter, ("constant", value), known)
        self.constants[value] = known
        return known

    def shared_expr(self, expr: AffineExpr, operands: Sequence[Value]) -> Value:
        """`expr`, computed once per block when a shared cache is given."""
        if self.shared is None or expr.kind.name in ("DIM", "CONSTANT"):
            return self.expr(expr, operands)
        used = tuple(operands[d] if expr.is_function_of_dim(d) else None
                     for d in range(len(operands)))
        key = ("expr", expr, used)
        known = self.shared.get(self.rewriter, key)
        if known is None:
            known = self.expr(expr, operands)
            self.shared.put(self.rewriter, key, known)
        return known

    def binary(self, op_class, lhs: Value, rhs: Value) -> Value:
        return self.rewriter.insert(op_class.build(lhs, rhs)).results[0]

    def expr(self, expr: AffineExpr, operands: Sequence[Value]) -> Value:
        """The value of `expr` (dimension d is operands[d]), with floordiv and mod
        rounding toward minus infinity as affine maps do."""
        kind = expr.kind.name
        if kind == "DIM":
            return operands[expr.position]
        if kind == "CONSTANT":
            return self.constant(expr.value)
        if kind == "ADD":
            rhs = expr.rhs
            if rhs.kind.name == "MUL" and rhs.rhs.kind.name == "CONSTANT" and rhs.rhs.value == -1:
                return self.binary(arith.SubIOp, self.expr(expr.lhs, operands),
                                   self.expr(rhs.lhs, operands))
            if rhs.kind.name == "CONSTANT" and rhs.value < 0:
                return self.binary(arith.SubIOp, self.expr(expr.lhs, operands),
                                   self.constant(-rhs.value))
            return self.binary(arith.AddIOp, self.expr(expr.lhs, operands),
                               self.expr(rhs, operands))
        lhs, rhs = self.expr(expr.lhs, operands), self.expr(expr.rhs, operands)
        if kind == "MUL":
            return self.binary(arith.MulIOp, lhs, rhs)
        if kind == "FLOORDIV":
            return self.binary(arith.FloorDivSIOp, lhs, rhs)
        if kind == "CEILDIV":
            return self.binary(arith.CeilDivSIOp, lhs, rhs)
        # mod: the remainder moved into [0, rhs) (rhs is a positive constant)
        remainder = self.binary(arith.RemSIOp, lhs, rhs)
        shifted = self.binary(arith.AddIOp, remainder, rhs)
        negative = self.compare("slt", remainder, self.constant(0))
        return self.rewriter.insert(arith.SelectOp.build(negative, shifted, remainder)).results[0]

    def compare(self, predicate: str, lhs: Value, rhs: Value) -> Value:
        """`arith.cmpi predicate, lhs, rhs`."""
        return self.rewriter.insert(arith.CmpIOp.build(
            lhs, rhs, predicate=arith.CmpIPredicate.attr(predicate))).results[0]

    def init_guard(self, values: Sequence[Value], kinds: str) -> scf.IfOp:
        """An `scf.if` (no else) on "every reduce iteration variable is 0": where a
        block's init runs, before its first reduction step."""
        zero = self.constant(0)
        first_step = [self.compare("eq", value, zero)
                      for value, kind in zip(values, kinds) if kind == "R"]
        return self.rewriter.insert(scf.IfOp.create_if(self.all_of(first_step),
                                                       with_else=False))

    def predicate_guard(self, conditions: Sequence[tuple[AffineExpr, int]],
                        operands: Sequence[Value]) -> scf.IfOp:
        """An `scf.if` (no else) on a block's predicate: every condition's expression
        of `operands` less than its bound."""
        holds = [self.compare("slt", self.expr(expr, operands), self.constant(bound))
                 for expr, bound in conditions]
        return self.rewriter.insert(scf.IfOp.create_if(self.all_of(holds), with_else=False))

    def all_of(self, conditions: list[Value]) -> Value:
        if not conditions:
            return self.rewriter.insert(arith.ConstantOp.build(
                value=IntegerAttr(1, i1))).results[0]
        result = conditions[0]
        for condition in conditions[1:]:
            result = self.binary(arith.AndIOp, result, condition)
        return result


class ValueCache:
    """Values emitted into a block, found again by a key while later ops are emitted
    into the same block (so they dominate them): the lowering's common
    subexpressions, shared as they are made rather than found by CSE afterwards."""

    def __init__(self):
        self.values: dict[tuple, Value] = {}

    REACH = 512
    """How far (in ops) a cached value may stand before the insertion point: the
    conversion does not always lower a block's ops in order, so a value made for a
    later op must not serve an earlier one; one farther than this is made again."""

    def get(self, rewriter, key: tuple) -> Value | None:
        block = rewriter.block
        value = self.values.get((id(block), key))
        if value is None:
            return None
        owner = value.defining_op
        if owner is None or owner.parent is not block:  # rolled back or moved
            return None
        # It must come before where the new op goes (rewriter.before; None: the end).
        op, steps = owner.next_op, 0
        while op is not rewriter.before:
            if op is None or steps > self.REACH:
                return None
            op, steps = op.next_op, steps + 1
        return value

    def put(self, rewriter, key: tuple, value: Value) -> None:
        self.values[(id(rewriter.block), key)] = value


class FlatAccess:
    """Buffer accesses lowered to one linear offset into a one-dimensional view of the
    buffer (`memref.collapse_shape`, made once per buffer): the offset is the affine
    sum of the indices times the row-major strides, split into a part shared by the
    accesses of a block (computed once) and a constant (one `addi`). An unrolled tile's
    copies differ by constants only, so each access costs one add instead of a product
    and a sum per axis."""

    def __init__(self):
        self.views: dict[Value, Value] = {}
        self.cache = ValueCache()

    def view(self, rewriter, buffer: Value) -> Value:
        """The buffer as a one-dimensional memref (itself when it is one already)."""
        buffer_type = buffer.type
        if len(buffer_type.shape) <= 1 or buffer_type.layout is not None:
            return buffer
        known = self.views.get(buffer)
        if known is not None and known.defining_op is not None \
                and known.defining_op.parent is not None:
            return known
        flat_type = MemRefType((math.prod(buffer_type.shape),), buffer_type.element_type,
                               None, buffer_type.memory_space)
        groups = ArrayAttr((ArrayAttr(tuple(IntegerAttr(d, i64)
                                            for d in range(len(buffer_type.shape)))),))
        with rewriter.insertion_point():
            owner = buffer.defining_op
            if owner is not None:
                rewriter.set_insertion_point_after(owner)
            else:
                rewriter.set_insertion_point_to_start(buffer.owner)
            view = rewriter.insert(memref.CollapseShapeOp.build(
                buffer, reassociation=groups, result_types=[flat_type])).results[0]
        view.name_hint = (buffer.name_hint or "buffer") + "_flat"
        self.views[buffer] = view
        return view

    def offset(self, rewriter, ints: IndexBuilder, exprs: Sequence[AffineExpr],
               operands: Sequence[Value], shape: Sequence[int]) -> list[Value]:
        """The index into the flat view of the element at `exprs` (the buffer's
        indices over `operands`), as a one-element list (rank 0: none)."""
        if len(shape) == 0:
            return []
        if len(shape) == 1:
            return [self._split(ints, exprs[0], operands)]
        linear: AffineExpr = constant(0)
        stride = 1
        for expr, size in zip(reversed(exprs), reversed(shape)):
            linear = linear + expr * stride
            stride *= size
        return [self._split(ints, linear, operands)]

    def linear(self, ints: IndexBuilder, values: Sequence[Value], shape: Sequence[int]
               ) -> list[Value]:
        """The index into the flat view of the element at the per-axis index `values`
        (for checked data-dependent indices, computed axis by axis)."""
        if len(shape) <= 1:
            return list(values)
        total: Value | None = None
        stride = 1
        for value, size in zip(reversed(values), reversed(shape)):
            term = value if stride == 1 else ints.binary(arith.MulIOp, value,
                                                         ints.constant(stride))
            total = term if total is None else ints.binary(arith.AddIOp, total, term)
            stride *= size
        return [total]

    def _split(self, ints: IndexBuilder, expr: AffineExpr, operands) -> Value:
        terms, offset = _linear_form(expr)
        if not terms:
            return ints.constant(offset)
        base = ints.shared_expr(expr - offset, operands)
        return base if offset == 0 else ints.binary(arith.AddIOp, base, ints.constant(offset))


# ------------------------------------------------------------------ patterns


STACK_BUFFER_BYTES = 64 << 10
"""Kernel buffers up to this size live on the stack (`memref.alloca` at the function's
entry, which LLVM promotes to registers when its accesses have constant offsets: a
compacted register tile); larger ones, and the buffers of a function that only calls
kernels (a model's entry: its workspace), on the heap."""


def _kernels(root: Operation) -> set[Operation]:
    """The functions under `root` that compute with loop blocks (kernels), as opposed
    to a model's entry that calls kernels, whose buffers are its planned workspace."""
    return {fn for fn in root.walk() if isinstance(fn, FuncOp)
            and any(isinstance(o, BlockOp) for o in fn.walk())}


class LowerAllocBuffer(ConversionPattern):
    root = AllocBufferOp

    def __init__(self, kernels: set[Operation]):
        super().__init__()
        self.kernels = kernels

    def match_and_rewrite(self, op, adaptor, rewriter):
        buffer_type = op.results[0].type
        function = op.parent_op
        while function is not None and not isinstance(function, FuncOp):
            function = function.parent_op
        size = byte_size(buffer_type)
        if function is not None and size is not None and size <= STACK_BUFFER_BYTES \
                and function in self.kernels:
            with rewriter.insertion_point():
                entry = function.regions[0].blocks[0]
                first = entry.first_op
                while first is not None and isinstance(first, memref.AllocaOp):
                    first = first.next_op  # after the allocas made before, in order
                if first is None:
                    rewriter.set_insertion_point_to_end(entry)
                else:
                    rewriter.set_insertion_point_before(first)
                alloca = rewriter.insert(memref.AllocaOp.build([], [],
                                                               result_types=[buffer_type]))
            alloca.results[0].name_hint = op.results[0].name_hint
            rewriter.replace_op(op, alloca.results)
            return True
        alloc = rewriter.insert(memref.AllocOp.build([], [], result_types=[buffer_type]))
        alloc.results[0].name_hint = op.results[0].name_hint
        returns = [o for o in function.walk() if isinstance(o, ReturnOp)] if function else []
        with rewriter.insertion_point():
            for ret in returns:
                rewriter.set_insertion_point_before(ret)
                rewriter.insert(memref.DeallocOp.build(alloc.results[0]))
        rewriter.replace_op(op, alloc.results)
        return True


class LowerFor(ConversionPattern):
    root = ForOp
    bounded_recursion = True  # an unrolled loop's copies hold its nested loops

    def __init__(self, remarks: list | None = None, flat: FlatAccess | None = None):
        super().__init__()
        self.remarks = remarks
        self.flat = flat or FlatAccess()

    def match_and_rewrite(self, op, adaptor, rewriter):
        kind = op.loop_kind
        if kind == "vectorized":
            from mlc.loop.vectorize import vectorize_loop

            if vectorize_loop(op, rewriter, self.remarks, self.flat):
                return True
        if kind == "unrolled":
            body = op.body_block
            for iteration in range(op.extent.value):
                value = IndexBuilder(rewriter).constant(iteration)
                mapping = {body.args[0]: value}
                for inner in body.ops():
                    rewriter.clone(inner, mapping)
            rewriter.erase_op(op)
            return True
        ints = IndexBuilder(rewriter)
        lower, upper, one = ints.constant(0), ints.constant(op.extent.value), ints.constant(1)
        if kind == "parallel":
            body = Block([index])
            new = rewriter.insert(scf.ParallelOp.build([lower], [upper], [one], [],
                                                       result_types=[],
                                                       regions=[Region([body])]))
            body.append(scf.ReduceOp.build([], regions=[]))
            target = new.body
        else:
            new = rewriter.insert(scf.ForOp.create_for(lower, upper, one))
            target = new.body
        new_variable = target.args[0]
        new_variable.name_hint = op.induction_variable.name_hint
        rewriter.inline_block_before(op.body_block, target.last_op, [new_variable])
        rewriter.erase_op(op)
        return True


class LowerBlock(ConversionPattern):
    root = BlockOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        ints = IndexBuilder(rewriter)
        operands = list(adaptor.bindings)
        # Accesses index by the loop variables directly, their maps composed with the
        # bindings and simplified with the loops' ranges (see mlc.loop.indexing).
        for access in [o for o in op.walk_nested() if isinstance(o, (LoadOp, StoreOp))]:
            index_map, indices = access_over_bindings(access, op, operands)
            fixed = list(access.operands)[:len(access.operands) - len(access.indices)]
            with rewriter.modify_op_in_place(access):
                access.set_operands([*fixed, *indices])
                access.attributes["map"] = AffineMapAttr(index_map)
        values = [ints.expr(expr, operands) for expr in op.binding_map.value.results]
        body_end: Operation = op
        if op.predicate_conditions:
            where = ints.predicate_guard(op.predicate_conditions, operands)
            body_end = where.then_block.last_op
            rewriter.set_insertion_point_before(body_end)
        init = op.init
        if init is not None:
            guard = ints.init_guard(values, op.kinds)  # predicated
            rewriter.inline_block_before(init.regions[0].blocks[0], guard.then_block.last_op,
                                         [])
            rewriter.erase_op(init)
        rewriter.inline_block_before(op.body_block, body_end, values)
        rewriter.erase_op(op)
        return True


class _AccessPattern(ConversionPattern):
    """A pattern lowering an access of a buffer: through the flat views and the index
    checks loop-lower shares between its patterns."""

    def __init__(self, flat: FlatAccess, checks: IndexChecks):
        super().__init__()
        self.flat = flat
        self.checks = checks


class LowerLoad(_AccessPattern):
    root = LoadOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        ints = IndexBuilder(rewriter, self.flat.cache)
        buffer = adaptor.memref
        element = op.results[0].type
        padding = op.attributes.get("padding")
        offset, view, checks = _lowered_access(op, adaptor, rewriter, ints, self.flat,
                                               self.checks, padding is not None)
        if padding is None:
            load = rewriter.insert(memref.LoadOp.build(view, offset, result_types=[element]))
            rewriter.replace_op(op, load.results)
            return True
        rewriter.replace_op(op, [padded_load(rewriter, ints, view, offset, padding,
                                             checks=checks, shape=buffer.type.shape)])
        return True


def _lowered_access(op, adaptor, rewriter, ints: IndexBuilder, flat: FlatAccess,
                    checks: IndexChecks, per_axis: bool):
    """(the offset into the flat view, the view, the per-axis indices when `per_axis`)
    of a loop.load or loop.store: its data-dependent indices bounds-checked
    (mlc.loop.index_checks), each axis then computed on its own."""
    buffer = adaptor.memref
    operands = list(adaptor.indices)
    exprs = op.index_map.results
    view = flat.view(rewriter, buffer)
    if op in checks.unbounded:
        values = checks.checked(op, [ints.expr(e, operands) for e in exprs], rewriter, ints)
        return flat.linear(ints, values, buffer.type.shape), view, values
    values = [ints.expr(e, operands) for e in exprs] if per_axis else []
    return flat.offset(rewriter, ints, exprs, operands, buffer.type.shape), view, values


def padded_load(rewriter, ints: IndexBuilder, buffer: Value, indices: Sequence[Value],
                padding, width: int | None = None, checks: Sequence[Value] = (),
                shape: Sequence[int] = ()) -> Value:
    """A read of `buffer` at `indices` that gives `padding` where the element is
    outside the buffer: an `scf.if` on every index of `checks` lying within its axis
    of `shape`, yielding the element (with `width`, the `vector<width>` starting
    there), else the padding (broadcast)."""
    from mlc.ir.dialects.vector import BroadcastOp
    from mlc.ir.dialects.vector.memory import LoadOp as VectorLoad

    element = buffer.type.element_type
    result = element if width is None else VectorType((width,), element)
    conditions = []
    for value, size in zip(checks, shape):
        conditions.append(ints.compare("sge", value, ints.constant(0)))
        conditions.append(ints.compare("slt", value, ints.constant(size)))
    guard = rewriter.insert(scf.IfOp.create_if(ints.all_of(conditions), [result]))
    with rewriter.insertion_point():
        rewriter.set_insertion_point_to_end(guard.then_block)
        load = rewriter.insert(
            memref.LoadOp.build(buffer, indices, result_types=[result]) if width is None
            else VectorLoad.build(buffer, indices, result_types=[result]))
        rewriter.insert(scf.YieldOp.build(load.results))
        rewriter.set_insertion_point_to_end(guard.else_block)
        pad = rewriter.insert(arith.ConstantOp.build(value=padding)).results[0]
        if width is not None:
            pad = rewriter.insert(BroadcastOp.build(pad, result_types=[result])).results[0]
        rewriter.insert(scf.YieldOp.build([pad]))
    return guard.results[0]


class LowerView(ConversionPattern):
    root = ViewOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        view = rewriter.insert(memref.ViewOp.build(
            adaptor.source, IndexBuilder(rewriter).constant(0), [],
            result_types=[op.results[0].type]))
        view.results[0].name_hint = op.results[0].name_hint
        rewriter.replace_op(op, view.results)
        return True


class LowerConstant(ConversionPattern):
    """A constant buffer becomes a private constant `memref.global` of the module,
    read with `memref.get_global` (MLIR's form; weights stay `dense_resource` blobs)."""

    root = ConstantOp

    def __init__(self, symbols: set[str]):
        super().__init__()
        self.symbols = symbols

    def match_and_rewrite(self, op, adaptor, rewriter):
        module = op.parent_op
        while module is not None and not isinstance(module, ModuleOp):
            module = module.parent_op
        if module is None:
            return False
        buffer_type = op.results[0].type
        base = "__constant_" + "".join(c if c.isalnum() or c == "_" else "_"
                                       for c in (op.results[0].name_hint or "buffer"))
        name, n = base, 0
        while name in self.symbols:
            n += 1
            name = f"{base}_{n}"
        self.symbols.add(name)
        with rewriter.insertion_point():
            rewriter.set_insertion_point_to_start(module.regions[0].blocks[0])
            rewriter.insert(memref.GlobalOp.build(
                sym_name=StringAttr(name), sym_visibility=StringAttr("private"),
                type=TypeAttr(buffer_type), initial_value=op.attributes["value"],
                constant=UnitAttr()))
        read = rewriter.insert(memref.GetGlobalOp.build(
            name=SymbolRefAttr(name), result_types=[buffer_type]))
        read.results[0].name_hint = op.results[0].name_hint
        rewriter.replace_op(op, read.results)
        return True


class LowerCheckIndex(_AccessPattern):
    root = CheckIndexOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        ints = IndexBuilder(rewriter, self.flat.cache)
        integer = adaptor.index.type
        as_index = rewriter.insert(IndexCastOp.build(adaptor.index,
                                                     result_types=[index])).results[0]
        safe = self.checks.checked_index(op, as_index, rewriter, ints)
        rewriter.replace_op(op, rewriter.insert(IndexCastOp.build(
            safe, result_types=[integer])).results)
        return True


class LowerStore(_AccessPattern):
    root = StoreOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        ints = IndexBuilder(rewriter, self.flat.cache)
        offset, view, _ = _lowered_access(op, adaptor, rewriter, ints, self.flat, self.checks,
                                          False)
        rewriter.insert(memref.StoreOp.build(adaptor.value, view, offset))
        rewriter.erase_op(op)
        return True


def lowering_target() -> ConversionTarget:
    target = ConversionTarget()
    target.add_illegal_dialect("loop")
    return target


def lower_loops(root: Operation) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Lower every loop op under `root` (see the module docstring): the errors (then
    nothing changed) and the remarks (vectorized loops left serial, and why)."""
    from mlc.loop.compact import compact_buffers
    from mlc.loop.peel import peel_tails

    compact_buffers(root)
    peel_tails(root)
    remarks: list = []
    symbols = {op.attributes["sym_name"].value for op in root.walk()
               if "sym_name" in op.attributes and hasattr(op.attributes["sym_name"], "value")}
    flat = FlatAccess()
    checks = IndexChecks(root)
    patterns = PatternSet([LowerAllocBuffer(_kernels(root)), LowerFor(remarks, flat),
                           LowerBlock(), LowerLoad(flat, checks), LowerStore(flat, checks),
                           LowerCheckIndex(flat, checks),
                           LowerView(), LowerConstant(symbols)])
    result = apply_partial_conversion(root, lowering_target(), patterns)
    notes = [Diagnostic("remark", text, op.loc) for op, text in remarks]
    if not result.success:
        return result.diagnostics, notes
    checks.finish()
    return [], notes


@register_pass("loop-lower", opt_level=0,
               dialects=("loop", "scf", "memref", "vector", "arith", "math"),
               summary="Lower scheduled loop IR to scf, memref, vector, math and arith.")
class LoopLower(Pass):
    def run(self, op: Operation, run) -> None:
        problems, remarks = lower_loops(op)
        if problems:
            raise PassFailure(problems)
        for remark in remarks:
            run.emit(remark)
