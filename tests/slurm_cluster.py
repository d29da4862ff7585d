"""A throwaway, real Slurm cluster (22.05 or 24.11) on loopback, used by tests as an oracle.

`SlurmCluster` starts a private ``munged``, a ``slurmctld`` and one ``slurmd``
(for this machine) from a fresh temporary directory, answers ``sbatch
--test-only`` questions in a few milliseconds each, can really run tiny jobs on
the local node, and tears everything down again.  It needs root (slurmd runs
jobs as their owner, slurmctld runs as ``SlurmUser=root``) and the Debian
packages ``slurm-wlm`` and ``munge``.  Nothing here imports pytest, so scripts
can use it too::

    from tests.slurm_cluster import SlurmCluster
    with SlurmCluster("24.11") as cluster:   # or SlurmCluster() for 22.05, SlurmCluster(layout=...)
        print(cluster.test_only("#!/bin/bash\\n#SBATCH -p gpu --gres=gpu:v100:8\\nhostname\\n"))

The release is ``"22.05"`` (the host's packages) or ``"24.11"`` (Debian
trixie's, run in a chroot; see tests/slurm_release.py).  The nodes and
partitions come from a `ClusterLayout` (tests/slurm_layout.py); the default
one is described next, and is the same on both releases.

Layout of the fake cluster (all virtual nodes except the local one)
-------------------------------------------------------------------
=========  =====================================================  =========  ==========================
partition  nodes                                                  MaxTime    notes
=========  =====================================================  =========  ==========================
debug      ``<hostname -s>`` (real: CPUs/memory of ``slurmd -C``,  04:00:00   Default=YES; real jobs
           ``Gres=gpu:2`` on fake ``/dev``-like char devices)                run here
cpu        ``cpu-[001-016]``: 48 CPUs, 384000 MB, no GPU,          7-00:00:00
           features ``cascadelake,ib``
gpu        ``v100-[01-04]``: 32 CPUs, 192000 MB, ``gpu:v100:8``,   2-00:00:00
           features ``v100,ib,skylake``
a100       ``a100-[01-04]``: 64 CPUs, 512000 MB, ``gpu:a100:8``,   2-00:00:00
           features ``a100,ib,rome``
all        every node                                             INFINITE   the most permissive target
=========  =====================================================  =========  ==========================

``EnforcePartLimits=ALL`` (so partition limits are rejected at submission
instead of leaving the job pending), ``MaxArraySize`` left at its default
(1001), no accounting database (so accounts/QOS are not checked), no licenses.

What --test-only checks
-----------------------
``sbatch --test-only`` runs every client-side check (option parsing, the
cross-option checks, the client-side GRES validation) and then sends
``REQUEST_JOB_WILL_RUN`` to slurmctld, which builds the job record
(``_job_create()``: array, dependency, feature, partition, limit checks) and
runs a trial scheduling pass, then throws the job away.  Nothing runs, but a
job id *is* consumed per accepted-or-ctld-rejected call.  Probed against this
cluster (22.05.8); rc is sbatch's exit status, messages are verbatim:

* **Accepted** (rc 0): stdout is empty, stderr is ``sbatch: Job <n> to start
  at <time> using <k> processors on nodes <nodes> in partition <p>``.
* **Rejected by slurmctld** (rc 1): stderr is ``allocation failure: <msg>``
  (not ``Batch job submission failed: <msg>`` as for a real submission).
* **Array spec** (validated by slurmctld only): accepted: ``0-1000``,
  ``1-5%2``, ``1,2,3``, ``[1-3]``, ``1-3%0``, ``1%2%3`` (only the first ``%``
  is parsed), ``1-10:1000``.  ``Invalid job array specification``:
  ``0-1001``, ``1001``, ``5-1``, ``1-10:0``, ``a``, ``-1``, ``0-1000:1001``.
  The 1000/1001 bounds come from the *default* MaxArraySize; the rest is syntax.
* **Dependency**: ``Job dependency problem`` for syntax errors only
  (``afterok:abc``, ``foo:1``, bare ``afterok``).  A well-formed dependency on
  a job that does not exist (``afterok:999999``) is accepted -- also by a
  real 22.05 submission, which then pends forever.  ``singleton``, ``1``
  (bare id = afterany), ``afterok:1+5``, ``after:1_2``,
  ``afterok:1?afterany:2`` are accepted.
* **Constraint expressions**: ``Invalid feature specification`` for syntax
  errors (``[a|b``, ``v100&&ib``) *and* for unknown feature names
  (``nosuchfeature``), so only syntax is configuration independent.  Quirk: a
  trailing operator (``v100&``) and an empty ``-C ''`` are accepted.
  ``v100&ib``, ``v100|a100``, ``v100*2``, ``[v100*2&ib*1]``,
  ``(v100|a100)&ib`` are accepted on ``-p gpu``.
* **Unknown partition**: sbatch prints ``sbatch: error: invalid partition
  specified: nosuch`` and then ``allocation failure: Invalid partition name
  specified`` (rc 1).  Configuration dependent.
* **Time over the partition limit**: ``-p debug -t 5:00:00`` and ``-p gpu -t
  0`` (0 = UNLIMITED) -> ``Requested time limit is invalid (missing or exceeds
  some limit)``, because this cluster sets ``EnforcePartLimits=ALL``; with the
  default ``EnforcePartLimits=NO`` the job would be accepted and pend.
  Configuration dependent.
* **Resources**: ``--gres=gpu:16 -p gpu``, ``--mem=1T``, ``--gres=gpu:3`` on
  debug -> ``Requested node configuration is not available``; ``-p gpu -N 5``
  (partition has 4 nodes) -> ``Node count specification invalid``;
  ``-w nonode`` -> ``Invalid node name specified``; ``--licenses=foo`` ->
  ``Invalid license specification``; ``--reservation=foo`` -> ``Requested
  reservation is invalid``.  All configuration dependent.
* **Not checked** here because there is no accounting database:
  ``--account=foo`` and ``--qos=foo`` are accepted.  ``--nice=-5`` is
  accepted (root is an operator).
* **Client-side errors** never reach slurmctld and behave as without a
  controller: ``sbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are
  mutually exclusive.`` (rc 1), ``sbatch: error: Invalid --time
  specification`` (rc 255), ``sbatch: unrecognized option '--foo'`` (rc 255).

So a differential test may compare slurmspec with this oracle only where the
rejection comes from sbatch's client side or from pure syntax checks in
slurmctld (array/dependency/feature-expression syntax); partition and feature
names, limits, MaxArraySize bounds and resource fit are properties of this
cluster.

The same cluster on 24.11.5 (Debian trixie, chrooted)
------------------------------------------------------
Every answer above holds on 24.11 too, except (probed; the differential tests
treat the first three as answers of this cluster's configuration or state):

* ``--signal=R:...`` -> ``allocation failure: Preemption is required but is
  disabled on this system`` (24.11.1 NEWS: refused when PreemptMode=OFF).
* ``afterok``/``afternotok`` on a job id the controller does not know ->
  ``Job dependency problem`` (23.02 NEWS); ``afterany`` on it is accepted.
* ``--gres=gpu::1`` passes sbatch and fails with ``Requested node
  configuration is not available``; an empty ``--gres`` (or item) is accepted.
* A step that can never fit makes ``srun`` wait ("step creation temporarily
  disabled, retrying (Requested nodes are busy)") until the job's time limit;
  22.05 fails it at once.
* One ``--test-only`` takes 20-80 ms (the chroot), and the virtual nodes are
  UNKNOWN for a few seconds after start-up (`_wait_ready()` waits for them).
* slurm.conf needs ``TreeWidth=50`` (tests/slurm_layout.py) and a
  ``cgroup.conf`` with ``CgroupPlugin=disabled`` (no cgroup file system in the
  chroot).

Slurm facts relied on (22.05.8, Debian bookworm packages)
---------------------------------------------------------
* ``AuthInfo=socket=<path>`` is honoured by auth/munge and cred/munge (man
  slurm.conf), so a private munged on its own socket/key never collides with a
  system munged; every client command reads it from ``SLURM_CONF``.
* ``munged -F`` (foreground) with ``--socket --key-file --pid-file --log-file
  --seed-file`` runs as root from any directory that is not group/world
  writable (or sticky, like /tmp); a key is any >=32 random bytes, mode 0400.
* Virtual nodes that never register are *not* usable by will-run when they
  are ``State=UNKNOWN``: every ``--test-only`` on them fails with ``Requested
  node configuration is not available`` (probed; resuming them to
  ``IDLE+NOT_RESPONDING`` does not help either).  Declared ``State=CLOUD`` with
  power saving enabled (``SuspendProgram``/``ResumeProgram=/bin/true``,
  ``SuspendTime`` not INFINITE) they are ``idle~`` (powered down) and
  will-run places jobs on them.  ``SuspendExcNodes`` keeps the real node out
  of power saving, ``PrivateData=cloud`` makes sinfo/scontrol list them.
* Powered-down nodes are never pinged; they also carry ``NodeAddr=127.0.0.1``
  and a ``Port=`` on which nothing listens, so no traffic can leave
  127.0.0.1.  slurmd binds its own address only
  (``CommunicationParameters=NoInAddrAny``); slurmctld listens on all
  addresses (it ignores NoInAddrAny) but only talks to 127.0.0.1.
* A real job could be placed on a virtual node only through the ``all``
  partition or ``-w``; it would then wait ``ResumeTimeout=60`` and fail.
  Real jobs belong in ``debug`` (the default partition).
* ``slurmd -N <name>`` overrides the node name; the real node's hardware line
  comes from ``slurmd -C`` (RealMemory is lowered a little so registration
  never drains it for "Low RealMemory").
* GPU GRES on the real node needs device files that exist; character devices
  made with ``mknod`` in the temp dir are enough because no cgroup device
  constraint is configured (no cgroup.conf, ``TaskPlugin=task/none``,
  ``ProctrackType=proctrack/linuxproc``).  ``gres.conf`` lines for the virtual
  nodes are never read by a slurmd; their GPU counts come from slurm.conf.
* ``slurmctld -D -i`` (foreground, ignore saved state) and ``slurmd -D`` run as
  children of this process; ``PR_SET_PDEATHSIG`` makes them die with it even
  if it is killed, and `stop()` (also run by ``atexit``) terminates them.
* ``sbatch --test-only`` leaves no job behind (it does use up a job id, out
  of MaxJobId=67043328), so it can be called thousands of times at ~4-8 ms
  each; ``scontrol ping`` answers ``... is UP`` once slurmctld listens.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from tests.slurm_layout import DEFAULT_LAYOUT, ClusterLayout, render_config
from tests.slurm_release import RELEASES, SBIN_DIRS, ChrootSpace, die_with_parent, host_which
from tests.slurm_release import release as release_named

__all__ = [
    "ClusterLayout",
    "DEFAULT_LAYOUT",
    "RELEASES",
    "SbatchOutcome",
    "SlurmCluster",
    "SlurmClusterError",
    "missing_requirements",
    "REQUIRED_BINARIES",
]

REQUIRED_BINARIES = ("sbatch", "scontrol", "sinfo", "scancel", "slurmctld", "slurmd", "munged")
# The PATH a chrooted release's programs get.
_CHROOT_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"

TERMINAL_STATES = frozenset(
    {
        "COMPLETED",
        "FAILED",
        "CANCELLED",
        "TIMEOUT",
        "NODE_FAIL",
        "OUT_OF_MEMORY",
        "BOOT_FAIL",
        "DEADLINE",
        "PREEMPTED",
        "REVOKED",
        "SPECIAL_EXIT",
    }
)


class SlurmClusterError(RuntimeError):
    """The throwaway cluster could not be started or used."""


@dataclass(frozen=True)
class SbatchOutcome:
    """The result of one sbatch run."""

    returncode: int
    stdout: str
    stderr: str
    accepted: bool

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def which(name: str) -> str | None:
    return host_which(name)


def missing_requirements(release_name: str = "22.05") -> str | None:
    """Why this machine cannot run the cluster of this release, or None if it can."""
    return release_named(release_name).missing_requirements()


def _free_ports(count: int) -> list[int]:
    """Ports on 127.0.0.1 that are free right now (all distinct)."""
    socks = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def remove_folder(folder: Path) -> None:
    """Remove a cluster's work folder, even while a straggler (a slurmstepd that outlived its
    slurmd, a job's task) still writes into it: those are ended first, then the folder is
    removed again. A folder that still cannot go is named on stderr, never left silently."""
    shutil.rmtree(folder, ignore_errors=True)
    for _ in range(3):
        if not folder.exists():
            return
        _end_processes_in(folder)
        time.sleep(0.2)
        shutil.rmtree(folder, ignore_errors=True)
    if folder.exists():
        sys.stderr.write(f"tests/slurm_cluster.py: could not remove {folder}\n")


def _end_processes_in(folder: Path) -> None:
    """SIGKILL every process whose working folder or command line lies in ``folder``."""
    inside = str(folder)
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read().decode(errors="replace")
        except OSError:
            continue
        if cwd.startswith(inside) or inside in command:
            try:
                os.kill(int(entry), signal.SIGKILL)
            except OSError:
                pass


def _tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        return f"<cannot read {path}: {exc}>"
    return "\n".join(text.splitlines()[-lines:])


class SlurmCluster:
    """A private Slurm on 127.0.0.1: munged + slurmctld + one slurmd, of one release and layout.

    Use as a context manager or call `start()` / `stop()`.  `stop()` is
    idempotent and is also registered with `atexit`.
    """

    CLUSTER_NAME = "slurmspec"

    def __init__(
        self,
        release: str = "22.05",
        layout: ClusterLayout = DEFAULT_LAYOUT,
        workdir: str | os.PathLike[str] | None = None,
        *,
        startup_timeout: float = 60.0,
        keep_workdir: bool = False,
        debug_level: str = "info",
    ) -> None:
        self._release = release_named(release)
        self.layout = layout
        self._requested_workdir = Path(workdir) if workdir is not None else None
        self.startup_timeout = startup_timeout
        self.keep_workdir = keep_workdir
        self.debug_level = debug_level
        self.workdir: Path | None = None
        self.conf_path: Path | None = None
        self.env: dict[str, str] = {}
        self.hostname = socket.gethostname().split(".")[0]
        self.startup_seconds: float | None = None
        self.munge_socket: Path | None = None
        self.slurm_version = ""
        self._space = ChrootSpace(self._release.root) if self._release.root is not None else None
        self._procs: dict[str, subprocess.Popen[bytes]] = {}
        self._logs: dict[str, Path] = {}
        self._started = False
        self._owns_workdir = False

    # ---------------------------------------------------------------- identity
    @property
    def release(self) -> str:
        """"22.05" or "24.11"."""
        return self._release.name

    @property
    def version(self) -> tuple[int, int]:
        """The release as slurmspec's --slurm-version takes it, e.g. (24, 11)."""
        return self._release.version

    def has_program(self, name: str) -> bool:
        """Whether this release's environment (the chroot for 24.11) has the program jobs would run."""
        return self._release.program(name) is not None

    @property
    def PARTITIONS(self) -> tuple[str, ...]:  # noqa: N802 - kept from when it was a class constant
        return self.layout.partition_names

    def __repr__(self) -> str:
        return f"SlurmCluster({self.release!r}, layout={self.layout.name!r}, running={self._started})"

    # ------------------------------------------------------------------ life
    def __enter__(self) -> "SlurmCluster":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._started

    def start(self) -> "SlurmCluster":
        """Start the daemons; again, on new ports, when another cluster took a port between
        ``_free_ports`` probing it and slurmctld binding it (clusters start side by side)."""
        for attempt in range(3):
            try:
                return self._start_once()
            except SlurmClusterError as exc:
                if attempt == 2 or "Address already in use" not in str(exc):
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _start_once(self) -> "SlurmCluster":
        if self._started:
            return self
        why = self._release.missing_requirements()
        if why:
            raise SlurmClusterError(why)
        t0 = time.monotonic()
        atexit.register(self.stop)
        try:
            self._make_workdir()
            if self._space is not None:
                self._space.start(self.workdir / "log" / "namespace.log")
            self._start_munged()
            self._write_config()
            self._start_daemons()
            self._wait_ready()
            self.slurm_version = self.scontrol("--version").split()[-1]
        except OSError as exc:
            self.stop()
            raise SlurmClusterError(f"could not start Slurm {self.release}: {exc}") from exc
        except BaseException:
            self.stop()
            raise
        self._started = True
        self.startup_seconds = time.monotonic() - t0
        return self

    def stop(self) -> None:
        """Cancel jobs, stop slurmd, slurmctld and munged; remove the temp dir."""
        procs = self._procs
        if not procs and self.workdir is None:
            return
        if "slurmctld" in procs and procs["slurmctld"].poll() is None:
            self._cancel_all_jobs()
        for name in ("slurmd", "slurmctld", "munged"):
            proc = procs.pop(name, None)
            if proc is None:
                continue
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)
        if self._space is not None:
            self._space.stop()
        self._started = False
        if self.workdir is not None and self._owns_workdir and not self.keep_workdir:
            remove_folder(self.workdir)
            self.workdir = None
        try:
            atexit.unregister(self.stop)
        except Exception:  # pragma: no cover
            pass

    def _cancel_all_jobs(self) -> None:
        """scancel everything and wait (bounded) until no job is running, so no
        slurmstepd outlives the cluster."""
        try:
            self.run(["scancel", "--full", "--quiet", "-u", "root"], timeout=10)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                out = self.run(["squeue", "-h", "-o", "%i %T"], timeout=10).stdout
                if not out.strip():
                    return
                time.sleep(0.2)
        except (subprocess.SubprocessError, OSError):
            pass

    # -------------------------------------------------------------- set-up
    def _make_workdir(self) -> None:
        if self._requested_workdir is not None:
            self._requested_workdir.mkdir(parents=True, exist_ok=True)
            self.workdir = self._requested_workdir
        else:
            prefix = f"slurmspec-slurm-{self.release}-{self.layout.name}-"
            self.workdir = Path(tempfile.mkdtemp(prefix=prefix))
            self._owns_workdir = True
        if self._space is not None:
            self._space.check_path(self.workdir)
        os.chmod(self.workdir, 0o755)  # readable by jobs; not group/world writable
        for sub in ("munge", "state", "spool", "log", "dev", "scripts", "run"):
            (self.workdir / sub).mkdir(exist_ok=True)
        os.chmod(self.workdir / "munge", 0o755)  # munged: socket dir must be o+x

    def _argv(self, argv: Sequence[str]) -> list[str]:
        """argv with its program resolved for this release (inside the chroot for 24.11)."""
        argv = list(argv)
        if "/" not in argv[0]:
            exe = self._release.program(argv[0])
            if exe:
                argv[0] = exe
        return argv

    def _preexec(self, cwd: str | os.PathLike[str] | None):
        if self._space is None:
            return die_with_parent
        if cwd is not None:
            self._space.check_path(cwd)
        return self._space.preexec(cwd)

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        assert self.workdir is not None
        log = self.workdir / "log" / f"{name}.stdio"
        self._logs[name] = log
        chrooted = self._space is not None
        with open(log, "ab") as fh:
            proc = subprocess.Popen(
                self._argv(argv),
                stdin=subprocess.DEVNULL,
                stdout=fh,
                stderr=subprocess.STDOUT,
                env=self.env or self._base_env(),
                cwd=None if chrooted else self.workdir,
                preexec_fn=self._preexec(self.workdir),
            )
        self._procs[name] = proc
        return proc

    def _base_env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("SLURM_", "SBATCH_", "SALLOC_", "SRUN_", "SQUEUE_", "SINFO_"))
        }
        if self._space is not None:
            env["PATH"] = _CHROOT_PATH
            for var in ("LD_LIBRARY_PATH", "LD_PRELOAD", "PYTHONPATH", "VIRTUAL_ENV"):
                env.pop(var, None)
            return env
        path = env.get("PATH", "/usr/bin:/bin")
        for d in SBIN_DIRS:
            if d not in path.split(os.pathsep):
                path = path + os.pathsep + d
        env["PATH"] = path
        return env

    def _start_munged(self) -> None:
        assert self.workdir is not None
        mdir = self.workdir / "munge"
        key = mdir / "munge.key"
        if not key.exists():
            fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o400)
            with os.fdopen(fd, "wb") as fh:
                fh.write(os.urandom(1024))
        sock = mdir / "munge.socket"
        self._spawn(
            "munged",
            [
                "munged",
                "--foreground",
                f"--socket={sock}",
                f"--key-file={key}",
                f"--pid-file={mdir / 'munged.pid'}",
                f"--log-file={self.workdir / 'log' / 'munged.log'}",
                f"--seed-file={mdir / 'munged.seed'}",
                "--num-threads=4",
            ],
        )
        deadline = time.monotonic() + 15
        while not sock.exists():
            if self._procs["munged"].poll() is not None or time.monotonic() > deadline:
                raise SlurmClusterError(
                    "munged did not start:\n"
                    + _tail(self._logs["munged"])
                    + "\n"
                    + _tail(self.workdir / "log" / "munged.log")
                )
            time.sleep(0.02)
        self.munge_socket = sock

    def _make_devices(self) -> Path:
        """Eight fake NVIDIA character devices (major 195) for GPU GRES."""
        assert self.workdir is not None
        dev = self.workdir / "dev"
        for i in range(8):
            path = dev / f"nvidia{i}"
            if path.exists():
                continue
            try:
                os.mknod(path, 0o666 | 0o020000, os.makedev(195, i))  # S_IFCHR
            except (PermissionError, OSError):
                path.touch()  # a plain file still satisfies gres.conf's stat()
        return dev

    def _local_hardware(self) -> dict[str, str]:
        """Parse `slurmd -C` (NodeName=vm CPUs=2 Boards=1 ... RealMemory=24105)."""
        r = self._run_raw(["slurmd", "-C"], timeout=30)
        if r.returncode != 0 or not r.stdout.strip():
            raise SlurmClusterError(f"slurmd -C failed: {r.stderr.strip()}")
        first = r.stdout.splitlines()[0]
        return dict(tok.split("=", 1) for tok in first.split() if "=" in tok)

    def _write_config(self) -> None:
        assert self.workdir is not None and self.munge_socket is not None
        w = self.workdir
        ctld_port, slurmd_port, dead_port = _free_ports(3)
        self.ports = {"slurmctld": ctld_port, "slurmd": slurmd_port, "virtual": dead_port}
        self.env = self._base_env()
        hw = self._local_hardware()
        cpus = int(hw.get("CPUs", "1"))
        mem = int(hw.get("RealMemory", "1024"))
        real_mem = max(256, min(mem - 512, int(mem * 0.95)))
        self.local_node = {"name": self.hostname, "cpus": cpus, "real_memory": real_mem}
        topo = " ".join(
            f"{k}={hw[k]}"
            for k in ("Boards", "SocketsPerBoard", "CoresPerSocket", "ThreadsPerCore")
            if k in hw
        )
        (w / "plugstack.conf").write_text("")
        conf, gres = render_config(
            self.layout,
            release=self.release,
            workdir=w,
            munge_socket=self.munge_socket,
            ports=self.ports,
            host=self.hostname,
            hardware={"cpus": cpus, "topo": topo, "real_mem": real_mem},
            dev=self._make_devices(),
            debug_level=self.debug_level,
            cluster_name=self.CLUSTER_NAME,
        )
        self.conf_path = w / "slurm.conf"
        self.conf_path.write_text(conf)
        (w / "gres.conf").write_text(gres)
        if self._space is not None:
            # No cgroup file system in the chroot, and this cluster enforces nothing (TaskPlugin=task/none).
            (w / "cgroup.conf").write_text("CgroupPlugin=disabled\n")
        self.env["SLURM_CONF"] = str(self.conf_path)

    def _start_daemons(self) -> None:
        assert self.conf_path is not None
        self._spawn("slurmctld", ["slurmctld", "-D", "-i", "-f", str(self.conf_path)])
        self._spawn("slurmd", ["slurmd", "-D", "-N", self.hostname, "-f", str(self.conf_path)])

    def _diagnostics(self) -> str:
        assert self.workdir is not None
        parts = []
        for name in ("slurmctld", "slurmd"):
            proc = self._procs.get(name)
            status = "running" if proc and proc.poll() is None else f"exited {proc and proc.returncode}"
            parts.append(f"--- {name} ({status}) stdio:\n{_tail(self._logs.get(name, Path('/nonexistent')), 15)}")
            parts.append(f"--- {name}.log:\n{_tail(self.workdir / 'log' / f'{name}.log', 30)}")
        return "\n".join(parts)

    def _nodes_ready(self) -> tuple[bool, str]:
        """Every node usable: the real one up, the virtual ones powered down and idle (``idle~``).

        Right after slurmctld starts a 24.11 lists the virtual nodes as UNKNOWN for a
        few seconds, and --test-only then wrongly answers "Requested node
        configuration is not available".
        """
        r = self.run(["sinfo", "-h", "-N", "-o", "%N %t"], timeout=10)
        states = dict(line.split() for line in r.stdout.splitlines() if len(line.split()) == 2)
        if r.returncode != 0 or self.hostname not in states:
            return False, r.stdout + r.stderr
        bad = ("unk", "down", "drain", "fail", "inval")
        real = states.pop(self.hostname)
        if real.endswith(("*", "~", "#")) or real.rstrip("*~#") in bad:
            return False, r.stdout
        return all(s.rstrip("*~#") not in bad and not s.endswith("*") for s in states.values()), r.stdout

    def _wait_ready(self) -> None:
        """Bounded wait until slurmctld answers and every node is usable."""
        deadline = time.monotonic() + self.startup_timeout
        ctld_up = False
        last = ""
        while time.monotonic() < deadline:
            for name in ("slurmctld", "slurmd", "munged"):
                proc = self._procs[name]
                if proc.poll() is not None:
                    raise SlurmClusterError(
                        f"{name} exited with status {proc.returncode} during start-up\n"
                        + self._diagnostics()
                    )
            try:
                if not ctld_up:
                    r = self.run(["scontrol", "ping"], timeout=10)
                    last = r.stdout + r.stderr
                    ctld_up = r.returncode == 0 and "UP" in r.stdout
                if ctld_up:
                    ready, last = self._nodes_ready()
                    if ready:
                        return
            except subprocess.TimeoutExpired:
                last = "timeout"
            time.sleep(0.2)
        raise SlurmClusterError(
            f"Slurm {self.release} did not come up within {self.startup_timeout:.0f}s (last answer: {last!r})\n"
            + self._diagnostics()
        )

    # ------------------------------------------------------------ commands
    def _run_raw(
        self,
        argv: Sequence[str],
        *,
        timeout: float,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        input: bytes | None = None,
    ) -> subprocess.CompletedProcess[str]:
        full_env = dict(self.env or self._base_env())
        if env:
            full_env.update(env)
        command = self._argv(argv)
        if self._space is not None:  # no preexec_fn: see ChrootSpace.command
            command, cwd = self._space.command(command, cwd if cwd is not None else self.workdir), None
        r = subprocess.run(command, input=input, capture_output=True, env=full_env, cwd=cwd, timeout=timeout)
        return subprocess.CompletedProcess(
            r.args, r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
        )

    def run(
        self,
        argv: Sequence[str],
        *,
        timeout: float = 30,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        input: bytes | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """Run a Slurm client command of this release against this cluster (SLURM_CONF set).

        For 24.11 the command runs in the chroot; `cwd` and any file argument
        must then lie under the host's temp folder (pytest's ``tmp_path`` does).
        """
        if self._space is not None and cwd is not None:
            self._space.check_path(cwd)
        return self._run_raw(argv, timeout=timeout, cwd=cwd, env=env, input=input)

    def scontrol(self, *args: str, timeout: float = 30) -> str:
        """This release's ``scontrol ARGS`` against this cluster: its standard output.

        Raises SlurmClusterError when scontrol fails."""
        r = self.run(["scontrol", *args], timeout=timeout)
        if r.returncode != 0:
            raise SlurmClusterError(f"scontrol {' '.join(args)} failed (rc={r.returncode}): {r.stderr.strip()}")
        return r.stdout

    def write_script(self, script: str | bytes) -> Path:
        """Write `script` (bytes verbatim, str as UTF-8) to a fresh file."""
        assert self.workdir is not None
        fd, name = tempfile.mkstemp(prefix="job-", suffix=".sh", dir=self.workdir / "scripts")
        with os.fdopen(fd, "wb") as fh:
            fh.write(script.encode() if isinstance(script, str) else script)
        return Path(name)

    def _sbatch(
        self,
        script: str | bytes,
        extra: Sequence[str],
        args: Sequence[str],
        cwd: str | os.PathLike[str] | None,
        env: Mapping[str, str] | None,
        timeout: float,
    ) -> SbatchOutcome:
        if not self._started:
            raise SlurmClusterError("cluster is not running; call start() first")
        path = self.write_script(script)
        try:
            r = self.run(
                ["sbatch", *extra, *args, str(path)],
                timeout=timeout,
                cwd=cwd if cwd is not None else self.workdir,
                env=env,
            )
        finally:
            try:
                path.unlink()
            except OSError:
                pass
        return SbatchOutcome(r.returncode, r.stdout, r.stderr, r.returncode == 0)

    def test_only(
        self,
        script: str | bytes,
        args: Sequence[str] = (),
        cwd: str | os.PathLike[str] | None = None,
        timeout: float = 30,
        *,
        env: Mapping[str, str] | None = None,
    ) -> SbatchOutcome:
        """`sbatch --test-only [args] <script>`: validate without submitting.

        `env` adds variables (e.g. SBATCH_*) on top of the cluster environment,
        which has every inherited SLURM_*/SBATCH_* variable removed.
        """
        return self._sbatch(script, ["--test-only"], args, cwd, env, timeout)

    def submit(
        self,
        script: str | bytes,
        args: Sequence[str] = (),
        cwd: str | os.PathLike[str] | None = None,
        timeout: float = 30,
        *,
        env: Mapping[str, str] | None = None,
    ) -> SbatchOutcome:
        """Really submit (`sbatch --parsable`); see `job_id()` for the id."""
        return self._sbatch(script, ["--parsable"], args, cwd, env, timeout)

    @staticmethod
    def job_id(outcome: SbatchOutcome) -> int:
        """The job id from a `submit()` outcome (``--parsable`` prints ``id[;cluster]``)."""
        m = re.match(r"\s*(\d+)", outcome.stdout)
        if not outcome.accepted or not m:
            raise SlurmClusterError(f"submission failed: rc={outcome.returncode} {outcome.stderr.strip()}")
        return int(m.group(1))

    def job_info(self, job_id: int) -> dict[str, str]:
        """`scontrol show job -o <id>` as a dict (empty if the job is unknown)."""
        r = self.run(["scontrol", "show", "job", "-o", str(job_id)], timeout=15)
        if r.returncode != 0:
            return {}
        info: dict[str, str] = {}
        for tok in r.stdout.split():
            if "=" in tok:
                k, v = tok.split("=", 1)
                info.setdefault(k, v)
        return info

    def jobs_named(self, name: str) -> list[int]:
        """The ids of the jobs the controller knows (running or recently ended) with this job name."""
        r = self.run(["scontrol", "show", "job", "-o"], timeout=15)
        found = []
        for line in r.stdout.splitlines():
            fields = dict(tok.split("=", 1) for tok in line.split() if "=" in tok)
            if fields.get("JobName") == name and fields.get("JobId", "").isdigit():
                found.append(int(fields["JobId"]))
        return sorted(found)

    def wait(self, job_id: int, timeout: float = 60) -> str:
        """Poll until the job reaches a terminal state; return it (e.g. COMPLETED).

        Raises TimeoutError (after cancelling the job) if it does not finish in time.
        """
        deadline = time.monotonic() + timeout
        state = "UNKNOWN"
        while time.monotonic() < deadline:
            state = self.job_info(job_id).get("JobState", state)
            if state in TERMINAL_STATES:
                return state
            time.sleep(0.1)
        self.run(["scancel", str(job_id)], timeout=10)
        raise TimeoutError(f"job {job_id} still {state} after {timeout}s")


if __name__ == "__main__":  # pragma: no cover - manual smoke test
    import sys

    name = next((a for a in sys.argv[1:] if a in RELEASES), "22.05")
    with SlurmCluster(name, keep_workdir="--keep" in sys.argv) as c:
        print(f"Slurm {c.slurm_version} started in {c.startup_seconds:.2f}s, conf {c.conf_path}")
        out = c.test_only("#!/bin/bash\n#SBATCH -p gpu --gres=gpu:v100:8\nhostname\n")
        print(out)
