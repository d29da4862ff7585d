"""SB314: `--gpus-per-task` with several tasks per node, for a program that picks its GPU by local rank.

`--gpus-per-task=N` implies `--gpu-bind=per_task:N` (`man srun`, `--gpus-per-task`;
`src/common/gres.c`, `gres_g_task_set_env()`): each task sees only its own N GPUs,
which CUDA numbers from 0 inside the task. A program that selects
`cuda:<local rank>` (Horovod's `hvd.local_rank()`, Lightning, a `--local_rank`
or `LOCAL_RANK` taken from `SLURM_LOCALID`) then asks local rank N and above for
a device it cannot see. The GPUs each task sees come from the job model
(`slurmspec/model/job/model.py`, checked against a real Slurm).
"""

from __future__ import annotations

import re

from slurmspec.body.index import body_index
from slurmspec.kinds import Fixability, GpuBindKind, LineKind, Outcome, Severity
from slurmspec.lazy_regex import lazy_compile
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.job.model import job_model_of
from slurmspec.model.views.launch_steps import sets_devices
from slurmspec.rules.launch._common import program

# The program picks its GPU by local rank: Horovod and Lightning do, and so does a program
# handed its local rank (as an argument or a variable expanded inside the task).
_FRAMEWORK = lazy_compile(r"horovod|(?<![a-z])hvd(?![a-z])|lightning", re.IGNORECASE)
_LOCAL_RANK_VARS = frozenset({"LOCAL_RANK", "SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK",
                              "MV2_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK"})
_BIND_OPTIONS = ("gpus-per-task", "tres-per-task", "gpu-bind")


@rule("SB314", "gpus-per-task-hides-local-rank-gpu", Severity.WARNING, Outcome.FAILS, fix=Fixability.NONE)
def gpus_per_task_hides_local_rank_gpu(ctx: Context) -> None:
    """
    ## What it does
    Finds an `srun` step where `--gpus-per-task` (on `#SBATCH` or the `srun` line) gives each
    task only its own GPUs while a node runs more tasks than each task sees GPUs, and the
    program picks its GPU by local rank: Horovod (`hvd`, `horovod`, `train_hvd.py`), Lightning,
    or a local rank handed to it (`--local_rank=$SLURM_LOCALID`, `LOCAL_RANK=$SLURM_LOCALID`,
    expanded inside the task: expanded by the batch script it is 0 for every task, rule SB247). Without such evidence the rule stays silent: a program that uses `cuda:0` in
    each task works with this layout. `--gpu-bind=none` and a script that sets
    `CUDA_VISIBLE_DEVICES` itself are left alone.

    ## Why is this bad?
    `--gpus-per-task=1` binds one GPU to each task: the task with local rank 1 sees only
    its own GPU (`CUDA_VISIBLE_DEVICES=1`), which CUDA calls device 0. Code doing
    `torch.cuda.set_device(local_rank)` then fails on every local rank but 0 with
    `invalid device ordinal` (Lightning stops because it sees fewer devices than it expects).

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --ntasks-per-node=4
    #SBATCH --gpus-per-task=1
    #SBATCH --time=04:00:00
    srun python train_hvd.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --ntasks-per-node=4
    #SBATCH --gpus-per-node=4
    #SBATCH --time=04:00:00
    srun python train_hvd.py
    ```

    ## Slurm versions
    All (`--gpus-per-task` implies `--gpu-bind=per_task:N` on 22.05, `--tres-bind=gres/gpu:per_task:N`
    from 23.11).

    ## References
    - `man srun`, `--gpus-per-task`, `--gpu-bind`
    - `src/common/gres.c`, `gres_g_task_set_env()` (the GPUs each task sees)
    - Horovod's PyTorch recipe: `torch.cuda.set_device(hvd.local_rank())`
    """
    if sets_devices(ctx):
        return
    for step in ctx.shared(job_model_of).steps:
        bind = step.gpu_bind
        if step.srun is None or step.spawner is not None or bind is None or bind.kind is not GpuBindKind.PER_TASK:
            continue
        blind = _blind_task(step)
        if blind is None:
            continue
        evidence = _evidence(ctx, step)
        if evidence:
            _report(ctx, step, blind, evidence)


def _blind_task(step):
    """The first task whose local rank is not among the device numbers it sees (None: every task can)."""
    for task in step.task_list or ():
        if task.gpus is not None and task.local_rank >= len(task.gpus):
            return task
    return None


def _evidence(ctx: Context, step) -> str:
    """Why the program picks its GPU by local rank (for a note), or "" when nothing says so."""
    chain = list(step.launch.walk())
    for launch in chain:
        for word in (launch.program or "", *launch.args):
            found = _FRAMEWORK.search(word)
            if found:
                return f"`{found.group(0)}` in `{program(step.work)}`: Horovod and Lightning use GPU `cuda:<local rank>`"
    span = step.launch.statement_span
    for ref in ctx.shared(body_index).refs:
        if span.start <= ref.start < span.end and ref.deferred and ref.name in _LOCAL_RANK_VARS:
            return f"`${ref.name}` (expanded in each task) hands the program its local rank"
    script = ctx.script
    for line in script.lines:
        if line.kind is LineKind.COMMAND and line.span.start >= script.header_end:
            found = _FRAMEWORK.search(line.text)
            if found:
                return f"`{found.group(0)}` on line {line.number}: Horovod and Lightning use GPU `cuda:<local rank>`"
    return ""


def _source(ctx: Context, step):
    """(span, text) of what binds GPUs to tasks: the `srun` option, else the `#SBATCH` line."""
    for opt in reversed(step.srun.options):
        if opt.name in _BIND_OPTIONS:
            text = f"{opt.raw}={opt.value}" if opt.raw.startswith("--") else f"{opt.raw} {opt.value}"
            return opt.span, f"`srun {text}`"
    request = ctx.script.components[step.component].request
    for name in ("gpu-bind", "gpus-per-task", "tres-per-task"):
        setting = request.get(name)
        if setting is not None and setting.directive is not None:
            return setting.directive.span, f"`--{name}={setting.raw}`"
    return step.srun.command_span, "`--gpus-per-task`"


def _report(ctx: Context, step, task, evidence: str) -> None:
    span, text = _source(ctx, step)
    seen, per_node, gpn = len(task.gpus), step.tasks_per_node, step.gpus_per_node
    devices = "`cuda:0`" if seen == 1 else f"`cuda:0`..`cuda:{seen - 1}`"
    ctx.report(
        "SB314", span,
        f"{text} with {per_node} tasks per node: each task sees only its own {'GPU' if seen == 1 else f'{seen} GPUs'}"
        f" (local rank {task.local_rank} gets {'one device' if seen == 1 else f'{seen} devices'} in `CUDA_VISIBLE_DEVICES`, which the program knows"
        f" as {devices}), so `{program(step.work)}` picking `cuda:<local rank>`"
        f" (`torch.cuda.set_device(local_rank)`) fails on local rank {task.local_rank} with"
        f" `invalid device ordinal`. Ask for the GPUs per node instead (`--gpus-per-node={gpn or per_node * seen}`"
        f" with `--ntasks-per-node={per_node}`), add `--gpu-bind=none` so every task sees all the GPUs of"
        f" its node, or use device 0 in each task",
        notes=(evidence,),
    )
