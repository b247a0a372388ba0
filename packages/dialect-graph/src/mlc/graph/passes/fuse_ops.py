"""graph-fuse-ops: group graph ops into kernels (TVM's FuseOps) and outline each
group into a primitive function; see :mod:`mlc.graph.fusion` for the algorithm."""

from __future__ import annotations

from dataclasses import dataclass

from mlc.graph.fusion import build_forward_graph, outline_groups, partition
from mlc.graph.fusion.outline import is_primitive
from mlc.ir import Block, Diagnostic, Operation
from mlc.ir.dialects.func import FuncOp
from mlc.ir.interfaces.side_effects import is_trivially_dead
from mlc.ir.passes import DEFAULT_OPT_LEVEL, Pass, option, register_pass
from mlc.ir.rewrite import Rewriter


@dataclass(frozen=True)
class FuseOpsOptions:
    max_depth: int = option(256, min=0, config="graph.fuse-ops.max-depth",
                            doc="most ops graph-fuse-ops puts in one kernel")
    opt_level: int = option(DEFAULT_OPT_LEVEL, min=0, from_opt_level=True,
                            doc="fusion level: 0 keeps every op alone")
    remarks: bool = option(False, config="graph.fuse-ops.remarks",
                           doc="say, as remarks, why each refused fusion was refused")


@register_pass("graph-fuse-ops", opt_level=1, options=FuseOpsOptions, dialects=("func",),
               summary="Fuse graph ops into kernels (TVM's FuseOps) and outline each "
                       "into a private primitive function called from its caller.",
               statistics=(("num-kernels", "kernels (primitive functions) created"),
                           ("num-fused-ops", "ops moved into kernels"),
                           ("num-remarks", "refused fusions reported")))
class FuseOps(Pass):
    def run(self, op: Operation, run) -> None:
        options = run.options
        functions = [f for f in _functions(op) if not is_primitive(f) and not f.is_declaration]
        # Kernels are new symbols beside the function: unique in its symbol table, also
        # when the pass runs on one function (`func.func(graph-fuse-ops)`).
        table = op.parent_op if isinstance(op, FuncOp) and op.parent_op is not None else op
        symbols = {f.sym_name.value for f in _functions(table)}
        rewriter = Rewriter()
        for fn in functions:
            # Each block is fused on its own (as Relax fuses each dataflow block): a
            # kernel is straight-line code, and a value crossing blocks leaves its own.
            last: Operation = fn
            for block in list(fn.regions[0].blocks):
                _erase_dead_ops(block, rewriter)
                graph = build_forward_graph(block)
                groups = partition(graph, opt_level=options.opt_level,
                                   max_depth=options.max_depth, remarks=options.remarks)
                for remark in groups.remarks:
                    run.emit(_diagnostic(remark))
                    self.statistics["num-remarks"] += 1
                kernels = outline_groups(block, groups, symbols, rewriter, after=last)
                last = kernels[-1] if kernels else last
                _erase_dead_ops(block, rewriter)  # scalar constants now live in the kernels
                self.statistics["num-kernels"] += len(kernels)
                self.statistics["num-fused-ops"] += sum(
                    len(list(k.entry_block.ops())) - 1 for k in kernels)


def _diagnostic(remark) -> Diagnostic:
    diagnostic = Diagnostic("remark", "graph-fuse-ops: " + remark.render(), remark.node.op.loc)
    if remark.target is not None and remark.target.op is not None:
        diagnostic.add_note(f"post-dominator {remark.target.describe()}", remark.target.op.loc)
    blame = remark.blame
    if blame is not None and blame.op is not None and blame is not remark.target:
        diagnostic.add_note(f"refused by {blame.describe()}", blame.op.loc)
    return diagnostic


def _erase_dead_ops(block: Block, rewriter: Rewriter) -> None:
    """TVM's graph holds only what the results reach; a dead op would be an extra exit
    that takes post-dominators away from live ones. Erase what is trivially dead
    (last first, so chains of dead ops go in one sweep)."""
    for op in list(block.ops_reversed()):
        if is_trivially_dead(op):
            rewriter.erase_op(op)


def _functions(op: Operation) -> list[FuncOp]:
    if isinstance(op, FuncOp):
        return [op]
    return [f for region in op.regions for f in region.ops() if isinstance(f, FuncOp)]
