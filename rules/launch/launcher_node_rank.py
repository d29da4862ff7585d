"""SB306: a literal node rank on a launcher that `srun` starts on several nodes.

`srun` runs the same command line on every node; only `SLURM_NODEID`, which
each task of the step gets for itself (`man srun`, OUTPUT ENVIRONMENT
VARIABLES), tells the nodes apart.
"""

from __future__ import annotations

from slurmspec.kinds import LaunchKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.launch_steps import launcher_steps


@rule("SB306", "launcher-fixed-node-rank", Severity.WARNING, Outcome.FAILS)
def launcher_fixed_node_rank(ctx: Context) -> None:
    """
    ## What it does
    Finds a literal `--node_rank` (`torchrun` with the static rendezvous, `deepspeed`) or
    `--machine_rank` (`accelerate launch`) on a launcher that `srun` starts on several nodes.

    ## Why is this bad?
    `srun` runs the same command line on every node, so every node claims the same rank;
    the static rendezvous never completes. Let each task read its own `$SLURM_NODEID`, or
    use the c10d rendezvous, which assigns ranks itself.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=4
    #SBATCH --time=02:00:00
    head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
    srun torchrun --nnodes=2 --nproc_per_node=4 --node_rank=0 \\
        --master_addr="$head" --master_port=29500 train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=4
    #SBATCH --time=02:00:00
    head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
    srun bash -c "torchrun --nnodes=2 --nproc_per_node=4 --node_rank=\\$SLURM_NODEID \\
        --master_addr=$head --master_port=29500 train.py"
    ```

    ## Slurm versions
    All.

    ## References
    - `man srun`, OUTPUT ENVIRONMENT VARIABLES (`SLURM_NODEID`: the relative node ID of the
      current node, set per task of a step)
    """
    for step in launcher_steps(ctx):
        if step.first_node_only is None:
            _node_rank(ctx, step.launch, step.srun, step.geom)


def _node_rank(ctx: Context, launch, srun, geom) -> None:
    if srun is None or geom.nodes is None or geom.nodes < 2:
        return
    if launch.kind == LaunchKind.ACCELERATE:
        opt, value = launch.option("machine-rank"), launch.machine_rank
    else:
        opt, value = launch.option("node-rank"), launch.node_rank
        backend = (launch.rdzv_backend or "static").lower()
        if launch.kind == LaunchKind.TORCHRUN and backend != "static":
            return  # c10d/etcd rendezvous assign ranks and ignore --node_rank
    if opt is None or value is None:
        return
    ctx.report(
        "SB306", opt.span,
        f"`{opt.raw}={opt.value}` is the same on all {geom.nodes} nodes `srun` starts, so every node"
        f" claims rank {value} and the rendezvous never completes; use `$SLURM_NODEID` (escaped or"
        f" inside `bash -c '...'` so each task expands its own) or a c10d rendezvous",
    )
