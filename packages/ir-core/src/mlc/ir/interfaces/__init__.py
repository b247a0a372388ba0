"""Op interfaces: questions passes ask any op, answered from what the op declares.

- :mod:`~mlc.ir.interfaces.side_effects`: memory effects (read, write, allocate, free,
  on a value or a resource) and speculatability; the one query for dead ops.
- :mod:`~mlc.ir.interfaces.loop_like`: loops (induction variables, bounds, steps, body).
- :mod:`~mlc.ir.interfaces.control_flow`: which regions control enters and leaves, and
  which values go along (region branches and their terminators); which operands a
  branch passes to each successor block (`BranchLike`).
- :mod:`~mlc.ir.interfaces.cast`: casts, declared by the (source, target) types they allow.
- :mod:`~mlc.ir.interfaces.infer_type`: result types computed from operands and attributes.
- :mod:`~mlc.ir.interfaces.function_like`: functions (`func.func`, `llvm.func`): name,
  function type, arguments, results, body or declaration, visibility.

Each interface is a :class:`~mlc.ir.opdef.traits.Interface`: an op declares it in its
`traits` tuple, like any trait.
"""
