"""The streaming audit: job rows in, a `Tally` out, the scripts fetched and judged a batch at a time.

Memory: one batch of jobs (``BATCH``) and their scripts at a time, plus what the tally and the
judge's cache keep per distinct script -- flat in the number of jobs (benchmarks/bench_audit.py).

``--shard K/N`` keeps the jobs whose id is ``K-1`` modulo ``N`` before anything is fetched, so
the N shards of a job array split the expensive part (fetching and linting) and together see every
job of the window exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Protocol

from slurmspec.audit.judge import Judge, submission_of
from slurmspec.audit.tally import Tally

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.audit.jobs import Job

BATCH = 200  # jobs per sacct --batch-script call: long enough to pay for a call, short enough for argv


class Source(Protocol):
    def jobs(self) -> Iterable["Job"]: ...
    def scripts(self, refs: Iterable[str]) -> dict[str, bytes]: ...  # by JobID (12, 12_3)
    def environments(self, refs: Iterable[str]) -> dict[str, dict[str, str]]: ...


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based, as SLURM_ARRAY_TASK_ID counts in `--array=1-N`
    count: int

    @classmethod
    def parse(cls, text: str) -> "Shard":
        """``K/N`` with 1 <= K <= N."""
        first, slash, second = text.partition("/")
        if not (slash and first.isdigit() and second.isdigit()) or not 1 <= int(first) <= int(second):
            raise ValueError(f"expected K/N with 1 <= K <= N (e.g. 1/4), not {text!r}")
        return cls(int(first), int(second))

    def owns(self, job_id: int) -> bool:
        return job_id % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def run_audit(source: Source, judge: Judge, tally: Tally, *, shard: Shard | None = None, environment: bool = True,
              progress: Callable[[int, int], None] | None = None, batch: int = BATCH) -> Tally:
    """Count every finished job of ``source`` (of ``shard``) into ``tally``; ``progress(jobs, lints)`` per batch."""
    pending: list[Job] = []
    seen = 0
    for job in source.jobs():
        if shard is not None and not shard.owns(job.job_id):
            continue
        seen += 1
        if not job.finished:
            tally.unfinished += 1
            continue
        pending.append(job)
        if len(pending) >= batch:
            _settle(pending, source, judge, tally, environment)
            pending = []
            if progress is not None:
                progress(seen, judge.lint_runs)
    _settle(pending, source, judge, tally, environment)
    if progress is not None:
        progress(seen, judge.lint_runs)
    return tally


def _settle(jobs: list["Job"], source: Source, judge: Judge, tally: Tally, environment: bool) -> None:
    refs = [job.job_ref for job in jobs if job.has_script]
    scripts = source.scripts(refs)
    environs = source.environments(refs) if environment and scripts else {}
    for job in jobs:
        script = scripts.get(job.job_ref)
        if script is None:
            tally.add(job, None, ())
            continue
        submission = submission_of(job, environs.get(job.job_ref, {}), judge.version)
        key = judge.key(script, submission)
        text = script.decode("utf-8", "replace") if tally.keep_scripts else None
        tally.add(job, key, judge.findings(key, script, submission), text)
