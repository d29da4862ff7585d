"""SB412: a `--array` index or step at or above the cluster's MaxArraySize.

slurmctld keeps array indexes in a bitmap of ``MaxArraySize`` bits
(``src/slurmctld/job_mgr.c:_valid_array_inx()``) and refuses an index or a
step that does not fit: "Invalid job array specification". Measured on Slurm
22.05.8 and 24.11.5 with MaxArraySize=51: ``0-50`` and ``1-50:50`` are
accepted, ``51``, ``0-100``, ``1-50:51`` and ``1-3:60`` refused (with the
default 1001, ``0-1000`` is the largest).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.array import ArraySpec


@rule("SB412", "array-over-max-array-size", Severity.ERROR, Outcome.REFUSED)
def array_over_max_array_size(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a `--array` whose largest index, or a step, is at least the
    cluster's `MaxArraySize`.

    ## Why is this bad?
    The controller refuses the job: "Invalid job array specification". Array indexes go from 0 to
    `MaxArraySize` − 1, whatever the number of tasks; an array of 2000 small tasks needs other
    indexes (or one task doing several pieces of work), not a bigger index.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --array=1-1000
    #SBATCH --time=00:10:00
    srun ./app "$SLURM_ARRAY_TASK_ID"
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --array=0-999
    #SBATCH --time=00:10:00
    srun ./app "$SLURM_ARRAY_TASK_ID"
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--array`; `man slurm.conf`, `MaxArraySize`
    - `src/slurmctld/job_mgr.c:_valid_array_inx()`
    """
    if ctx.cluster is None:
        return
    limit = ctx.cluster.config.max_array_size
    seen = set()
    for component in ctx.script.components:
        setting = component.request.get("array")
        array = None if setting is None else setting.value_as(ArraySpec)
        if array is None or not array.ranges or id(setting.directive) in seen:
            continue
        ranges = array.ranges
        seen.add(id(setting.directive))
        top = max(r.last for r in ranges)
        step = max(r.step for r in ranges)
        if top >= limit:
            what = f"its largest index, {top},"
        elif step >= limit:
            what = f"its step, {step},"
        else:
            continue
        ctx.report(
            "SB412", setting.directive.span,
            f"`--array={setting.raw}`: {what} is not below the cluster's MaxArraySize={limit} (indexes go up to"
            f" {limit - 1}); the controller refuses the job (\"Invalid job array specification\")",
        )
