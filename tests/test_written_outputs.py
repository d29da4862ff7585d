"""``emit -o``, ``convert -o`` and ``cluster import -o`` write whole files or nothing (``slurmspec/safe_write.py``).

A failed write (a full disk, simulated with ``ulimit -f``: ``RLIMIT_FSIZE``,
with SIGXFSZ ignored so the write fails with EFBIG instead of killing the
process) must leave the old file as it was, exit 2 and leave no temporary file.
"""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from slurmspec.version import NEWEST

NEWEST_NAME = f"{NEWEST[0]}.{NEWEST[1]:02d}"  # named: the run's cache may remember the installed 22.05
ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "cluster" / "data"
IMPORT = ["cluster", "import", "--nodes", str(DATA / "2411-node.txt"), "--partitions", str(DATA / "2411-partition.txt"),
          "--config", str(DATA / "2411-config.txt")]
POLICY = '\n[policy]\nname = "HPC"\nrequired = ["account"]  # written by hand: scontrol never prints it\n'


def run(*args: str, file_limit: int | None = None) -> subprocess.CompletedProcess:
    def limited() -> None:
        os.umask(0o022)
        if file_limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    # A child whose files may not grow past the limit writes no bytecode: CPython writes a .pyc
    # without checking for a short write, and the truncated file would break every later import.
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"} if file_limit is not None else None
    return subprocess.run([sys.executable, "-m", "slurmspec", *args], capture_output=True, text=True, timeout=60,
                          preexec_fn=limited, env=environment)


def left_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def profile(tmp_path) -> Path:
    """A profile as `cluster import` writes it, with a site's hand-written [policy] below."""
    path = tmp_path / "site.toml"
    assert run(*IMPORT, "-o", str(path)).returncode == 0
    path.write_text(path.read_text() + POLICY)
    return path


# (command, output file name, what the command is given); each writes more than the file limit
CASES = {
    # the newest release named: the sample logs to logs/, which 22.05 needs to exist (SB230, an error)
    "emit": (["emit", "--slurm-version", NEWEST_NAME, str(ROOT / "samples" / "multinode-torchrun.toml")],
             "job.sbatch", 1024),
    "convert": (["convert", "--no-config", str(ROOT / "samples" / "multinode-torchrun.sbatch")], "job.toml", 256),
    "cluster import": (IMPORT, "site.toml", 1024),
}


@pytest.mark.parametrize("case", CASES)
def test_a_failed_write_leaves_the_old_file_whole(tmp_path, case):
    command, name, limit = CASES[case]
    output = tmp_path / name
    old = b"# the old file: it must survive a failed write\n" * 3
    output.write_bytes(old)
    done = run(*command, "-o", str(output), file_limit=limit)
    assert done.returncode == 2, done.stderr
    assert "cannot write: File too large" in done.stderr and "Traceback" not in done.stderr
    assert output.read_bytes() == old and left_in(tmp_path) == [name]


def test_a_failed_profile_import_keeps_the_site_policy_and_the_profile_usable(profile, tmp_path):
    old = profile.read_bytes()
    done = run(*IMPORT, "-o", str(profile), file_limit=1024)
    assert done.returncode == 2 and "cannot write: File too large" in done.stderr
    assert profile.read_bytes() == old and left_in(tmp_path) == ["site.toml"]
    job = tmp_path / "job.sbatch"
    job.write_text("#!/bin/bash\n#SBATCH --time=10\nsrun hostname\n")
    linted = run("lint", "--no-config", "--cluster", str(profile), str(job))
    assert linted.returncode != 2, linted.stderr


@pytest.mark.parametrize("case", CASES)
def test_a_new_output_gets_the_umask_permissions_and_a_read_only_one_is_refused(tmp_path, case):
    command, name, _ = CASES[case]
    output = tmp_path / name
    assert run(*command, "-o", str(output)).returncode == 0
    assert stat.S_IMODE(output.stat().st_mode) == 0o644  # as `>` would create it under umask 022
    written = output.read_bytes()
    output.chmod(0o444)  # root could write it anyway: the refusal comes from the mode bits
    done = run(*command, "-o", str(output))
    assert done.returncode == 2
    assert f"slurmspec: error: {output}: not written: the file is read-only (mode 0444)" in done.stderr
    assert output.read_bytes() == written and left_in(tmp_path) == [name]


def test_a_fifo_output_is_refused_without_waiting_for_a_reader(tmp_path):
    output = tmp_path / "site.toml"
    os.mkfifo(output)
    done = run(*IMPORT, "-o", str(output))  # reads the existing profile first, to keep its [policy]
    assert done.returncode == 2
    assert f"{output}: not written: it is a FIFO, not a regular file" in done.stderr
    assert stat.S_ISFIFO(output.stat().st_mode)


def test_the_profile_keeps_its_policy_on_a_successful_import(profile):
    assert run(*IMPORT, "-o", str(profile)).returncode == 0
    assert POLICY.strip() in profile.read_text()


def test_convert_refuses_a_hard_linked_body_file(tmp_path):
    body = tmp_path / "body.sh"
    body.write_text("echo old body\n")
    os.link(body, tmp_path / "also-body.sh")
    done = run("convert", "--no-config", str(ROOT / "samples" / "multinode-torchrun.sbatch"),
               "--body-file", str(body), "-o", str(tmp_path / "job.toml"))
    assert done.returncode == 2
    assert f"{body}: not written: the file has 2 hard links" in done.stderr
    assert body.read_text() == "echo old body\n" and left_in(tmp_path) == ["also-body.sh", "body.sh"]
