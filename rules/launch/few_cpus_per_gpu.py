"""SB340: fewer than 4 CPUs per GPU.

The CPUs per GPU come from `--cpus-per-gpu`, or `--cpus-per-task` times the
tasks per node over the GPUs per node (`man sbatch`, each option); a job that
sets neither gets the cluster's `DefCpuPerGPU` (`man slurm.conf`), which the
rule cannot see: that advice is skipped for it. Several workers in a task of
one CPU, in a job that sets no CPU count at all, is SB343 (a warning, not advice).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.launch_steps import job_geometry
from slurmspec.rules.launch._common import gpu_note, plural
from slurmspec.rules.launch.workers_without_cpus import no_cpu_count


@rule("SB340", "few-cpus-per-gpu", Severity.INFO, Outcome.ADVICE)
def few_cpus_per_gpu(ctx: Context) -> None:
    """
    ## What it does
    Computes CPUs per GPU from `--cpus-per-gpu`, or `--cpus-per-task` × tasks per node over
    GPUs per node, and reports fewer than 4. Jobs with `--exclusive` (all CPUs) are skipped,
    and so are jobs that set no CPU count at all (SB343 reports their workers sharing one CPU).

    ## Why is this bad?
    Data loading, augmentation and host-side work run on the CPU; with one or two cores
    per GPU the GPUs wait for input. Most GPU clusters recommend 4–16 cores per GPU.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --ntasks=1
    #SBATCH --cpus-per-task=2
    #SBATCH --gres=gpu:4
    #SBATCH --time=04:00:00
    python train.py --devices 4
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --ntasks=1
    #SBATCH --cpus-per-task=32
    #SBATCH --gres=gpu:4
    #SBATCH --time=04:00:00
    python train.py --devices 4
    ```

    ## Slurm versions
    All. A check of host memory against twice the GPU memory needs the GPU model's memory,
    which only a cluster profile knows; it belongs to the cluster family (SB4xx).

    ## References
    - `man sbatch`, `--cpus-per-gpu`, `--cpus-per-task`
    - `man slurm.conf`, `DefCpuPerGPU`
    """
    request = ctx.script.components[0].request
    if request.has("exclusive"):
        return
    if no_cpu_count(ctx):
        return
    geom = job_geometry(ctx)
    gpn = geom.gpus_per_node
    if not gpn:
        return
    if geom.cpus_per_gpu is not None:
        setting = request.get("cpus-per-gpu")
        per = geom.cpus_per_gpu
        what = f"`--cpus-per-gpu={setting.raw}`"
    elif geom.cpus_per_task_asked is not None and geom.tasks_per_node is not None:
        setting = request.get("cpus-per-task")
        if setting is None:
            return
        cpus = geom.cpus_per_task_asked * geom.tasks_per_node
        per = cpus / gpn
        what = f"{plural(cpus, 'CPU')} per node (`--cpus-per-task={setting.raw}`) for {plural(gpn, 'GPU')}"
    else:
        return
    if per >= 4:
        return
    shown = f"{per:.2g}" if isinstance(per, float) else str(per)
    unit = "CPU" if per == 1 else "CPUs"
    ctx.report(
        "SB340", setting.directive.span,
        f"{what} gives {shown} {unit} per GPU: data loading usually starves the GPUs below about 4;"
        f" ask for more CPUs (e.g. `--cpus-per-gpu=8`) if the data pipeline runs on the CPU",
        notes=gpu_note(geom),
    )
