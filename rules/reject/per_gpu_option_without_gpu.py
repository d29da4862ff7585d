"""SB146: `--mem-per-gpu` (or, from 23.02, `--cpus-per-gpu`) in a job that requests no GPU.

sbatch's client-side GRES validation (``src/common/gres.c:gres_job_state_validate()``)
refuses a per-GPU amount without a GPU: "Requested mem_per_tres=gres:gpu:N but
did not request any GPU" on every release (checked against sbatch 22.05.8),
and the same for ``cpus_per_tres`` from 23.02 (22.05 accepts ``--cpus-per-gpu``
alone). ``--gpus=0`` and ``--gres=none`` count as no GPU. ``--mem-per-gpu=0`` asks for nothing
and is accepted without GPUs (22.05.8 and 24.11.5; tests/test_claims_sbatch.py).
"""

from __future__ import annotations

from slurmspec.gates import CPUS_PER_GPU_NEEDS_GPU
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.sbatch_gpus import gpu_records, requests_gpu
from slurmspec.model.values.memory import MemorySize


@rule("SB146", "per-gpu-option-without-gpu", Severity.ERROR, Outcome.REFUSED)
def per_gpu_option_without_gpu(ctx: Context) -> None:
    """
        ## What it does
        Finds `--mem-per-gpu` (and, on 23.02 and newer, `--cpus-per-gpu`) in a component that
        requests no GPU (`--gpus=0` and `--gres=none` request none).

        ## Why is this bad?
        A per-GPU amount of nothing is refused: `Requested mem_per_tres=gres:gpu:... but did not
        request any GPU`. A job that meant to request GPUs would otherwise run without them.
        `--mem-per-gpu=0` asks for nothing per GPU and is accepted without GPUs.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --mem-per-gpu=16G
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --gpus-per-task=1
        #SBATCH --mem-per-gpu=16G
        srun ./app
        ```

        ## Slurm versions
        All for `--mem-per-gpu`; `--cpus-per-gpu` from 23.02 (22.05 accepts it without GPUs).

        ## References
        - `man sbatch`, `--mem-per-gpu`, `--cpus-per-gpu`
        - `src/common/gres.c:gres_job_state_validate()` ("Requested mem_per_tres=... but did not request any
          GPU"; the same for `cpus_per_tres` from 23.02)
    """
    for component in ctx.script.components:
        request = component.request
        names = ["mem-per-gpu"] + (["cpus-per-gpu"] if ctx.version >= CPUS_PER_GPU_NEEDS_GPU else [])
        present = [request.get(n) for n in names if request.get(n) is not None]
        if not present:
            continue
        if not gpu_records(request)[1] or requests_gpu(request):
            continue  # GPUs requested, or an invalid GPU value that other rules report
        if request.get("ntasks-per-gpu") is not None or request.get("ntasks-per-tres") is not None:
            continue  # GPUs generated from the task count (`-N 1 --ntasks-per-gpu=1` is enough)
        for setting in present:
            if setting.name == "mem-per-gpu" and setting.value_as(MemorySize) == MemorySize(0):
                continue  # 22.05.8 and 24.11.5 accept `--mem-per-gpu=0` without GPUs (they refuse `4G`)
            instead = "--mem-per-cpu" if setting.name == "mem-per-gpu" else "--cpus-per-task"
            ctx.report(
                "SB146", setting.directive.span,
                f"`--{setting.name}={setting.raw}` is given but the job requests no GPU; sbatch"
                " refuses it (\"did not request any GPU\"). Request GPUs (`--gpus`,"
                f" `--gpus-per-node`, `--gres=gpu:N`) or use `{instead}`",
            )
