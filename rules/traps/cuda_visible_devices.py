"""SB245, SB256: `CUDA_VISIBLE_DEVICES` set by hand in the script body.

Slurm's GPU plugin sets `CUDA_VISIBLE_DEVICES` to the GPUs it allocated to the
job (`src/plugins/gres/common/gres_common.c`); a fixed value in the body
replaces that choice. Inside a job confined to its GPUs (device cgroups) the
job's GPUs are numbered from 0, so indices below the GPUs per node name the
job's own GPUs: one process per GPU (`CUDA_VISIBLE_DEVICES=0 python a.py &`,
`=1 ... &`, ...) is the usual way to share a node's GPUs among several programs.
An empty value (or `-1`) hides every GPU (the CUDA runtime stops at the first
invalid index); it selects nothing. A launcher that then starts more processes
than the GPUs left visible is SB256: a job that runs other than written, not
advice about a value Slurm may set anyway.
"""

from __future__ import annotations

from slurmspec.kinds import AssignmentKind, LaunchKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.request_facts import gpu_request, has_body, visible_gpus_per_node

_DERIVED = ("CUDA_VISIBLE_DEVICES", "SLURM_JOB_GPUS", "SLURM_STEP_GPUS")


@rule("SB245", "cuda-visible-devices-override", Severity.WARNING, Outcome.WRONG)
def cuda_visible_devices_override(ctx: Context) -> None:
    """
        ## What it does
        Finds `CUDA_VISIBLE_DEVICES` set in the script body (`export`, plain assignment or a
        prefix of one command) to GPU numbers the job does not have: an index at or above the
        GPUs per node the job requests, or a GPU UUID. It is `info` when the job requests no
        GPU, when the value is exactly `0,1,...,N-1` for the N GPUs per node (what Slurm sets
        anyway on clusters with device cgroups), and when an `export` keeps some of the job's
        GPUs for the rest of the script.

        A launcher that starts more processes than the GPUs the value leaves visible is SB256.

        Not reported: indices below the GPUs per node given to one command
        (`CUDA_VISIBLE_DEVICES=0 python a.py &`, `CUDA_VISIBLE_DEVICES=1 python b.py &`, ...:
        one process per GPU) or set to several different values; an empty value or `-1`
        (hides the GPUs); values computed from a variable (`$i`, `$SLURM_LOCALID`) or built
        from `$CUDA_VISIBLE_DEVICES`, `$SLURM_JOB_GPUS` or `$SLURM_STEP_GPUS`.

        ## Why is this bad?
        Slurm sets `CUDA_VISIBLE_DEVICES` to the GPUs it allocated to the job. A GPU number the
        job does not have either does not exist inside the job (clusters with device cgroups:
        the program finds no GPU) or belongs to another job (clusters without them: the program
        shares a GPU with someone else).

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
    per_node = visible_gpus_per_node(ctx)
    assignments = [a for a in ctx.script.body.exports if a.name == "CUDA_VISIBLE_DEVICES" and a.value is not None]
    distinct = {a.value.replace(" ", "") for a in assignments if _indices(a.value) is not None}
    for assignment in assignments:
        value = assignment.value.strip()
        if value == "" or value.startswith("-"):
            continue  # hides every GPU: selects none
        if any(name in value for name in _DERIVED):
            continue  # derived from Slurm's own binding
        if "$" in value or "`" in value:
            continue  # computed per process or per loop pass: cannot be judged
        shown = assignment.raw or value
        indices = _indices(value)
        if gpus is None:
            ctx.report(
                "SB245", assignment.span,
                f"`CUDA_VISIBLE_DEVICES={shown}` selects GPUs, but the job requests"
                " none: the program either sees no GPU or uses GPUs allocated to other jobs."
                " Request GPUs (`--gpus-per-node`, `--gres=gpu:N`) and let Slurm set the variable",
                severity=Severity.INFO, outcome=Outcome.ADVICE,
            )
        elif indices is None:
            ctx.report(
                "SB245", assignment.span,
                f"setting `CUDA_VISIBLE_DEVICES={shown}` overrides the GPUs Slurm"
                f" bound to this job (`{gpus}`): without device cgroups the program may use GPUs"
                " another job owns, with them it may see no GPU at all. Let Slurm set it",
            )
        elif per_node and max(indices) >= per_node:
            _out_of_range(ctx, assignment, shown, indices, per_node, gpus)
        elif per_node and len(indices) == per_node and sorted(indices) == list(range(per_node)):
            ctx.report(
                "SB245", assignment.span,
                f"`CUDA_VISIBLE_DEVICES={shown}` repeats what Slurm sets where it"
                f" confines jobs to their GPUs (device cgroups), but on a cluster without them it"
                f" picks the node's first {per_node} GPU(s) whether or not they are this job's."
                " Let Slurm set it",
                severity=Severity.INFO, outcome=Outcome.ADVICE,
            )
        elif assignment.kind is AssignmentKind.PREFIX or len(distinct) > 1 or assignment.context:
            continue  # one process (or one step) per GPU: the usual way to share the job's GPUs
        elif per_node:
            ctx.report(
                "SB245", assignment.span,
                f"`CUDA_VISIBLE_DEVICES={shown}` keeps {len(set(indices))} of the job's {per_node}"
                f" GPUs per node (`{gpus}`) for every command after it; the others stay idle unless"
                " a later command sets the variable again. Where jobs are not confined to their GPUs"
                " (no device cgroups) the numbers are the node's GPUs, not necessarily this job's",
                severity=Severity.INFO, outcome=Outcome.ADVICE,
            )


def _out_of_range(ctx: Context, assignment, shown: str, indices: tuple[int, ...], per_node: int, gpus: str) -> None:
    bad = sorted({i for i in indices if i >= per_node})
    names = f"GPU {bad[0]}" if len(bad) == 1 else "GPUs " + ", ".join(map(str, bad))
    exist = "does" if len(bad) == 1 else "do"
    valid = "0" if per_node == 1 else f"0-{per_node - 1}"
    ctx.report(
        "SB245", assignment.span,
        f"`CUDA_VISIBLE_DEVICES={shown}` names {names}, but the job has {per_node} GPU(s) per"
        f" node (`{gpus}`), numbered {valid} inside the job: where Slurm confines jobs to their GPUs"
        f" (device cgroups) {names} {exist} not exist and the program finds no GPU, elsewhere it may"
        f" use a GPU another job owns. Let Slurm set the variable, or pick from {valid}",
    )


def _indices(value: str) -> tuple[int, ...] | None:
    """``0,1,3`` -> (0, 1, 3); None for anything else (UUIDs, MIG names, variables)."""
    items = [item.strip() for item in value.split(",")]
    if not items or not all(item.isascii() and item.isdigit() for item in items):
        return None
    return tuple(int(item) for item in items)


# Launchers that give each process they start the GPU of its local rank.
_PER_GPU_SPAWNERS = frozenset({LaunchKind.TORCHRUN, LaunchKind.ACCELERATE, LaunchKind.DEEPSPEED})
_COUNT_OPTIONS = ("nproc-per-node", "num-processes", "num-gpus")


@rule("SB256", "more-processes-than-visible-gpus", Severity.WARNING, Outcome.WRONG)
def more_processes_than_visible_gpus(ctx: Context) -> None:
    """
        ## What it does
        Finds a launcher in the batch script that starts more processes than the GPUs
        `CUDA_VISIBLE_DEVICES` leaves visible (`export CUDA_VISIBLE_DEVICES=0`, then `torchrun
        --nproc_per_node=4`): each process takes the GPU of its local rank, and there is one.
        Only one literal value set outside any `if`, loop or function, before the launcher or as
        its own prefix; `srun` steps are left alone (Slurm sets the variable again for a step
        with GPUs).

        ## Why is this bad?
        The processes past the visible GPUs fail ("invalid device ordinal") or all crowd onto
        one GPU: the run fails or is several times slower than asked for.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:4
        export CUDA_VISIBLE_DEVICES=0
        torchrun --standalone --nproc_per_node=4 train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:4
        torchrun --standalone --nproc_per_node=4 train.py
        ```

        ## Slurm versions
        All.

        ## References
        - Slurm GRES documentation, "GPU Management"
        - `torch.distributed.run` (LOCAL_RANK), CUDA `CUDA_VISIBLE_DEVICES`
    """
    if has_body(ctx):
        _more_processes_than_devices(ctx)


def _more_processes_than_devices(ctx: Context) -> None:
    """`export CUDA_VISIBLE_DEVICES=0`, then `torchrun --nproc_per_node=4` in the batch script.

    Only the batch step: there the variable reaches the launcher as written (an `srun` step
    with GPUs gets the variable from Slurm again). Only one literal value, set outside any
    `if`/loop/function before the launcher (or as its own prefix), and counts the model knows.
    """
    assignments = [a for a in ctx.script.body.exports if a.name == "CUDA_VISIBLE_DEVICES"]
    if len(assignments) != 1 or assignments[0].context or assignments[0].value is None:
        return
    assignment = assignments[0]
    indices = _indices(assignment.value.strip())
    if not indices:
        return
    visible = len(set(indices))
    for step in ctx.job.steps:
        spawner, processes = step.spawner, step.processes_per_node
        if (not step.in_batch or spawner is None or spawner.kind not in _PER_GPU_SPAWNERS
                or processes is None or processes <= visible):
            continue
        statement = step.launch.statement_span
        if assignment.kind is AssignmentKind.PREFIX:
            if not statement.start <= assignment.span.start < statement.end:
                continue
        elif assignment.kind is not AssignmentKind.EXPORT or assignment.span.end > statement.start:
            continue
        counted = next((opt for opt in spawner.options if opt.name in _COUNT_OPTIONS), None)
        span = counted.span if counted is not None else spawner.command_span
        shown = f"`{counted.raw}={counted.value}`" if counted is not None else f"`{spawner.command}`"
        ctx.report(
            "SB256", span,
            f"{shown} starts {processes} processes, each on the GPU of its local rank, but"
            f" `CUDA_VISIBLE_DEVICES={assignment.raw or assignment.value}` (line {assignment.span.line})"
            f" leaves {visible} visible: the processes past local rank {visible - 1} find no GPU"
            " (invalid device ordinal) or crowd onto one. Start as many processes as visible GPUs",
        )
