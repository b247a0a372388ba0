"""Dialect conversion: rewrite ops until every op is legal for a target.

- :class:`ConversionTarget` says which ops are legal, illegal or dynamically legal,
  by op class (or name) or by dialect; names are checked when the rule is added.
- :class:`~mlc.ir.rewrite.type_converter.TypeConverter` maps types 1:1 or 1:N and
  materialises values across the change.
- :class:`ConversionPattern` is declared for an op class and receives the op, a typed
  adaptor holding its operands *already converted* (`adaptor.lhs`, see
  :mod:`mlc.ir.rewrite.adaptor`), and a :class:`ConversionRewriter`.

The driver legalizes the ops under the root in pre-order: an illegal op (or, in a
full conversion, an op with no rule) is first folded, as in MLIR (replaced by what it
folds to, or changed in place and legalized again), else rewritten by the first
pattern whose results can be legalized in turn; a pattern is not applied again to what it
produced unless it declares `bounded_recursion` (MLIR's hasBoundedRewriteRecursion). The
rewriter's changes are tentative. Ops it replaces or erases stay where they are,
their results mapped to the replacements; every other change is written to a
:class:`~mlc.ir.rewrite.journal.ChangeJournal`. A pattern whose results cannot be
legalized is undone and the next one tried. When every op is legal the conversion
commits: remaining uses of replaced values move to the replacements (through a
source materialisation where the types differ) and replaced ops are erased. When
some op is left illegal, the journal is rolled back — the input is left as it was,
byte for byte, with the very same op objects — and each such op is reported at its
location. All bookkeeping is in sets and dicts keyed by op or value identity, so a
conversion is linear in the size of the IR and the work its patterns do.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from mlc.ir.core.attributes import Attribute, Location, Type, unknown_loc
from mlc.ir.core.dialect_registry import Dialect, UnknownOpError, lookup_dialect, lookup_op_class
from mlc.ir.core.gc_pause import gc_paused
from mlc.ir.core.ir import Block, BlockArgument, IRError, Operation, Region, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.opdef.traits import ConstantLike
from mlc.ir.rewrite.adaptor import OpAdaptor, make_adaptor
from mlc.ir.rewrite.greedy import fold_op, may_fold
from mlc.ir.rewrite.journal import INSERTED, MODIFIED, ChangeJournal
from mlc.ir.rewrite.pattern import PatternSet, RewritePattern
from mlc.ir.rewrite.region_simplify import reachable_blocks
from mlc.ir.rewrite.rewriter import PatternRewriter
from mlc.ir.rewrite.type_converter import TypeConverter

__all__ = [
    "CAST", "ConversionPattern", "ConversionResult", "ConversionRewriter", "ConversionTarget",
    "OpAdaptor", "TypeConverter", "apply_full_conversion", "apply_partial_conversion",
]

CAST = "builtin.unrealized_conversion_cast"

Legality = Callable[[Operation], bool]
OpRef = type | str
"""An op class, or an op's name ("dialect.op")."""

# How deep patterns may chain on the ops they create (a -> b -> c ...).
MAX_PATTERN_DEPTH = 32


# ---------------------------------------------------------------------------- target


class ConversionTarget:
    """Which ops the conversion must produce: rules per op and per dialect, the op's
    own rule first. An unknown op or dialect is an error when the rule is added."""

    def __init__(self):
        self._ops: dict[str, bool | Legality] = {CAST: True}
        self._dialects: dict[str, bool | Legality] = {}
        self._unknown: Legality | None = None
        # Op name -> the rule that decides (asked for every op a conversion meets).
        self._rules: dict[str, bool | Legality | None] = {}

    def add_legal_op(self, *ops: OpRef) -> None:
        for name in _op_names(ops):
            self._ops[name] = True
        self._rules.clear()

    def add_illegal_op(self, *ops: OpRef) -> None:
        for name in _op_names(ops):
            self._ops[name] = False
        self._rules.clear()

    def add_dynamically_legal_op(self, ops: OpRef | Sequence[OpRef], is_legal: Legality) -> None:
        """`ops` (one, or several) are legal when `is_legal(op)` says so."""
        for name in _op_names(ops if isinstance(ops, (list, tuple)) else (ops,)):
            self._ops[name] = is_legal
        self._rules.clear()

    def add_legal_dialect(self, *dialects: Dialect | str) -> None:
        for name in _dialect_names(dialects):
            self._dialects[name] = True
        self._rules.clear()

    def add_illegal_dialect(self, *dialects: Dialect | str) -> None:
        for name in _dialect_names(dialects):
            self._dialects[name] = False
        self._rules.clear()

    def add_dynamically_legal_dialect(self, dialect: Dialect | str, is_legal: Legality) -> None:
        for name in _dialect_names((dialect,)):
            self._dialects[name] = is_legal
        self._rules.clear()

    def mark_unknown_ops_dynamically_legal(self, is_legal: Legality) -> None:
        """Ops with no op or dialect rule are legal when `is_legal(op)` says so."""
        self._unknown = is_legal
        self._rules.clear()

    def legality(self, op: Operation) -> bool | None:
        """True (legal), False (illegal) or None (no rule: unknown)."""
        name = op.name
        try:
            rule = self._rules[name]
        except KeyError:
            rule = self._rules[name] = self._rule(name)
        if rule is None or rule is True or rule is False:
            return rule
        return bool(rule(op))

    def _rule(self, name: str) -> bool | Legality | None:
        rule = self._ops.get(name)
        if rule is None:
            rule = self._dialects.get(name.partition(".")[0])
            if rule is None:
                rule = self._unknown
        return rule

    def is_illegal(self, op: Operation) -> bool:
        return self.legality(op) is False


def _op_names(ops: Sequence[OpRef]) -> list[str]:
    try:
        return [lookup_op_class(op).op_def.name for op in ops]
    except UnknownOpError as error:
        raise UnknownOpError(f"conversion target: {error}") from None


def _dialect_names(dialects: Sequence[Dialect | str]) -> list[str]:
    try:
        return [lookup_dialect(d).name for d in dialects]
    except UnknownOpError as error:
        raise UnknownOpError(f"conversion target: {error}") from None


# ---------------------------------------------------------------------------- patterns


class ConversionPattern(RewritePattern):
    """A pattern that rewrites an op given its operands already converted.

    Set `root` to the op class it rewrites (its name works too; None: any op) and
    implement `match_and_rewrite(op, adaptor, rewriter)`: `adaptor` is the op class's
    typed adaptor, with each operand converted by the pattern's type converter (a
    target materialisation where a value still has an old type); without a type
    converter it holds the values that replaced the operands so far. The root and
    the method's parameters are checked when the class is defined.
    """

    op_class: type | None = None
    """The declared op class `root` names (None for a pattern on any op)."""

    def __init__(self, type_converter: TypeConverter | None = None):
        self.type_converter = type_converter

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "root" in cls.__dict__:
            if cls.root is None:
                cls.op_class = None
            else:
                try:
                    cls.op_class = lookup_op_class(cls.root)
                except UnknownOpError as error:
                    raise UnknownOpError(f"conversion pattern '{cls.__name__}': {error}") from None
                cls.root = cls.op_class.op_def.name
        method = cls.__dict__.get("match_and_rewrite")
        if method is not None:
            _check_match_and_rewrite(cls, method)

    def match_and_rewrite(self, op: Operation, adaptor: OpAdaptor,  # type: ignore[override]
                          rewriter: ConversionRewriter) -> bool:
        """Rewrite `op` (through `rewriter`) and return True, or return False."""
        raise NotImplementedError


def _check_match_and_rewrite(cls: type, method) -> None:
    parameters = list(inspect.signature(method).parameters.values())[1:]  # after self
    positional = [p for p in parameters
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    takes_rest = any(p.kind == p.VAR_POSITIONAL for p in parameters)
    required = [p for p in positional if p.default is p.empty]
    if takes_rest or (len(required) <= 3 <= len(positional)):
        return
    got = ", ".join(p.name for p in positional) or "nothing"
    raise TypeError(f"conversion pattern '{cls.__name__}': match_and_rewrite takes "
                    f"(op, adaptor, rewriter), not ({got})")


# ---------------------------------------------------------------------------- rewriter


class ConversionRewriter(PatternRewriter):
    """The rewriter conversion patterns use. Its changes are tentative until the
    conversion commits: replaced and erased ops stay in place with their results
    mapped to the replacements, and every change is journaled so that it can be
    undone. Every change must go through it."""

    def __init__(self, conversion: _Conversion):
        super().__init__(None)
        self._conversion = conversion
        self.journal = conversion.journal

    # ---------------------------------------------------------------- creating

    def insert(self, op: Operation) -> Operation:
        super().insert(op)
        self.journal.inserted(op)
        return op

    # ---------------------------------------------------------------- replacing and erasing

    def replace_op(self, op: Operation,  # type: ignore[override]
                   replacement: Operation | Sequence[Value | Sequence[Value]]) -> None:
        """Replace `op`'s results, each by a value or (1:N) a list of values, and
        erase `op`."""
        values = replacement.results if isinstance(replacement, Operation) else list(replacement)
        if len(values) != len(op.results):
            raise IRError(f"replacing '{op.name}' ({len(op.results)} results) with "
                          f"{len(values)} values")
        groups = [list(v) if isinstance(v, (list, tuple)) else [v] for v in values]
        if self.listener is not None:
            self.listener.notify_op_replaced(op, [v for g in groups for v in g])
        for result, group in zip(op.results, groups):
            self._conversion.map(result, group)
        self._conversion.erase(op)

    def erase_op(self, op: Operation) -> None:
        """Erase `op` and everything nested in it; its results must be unused once
        the conversion commits."""
        if self.listener is not None:
            for nested in op.walk(post_order=True):
                self.listener.notify_op_erased(nested)
        self._conversion.erase(op)

    def replace_all_uses_with(self, old: Value, new: Value) -> None:
        if old is not new:
            self._conversion.map(old, [new])

    def remapped(self, value: Value) -> list[Value]:
        """The values that replace `value` so far (itself when nothing does)."""
        return self._conversion.lookup(value)

    def on_rollback(self, undo: Callable[..., object], *args: object) -> None:
        """Call `undo(*args)` if the changes made so far are rolled back: for state a
        pattern keeps beside the IR (a cache of what it built)."""
        self.journal.on_undo(undo, *args)

    # ---------------------------------------------------------------- in place

    @contextmanager
    def modify_op_in_place(self, op: Operation) -> Iterator[Operation]:
        self.journal.modifying(op)
        yield op
        if self.listener is not None:
            self.listener.notify_op_modified(op)

    # ---------------------------------------------------------------- blocks

    def move_op_before(self, op: Operation, block: Block, before: Operation | None) -> None:
        self.journal.moving(op)
        super().move_op_before(op, block, before)

    def detach_block(self, block: Block) -> None:
        if block.parent is not None:
            self.journal.moving_block(block)
        super().detach_block(block)

    def insert_block(self, block: Block, region: Region, index: int) -> Block:
        self.journal.moving_block(block)  # a detached block: undone by detaching it again
        return super().insert_block(block, region, index)

    def add_block_argument(self, block: Block, type_: Type,
                           loc: Location | None = None) -> Value:
        self.journal.changing_block_args(block)
        return super().add_block_argument(block, type_, loc)

    def apply_signature_conversion(self, block: Block,
                                   conversion: Sequence[Sequence[Type]]) -> list[list[Value]]:
        """Give `block` new arguments: argument i becomes arguments of the types
        `conversion[i]` (none, one, or several). An argument whose types do not
        change is kept; the others are mapped to their new arguments, and their
        remaining uses get a source materialisation when the conversion commits.
        Returns the new arguments of each old one."""
        if len(conversion) != len(block.args):
            raise IRError(f"a signature conversion of {len(conversion)} arguments for a "
                          f"block of {len(block.args)}")
        new_args: list = []
        groups: list[list[Value]] = []
        replaced = []
        for arg, types in zip(block.args, conversion):
            types = tuple(types)
            if types == (arg.type,):
                new_args.append(arg)
                groups.append([arg])
                continue
            group = [BlockArgument(t, block, 0, arg.name_hint, arg.loc) for t in types]
            new_args.extend(group)
            groups.append(list(group))
            replaced.append((arg, group))
        if not replaced:
            return groups
        self.journal.changing_block_args(block)
        block.args = new_args
        for i, arg in enumerate(new_args):
            arg.index = i
        for arg, group in replaced:
            self._conversion.map(arg, list(group))
        return groups

    def convert_block_signature(self, block: Block,
                                converter: TypeConverter | None = None) -> list[list[Value]]:
        """Convert the type of each argument of `block` with `converter` (by default
        the conversion's), 1:N; see apply_signature_conversion."""
        converter = converter or self._conversion.type_converter
        return self.apply_signature_conversion(
            block, [converter.convert_type(arg.type) for arg in block.args])

    def convert_region_types(self, region: Region, converter: TypeConverter | None = None) -> None:
        """Convert the argument types of every block of `region` (1:N)."""
        for block in region.blocks:
            self.convert_block_signature(block, converter)


# ---------------------------------------------------------------------------- driver


@dataclass
class ConversionResult:
    """Whether a conversion succeeded and, if not, a diagnostic per op left illegal."""

    success: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)


class _Conversion:
    """The state of one conversion: the journal, the value mapping, and the ops
    replaced or erased (tentatively) with everything nested in them."""

    def __init__(self, target: ConversionTarget, patterns: PatternSet,
                 type_converter: TypeConverter | None, full: bool):
        self.target = target
        self.patterns = patterns
        self.type_converter = type_converter or TypeConverter()
        self.full = full
        self.journal = ChangeJournal()
        # Replaced values -> what replaces them (several after a 1:N conversion).
        self.mapping: dict[Value, list[Value]] = {}
        # Ops replaced or erased, in that order (a dict as an ordered set).
        self.erased: dict[Operation, None] = {}
        # Those and every op nested in them: the driver leaves them alone.
        self.ignored: set[Operation] = set()
        # Patterns being applied further up the legalization stack (by id: declarative
        # patterns may be unhashable data).
        self.active: set[int] = set()
        # (converter, value, types) -> the target materialisation of value to types.
        self.materialized: dict[tuple, list[Value]] = {}
        self.rewriter = ConversionRewriter(self)

    def release(self) -> None:
        """Let go of everything once the conversion is over. The driver and its
        rewriter refer to each other and the mapping holds every value replaced, so
        left alone they would keep the replaced IR until Python's cyclic collector
        ran (see Operation.destroy)."""
        self.mapping.clear()
        self.erased.clear()
        self.ignored.clear()
        self.materialized.clear()
        self.journal.discard()
        del self.rewriter

    # ---------------------------------------------------------------- tentative changes

    def map(self, value: Value, values: list[Value]) -> None:
        previous = self.mapping.get(value)
        self.mapping[value] = values
        self.journal.on_undo(_restore_mapping, self.mapping, value, previous)

    def erase(self, op: Operation) -> None:
        if op in self.ignored:
            raise IRError(f"'{op.name}' was already replaced or erased")
        newly = _nested_ops(op, self.ignored) if op.regions else [op]
        self.ignored.update(newly)
        self.erased[op] = None
        self.journal.on_undo(_unerase, self, op, newly)

    def lookup(self, value: Value) -> list[Value]:
        """The values that replace `value`, following chains of replacements."""
        mapping = self.mapping
        if value not in mapping:
            return [value]
        result: list[Value] = []
        stack = [value]
        budget = 4 * len(mapping) + 16  # more steps than that means a cycle
        while stack:
            current = stack.pop()
            replacement = mapping.get(current)
            if replacement is None:
                result.append(current)
                continue
            budget -= 1
            if budget < 0:
                raise IRError("values were replaced in a cycle")
            stack.extend(reversed(replacement))
        return result

    # ---------------------------------------------------------------- legalization

    def adaptor(self, op: Operation, converter: TypeConverter | None) -> OpAdaptor:
        groups = []
        mapping = self.mapping
        for operand in op.operands:
            group = self.lookup(operand) if operand in mapping else [operand]
            if converter is not None and len(group) == 1:
                type_ = group[0].type
                wanted = converter.convert_type(type_)
                if len(wanted) != 1 or wanted[0] != type_:
                    group = self.materialize_target(converter, group[0], wanted, op.loc)
            groups.append(group)
        return make_adaptor(op, groups)

    def materialize_target(self, converter: TypeConverter, value: Value,
                           types: tuple[Type, ...], loc: Location) -> list[Value]:
        """`value` as values of the converted `types` for an op at `loc`, as MLIR's
        driver gives it: built just after `value` is defined, once, and shared by
        every op that later needs it converted the same way."""
        key = (converter, value, types)
        cached = self.materialized.get(key)
        if cached is not None:
            return cached
        rewriter = self.rewriter
        with rewriter.insertion_point():
            rewriter.block, rewriter.before = _definition_point(value, [value])
            values = converter.materialize_target(rewriter, types, [value], loc)
        self.materialized[key] = values
        self.journal.on_undo(self.materialized.pop, key)
        return values

    def legalize(self, op: Operation, depth: int = 0) -> bool:
        legality = self.target.legality(op)
        if legality or (legality is None and not self.full):
            return True
        if depth > MAX_PATTERN_DEPTH:
            return False
        if self._legalize_with_fold(op, depth):
            return True
        rewriter, journal = self.rewriter, self.journal
        for pattern in self.patterns.for_op(op.name):
            key = id(pattern)
            if key in self.active and not pattern.bounded_recursion:
                continue  # not on what this very pattern produced
            checkpoint = journal.checkpoint()
            rewriter.set_insertion_point_before(op)
            self.active.add(key)
            try:
                if isinstance(pattern, ConversionPattern):
                    adaptor = self.adaptor(op, pattern.type_converter)
                    applied = pattern.match_and_rewrite(op, adaptor, rewriter)
                else:
                    applied = pattern.match_and_rewrite(op, rewriter)
                if applied and self._legalize_changes(pattern, op, checkpoint, depth):
                    return True
            finally:
                self.active.discard(key)
            journal.rollback(checkpoint)
        return False

    def _legalize_with_fold(self, op: Operation, depth: int) -> bool:
        """Fold the illegal `op` before trying patterns, as MLIR does: replaced by what
        it folds to (new constants legalized in turn), or changed in place and then
        legalized again. Undone unless that makes it legal."""
        if op.op_def is None or op.has_trait(ConstantLike) or not may_fold(op):
            return False
        rewriter, journal = self.rewriter, self.journal
        checkpoint = journal.checkpoint()
        journal.modifying(op)  # an in-place fold changes the op before saying so
        rewriter.set_insertion_point_before(op)
        folded = fold_op(op, rewriter)
        if folded is None:
            journal.forget(checkpoint)  # an op that does not fold is left as it was
            return False
        if not folded:
            if self.legalize(op, depth + 1):
                return True
        else:
            values, constants = [], []
            for item, old in zip(folded, op.results):
                if not isinstance(item, Attribute):
                    values.append(item)
                    continue
                constant = op.op_def.dialect.materialize_constant(item, old.type, op.loc)
                if constant is None:
                    break
                constants.append(rewriter.insert(constant))
                values.append(constant.results[0])
            else:
                rewriter.replace_op(op, values)
                if all(self.legalize(constant, depth + 1) for constant in constants):
                    return True
        journal.rollback(checkpoint)
        return False

    def _legalize_changes(self, pattern: RewritePattern, op: Operation, checkpoint: int,
                          depth: int) -> bool:
        """After `pattern` rewrote `op`: legalize the ops it created and the ops it
        changed in place."""
        changes = self.journal.since(checkpoint)
        if op not in self.ignored and not any(
                entry[0] == MODIFIED and entry[1] is op for entry in changes):
            raise IRError(f"pattern '{pattern.name}' reported success on '{op.name}' but did not "
                          "replace, erase or modify it")
        modified: dict[Operation, None] = {}
        for entry in changes:
            if entry[0] == INSERTED:
                for new in entry[2]:
                    if new not in self.ignored and not self.legalize(new, depth + 1):
                        return False
            elif entry[0] == MODIFIED:
                modified[entry[1]] = None
        return all(changed in self.ignored or self.legalize(changed, depth + 1)
                   for changed in modified)

    # ---------------------------------------------------------------- commit

    def commit(self) -> list[Diagnostic]:
        """Make the changes final, or return why they cannot be (nothing final yet)."""
        ignored, rewriter = self.ignored, self.rewriter
        remaps: list[tuple[list, Value]] = []
        for old in list(self.mapping):
            live = [use for use in old.uses if use.owner not in ignored]
            if not live:
                continue
            new = self.lookup(old)
            if len(new) == 1 and new[0].type == old.type:
                remaps.append((live, new[0]))
                continue
            with rewriter.insertion_point():
                rewriter.block, rewriter.before = _definition_point(old, new)
                [value] = self.type_converter.materialize_source(rewriter, [old.type], new,
                                                                 _location(old, new))
            remaps.append((live, value))
        diagnostics = []
        for op in self.erased:
            for result in op.results:
                if result in self.mapping:
                    continue
                user = next((use.owner for use in result.uses if use.owner not in ignored), None)
                if user is not None:
                    diagnostics.append(Diagnostic(
                        "error", f"'{op.name}' was erased but its result #{result.index} is still "
                                 f"used by '{user.name}'", user.loc))
        if diagnostics:
            return diagnostics
        # Nothing below can fail.
        for uses, value in remaps:
            for use in uses:
                use.set(value)
        # Out of their blocks first (an erased op may be nested in another), then taken
        # apart: their uses dropped (a replaced branch no longer branches anywhere) and
        # freed at once (Operation.destroy).
        for op in self.erased:
            op.detach()
        for op in self.erased:
            op.destroy()
        self.journal.discard()
        return []


def _restore_mapping(mapping: dict, value: Value, previous: list[Value] | None) -> None:
    if previous is None:
        del mapping[value]
    else:
        mapping[value] = previous


def _unerase(conversion: _Conversion, op: Operation, newly: list[Operation]) -> None:
    del conversion.erased[op]
    conversion.ignored.difference_update(newly)


def _nested_ops(op: Operation, skip: set[Operation]) -> list[Operation]:
    """`op` and the ops nested in it, not descending into ops in `skip`."""
    found = []
    stack = [op]
    while stack:
        current = stack.pop()
        if current in skip:
            continue
        found.append(current)
        for region in current.regions:
            for block in region.blocks:
                stack.extend(block.ops())
    return found


def _definition_point(old: Value, new: Sequence[Value]) -> tuple[Block, Operation | None]:
    """(block, before-op) just after the last of `new` is defined (after `old` when
    there is no new value)."""
    value = new[-1] if new else old
    op = value.defining_op
    if op is not None:
        return op.parent, op.next_op
    block = value.block
    return block, block.first_op


def _location(old: Value, new: Sequence[Value]) -> Location:
    value = new[-1] if new else old
    op = value.defining_op
    if op is not None:
        return op.loc
    return getattr(value, "loc", None) or unknown_loc


def _apply(root: Operation, target: ConversionTarget, patterns: PatternSet,
           type_converter: TypeConverter | None, full: bool,
           first_failure_only: bool) -> ConversionResult:
    with gc_paused():
        return _convert(root, target, patterns, type_converter, full, first_failure_only)


def _conversion_set(root: Operation) -> list[Operation]:
    """The ops nested in `root` a conversion legalizes, in pre-order, leaving out the
    blocks no path from their region's entry reaches (as MLIR: IR there is not
    converted). Iterative, for deep nesting."""
    found: list[Operation] = []
    pending: list[Iterator[Operation]] = [_reached_ops(root)]
    while pending:
        op = next(pending[-1], None)
        if op is None:
            pending.pop()
            continue
        found.append(op)
        if op.regions:
            pending.append(_reached_ops(op))
    return found


def _reached_ops(op: Operation) -> Iterator[Operation]:
    """The ops directly in `op`'s regions, in reachable blocks only."""
    for region in op.regions:
        reached = reachable_blocks(region) if len(region.blocks) > 1 else None
        for block in region.blocks:
            if reached is None or block in reached:
                yield from block.ops()


def _convert(root: Operation, target: ConversionTarget, patterns: PatternSet,
             type_converter: TypeConverter | None, full: bool,
             first_failure_only: bool) -> ConversionResult:
    conversion = _Conversion(target, patterns, type_converter, full)
    try:
        return _drive(conversion, root, target, first_failure_only)
    finally:
        conversion.release()


def _drive(conversion: _Conversion, root: Operation, target: ConversionTarget,
           first_failure_only: bool) -> ConversionResult:
    failed = []
    for op in _conversion_set(root):
        # Ops replaced or erased meanwhile (with what they held) are skipped.
        if op not in conversion.ignored and not conversion.legalize(op):
            failed.append(op)
            if first_failure_only:
                break
    if failed:
        diagnostics = [Diagnostic(
            "error", f"failed to legalize operation '{op.name}'"
            + (" that was explicitly marked illegal" if target.is_illegal(op) else ""), op.loc)
            for op in failed]
    else:
        diagnostics = conversion.commit()
    if diagnostics:
        conversion.journal.rollback()
        return ConversionResult(False, diagnostics)
    return ConversionResult(True)


def apply_partial_conversion(root: Operation, target: ConversionTarget, patterns: PatternSet,
                             type_converter: TypeConverter | None = None,
                             first_failure_only: bool = False) -> ConversionResult:
    """Convert the illegal ops under `root`; ops with no legality rule may stay. Every
    op left illegal is reported, or with `first_failure_only` the first, where MLIR's
    driver stops (for passes that answer as MLIR's do)."""
    return _apply(root, target, patterns, type_converter, False, first_failure_only)


def apply_full_conversion(root: Operation, target: ConversionTarget, patterns: PatternSet,
                          type_converter: TypeConverter | None = None,
                          first_failure_only: bool = False) -> ConversionResult:
    """Convert every op under `root` to a legal one, or fail (reporting as
    apply_partial_conversion does)."""
    return _apply(root, target, patterns, type_converter, True, first_failure_only)
