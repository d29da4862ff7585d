"""The job model (slurmspec/model/job.py) keeps the launch rules' numbers, and knows launchers, wrappers, tasks.

1. Against the launch rules' former geometry model (``legacy_geometry.py``, a verbatim
   copy): on every corpus script and every rule fixture, at 22.05 and at the newest
   release, each component's and each ``srun`` step's nodes, tasks, tasks per node,
   GPUs per node and in total and CPUs per task equal the old numbers wherever the
   old model knew them, except the deliberate differences of ``_deliberate()``, each
   found on real Slurm 22.05 (tests/model/test_job_model_slurm.py keeps the cases).
2. Small cases for what the old model never knew: processes per launcher, wrappers,
   the batch step, hetjob components, SRUN_CPUS_PER_TASK, tasks and their GPUs.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from slurmspec import parse
from slurmspec.gates import SRUN_INHERITS_CPUS
from slurmspec.model.job import job_model
from slurmspec.version import NEWEST, parse_version
from tests.corpus import corpus_files
from tests.model import legacy_geometry as old

FIXTURES = sorted((Path(__file__).resolve().parents[1] / "rules" / "fixtures").glob("*/*.sbatch"))
FIELDS = ("nodes", "tasks", "tasks_per_node", "gpus_per_node", "gpus_total", "cpus_per_task")
VERSIONS = (parse_version("22.05"), NEWEST)


def _deliberate(field: str, srun, step, comp, version) -> str | None:
    """Why the job model differs from the old one here, or None when it must not."""
    if srun is None:
        return None
    if field == "cpus_per_task" and version < SRUN_INHERITS_CPUS and not srun.has("cpus-per-task"):
        return "22.05/23.02 srun does not inherit the job's -c (the old model copied it)"
    if field in ("tasks", "tasks_per_node") and srun.has("ntasks-per-node") and not srun.has("ntasks") \
            and comp.ntasks_exported:
        return "srun --ntasks-per-node alone keeps the job's SLURM_NTASKS (and ignores the per-node count)"
    if field in ("tasks", "tasks_per_node") and step.cpus_explicit and not comp.tasks_explicit:
        return "no task count in the job: srun with CPUs per task starts CPUs / -c tasks per node"
    return None


def _differences(paths) -> tuple[int, Counter, list[str]]:
    compared, deliberate, wrong = 0, Counter(), []
    for path in paths:
        data = path.read_bytes()
        for version in VERSIONS:
            script = parse(data, str(path), version=version)
            model = job_model(script)
            for launch, srun in old.launch_steps(script):
                before = old.step_geometry(script, srun)
                if srun is None:
                    after, step = model.component(0), None
                else:
                    step = model.step_of(launch)
                    if before is None:  # several hetjob components or a variable --het-group
                        assert step is None or step.component is None, (path, launch.span.line)
                        continue
                    assert step is not None and step.srun is srun, (path, launch.span.line)
                    after = step
                compared += 1
                comp = model.component(step.component if step is not None else 0)
                for field in FIELDS:
                    was, now = getattr(before, field), getattr(after, field)
                    if was is None or was == now:
                        continue
                    why = _deliberate(field, srun, step, comp, version)
                    if why:
                        deliberate[why] += 1
                    else:
                        wrong.append(f"{path.name}:{launch.span.line} ({version}) {field}: old {was}, model {now}")
                if srun is None:
                    assert before.tasks_explicit == after.tasks_explicit, (path, launch.span.line)
    return compared, deliberate, wrong


@pytest.mark.parametrize("where", ["fixtures", "corpus"])
def test_job_model_keeps_the_old_numbers(where):
    paths = FIXTURES if where == "fixtures" else corpus_files()
    compared, deliberate, wrong = _differences(paths)
    print(f"\n{where}: {compared} steps compared; deliberate differences: {dict(deliberate)}")
    assert compared > 100
    assert wrong == []


# -- what the old model did not know --------------------------------------------------------


def _model(body: str, version: str = "22.05"):
    return job_model(parse("#!/bin/bash\n" + body, "job.sbatch", version=version))


def test_model_is_cached_per_script():
    script = parse("#!/bin/bash\n#SBATCH -n 2\nsrun hostname\n", "job.sbatch")
    assert job_model(script) is job_model(script)


def test_processes_through_wrappers_and_launchers():
    model = _model(
        "#SBATCH --nodes=2 --ntasks-per-node=1 --gpus-per-node=4\n"
        "srun apptainer exec img.sif bash -c 'torchrun --nproc-per-node=gpu train.py'\n"
        "srun torchrun --nproc_per_node=4 train.py\n"
        "srun accelerate launch --num_processes 8 --num_machines 2 train.py\n"
        "srun torchrun train.py\n"
        "python train.py\n"
    )
    wrapped, literal, accelerate, default, batch = model.steps
    assert (wrapped.tasks, wrapped.gpus_per_task, wrapped.processes_per_task, wrapped.processes) == (2, 4, 4, 8)
    assert wrapped.spawner.kind == "torchrun" and wrapped.processes_per_node == 4
    assert (literal.processes, accelerate.processes, default.processes) == (8, 8, 2)
    assert batch.in_batch and (batch.nodes, batch.tasks, batch.gpus_per_task, batch.processes) == (1, 1, 4, 1)


def test_tasks_ranks_and_gpus():
    model = _model("#SBATCH --nodes=2 --ntasks-per-node=2 --gpus-per-task=1\nsrun python train.py\n"
                   "srun -m cyclic python train.py\n")
    block, cyclic = model.steps
    assert [(t.rank, t.local_rank, t.node, t.gpus) for t in block.task_list] == [
        (0, 0, 0, (0,)), (1, 1, 0, (1,)), (2, 0, 1, (0,)), (3, 1, 1, (1,))]
    assert [(t.node, t.local_rank) for t in cyclic.task_list] == [(0, 0), (1, 0), (0, 1), (1, 1)]
    every = _model("#SBATCH -N 1 -n 2 --gres=gpu:2\nsrun python train.py\n").steps[0]
    assert [t.gpus for t in every.task_list] == [(0, 1), (0, 1)]


def test_unknown_stays_unknown():
    model = _model("#SBATCH -n 4 --gres=gpu:4\nsrun -n $N python a.py\nCUDA_VISIBLE_DEVICES=0 srun python b.py\n")
    variable, devices = model.steps
    assert (variable.tasks, variable.task_list, variable.processes) == (None, None, None)
    assert model.component(0).nodes is None  # -n 4 alone may spread over nodes
    assert devices.task_list is None and devices.gpus_per_task is None


@pytest.mark.parametrize(("version", "exports", "expected"), [
    ("22.05", "", 1),
    ("22.05", "export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK\n", 8),
    ("22.05", "export SRUN_CPUS_PER_TASK=4\n", 4),
    ("22.05", "if [ -n \"$X\" ]; then export SRUN_CPUS_PER_TASK=4; fi\n", None),
    ("23.02", "", 1),
    ("23.11", "", 8),
    ("23.11", "export SLURM_CPUS_PER_TASK=2\n", 2),
])
def test_srun_cpus_per_task_by_version(version, exports, expected):
    step = _model(f"#SBATCH -N 1 -n 1 -c 8\n{exports}srun python a.py\n", version).steps[-1]
    assert step.cpus_per_task == expected


def test_hetjob_components_and_het_group():
    model = _model("#SBATCH -N 1 -n 1\n#SBATCH hetjob\n#SBATCH -N 2 --ntasks-per-node=4\n"
                   "srun --het-group=1 ./a\nsrun --het-group=0,1 ./b\nsrun ./c\n")
    one, both, default = model.steps
    assert (one.component, one.tasks, one.tasks_per_node) == (1, 8, 4)
    assert both.component is None and both.tasks is None
    assert (default.component, default.tasks) == (0, 1)


def test_step_that_cannot_fit():
    model = _model("#SBATCH -N 1 -n 1 -c 2\nsrun -n 2 ./a\nexport SRUN_CPUS_PER_TASK=2\nsrun -n 2 ./a\n"
                   "srun --gres=gpu:1 ./a\n")
    assert [s.fits for s in model.steps] == [True, False, False]


def test_mpirun_from_the_batch_script():
    step = _model("#SBATCH -N 2 --ntasks-per-node=4\nmpirun -np 8 ./a\n").steps[0]
    assert step.in_batch and (step.nodes, step.processes, step.task_list) == (2, 8, None)
