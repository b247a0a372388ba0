"""Rewriting IR: the rewriter API, patterns (code and declarative), the greedy and walk
drivers, and dialect conversion.

    from mlc.ir.rewrite import RewritePattern, PatternSet, apply_patterns_greedily
"""

from mlc.ir.core.lazy_exports import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    "rewriter": ("PatternRewriter", "Rewriter", "RewriterListener"),
    "pattern": ("PatternError", "PatternSet", "RewritePattern"),
    "drr": ("A", "AttrIs", "Check", "Const", "Dag", "DagPattern", "Native", "V"),
    "greedy": ("ConstantFolder", "GreedyConfig", "GreedyResult", "apply_patterns_greedily",
               "apply_patterns_once", "is_trivially_dead"),
    "conversion": ("ConversionPattern", "ConversionResult", "ConversionRewriter",
                   "ConversionTarget", "apply_full_conversion", "apply_partial_conversion"),
    "type_converter": ("TypeConverter", "cast_materialization"),
    "adaptor": ("OpAdaptor", "adaptor_class"),
})
