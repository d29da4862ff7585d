"""SB311: `srun python` with several tasks, against the GPUs per node (or in total).

Under `srun`, DDP, Horovod, DeepSpeed and Lightning run one task per GPU: the
tasks per node (`man srun`, `--ntasks-per-node`) should equal the GPUs per node
(`--gpus-per-node`, `--gres=gpu:N`), and the tasks in all the GPUs in all
(`--ntasks`, `--gpus`). Only for programs that show they train on
GPUs that way: a CPU MPI program (`mpi4py`) on a job that asks for one GPU
because the site requires one is not such a job.
"""

from __future__ import annotations

import re

from slurmspec.body.typed import gpu_count
from slurmspec.kinds import Fixability, LineKind, Outcome, Severity
from slurmspec.lazy_regex import lazy_compile
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.gres import GpuRequest, TresRequest
from slurmspec.model.views.launch_steps import python_steps, repeated
from slurmspec.rules.launch._common import gpu_note, idle, option_span, plural, program, task_note
from slurmspec.rules.launch._per_gpu_fix import one_task_per_gpu

# Words that show distributed GPU training with one process per GPU (in the program's name or
# arguments, or on a command line of the body): the frameworks, NCCL, and their variables.
_EVIDENCE = lazy_compile(
    r"torch|nccl|horovod|(?<![a-z])hvd(?![a-z])|deepspeed|lightning|accelerate|(?<![a-z])ddp(?![a-z])|"
    r"fsdp|megatron|master_addr|master_port|world_size|local_rank",
    re.IGNORECASE,
)
# Options that bind GPUs to tasks: the job itself says one process uses a share of the GPUs.
_GPU_TASK_OPTIONS = ("gpus-per-task", "ntasks-per-gpu", "gpu-bind")


@rule("SB311", "srun-tasks-gpus-mismatch", Severity.WARNING, Outcome.WRONG, fix=Fixability.SOMETIMES)
def srun_tasks_gpus_mismatch(ctx: Context) -> None:
    """
    ## What it does
    For `srun python ...` with several tasks per node on a GPU job (the DDP, Horovod,
    DeepSpeed and Lightning style, where Slurm starts one process per GPU), compares the
    tasks per node with the GPUs per node, and the tasks in total with the GPUs in total when
    the per-node numbers are not fixed (`--ntasks=8 --gpus=16`, an uneven `-n`/`-N` split). The
    program is found through container and shell wrappers (`srun --container-image=...
    bash -c "python train_hvd.py"`, `apptainer exec`). `--gpus-per-task` above 1 gives each task
    several GPUs on purpose and is left alone.
    Only when the script shows that style: PyTorch, NCCL, Horovod, DeepSpeed, Lightning,
    Accelerate, DDP/FSDP or Megatron in the program, its arguments or a command of the body
    (`MASTER_ADDR`, `WORLD_SIZE`, `LOCAL_RANK` too), or a GPU-per-task option
    (`--gpus-per-task`, `--ntasks-per-gpu`, `--gpu-bind`). A job that merely requests a GPU
    (a CPU MPI program on a site that requires one) is left alone.

    The unsafe fix sets the tasks per node to the GPUs per node and keeps the CPUs per node
    the job asked for (`--cpus-per-task` scaled to match); when it cannot, there is no fix.

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
    srun python train_ddp.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=8
    #SBATCH --gpus-per-node=8
    #SBATCH --time=04:00:00
    srun python train_ddp.py
    ```

    ## Slurm versions
    All.

    ## References
    - `man srun`, `--ntasks-per-node`; `man sbatch`, `--gpus-per-node`, `--gres`
    - horovod/horovod#1038
    """
    for launch, srun, geom in python_steps(ctx):
        gpn, tpn, tasks, total = geom.gpus_per_node, geom.tasks_per_node, geom.tasks, geom.gpus_total
        if srun is None or not (gpn or (gpn is None and total)) or repeated(launch) or repeated(srun):
            continue
        if _several_gpus_per_task(ctx, srun):
            continue  # `--gpus-per-task=2`: each task was given its GPUs on purpose
        mismatch = None
        if gpn is not None and tpn is not None:
            if tpn != 1 and tpn != gpn:  # one process per node: SB310's case
                mismatch = (tpn, gpn, "per node")
        elif tasks and total and tasks > 1 and tasks != total:
            # The GPUs per node or the tasks per node are not fixed (`--gpus=16`, an uneven
            # `-n`/`-N` split): the totals still show idle or shared GPUs.
            mismatch = (tasks, total, "in total")
        if mismatch is None:
            continue
        evidence = _evidence(ctx, launch, srun)
        if evidence:
            _mismatch(ctx, srun, launch, geom, *mismatch, evidence)


def _several_gpus_per_task(ctx: Context, srun) -> bool:
    """`--gpus-per-task` (or `--tres-per-task=gres/gpu=N`) above 1 for this step (or not a literal)."""
    for opt in reversed(srun.options):
        if opt.name == "gpus-per-task":
            return gpu_count(opt.value) != 1
        if opt.name == "tres-per-task" and "gpu" in (opt.value or ""):
            return opt.value.split("gpu=")[-1].split(",")[0] != "1"
    for name in ("gpus-per-task", "tres-per-task"):
        setting = ctx.script.request.get(name)
        if setting is None:
            continue
        if name == "gpus-per-task":
            gpus = setting.value_as(GpuRequest)
            return gpus is None or gpus.total != 1
        if "gpu" in (setting.raw or "gpu"):
            tres = setting.value_as(TresRequest)
            return tres is None or sum(i.count for i in tres.items if (i.kind, i.name) == ("gres", "gpu")) != 1
    return False


def _evidence(ctx: Context, launch, srun) -> str:
    """Why the program is one-process-per-GPU training (for a note), or "" when nothing says so."""
    for opt in srun.options:
        if opt.name in _GPU_TASK_OPTIONS:
            return f"`srun {opt.raw}` binds GPUs to tasks"
    request = ctx.script.request
    for name in _GPU_TASK_OPTIONS:
        if request.get(name) is not None:
            return f"`--{name}` binds GPUs to tasks"
    for word in (launch.program or "", *launch.args):
        found = _EVIDENCE.search(word)
        if found:
            return f"`{found.group(0)}` in `{program(launch)}` points to one process per GPU"
    script = ctx.script
    for line in script.lines:
        if line.kind is not LineKind.COMMAND or line.span.start < script.header_end:
            continue
        found = _EVIDENCE.search(line.text)
        if found:
            return f"`{found.group(0)}` on line {line.number} points to one process per GPU"
    return ""


def _mismatch(ctx: Context, srun, launch, geom, tasks: int, gpus: int, per: str, evidence: str) -> None:
    outcome = None
    if tasks < gpus:
        effect = f"{idle(gpus - tasks)} {per}"
    else:
        some = "each GPU" if per == "per node" else "some GPUs"
        effect = (f"several processes share {some} (NCCL refuses two ranks on one GPU with"
                  f" `Duplicate GPU detected`)")
        outcome = Outcome.FAILS
    if per == "per node":
        instead = "(`--ntasks-per-node` = GPUs per node)"
        notes = task_note(geom) + gpu_note(geom)
    else:
        instead = (f"({plural(gpus, 'task')} in all, best as a fixed layout per node:"
                   f" `--ntasks-per-node=N` with `--gpus-per-node=N`)")
        notes = task_note(geom) + _total_note(ctx, srun)
    ctx.report(
        "SB311", option_span(srun, "ntasks-per-node", "tasks-per-node", "ntasks"),
        f"`srun {program(launch)}` starts {plural(tasks, 'task')} {per} for {plural(gpus, 'GPU')} {per}: {effect}."
        f" DDP, Horovod, DeepSpeed and Lightning under `srun` expect one task per GPU {instead}",
        outcome=outcome, notes=(evidence,) + notes,
        fix=one_task_per_gpu(ctx, srun, gpus, "one task per GPU") if per == "per node" else None,
    )


def _total_note(ctx: Context, srun) -> tuple[str, ...]:
    """Where the total GPU count comes from: `srun --gpus=8` or `#SBATCH --gpus=8`."""
    opt = srun.option("gpus")
    if opt is not None:
        return (f"the GPUs come from `srun {opt.raw}={opt.value}`",) if opt.raw.startswith("--") else ()
    setting = ctx.script.request.get("gpus")
    return (f"the GPUs come from `--gpus={setting.raw}`",) if setting is not None and setting.raw else ()
