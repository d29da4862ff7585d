"""The remembered ``sbatch --version`` (``slurmspec/settings/installed.py``) is used only from a folder nobody else controls.

``XDG_CACHE_HOME`` may name a folder other users can write: there they could
plant an answer, or a FIFO that would hang every lint. Then nothing is cached,
and sbatch is simply asked each time.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from slurmspec.settings import release


@pytest.fixture
def sbatch(tmp_path, monkeypatch) -> Path:
    """The only sbatch on PATH answers 23.11 and counts how often it was asked (lines of ``asked``)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    program = folder / "sbatch"
    program.write_text(f'#!/bin/sh\necho >> "{tmp_path / "asked"}"\necho "slurm 23.11.4"\n')
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))
    release.installed_sbatch_version.cache_clear()
    yield program
    release.installed_sbatch_version.cache_clear()


def asked(tmp_path: Path) -> int:
    return len((tmp_path / "asked").read_text().splitlines()) if (tmp_path / "asked").exists() else 0


def version_twice() -> None:
    for _ in range(2):
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() == (23, 11)


def cache_home(tmp_path: Path, monkeypatch, mode: int) -> Path:
    home = tmp_path / "cache"
    home.mkdir()
    home.chmod(mode)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


def test_a_private_cache_is_used(tmp_path, monkeypatch, sbatch):
    home = cache_home(tmp_path, monkeypatch, 0o700)
    version_twice()
    assert asked(tmp_path) == 1
    cached = home / "slurmspec" / "sbatch-version"
    assert stat.S_IMODE((home / "slurmspec").stat().st_mode) == 0o700 and stat.S_IMODE(cached.stat().st_mode) == 0o600


def test_a_cache_in_a_shared_sticky_folder_like_tmp_is_used(tmp_path, monkeypatch, sbatch):
    # Others can create names there, but not rename or remove ours: our own 0700 folder stays ours.
    cache_home(tmp_path, monkeypatch, 0o1777)
    version_twice()
    assert asked(tmp_path) == 1


def test_a_world_writable_cache_home_is_not_used(tmp_path, monkeypatch, sbatch):
    # Without the sticky bit anyone may swap our folder for theirs between a check and its use.
    home = cache_home(tmp_path, monkeypatch, 0o777)
    version_twice()
    assert asked(tmp_path) == 2
    assert not list(home.rglob("sbatch-version"))


@pytest.mark.parametrize("mode", [0o770, 0o707])
def test_a_cache_folder_others_can_write_is_not_used(tmp_path, monkeypatch, sbatch, mode):
    home = cache_home(tmp_path, monkeypatch, 0o700)
    (home / "slurmspec").mkdir(mode=mode)
    (home / "slurmspec").chmod(mode)
    version_twice()
    assert asked(tmp_path) == 2
    assert not (home / "slurmspec" / "sbatch-version").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_a_cache_folder_of_another_user_is_not_used(tmp_path, monkeypatch, sbatch):
    home = cache_home(tmp_path, monkeypatch, 0o755)
    (home / "slurmspec").mkdir(mode=0o700)
    os.chown(home / "slurmspec", 65534, 65534)
    version_twice()
    assert asked(tmp_path) == 2
    assert not (home / "slurmspec" / "sbatch-version").exists()


def test_a_cache_file_that_is_a_link_is_not_followed(tmp_path, monkeypatch, sbatch):
    home = cache_home(tmp_path, monkeypatch, 0o700)
    version_twice()
    cached = home / "slurmspec" / "sbatch-version"
    elsewhere = tmp_path / "planted.json"
    elsewhere.write_text(cached.read_text().replace("23.11.4", "24.11.5"))
    cached.unlink()
    cached.symlink_to(elsewhere)
    version_twice()
    assert asked(tmp_path) == 3 and cached.is_symlink()  # read through no link, and the link is not written


def test_a_planted_fifo_does_not_hang_lint(tmp_path, sbatch):
    home = tmp_path / "cache"
    (home / "slurmspec").mkdir(parents=True, mode=0o700)
    fifo = home / "slurmspec" / "sbatch-version"
    os.mkfifo(fifo)
    job = tmp_path / "job.sbatch"
    job.write_text("#!/bin/bash\n#SBATCH --time=10\nsrun hostname\n")
    env = {**os.environ, "PATH": str(sbatch.parent), "XDG_CACHE_HOME": str(home)}
    for _ in range(2):  # the timeout only keeps a regression (a hang) from stalling the suite
        done = subprocess.run([sys.executable, "-m", "slurmspec", "lint", "--no-config", str(job)], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    assert asked(tmp_path) == 2 and stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in fifo.parent.iterdir() if not p.name.startswith("attrs-code-")) == ["sbatch-version"]


@pytest.mark.parametrize("planted", [
    b'{"key": "x", "version": "24.11"}',  # the JSON entry of earlier releases, or anything else
    b"\0\0\0", b"", b"\xff\xfe", "{key}\0failed\0{config}\0soon", "{key}\x0024.11.4.5", "{key}\x0024.x",
])
def test_an_entry_that_does_not_read_is_asked_again(tmp_path, monkeypatch, sbatch, planted):
    from slurmspec.settings import installed

    home = cache_home(tmp_path, monkeypatch, 0o700)
    version_twice()
    cached = home / "slurmspec" / "sbatch-version"
    if isinstance(planted, str):
        planted = planted.format(key=installed._key(str(sbatch)), config=installed._config_key()).encode()
    cached.write_bytes(planted)
    release.installed_sbatch_version.cache_clear()
    assert release.installed_sbatch_version() == (23, 11)
    assert asked(tmp_path) == 2
