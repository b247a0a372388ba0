"""The cost model of the evolutionary search: gradient-boosted trees (XGBoost, as
TVM's meta-schedule uses) learned online from the candidates measured so far, from
their loop-IR features (:mod:`mlc.tune.features`) to -log(time): it ranks candidates
before any is built, so that measurements go to the likely fast ones.

XGBoost is an optional extra (`pip install mlc-tune[model]`); `CostModel.available()`
says whether it is installed, and the search falls back to random search, saying so,
when it is not.
"""

from __future__ import annotations

import importlib.util

import numpy as np

__all__ = ["CostModel", "MIN_TRAINING"]

MIN_TRAINING = 4
"""Measured candidates the model needs before it ranks anything."""


class CostModel:
    """Predicts a score (higher: faster) from features (module docstring)."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._booster = None

    @staticmethod
    def available() -> bool:
        return importlib.util.find_spec("xgboost") is not None

    @property
    def trained(self) -> bool:
        return self._booster is not None

    def update(self, features: np.ndarray, seconds: np.ndarray) -> None:
        """Retrain on every measured candidate: `features` (n x d), `seconds` (n)."""
        import xgboost

        if len(seconds) < MIN_TRAINING:
            return
        target = -np.log(np.asarray(seconds, dtype=np.float64))
        data = xgboost.DMatrix(np.asarray(features, dtype=np.float64), label=target)
        params = {"max_depth": 6, "eta": 0.2, "subsample": 1.0, "min_child_weight": 1,
                  "objective": "reg:squarederror", "seed": self.seed, "nthread": 1,
                  "verbosity": 0}
        self._booster = xgboost.train(params, data, num_boost_round=60)

    def predict(self, features: np.ndarray) -> np.ndarray:
        """The scores of candidates (n x d features): -log(predicted seconds)."""
        import xgboost

        if self._booster is None:
            raise RuntimeError("the cost model has not been trained yet")
        return self._booster.predict(xgboost.DMatrix(np.asarray(features, dtype=np.float64)))
