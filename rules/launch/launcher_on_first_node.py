"""SB302: a launcher run by the batch script itself in a job of several nodes.

`man sbatch`: "When the job allocation is finally granted for the batch script,
Slurm runs a single copy of the batch script on the first node in the set of
allocated nodes." Only `srun` reaches the other nodes.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.launch_steps import launcher_steps


@rule("SB302", "launcher-on-first-node-only", Severity.WARNING, Outcome.WRONG)
def launcher_on_first_node_only(ctx: Context) -> None:
    """
    ## What it does
    Finds `torchrun` (or `python -m torch.distributed.run|launch`, `accelerate launch`)
    run directly in the batch script of a job with two or more nodes.

    ## Why is this bad?
    The batch script runs on the first node of the allocation only. A launcher started there
    uses that node's GPUs; the other nodes stay idle (and a multi-node rendezvous waits for
    them until the time limit). `srun` starts it on every node.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --gpus-per-node=4
    #SBATCH --time=02:00:00
    torchrun --nproc_per_node=4 train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=4
    #SBATCH --time=02:00:00
    head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
    srun torchrun --nnodes=2 --nproc_per_node=4 \\
        --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
    ```

    ## Slurm versions
    All.

    ## References
    - `man sbatch`, DESCRIPTION ("Slurm runs a single copy of the batch script on the first
      node in the set of allocated nodes")
    - `man srun`, OUTPUT ENVIRONMENT VARIABLES (`SLURM_NODEID`, `SLURM_PROCID`: set per task of a step)
    """
    for step in launcher_steps(ctx):
        nodes = step.first_node_only
        if nodes is None:
            continue
        name = step.name
        ctx.report(
            "SB302", step.launch.command_span,
            f"`{name}` runs in the batch script itself, which executes on the first node only; the"
            f" {'other node' if nodes == 2 else f'other {nodes - 1} nodes'} of the job"
            f" {'stays' if nodes == 2 else 'stay'} idle. Start it on every node with"
            f" `srun --ntasks-per-node=1 {name} ...`",
        )
