"""One finished job as accounting records it (``sacct -X``): who, where, what it was allocated, how long.

``parse_rows`` turns ``sacct -X -n -P --noconvert --delimiter=SEP -o FIELDS`` lines into
`Job` records one at a time (a generator: nothing is kept). Facts from sacct 22.05.8:

* ``AllocTRES`` reads ``billing=1,cpu=1,gres/gpu=2,mem=1G,node=1``; typed GPUs add
  ``gres/gpu:a100=2`` beside the untyped total, which is the one counted here.
* ``State`` may carry a suffix (``CANCELLED by 1000``); only the first word is the state.
* An array task's ``JobIDRaw`` is its own number, but ``sacct -j <raw id>`` of the array's
  first record names the whole array; ``JobID`` (``12_3``) names one task, and is what the
  ``--batch-script`` headers print, so scripts are fetched by ``JobID``.
* ``Start`` is ``Unknown`` or ``None`` for a job that never started.
* ``SubmitLine`` is sbatch's words joined by single spaces (no quoting), so a value that held a
  space splits in two; it may even hold a newline (``--wrap``), which is why it comes last and
  a short line is joined with the next one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, Iterator

SEP = "\x1f"  # ASCII unit separator: no job name, path or command line has it in practice
FIELDS = ("JobIDRaw", "JobID", "User", "Account", "Partition", "State", "ExitCode", "ElapsedRaw", "AllocTRES",
          "NNodes", "Submit", "Start", "End", "WorkDir", "SubmitLine")

# States after which accounting holds the job's final cost (man sacct, JOB STATE CODES).
FINISHED = frozenset({"BOOT_FAIL", "CANCELLED", "COMPLETED", "DEADLINE", "FAILED", "NODE_FAIL",
                      "OUT_OF_MEMORY", "PREEMPTED", "TIMEOUT"})
# Commands that make an allocation without a batch script: accounting stores none for them.
_NO_SCRIPT = frozenset({"salloc", "srun"})


@dataclass(frozen=True, slots=True)
class Job:
    job_id: int  # JobIDRaw: unique per array task, what shards split on
    job_ref: str  # JobID (12_3 for an array task, 7+1 for a hetjob component): what sacct -j and its headers name
    user: str
    account: str
    partition: str
    state: str
    exit_code: str
    elapsed: int  # seconds
    cpus: int
    gpus: int
    nodes: int
    submit: datetime | None
    start: datetime | None
    end: datetime | None
    work_dir: str
    submit_line: str

    @property
    def finished(self) -> bool:
        return self.state in FINISHED

    @property
    def has_script(self) -> bool:
        """Whether a batch script can be stored for this job (not an salloc/srun allocation)."""
        first = self.submit_line.split(maxsplit=1)[:1]
        return not first or first[0].rsplit("/", 1)[-1] not in _NO_SCRIPT

    @property
    def week(self) -> str:
        """The ISO week the job ended in (``2026-W48``), where its cost is counted."""
        when = self.end or self.start or self.submit
        if when is None:
            return "unknown"
        year, week, _ = when.isocalendar()
        return f"{year}-W{week:02d}"

    @property
    def wait(self) -> int:
        """Seconds from submission to start (0 when either is unknown)."""
        if self.submit is None or self.start is None:
            return 0
        return max(0, int((self.start - self.submit).total_seconds()))


class RowError(ValueError):
    """A sacct line that is not a row of the fields asked for."""


def sacct_argv(program: str, *, since: str, until: str, all_users: bool, users=(), accounts=(),
               partitions=(), cluster: str | None = None) -> list[str]:
    """The ``sacct`` command that lists the jobs of the window, one allocation per line."""
    argv = [program, "-X", "-n", "-P", "--noconvert", f"--delimiter={SEP}", "-o", ",".join(FIELDS),
            "-S", since, "-E", until]
    if all_users:
        argv.append("-a")
    if users:
        argv += ["-u", ",".join(users)]
    if accounts:
        argv += ["-A", ",".join(accounts)]
    if partitions:
        argv += ["-r", ",".join(partitions)]
    if cluster:
        argv += ["-M", cluster]
    return argv


def parse_rows(lines: Iterable[str]) -> Iterator[Job]:
    """`Job` records from sacct's lines, in order.

    A newline inside a field cuts a row: a line without separators continues the last field of
    the row before it (a ``SubmitLine`` holding a newline); a line with too few starts a row that
    the next lines complete (a newline inside ``WorkDir``). A row is parsed once the next starts.
    """
    whole = len(FIELDS) - 1  # separators in a complete row
    row: str | None = None  # the last complete row, still open for a continued last field
    partial = ""  # a row cut before its last field
    for line in lines:
        line = line.rstrip("\n")
        if partial:
            line, partial = f"{partial}\n{line}", ""
        count = line.count(SEP)
        if count == 0 and row is not None:
            row = f"{row}\n{line}"
            continue
        if row is not None:
            yield parse_row(row)
            row = None
        if count < whole:
            partial = line
        else:
            row = line
    if partial:
        raise RowError(f"sacct's output ended inside a row: {partial[:80]!r}")
    if row is not None:
        yield parse_row(row)


def parse_row(text: str) -> Job:
    values = text.split(SEP, len(FIELDS) - 1)
    if len(values) != len(FIELDS):
        raise RowError(f"expected {len(FIELDS)} fields, got {len(values)}: {text[:80]!r}")
    row = dict(zip(FIELDS, values))
    try:
        job_id = int(row["JobIDRaw"])
        elapsed = int(row["ElapsedRaw"] or 0)
    except ValueError:
        raise RowError(f"not a job row: {text[:80]!r}") from None
    tres = parse_tres(row["AllocTRES"])
    return Job(
        job_id=job_id, job_ref=row["JobID"] or str(job_id), user=row["User"], account=row["Account"],
        partition=row["Partition"],
        state=(row["State"].split() or ["UNKNOWN"])[0], exit_code=row["ExitCode"], elapsed=elapsed,
        cpus=tres.get("cpu", 0), gpus=tres.get("gres/gpu", 0),
        nodes=_whole(row["NNodes"]) or tres.get("node", 0),
        submit=parse_time(row["Submit"]), start=parse_time(row["Start"]), end=parse_time(row["End"]),
        work_dir=row["WorkDir"], submit_line=row["SubmitLine"],
    )


def parse_tres(text: str) -> dict[str, int]:
    """``cpu=4,gres/gpu=2,mem=8000M,node=1`` -> counts (memory and other units left out)."""
    found: dict[str, int] = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        if value.isdigit():
            found[name] = int(value)
    return found


def parse_time(text: str) -> datetime | None:
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S")
    except ValueError:  # Unknown, None, empty
        return None


def _whole(text: str) -> int:
    return int(text) if text.isdigit() else 0
