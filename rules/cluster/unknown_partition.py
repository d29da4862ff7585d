"""SB401: a `--partition` the cluster does not have.

slurmctld looks every listed name up (``src/slurmctld/job_mgr.c:_get_part_list()``,
``_valid_job_part()``) and refuses the job when one is unknown, even next to
a good one: ``sbatch: error: invalid partition specified: nosuch`` and
"Invalid partition name specified" (measured on Slurm 22.05.8 and 24.11.5,
for ``-p nosuch``, ``-p nosuch,cpu`` and ``-p cpu,nosuch``).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB401", "unknown-partition", Severity.ERROR, Outcome.REFUSED)
def unknown_partition(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a `--partition` name the cluster does not have, also inside a
    comma list, and suggests the closest one.

    ## Why is this bad?
    The controller refuses the whole job when any listed partition is unknown: `sbatch: error:
    invalid partition specified`, "Invalid partition name specified". A script written for
    another cluster often names that cluster's partitions.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu_v100
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--partition`
    - `src/slurmctld/job_mgr.c:_valid_job_part()` ("Invalid partition name specified")
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.where import placements
    from slurmspec.hints import did_you_mean_any_spelling as did_you_mean
    known = [p.name for p in ctx.cluster.partitions]
    for placement in placements(ctx):
        for name in placement.unknown:
            ctx.report(
                "SB401", placement.setting.directive.span,
                f"the cluster has no partition `{name}`{did_you_mean(name, known)}; the controller refuses the"
                f" job (\"Invalid partition name specified\"); its partitions are {', '.join(known)}",
            )
