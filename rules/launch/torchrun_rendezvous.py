"""SB305: a multi-node `torchrun` without a rendezvous endpoint.

`srun` runs the same command line on every node (`man srun`), so without an
endpoint every node's torchrun looks for the rendezvous on its own
`127.0.0.1` (`torchrun --help`: `--master_addr` defaults to it).
"""

from __future__ import annotations

from slurmspec.kinds import LaunchKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.launch_steps import assigns, launcher_steps


@rule("SB305", "torchrun-no-rendezvous-endpoint", Severity.WARNING, Outcome.FAILS)
def torchrun_no_rendezvous_endpoint(ctx: Context) -> None:
    """
    ## What it does
    Finds a multi-node `torchrun` (`--nnodes` above 1) without `--rdzv_endpoint` or
    `--master_addr` (or their `PET_*` variables).

    ## Why is this bad?
    Without an endpoint torchrun uses `127.0.0.1`: every node looks for the rendezvous on
    itself, nobody meets, and the job hangs until its time limit.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=4
    #SBATCH --time=02:00:00
    srun torchrun --nnodes=2 --nproc_per_node=4 train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=4
    #SBATCH --time=02:00:00
    head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
    srun torchrun --nnodes=2 --nproc_per_node=4 --rdzv_id="$SLURM_JOB_ID" \\
        --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
    ```

    ## Slurm versions
    All.

    ## References
    - `torchrun --help` (`--master_addr` defaults to `127.0.0.1`)
    - PyTorch `ddp-tutorial-series/slurm/sbatch_run.sh`
    """
    for step in launcher_steps(ctx):
        if step.first_node_only is None and step.launch.kind == LaunchKind.TORCHRUN:
            _rendezvous(ctx, step.launch, step.srun, step.geom, step.name)


def _rendezvous(ctx: Context, launch, srun, geom, name: str) -> None:
    if launch.standalone or launch.has("rdzv-endpoint") or launch.has("master-addr"):
        return
    if assigns(ctx, "PET_RDZV_ENDPOINT", "PET_MASTER_ADDR"):
        return
    rng = launch.nnodes_range
    opt = launch.option("nnodes")
    multi = (rng is not None and rng[1] > 1) or (
        opt is not None and rng is None and geom.nodes is not None and geom.nodes > 1 and srun is not None)
    if not multi or opt is None:
        return
    ctx.report(
        "SB305", opt.span,
        f"`{name}` runs on several nodes but has no `--rdzv_endpoint` (or `--master_addr`): every"
        f" node looks for the rendezvous on its own localhost and waits forever. Pass"
        f" `--rdzv_backend=c10d --rdzv_endpoint=$head_node:29500` with the first host of"
        f" `scontrol show hostnames \"$SLURM_JOB_NODELIST\"`",
    )
