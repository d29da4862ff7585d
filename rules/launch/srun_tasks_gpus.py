"""SB311: `srun python` with several tasks per node, against the GPUs per node.

Under `srun`, DDP, Horovod, DeepSpeed and Lightning run one task per GPU: the
tasks per node (`man srun`, `--ntasks-per-node`) should equal the GPUs per node
(`--gpus-per-node`, `--gres=gpu:N`).
"""

from __future__ import annotations

from slurmspec.kinds import Fixability, Outcome, Severity
from slurmspec.lint.context import Context
from slurmspec.lint.rule import rule
from slurmspec.rules.launch._common import gpu_note, idle, option_span, program, python_steps, repeated, task_note
from slurmspec.rules.launch._fixes import set_tasks_per_node


@rule("SB311", "srun-tasks-gpus-mismatch", Severity.WARNING, Outcome.WRONG, fix=Fixability.SOMETIMES)
def srun_tasks_gpus_mismatch(ctx: Context) -> None:
    """
    ## What it does
    For `srun python ...` with several tasks per node on a GPU job (the DDP, Horovod,
    DeepSpeed and Lightning style, where Slurm starts one process per GPU), compares the
    tasks per node with the GPUs per node (or, for an uneven `-n`/`-N` split, the totals).

    ## Why is this bad?
    Fewer tasks than GPUs leaves GPUs idle; more tasks than GPUs puts several ranks on one
    GPU, which NCCL refuses (`Duplicate GPU detected`) and which runs out of GPU memory.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=4
    #SBATCH --gpus-per-node=8
    #SBATCH --time=04:00:00
    srun python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=8
    #SBATCH --gpus-per-node=8
    #SBATCH --time=04:00:00
    srun python train.py
    ```

    ## Slurm versions
    All.

    ## References
    - `man srun`, `--ntasks-per-node`; `man sbatch`, `--gpus-per-node`, `--gres`
    - horovod/horovod#1038
    """
    for launch, srun, geom in python_steps(ctx):
        gpn, tpn = geom.gpus_per_node, geom.tasks_per_node
        if gpn is None or gpn == 0 or repeated(launch) or (srun is not None and repeated(srun)):
            continue
        if tpn == 1 or srun is None:
            continue  # one process per node: SB310's case
        if tpn is not None and tpn != gpn:
            _mismatch(ctx, srun, launch, geom, tpn, gpn, "per node")
        elif tpn is None and geom.tasks and geom.gpus_total and geom.tasks > 1 and geom.tasks != geom.gpus_total:
            _mismatch(ctx, srun, launch, geom, geom.tasks, geom.gpus_total, "in total")


def _mismatch(ctx: Context, srun, launch, geom, tasks: int, gpus: int, per: str) -> None:
    outcome = None
    if tasks < gpus:
        effect = f"{idle(gpus - tasks)} {per}"
    else:
        effect = (f"several processes share each GPU (NCCL refuses two ranks on one GPU with"
                  f" `Duplicate GPU detected`)")
        outcome = Outcome.FAILS
    ctx.report(
        "SB311", option_span(srun, "ntasks-per-node", "tasks-per-node", "ntasks"),
        f"`srun {program(launch)}` starts {tasks} tasks {per} for {gpus} GPUs {per}: {effect}."
        f" DDP, Horovod, DeepSpeed and Lightning under `srun` expect one task per GPU"
        f" (`--ntasks-per-node` = GPUs per node)",
        outcome=outcome, notes=task_note(geom) + gpu_note(geom),
        fix=set_tasks_per_node(ctx.script, srun, gpus, "one task per GPU") if per == "per node" else None,
    )
