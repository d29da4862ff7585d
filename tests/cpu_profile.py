"""Where the suite's CPU goes: each test's CPU seconds, written when ``SLURMSPEC_TEST_CPU`` names a file.

Wall times (``--durations``) say little on a loaded two-core machine, where a
test waits for a core as much as it works; CPU seconds (this process and the
children it waited for, ``getrusage``) add up to what the run costs whatever
the load. Each xdist worker appends ``cpu<TAB>wall<TAB>node id<TAB>worker<TAB>end``
lines to the file (``end``: the epoch second the test ended, to see which tests ran
last on which worker); ``sort -rn FILE | head`` shows the most expensive tests. Daemons the
tests start (slurmctld, slurmd, MariaDB) are not counted: nobody waits for
them.
"""

from __future__ import annotations

import os
import resource
import time

import pytest


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    path = os.environ.get("SLURMSPEC_TEST_CPU")
    if not path:
        yield
        return
    cpu, wall = _cpu(), time.monotonic()
    yield
    worker = os.environ.get("PYTEST_XDIST_WORKER", "-")
    line = f"{_cpu() - cpu:.2f}\t{time.monotonic() - wall:.2f}\t{item.nodeid}\t{worker}\t{time.time():.2f}\n"
    with open(path, "a", encoding="utf-8") as out:  # one short append per test: workers do not interleave
        out.write(line)
