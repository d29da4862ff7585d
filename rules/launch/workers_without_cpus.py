"""SB343: several workers in a task of one CPU, in a job that sets no CPU count.

A job that sets no CPU count at all (no `--cpus-per-task`, `--cpus-per-gpu`,
`--mincpus`, `--exclusive`... and no variable a step reads one from) gets one
CPU per task (`man sbatch`, `--cpus-per-task`; measured on 22.05 and 24.11:
``tests/rules/test_recall_on_slurm.py``), so when a step starts several workers
in one task (`torchrun --nproc_per_node=4`) they share it. Read from the job
model's steps (``ctx.job``).

A GPU job is left alone: `DefCpuPerGPU` (or a site's submit plugin) gives it
CPUs per GPU, which the script cannot show (judged on ``../shared/corpus/real``:
two of three such GPU jobs run at sites that give each GPU a share of the
node's CPUs). It is its own rule, not part of SB340's advice, because it is a
job that runs other than written, not a tuning hint.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.job.types import Step
from slurmspec.rules.launch._common import plural

# Ways a job or its steps get more than one CPU per task without `-c` on srun.
_CPU_OPTIONS = ("cpus-per-task", "cpus-per-gpu", "tres-per-task", "mincpus", "exclusive", "ntasks-per-core")
_CPU_VARIABLES = ("SLURM_CPUS_PER_TASK", "SRUN_CPUS_PER_TASK", "SLURM_CPUS_PER_GPU", "SLURM_EXCLUSIVE")
# The launcher options that count the workers each task starts.
_WORKER_OPTIONS = ("nproc-per-node", "num-processes", "num-gpus", "np")


def no_cpu_count(ctx: Context) -> bool:
    """The job sets no CPU count anywhere: no option, no variable the steps would read one from."""
    script = ctx.script
    if len(script.components) != 1 or any(script.components[0].request.has(name) for name in _CPU_OPTIONS):
        return False
    return not any(script.body.assignments_of(name) for name in _CPU_VARIABLES)


@rule("SB343", "workers-share-one-cpu", Severity.WARNING, Outcome.WRONG)
def workers_share_one_cpu(ctx: Context) -> None:
    """
    ## What it does
    Finds a step that starts several workers in each task (`torchrun --nproc_per_node=4`,
    `accelerate launch --num_processes=4`, `deepspeed --num_gpus=4`, `mpirun -np 4`) in a job
    without GPUs that sets no CPU count at all. Such a job gets one CPU per task, so the
    workers, and their data loaders, all share that one CPU.

    A job with GPUs is left alone: many sites give each GPU a share of the node's CPUs
    (`DefCpuPerGPU`, or a submit plugin), which the script cannot show.

    ## Why is this bad?
    The job runs, but every worker waits for the same core: a run several times slower
    than the request suggests, with nothing in the logs to say why.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --time=1:00:00
    srun torchrun --nproc_per_node=4 train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --cpus-per-task=16
    #SBATCH --time=1:00:00
    srun torchrun --nproc_per_node=4 train.py
    ```

    ## Slurm versions
    All. One CPU per task by default, measured on 22.05 and 24.11.

    ## References
    - `man sbatch`, `--cpus-per-task`
    - `man slurm.conf`, `DefCpuPerGPU`
    """
    if not no_cpu_count(ctx):
        return
    job = ctx.job
    component = job.component(0)
    if component is None or component.has_gpus or component.gpus_per_node is None:
        return
    for step in job.steps:
        cpus = step.cpus_per_task
        if (not step.cpus_explicit and cpus is not None and step.spawner is not None
                and step.processes_per_task and step.processes_per_task > cpus):
            _report(ctx, step, cpus)


def _report(ctx: Context, step: Step, cpus: int) -> None:
    spawner = step.spawner
    counted = next((opt for opt in spawner.options if opt.name in _WORKER_OPTIONS), None)
    span = counted.span if counted is not None else spawner.command_span
    shown = f"`{counted.raw}={counted.value}`" if counted is not None else f"`{spawner.command}`"
    where = "the batch step" if step.in_batch else "each task"
    ctx.report(
        "SB343", span,
        f"{shown} starts {step.processes_per_task} workers in {where}, which has"
        f" {plural(cpus, 'CPU')}: the job sets no `--cpus-per-task`/`--cpus-per-gpu`, so all"
        " the workers and their data loaders share it. Add `#SBATCH --cpus-per-task=N` (a few per worker)",
    )
