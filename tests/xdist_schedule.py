"""xdist's ``--dist loadgroup`` scheduler, without its cost per finished test growing with the run.

xdist 3.8's LoadScopeScheduling (which loadgroup extends; every test not in a
group is a unit of its own) recounts a worker's unfinished tests over every test
it was ever given, each time one finishes (``_pending_of``, in Python), and finds
each test's index with ``list.index``. Both grow with the run: on the suite's
4,500 tests about 5 ms of the controller's CPU per test, which the workers then
lack. This keeps the count per worker as tests are given and finished, and the
indexes in a dict; which test goes where, and when, is xdist's unchanged.

Used when xdist's scheduler has the parts this replaces (tests/conftest.py,
``pytest_xdist_make_scheduler``); otherwise xdist's own runs. ``prepare_bytecode``:
the controller's compiling for its workers (tests/conftest.py, ``pytest_sessionstart``).
"""

from __future__ import annotations

import compileall
import fnmatch
import os
import sys
from pathlib import Path

from xdist.scheduler import LoadGroupScheduling


class _Workload(dict):
    """A worker's units (scope -> {node id: finished}) and how many of their tests are unfinished."""

    pending = 0


class CountingGroupScheduling(LoadGroupScheduling):
    @staticmethod
    def fits() -> bool:
        """xdist still has the methods and fields this class replaces or reads."""
        return all(hasattr(LoadGroupScheduling, name) for name in (
            "_pending_of", "_assign_work_unit", "_split_scope", "_reschedule", "mark_test_complete", "add_node",
            "add_node_collection"))

    def __init__(self, config, log=None) -> None:
        super().__init__(config, log)
        self._indexes: dict[object, dict[str, int]] = {}

    def add_node(self, node) -> None:
        assert node not in self.assigned_work
        self.assigned_work[node] = _Workload()

    def add_node_collection(self, node, collection) -> None:
        super().add_node_collection(node, collection)
        if node in self.registered_collections:
            self._indexes[node] = {nodeid: index for index, nodeid in enumerate(self.registered_collections[node])}

    def _pending_of(self, workload) -> int:
        if isinstance(workload, _Workload):
            return workload.pending
        return super()._pending_of(workload)

    def _assign_work_unit(self, node) -> None:
        assert self.workqueue
        scope, work_unit = self.workqueue.popitem(last=False)
        workload = self.assigned_work[node]
        workload[scope] = work_unit
        indexes = self._indexes[node]
        todo = [indexes[nodeid] for nodeid, finished in work_unit.items() if not finished]
        workload.pending += len(todo)
        node.send_runtest_some(todo)

    def mark_test_complete(self, node, item_index: int, duration: float = 0) -> None:
        nodeid = self.registered_collections[node][item_index]
        workload = self.assigned_work[node]
        unit = workload[self._split_scope(nodeid)]
        if not unit[nodeid]:
            unit[nodeid] = True
            workload.pending -= 1
        self._reschedule(node)


def prepare_bytecode(config, root: Path) -> None:
    """Compile slurmspec and the tests, and cache the assert-rewritten code of every test module,
    where the workers' imports look for them (``__pycache__``, or ``sys.pycache_prefix``).

    The rewriting uses pytest's own functions (private; what its import hook writes, and a
    worker checks each cached file against its source before using it). When they are missing,
    or the run writes no bytecode or does not rewrite asserts, the workers do it as before.
    The work is shared with one forked process: nothing else runs yet, so a second core
    would sit idle (about 5 s of wall time alone, half of it together).
    """
    if sys.dont_write_bytecode:
        return
    tests = root / "tests"
    sources = [path for folder in (root / "slurmspec", root / "rules", root / "grammar", tests) if folder.is_dir()
               for path in sorted(folder.rglob("*.py"))]
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc, assertstate_key, get_cache_dir

        state = config.stash[assertstate_key]
    except (ImportError, KeyError):
        rewrite = None
    else:
        rewrite = config.getoption("assertmode", None) == "rewrite"
    patterns = config.getini("python_files")

    def rewritten(path: Path) -> None:
        pyc = get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)
        if pyc.exists():
            return
        pyc.parent.mkdir(parents=True, exist_ok=True)
        checked, code = _rewrite_test(path, config)
        _write_pyc(state, code, checked, pyc)

    def prepare(path: Path) -> None:
        try:
            if rewrite and path.is_relative_to(tests) and (
                    path.name == "conftest.py" or any(fnmatch.fnmatch(path.name, p) for p in patterns)):
                rewritten(path)
            else:
                compileall.compile_file(path, quiet=2)
        except Exception:  # noqa: BLE001 - a module that will not compile here is left to the worker
            pass

    child = os.fork() if hasattr(os, "fork") else -1
    mine = sources if child < 0 else sources[child == 0::2]
    if child == 0:
        try:
            for path in mine:
                prepare(path)
        finally:
            os._exit(0)
    for path in mine:
        prepare(path)
    if child > 0:
        os.waitpid(child, 0)
