"""SB301: `srun` starting several copies of a launcher that starts its own workers on each node.

`man srun`: `--ntasks-per-node` "Request that ntasks be invoked on each node";
each task runs the whole command line, so every task starts its own launcher.
"""

from __future__ import annotations

from slurmspec.kinds import Fixability, LaunchKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.launch_steps import launcher_steps
from slurmspec.rules.launch._common import option_span, plural, task_note
from slurmspec.rules.launch._fixes import set_tasks_per_node


@rule("SB301", "launcher-several-tasks-per-node", Severity.WARNING, Outcome.WRONG, fix=Fixability.SOMETIMES)
def launcher_several_tasks_per_node(ctx: Context) -> None:
    """
    ## What it does
    Finds `srun torchrun` (also `python -m torch.distributed.run|launch`, `accelerate
    launch`, `deepspeed`) where the `srun` step starts more than one task per node.

    ## Why is this bad?
    These launchers start one worker per GPU themselves. `srun` starts one copy of the
    launcher per task, so with `--ntasks-per-node=8` each node runs 8 launchers × 8 workers:
    64 processes fight over 8 GPUs, ports clash and the rendezvous fails or trains 8 times.
    The launcher needs exactly one task per node.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=8
    #SBATCH --gpus-per-node=8
    #SBATCH --time=04:00:00
    head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
    srun torchrun --nnodes=2 --nproc_per_node=8 \\
        --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=8
    #SBATCH --time=04:00:00
    head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
    srun torchrun --nnodes=2 --nproc_per_node=8 \\
        --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
    ```

    ## Slurm versions
    All.

    ## References
    - `man srun`, `--ntasks-per-node` ("Request that ntasks be invoked on each node")
    - `torchrun --help` (`--nproc_per_node`: the workers it starts on its node)
    - PyTorch `ddp-tutorial-series/slurm/sbatch_run.sh`
    """
    for step in launcher_steps(ctx):
        if step.srun is not None:
            _tasks_per_node(ctx, step.launch, step.srun, step.geom, step.name)


def _tasks_per_node(ctx: Context, launch, srun, geom, name: str) -> None:
    tpn = geom.tasks_per_node
    per = launch.nproc_per_node if launch.kind == LaunchKind.TORCHRUN else (
        launch.num_gpus if launch.kind == LaunchKind.DEEPSPEED else None)
    if tpn is not None and tpn > 1:
        total = f"; with `{launch.option('nproc-per-node').raw}={per}` that is {tpn * per} processes per node" \
            if per and launch.option("nproc-per-node") is not None else ""
        ignored = srun.value("ntasks-per-node") == "1"
        advice = ("`srun --ntasks-per-node=1` is ignored because the job exports its task count (SLURM_NTASKS;"
                  " srun: \"can't honor --ntasks-per-node\"): give the job `--ntasks-per-node=1`, or"
                  f" `srun -n <nodes> --ntasks-per-node=1 {name} ...`") if ignored else (
                  f"start one task per node (`srun --ntasks-per-node=1 {name} ...`)")
        ctx.report(
            "SB301", option_span(srun, "ntasks-per-node", "tasks-per-node", "ntasks"),
            f"`srun` starts {tpn} tasks per node and each runs its own `{name}`, which starts its own"
            f" workers{total}; {advice}",
            notes=task_note(geom),
            fix=set_tasks_per_node(ctx.script, srun, 1, f"one `{name}` per node"),
        )
    elif tpn is None and geom.tasks is not None and geom.nodes is not None and geom.tasks > geom.nodes:
        ctx.report(
            "SB301", option_span(srun, "ntasks-per-node", "tasks-per-node", "ntasks"),
            f"`srun` starts {geom.tasks} tasks on {plural(geom.nodes, 'node')}, so some nodes run several"
            f" copies of `{name}`, each starting its own workers; start one task per node"
            f" (`srun --ntasks-per-node=1 {name} ...`)",
            notes=task_note(geom),
            fix=set_tasks_per_node(ctx.script, srun, 1, f"one `{name}` per node"),
        )
