"""SB405: a `--time-min` longer than the partitions allow, or than the default time limit.

slurmctld refuses a job whose ``--time-min`` exceeds its time limit
("Invalid time-min specification (exceeds job's time or other limits)",
``ESLURM_INVALID_TIME_MIN_LIMIT``, ``src/slurmctld/job_mgr.c``) whatever
``EnforcePartLimits`` says. Without ``--time`` the limit is the first listed
partition's ``DefaultTime`` (``-p debug --time-min=10`` with DefaultTime=5 is
refused; ``-p debug,a100`` and ``-p a100,debug`` differ); otherwise the job is
refused when the time-min exceeds the MaxTime of every listed partition
(``-p a100 --time-min=13:00:00`` with MaxTime=12:00:00 is refused,
``-p a100,cpu`` is not). Measured on Slurm 22.05.8 and 24.11.5.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.time import Duration


@rule("SB405", "time-min-over-partition-limit", Severity.ERROR, Outcome.REFUSED)
def time_min_over_partition_limit(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a `--time-min` longer than the time the job can get: without
    `--time`, the first partition's `DefaultTime`; otherwise the `MaxTime` of every partition the
    job names.

    ## Why is this bad?
    The controller refuses the job: "Invalid time-min specification (exceeds job's time or other
    limits)". A `--time-min` without `--time` is checked against the partition's default time
    limit, which is often short.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=cpu
    #SBATCH --time-min=02:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=cpu
    #SBATCH --time=04:00:00
    #SBATCH --time-min=02:00:00
    srun ./app
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--time-min`; `man slurm.conf`, `DefaultTime`, `MaxTime`
    - `src/slurmctld/job_mgr.c` (`ESLURM_INVALID_TIME_MIN_LIMIT`)
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.units import format_minutes
    from slurmspec.cluster.fit.where import runnable, where
    for placement in runnable(ctx):
        setting = placement.request.get("time-min")
        time_min = None if setting is None else setting.value_as(Duration)
        if time_min is None or time_min.minutes is None or time_min.unlimited:
            continue
        minutes = time_min.minutes
        first = placement.first
        if placement.request.get("time") is None and first is not None and first.default_time is not None:
            if minutes <= first.default_time:
                continue
            ctx.report(
                "SB405", setting.directive.span,
                f"{where(setting)} is longer than {format_minutes(first.default_time)}, the time limit the job gets"
                f" without `--time` (partition {first.name}'s DefaultTime); the controller refuses the job. Add a"
                " `--time` at least as long",
            )
        elif all(p.max_time is not None and minutes > p.max_time for p in placement.usable):
            if placement.down and len(placement.usable) > 1:
                continue  # limits are not enforced at submission with a DOWN partition in the list
            limits = ", ".join(f"{p.name} {format_minutes(p.max_time)}" for p in placement.usable)
            ctx.report(
                "SB405", setting.directive.span,
                f"{where(setting)} is longer than the MaxTime of every partition of the job ({limits});"
                " the controller refuses the job",
            )
