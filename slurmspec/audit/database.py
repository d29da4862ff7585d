"""Administrators only: the jobs and scripts read straight from slurmdbd's MariaDB/MySQL tables, read-only.

``slurmspec audit --database FILE --db-cluster NAME`` reads ``<NAME>_job_table`` (and the script and
environment tables) through the ``mariadb`` (or ``mysql``) client with the credentials of the option
file ``FILE`` (``[client]`` host, port, user, password, database). This **bypasses Slurm's
PrivateData** -- whoever holds a database account sees every job -- so it is an explicit option,
never a fallback. Measured on the accounting lab (docs/audit.md): the listing with each job's script
hash took 20 ms and the distinct scripts 24 ms, against 152 ms for ``sacct -X`` plus 63 + 68 ms of
``--batch-script``/``--env-vars`` per 200 jobs; and slurmdbd stores each distinct script once, so
only a batch's distinct scripts travel.

What the tables hold (slurmdbd 22.05.8, read on the lab) and how each maps to sacct's fields:
``state`` is the job state number (JOB_COMPLETE=3 ...; flags above the low byte), ``exit_code`` a
wait status (4021 prints ``0:53``), times are epoch seconds (printed in local time, as sacct does),
``tres_alloc`` reads ``1=4,2=8000,4=1,1001=2`` with ids from ``tres_table`` (1 cpu, 4 node, gres/gpu
its own id), ``id_array_task``/``het_job_offset`` are 4294967294 (NO_VAL) outside arrays and hetjobs.
Text columns are read as HEX() so that no byte of a path, a submit line or a script can be taken
for a separator.
"""

from __future__ import annotations

import pwd
from datetime import datetime
from typing import Iterable, Iterator

from slurmspec.audit.jobs import Job
from slurmspec.audit.sacct import AccountingError, sbatch_variables, streamed_lines

NO_VAL = 4294967294
# slurm.h, enum job_states (the low byte of `state`).
STATES = ("PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL",
          "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY")
_COLUMNS = ("id_job", "id_array_job", "id_array_task", "het_job_id", "het_job_offset", "id_user", "HEX(account)",
            "HEX(`partition`)", "state", "exit_code", "time_submit", "time_start", "time_end", "time_suspended",
            "tres_alloc", "nodes_alloc", "HEX(work_dir)", "HEX(submit_line)", "script_hash_inx", "env_hash_inx")


def epoch(when: str) -> int:
    """``2026-11-01`` or ``2026-11-01T08:30[:00]`` (local time, as sacct reads it) -> epoch seconds."""
    for shape in ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d"):
        try:
            return int(datetime.strptime(when, shape).timestamp())
        except ValueError:
            continue
    raise ValueError(f"the database route takes dates as 2026-11-01 or 2026-11-01T08:30, not {when!r}")


def _identifier(name: str) -> str:
    if not name.replace("_", "").replace("-", "").isalnum():
        raise AccountingError(f"not a cluster name: {name!r}")
    return name.lower()


def _text(value: str) -> str:
    return bytes.fromhex(value).decode("utf-8", "surrogateescape")


def _quoted(values: Iterable[str]) -> str:
    return ",".join("0x" + value.encode("utf-8", "surrogateescape").hex() for value in values) or "''"


def exit_code(status: int) -> str:
    """``exit:signal`` as sacct prints a wait status."""
    signal = status & 0x7F
    if signal and signal != 0x7F:
        return f"0:{signal}"
    return f"{(status >> 8) & 0xFF}:0"


class DatabaseSource:
    """Jobs, scripts and environments from slurmdbd's tables (see the module doc)."""

    def __init__(self, options_file: str, cluster: str, *, since: str, until: str, all_users: bool,
                 users=(), accounts=(), partitions=(), shard=None, client: str = "mariadb") -> None:
        self.options_file, self.client = options_file, client
        self.table = _identifier(cluster)
        self.since, self.until = epoch(since), epoch(until)
        self.all_users, self.users, self.accounts, self.partitions = all_users, list(users), accounts, partitions
        self.shard = shard  # pipeline.Shard: filtered in the query, so the other shards' jobs never arrive
        self._hashes: dict[str, tuple[int, int]] = {}  # JobID -> (script, environment) hash_inx, until fetched
        self._env: dict[str, int] = {}  # the last batch's environments
        self._gpu_tres: int | None = None

    def _query(self, sql: str) -> Iterator[list[str]]:
        argv = [self.client, f"--defaults-extra-file={self.options_file}", "--batch", "--skip-column-names",
                "--quick", "-e", sql]
        for raw in streamed_lines(argv, self.client):
            yield raw.decode("ascii", "replace").rstrip("\n").split("\t")

    def _where(self) -> str:
        # sacct -S/-E without --state: jobs eligible before the end of the window, not ended before its start.
        where = [f"time_eligible <= {self.until}", f"(time_end >= {self.since} OR time_end = 0)", "deleted = 0"]
        uids = None if self.all_users and not self.users else [
            str(pwd.getpwnam(name).pw_uid) for name in self.users] if self.users else [str(_own_uid())]
        if uids is not None:
            where.append(f"id_user IN ({','.join(uids)})")
        if self.accounts:
            where.append(f"account IN ({_quoted(self.accounts)})")
        if self.partitions:
            where.append(f"`partition` IN ({_quoted(self.partitions)})")
        if self.shard is not None:
            where.append(f"MOD(id_job, {int(self.shard.count)}) = {int(self.shard.index) - 1}")
        return " AND ".join(where)

    def jobs(self) -> Iterator[Job]:
        gpu = self._gpu_id()
        sql = f"SELECT {','.join(_COLUMNS)} FROM {self.table}_job_table WHERE {self._where()} ORDER BY id_job"
        for row in self._query(sql):
            job = self._job(row, gpu)
            if job.has_script and job.finished:  # the jobs the pipeline will ask scripts for
                self._hashes[job.job_ref] = (int(row[18]), int(row[19]))
            yield job

    def _gpu_id(self) -> str | None:
        rows = list(self._query("SELECT id FROM tres_table WHERE type='gres' AND name='gpu' AND deleted=0"))
        return rows[0][0] if rows else None

    def _job(self, row: list[str], gpu: str | None) -> Job:
        (job_id, array_job, array_task, het_id, het_offset, uid, account, partition, state, status, submit, start,
         end, suspended, tres, nodes, work_dir, submit_line) = row[:18]
        if int(array_task) != NO_VAL:
            ref = f"{array_job}_{array_task}"
        elif int(het_offset) != NO_VAL:
            ref = f"{het_id}+{het_offset}"
        else:
            ref = job_id
        counts = dict(item.split("=", 1) for item in tres.split(",") if "=" in item)
        started, ended = int(start), int(end)
        elapsed = max(0, ended - started - int(suspended)) if started and ended else 0
        return Job(
            job_id=int(job_id), job_ref=ref, user=_user(int(uid)), account=_text(account), partition=_text(partition),
            state=STATES[int(state) & 0xFF] if int(state) & 0xFF < len(STATES) else "UNKNOWN",
            exit_code=exit_code(int(status)), elapsed=elapsed, cpus=int(counts.get("1", 0)),
            gpus=int(counts.get(gpu, 0)) if gpu else 0, nodes=int(nodes) or int(counts.get("4", 0)),
            submit=_time(int(submit)), start=_time(started), end=_time(ended),
            work_dir=_text(work_dir), submit_line=_text(submit_line),
        )

    def scripts(self, refs: Iterable[str]) -> dict[str, bytes]:
        """The batch's scripts; the pipeline asks for every job with a script once, so each is forgotten here."""
        pairs = {ref: self._hashes.pop(ref) for ref in refs if ref in self._hashes}
        self._env = {ref: env for ref, (_, env) in pairs.items() if env}
        return self._texts({ref: script for ref, (script, _) in pairs.items() if script}, "job_script_table",
                           "batch_script")

    def environments(self, refs: Iterable[str]) -> dict[str, dict[str, str]]:
        wanted = {ref: self._env[ref] for ref in refs if ref in self._env}
        return {ref: sbatch_variables(text) for ref, text in self._texts(wanted, "job_env_table", "env_vars").items()}

    def _texts(self, wanted: dict[str, int], table: str, column: str) -> dict[str, bytes]:
        """Job -> text, one query for the distinct hash_inx of ``wanted`` (job -> hash_inx)."""
        if not wanted:
            return {}
        ids = ",".join(str(inx) for inx in sorted(set(wanted.values())))
        texts = {int(inx): bytes.fromhex(text) for inx, text in
                 self._query(f"SELECT hash_inx, HEX({column}) FROM {self.table}_{table} WHERE hash_inx IN ({ids})")}
        return {ref: texts[inx] for ref, inx in wanted.items() if inx in texts}


def _own_uid() -> int:
    import os

    return os.getuid()


def _user(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _time(seconds: int) -> datetime | None:
    return datetime.fromtimestamp(seconds) if seconds else None
