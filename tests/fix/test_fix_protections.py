"""``lint --fix`` never changes a file's mode, owner, links or attributes, and never reports a fix it did not write.

The tests run as root here. Root may write a 0444 file (``os.access`` says
yes), so a refusal of a read-only file has to come from the mode bits; these
tests would catch a check written with ``os.access``.
"""

from __future__ import annotations

import errno
import json
import os
import select
import shutil
import signal
import stat
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from slurmspec.cli import main

CRLF = b"#!/bin/bash\r\n#SBATCH --time=10\r\nsrun hostname\r\n"
FIXED = b"#!/bin/bash\n#SBATCH --time=10\nsrun hostname\n"
ROOT = os.geteuid() == 0
NOBODY = 65534


def script_file(folder: Path, mode: int = 0o644, name: str = "job.sbatch", data: bytes = CRLF) -> Path:
    path = folder / name
    path.write_bytes(data)
    os.chmod(path, mode)
    return path


def fix(*args: str) -> int:
    return main(["lint", "--no-config", "--fix", "--format", "json", *args])


def left_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def run_python(code: str, *, timeout: float = 60) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter; the timeout only keeps a regression (a hang) from stalling the suite."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)


# ------------------------------------------------------------------ read-only
def test_a_read_only_file_is_refused_reported_as_it_is_and_not_counted(tmp_path, capsys):
    path = script_file(tmp_path, mode=0o444)
    assert fix(str(path)) == 2
    captured = capsys.readouterr()
    assert path.read_bytes() == CRLF and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert f"slurmspec: error: {path}: not written: the file is read-only (mode 0444);" in captured.err
    assert "Fixed 0 findings in 0 files" in captured.err
    # The report is of the file as it is on disk: its DOS line breaks are still there.
    assert "SB105" in {d["code"] for d in json.loads(captured.out)["diagnostics"]}
    assert left_in(tmp_path) == ["job.sbatch"]


def test_only_the_file_written_is_counted(tmp_path, capsys):
    kept = script_file(tmp_path, mode=0o444, name="kept.sbatch")
    written = script_file(tmp_path, name="written.sbatch")
    assert fix(str(kept), str(written)) == 2
    err = capsys.readouterr().err
    assert "Fixed 1 finding in 1 file;" in err and f"{kept}: not written" in err
    assert (kept.read_bytes(), written.read_bytes()) == (CRLF, FIXED)


@pytest.mark.skipif(not ROOT, reason="only root may write into a 0444 file (--force-write does not change modes)")
def test_force_write_writes_a_read_only_file_in_place(tmp_path, capsys):
    path = script_file(tmp_path, mode=0o444)
    inode = path.stat().st_ino
    assert fix("--force-write", str(path)) in (0, 1)
    assert "Fixed 1 finding in 1 file" in capsys.readouterr().err
    assert path.read_bytes() == FIXED
    assert (path.stat().st_ino, stat.S_IMODE(path.stat().st_mode)) == (inode, 0o444)


def test_force_write_still_replaces_a_file_it_may_replace(tmp_path, capsys):
    path = script_file(tmp_path, mode=0o640)
    inode = path.stat().st_ino
    assert fix("--force-write", str(path)) in (0, 1), capsys.readouterr().err
    assert path.read_bytes() == FIXED and path.stat().st_ino != inode  # atomically, as without the flag


def test_force_write_needs_fix(tmp_path, capsys):
    assert main(["lint", "--no-config", "--force-write", str(script_file(tmp_path))]) == 2
    assert "--force-write needs --fix" in capsys.readouterr().err


# ------------------------------------------------------------------ mode and owner
@pytest.mark.parametrize("mode, owner", [(0o2755, None), (0o4755, None), (0o6750, NOBODY)])
def test_setuid_setgid_and_owner_are_kept(tmp_path, capsys, mode, owner):
    if owner is not None and not ROOT:
        pytest.skip("giving a file to another user needs root")
    path = script_file(tmp_path, mode=0o644)
    if owner is not None:
        os.chown(path, owner, owner)
    os.chmod(path, mode)  # after chown, which clears setuid/setgid: the order the fix must follow too
    before = path.stat()
    assert fix(str(path)) in (0, 1), capsys.readouterr().err
    after = path.stat()
    assert path.read_bytes() == FIXED and after.st_ino != before.st_ino  # replaced, atomically
    assert (stat.S_IMODE(after.st_mode), after.st_uid, after.st_gid) == (mode, before.st_uid, before.st_gid)


def test_an_owner_that_cannot_be_kept_is_refused(tmp_path, capsys, monkeypatch):
    # Unprivileged, a replacement would belong to whoever ran the fix: the file is left alone instead.
    if not ROOT:
        pytest.skip("giving a file to another user needs root")
    path = script_file(tmp_path)
    os.chown(path, NOBODY, NOBODY)

    def not_allowed(*args):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "fchown", not_allowed)
    assert fix(str(path)) == 2
    err = capsys.readouterr().err
    assert f"{path}: not written: the file belongs to uid {NOBODY} gid {NOBODY}" in err
    assert path.read_bytes() == CRLF and left_in(tmp_path) == ["job.sbatch"]
    # --force-write: into the file itself, which stays its owner's.
    assert fix("--force-write", str(path)) in (0, 1), capsys.readouterr().err
    assert path.read_bytes() == FIXED and (path.stat().st_uid, path.stat().st_gid) == (NOBODY, NOBODY)


# ------------------------------------------------------------------ hard links
def test_a_hard_linked_file_is_refused(tmp_path, capsys):
    path = script_file(tmp_path)
    os.link(path, tmp_path / "other.sbatch")
    assert fix(str(path)) == 2
    assert f"{path}: not written: the file has 2 hard links" in capsys.readouterr().err
    assert path.read_bytes() == CRLF == (tmp_path / "other.sbatch").read_bytes()
    assert left_in(tmp_path) == ["job.sbatch", "other.sbatch"]


def test_force_write_fixes_a_hard_linked_file_through_every_name(tmp_path, capsys):
    path = script_file(tmp_path)
    other = tmp_path / "other.sbatch"
    os.link(path, other)
    assert fix("--force-write", str(path)) in (0, 1), capsys.readouterr().err
    assert path.read_bytes() == FIXED == other.read_bytes()
    assert path.stat().st_ino == other.stat().st_ino and path.stat().st_nlink == 2


# ------------------------------------------------------------------ extended attributes and ACLs
def _set_or_skip(path: Path, name: str, value: bytes) -> None:
    try:
        os.setxattr(path, name, value)
    except OSError as exc:
        pytest.skip(f"this file system refuses the extended attribute {name}: {exc.strerror}")


def test_extended_attributes_are_kept(tmp_path, capsys):
    path = script_file(tmp_path)
    _set_or_skip(path, "user.slurmspec.origin", b"hand-written")
    before = path.stat()
    assert fix(str(path)) in (0, 1), capsys.readouterr().err
    assert path.read_bytes() == FIXED and path.stat().st_ino != before.st_ino
    assert os.getxattr(path, "user.slurmspec.origin") == b"hand-written"


def _acl(*entries: tuple[int, int, int]) -> bytes:
    """A ``system.posix_acl_access`` value (``posix_acl_xattr_header`` version 2, then tag/perm/id entries)."""
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tag, perm, ident) for tag, perm, ident in entries)


def test_an_acl_is_kept(tmp_path, capsys):
    # Built by hand rather than with setfacl (not installed everywhere): user::rw- user:65534:rw- group::r--
    # mask::rw- other::---, the tags and ids of include/uapi/linux/posix_acl{,_xattr}.h.
    path = script_file(tmp_path, mode=0o640)
    undefined = 0xFFFFFFFF
    _set_or_skip(path, "system.posix_acl_access",
                 _acl((0x01, 6, undefined), (0x02, 6, NOBODY), (0x04, 4, undefined), (0x10, 6, undefined),
                      (0x20, 0, undefined)))
    acl, mode = os.getxattr(path, "system.posix_acl_access"), stat.S_IMODE(path.stat().st_mode)
    assert fix(str(path)) in (0, 1), capsys.readouterr().err
    assert path.read_bytes() == FIXED
    assert (os.getxattr(path, "system.posix_acl_access"), stat.S_IMODE(path.stat().st_mode)) == (acl, mode)


@pytest.mark.skipif(shutil.which("setfacl") is None or shutil.which("getfacl") is None,
                    reason="setfacl/getfacl are not installed (the ACL above is set without them)")
def test_an_acl_set_with_setfacl_is_kept(tmp_path, capsys):
    path = script_file(tmp_path)
    if subprocess.run(["setfacl", "-m", f"u:{NOBODY}:rw", str(path)], capture_output=True).returncode != 0:
        pytest.skip("this file system refuses ACLs")
    before = subprocess.run(["getfacl", "-n", str(path)], capture_output=True, text=True).stdout
    assert fix(str(path)) in (0, 1), capsys.readouterr().err
    assert subprocess.run(["getfacl", "-n", str(path)], capture_output=True, text=True).stdout == before


# ------------------------------------------------------------------ FIFOs
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "job.sbatch"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "slurmspec", "lint", "--no-config", "--fix", str(fifo)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"slurmspec: error: {fifo}: not fixed: it is a FIFO, not a regular file" in done.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode) and left_in(tmp_path) == ["job.sbatch"]


def test_a_fifo_swapped_in_while_writing_is_not_waited_on(tmp_path):
    # The first fsync is the temporary file's: the file is replaced by a FIFO just before the
    # changed-on-disk check reads it back.
    path = script_file(tmp_path)
    done = run_python(f"""
import os, sys
from slurmspec.cli import main
real = os.fsync
def swap(fd):
    real(fd)
    if not os.path.exists({str(path)!r} + ".swapped"):
        os.rename({str(path)!r}, {str(path)!r} + ".swapped")
        os.mkfifo({str(path)!r})
os.fsync = swap
sys.exit(main(["lint", "--no-config", "--fix", {str(path)!r}]))
""")
    assert done.returncode == 2, done.stderr
    assert f"{path}: not written: it is now a FIFO, not a regular file" in done.stderr
    assert left_in(tmp_path) == ["job.sbatch", "job.sbatch.swapped"]


# ------------------------------------------------------------------ signals
PAUSE_IN_THE_WRITE = """
import os, sys
from slurmspec.cli import main
real, paused = os.fsync, []
def pause(fd):
    real(fd)
    if not paused:  # the temporary file is complete: say so, then wait for the signal
        paused.append(fd)
        print("paused", flush=True)
        sys.stdin.read()
os.fsync = pause
sys.exit(main(["lint", "--no-config", "--fix", sys.argv[1]]))
"""


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, -signal.SIGTERM), (signal.SIGHUP, -signal.SIGHUP),
                                            (signal.SIGINT, 130)])  # main() turns KeyboardInterrupt into 130
def test_a_signal_during_the_write_leaves_no_temporary_file(tmp_path, signum, status):
    path = script_file(tmp_path)
    # An xdist worker may run with SIGINT ignored, and a child inherits that: Python then installs no
    # KeyboardInterrupt handler and the SIGINT case never ends. The child gets the default back.
    child = subprocess.Popen([sys.executable, "-c", PAUSE_IN_THE_WRITE, str(path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        ready, _, _ = select.select([child.stdout], [], [], 60)  # a safety net for a regression, not a timing
        assert ready and child.stdout.readline() == "paused\n"
        temporary = [name for name in left_in(tmp_path) if name.endswith(".slurmspec")]
        assert len(temporary) == 1 and temporary[0].startswith(".job.sbatch.")  # stopped mid-write
        child.send_signal(signum)
        assert child.wait(timeout=60) == status, child.stderr.read()
    finally:
        child.kill()
        child.communicate()
    assert left_in(tmp_path) == ["job.sbatch"] and path.read_bytes() == CRLF
