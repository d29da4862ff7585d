"""The progress line of ``slurmspec lint``: on a terminal's standard error for a long run, never in pipes or CI."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from slurmspec.cli import progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_quick_run_draws_nothing():
    stream, report = _Terminal(), io.StringIO()
    assert list(progress.follow(range(5), 5, stream, report)) == list(range(5))
    assert stream.getvalue() == ""


def test_a_long_run_draws_and_clears_the_line(monkeypatch):
    clock = iter(float(t) for t in range(100))
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    stream, report = _Terminal(), io.StringIO()
    seen = []
    for item in progress.follow(range(10), 10, stream, report):
        # the line is never on screen while a file's findings are written
        assert not stream.getvalue() or stream.getvalue().endswith("\r\x1b[K")
        seen.append(item)
    assert seen == list(range(10))
    text = stream.getvalue()
    assert "] 5/10 files" in text and text.endswith("\r\x1b[K")


@pytest.mark.parametrize("env, quiet, tty, shown", [
    ({}, False, True, True),
    ({"CI": "true"}, False, True, False),
    ({"TERM": "dumb"}, False, True, False),
    ({}, True, True, False),
    ({}, False, False, False),
])
def test_only_a_person_at_a_terminal_sees_it(monkeypatch, env, quiet, tty, shown):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    stream = _Terminal() if tty else io.StringIO()
    assert progress.wanted(stream, quiet) is shown


def _many_scripts(folder: Path, count: int) -> None:
    text = (Path(__file__).parent.parent / "samples" / "multinode-torchrun.sbatch").read_bytes()
    for number in range(count):
        (folder / f"{number:04d}.sbatch").write_bytes(text)


def _run_with_stderr_on_a_terminal(args: list[str], env: dict, report: Path) -> tuple[bytes, bytes]:
    leader, follower = pty.openpty()
    with report.open("wb") as out:  # a file, not a pipe nobody reads while the terminal is read
        process = subprocess.Popen([sys.executable, "-m", "slurmspec", *args], stdout=out,
                                   stderr=follower, env=env)
    os.close(follower)
    shown = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            process.kill()
            raise AssertionError("slurmspec lint did not finish")
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    process.wait(timeout=60)
    os.close(leader)
    return report.read_bytes(), shown


def test_a_real_long_run_shows_it_on_the_terminal_and_not_in_the_report(tmp_path):
    scripts = tmp_path / "jobs"
    scripts.mkdir()
    # 40 files, not more: with SLURMSPEC_PROGRESS_AFTER=0 the line is drawn after the first file
    # (how soon a run counts as long is not what is tested here), and each run lints them all.
    _many_scripts(scripts, 40)
    env = {k: v for k, v in os.environ.items() if k != "CI"} | {"TERM": "xterm", "SLURMSPEC_PROGRESS_AFTER": "0"}
    args = ["lint", "--no-config", "--exit-zero", "--jobs", "1", "--format", "concise", str(scripts)]
    out, shown = _run_with_stderr_on_a_terminal(args, env, tmp_path / "report")
    assert b" files" in shown and b"/40 files" in shown, shown[-300:]
    assert b"files" not in out.replace(b".sbatch", b"")  # the report itself is untouched
    plain = subprocess.run([sys.executable, "-m", "slurmspec", *args], capture_output=True, env=env)
    assert plain.stdout == out and b"/40 files" not in plain.stderr  # a pipe gets no progress
    ci = _run_with_stderr_on_a_terminal(args, env | {"CI": "true"}, tmp_path / "report-ci")[1]
    assert b"/40 files" not in ci
