"""SB341: a job without `--time`.

`man sbatch`, `--time`: "The default time limit is the partition's default time
limit"; the backfill scheduler can only start a job early in a gap it knows
the job fits (`man slurm.conf`, `SchedulerType=sched/backfill`).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB341", "missing-time-limit", Severity.INFO, Outcome.ADVICE)
def missing_time_limit(ctx: Context) -> None:
    """
    ## What it does
    Finds a script with `#SBATCH` directives but no `--time`.

    ## Why is this bad?
    The job gets the partition's `DefaultTime` (often equal to `MaxTime`). The scheduler
    cannot backfill it into gaps, so it starts later, and a default shorter than the run
    kills it. An explicit, realistic limit starts sooner.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --ntasks=4
    #SBATCH --mem=16G
    srun ./solver
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --ntasks=4
    #SBATCH --mem=16G
    #SBATCH --time=02:00:00
    srun ./solver
    ```

    ## Slurm versions
    All.

    ## References
    - `man sbatch`, `--time`; Slurm's backfill scheduling documentation
    """
    script = ctx.script
    if not script.directives or not script.lines:
        return
    if any(d.option.long == "time" and not d.ignored for d in script.directives):
        return
    first = next((d for d in script.directives if not d.ignored), None)
    if first is None:
        return
    line = script.lines[0]
    ctx.report(
        "SB341", script.span(line.span.start, line.span.start + len(line.text)),
        f"no `--time`: the job gets {_default_limit(ctx)}, which"
        " delays its start in backfill and may be shorter than the run; add `#SBATCH --time=HH:MM:SS`",
    )


def _default_limit(ctx: Context) -> str:
    """The limit the job gets, in words: the partition's DefaultTime when the cluster profile knows it
    (the first partition of `--partition`, else the default partition), else the general case."""
    partition = None
    if ctx.cluster is not None:
        named = [d.value for d in ctx.script.directives if d.option.long == "partition" and not d.ignored and d.value]
        partition = ctx.cluster.partition(named[-1].split(",")[0]) if named else ctx.cluster.default_partition()
    if partition is None or partition.default_time is None:
        return "the partition's default time limit (often the maximum)"
    from slurmspec.cluster.units import format_minutes

    return f"partition `{partition.name}`'s default time limit, DefaultTime={format_minutes(partition.default_time)}"
