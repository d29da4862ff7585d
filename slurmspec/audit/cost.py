"""What a job cost, and what of it a finding lost, in whole seconds (sums stay exact and merge exactly).

Cost (exact, from accounting): core-seconds = ``ElapsedRaw`` x allocated CPUs, GPU-seconds =
``ElapsedRaw`` x allocated GPUs (``AllocTRES`` ``cpu=`` and ``gres/gpu=``).

Lost, only where the outcome says so:

* a finding whose outcome is `Outcome.FAILS` on a job that FAILED at start (within
  ``AT_START_SECONDS`` of starting): the
  job's whole cost and its wait in the queue (``Start - Submit``) were for nothing. The figures
  are **exact**; that this finding was the cause is inferred (both say "fails at start").
* a finding that says *N GPUs per node stay idle* (the launch rules' wording) on a job that ran:
  up to ``N`` GPUs per node for the whole run, never more than the GPUs allocated beyond one per
  node. An **upper bound**: the program may drive more GPUs than the script shows.
* a finding whose outcome is `Outcome.PENDS` on a job that never started: the time it pended
  (``End - Submit``), **exact**; it used no resource.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from slurmspec.kinds import Outcome

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.audit.jobs import Job
    from slurmspec.audit.judge import Finding


class Bound(str, Enum):
    EXACT = "exact"
    UPPER = "upper-bound"


@dataclass(frozen=True, slots=True)
class Loss:
    core_seconds: int
    gpu_seconds: int
    wait_seconds: int
    bound: Bound


def core_seconds(job: "Job") -> int:
    return job.elapsed * job.cpus


def gpu_seconds(job: "Job") -> int:
    return job.elapsed * job.gpus


# A job whose batch step could not start (22.05, a missing --output folder: FAILED, ExitCode 0:53) ends
# in the second it started -- or the next one: on a loaded lab ElapsedRaw was 1 in three runs of five.
# A few seconds of margin, and still far shorter than any job that did work.
AT_START_SECONDS = 5


def failed_at_start(job: "Job") -> bool:
    return job.state == "FAILED" and job.elapsed <= AT_START_SECONDS


def loss(job: "Job", finding: "Finding") -> Loss | None:
    """What ``finding`` lost of ``job``, or None when the outcome shows no loss attributable to it."""
    if finding.outcome is Outcome.FAILS and failed_at_start(job):
        return Loss(core_seconds(job), gpu_seconds(job), job.wait, Bound.EXACT)
    if finding.idle_gpus_per_node and job.gpus and job.elapsed:
        nodes = max(job.nodes, 1)
        idle = min(finding.idle_gpus_per_node * nodes, max(job.gpus - nodes, 0))
        if idle:
            return Loss(0, job.elapsed * idle, 0, Bound.UPPER)
    if finding.outcome is Outcome.PENDS and job.start is None and job.submit is not None and job.end is not None:
        return Loss(0, 0, max(0, int((job.end - job.submit).total_seconds())), Bound.EXACT)
    return None


def job_loss(losses: list[Loss]) -> Loss | None:
    """A job's loss when several findings claim one: the largest of each figure, never their sum."""
    if not losses:
        return None
    bound = Bound.UPPER if any(item.bound is Bound.UPPER for item in losses) else Bound.EXACT
    return Loss(max(item.core_seconds for item in losses), max(item.gpu_seconds for item in losses),
                max(item.wait_seconds for item in losses), bound)
