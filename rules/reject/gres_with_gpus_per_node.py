"""SB150: `--gres=gpu` with `--gpus-per-node`, which sbatch refuses from 26.05.

``src/common/slurm_opt.c:_validate_gres_vs_gpus_per_node()`` (26.05): "--gpus-per-node
and --gres=gpu are mutually exclusive." Older releases silently let the
``--gres`` count win (SB214 warns there).
"""

from __future__ import annotations

from slurmspec.fix import build
from slurmspec.gates import GRES_WITH_GPUS_PER_NODE_REFUSED
from slurmspec.kinds import Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.sbatch_gpus import gpu_items
from slurmspec.rules.reject._settings import first_occurrence


@rule("SB150", "gres-gpu-with-gpus-per-node", Severity.ERROR, Outcome.REFUSED, fix=Fixability.SOMETIMES)
def gres_gpu_with_gpus_per_node(ctx: Context) -> None:
    """
        ## What it does
        Finds `--gres=gpu...` and `--gpus-per-node` in the same component, on Slurm 26.05.

        ## Why is this bad?
        Both request GPUs per node. Older releases silently used the `--gres` count; 26.05 stops
        with `--gpus-per-node and --gres=gpu are mutually exclusive.`

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:4
        #SBATCH --gpus-per-node=4
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus-per-node=4
        srun ./app
        ```

        ## Slurm versions
        26.05 and newer (older releases: see SB214).

        ## References
        - `man sbatch`, `--gpus-per-node`, `--gres`
        - `src/common/slurm_opt.c:_validate_gres_vs_gpus_per_node()` (26.05)
    """
    if ctx.version < GRES_WITH_GPUS_PER_NODE_REFUSED:
        return
    for component in ctx.script.components:
        request = component.request
        gres, gpn = request.get("gres"), request.get("gpus-per-node")
        if gres is None or gpn is None or not gpu_items(gres):
            continue
        later = max(first_occurrence(gres), first_occurrence(gpn), key=lambda d: d.span.start)
        ctx.report(
            "SB150", later.span,
            "`--gres=gpu` and `--gpus-per-node` both ask for GPUs per node; Slurm 26.05 stops"
            " with \"--gpus-per-node and --gres=gpu are mutually exclusive.\" Keep one of them",
            fix=build.drop_gres_same_as_gpus_per_node(ctx.script, gres, gpn),
        )
