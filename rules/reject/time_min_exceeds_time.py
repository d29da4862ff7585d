"""SB123: a `--time-min` longer than the job's time limit, which slurmctld refuses.

slurmctld (``src/slurmctld/job_mgr.c``) answers ``ESLURM_INVALID_TIME_MIN_LIMIT``,
"Invalid time-min specification (exceeds job's time or other limits)"
(``src/common/slurm_errno.c``); sbatch itself only checks the value's syntax.
"""

from __future__ import annotations

from slurmspec.gates import DEADLINE_COUNTS_FROM_BEGIN
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.time import Duration
from slurmspec.rules.reject._settings import moment


@rule("SB123", "time-min-exceeds-time", Severity.ERROR, Outcome.REFUSED)
def time_min_exceeds_time(ctx: Context) -> None:
    """
        ## What it does
        Finds a `--time-min` longer than the job's `--time`, including `--time-min=0`
        (which means no limit) on a job that has a finite or default time limit, or longer than
        the time between the job's earliest start and its `--deadline`.

        ## Why is this bad?
        `--time-min` lets the scheduler shorten a job to fit a backfill window; it must not
        exceed the time limit. slurmctld refuses the job with `Invalid time-min specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=01:00:00
        #SBATCH --time-min=02:00:00
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=02:00:00
        #SBATCH --time-min=01:00:00
        srun ./app
        ```

        ## Slurm versions
        All. Up to 22.05 the time to the deadline counts from the submission; from 23.02 from
        the later of the submission and `--begin` (`--begin=now+2hours --deadline=now+3hours
        --time-min=2:00:00` is accepted by 22.05.8, refused by 24.11.5).

        ## References
        - `man sbatch`, `--time-min`
        - `src/slurmctld/job_mgr.c:_part_access_check()` (24.11.5: `earliest_start = MAX(begin_time,
          now)`; 23.02 NEWS: "Reject jobs submitted with impossible --time, --deadline, and --begin
          combinations at submission time")
        - `src/slurmctld/job_mgr.c` (`ESLURM_INVALID_TIME_MIN_LIMIT`: "Invalid time-min specification
          (exceeds job's time or other limits)")
    """
    # 0, -1 and UNLIMITED mean "no limit", so they exceed any finite --time, and
    # also a missing --time: checked against slurmctld 22.05.8.
    for component in ctx.script.components:
        request = component.request
        time_min = request.get("time-min")
        minimum = None if time_min is None else time_min.value_as(Duration)
        if minimum is None:
            continue
        time = request.get("time")
        # Both are inherited by later hetjob components and checked in each:
        # `--time-min=2:00:00`, `hetjob`, `-t 10` is refused (slurmctld 22.05.8).
        if time_min.inherited and (time is None or time.inherited):
            continue
        limit = None if time is None else time.value_as(Duration)
        if time is not None and limit is None:
            continue  # --time itself is invalid; SB110 says so
        span = time.directive.span if time_min.inherited else time_min.directive.span
        if minimum.unlimited:
            if limit is None or not limit.unlimited:
                where = "no `--time`" if limit is None else f"`--time={time.raw}`"
                ctx.report(
                    "SB123", span,
                    f"`--time-min={time_min.raw}` means no limit, which exceeds the job's time"
                    f" limit ({where}); the controller refuses the job",
                )
        elif limit is not None and not limit.unlimited and minimum.minutes > limit.minutes:
            ctx.report(
                "SB123", span,
                f"`--time-min={time_min.raw}` is longer than `--time={time.raw}`;"
                " the controller refuses the job",
            )
        elif minimum.minutes:
            # The job must be able to run its --time-min before the --deadline:
            # `--deadline=now+90minutes --time-min=2:00:00` is refused (slurmctld
            # 22.05.8). Judged only for `now+N` values, with a margin.
            window = _deadline_window(request, ctx.version)
            if window is not None and minimum.minutes * 60 > window + 600:
                start = " after `--begin`" if request.get("begin") is not None else ""
                ctx.report(
                    "SB123", span,
                    f"`--time-min={time_min.raw}` is longer than the time left{start} before"
                    f" `--deadline={request.get('deadline').raw}`; the controller refuses the job",
                )


def _deadline_window(request, version) -> float | None:
    """Seconds from the earliest start to a `now+N` --deadline; None when unsure.

    slurmctld 22.05 counts from the submission (`--begin=now+2hours --deadline=now+3hours
    --time-min=2:00:00` is accepted by 22.05.8, so a --begin is not judged there); from 23.02
    from the later of the submission and --begin (refused by 24.11.5).
    """
    deadline, begin = request.get("deadline"), request.get("begin")
    if deadline is None:
        return None
    end = moment(deadline)
    if end is None or end[0] != "now":
        return None
    start = 0.0
    if begin is not None:
        first = moment(begin)
        if version < DEADLINE_COUNTS_FROM_BEGIN or first is None or first[0] != "now":
            return None
        start = max(0.0, first[1])
    return max(0.0, end[1] - start)
