"""Shared pytest configuration."""

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
