"""mlc.tune on Ray: a local cluster of two worker nodes (one CPU each) measures the
candidates as Ray tasks, and the records land in the same database (slow: a Ray
cluster takes some 20 s to start)."""

from __future__ import annotations

import pytest

from mlc.tune import Database, tune_kernel
from mlc.tune.ray_executor import RayExecutor
from tests.unit.test_tune import _matmul, stochastic_schedule_mm

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    yield cluster
    cluster.shutdown()


def test_candidates_are_measured_as_ray_tasks_on_two_nodes(cluster, tmp_path):
    result = tune_kernel(_matmul(64), space=stochastic_schedule_mm, trials=4,
                         work_dir=tmp_path, strategy="random", batch=4, repeat=1,
                         executor="ray:" + cluster.address)
    assert result.trials == 4 and result.best.median <= result.default.median
    records = Database(tmp_path).records()
    assert len(records) == 5 and all(r.ok for r in records), [r.error for r in records]
    assert not ray.is_initialized()  # the executor that connected disconnects


def test_a_stuck_ray_task_is_cancelled_and_recorded_as_timed_out(cluster, tmp_path):
    from mlc.ir import print_op
    from mlc.llvm.target import Target
    from mlc.tune.measure import MeasureJob
    from mlc.tune.space import default_trace

    target = Target()
    module = _matmul(256)
    job = MeasureJob(print_op(module), "main",
                     default_trace(module, target.schedule_target).as_json(),
                     (target.cpu, target.features, target.opt_level), repeat=100,
                     min_seconds=1.0)
    with RayExecutor(cluster.address, timeout=5) as executor:
        assert executor.slots == 2
        [(_, result)] = list(executor.map([job]))
    assert result.error == "timed out after 5 s"
