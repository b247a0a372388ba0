"""Dialect conversion: rewrite ops until every op is legal for a target.

- :class:`ConversionTarget` says which ops are legal, illegal or dynamically legal
  (by op name or by dialect).
- :class:`TypeConverter` maps types 1:1 or 1:N, converts block signatures, and
  materialises values across the type change: *target* materialisations turn a value
  of an old type into the new types (for a pattern's operands), *source*
  materialisations turn new values back into the old type (for users that stay
  unconverted). Both default to `builtin.unrealized_conversion_cast`, which the
  `reconcile-unrealized-casts` pass removes once both sides agree.
- :class:`ConversionPattern` receives the op and its operands *already converted*.

The driver works on a copy of the IR: a failed conversion reports every op left
illegal, at its location, and leaves the original untouched (byte-identical); a
successful one moves the converted regions into the original op. Partial conversion
lets ops with no legality rule stay; full conversion requires every op to be legal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mlc.ir.core.attributes import Location, Type
from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.rewrite.pattern import PatternSet, RewritePattern
from mlc.ir.rewrite.rewriter import PatternRewriter

CAST = "builtin.unrealized_conversion_cast"

Legality = Callable[[Operation], bool]


class ConversionTarget:
    """Which ops the conversion must produce."""

    def __init__(self):
        self._ops: dict[str, bool | Legality] = {}
        self._dialects: dict[str, bool | Legality] = {}
        self._unknown: Legality | None = None
        self.add_legal_op(CAST)

    def add_legal_op(self, *names: str) -> None:
        for name in names:
            self._ops[name] = True

    def add_illegal_op(self, *names: str) -> None:
        for name in names:
            self._ops[name] = False

    def add_dynamically_legal_op(self, name: str, is_legal: Legality) -> None:
        self._ops[name] = is_legal

    def add_legal_dialect(self, *names: str) -> None:
        for name in names:
            self._dialects[name] = True

    def add_illegal_dialect(self, *names: str) -> None:
        for name in names:
            self._dialects[name] = False

    def add_dynamically_legal_dialect(self, name: str, is_legal: Legality) -> None:
        self._dialects[name] = is_legal

    def mark_unknown_ops_dynamically_legal(self, is_legal: Legality) -> None:
        self._unknown = is_legal

    def legality(self, op: Operation) -> bool | None:
        """True (legal), False (illegal) or None (no rule: unknown)."""
        rule = self._ops.get(op.name)
        if rule is None:
            rule = self._dialects.get(op.name.split(".", 1)[0])
        if rule is None:
            rule = self._unknown
        if rule is None:
            return None
        return rule if isinstance(rule, bool) else bool(rule(op))

    def is_illegal(self, op: Operation) -> bool:
        return self.legality(op) is False


Materialization = Callable[[PatternRewriter, Sequence[Type], Sequence[Value], Location],
                           Sequence[Value] | None]


def _cast_materialization(rewriter: PatternRewriter, types: Sequence[Type],
                          inputs: Sequence[Value], loc: Location) -> list[Value]:
    from mlc.ir.dialects.builtin import UnrealizedConversionCastOp

    op = UnrealizedConversionCastOp.create(list(inputs), list(types), {}, loc=loc)
    rewriter.insert(op)
    return list(op.results)


class TypeConverter:
    """Maps types (1:1 or 1:N) and materialises values across the change.

    Conversions are tried newest first; each returns a type, a list of types (1:N,
    possibly empty), or None to pass. Types no conversion handles are kept as they are.
    """

    def __init__(self):
        self._conversions: list[Callable[[Type], Type | list[Type] | None]] = []
        self._source: list[Materialization] = [_cast_materialization]
        self._target: list[Materialization] = [_cast_materialization]
        self._cache: dict[Type, tuple[Type, ...]] = {}

    def add_conversion(self, fn: Callable[[Type], Type | list[Type] | None]) -> None:
        self._conversions.insert(0, fn)
        self._cache.clear()

    def add_source_materialization(self, fn: Materialization) -> None:
        self._source.insert(0, fn)

    def add_target_materialization(self, fn: Materialization) -> None:
        self._target.insert(0, fn)

    def convert_type(self, type_: Type) -> tuple[Type, ...]:
        cached = self._cache.get(type_)
        if cached is not None:
            return cached
        result: tuple[Type, ...] = (type_,)
        for fn in self._conversions:
            converted = fn(type_)
            if converted is None:
                continue
            result = tuple(converted) if isinstance(converted, (list, tuple)) else (converted,)
            break
        self._cache[type_] = result
        return result

    def convert_types(self, types: Sequence[Type]) -> list[Type]:
        return [t for type_ in types for t in self.convert_type(type_)]

    def is_legal(self, type_: Type) -> bool:
        return self.convert_type(type_) == (type_,)

    def is_op_legal(self, op: Operation) -> bool:
        """All operand and result types are legal (a common dynamic legality rule)."""
        return all(self.is_legal(t) for t in op.operand_types) and \
            all(self.is_legal(t) for t in op.result_types)

    def materialize(self, kind: str, rewriter: PatternRewriter, types: Sequence[Type],
                    inputs: Sequence[Value], loc: Location) -> list[Value]:
        for fn in (self._source if kind == "source" else self._target):
            values = fn(rewriter, types, inputs, loc)
            if values is not None:
                return list(values)
        raise ValueError(f"no {kind} materialisation from {[v.type for v in inputs]} to {types}")


@dataclass
class OpAdaptor:
    """The converted operands of the op being rewritten: `operands` (one value per
    original operand) and `operand_groups` (the 1:N values of each)."""

    operand_groups: list[list[Value]]

    @property
    def operands(self) -> list[Value]:
        return [group[0] if len(group) == 1 else None for group in self.operand_groups]


class ConversionPattern(RewritePattern):
    """A pattern that sees its op's operands already converted."""

    def __init__(self, type_converter: TypeConverter | None = None):
        self.type_converter = type_converter

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        raise TypeError("conversion patterns run under the conversion driver")

    def match_and_rewrite_converted(self, op: Operation, adaptor: OpAdaptor,
                                    rewriter: ConversionRewriter) -> bool:
        raise NotImplementedError


class ConversionRewriter(PatternRewriter):
    """The rewriter conversion patterns use: replacements are recorded (uses are
    remapped when the conversion commits) and block signatures can change type."""

    def __init__(self, driver: _ConversionDriver):
        super().__init__(None)
        self.driver = driver

    def insert(self, op: Operation) -> Operation:
        super().insert(op)
        self.driver.created.append(op)
        return op

    def replace_op(self, op: Operation, replacement) -> None:  # type: ignore[override]
        values = replacement.results if isinstance(replacement, Operation) else list(replacement)
        groups = [v if isinstance(v, list) else [v] for v in values]
        if len(groups) != len(op.results):
            raise ValueError(f"replacing '{op.name}' ({len(op.results)} results) with "
                             f"{len(groups)} values")
        for result, group in zip(op.results, groups):
            self.driver.mapping[result] = group
        self.driver.replaced.append(op)

    def erase_op(self, op: Operation) -> None:
        self.driver.replaced.append(op)

    def convert_region_types(self, region: Region, converter: TypeConverter | None = None) -> None:
        """Convert the argument types of every block of `region` (1:N)."""
        converter = converter or self.driver.type_converter
        for block in region.blocks:
            self.convert_block_signature(block, converter)

    def convert_block_signature(self, block: Block, converter: TypeConverter) -> None:
        for arg in list(block.args):
            types = converter.convert_type(arg.type)
            if types == (arg.type,):
                continue
            position = block.args.index(arg) + 1
            new_args = [block.insert_argument(position + i, t, arg.name_hint, arg.loc)
                        for i, t in enumerate(types)]
            self.driver.mapping[arg] = new_args
            self.driver.replaced_args.append(arg)


@dataclass
class ConversionResult:
    success: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)


class _ConversionDriver:
    def __init__(self, target: ConversionTarget, patterns: PatternSet,
                 type_converter: TypeConverter | None, full: bool):
        self.target = target
        self.patterns = patterns
        self.type_converter = type_converter or TypeConverter()
        self.full = full
        self.mapping: dict[Value, list[Value]] = {}
        self.replaced: list[Operation] = []
        self.replaced_args: list = []
        self.created: list[Operation] = []

    def lookup(self, value: Value) -> list[Value]:
        group = [value]
        for _ in range(64):  # follow chains of replacements
            if len(group) != 1 or group[0] not in self.mapping:
                return group
            group = self.mapping[group[0]]
        return group

    def adaptor(self, op: Operation, rewriter: ConversionRewriter,
                converter: TypeConverter | None) -> OpAdaptor:
        groups = []
        for operand in op.operands:
            group = self.lookup(operand)
            if converter is not None and len(group) == 1:
                wanted = converter.convert_type(group[0].type)
                if wanted != (group[0].type,):
                    group = converter.materialize("target", rewriter, wanted, group, op.loc)
            groups.append(group)
        return OpAdaptor(groups)

    def legalize(self, op: Operation, rewriter: ConversionRewriter, depth: int = 0) -> bool:
        legality = self.target.legality(op)
        if legality is True or (legality is None and not self.full):
            return True
        if depth > 32:
            return False
        for pattern in self.patterns.for_op(op.name):
            rewriter.set_insertion_point_before(op)
            start = len(self.created)
            if isinstance(pattern, ConversionPattern):
                adaptor = self.adaptor(op, rewriter, pattern.type_converter)
                applied = pattern.match_and_rewrite_converted(op, adaptor, rewriter)
            else:
                applied = pattern.match_and_rewrite(op, rewriter)
            if not applied:
                continue
            # Ops the pattern created must be legal too: legalize them in turn.
            for new in self.created[start:]:
                if new.parent is not None and not self.legalize(new, rewriter, depth + 1):
                    return False
            return True
        return False

    def run(self, root: Operation) -> list[Operation]:
        """Legalize every op under `root`; returns the ops that could not be."""
        rewriter = ConversionRewriter(self)
        failed = []
        for op in [o for o in root.walk() if o is not root]:
            if op in self.replaced or _inside_any(op, self.replaced):
                continue
            if not self.legalize(op, rewriter):
                failed.append(op)
        return failed

    def commit(self, rewriter: ConversionRewriter) -> None:
        """Remap the uses left on replaced values, then erase what was replaced."""
        erased = set(self.replaced)
        for old in list(self.mapping):
            uses = [u for u in old.uses if u.owner not in erased and not _inside_any(u.owner, erased)]
            if not uses:
                continue
            new = self.lookup(old)
            if len(new) == 1 and new[0].type == old.type:
                value = new[0]
            else:
                anchor = _definition_point(new)
                with rewriter.insertion_point():
                    rewriter.block, rewriter.before = anchor
                    value = self.type_converter.materialize("source", rewriter, [old.type], new,
                                                            _loc_of(new))[0]
            for use in uses:
                use.set(value)
        for op in reversed(self.replaced):
            if op.parent is None:
                continue
            for result in op.results:
                for use in list(result.uses):
                    use.drop()
            op.drop_all_references()
            op.detach()
        for arg in self.replaced_args:
            for use in list(arg.uses):
                use.drop()
            block = arg.block
            block.args.remove(arg)
            for i, a in enumerate(block.args):
                a.index = i


def _inside_any(op: Operation, ops) -> bool:
    parent = op.parent_op
    ops = ops if isinstance(ops, set) else set(ops)
    while parent is not None:
        if parent in ops:
            return True
        parent = parent.parent_op
    return False


def _definition_point(values: Sequence[Value]):
    """(block, before-op) just after the last of `values` is defined."""
    value = values[-1]
    op = value.defining_op
    if op is not None:
        return op.parent, op.next_op
    block = value.block
    return block, block.first_op


def _loc_of(values: Sequence[Value]) -> Location:
    from mlc.ir.core.attributes import unknown_loc

    value = values[-1]
    op = value.defining_op
    if op is not None:
        return op.loc
    return getattr(value, "loc", None) or unknown_loc


def _apply(root: Operation, target: ConversionTarget, patterns: PatternSet,
           type_converter: TypeConverter | None, full: bool) -> ConversionResult:
    work = root.clone()
    driver = _ConversionDriver(target, patterns, type_converter, full)
    failed = driver.run(work)
    if not failed:
        driver.commit(ConversionRewriter(driver))
        leftovers = [op for op in work.walk() if op is not work and (
            target.is_illegal(op) or (full and target.legality(op) is None))]
        failed = leftovers
    if failed:
        # Map the copies back to the original ops, for their locations.
        return ConversionResult(False, [Diagnostic(
            "error", f"failed to legalize operation '{op.name}'"
            + (" that was explicitly marked illegal" if target.is_illegal(op) else ""), op.loc)
            for op in failed])
    # Commit: the converted regions replace the original ones.
    for old_region, new_region in zip(root.regions, work.regions):
        for block in list(old_region.blocks):
            for op in block.ops():
                op.drop_all_references()
        old_region.blocks.clear()
        for block in list(new_region.blocks):
            new_region.blocks.remove(block)
            block.parent = None
            old_region.append(block)
    return ConversionResult(True)


def apply_partial_conversion(root: Operation, target: ConversionTarget, patterns: PatternSet,
                             type_converter: TypeConverter | None = None) -> ConversionResult:
    """Convert illegal ops under `root`; ops with no legality rule may stay."""
    return _apply(root, target, patterns, type_converter, full=False)


def apply_full_conversion(root: Operation, target: ConversionTarget, patterns: PatternSet,
                          type_converter: TypeConverter | None = None) -> ConversionResult:
    """Convert every op under `root` to a legal one, or fail."""
    return _apply(root, target, patterns, type_converter, full=True)
