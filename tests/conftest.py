"""Shared pytest configuration."""

import os
import shutil

import pytest
from hypothesis import HealthCheck, settings

# Deterministic property tests: the same examples on every run and machine, with the
# blob to reproduce a failure printed. Select another profile with
# `pytest --hypothesis-profile=NAME`.
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=100,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci")

# For hunting bugs locally: many random examples (`--hypothesis-profile=dev`).
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=1000,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.fixture(scope="session")
def mlir_opt() -> str:
    """The path of mlir-opt-22 (else mlir-opt), the oracle for MLIR semantics: a test
    using it is skipped when neither is installed, and fails instead under CI=true."""
    path = shutil.which("mlir-opt-22") or shutil.which("mlir-opt")
    if path is None:
        message = ("neither mlir-opt-22 nor mlir-opt is on PATH; install MLIR's tools: "
                   "`apt-get install mlir-22-tools`")
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def c_compiler() -> str:
    """`cc`, which links shared libraries (mlc.llvm.export): a test using it is skipped
    when it is missing, and fails instead under CI=true."""
    path = shutil.which("cc")
    if path is None:
        message = "no C compiler `cc` on PATH to link shared libraries (apt-get install gcc)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session", autouse=True)
def private_cache_dir(tmp_path_factory):
    """mlc's persistent caches (compiled code, the measured peak) go to a folder of
    this test session, never the user's: tests start cold and leave nothing behind."""
    previous = os.environ.get("MLC_CACHE_DIR")
    os.environ["MLC_CACHE_DIR"] = str(tmp_path_factory.mktemp("mlc-cache"))
    yield os.environ["MLC_CACHE_DIR"]
    if previous is None:
        os.environ.pop("MLC_CACHE_DIR", None)
    else:
        os.environ["MLC_CACHE_DIR"] = previous
