"""SB340: fewer than 4 CPUs per GPU, or several workers in a task of one CPU.

The CPUs per GPU come from `--cpus-per-gpu`, or `--cpus-per-task` times the
tasks per node over the GPUs per node (`man sbatch`, each option); a job that
sets neither gets the cluster's `DefCpuPerGPU` (`man slurm.conf`), which the
rule cannot see: that advice is skipped for it.

A job without GPUs that sets no CPU count at all gets one CPU per task (`man
sbatch`, `--cpus-per-task`; measured on 22.05 and 24.11:
``tests/rules/test_recall_on_slurm.py``), so when a step starts several workers
in one task (`torchrun --nproc_per_node=4`) they share it: reported at
warning, read from the job model's steps (``ctx.job``). A GPU job may get CPUs
per GPU from `DefCpuPerGPU`, which the script cannot show: left alone.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.lint.context import Context
from slurmspec.lint.rule import rule
from slurmspec.model.job_types import Step
from slurmspec.rules.launch._common import gpu_note, job_geometry, plural


@rule("SB340", "few-cpus-per-gpu", Severity.INFO, Outcome.ADVICE)
def few_cpus_per_gpu(ctx: Context) -> None:
    """
    ## What it does
    Computes CPUs per GPU from `--cpus-per-gpu`, or `--cpus-per-task` × tasks per node over
    GPUs per node, and reports fewer than 4. Jobs with `--exclusive` (all CPUs) are skipped.
    A job without GPUs that sets no CPU count at all is reported (at warning) when a step
    starts several workers in one task (`torchrun --nproc_per_node=4`): the task has one CPU,
    shared by all of them. (A GPU job without a CPU count is left alone: the cluster's
    `DefCpuPerGPU` may give it CPUs.)

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
    if _no_cpu_count(ctx):
        _workers_without_cpus(ctx)
        return
    geom = job_geometry(ctx)
    gpn = geom.gpus_per_node
    if not gpn:
        return
    if geom.cpus_per_gpu is not None:
        setting = request.get("cpus-per-gpu")
        per = geom.cpus_per_gpu
        what = f"`--cpus-per-gpu={setting.raw}`"
    elif geom.cpus_per_task is not None and geom.tasks_per_node is not None:
        setting = request.get("cpus-per-task")
        if setting is None:
            return
        cpus = geom.cpus_per_task * geom.tasks_per_node
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


# Ways a job or its steps get more than one CPU per task without `-c` on srun.
_CPU_OPTIONS = ("cpus-per-task", "cpus-per-gpu", "tres-per-task", "mincpus", "exclusive", "ntasks-per-core")
_CPU_VARIABLES = ("SLURM_CPUS_PER_TASK", "SRUN_CPUS_PER_TASK", "SLURM_CPUS_PER_GPU", "SLURM_EXCLUSIVE")


def _no_cpu_count(ctx: Context) -> bool:
    """The job sets no CPU count anywhere: no option, no variable the steps would read one from."""
    script = ctx.script
    if len(script.components) != 1 or any(script.components[0].request.has(name) for name in _CPU_OPTIONS):
        return False
    return not any(script.body.assignments_of(name) for name in _CPU_VARIABLES)


def _workers_without_cpus(ctx: Context) -> None:
    """Steps of a job with no CPU count and no GPUs whose workers share one CPU per task.

    A GPU job is left alone: `DefCpuPerGPU` (or a site's submit plugin) gives it CPUs per GPU,
    which the script cannot show (judged on ``../shared/corpus/real``: two of three such GPU
    jobs run where each GPU comes with a share of the node's CPUs).
    """
    job = ctx.job
    component = job.component(0)
    if component is None or component.has_gpus or component.gpus_per_node is None:
        return
    for step in job.steps:
        cpus = step.cpus_per_task
        if (not step.cpus_explicit and cpus is not None and step.spawner is not None
                and step.processes_per_task and step.processes_per_task > cpus):
            _report_workers(ctx, step, cpus)


def _report_workers(ctx: Context, step: Step, cpus: int) -> None:
    spawner = step.spawner
    counted = next((opt for opt in spawner.options if opt.name in _WORKER_OPTIONS), None)
    span = counted.span if counted is not None else spawner.command_span
    shown = f"`{counted.raw}={counted.value}`" if counted is not None else f"`{spawner.command}`"
    where = "the batch step" if step.in_batch else "each task"
    ctx.report(
        "SB340", span,
        f"{shown} starts {step.processes_per_task} workers in {where}, which has"
        f" {plural(cpus, 'CPU')}: the job sets no `--cpus-per-task`/`--cpus-per-gpu`, so all"
        " the workers and their data loaders share it. Add `#SBATCH --cpus-per-task=N` (a few per worker)",
        severity=Severity.WARNING,
    )


_WORKER_OPTIONS = ("nproc-per-node", "num-processes", "num-gpus", "np")
