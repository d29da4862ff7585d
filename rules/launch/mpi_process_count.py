"""SB313: `mpirun`/`mpiexec`/`horovodrun` process counts against the job's tasks and GPUs.

Inside a job, MPI takes its slots from Slurm's tasks (`man sbatch`, `--ntasks`:
"sbatch does not launch tasks, it requests an allocation of resources"); it
starts one process per task when no count is given.
"""

from __future__ import annotations

from slurmspec.body.wrappers import basename
from slurmspec.kinds import LaunchKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.launch_steps import job_geometry, repeated, sets_devices
from slurmspec.rules.launch._common import gpu_note, idle, task_note


@rule("SB313", "mpi-process-count-mismatch", Severity.WARNING, Outcome.WRONG)
def mpi_process_count_mismatch(ctx: Context) -> None:
    """
    ## What it does
    Compares `mpirun -np`/`mpiexec -n`/`horovodrun -np` (and `-npernode`/`--map-by ppr:N:node`)
    with the job's tasks and CPUs: more processes than the CPUs the job asks for (tasks ×
    `--cpus-per-task`), fewer processes than GPUs, and (as `info`, for a CPU job with one
    MPI launch) fewer processes than tasks.

    With `--cpus-per-task`, more processes than tasks but no more than CPUs is not reported:
    Intel MPI and MPICH (hydra) place the `-np` ranks over the allocation's nodes with no
    per-task slot limit, so `--nodes=16 --ntasks-per-node=16 --cpus-per-task=2` with
    `mpirun -np 512` runs one rank per allocated CPU (Open MPI, whose slots are the tasks,
    would refuse it; the script does not say which MPI it uses).

    ## Why is this bad?
    More processes than allocated CPUs oversubscribes them (or fails with Open MPI's `not
    enough slots`: its slots are Slurm's tasks); fewer leaves GPUs or cores allocated and
    idle. Without `-np`, MPI uses exactly the tasks Slurm gives.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --ntasks=8
    #SBATCH --gres=gpu:8
    #SBATCH --time=02:00:00
    horovodrun -np 4 python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --ntasks=8
    #SBATCH --gres=gpu:8
    #SBATCH --time=02:00:00
    horovodrun -np 8 python train.py
    ```

    ## Slurm versions
    All.

    ## References
    - Open MPI `mpirun(1)` ("not enough slots available")
    - Intel MPI Library Developer Reference, `mpiexec.hydra` (`-n`, `-ppn`)
    - `man sbatch`, `--ntasks`, `--ntasks-per-node`
    - horovod/horovod#1038
    """
    script = ctx.script
    geom = job_geometry(ctx)
    mpi = [l for l in script.body.launches if l.kind in (LaunchKind.MPIRUN, LaunchKind.HOROVODRUN)]
    nps = {l.np for l in mpi}
    devices = sets_devices(ctx)
    cpt = geom.cpus_per_task_asked or 1
    for launch in mpi:
        tasks = geom.tasks if geom.tasks_explicit else None
        np = launch.np
        name = basename(launch.command)
        opt = launch.option("np") or launch.option("num-proc")
        if np is not None and tasks is not None and np > tasks * cpt:
            ctx.report(
                "SB313", opt.span,
                f"`{name} {opt.raw} {np}` starts more processes than {_cpus(tasks, cpt)} the job asks"
                f" for: MPI refuses (`not enough slots`) or oversubscribes the CPUs. "
                + (f"Request `--ntasks={np}` or drop `{opt.raw}` so {name} uses the tasks Slurm gives"
                   if cpt == 1 else f"Start at most {tasks * cpt} processes or ask for more tasks"),
                notes=task_note(geom),
            )
            continue
        ppn_opt = next((o for o in reversed(launch.options) if o.name in ("ppn", "npernode", "map-by")), None)
        if launch.ppn is not None and geom.per_node_given and geom.tasks_per_node is not None \
                and launch.ppn > geom.tasks_per_node * cpt and ppn_opt is not None:
            ctx.report(
                "SB313", ppn_opt.span,
                f"`{ppn_opt.raw} {ppn_opt.value}` puts {launch.ppn} processes on each node, but the job"
                f" asks for `--ntasks-per-node={geom.tasks_per_node}`"
                + (f" with `--cpus-per-task={cpt}` ({geom.tasks_per_node * cpt} CPUs per node)" if cpt > 1 else "")
                + ": MPI refuses or oversubscribes",
            )
            continue
        if repeated(launch):
            continue
        gpus = geom.gpus_total
        if np is None:
            # Without -np MPI starts one process per Slurm task.
            python = launch.inner is not None and launch.inner.kind == LaunchKind.PYTHON
            if tasks is not None and gpus and not devices and tasks < gpus and python \
                    and launch.kind == LaunchKind.MPIRUN and launch.ppn is None:
                ctx.report(
                    "SB313", launch.command_span,
                    f"`{name}` starts one process per Slurm task, {tasks} here, for the job's {gpus}"
                    f" GPUs: {idle(gpus - tasks)}. Ask for one task per GPU"
                    f" (`--ntasks-per-node` = GPUs per node)",
                    notes=task_note(geom) + gpu_note(geom),
                )
            continue
        if gpus and not devices and np < gpus:
            ctx.report(
                "SB313", opt.span,
                f"`{name} {opt.raw} {np}` starts {np} processes for the job's {gpus} GPUs:"
                f" {idle(gpus - np)}. Horovod and MPI-based training expect one process per GPU",
                notes=gpu_note(geom),
            )
        elif not gpus and tasks is not None and np < tasks and len(mpi) == 1 and len(nps) == 1:
            # Idle CPUs only, and possibly on purpose: advice.
            ctx.report(
                "SB313", opt.span,
                f"`{name} {opt.raw} {np}` uses {np} of the {tasks} tasks the job asks for; the rest"
                f" of the allocation stays idle. Request `--ntasks={np}` or drop `{opt.raw}`",
                severity=Severity.INFO, outcome=Outcome.ADVICE, notes=task_note(geom),
            )


def _cpus(tasks: int, cpus_per_task: int) -> str:
    """``the 8 tasks`` / ``the 512 CPUs (256 tasks x 2 CPUs each)``: what MPI may place ranks on."""
    if cpus_per_task == 1:
        return f"the {tasks} tasks"
    return f"the {tasks * cpus_per_task} CPUs ({tasks} tasks x {cpus_per_task} CPUs each)"
