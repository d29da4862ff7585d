"""Shared pytest configuration for slurmspec's tests.

* Hypothesis profiles: "ci" (loaded when CI=true) and "dev" (otherwise).
* ``slurm_cluster``: a session-scoped throwaway real Slurm (tests/slurm_cluster.py)
  used as the oracle by differential tests.  Tests that use it are marked
  ``slurm`` automatically, so ``-m "not slurm"`` deselects them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

_REPO_ROOT = str(Path(__file__).resolve().parent.parent)
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)

from tests.slurm_cluster import (  # noqa: E402
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
    settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
    settings.register_profile("dev", deadline=None)
    settings.load_profile("ci" if in_ci() else "dev")


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "slurm_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slurm)


@pytest.fixture(scope="session")
def slurm_cluster(request: pytest.FixtureRequest) -> SlurmCluster:
    """A running throwaway Slurm (munged + slurmctld + local slurmd) on 127.0.0.1.

    Skipped (failed under CI=true) when sbatch/slurmctld/munged are missing or
    the tests do not run as root.  Stopped at the end of the session, and by
    atexit / PDEATHSIG if the session dies.
    """
    why = missing_requirements()
    if why:
        _skip_or_fail(why)
    cluster = SlurmCluster()
    request.addfinalizer(cluster.stop)
    try:
        cluster.start()
    except SlurmClusterError as exc:
        pytest.fail(f"could not start the throwaway Slurm cluster:\n{exc}", pytrace=False)
    return cluster
