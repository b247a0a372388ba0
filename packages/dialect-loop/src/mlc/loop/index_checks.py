"""Bounds checks of data-dependent indices in lowered kernels (part of `loop-lower`).

An index a block computes from its iteration variables is bounded by the verifier; one
it loaded from data (a gather's, take's or gather_nd's index) is not, and native code
reading at it would read anywhere: a gather index of 10^9 into an axis of 4 killed the
process. So where `loop-lower` lowers a `loop.load` or `loop.store` with such an index,
it checks it:

    %bad = arith.cmpi uge, %i, %c4 : index          // unsigned: a negative one too
    %safe = arith.select %bad, %c0, %i : index       // memory is never touched outside
    scf.if %bad {                                    // only on failure: record it
      %record = memref.get_global @mlc_index_error : memref<4xi64>
      %earlier = memref.atomic_rmw addi %c1_i64, %record[%c3] : (i64, memref<4xi64>) -> i64
      ... (when %earlier is 0: the first failure) store site + 1, the index, the bound
    }
    %x = memref.load %X[%safe, %j] : memref<4x3xf32>

A scatter matches positions instead of loading at its indices; its rule checks each
index in a stage of its own with `loop.check_index`, which becomes the same check (its
result is the safe index).

Why this design: it costs a compare, a select and a branch that is never taken per
gathered element, needs no exit from the loop nests (nothing can unwind through native
code, and an early return would need every enclosing loop to stop), and keeps the
kernels' signatures (and the AOT entry's) as they are. The kernel runs to its end on
safe indices; the runtime reads the record after every call of a module that has one
(one load) and, when it is set, clears it and raises an mlc error naming the kernel,
the block, the buffer and axis, the index and the bound
(:class:`mlc.llvm.native_call.NativeIndexError`). The record is the public global
`INDEX_ERROR_SYMBOL` (the first failure of a call is kept); its `mlc.index_checks`
attribute lists the sites, in the order of their numbers, for the runtime to name
them. The record is per compiled module and shared by the threads calling into it.
Its last field counts the failures, atomically: the one failure that finds it 0 is
the first and alone writes the other fields, so threads of a parallel loop failing at
once leave one coherent record (plain stores, read after the call has joined its
threads), never the site of one with the index of another.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.attributes import (
    ArrayAttr,
    DenseElementsAttr,
    IntegerAttr,
    MemRefType,
    RankedTensorType,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    i64,
)
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects import arith, memref, scf
from mlc.ir.dialects.arith.casts import IndexCastOp
from mlc.ir.dialects.func import FuncOp
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.loop.ops import BlockOp, CheckIndexOp, LoadOp, StoreOp

__all__ = ["INDEX_ERROR_SYMBOL", "RECORD_FIELDS", "SITES_ATTRIBUTE", "IndexChecks", "index_check_sites"]

INDEX_ERROR_SYMBOL = "mlc_index_error"
"""The global recording the first failed check: [site + 1 (0: none), index, bound,
the number of failed checks]."""

SITES_ATTRIBUTE = "mlc.index_checks"
"""The record's attribute listing each check site's description, by site number."""

RECORD_FIELDS = 4
RECORD_TYPE = MemRefType((RECORD_FIELDS,), i64)


class IndexChecks:
    """The checks one run of `loop-lower` inserts in the module `root` (see the module
    docstring): `checked` guards an access's data-dependent indices, `finish` defines
    the record with the table of sites."""

    def __init__(self, root: Operation):
        self.root = root
        existing = _record(root)
        self.sites: list[str] = [] if existing is None else \
            [s.value for s in existing.attributes.get(SITES_ATTRIBUTE, ArrayAttr(()))]
        self.added = False
        # Found before the conversion inlines the blocks: each access's data-dependent
        # axes with the description of their check (a padded load needs none: its
        # padding guards every index).
        self.unbounded: dict[Operation, list[tuple[int, str]]] = {}
        # Each loop.check_index (a scatter's indices) with the description of its check.
        self.explicit: dict[Operation, str] = {}
        for op in root.walk():
            if isinstance(op, BlockOp):
                for access in op.walk_nested():
                    if isinstance(access, CheckIndexOp):
                        self.explicit[access] = (f"{_where(op)}: "
                                                 f"{access.attributes['target'].value}")
                    elif isinstance(access, (LoadOp, StoreOp)) \
                            and "padding" not in access.attributes:
                        axes = [(axis, _describe(access, op, axis)) for axis, expr
                                in enumerate(access.index_exprs_over(op)) if expr is None]
                        if axes:
                            self.unbounded[access] = axes

    def checked(self, access: Operation, indices: Sequence[Value], rewriter, ints
                ) -> list[Value]:
        """`indices` (the lowered indices of `access`, a loop.load or loop.store, at
        the rewriter's insertion point) with each data-dependent one checked."""
        checked = list(indices)
        shape = access.memref.type.shape
        for axis, description in self.unbounded.get(access, ()):
            checked[axis] = self._check(description, indices[axis], shape[axis], rewriter,
                                        ints)
        return checked

    def checked_index(self, check: Operation, index: Value, rewriter, ints) -> Value:
        """The index of `check`, a loop.check_index (`index`, an `index` value at the
        rewriter's insertion point), checked: itself, or 0 when out of bounds."""
        description = self.explicit.get(check) or \
            f"a check outside any block: {check.attributes['target'].value}"
        return self._check(description, index, check.attributes["bound"].value, rewriter, ints)

    def _check(self, description: str, index: Value, extent: int, rewriter, ints) -> Value:
        site = len(self.sites)
        self.sites.append(description)
        self.added = True
        zero, bound = ints.constant(0), ints.constant(extent)
        one, two, three = ints.constant(1), ints.constant(2), ints.constant(3)
        bad = ints.compare("uge", index, bound)
        safe = rewriter.insert(arith.SelectOp.build(bad, zero, index)).results[0]
        no_error = _i64(rewriter, 0)
        with rewriter.insertion_point():
            failed = rewriter.insert(scf.IfOp.create_if(bad, with_else=False))
            rewriter.set_insertion_point_before(failed.then_block.last_op)
            record = rewriter.insert(memref.GetGlobalOp.build(
                name=SymbolRefAttr(INDEX_ERROR_SYMBOL), result_types=[RECORD_TYPE])).results[0]
            earlier = rewriter.insert(memref.AtomicRMWOp.build(
                _i64(rewriter, 1), record, [three], kind=memref.AtomicRMWKind.attr("addi"),
                result_types=[i64])).results[0]
            first = rewriter.insert(arith.CmpIOp.build(
                earlier, no_error, predicate=arith.CmpIPredicate.attr("eq"))).results[0]
            keep = rewriter.insert(scf.IfOp.create_if(first, with_else=False))
            rewriter.set_insertion_point_before(keep.then_block.last_op)
            value = rewriter.insert(IndexCastOp.build(index, result_types=[i64])).results[0]
            for position, stored in ((zero, _i64(rewriter, site + 1)), (one, value),
                                     (two, _i64(rewriter, extent))):
                rewriter.insert(memref.StoreOp.build(stored, record, [position]))
        return safe

    def finish(self) -> None:
        """Define (or redefine, after an earlier run) the record with the sites, at the
        start of the module; nothing when no check was added."""
        if not self.added:
            return
        rewriter = Rewriter()
        existing = _record(self.root)
        if existing is not None:
            rewriter.erase_op(existing)
        module_body = self.root.regions[0].blocks[0]
        rewriter.set_insertion_point_to_start(module_body)
        record = rewriter.insert(memref.GlobalOp.build(
            sym_name=StringAttr(INDEX_ERROR_SYMBOL), type=TypeAttr(RECORD_TYPE),
            initial_value=DenseElementsAttr.from_array(0, RankedTensorType((RECORD_FIELDS,),
                                                                             i64))))
        with rewriter.modify_op_in_place(record):
            record.attributes[SITES_ATTRIBUTE] = ArrayAttr(tuple(map(StringAttr, self.sites)))


def _i64(rewriter, value: int) -> Value:
    return rewriter.insert(arith.ConstantOp.build(value=IntegerAttr(value, i64))).results[0]


def _describe(access: Operation, block: Operation, axis: int) -> str:
    buffer = access.memref
    name = f"%{buffer.name_hint}" if buffer.name_hint else "a buffer"
    return f"{_where(block)}: index {axis} of {name} : {buffer.type}"


def _where(block: Operation) -> str:
    """The kernel and block `block` is, for a check's description."""
    kernel = block.parent_op
    while kernel is not None and not isinstance(kernel, FuncOp):
        kernel = kernel.parent_op
    kernel_name = kernel.attributes["sym_name"].value if kernel is not None else "?"
    return f"kernel @{kernel_name}, block '{block.attributes['block_name'].value}'"


def _record(root: Operation) -> Operation | None:
    for op in root.regions[0].blocks[0].ops():
        if isinstance(op, memref.GlobalOp) and \
                op.attributes["sym_name"].value == INDEX_ERROR_SYMBOL:
            return op
    return None


def index_check_sites(module: Operation) -> list[str] | None:
    """The check sites of `module` (at the level of the standard dialects), in the order
    of their numbers; None when it has no index checks."""
    record = _record(module)
    if record is None:
        return None
    return [s.value for s in record.attributes.get(SITES_ATTRIBUTE, ArrayAttr(()))]
