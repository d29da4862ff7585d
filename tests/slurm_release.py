"""Where a Slurm release's programs live and how to run them (used by tests/slurm_cluster.py).

Two real releases serve as oracles:

* **22.05** -- the host's own Debian bookworm packages (``slurm-wlm`` 22.05.8),
  run directly.
* **24.11** -- Debian trixie's ``slurm-wlm`` 24.11.x.  Its packages need
  libc6 >= 2.38 (bookworm has 2.36), so they live in a ``debootstrap
  --variant=minbase trixie`` chroot (``.ci/setup-slurm-2411.sh`` makes it;
  default ``/srv/trixie``, or ``$SLURMSPEC_TRIXIE_ROOT``).  Every program of
  that release -- munged, slurmctld, slurmd and the clients -- runs chrooted
  there, inside one private mount namespace (`ChrootSpace`) in which the
  chroot sees the host's temporary folder (so a cluster's work folder, the
  scripts it is given and pytest's ``tmp_path`` have the same path inside and
  out), ``/etc/hosts`` (the host name resolves as outside), and its own
  ``/proc`` and ``/sys``.  Nothing is mounted on the host: the namespace
  disappears with the last process in it.
"""

from __future__ import annotations

import ctypes
import functools
import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

__all__ = ["RELEASES", "Release", "ChrootSpace", "release"]

# Extra search path: slurmctld/slurmd/munged live in /usr/sbin, which a
# non-login root shell may not have on PATH.
SBIN_DIRS = ("/usr/sbin", "/sbin", "/usr/local/sbin")
DAEMONS = ("slurmctld", "slurmd", "munged")
CLIENTS = ("sbatch", "scontrol", "sinfo", "squeue", "scancel", "srun")
CLONE_NEWNS = 0x00020000


def die_with_parent() -> None:  # pragma: no cover - runs in the child
    """preexec_fn: deliver SIGTERM to the child if this Python process dies."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass


def host_which(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path=os.pathsep.join(SBIN_DIRS))


@dataclass(frozen=True)
class Release:
    """One Slurm release: its name ("22.05") and the root its programs live under (None: the host)."""

    name: str
    root: Path | None
    setup_hint: str

    @property
    def version(self) -> tuple[int, int]:
        major, minor = self.name.split(".")
        return int(major), int(minor)

    def program(self, name: str) -> str | None:
        """The program's path as the release sees it (inside the chroot for a chrooted release)."""
        if self.root is None:
            return host_which(name)
        for folder in ("/usr/bin", "/usr/sbin", "/bin", "/sbin"):
            if os.access(f"{self.root}{folder}/{name}", os.X_OK):
                return f"{folder}/{name}"
        return None

    def missing_requirements(self) -> str | None:
        """Why this machine cannot run this release's cluster, or None if it can.

        No ``sbatch`` on PATH means "no real Slurm here" for every release: a user
        who hides Slurm from PATH gets no chrooted release either.
        """
        if self.root is not None and shutil.which("sbatch") is None:
            return (f"real Slurm {self.name} off: no sbatch on PATH, and the {self.root} chroot is used only"
                    " next to the host's Slurm (put sbatch on PATH, .ci/setup-slurm.sh)")
        for binary in (*DAEMONS, *CLIENTS[:4]):
            if self.program(binary) is None:
                where = "on PATH" if self.root is None else f"in the chroot {self.root}"
                return f"real Slurm {self.name} not installed: {binary} not found {where} ({self.setup_hint})"
        if os.geteuid() != 0:
            return f"real Slurm {self.name} cluster needs root (slurmd runs jobs as their owner; SlurmUser=root)"
        if self.root is not None:
            for tool in ("unshare", "mount"):
                if host_which(tool) is None:
                    return f"real Slurm {self.name} needs {tool} (util-linux) to run its chroot"
            if not _can_mount():
                return (f"real Slurm {self.name} runs in a chroot whose /proc and temp folder are mounted in a"
                        " private mount namespace, and this machine refuses that (no CAP_SYS_ADMIN?)")
        return None


@functools.cache
def _can_mount() -> bool:
    """Whether a private mount namespace with a mount in it can be made here (an unprivileged container cannot)."""
    unshare = host_which("unshare")
    try:
        r = subprocess.run([unshare, "-m", "--propagation", "private", "--", "mount", "-t", "tmpfs", "none", "/mnt"],
                           capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return r.returncode == 0


RELEASES: dict[str, Release] = {
    "22.05": Release("22.05", None, "apt-get install slurm-wlm munge, or .ci/setup-slurm.sh"),
    "24.11": Release(
        "24.11",
        Path(os.environ.get("SLURMSPEC_TRIXIE_ROOT", "/srv/trixie")),
        "make it with .ci/setup-slurm-2411.sh: needs root, debootstrap and the network",
    ),
}


def release(name: str) -> Release:
    try:
        return RELEASES[name]
    except KeyError:
        raise ValueError(f"unknown Slurm release {name!r}; choose one of {', '.join(RELEASES)}") from None


class ChrootSpace:
    """A private mount namespace in which a release's chroot sees the host's temp folder and /etc/hosts.

    A holder process (``unshare -m`` running ``sleep``) keeps the namespace
    alive; every program of the release is started by `preexec` (setns into
    the namespace, chroot, chdir), so the paths it is given are host paths
    under the temp folder.  `stop()` ends the holder; the mounts vanish with
    the namespace once the daemons have stopped too.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.shared = Path(tempfile.gettempdir()).resolve()
        self._holder: subprocess.Popen[bytes] | None = None

    def start(self, log: Path) -> None:
        r, shared = self.root, self.shared
        inside = f"{r}{shared}"
        script = (
            "set -e\n"
            f"mkdir -p '{inside}'\n"
            f"mount -t proc proc '{r}/proc'\n"
            f"mount --rbind /sys '{r}/sys' 2>/dev/null || true\n"
            f"mount --bind '{shared}' '{inside}'\n"
            # a fresh debootstrap has no /etc/hosts to mount over (measured: minbase trixie)
            f"[ -e '{r}/etc/hosts' ] || : > '{r}/etc/hosts'\n"
            f"mount --bind /etc/hosts '{r}/etc/hosts'\n"
            "echo ready\n"
            "exec sleep 2147483647\n"
        )
        unshare = host_which("unshare")
        assert unshare is not None
        with open(log, "ab") as err:
            self._holder = subprocess.Popen(
                [unshare, "-m", "--propagation", "private", "--", "/bin/sh", "-c", script],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err, preexec_fn=die_with_parent,
            )
        assert self._holder.stdout is not None
        line = self._holder.stdout.readline()
        if line.strip() != b"ready":
            self.stop()
            raise OSError(f"could not set up the mount namespace for the chroot {r} (see {log})")

    def preexec(self, cwd: str | os.PathLike[str] | None) -> Callable[[], None]:
        """A preexec_fn: join the namespace, chroot, cd to `cwd` (a host path under the shared temp folder)."""
        assert self._holder is not None, "the chroot's namespace is not running"
        ns = f"/proc/{self._holder.pid}/ns/mnt"
        root = str(self.root)
        where = str(cwd) if cwd is not None else "/"

        def enter() -> None:  # pragma: no cover - runs in the child
            die_with_parent()
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            fd = os.open(ns, os.O_RDONLY)
            if libc.setns(fd, CLONE_NEWNS) != 0:
                raise OSError(ctypes.get_errno(), "setns into the chroot's mount namespace failed")
            os.close(fd)
            os.chroot(root)
            os.chdir(where)

        return enter

    def command(self, argv: Sequence[str], cwd: str | os.PathLike[str] | None) -> list[str]:
        """``argv`` run in the namespace and chroot, in ``cwd``, by small programs instead of a preexec_fn.

        A ``preexec_fn`` forces a full ``fork`` of the test process (its page tables
        copied) and Python code in the child; without one ``subprocess`` uses ``vfork``.
        Measured for ``true`` from a 200 MB process: 6.3 ms of the parent's CPU and
        34 ms wall per call with the preexec_fn, 0.6 ms and 10 ms this way -- it
        counts, as the differential tests run thousands of client commands.
        ``chroot`` runs inside the namespace, so the root it opens has the namespace's
        mounts (``nsenter --root`` would open the host's view of it).
        """
        assert self._holder is not None, "the chroot's namespace is not running"
        nsenter, chroot = host_which("nsenter"), host_which("chroot")
        assert nsenter is not None and chroot is not None
        where = str(cwd) if cwd is not None else "/"
        return [nsenter, f"--mount=/proc/{self._holder.pid}/ns/mnt", "--", chroot, str(self.root),
                "/usr/bin/env", "-C", where, "--", *argv]

    def check_path(self, path: str | os.PathLike[str]) -> None:
        """A path handed to a chrooted program must lie under the shared temp folder."""
        resolved = Path(path).resolve()
        if resolved != self.shared and self.shared not in resolved.parents:
            raise ValueError(f"{path} is outside {self.shared}, the only host folder the chroot {self.root} sees")

    def stop(self) -> None:
        holder, self._holder = self._holder, None
        if holder is not None and holder.poll() is None:
            holder.terminate()
            holder.wait(timeout=10)
