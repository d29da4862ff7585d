"""SB304: the workers a launcher starts against the GPUs the job or `srun` step has.

GPUs per node come from `--gpus-per-node`, `--gres=gpu:N`, `--gpus` on one node,
or `--gpus-per-task` times the tasks per node (`man sbatch`, each option).
"""

from __future__ import annotations

from slurmspec.kinds import LaunchKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.launch_steps import assigns, launcher_steps, sets_devices
from slurmspec.rules.launch._common import gpu_note, idle


@rule("SB304", "launcher-gpus-mismatch", Severity.WARNING, Outcome.WRONG)
def launcher_gpus_mismatch(ctx: Context) -> None:
    """
    ## What it does
    Compares the workers a launcher starts with the GPUs the job has:
    `torchrun --nproc_per_node` (default 1) and `deepspeed --num_gpus` against GPUs per node,
    `accelerate launch --num_processes` against GPUs in total. GPUs per node come from
    `--gpus-per-node`, `--gres=gpu:N`, `--gpus` on one node or `--gpus-per-task` × tasks
    per node, on the `#SBATCH` lines or the `srun` line.

    ## Why is this bad?
    Fewer workers than GPUs leaves GPUs idle but billed; more workers than GPUs makes the
    extra ranks fail with `invalid device ordinal` or share a GPU.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --gres=gpu:8
    #SBATCH --time=02:00:00
    torchrun --standalone --nproc_per_node=4 train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --gres=gpu:8
    #SBATCH --time=02:00:00
    torchrun --standalone --nproc_per_node=8 train.py
    ```

    ## Slurm versions
    All.

    ## References
    - `torchrun --help` (`--nproc_per_node`, default 1)
    - `man sbatch`, `--gpus-per-node`, `--gres`, `--gpus`, `--gpus-per-task`
    """
    if sets_devices(ctx) or assigns(ctx, "PET_NPROC_PER_NODE"):
        return
    for step in launcher_steps(ctx):
        if step.first_node_only is None:
            _gpus(ctx, step.launch, step.geom, step.name)


def _gpus(ctx: Context, launch, geom, name: str) -> None:
    gpn = geom.gpus_per_node
    if not gpn:
        return
    if launch.kind == LaunchKind.TORCHRUN:
        opt = launch.option("nproc-per-node")
        if opt is None:
            if gpn < 2:
                return
            ctx.report(
                "SB304", launch.command_span,
                f"`{name}` without `--nproc_per_node` starts 1 worker per node, but the job has"
                f" {gpn} GPUs per node: {idle(gpn - 1, 'of them')}. Pass `--nproc_per_node={gpn}`",
                notes=gpu_note(geom),
            )
            return
        count, per = launch.nproc_per_node, "per node"
        have = gpn
    elif launch.kind == LaunchKind.DEEPSPEED:
        opt = launch.option("num-gpus")
        count, per, have = launch.num_gpus, "per node", gpn
    else:
        opt = launch.option("num-processes")
        count, per = launch.num_processes, "in total"
        have = geom.gpus_total
    if opt is None or count is None or have is None or count == have:
        return
    outcome = None
    if count < have:
        effect = f"{have - count} of the {have} GPUs{' per node' if per == 'per node' else ''} stay idle"
    else:
        effect = f"{count - have} workers {per} have no GPU of their own (CUDA `invalid device ordinal`)"
        outcome = Outcome.FAILS  # the extra workers crash, and the launcher stops the others
    ctx.report(
        "SB304", opt.span,
        f"`{opt.raw}={opt.value}` starts {count} workers {per}, but the job has {have} GPUs {per}:"
        f" {effect}. Make them equal",
        outcome=outcome, notes=gpu_note(geom),
    )
