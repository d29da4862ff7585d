"""SB303: the node count a launcher waits for against the nodes the job or `srun` step has.

`man sbatch`, `--nodes`; the job's count is `SLURM_JOB_NUM_NODES` ("Total number
of nodes in the job's resource allocation"), which the launcher does not read
by itself.
"""

from __future__ import annotations

from slurmspec.kinds import LaunchKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.launch_steps import assigns, launcher_steps
from slurmspec.rules.launch._common import nodes_note, option_span, plural


@rule("SB303", "launcher-nodes-mismatch", Severity.WARNING, Outcome.WRONG)
def launcher_nodes_mismatch(ctx: Context) -> None:
    """
    ## What it does
    Compares the node count a launcher expects (`torchrun --nnodes`, `--standalone`,
    `accelerate launch --num_machines`, `deepspeed --num_nodes`) with the nodes the job or
    the `srun` step actually has. `srun torchrun` without `--nnodes` on several nodes is
    reported too (torchrun then defaults to one node).

    ## Why is this bad?
    With fewer nodes than `--nnodes` the rendezvous waits for nodes that never come until
    the time limit; with more, each node (or group) trains separately, overwriting the same
    checkpoints.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=4
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=8
    #SBATCH --time=08:00:00
    head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
    srun torchrun --nnodes=2 --nproc_per_node=8 \\
        --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=4
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=8
    #SBATCH --time=08:00:00
    head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
    srun torchrun --nnodes="$SLURM_JOB_NUM_NODES" --nproc_per_node=8 \\
        --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
    ```

    ## Slurm versions
    All.

    ## References
    - `torchrun --help` (`--nnodes MIN[:MAX]`, `--standalone`)
    - `man sbatch`, `--nodes`, and OUTPUT ENVIRONMENT VARIABLES (`SLURM_JOB_NUM_NODES`: "Total
      number of nodes in the job's resource allocation")
    """
    for step in launcher_steps(ctx):
        if step.first_node_only is None:
            _nodes(ctx, step.launch, step.srun, step.geom, step.name)


def _nodes(ctx: Context, launch, srun, geom, name: str) -> None:
    nodes = geom.nodes
    if nodes is None:
        return
    if launch.kind == LaunchKind.TORCHRUN:
        opt = launch.option("nnodes")
        if launch.standalone:
            lo = hi = 1
            what = "`--standalone`"
        elif opt is None:
            if srun is None or nodes < 2 or assigns(ctx, "PET_NNODES"):
                return
            ctx.report(
                "SB303", launch.command_span,
                f"`{name}` without `--nnodes` trains on one node, and `srun` starts it on"
                f" {nodes} nodes: each node runs a separate single-node training. Pass"
                f" `--nnodes={nodes}` (or `$SLURM_JOB_NUM_NODES`) and a rendezvous endpoint",
                notes=nodes_note(geom),
            )
            return
        else:
            if launch.nnodes_range is None:
                return
            lo, hi = launch.nnodes_range
            what = f"`{opt.raw}={opt.value}`"
        span = opt.span if opt is not None else option_span(launch, "standalone")
    elif launch.kind == LaunchKind.ACCELERATE:
        if launch.num_machines is None:
            return
        lo = hi = launch.num_machines
        opt = launch.option("num-machines")
        what, span = f"`{opt.raw}={opt.value}`", opt.span
    else:  # deepspeed: --num_nodes caps the hosts of the hostfile it uses
        if launch.num_nodes is None:
            return
        lo = hi = launch.num_nodes
        opt = launch.option("num-nodes")
        what, span = f"`{opt.raw}={opt.value}`", opt.span
        if srun is None and lo <= nodes:
            return
    if lo <= nodes <= hi:
        return
    where = "the job has" if srun is None else "`srun` starts it on"
    if nodes < lo:
        # The rendezvous never completes: the job hangs until its time limit kills it.
        effect, outcome = "it waits for nodes that never join until the time limit", Outcome.FAILS
    else:
        effect = ("each node runs a separate training" if hi == 1
                  else "the extra nodes fail to join or train separately")
        outcome = None
    ctx.report(
        "SB303", span,
        f"{what} does not match the {plural(nodes, 'node')} {where}: {effect}; make them agree"
        f" (e.g. `$SLURM_JOB_NUM_NODES`)",
        outcome=outcome, notes=nodes_note(geom),
    )
