"""SB245: `CUDA_VISIBLE_DEVICES` set by hand in the script body.

Slurm's GPU plugin sets `CUDA_VISIBLE_DEVICES` to the GPUs it allocated to the
job (`src/plugins/gres/common/gres_common.c`); a fixed value in the body
replaces that choice.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.lint.context import Context
from slurmspec.lint.rule import rule
from slurmspec.rules.traps._request_facts import gpu_request, gpus_per_node, has_body

_DERIVED = ("CUDA_VISIBLE_DEVICES", "SLURM_JOB_GPUS", "SLURM_STEP_GPUS")


@rule("SB245", "cuda-visible-devices-override", Severity.WARNING, Outcome.WRONG)
def cuda_visible_devices_override(ctx: Context) -> None:
    """
        ## What it does
        Finds `CUDA_VISIBLE_DEVICES` set in the script body (`export`, plain assignment or a
        prefix of one command). It is `info` when the job requests no GPU, or when the value is
        exactly `0,1,...,N-1` for the N GPUs per node the job requests (what Slurm sets anyway on
        clusters with device cgroups). Values built from
        `$CUDA_VISIBLE_DEVICES`, `$SLURM_JOB_GPUS` or `$SLURM_STEP_GPUS` are not reported.

        ## Why is this bad?
        Slurm sets `CUDA_VISIBLE_DEVICES` to the GPUs it allocated to the job. Overriding it with
        fixed numbers either points at GPUs that belong to other jobs (clusters without device
        cgroups) or at devices that do not exist inside the job's cgroup (with them): the program
        runs on the wrong GPU, shares one with someone else, or finds none.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:2
        export CUDA_VISIBLE_DEVICES=2,3
        python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:2
        python train.py
        ```

        ## Slurm versions
        All.

        ## References
        - Slurm GRES documentation, "GPU Management"
        - `src/plugins/gres/common/gres_common.c`
    """
    if not has_body(ctx):
        return
    gpus = gpu_request(ctx)
    for assignment in ctx.script.body.exports:
        if assignment.name != "CUDA_VISIBLE_DEVICES" or assignment.value is None:
            continue
        value = assignment.value
        if any(name in value for name in _DERIVED):
            continue  # derived from Slurm's own binding
        per_node = gpus_per_node(ctx)
        shown = assignment.raw or value
        if gpus is not None and per_node and value.replace(" ", "") == ",".join(map(str, range(per_node))):
            ctx.report(
                "SB245", assignment.span,
                f"`CUDA_VISIBLE_DEVICES={shown}` repeats what Slurm sets where it"
                f" confines jobs to their GPUs (device cgroups), but on a cluster without them it"
                f" picks the node's first {per_node} GPU(s) whether or not they are this job's."
                " Let Slurm set it",
                severity=Severity.INFO, outcome=Outcome.ADVICE,
            )
        elif gpus is not None:
            ctx.report(
                "SB245", assignment.span,
                f"setting `CUDA_VISIBLE_DEVICES={shown}` overrides the GPUs Slurm"
                f" bound to this job (`{gpus}`): without device cgroups the program may use GPUs"
                " another job owns, with them it may see no GPU at all. Let Slurm set it",
            )
        else:
            ctx.report(
                "SB245", assignment.span,
                f"`CUDA_VISIBLE_DEVICES={shown}` selects GPUs, but the job requests"
                " none: the program either sees no GPU or uses GPUs allocated to other jobs."
                " Request GPUs (`--gpus-per-node`, `--gres=gpu:N`) and let Slurm set the variable",
                severity=Severity.INFO, outcome=Outcome.ADVICE,
            )
