"""Passes: declaration and registry, options, PassContext, pipelines, the pass manager,
instruments and analyses.

    from mlc.ir.passes import Pass, register_pass, option, PassContext, PassManager
"""

from mlc.ir.core.lazy_exports import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    "registry": ("NoOptions", "Pass", "PassFailure", "PassInfo", "load_pass_plugins",
                 "register_pass", "register_pipeline"),
    "options": ("OptionError", "option"),
    "context": ("ConfigError", "DEFAULT_OPT_LEVEL", "PassContext", "register_config"),
    "pipeline": ("PipelineError", "parse_pipeline"),
    "manager": ("PassManager", "PassRun", "PipelineResult", "run_pipeline"),
    "instruments": ("PassInstrument", "PrintIR", "SkipReporter", "Statistics", "Timing"),
    "analysis": ("AnalysisManager", "DominanceInfo", "PostDominanceInfo"),
})
