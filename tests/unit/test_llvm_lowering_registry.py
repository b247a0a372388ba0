"""The arith, math, cf and ub lowerings to llvm are registered where convert-to-llvm
finds them, and each has its own pass, as in MLIR."""

from mlc.ir.passes.registry import PASSES, load_pass_plugins
from mlc.llvm.conversion.common import LLVMTypeConverter, registered_pattern_sets
from mlc.llvm.conversion.convert_to_llvm import to_llvm_pattern_set


def test_convert_to_llvm_gathers_the_four_pattern_sets():
    patterns = to_llvm_pattern_set(LLVMTypeConverter())
    assert {"arith", "math", "cf", "ub"} <= set(registered_pattern_sets())
    roots = {p.root for p in patterns}
    for name in ("arith.addi", "arith.ceildivsi", "math.rsqrt", "cf.assert", "ub.poison"):
        assert name in roots, name


def test_each_dialect_has_its_pass():
    load_pass_plugins()
    for dialect in ("arith", "math", "cf", "ub"):
        assert f"convert-{dialect}-to-llvm" in PASSES
