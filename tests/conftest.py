"""Shared pytest configuration for slurmspec's tests.

* Hypothesis profiles: "ci" (loaded when CI=true) and "dev" (otherwise).
* ``slurm_cluster``: a session-scoped throwaway real Slurm (tests/slurm_cluster.py)
  used as the oracle by differential tests, parametrised over the releases
  (ids ``22.05`` and ``24.11``; ``-k 22.05`` picks one).  ``slurm_cluster_for``
  starts one of a given release and `ClusterLayout` (once per session).  Tests
  that use either are marked ``slurm`` automatically, so ``-m "not slurm"``
  deselects them.
* A terminal summary of the cases each differential test compared with real
  Slurm, per release (tests/oracle_tally.py), gathered from every xdist worker.
* ``SLURMSPEC_TEST_CPU=FILE``: each test's CPU seconds appended to FILE (tests/cpu_profile.py).
* pytest-xdist (``-n auto --dist loadgroup`` in pyproject.toml): the tests of
  one Slurm release share one worker (``xdist_group``), so each release's
  clusters start once per run and the two releases' differentials run side by
  side; so do the tests of a module marked ``xdist_group`` (the pre-commit
  hooks: their virtualenv is built once per worker that runs one); every other
  test goes wherever a worker is free. The scheduler is xdist's loadgroup with its
  bookkeeping made constant per test, and the controller compiles the code and
  rewrites the tests' asserts once for all workers (tests/xdist_schedule.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

_REPO_ROOT = str(Path(__file__).resolve().parent.parent)
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)

# The tests never read or write the user's cache (slurmspec remembers the installed sbatch's
# release there): a release remembered by an earlier run on this machine would change the
# default target, and so the findings, of every test that does not name one. One private
# folder per run, shared by the xdist workers and every command they start.
if "SLURMSPEC_TEST_CACHE" not in os.environ:
    import atexit
    import shutil
    import tempfile

    os.environ["SLURMSPEC_TEST_CACHE"] = os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="slurmspec-cache-")
    atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)

    # With PYTHONDONTWRITEBYTECODE set (container images often set it) every Python process
    # compiles every module it imports from source: each of the suite's few hundred
    # `python -m slurmspec` children spent 0.4 of its 0.6 CPU seconds compiling slurmspec,
    # and each xdist worker compiled (and assertion-rewrote) the tests again. The run keeps its
    # bytecode in a private folder instead (PYTHONPYCACHEPREFIX), removed at its end: nothing
    # is written into the checkout, which is what the variable asks for.
    if sys.dont_write_bytecode and not os.environ.get("PYTHONPYCACHEPREFIX"):
        os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = tempfile.mkdtemp(prefix="slurmspec-bytecode-")
        atexit.register(shutil.rmtree, sys.pycache_prefix, True)
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        sys.dont_write_bytecode = False
        # With a prefix Python reads bytecode only from there, never from the __pycache__ folders
        # pip wrote beside pytest, its plugins and the standard library: each worker compiled them
        # all again (lsprotocol alone is 1.4 MB of source). Link the ones this process loaded.
        import importlib.util

        for module in list(sys.modules.values()):
            source, cached = getattr(module, "__file__", None), getattr(module, "__cached__", None)
            if not (source and cached and source.endswith(".py") and os.path.isfile(cached)):
                continue
            try:
                linked = importlib.util.cache_from_source(source)
                os.makedirs(os.path.dirname(linked), exist_ok=True)
                os.symlink(cached, linked)
            except (OSError, ValueError, NotImplementedError):
                continue  # compiled from source where needed, as before

from tests import oracle_tally  # noqa: E402
from tests.cpu_profile import pytest_runtest_protocol  # noqa: E402,F401 (SLURMSPEC_TEST_CPU)
from tests.slurm_cluster import (  # noqa: E402
    DEFAULT_LAYOUT,
    RELEASES,
    ClusterLayout,
    SlurmCluster,
    SlurmClusterError,
    missing_requirements,
)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1")


# --------------------------------------------------------------- hypothesis
try:
    from hypothesis import settings
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    settings = None  # type: ignore[assignment]

if settings is not None:
    # CI replays the same examples every run (derandomize), so a build is never
    # red by chance; exploring new random cases is what local "dev" runs do
    # (and what `--hypothesis-seed=N` hunts are for).
    # tests/examples.py scales each test's example count by profile; "dev" tries a fifth.
    settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
    settings.register_profile("dev", deadline=None, max_examples=20)
    settings.register_profile("thorough", deadline=None)
    settings.load_profile("ci" if in_ci() else "dev")


def pytest_report_header(config: pytest.Config) -> list[str]:
    from tests.examples import header

    return [header()]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-fixtures", action="store_true", default=False,
        help="rewrite tests/rules/fixtures/*/*.expected and tests/report/golden/* from the current output",
    )


# ------------------------------------------------------------ real Slurm
def _skip_or_fail(reason: str) -> None:
    """Skip on a developer machine; fail in CI, where these tests must run."""
    if in_ci():
        pytest.fail(f"{reason} -- CI=true, so the real-Slurm tests must run", pytrace=False)
    pytest.skip(reason)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups off the items
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        named = item.get_closest_marker("xdist_group")
        if named is not None and getattr(config.option, "loadgroup", False):  # e.g. tests/test_precommit.py
            _join_group(item, named.args[0] if named.args else named.kwargs.get("name", "default"))
        if {"slurm_cluster", "slurm_cluster_for"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slurm)
            group = f"slurm-{_release_of(item)}"
            layout = getattr(getattr(item, "callspec", None), "params", {}).get("layout")
            if layout is not None:  # another layout is another cluster: it may as well run on its own worker
                group += f"-{layout.name}"
            if item.get_closest_marker("own_worker"):  # each parametrisation apart (job model shards)
                group += f"-{item.name}"
            item.add_marker(pytest.mark.xdist_group(group))
            if getattr(config.option, "loadgroup", False):
                _join_group(item, group)
    # The Slurm groups first, the long ones before the rest, so none of them starts last and
    # leaves the other workers idle at the end (pyproject.toml turns xdist's own reordering off).
    items.sort(key=lambda item: _start_order(item))


def _join_group(item: pytest.Item, group: str) -> None:
    """Name the item ``nodeid@group``, which is how xdist's loadgroup scheduler sees the group.

    xdist 3.8 does this itself by writing ``item._nodeid``, which pytest 9.2 no
    longer reads (a node's id lives in ``item._id``, a ``NodeId``): measured, every
    test then ran wherever a worker was free and each worker started its own clusters.
    """
    named = f"{item.nodeid}@{group}"
    if hasattr(item, "_id"):
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(named)
    else:
        item._nodeid = named


def _start_order(item: pytest.Item) -> int:
    if not item.get_closest_marker("xdist_group"):
        return 2
    return 0 if item.get_closest_marker("own_worker") else 1


# A release has about a dozen groups that mostly wait on slurmctld or on jobs (own_worker tests,
# layouts, the default group): six workers each let the long ones wait side by side.
WAITING_WORKERS_PER_RELEASE = 6


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker per core, and six per Slurm release for its groups that mostly wait.

    The real-Slurm tests spend most of their time waiting for slurmctld and jobs;
    each release's tests, and each ``own_worker`` test, hold a worker while they
    wait, so the CPU-bound tests get workers of their own beside them.
    """
    from tests.slurm_release import RELEASES as releases

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if config.getoption("markexpr", "") == "not slurm":
        return cores
    running = [name for name, release in releases.items() if release.missing_requirements() is None]
    return cores + WAITING_WORKERS_PER_RELEASE * len(running)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The xdist controller compiles the code and rewrites the tests' asserts once, before its workers start.

    Every worker collects every test module, and pytest rewrites a test module's asserts (an
    AST walk in Python) unless it finds the result cached beside its bytecode; in a fresh
    checkout, or the private bytecode folder above, each worker did all of it, about 7 CPU
    seconds: 14 of them under CI (a worker per core and six per Slurm release, see
    ``pytest_xdist_auto_num_workers``). Done here once (about 4 s), each worker finds it made.
    xdist starts the workers in its own ``pytest_sessionstart``, which runs last.
    """
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from tests.xdist_schedule import prepare_bytecode

    prepare_bytecode(config, Path(_REPO_ROOT))


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # before xdist's own, which would answer first
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``--dist loadgroup`` by tests/xdist_schedule.py: the same schedule, at a constant cost per test."""
    from tests.xdist_schedule import CountingGroupScheduling

    if config.getvalue("dist") == "loadgroup" and CountingGroupScheduling.fits():
        return CountingGroupScheduling(config, log)
    return None


def _release_of(item: pytest.Item) -> str:
    """The Slurm release a test runs against: its ``slurm_cluster``/``release`` parameter, else the first.

    Tests that call ``slurm_cluster_for`` with a fixed release use the first
    (22.05); one that asks for another release without a parameter would start
    that cluster on its own worker too, which is slower, never wrong.
    """
    params = getattr(getattr(item, "callspec", None), "params", {})
    for name in ("slurm_cluster", "release"):
        if params.get(name) in RELEASES:
            return params[name]
    return next(iter(RELEASES))


class ClusterPool:
    """The session's throwaway clusters, one per (release, layout name), started on first use."""

    def __init__(self) -> None:
        self.clusters: dict[tuple[str, str], SlurmCluster] = {}
        self.failures: dict[tuple[str, str], str] = {}

    def get(self, release: str, layout: ClusterLayout = DEFAULT_LAYOUT) -> SlurmCluster:
        key = (release, layout.name)
        if key in self.clusters:
            cluster = self.clusters[key]
            if cluster.layout != layout:
                raise ValueError(f"two different cluster layouts are both named {layout.name!r}")
            return cluster
        why = missing_requirements(release)
        if why:
            _skip_or_fail(why)
        if key in self.failures:  # do not retry a start that failed: every test would wait for it again
            pytest.fail(self.failures[key], pytrace=False)
        cluster = SlurmCluster(release, layout)
        try:
            cluster.start()
        except SlurmClusterError as exc:
            self.failures[key] = f"could not start the throwaway Slurm {release} cluster ({layout.name}):\n{exc}"
            pytest.fail(self.failures[key], pytrace=False)
        self.clusters[key] = cluster
        return cluster

    def stop_all(self) -> None:
        for cluster in self.clusters.values():
            cluster.stop()
        self.clusters.clear()


@pytest.fixture(scope="session")
def slurm_cluster_for(request: pytest.FixtureRequest):
    """A factory: ``slurm_cluster_for(release, layout)`` -> a running `SlurmCluster`.

    Each (release, layout name) is started once per session and stopped at its
    end.  Skipped (failed under CI=true) when that release cannot run here.
    """
    pool = ClusterPool()
    request.addfinalizer(pool.stop_all)
    return pool.get


@pytest.fixture(scope="session", params=list(RELEASES), ids=list(RELEASES))
def slurm_cluster(request: pytest.FixtureRequest, slurm_cluster_for) -> SlurmCluster:
    """A running throwaway Slurm (munged + slurmctld + local slurmd) on 127.0.0.1, default layout.

    Parametrised over the releases (22.05 on the host, 24.11 in its chroot).
    Skipped (failed under CI=true) when that release's programs are missing or
    the tests do not run as root.  Stopped at the end of the session, and by
    atexit / PDEATHSIG if the session dies.
    """
    return slurm_cluster_for(request.param, DEFAULT_LAYOUT)


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand its counts to the controller
        workeroutput["oracle_tally"] = oracle_tally.export()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """The controller adds up what each xdist worker compared (the hook exists only with xdist)."""
    oracle_tally.merge(getattr(node, "workeroutput", {}).get("oracle_tally", []))


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    lines = oracle_tally.summary_lines()
    if lines:
        terminalreporter.write_sep("=", "cases compared with real Slurm (per release)")
        for line in lines:
            terminalreporter.write_line(line)
