"""`loop-hoist-buffers`: a kernel's large temporaries become arguments its callers
allocate, so the model's memory plan holds them (TVM's unified static memory planning
of workspace buffers).

A kernel that allocates a buffer (a padding stage's copy, an intermediate the schedule
did not compact to a tile) would allocate it on every call: a `malloc` of up to
megabytes, and the page faults of touching it, per inference. Here each such buffer
of a kernel some function of the module calls becomes a new last argument of the
kernel, and each call site allocates it (`loop.alloc_buffer` just before the call) in
the caller, whose top-level buffers `loop-plan-memory` then shares by lifetime and
the AOT entry turns into its workspace, allocated once.

A buffer stays in its kernel when it is small (`STACK_BUFFER_BYTES`: it goes on the
stack, where a compacted register tile must stay), is scoped (`scope`, such as a
compacted tile), or when the kernel is called from nowhere in the module (it is an
entry itself).
"""

from __future__ import annotations

from mlc.ir.core.attributes import ArrayAttr, DictionaryAttr, FunctionType, TypeAttr
from mlc.ir.core.ir import Operation
from mlc.ir.dialects.func import CallOp, FuncOp
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.loop.ops import AllocBufferOp, byte_size

__all__ = ["hoist_buffers", "LoopHoistBuffers"]


def _functions(module: Operation) -> dict[str, Operation]:
    return {op.attributes["sym_name"].value: op for op in module.regions[0].blocks[0].ops()
            if isinstance(op, FuncOp) and op.regions[0].blocks}


def hoist_buffers(module: Operation) -> int:
    """Hoist the large temporaries of every called kernel of `module` into its callers
    (see the module docstring); how many buffers were hoisted."""
    from mlc.loop.lower import STACK_BUFFER_BYTES

    functions = _functions(module)
    calls: dict[str, list[Operation]] = {}
    for op in module.walk():
        if isinstance(op, CallOp):
            calls.setdefault(op.attributes["callee"].leaf, []).append(op)
    rewriter = Rewriter()
    hoisted = 0
    for name, kernel in functions.items():
        sites = calls.get(name)
        if not sites:
            continue
        entry = kernel.regions[0].blocks[0]
        buffers = [op for op in entry.ops() if isinstance(op, AllocBufferOp)
                   and "scope" not in op.attributes
                   and (byte_size(op.results[0].type) or 0) > STACK_BUFFER_BYTES]
        if not buffers:
            continue
        for alloc in buffers:
            buffer_type = alloc.results[0].type
            argument = entry.add_argument(buffer_type, alloc.results[0].name_hint, alloc.loc)
            rewriter.replace_op(alloc, [argument])
            for call in sites:
                rewriter.set_insertion_point_before(call)
                workspace = rewriter.insert(AllocBufferOp.create((), [buffer_type],
                                                                 loc=call.loc))
                workspace.results[0].name_hint = alloc.results[0].name_hint
                with rewriter.modify_op_in_place(call):
                    call.set_operands([*call.operands, workspace.results[0]])
            hoisted += 1
        old = kernel.attributes["function_type"].value
        kernel.attributes["function_type"] = TypeAttr(FunctionType(
            tuple(a.type for a in entry.args), old.results))
        arg_attrs = kernel.attributes.get("arg_attrs")
        if isinstance(arg_attrs, ArrayAttr):
            kernel.attributes["arg_attrs"] = ArrayAttr(
                (*arg_attrs, *(DictionaryAttr(()),) * (len(entry.args) - len(arg_attrs))))
    return hoisted


@register_pass("loop-hoist-buffers", opt_level=0, dialects=("loop",),
               summary="Make the large temporaries of called kernels arguments that their "
                       "callers allocate (into the model's memory plan).",
               statistics=(("num-hoisted", "kernel buffers hoisted into callers"),))
class LoopHoistBuffers(Pass):
    def run(self, op: Operation, run) -> None:
        self.statistics["num-hoisted"] += hoist_buffers(op)
