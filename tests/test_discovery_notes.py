"""Folder discovery skips nothing silently (issue 21): each path left out is named on standard error.

A path met in a folder that cannot be read is a note (the run goes on, exit unchanged); one the user
named is an error (exit 2). Permissions do not stop root, which CI runs as, so unreadable folders and
files are made by failing the call that reads them for that path only; a path beyond PATH_MAX is real.
"""

from __future__ import annotations

import errno
import os

import pytest

from slurmspec.cli import main

SCRIPT = b"#!/bin/bash\n#SBATCH --time=10\nsrun true\n"
FINDING = b"#!/bin/bash\n#SBATCH --time=2h\nsrun true\n"  # SB110: shows which files were linted


def lint(*paths: str) -> int:
    return main(["lint", "--no-config", "--jobs", "1", "--format", "concise", *paths])


def _refuse(monkeypatch, target, name: str, path: str) -> None:
    """Make ``target.name(path, ...)`` fail with EACCES, as it does for a user without permission."""
    real = getattr(target, name)

    def refused(first, *args, **kwargs):
        if os.fspath(first) == path:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real(first, *args, **kwargs)

    monkeypatch.setattr(target, name, refused)


@pytest.fixture
def tree(tmp_path, monkeypatch):
    (tmp_path / "jobs" / "locked").mkdir(parents=True)
    (tmp_path / "jobs" / "locked" / "hidden.sbatch").write_bytes(SCRIPT)
    (tmp_path / "jobs" / "ok.sbatch").write_bytes(FINDING)
    (tmp_path / "jobs" / "run.sh").write_bytes(SCRIPT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_an_unreadable_subfolder_is_named(tree, monkeypatch, capsys):
    _refuse(monkeypatch, os, "scandir", os.path.join("jobs", "locked"))
    assert lint("jobs") == 1  # the rest is linted
    captured = capsys.readouterr()
    assert "slurmspec: note: jobs/locked: skipped, cannot read: Permission denied" in captured.err
    assert "jobs/ok.sbatch:2:" in captured.out and "hidden" not in captured.out


def test_a_named_folder_that_cannot_be_listed_is_an_error(tree, monkeypatch, capsys):
    _refuse(monkeypatch, os, "scandir", "jobs")
    assert lint("jobs") == 2
    assert "slurmspec: error: jobs: cannot read: Permission denied" in capsys.readouterr().err


def test_an_unreadable_shell_script_in_a_folder_is_named(tree, monkeypatch, capsys):
    import slurmspec.limits as limits

    _refuse(monkeypatch, limits, "read_bounded", os.path.join("jobs", "run.sh"))
    assert lint("jobs") == 1
    assert "slurmspec: note: jobs/run.sh: skipped, cannot read: Permission denied" in capsys.readouterr().err


def test_a_named_unreadable_shell_script_is_an_error_even_with_require_sbatch(tree, monkeypatch, capsys):
    import slurmspec.limits as limits

    _refuse(monkeypatch, limits, "read_bounded", os.path.join("jobs", "run.sh"))
    assert lint("--require-sbatch", os.path.join("jobs", "run.sh")) == 2
    assert "slurmspec: error: jobs/run.sh: cannot read: Permission denied" in capsys.readouterr().err


def _deep_folder(top, depth_bytes: int) -> None:
    """Folders nested past ``depth_bytes`` of path, made one level at a time (no path that long can be opened)."""
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(depth_bytes // 250 + 1):
            os.mkdir("d" * 250, dir_fd=fd)
            inner = os.open("d" * 250, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        script = os.open("deep.sbatch", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(script, SCRIPT)
        os.close(script)
    finally:
        os.close(fd)


def test_a_script_beyond_path_max_is_named(tmp_path, monkeypatch, capsys):
    (tmp_path / "jobs").mkdir()
    _deep_folder(tmp_path / "jobs", os.pathconf(tmp_path, "PC_PATH_MAX"))
    monkeypatch.chdir(tmp_path)
    assert lint("jobs") == 0
    err = capsys.readouterr().err
    assert err.startswith("slurmspec: note: jobs/dddd") and "skipped, cannot read: File name too long" in err


def test_a_named_path_beyond_path_max_says_why(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert lint("/".join(["d" * 250] * 20) + "/x.sbatch") == 2
    assert "cannot read: File name too long" in capsys.readouterr().err
