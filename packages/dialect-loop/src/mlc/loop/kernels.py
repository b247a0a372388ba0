"""Loop kernels of groups of graph ops: what graph-lower-to-loop makes of each
`graph.primitive` function (TVM's LowerTE).

A group is a list of graph ops with the values it reads from outside (`inputs`) and
the values it hands back (`outputs`). Its kernel composes the ops' compute rules on te
placeholders of the inputs, then inlines every stage that computes without a
reduction (elementwise, broadcast and injective ops, and helper stages such as a
convolution's padding) into the stages that read it, as TVM's schedules inline
injective ops. What stays is the anchor op's reduction, computed into an
intermediate buffer, and the elementwise epilogue after it as its own block writing
the output: the MLC course's `mm_relu`. Outputs are never inlined (they are written),
nor are stages read with padding (reads outside them must give the padding value),
nor a padding stage read by a reduction (TOPI's `pad_temp` of a convolution or pool:
materialised once, it keeps the bounds checks out of the reduction's inner loop), nor
a stage checking indices (a scatter's: each index checked once).

`group_structure` is the key under which structurally identical groups share one
kernel (TVM's TECompiler cache): op names, attributes, operand wiring and types, but
not names or locations.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.graph.ops.constant import ConstantOp, constant_array
from mlc.ir.core.attributes import FloatType, IntegerType, RankedTensorType
from mlc.ir.core.ir import Operation, Value
from mlc.ir.core.structure import ops_structure
from mlc.ir.dialects.func import FuncOp
from mlc.loop import te
from mlc.loop.compute_rules import op_tensors

__all__ = ["KernelError", "copy_kernel", "group_kernel", "group_structure", "is_empty",
           "lowerable_type"]


class KernelError(Exception):
    """A group that cannot become a kernel; `op` is where to report it (None: the
    group as a whole)."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


def lowerable_type(type_) -> str | None:
    """Why a value of `type_` cannot live in a kernel's buffer, or None if it can:
    ranked tensors of static shape of floats, signless integers, or unsigned ones
    (stored as the signless integers of their width, see `te.storage_type`)."""
    if not isinstance(type_, RankedTensorType) or any(d < 0 for d in type_.shape):
        return f"{type_} is not a tensor of static shape"
    element = type_.element_type
    if isinstance(element, FloatType) or \
            (isinstance(element, IntegerType) and element.signedness != "signed"):
        return None
    return (f"{type_} has {element} elements: kernels compute on floats, signless and "
            "unsigned integers")


def is_empty(type_) -> bool:
    """Whether a value of `type_` (a ranked tensor or memref) holds no element: there is
    nothing to compute for it, and no kernel for it."""
    return 0 in tuple(getattr(type_, "shape", ()))


def _refuse_empty_operands(inputs: Sequence[Value], ops: Sequence[Operation]) -> None:
    """Refuse a group with a non-empty output that reads or makes empty tensors (a sum
    over an empty axis, a concat with an empty piece): te's loops and reduce axes have
    at least one iteration. Reported at the op that computes a non-empty result from
    an empty operand, else at the first op touching an empty tensor."""
    for op in ops:
        empty = next((v for v in op.operands if is_empty(v.type)), None)
        full = next((r for r in op.results if not is_empty(r.type)), None)
        if empty is not None and full is not None:
            raise KernelError(f"'{op.name}' computes the non-empty {full.type} from the empty "
                              f"{empty.type}: kernel loops of zero iterations are not "
                              "supported", op)
    for op in ops:
        empty = next((v for v in (*op.operands, *op.results) if is_empty(v.type)), None)
        if empty is not None:
            raise KernelError(f"'{op.name}' computes on the empty {empty.type} in a kernel with "
                              "non-empty results: kernel loops of zero iterations are not "
                              "supported", op)
    if any(is_empty(v.type) for v in inputs):  # an empty input handed back as it is
        raise KernelError("a kernel with non-empty results cannot take an empty input: "
                          "kernel loops of zero iterations are not supported",
                          ops[-1] if ops else None)


def group_structure(inputs: Sequence[Value], ops: Sequence[Operation],
                    outputs: Sequence[Value]) -> tuple:
    """A hashable key equal for two groups exactly when they compute the same thing
    the same way: the input types, the ops' structure (`ops_structure`, inputs by
    position) and which values are the outputs."""
    positions = {v: i for i, v in enumerate(inputs)}
    results = {result: (n, r) for n, op in enumerate(ops) for r, result in enumerate(op.results)}
    return (tuple(v.type for v in inputs), ops_structure(ops, positions),
            tuple(results.get(v, ("input", positions.get(v))) for v in outputs))


def group_kernel(name: str, inputs: Sequence[Value], ops: Sequence[Operation],
                 outputs: Sequence[Value]) -> FuncOp:
    """The kernel `@name(inputs..., outputs...)` (memrefs, destination-passing style)
    computing `outputs` of the group from `inputs` (see the module docstring).
    Raises KernelError (located at the op concerned when there is one)."""
    for value in (*inputs, *outputs):
        problem = lowerable_type(value.type)
        if problem is not None:
            raise KernelError(problem, value.defining_op)
    if all(is_empty(v.type) for v in outputs):
        raise KernelError("a group whose outputs hold no element has nothing to compute "
                          "and no kernel", ops[-1] if ops else None)
    _refuse_empty_operands(inputs, ops)
    tensors: dict[Value, te.Tensor] = {}
    placeholders = []
    for i, value in enumerate(inputs):
        placeholder = te.placeholder(tuple(value.type.shape), value.type.element_type,
                                     name=f"p{i}")
        placeholders.append(placeholder)
        tensors[value] = placeholder
    for op in ops:
        for value in op.results:
            problem = lowerable_type(value.type)
            if problem is not None:
                raise KernelError(problem, op)
        try:
            results = _constant_tensors(op) if isinstance(op, ConstantOp) else \
                op_tensors(op, [tensors[v] for v in op.operands])
        except te.TEError as error:
            raise KernelError(str(error), op) from None
        tensors.update(zip(op.results, results))
    written: list[te.Tensor] = []
    for value in outputs:
        tensor = tensors[value]
        if tensor.is_placeholder or any(tensor is t for t in written):
            # An input handed back, or one value twice: each output is its own buffer.
            tensor = te.compute(tensor.shape, lambda *index, t=tensor: t[index],
                                name=f"{tensor.name}_copy")
        written.append(tensor)
    _inline_injective_stages(written)
    _unique_stage_names(written)
    try:
        return te.create_prim_func([*placeholders, *written], name=name)
    except te.TEError as error:
        raise KernelError(str(error), ops[-1] if ops else None) from None


def copy_kernel(name: str, type_: RankedTensorType) -> FuncOp:
    """`@name(source, destination)`: copies a buffer of `type_` (a function handing
    back its argument or a constant writes it to its output buffer this way)."""
    source = te.placeholder(tuple(type_.shape), type_.element_type, name="source")
    copy = te.compute(source.shape, lambda *index: source[index], name="copy")
    return te.create_prim_func([source, copy], name=name)


def _constant_tensors(op: ConstantOp) -> tuple[te.Tensor]:
    """A constant copied into a group (fusion copies rank-0 ones): its one value,
    at every index."""
    type_ = op.result.type
    array = constant_array(op.value)
    if array.size != 1 and not getattr(op.value, "is_splat", False):
        raise te.TEError("a group may only hold constants of one value (fusion passes larger "
                         "ones in as operands)")
    value = array.reshape(-1)[0].item()
    return (te.compute(tuple(type_.shape), lambda *index: te.const(value, type_.element_type),
                       name="constant"),)


def _inline_injective_stages(outputs: Sequence[te.Tensor]) -> None:
    """Inline every stage that is not an output, not a reduction, not read with
    padding and not a padding stage feeding a reduction into its readers, producers
    first (so an inlined stage's expression already reads what its own inlined
    producers read)."""
    kept = {id(t) for t in outputs}
    stages = te.stages(outputs)
    # Who reads each stage, and with padding, is found once, before any inlining: a
    # stage's readers come after it in the order, so none of them is inlined before
    # the stage itself is considered, and what a reader gains from the producers
    # inlined into it earlier never reads a later stage. (Asking each stage of each
    # other one would walk every expression once per stage: cubic in a large group.)
    interner = te.Interner()
    readers_of: dict[int, list[te.Tensor]] = {}
    padded_reads: set[int] = set()
    for reader in stages:
        for read in te.reads_in(reader):
            listed = readers_of.setdefault(id(read.tensor), [])
            if not listed or listed[-1] is not reader:
                listed.append(reader)
            if read.padding is not None:
                padded_reads.add(id(read.tensor))
    for stage in stages:
        if stage.is_placeholder or id(stage) in kept or isinstance(stage.body, te.Reduce):
            continue
        readers = readers_of.get(id(stage), [])
        if id(stage) in padded_reads or te.checks_indices(stage):
            continue  # a stage checking indices checks each once, not once per reader
        if te.reads_with_padding(stage) and \
                any(isinstance(t.body, te.Reduce) for t in readers):
            # A padding stage feeding a reduction (a convolution, a pool) stays a
            # stage: its bounds checks then run once per element, not once per tap.
            continue
        te.compute_inline(stage, readers, interner)


def _unique_stage_names(outputs: Sequence[te.Tensor]) -> None:
    """Stages are found by name (schedules' get_block): make them unique, as TVM's
    T_add, T_add_1."""
    seen: dict[str, int] = {}
    for stage in te.stages(outputs):
        if stage.is_placeholder:
            continue
        count = seen.get(stage.name, 0)
        seen[stage.name] = count + 1
        if count:
            stage.name = f"{stage.name}_{count}"
