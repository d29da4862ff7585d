"""tests/xdist_schedule.py schedules exactly as xdist's loadgroup does, only at a constant cost per finished test."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

xdist_scheduler = pytest.importorskip("xdist.scheduler", reason="pytest-xdist is in the test extra")

from tests.xdist_schedule import CountingGroupScheduling  # noqa: E402


class _Node:
    """What a scheduler sees of a worker: the indexes it is sent, and whether it was told to stop."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.sent: list[list[int]] = []

    def send_runtest_some(self, indexes) -> None:
        self.sent.append(list(indexes))

    def shutdown(self) -> None:
        self.shutting_down = True


def _config(workers: int) -> SimpleNamespace:
    values = {"tx": [f"{workers}*popen"]}
    return SimpleNamespace(getvalue=values.__getitem__, option=SimpleNamespace(loadscopereorder=False))


def _collection(seed: int) -> list[str]:
    """Test ids as tests/conftest.py names them: most alone, some joined to a group with ``@name``."""
    chooser = random.Random(seed)
    ids = []
    for number in range(300):
        group = chooser.choice([None] * 6 + ["slurm-22.05", "slurm-24.11", "pre-commit"])
        ids.append(f"tests/test_m{number % 17}.py::test_{number}[x@y]" + (f"@{group}" if group else ""))
    return ids


def _drive(scheduler_class, workers: int, seed: int) -> list[tuple[str, list[int] | str]]:
    """Run one scheduler through a run in which workers finish tests in a random but fixed order."""
    chooser = random.Random(seed)
    scheduler = scheduler_class(_config(workers))
    nodes = [_Node(f"gw{n}") for n in range(workers)]
    collection = _collection(seed)
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, collection)
    scheduler.schedule()
    queued = {node: [index for batch in node.sent for index in batch] for node in nodes}
    seen = {node: 0 for node in nodes}
    log: list[tuple[str, list[int] | str]] = []
    while not scheduler.tests_finished:
        busy = [node for node in nodes if queued[node]]
        assert busy, "tests left that no worker was given"
        node = chooser.choice(busy)
        scheduler.mark_test_complete(node, queued[node].pop(0))
        for batch in node.sent[seen[node]:]:
            queued[node].extend(batch)
            log.append((node.gateway.id, batch))
        seen[node] = len(node.sent)
        log.append((node.gateway.id, "has_pending" if scheduler.has_pending else "idle"))
    log.extend((node.gateway.id, "shutdown" if node.shutting_down else "running") for node in nodes)
    return log


@pytest.mark.parametrize("workers, seed", [(2, 1), (2, 2), (3, 3), (14, 4)])
def test_the_same_tests_go_to_the_same_workers_at_the_same_moments(workers, seed):
    assert CountingGroupScheduling.fits()
    assert _drive(CountingGroupScheduling, workers, seed) == _drive(xdist_scheduler.LoadGroupScheduling, workers, seed)
