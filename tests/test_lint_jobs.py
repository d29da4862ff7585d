"""``slurmspec lint --jobs``: every core, and the report is the same byte for byte whatever the number of processes."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from slurmspec.cli.lint_pool import MIN_INPUTS_PER_WORKER, map_in_order
from slurmspec.report import FORMATS
from tests.examples import in_this_run

FIXTURES = Path(__file__).resolve().parent / "rules" / "fixtures"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slurmspec", *args], capture_output=True, timeout=300)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Every rule fixture (findings of every family, fixes, odd bytes) in one folder."""
    root = tmp_path_factory.mktemp("jobs")
    for number, path in enumerate(sorted(FIXTURES.glob("*/*.sbatch"))):
        shutil.copy(path, root / f"{number:04d}-{path.parent.name}-{path.name}")
    return root


REPORTS = tuple([f"--format={fmt}"] for fmt in FORMATS) + (["--statistics"],)


@pytest.mark.parametrize("options", REPORTS, ids=lambda options: options[0])
def test_the_report_is_the_same_on_one_process_and_on_several(folder, options):
    # Two runs over every fixture, about 2 CPU seconds per report: a dev run compares two of them, CI all.
    if not in_this_run(options[0], tuple(report[0] for report in REPORTS), keep=2):
        pytest.skip("two of the reports are compared in each dev-profile run; CI=true compares them all")
    # A missing path between two real ones: its error keeps its place among the results.
    paths = [str(folder), "missing.sbatch", str(FIXTURES / "SB001")]
    serial = run("lint", "--no-config", *options, "--jobs", "1", *paths)
    parallel = run("lint", "--no-config", *options, "--jobs", "3", *paths)
    assert serial.returncode == parallel.returncode == 2  # the missing path
    assert serial.stdout == parallel.stdout
    assert serial.stderr == parallel.stderr
    assert b"SB001" in serial.stdout


def test_jobs_must_be_a_positive_number(capsys):
    from slurmspec.cli import main

    for bad in ("0", "-1", "many"):
        with pytest.raises(SystemExit) as stop:
            main(["lint", "--jobs", bad, "x.sbatch"])
        assert stop.value.code == 2
        assert "expected a number of processes" in capsys.readouterr().err


def _where(item: int) -> tuple[int, int]:
    return item, os.getpid()


def test_results_come_back_in_order_from_other_processes():
    items = list(range(4 * MIN_INPUTS_PER_WORKER))
    results = list(map_in_order(_where, items, 2))
    assert [item for item, _ in results] == items
    assert {pid for _, pid in results} - {os.getpid()}, "no worker process did any of the work"


def test_a_few_inputs_stay_in_this_process():
    results = list(map_in_order(_where, range(MIN_INPUTS_PER_WORKER), 8))
    assert {pid for _, pid in results} == {os.getpid()}


def _fails_at_25(item: int) -> int:
    if item == 25:
        raise ValueError("input 25")
    return item


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_stops_the_run_where_a_serial_run_stops(jobs):
    seen = []
    with pytest.raises(ValueError, match="input 25"):
        for item in map_in_order(_fails_at_25, range(40), jobs):
            seen.append(item)
    assert seen == list(range(25))


_PARENT = os.getpid()


def _first_worker_dies(marker: str, item: int) -> int:
    # Which process lints which item follows their speed, so the victim is chosen by who comes
    # first, not by item: the first worker to start (each is given chunks at once) is killed,
    # as out of memory or by a signal, and any other lives on.
    if os.getpid() != _PARENT:
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return item
        os.kill(os.getpid(), signal.SIGKILL)
    return item


@pytest.mark.parametrize("jobs", [2, 3])
def test_a_worker_that_dies_costs_time_not_results(jobs, capfd, monkeypatch, tmp_path):
    from functools import partial

    from slurmspec.cli import lint_pool

    monkeypatch.setattr(lint_pool, "default_jobs", lambda: jobs)  # with 3, another worker lives on
    function = partial(_first_worker_dies, str(tmp_path / "killed"))
    assert list(map_in_order(function, range(64), jobs)) == list(range(64))
    assert capfd.readouterr().err.count("worker process killed by signal 9") == 1


def _pid_after_a_pause(item: int) -> int:
    import time

    time.sleep(0.002)
    return os.getpid()


def test_the_work_is_shared_by_speed_not_dealt_in_advance():
    # This process writes the report and lints only when the next result is not in yet; a
    # worker that sends results back keeps getting chunks. Both take part.
    pids = list(map_in_order(_pid_after_a_pause, range(400), 2))
    assert len(pids) == 400 and len(set(pids)) == 2


def _slow_here(item: int) -> int:
    if os.getpid() == _PARENT:
        import time

        time.sleep(0.01)  # this process lags: the workers' replies pile up in their pipes
    return item


@pytest.mark.parametrize("jobs", [2, 3])
def test_replies_that_pile_up_are_all_read(jobs, monkeypatch):
    # A reply read through a buffered file could take the next one in with it, and waiting on
    # the pipe for it would then wait forever: the alarm turns such a hang into a failure.
    from slurmspec.cli import lint_pool

    monkeypatch.setattr(lint_pool, "default_jobs", lambda: jobs)
    previous = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("map_in_order hung"))
    signal.alarm(120)
    try:
        assert list(map_in_order(_slow_here, range(600), jobs)) == list(range(600))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_never_more_workers_than_cores(monkeypatch):
    from slurmspec.cli import lint_pool

    monkeypatch.setattr(lint_pool, "default_jobs", lambda: 1)
    assert {pid for _, pid in map_in_order(_where, range(200), 8)} == {os.getpid()}


class _Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("cannot pickle this")


def _raises_unpicklable(item: int) -> int:
    if item == 20:
        raise _Unpicklable("input 20")
    return item


def test_an_exception_that_cannot_travel_arrives_as_text(monkeypatch):
    from slurmspec.cli import lint_pool

    # The main process lints a chunk itself while no worker has replied; one it lints raises the
    # exception as it is (it never travels). With no chunk run here ahead of the report, input 20
    # is always a worker's, whatever the machine's load (CI once had the main process take it).
    monkeypatch.setattr(lint_pool, "AHEAD", 0)
    seen = []
    with pytest.raises(RuntimeError, match="_Unpicklable: input 20"):
        for item in map_in_order(_raises_unpicklable, range(40), 2):
            seen.append(item)
    assert seen == list(range(20))


def test_workers_end_with_a_terminated_parent(tmp_path):
    # A parent stopped by SIGTERM (a CI time-out, a scheduler's kill) leaves no worker linting on:
    # each checks between files that its parent is still there, and its task pipe ends with it.
    import time

    for number in range(2000):
        shutil.copy(FIXTURES / "SB001" / "example.sbatch", tmp_path / f"{number:05d}.sbatch")
    parent = subprocess.Popen([sys.executable, "-m", "slurmspec", "lint", "--no-config", "--jobs", "2",
                               "--format", "json", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    workers: list[int] = []
    while not workers and parent.poll() is None and time.monotonic() < deadline:
        workers = _children(parent.pid)
        time.sleep(0.05)
    if not workers:
        pytest.skip("the run ended before its workers could be seen")
    parent.terminate()
    parent.wait(timeout=60)
    while any(os.path.exists(f"/proc/{pid}") and _state(pid) != "Z" for pid in workers):
        assert time.monotonic() < deadline, f"workers {workers} still running after their parent ended"
        time.sleep(0.05)


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(word) for word in handle.read().split()]
    except OSError:
        return []


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
