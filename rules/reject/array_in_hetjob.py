"""SB124: `--array` in a heterogeneous job, which slurmctld refuses.

`man sbatch` (HETEROGENEOUS JOB SUPPORT): "Job arrays of heterogeneous jobs
are not supported"; slurmctld answers "Invalid job array specification".
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB124", "array-in-hetjob", Severity.ERROR, Outcome.REFUSED)
def array_in_hetjob(ctx: Context) -> None:
    """
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
    """
    # Checked against slurmctld 22.05.8.
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
