"""A throwaway Slurm 22.05 cluster WITH accounting: MariaDB + slurmdbd beside tests/slurm_cluster.py's daemons.

`AccountingCluster` is a `SlurmCluster` (same private munged, loopback ports,
fake GPU devices, start/stop discipline) that, before slurmctld starts, brings
up a private MariaDB (own datadir, socket and port) and a slurmdbd, registers
the cluster with ``sacctmgr``, and points slurm.conf at them with
``AccountingStoreFlags=job_script,job_env`` -- so ``sacct --batch-script``
returns what each job ran. Used by the ``slurmspec audit`` tests (tests/audit/)::

    from tests.slurm_accounting import AccountingCluster
    with AccountingCluster() as cluster:
        job = cluster.job_id(cluster.submit("#!/bin/bash\\nhostname\\n"))
        cluster.wait_recorded(job)
        print(cluster.run(["sacct", "-j", str(job), "--batch-script"]).stdout)

Facts relied on (measured on Debian 12: mariadb-server 10.11, slurmdbd 22.05.8;
see also /work/shared/slurm-lab/README.md):

* ``mariadb-install-db --datadir=DIR --auth-root-authentication-method=normal``
  makes a fresh instance in ~3 s; ``mariadbd --user=root --datadir=DIR
  --socket=... --port=... --bind-address=127.0.0.1 --skip-networking=0`` serves it.
* slurmdbd 22.05 has no ``-f``: it reads ``slurmdbd.conf`` from the folder of
  ``$SLURM_CONF``, and refuses the file unless it is mode 0600.
  ``StorageHost=127.0.0.1`` (with ``localhost`` the MariaDB client library tries
  the default socket /run/mysqld/mysqld.sock and slurmdbd retries forever).
  ``AuthInfo=socket=`` reaches the private munged as it does for slurmctld; the
  clients' (sacct, sacctmgr, slurmctld) connection to slurmdbd does not read
  AuthInfo but ``AccountingStoragePass=`` (man slurm.conf: "the path to an
  alternate Munge socket" for accounting_storage/slurmdbd).
* The cluster must be known to slurmdbd (``sacctmgr -i add cluster NAME``)
  before slurmctld registers, or no job is recorded.
* ``AccountingStorageTRES=gres/gpu`` makes ``AllocTRES`` show ``gres/gpu=N``.
* A job reaches slurmdbd a moment after it ends (slurmctld sends job records
  asynchronously): `wait_recorded` polls ``sacct`` until the job's final state is there.
"""

from __future__ import annotations

import subprocess
import time

from tests.slurm_cluster import SlurmCluster, SlurmClusterError, TERMINAL_STATES, _free_ports, _tail, remove_folder
from tests.slurm_layout import ClusterLayout
from tests.slurm_release import host_which

__all__ = ["ACCOUNTING_LAYOUT", "AccountingCluster", "missing_accounting"]

ACCOUNTING_BINARIES = ("mariadbd", "mariadb-install-db", "mariadb", "slurmdbd", "sacct", "sacctmgr")

# One real node (this machine) with two fake GPUs; nothing virtual: every job of these tests runs.
ACCOUNTING_LAYOUT = ClusterLayout(
    name="accounting",
    nodes="NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} {topo} RealMemory={real_mem} Gres=gpu:2 State=UNKNOWN\n",
    partitions="PartitionName=debug Nodes={host} Default=YES MaxTime=01:00:00 DefaultTime=00:10:00 State=UP\n",
    gres="NodeName={host} Name=gpu File={dev}/nvidia[0-1]\n",
)


def missing_accounting() -> str | None:
    """Why this machine cannot run an `AccountingCluster` (besides Slurm itself), or None."""
    absent = [name for name in ACCOUNTING_BINARIES if host_which(name) is None]
    if absent:
        return (f"accounting needs {', '.join(absent)} (Debian: apt-get install mariadb-server slurmdbd)")
    return None


class AccountingCluster(SlurmCluster):
    """`SlurmCluster` (22.05, the host's packages) plus MariaDB and slurmdbd; see the module doc."""

    CLUSTER_NAME = "acctest"

    def __init__(self, layout: ClusterLayout = ACCOUNTING_LAYOUT, **kwargs) -> None:
        super().__init__("22.05", layout, **kwargs)

    def start(self) -> "AccountingCluster":
        why = missing_accounting()
        if why:
            raise SlurmClusterError(why)
        super().start()
        return self

    # slurmctld must find slurmdbd up and the cluster registered: both happen here, after
    # _write_config (which set SLURM_CONF and the munge socket) and before the daemons start.
    def _start_daemons(self) -> None:
        assert self.workdir is not None and self.conf_path is not None
        db_port, dbd_port = _free_ports(2)
        self.ports.update(mariadb=db_port, slurmdbd=dbd_port)
        self._start_mariadb(db_port)
        with open(self.conf_path, "a") as conf:  # later lines win over the shared part's "none"s
            conf.write(
                "\n# Accounting (tests/slurm_accounting.py)\n"
                "AccountingStorageType=accounting_storage/slurmdbd\n"
                "AccountingStorageHost=127.0.0.1\n"
                f"AccountingStoragePort={dbd_port}\n"
                # For accounting_storage/slurmdbd this is the munge socket (man slurm.conf): without it
                # the clients' connection to slurmdbd asks the system munged, not AuthInfo's.
                f"AccountingStoragePass={self.munge_socket}\n"
                "AccountingStoreFlags=job_script,job_env\n"
                "AccountingStorageTRES=gres/gpu\n"
                "JobAcctGatherType=jobacct_gather/linux\n"
                "JobAcctGatherFrequency=5\n"
            )
        self._start_slurmdbd(db_port, dbd_port)  # sacctmgr reaches it through the lines just written
        self._sacctmgr_add_cluster()
        super()._start_daemons()

    def _start_mariadb(self, port: int) -> None:
        assert self.workdir is not None
        data, run = self.workdir / "db", self.workdir / "run"
        done = subprocess.run(
            ["mariadb-install-db", "--user=root", f"--datadir={data}", "--auth-root-authentication-method=normal",
             "--skip-test-db"],
            capture_output=True, text=True, timeout=120, env=self.env,
        )
        if done.returncode != 0:
            raise SlurmClusterError(f"mariadb-install-db failed: {done.stderr.strip()[-2000:]}")
        self.db_socket = run / "mariadb.sock"
        self._spawn("mariadbd", [
            host_which("mariadbd") or "mariadbd", "--no-defaults", "--user=root", f"--datadir={data}",
            f"--socket={self.db_socket}", f"--port={port}", "--bind-address=127.0.0.1",
            f"--pid-file={run / 'mariadb.pid'}", "--skip-log-error",
            "--innodb-buffer-pool-size=32M", "--innodb-flush-log-at-trx-commit=0",
        ])
        self._wait_for(lambda: self.db_socket.exists(), "mariadbd", 60)
        sql = ("CREATE DATABASE slurm_acct_db; CREATE USER 'slurm'@'localhost' IDENTIFIED BY 'throwaway';"
               " CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'throwaway';"
               " GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';"
               " GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1'; FLUSH PRIVILEGES;")
        done = subprocess.run(["mariadb", "--no-defaults", f"--socket={self.db_socket}", "-uroot", "-e", sql],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise SlurmClusterError(f"could not create the accounting database: {done.stderr.strip()}")

    def _start_slurmdbd(self, db_port: int, dbd_port: int) -> None:
        assert self.workdir is not None and self.conf_path is not None
        w = self.workdir
        conf = self.conf_path.parent / "slurmdbd.conf"  # slurmdbd 22.05 reads it beside $SLURM_CONF
        conf.write_text(
            "AuthType=auth/munge\n"
            f"AuthInfo=socket={self.munge_socket}\n"
            "DbdHost=localhost\n"
            "DbdAddr=127.0.0.1\n"
            f"DbdPort={dbd_port}\n"
            "SlurmUser=root\n"
            "StorageType=accounting_storage/mysql\n"
            "StorageHost=127.0.0.1\n"
            f"StoragePort={db_port}\n"
            "StorageLoc=slurm_acct_db\n"
            "StorageUser=slurm\n"
            "StoragePass=throwaway\n"
            f"PidFile={w / 'run' / 'slurmdbd.pid'}\n"
            f"LogFile={w / 'log' / 'slurmdbd.log'}\n"
            "DebugLevel=info\n"
        )
        conf.chmod(0o600)
        self._spawn("slurmdbd", ["slurmdbd", "-D"])
        self._wait_for(lambda: self._answers(["sacctmgr", "-n", "-P", "list", "cluster"]), "slurmdbd", 60)

    def _sacctmgr_add_cluster(self) -> None:
        done = self.run(["sacctmgr", "-i", "add", "cluster", self.CLUSTER_NAME], timeout=30)
        if done.returncode != 0 and "already exists" not in done.stdout + done.stderr:
            raise SlurmClusterError(f"sacctmgr add cluster failed: {done.stdout}{done.stderr}")

    def _answers(self, argv: list[str]) -> bool:
        try:
            return self.run(argv, timeout=10).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def _wait_for(self, ready, name: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            proc = self._procs[name]
            if proc.poll() is not None or time.monotonic() > deadline:
                assert self.workdir is not None
                raise SlurmClusterError(
                    f"{name} did not come up (status {proc.poll()}):\n{_tail(self._logs[name])}\n"
                    f"{_tail(self.workdir / 'log' / f'{name}.log')}")
            time.sleep(0.1)

    def stop(self) -> None:
        """SlurmCluster.stop, then slurmdbd and MariaDB, then the folder (they keep files open in it)."""
        workdir, owned, keep = self.workdir, self._owns_workdir, self.keep_workdir
        self.keep_workdir = True
        try:
            super().stop()
        finally:
            self.keep_workdir = keep
        for name in ("slurmdbd", "mariadbd"):
            proc = self._procs.pop(name, None)
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)
        if workdir is not None and owned and not keep:
            remove_folder(workdir)
            self.workdir = None

    # ------------------------------------------------------------ jobs
    def wait_recorded(self, job_ids, timeout: float = 60) -> None:
        """Wait until accounting holds every job of ``job_ids`` in a final state."""
        wanted = {str(job) for job in job_ids}
        deadline = time.monotonic() + timeout
        seen: dict[str, str] = {}
        while time.monotonic() < deadline:
            out = self.run(["sacct", "-X", "-n", "-P", "-o", "JobIDRaw,State", "-j", ",".join(sorted(wanted))],
                           timeout=15).stdout
            seen = dict(line.split("|", 1) for line in out.splitlines() if "|" in line)
            if all(seen.get(job, "").split()[0:1] and seen[job].split()[0] in TERMINAL_STATES for job in wanted):
                return
            time.sleep(0.3)
        raise TimeoutError(f"accounting did not record the end of {sorted(wanted)} in {timeout}s: {seen}")
