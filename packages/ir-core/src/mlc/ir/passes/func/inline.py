"""inline: replace each `func.call` by a copy of the callee's body (MLIR's inliner,
without a cost model: every call that can be inlined is, as mlir-opt's default).

A call is inlined when its callee is a `func.func` with a body in the same symbol
table, the call has no `no_inline` attribute, and the callee can reach neither its
caller nor itself through calls (a call into a cycle of the call graph stays, as in
MLIR). A one-block body replaces the call in place; a body
of several blocks needs a region that may have several (a function's body, not an
`scf.for`'s), where the call's block is split after the call and each `func.return`
becomes a `cf.br` to the second half, whose arguments are the call's results. The
inlined calls' callees are inlined in turn, so a chain of calls folds into its caller.

Then, as MLIR's inliner, private functions left without a use are erased, and the
functions are canonicalized (MLIR's `default-pipeline=canonicalize`).
"""

from __future__ import annotations

from mlc.ir.core.ir import Operation
from mlc.ir.dialects.cf import BranchOp
from mlc.ir.dialects.func import CallOp, FuncOp, ReturnOp
from mlc.ir.passes.generic.canonicalize import canonicalization_patterns
from mlc.ir.passes.generic.symbol_dce import symbol_uses
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.greedy import GreedyConfig, apply_patterns_greedily
from mlc.ir.rewrite.rewriter import Rewriter


def _functions(module: Operation) -> dict[str, FuncOp]:
    return {op.sym_name.value: op for op in module.regions[0].ops() if isinstance(op, FuncOp)}


def _callees(function: FuncOp) -> set[str]:
    return {op.callee.root for op in function.walk() if isinstance(op, CallOp)}


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    """Whether the calls of `graph` lead from `start` to `goal`."""
    seen, stack = set(), [start]
    while stack:
        name = stack.pop()
        if name == goal:
            return True
        if name not in seen:
            seen.add(name)
            stack.extend(graph.get(name, ()))
    return False


def _recursive(graph: dict[str, set[str]], name: str) -> bool:
    """Whether function `name` can call itself again."""
    return any(_reaches(graph, callee, name) for callee in graph.get(name, ()))


def _caller(call: CallOp) -> FuncOp | None:
    op = call.parent_op
    while op is not None and not isinstance(op, FuncOp):
        op = op.parent_op
    return op


def _inlinable(call: CallOp, functions: dict[str, FuncOp],
               graph: dict[str, set[str]]) -> FuncOp | None:
    """The callee to inline at `call`, if it may be."""
    callee = functions.get(call.callee.root)
    caller = _caller(call)
    if (callee is None or callee.is_declaration or caller is None
            or "no_inline" in call.attributes
            or _recursive(graph, callee.sym_name.value)
            or _reaches(graph, callee.sym_name.value, caller.sym_name.value)):
        return None
    if len(callee.body.blocks) > 1 and not isinstance(call.parent_op, FuncOp):
        return None  # several blocks only fit where a region may have several
    return callee


def inline_call(call: CallOp, callee: FuncOp, rewriter: Rewriter) -> None:
    """Replace `call` by a copy of `callee`'s body (see the module docstring)."""
    body = callee.clone().regions[0]
    if len(body.blocks) == 1:
        entry = body.blocks[0]
        returned = entry.terminator
        rewriter.inline_block_before(entry, call, list(call.operands))
        values = list(returned.operands)
        rewriter.erase_op(returned)
        rewriter.replace_op(call, values)
        return
    head = call.parent
    tail = rewriter.split_block(head, call.next_op)
    results = [rewriter.add_block_argument(tail, r.type, call.loc) for r in call.results]
    for result, value in zip(call.results, results):
        rewriter.replace_all_uses_with(result, value)
    region = head.parent
    entry = body.blocks[0]
    rewriter.inline_region_before(body, region, region.blocks.index(tail))
    blocks = region.blocks
    for block in blocks[blocks.index(entry):blocks.index(tail)]:
        terminator = block.terminator
        if isinstance(terminator, ReturnOp):
            rewriter.set_insertion_point_before(terminator)
            rewriter.create(BranchOp, list(terminator.operands), successors=[tail],
                            loc=terminator.loc)
            rewriter.erase_op(terminator)
    operands = list(call.operands)
    rewriter.erase_op(call)
    rewriter.merge_blocks(entry, head, operands)


def inline_calls(module: Operation, rewriter: Rewriter | None = None) -> int:
    """Inline every call of `module` that may be (see the module docstring); how many
    calls were inlined."""
    rewriter = rewriter if rewriter is not None else Rewriter()
    functions = _functions(module)
    graph = {name: _callees(function) for name, function in functions.items()}
    inlined = 0
    changed = True
    while changed:
        changed = False
        for call in [op for op in module.walk() if isinstance(op, CallOp)]:
            callee = _inlinable(call, functions, graph)
            if callee is not None:
                inline_call(call, callee, rewriter)
                inlined += 1
                changed = True
    return inlined


def erase_unused_private_functions(module: Operation, rewriter: Rewriter | None = None) -> int:
    """Erase the private functions with a body that nothing references (the dead
    nodes of the call graph, as MLIR's inliner does); how many were erased."""
    rewriter = rewriter if rewriter is not None else Rewriter()
    erased = 0
    while True:  # erasing one may leave the functions only it called unused
        used = {ref.root for ref in symbol_uses(module)}
        dead = [function for name, function in _functions(module).items()
                if function.sym_visibility is not None
                and function.sym_visibility.value == "private"
                and not function.is_declaration and name not in used]
        if not dead:
            return erased
        for function in dead:
            rewriter.erase_op(function)
        erased += len(dead)


@register_pass("inline", anchor="builtin.module",
               summary="Inline function calls (every call whose callee has a body and is not "
                       "recursive), erase the private functions left unused, canonicalize.",
               statistics=(("num-inlined-calls", "calls inlined"),))
class Inline(Pass):
    def run(self, op: Operation, run) -> None:
        rewriter = Rewriter()
        self.statistics["num-inlined-calls"] += inline_calls(op, rewriter)
        apply_patterns_greedily(op, canonicalization_patterns(run.ctx), GreedyConfig())
        erase_unused_private_functions(op, rewriter)
