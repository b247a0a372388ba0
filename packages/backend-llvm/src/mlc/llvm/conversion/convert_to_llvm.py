"""The `convert-to-llvm` pass: every registered `<dialect>_to_llvm` pattern set in one
dialect conversion, then the casts between the two sides reconciled.

Whatever is left that is not of the llvm dialect (an op no pattern lowers, a type the
converter cannot express) is named in ONE diagnostic at the first such op, listing
each op name once with its count.

`filter-dialects=arith,...` (MLIR's option) uses only those dialects' pattern sets,
as each `convert-<dialect>-to-llvm` pass does: the ops they lower must be lowered,
other ops stay, with unrealized casts between the two sides.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from dataclasses import dataclass

from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.passes.options import allow_pattern_rollback_option, option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import ConversionTarget, apply_partial_conversion
from mlc.ir.rewrite.pattern import PatternSet
from mlc.llvm.conversion.common import LLVMTypeConverter, registered_pattern_sets

# The modules that register pattern sets, imported when the pass first runs.
PATTERN_MODULES = ("arith_to_llvm", "math_to_llvm", "math_to_libm", "math_to_funcs",
                   "cf_to_llvm", "ub_to_llvm", "func_to_llvm", "memref_to_llvm",
                   "vector_to_llvm")

# Ops that may stay: the module around everything.
_KEPT = frozenset({"builtin.module"})


def _load_pattern_modules() -> None:
    for name in PATTERN_MODULES:
        try:
            importlib.import_module(f"mlc.llvm.conversion.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"mlc.llvm.conversion.{name}":
                raise


def to_llvm_pattern_set(converter: LLVMTypeConverter,
                        dialects: tuple[str, ...] = ()) -> PatternSet:
    """Every registered dialect's patterns lowering to llvm (those of `dialects` only,
    if given), for `converter`."""
    _load_pattern_modules()
    patterns = PatternSet()
    for name, factory in sorted(registered_pattern_sets().items()):
        if dialects and name not in dialects:
            continue
        for pattern in factory(converter):
            patterns.add(pattern)
    return patterns


def pattern_set_names() -> tuple[str, ...]:
    """The dialects with a pattern set lowering to llvm (`filter-dialects`' choices)."""
    _load_pattern_modules()
    return tuple(sorted(registered_pattern_sets()))


def convert_to_llvm(module: Operation) -> list[Diagnostic]:
    """Lower `module` to the llvm dialect in place; the diagnostics of what could not
    be lowered (the module is then left as it was)."""
    converter = LLVMTypeConverter()
    target = ConversionTarget()
    target.add_legal_dialect("llvm")
    target.add_legal_op(*_KEPT)
    target.mark_unknown_ops_dynamically_legal(lambda op: False)
    result = apply_partial_conversion(module, target, to_llvm_pattern_set(converter), converter)
    if not result.success:
        # The driver names each op it could not legalize; say it once, by op name.
        failed = [d for d in result.diagnostics if _FAILED.match(d.message)]
        if not failed:
            return list(result.diagnostics)
        counts = Counter(_FAILED.match(d.message).group(1) for d in failed)
        return [Diagnostic("error", "convert-to-llvm cannot lower " + _names(counts),
                           failed[0].loc)]
    from mlc.ir.passes.generic.reconcile_casts import reconcile_unrealized_casts

    reconcile_unrealized_casts(module)
    left = [op for op in module.walk() if op is not module
            and op.name not in _KEPT and not op.name.startswith("llvm.")]
    if not left:
        return []
    return [Diagnostic("error", "convert-to-llvm left "
                       + _names(Counter(op.name for op in left))
                       + " (values whose types have no LLVM form)", left[0].loc)]


_FAILED = re.compile(r"failed to legalize operation '([^']+)'")


def _names(counts: Counter) -> str:
    return ", ".join(f"'{name}'" + (f" ({n})" if n > 1 else "")
                     for name, n in sorted(counts.items()))


@dataclass(frozen=True)
class ConvertToLLVMOptions:
    filter_dialects: tuple[str, ...] = option(
        (), choices=pattern_set_names, choices_name="dialects with patterns to llvm",
        doc="lower only these dialects' ops; others stay (with unrealized casts)")
    allow_pattern_rollback: bool = allow_pattern_rollback_option()


@register_pass("convert-to-llvm", opt_level=0, dialects=("llvm",), options=ConvertToLLVMOptions,
               summary="Lower func, arith, math, cf, memref (static shapes, bare pointers) "
                       "and vector to the llvm dialect.")
class ConvertToLLVM(Pass):
    def run(self, op: Operation, run) -> None:
        dialects = run.options.filter_dialects
        if dialects:
            from mlc.llvm.conversion.one_to_one import convert_dialect_to_llvm

            converter = LLVMTypeConverter()
            convert_dialect_to_llvm(op, to_llvm_pattern_set(converter, dialects), converter)
            return
        diagnostics = convert_to_llvm(op)
        if diagnostics:
            raise PassFailure(diagnostics)
