"""SB140: `--cpus-per-gpu` with `--cpus-per-task`, which sbatch refuses.

22.05 and 23.02 refuse the pair in the client-side GRES validation
(``src/common/gres.c:gres_job_state_validate()``: "--cpus-per-gpu is mutually
exclusive with --cpus-per-task", with or without a GPU, checked against sbatch
22.05.8); from 23.11 ``src/common/slurm_opt.c:_validate_cpus_per_tres()``
refuses it as an option conflict ("--cpus-per-task, --tres-per-task=cpu:#, and
--cpus-per-gpu are mutually exclusive"). `--cpus-per-gpu` without a GPU is
SB146.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.reject._settings import first_occurrence


@rule("SB140", "cpus-per-gpu-with-cpus-per-task", Severity.ERROR, Outcome.REFUSED)
def cpus_per_gpu_with_cpus_per_task(ctx: Context) -> None:
    """
        ## What it does
        Finds `--cpus-per-gpu` and `--cpus-per-task` (`-c`) in the same component.

        ## Why is this bad?
        Both decide how many CPUs each task gets; sbatch refuses the pair (22.05: `--cpus-per-gpu is
        mutually exclusive with --cpus-per-task`; 23.11+: `--cpus-per-task, --tres-per-task=cpu:#,
        and --cpus-per-gpu are mutually exclusive`).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus-per-node=4
        #SBATCH --cpus-per-task=8
        #SBATCH --cpus-per-gpu=8
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus-per-node=4
        #SBATCH --cpus-per-gpu=8
        srun ./app
        ```

        ## Slurm versions
        All (22.05–23.02 in the GPU validation, 23.11+ as an option conflict).

        ## References
        - `man sbatch`, `--cpus-per-gpu` ("Not compatible with the --cpus-per-task option")
        - `src/common/gres.c:gres_job_state_validate()` (22.05–23.02: "--cpus-per-gpu is mutually exclusive
          with --cpus-per-task")
        - `src/common/slurm_opt.c:_validate_cpus_per_tres()` (23.11 and newer)
    """
    for component in ctx.script.components:
        request = component.request
        cpg, cpt = request.get("cpus-per-gpu"), request.get("cpus-per-task")
        if cpg is None or cpt is None:
            continue
        later = max(first_occurrence(cpg), first_occurrence(cpt), key=lambda d: d.span.start)
        other = first_occurrence(cpt) if later is first_occurrence(cpg) else first_occurrence(cpg)
        ctx.report(
            "SB140", later.span,
            f"`--cpus-per-gpu` and `--cpus-per-task` (line {other.line}) both set the CPUs of a"
            " task; sbatch refuses the job (\"--cpus-per-gpu is mutually exclusive with"
            " --cpus-per-task\"). Keep one of them",
        )
