"""SB123–SB124: option combinations that the controller refuses at submission.

More cross-option checks (memory triplet, GPU consistency, ...) join this
module with the rules issue; these two are here because the differential
tests against real sbatch found them as rejections.
"""

from __future__ import annotations

from slurmspec.lint.rule import Context, Rule


def _is_unlimited(value) -> bool:
    return bool(getattr(value, "unlimited", False))


def check_time_min(ctx: Context) -> None:
    # slurmctld (job_mgr.c) refuses a --time-min above the job's time limit with
    # "Invalid time-min specification (exceeds job's time or other limits)".
    # 0, -1 and UNLIMITED mean "no limit", so they exceed any finite --time, and
    # also a missing --time: checked against slurmctld 22.05.8.
    for component in ctx.script.components:
        request = component.request
        time_min = request.get("time-min")
        if time_min is None or time_min.inherited or not hasattr(time_min.value, "unlimited"):
            continue
        time = request.get("time")
        limit = None if time is None else time.value
        if time is not None and not hasattr(limit, "unlimited"):
            continue  # --time itself is invalid; SB110 says so
        span = time_min.directive.span
        if _is_unlimited(time_min.value):
            if limit is None or not _is_unlimited(limit):
                where = "no `--time`" if limit is None else f"`--time={time.raw}`"
                ctx.report(
                    "SB123", span,
                    f"`--time-min={time_min.raw}` means no limit, which exceeds the job's time"
                    f" limit ({where}); the controller refuses the job",
                )
        elif limit is not None and not _is_unlimited(limit):
            if time_min.value.minutes > limit.minutes:
                ctx.report(
                    "SB123", span,
                    f"`--time-min={time_min.raw}` is longer than `--time={time.raw}`;"
                    " the controller refuses the job",
                )


def check_array_in_hetjob(ctx: Context) -> None:
    # A heterogeneous job cannot be a job array: slurmctld answers
    # "Invalid job array specification" (checked against slurmctld 22.05.8).
    if len(ctx.script.components) < 2:
        return
    for component in ctx.script.components:
        setting = component.request.get("array")
        if setting is not None and not setting.inherited:
            ctx.report(
                "SB124", setting.directive.span,
                "a heterogeneous job (with `#SBATCH hetjob` components) cannot be a job array;"
                " the controller refuses it. Submit the components as separate array jobs",
            )


RULES = (
    Rule("SB123", "time-min-exceeds-time", "error", check_time_min, """
        ## What it does
        Finds a `--time-min` longer than the job's `--time`, including `--time-min=0`
        (which means no limit) on a job that has a finite or default time limit.

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
        All.

        ## References
        - `man sbatch`, `--time-min`
    """),
    Rule("SB124", "array-in-hetjob", "error", check_array_in_hetjob, """
        ## What it does
        Finds `--array` in a script that also has `#SBATCH hetjob` components.

        ## Why is this bad?
        Slurm does not support heterogeneous job arrays; the controller answers
        `Invalid job array specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-4
        #SBATCH hetjob
        #SBATCH --ntasks=1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-4
        #SBATCH --ntasks=2
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, HETEROGENEOUS JOB SUPPORT ("Job arrays of heterogeneous jobs are not supported")
    """),
)
