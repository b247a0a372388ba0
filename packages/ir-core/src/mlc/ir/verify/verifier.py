"""Verifying IR in MLIR's order: first every op — its own invariants when the walk
enters it (successors in its region, traits, declared constraints, custom checks),
then its regions, then, leaving each block, that a terminator ends it and, leaving the
op, its symbol table — and only when all of that holds, dominance: every operand is
defined and its definition dominates the use (SSA dominance within a block, across
blocks through the dominator tree of a region, and into nested regions), and ops
isolated from above use no outside value.

As MLIR, the first failure inside an op isolated from above (a function) ends the
checks of that op, so a test case shows the error MLIR shows; other functions are
still checked. The walks are iterative, so deep nesting is fine.
"""

from __future__ import annotations

from mlc.ir.analysis.dominance import dominator_tree
from mlc.ir.core.attributes import DenseArrayAttr, Location
from mlc.ir.core.gc_pause import gc_paused
from mlc.ir.core.ir import Block, BlockArgument, Operation, Region, Value
from mlc.ir.diagnostics import Diagnostic, DiagnosticError
from mlc.ir.opdef.constraints import AnyType
from mlc.ir.opdef.declare import Op, OpDef, VerificationError
from mlc.ir.opdef.traits import (
    GraphRegions,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    SingleBlock,
    SymbolTable,
    Trait,
)


def _op_error(op: Operation, message: str) -> Diagnostic:
    return Diagnostic("error", f"'{op.name}' op {message}", op.loc)


class Verifier:
    """Collects every diagnostic rather than stopping at the first."""

    def __init__(self, max_errors: int = 50):
        self.diagnostics: list[Diagnostic] = []
        self.max_errors = max_errors

    def error(self, diag: Diagnostic) -> None:
        self.diagnostics.append(diag)

    # ---------------------------------------------------------------- entry

    def verify(self, root: Operation) -> list[Diagnostic]:
        with gc_paused():
            self._operations(root)
            if not self.diagnostics:
                self._dominance(root)
        return self.diagnostics

    # ---------------------------------------------------------------- operations

    def _operations(self, root: Operation) -> None:
        # Work items carry the op isolated from above whose checks they belong to (the
        # "unit"); a unit stops at its first error.
        failed: set[Operation] = set()
        work: list = [("enter", root, root)]
        while work and len(self.diagnostics) < self.max_errors:
            kind, item, unit = work.pop()
            if unit in failed:
                continue
            before = len(self.diagnostics)
            if kind == "enter":
                self._check_op_structure(item)
                if len(self.diagnostics) == before:
                    self._declared(item)
                if len(self.diagnostics) > before:
                    failed.add(unit)
                    continue
                inner = item if item.has_trait(IsolatedFromAbove) else unit
                work.append(("exit", item, unit))
                for region in reversed(item.regions):
                    for block in reversed(region.blocks):
                        work.append(("block", block, inner))
                        work.extend(("enter", op, inner) for op in block.ops_reversed())
            elif kind == "block":
                self._check_block(item)
            else:
                self._declared_with_regions(item)
                if len(self.diagnostics) == before:
                    self._check_symbol_table(item)
            if len(self.diagnostics) > before:
                failed.add(unit)

    # ---------------------------------------------------------------- structure

    def _dominance(self, root: Operation) -> None:
        # `visible` holds the values that dominate the current point. Blocks are
        # visited in dominator-tree pre-order; a block's values are dropped once its
        # dominator subtree is done, so "visible" means "dominates". Entering a region
        # isolated from above starts from an empty set.
        visible: set[Value] = set()
        saved: list[set[Value]] = []
        work: list = [("op", root)]
        while work:
            item = work.pop()
            kind = item[0]
            if kind == "op":
                op = item[1]
                self._check_operands(op, visible)
                if not op.regions:
                    visible.update(op.results)
                    continue
                isolated = op.has_trait(IsolatedFromAbove)
                graph = op.has_trait(GraphRegions)
                work.append(("results", op))
                # As MLIR's DominanceInfo: nothing is known of an unregistered op, so
                # a region of it with one block may be a graph region; regions of
                # several blocks always have SSA dominance.
                unknown = op.op_def is None
                for region in reversed(op.regions):
                    if isolated:
                        work.append(("restore",))
                    work.append(("region", region, graph or (unknown and len(region.blocks) == 1)))
                    if isolated:
                        work.append(("isolate",))
            elif kind == "results":
                visible.update(item[1].results)
            elif kind == "isolate":
                saved.append(visible)
                visible = set()
            elif kind == "restore":
                visible = saved.pop()
            elif kind == "region":
                region, graph = item[1], item[2]
                if not region.blocks:
                    continue
                tree = dominator_tree(region)
                roots = [b for b in region.blocks if tree.idom.get(b) is None]
                if len(roots) > 1:
                    # Unreachable blocks: every block dominates them (MLIR), so their
                    # uses see every value of the region.
                    everything = [r for b in region.blocks for op in b.ops() for r in op.results]
                    everything += [a for b in region.blocks for a in b.args]
                    work.append(("drop_values", everything))
                    for block in reversed(roots[1:]):
                        work.append(("block", block, tree, True))
                    work.append(("add_values", everything))
                work.append(("block", roots[0], tree, graph))
            elif kind == "block":
                block, tree, graph = item[1], item[2], item[3]
                ops = list(block.ops())
                work.append(("drop", block, ops))
                for child in reversed(tree.children.get(block, ())):
                    work.append(("block", child, tree, graph))
                work.extend(("op", op) for op in reversed(ops))
                visible.update(block.args)
                if graph:  # graph regions: any op may use any value of its block
                    for op in ops:
                        visible.update(op.results)
            elif kind == "add_values":
                visible.update(item[1])
            elif kind == "drop_values":
                visible.difference_update(item[1])
            elif kind == "drop":
                block, ops = item[1], item[2]
                visible.difference_update(block.args)
                for op in ops:
                    visible.difference_update(op.results)

    def _check_operands(self, op: Operation, visible: set[Value]) -> None:
        for index, operand in enumerate(op.op_operands):
            value = operand.value
            if value in visible:
                continue
            if value.type is None or (not isinstance(value, BlockArgument) and value.defining_op is None):
                self.error(_op_error(op, f"operand #{index} is not defined"))
                continue
            isolated = _isolating_ancestor(op, value)
            if isolated is not None:
                diag = _op_error(op, "using value defined outside the region")
                diag.add_note("required by region isolation constraints", isolated.loc)
            else:
                # MLIR's words, which name neither the op nor the operand.
                diag = Diagnostic("error", f"operand #{index} does not dominate this use", op.loc)
                diag.add_note(*_where_defined(op, value))
            self.error(diag)

    def _check_op_structure(self, op: Operation) -> None:
        if op.block_operands and op.parent is not None and op is not op.parent.last_op:
            # MLIR's words (it checks this for any op, registered or not).
            self.error(Diagnostic("error", "operation with block successors must terminate "
                                  "its parent block", op.loc))
            return
        for block in op.successors:
            if block.parent is None or block.parent is not (op.parent.parent if op.parent else None):
                self.error(_op_error(op, "reference to block defined in another region"))
        for region in op.regions:
            if region.blocks and region.blocks[0].uses:
                # MLIR's words, which do not name the op.
                self.error(Diagnostic("error", "entry block of region may not have predecessors",
                                      op.loc))
                return
        op_def = op.op_def
        if op_def is None:
            return
        traits = op_def.trait_set
        if IsTerminator in traits and op.parent is not None and op is not op.parent.last_op:
            self.error(_op_error(op, "must be the last operation in the parent block"))
        if SingleBlock in traits:
            needs_terminator = NoTerminator not in traits
            for index, region in enumerate(op.regions):
                if len(region.blocks) > 1:
                    self.error(_op_error(op, f"expects region #{index} to have 0 or 1 blocks"))
                    break
                if needs_terminator and region.blocks and region.blocks[0].first_op is None:
                    self.error(_op_error(op, "expects a non-empty block"))
                    break

    def _check_symbol_table(self, op: Operation) -> None:
        if op.op_def is not None and SymbolTable in op.op_def.trait_set:
            seen: dict[str, Operation] = {}
            for region in op.regions:
                for child in region.ops():
                    sym = child.attributes.get("sym_name")
                    name = getattr(sym, "value", None)
                    if not isinstance(name, str):
                        continue
                    if name in seen:
                        diag = _op_error(child, f"redefinition of symbol named '{name}'")
                        diag.add_note("see existing symbol definition here", seen[name].loc)
                        self.error(diag)
                    else:
                        seen[name] = child

    def _check_block(self, block: Block) -> None:
        parent = block.parent_op
        if parent is None:
            return
        last = block.last_op
        needs_terminator = not parent.has_trait(NoTerminator) and parent.op_def is not None
        if needs_terminator:
            if last is None:
                self.error(Diagnostic("error", "empty block: expect at least a terminator",
                                      parent.loc))
            elif last.op_def is not None and not last.has_trait(IsTerminator):
                self.error(Diagnostic("error", f"block with no terminator, has {_generic_text(last)}",
                                      last.loc))

    # ---------------------------------------------------------------- declarations

    def _declared(self, op: Operation) -> None:
        op_def = op.op_def
        if op_def is None:
            return
        plan = _PLANS.get(op_def.cls)
        if plan is None:
            plan = _PLANS[op_def.cls] = _DeclarationPlan(op_def)
        message = plan.check(op)
        if message is not None:
            self.error(_op_error(op, message))
            return
        if not self._traits_hold(op, plan.traits):
            return
        if plan.custom:
            self._run_custom(op, op.verify_custom)

    def _run_custom(self, op: Operation, check) -> None:
        try:
            check()
        except VerificationError as exc:
            at = exc.at or op
            diag = (_op_error(at, exc.message) if exc.names_op
                    else Diagnostic("error", exc.message, at.loc))
            for note, loc in exc.notes:
                diag.add_note(note, loc)
            self.error(diag)


    def _traits_hold(self, op: Operation, traits: list[Trait]) -> bool:
        for trait in traits:
            message = trait.verify(op)
            if message is not None:
                # A trait may word the whole diagnostic itself (MLIR's interface
                # verifiers that do not name the op).
                self.error(message if isinstance(message, Diagnostic) else _op_error(op, message))
                return False
        return True

    def _declared_with_regions(self, op: Operation) -> None:
        """The checks that look into `op`'s regions, once they are verified."""
        plan = _PLANS.get(op.op_def.cls) if op.op_def is not None else None
        if plan is None:
            return
        if plan.region_traits and not self._traits_hold(op, plan.region_traits):
            return
        if plan.custom_regions:
            self._run_custom(op, op.verify_regions)


def _generic_text(op: Operation) -> str:
    """`op` in MLIR's generic form, its values named as in the whole function (the
    closest op isolated from above), as MLIR quotes an op in a message."""
    from mlc.ir.text.printer import Printer, PrintOptions  # the verifier is below text

    scope = op
    while scope.parent_op is not None and not scope.has_trait(IsolatedFromAbove):
        scope = scope.parent_op
    printer = Printer(PrintOptions(generic=True, local_scope=True))
    printer.assign_names(scope)
    return printer.op_text(op)


def _isolating_ancestor(op: Operation, value: Value) -> Operation | None:
    """The closest ancestor of `op` isolated from above, if `value` is defined outside it."""
    owner = value.block.parent_op if isinstance(value, BlockArgument) else value.defining_op
    current = op.parent_op
    while current is not None:
        if current.has_trait(IsolatedFromAbove):
            return current if owner is None or not current.is_ancestor_of(owner) else None
        current = current.parent_op
    return None


def _encloses(outer: Region, inner: Region) -> bool:
    """`inner` is nested, at any depth, in an op of `outer`."""
    current = inner.parent.parent_region if inner.parent is not None else None
    while current is not None:
        if current is outer:
            return True
        current = current.parent.parent_region if current.parent is not None else None
    return False


def _where_defined(op: Operation, value: Value) -> tuple[str, Location | None]:
    """The note MLIR attaches to an operand that does not dominate its use: where the
    value is defined, relative to the use (mlir/lib/IR/Verifier.cpp)."""
    use_block = op.parent
    use_region = use_block.parent if use_block is not None else None
    if isinstance(value, BlockArgument):
        def_block = value.block
        owner = def_block.parent_op
        loc = owner.loc if owner is not None else None
        def_region = def_block.parent
        if def_region is None:
            return " (block without parent)", loc
        if def_region is use_region:
            relation = "in the same region"
        elif use_region is not None and _encloses(def_region, use_region):
            relation = "in a parent region"
        elif use_region is not None and _encloses(use_region, def_region):
            relation = "in a child region"
        else:
            relation = "neither in a parent nor in a child region"
        index = def_region.blocks.index(def_block)
        return f"operand defined as a block argument (block #{index} {relation})", loc
    definer = value.defining_op
    def_block = definer.parent
    def_region = def_block.parent if def_block is not None else None
    if def_block is use_block:
        relation = "op in the same block"
    elif def_region is use_region:
        relation = "op in the same region"
    elif def_region is not None and use_region is not None and _encloses(def_region, use_region):
        relation = "op in a parent region"
    elif def_region is not None and use_region is not None and _encloses(use_region, def_region):
        relation = "op in a child region"
    else:
        relation = "op is neither in a parent nor in a child region"
    return f"operand defined here ({relation})", definer.loc


def _check_group_counts(kind: str, defs, count: int, op: Operation, sizes_name: str) -> str | None:
    singles = 0
    multi = 0
    optional = False
    for d in defs:
        if d.is_single:
            singles += 1
        else:
            multi += 1
            optional = optional or d.optional
    if multi == 0:
        if count != singles:
            # ODS's traits' words: ZeroOperands, OneOperand, NOperands<N> (and results).
            if singles == 0:
                return f"requires zero {kind}s"
            if singles == 1:
                return "requires one result" if kind == "result" else "requires a single operand"
            return f"expected {singles} {kind}s, but found {count}"
        return None
    if multi > 1:
        sizes = op.attributes.get(sizes_name)
        if not isinstance(sizes, DenseArrayAttr) or len(sizes.values) != len(defs):
            return f"requires '{sizes_name}' with {len(defs)} elements"
        if sum(sizes.values) != count:
            return f"'{sizes_name}' sums to {sum(sizes.values)}, but the op has {count} {kind}s"
        return None
    if not optional and count < singles:
        return f"expected {singles} or more {kind}s, but found {count}"  # AtLeastNOperands
    if count < singles or (optional and count > singles + 1):
        return f"expected {singles} {kind}s, but found {count}"
    return None


def _group_values(op: Operation, op_def: OpDef, definition, results: bool) -> list[Value]:
    if results:
        start, size = op_def.result_segment(op, definition.index)
        return op.results[start:start + size]
    start, size = op_def.operand_segment(op, definition.index)
    return [o.value for o in op.op_operands[start:start + size]]


class _DeclarationPlan:
    """The declaration checks of one op class with what can be decided once decided:
    ops whose groups are all single are checked by position, constraints that accept
    anything are skipped."""

    __slots__ = ("op_def", "singles", "operand_checks", "result_checks", "attr_checks",
                 "regions", "variadic_regions", "successors", "traits", "region_traits",
                 "custom", "custom_regions")

    def __init__(self, op_def: OpDef):
        self.op_def = op_def
        self.singles = all(d.is_single for d in (*op_def.operands, *op_def.results))
        self.operand_checks = [(i, d) for i, d in enumerate(op_def.operands)
                               if d.constraint is not AnyType]
        self.result_checks = [(i, d) for i, d in enumerate(op_def.results)
                              if d.constraint is not AnyType]
        self.attr_checks = [(name, d.constraint.check, d.optional, d)
                            for name, d in op_def.attributes.items()]
        self.regions = sum(1 for r in op_def.regions if not r.variadic)
        self.variadic_regions = len(op_def.regions) != self.regions
        self.successors = sum(1 for s in op_def.successors if not s.variadic)
        # Only the traits and custom verifiers that check something; the invariant
        # traits first (stable: each group keeps its declared order); those that look
        # into the regions run after the nested ops are verified.
        checking = sorted((t for t in op_def.traits if type(t).verify is not Trait.verify),
                          key=lambda t: not t.invariant)
        self.traits = [t for t in checking if not t.verifies_regions]
        self.region_traits = [t for t in checking if t.verifies_regions]
        self.custom = op_def.cls.verify_custom is not Op.verify_custom
        self.custom_regions = op_def.cls.verify_regions is not Op.verify_regions

    def check(self, op: Operation) -> str | None:
        # MLIR's order: the counts (its structural traits), then the attributes, then
        # the operand and result types.
        op_def = self.op_def
        if not self.singles or len(op._operands) != len(op_def.operands) or \
                len(op.results) != len(op_def.results):
            message = self._counts(op)
            if message:
                return message
        attributes = op.attributes
        for name, check, optional, definition in self.attr_checks:
            attr = attributes.get(name)
            if attr is None:
                if not optional:
                    return f"requires attribute '{name}'"
                continue
            if not check(attr):
                return (f"attribute '{name}' failed to satisfy constraint: "
                        f"{definition.constraint.description}")
        if self.singles:
            operands, results = op._operands, op.results
            for i, d in self.operand_checks:
                type_ = operands[i].value.type
                if not d.constraint.check(type_):
                    return _constraint_message("operand", d, type_)
            for i, d in self.result_checks:
                type_ = results[i].type
                if not d.constraint.check(type_):
                    return _constraint_message("result", d, type_)
        else:
            for kind, defs in (("operand", op_def.operands), ("result", op_def.results)):
                for definition in defs:
                    check = definition.constraint.check
                    for value in _group_values(op, op_def, definition, kind == "result"):
                        if not check(value.type):
                            return _constraint_message(kind, definition, value.type)
        if len(op.regions) != self.regions and not (
                self.variadic_regions and len(op.regions) > self.regions):
            # ODS's words.
            if self.variadic_regions:
                return f"expected {self.regions} or more regions"
            if self.regions <= 1:
                return "requires zero regions" if self.regions == 0 else "requires one region"
            return f"expected {self.regions} regions"
        found = len(op.successors)
        variadic = len(op_def.successors) != self.successors
        if found < self.successors or (found != self.successors and not variadic):
            noun = "successor" if self.successors == 1 else "successors"
            at_least = "at least " if variadic else ""
            return f"requires {at_least}{self.successors} {noun} but found {found}"
        return None

    def _counts(self, op: Operation) -> str | None:
        op_def = self.op_def
        return (_check_group_counts("operand", op_def.operands, len(op.op_operands), op,
                                    "operandSegmentSizes")
                or _check_group_counts("result", op_def.results, len(op.results), op,
                                       "resultSegmentSizes"))


def _constraint_message(kind: str, definition, type_) -> str:
    # MLIR's words exactly (users grep for them): the number, not the name.
    variadic = "variadic of " if definition.variadic else ""
    return (f"{kind} #{definition.index} must be {variadic}"
            f"{definition.constraint.description}, but got '{type_}'")


_PLANS: dict[type, _DeclarationPlan] = {}


def verify(root: Operation) -> None:
    """Raise DiagnosticError with every problem found in `root`."""
    diagnostics = Verifier().verify(root)
    if diagnostics:
        raise DiagnosticError(diagnostics)
