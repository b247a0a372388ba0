# lit configuration for mlc's FileCheck tests: `// RUN: mlc-opt %s | filecheck %s`.
import os
import shutil
import sys

import lit.formats

config.name = "mlc"  # noqa: F821 - lit provides `config`
config.test_format = lit.formats.ShTest(execute_external=False)  # noqa: F821
config.suffixes = [".mlir"]  # noqa: F821
config.test_source_root = os.path.dirname(__file__)  # noqa: F821
config.excludes = ["Inputs"]  # noqa: F821

# The venv's bin (where mlc-opt and filecheck live) comes first on PATH.
venv_bin = os.path.dirname(sys.executable)
config.environment["PATH"] = venv_bin + os.pathsep + os.environ.get("PATH", "")  # noqa: F821
config.environment["MLC_CACHE_DIR"] = os.environ.get(  # noqa: F821
    "MLC_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "mlc"))

# Interop cases need MLIR's own mlir-opt.
for candidate in ("mlir-opt-22", "mlir-opt"):
    path = shutil.which(candidate)
    if path:
        config.available_features.add("mlir-opt")  # noqa: F821
        config.substitutions.append(("%mlir_opt", path))  # noqa: F821
        break

# ... and mlir-translate, which must read what convert-to-llvm produces.
for candidate in ("mlir-translate-22", "mlir-translate"):
    path = shutil.which(candidate)
    if path:
        config.available_features.add("mlir-translate")  # noqa: F821
        config.substitutions.append(("%mlir_translate", path))  # noqa: F821
        break
