"""SB404: a `--time` longer than a partition's MaxTime.

``src/slurmctld/job_mgr.c:_part_access_check()``/``job_limits_check()``
compare the job's time limit with each partition's ``MaxTime``; a longer one is
a partition limit, so ``EnforcePartLimits`` decides (``cluster.fit.where.limit_outcome``):
``ALL`` refuses the job when any listed partition is too short ("Requested time
limit is invalid (missing or exceeds some limit)"), ``ANY`` when all are, and
``NO`` accepts it and leaves it pending (reason ``PartitionTimeLimit``) when
all are. ``--time=0`` and ``UNLIMITED`` exceed every finite MaxTime. Without
``--time`` the job takes the first listed partition's ``DefaultTime`` (none:
no limit is checked), and with ``EnforcePartLimits=ALL`` that default is
checked against the other listed partitions too: ``-p cpu,debug`` with cpu's
DefaultTime=1:00:00 and debug's MaxTime=0:30:00 is refused ("Requested
partition configuration not available now"). Measured on Slurm 22.05.8 and
24.11.5 with held-off submissions (``--test-only`` misses that last case).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


def shown_minutes(minutes: float) -> str:
    from slurmspec.cluster.units import format_minutes
    return "no time limit" if minutes == float("inf") else format_minutes(int(minutes))


@rule("SB404", "time-over-partition-limit", Severity.ERROR, Outcome.REFUSED)
def time_over_partition_limit(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a `--time` longer than the `MaxTime` of the job's partitions
    (and, with several partitions, the first one's `DefaultTime` when `--time` is missing).

    ## Why is this bad?
    With `EnforcePartLimits=ALL` (or `ANY`, when every listed partition is too short) the
    controller refuses the job: "Requested time limit is invalid (missing or exceeds some
    limit)". With `EnforcePartLimits=NO` it accepts the job, which then pends forever with the
    reason `PartitionTimeLimit`.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --time=3-00:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --time=2-00:00:00
    srun ./app
    ```

    ## Slurm versions
    All; the outcome follows the profile's `EnforcePartLimits`. Needs a cluster profile
    (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--time`; `man slurm.conf`, `MaxTime`, `DefaultTime`, `EnforcePartLimits`
    - `src/slurmctld/job_mgr.c:_part_access_check()`, `job_limits_check()` (`WAIT_PART_TIME_LIMIT`)
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.units import format_minutes
    from slurmspec.cluster.fit.limits import asked_minutes, time_broken
    from slurmspec.cluster.fit.where import anchor, enforcement, limit_outcome, runnable, where
    for placement in runnable(ctx):
        setting = placement.request.get("time")
        if setting is not None:
            minutes = asked_minutes(setting)
            subject = f"{where(setting)} asks {shown_minutes(minutes)}" if minutes is not None else ""
        elif placement.first is not None and placement.first.default_time is not None and len(placement.usable) > 1:
            minutes = placement.first.default_time
            subject = (f"without `--time` the job gets partition {placement.first.name}'s DefaultTime"
                       f" {format_minutes(minutes)}")
        else:
            continue
        if minutes is None:
            continue

        def too_short(p, minutes=minutes) -> bool:
            return time_broken(p, minutes)

        outcome = limit_outcome(ctx, placement.usable, too_short)
        if outcome is None:
            continue
        limits = ", ".join(f"partition {p.name} allows at most {format_minutes(p.max_time)}"
                           for p in placement.usable if too_short(p))
        span = anchor(placement, "time")
        if span is not None:
            ctx.report("SB404", span, f"{limits}; {subject}; {enforcement(ctx, outcome)}", outcome=outcome)
