"""The job model (slurmspec/model/job/model.py): its numbers hold together, and agree with what real Slurm does.

1. On every corpus script and rule fixture, at 22.05 and at the newest release, and on
   generated scripts (Hypothesis, ``strategies.geometry_scripts``): the counts of each
   component and step are consistent with each other (tasks = nodes x tasks per node,
   a task list of ranks 0..n-1 with local ranks 0..k-1 on each node and GPUs among the
   step's, processes = tasks x processes per task, the batch step is one task on one
   node, a step that fits holds no more nodes or GPUs per node than its component).
2. Cases real Slurm answered (``tests/model/jobgen.py:FIXED``, run again on Slurm 22.05 and
   24.11 by tests/model/test_job_model_slurm.py), spelt out here.
3. Small cases for processes per launcher, wrappers, the batch step, hetjob components,
   SRUN_CPUS_PER_TASK, tasks and their GPUs.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slurmspec import parse
from slurmspec.kinds import LaunchKind
from slurmspec.model.job.model import JobModel, job_model
from slurmspec.version import NEWEST, parse_version
from tests.corpus import corpus_files
from tests.strategies import geometry_scripts

FIXTURES = sorted((Path(__file__).resolve().parents[1] / "rules" / "fixtures").glob("*/*.sbatch"))
VERSIONS = (parse_version("22.05"), NEWEST)
# mpirun/horovodrun in the batch script spread their own processes over the job's nodes.
_SPREADING = (LaunchKind.MPIRUN, LaunchKind.HOROVODRUN)


def _inconsistencies(model: JobModel) -> list[str]:
    """What in ``model`` contradicts its own numbers (every number compared only when known)."""
    found = []
    for c in model.components:
        if None not in (c.nodes, c.tasks_per_node, c.tasks) and c.tasks != c.nodes * c.tasks_per_node:
            found.append(f"component {c.index}: {c.tasks} tasks on {c.nodes} x {c.tasks_per_node}")
        if None not in (c.tasks_per_node, c.cpus_per_task, c.cpus_per_node) \
                and c.cpus_per_node != c.tasks_per_node * c.cpus_per_task:
            found.append(f"component {c.index}: {c.cpus_per_node} CPUs per node")
        if None not in (c.nodes, c.tasks) and c.tasks < c.nodes:
            found.append(f"component {c.index}: fewer tasks than nodes")
    for step in model.steps:
        line = step.launch.span.line
        comp = model.component(step.component) if step.component is not None else None
        # Not followed (left for the model's owner): `srun -n 4 --ntasks-per-node=1` in a 2-node job (or the
        # -n srun reads back from the job's SLURM_NTASKS), where --ntasks-per-node is only a maximum next to
        # -n (`man srun`); the model keeps both counts as given.
        capped = step.srun is not None and step.srun.has("ntasks-per-node") and (
            step.srun.has("ntasks") or (comp is not None and comp.ntasks_exported))
        if None not in (step.nodes, step.tasks_per_node, step.tasks) and not capped \
                and step.tasks != step.nodes * step.tasks_per_node:
            found.append(f"line {line}: {step.tasks} tasks on {step.nodes} x {step.tasks_per_node}")
        if None not in (step.processes, step.processes_per_task, step.tasks) \
                and step.processes != step.processes_per_task * step.tasks:
            found.append(f"line {line}: {step.processes} processes")
        if None not in (step.nodes, step.gpus_per_node, step.gpus_total) \
                and step.gpus_total != step.nodes * step.gpus_per_node:
            found.append(f"line {line}: {step.gpus_total} GPUs on {step.nodes} x {step.gpus_per_node}")
        if step.cpus_per_task is not None and step.cpus_per_task < 1:
            found.append(f"line {line}: {step.cpus_per_task} CPUs per task")
        if step.in_batch and (step.spawner is None or step.spawner.kind not in _SPREADING) \
                and (step.tasks, step.nodes) != (1, 1):
            found.append(f"line {line}: a batch step of {step.tasks} tasks on {step.nodes} nodes")
        if comp is not None and step.fits and not step.in_batch:
            if None not in (step.nodes, comp.nodes) and step.nodes > comp.nodes:
                found.append(f"line {line}: fits, on more nodes than the job")
            if None not in (step.gpus_per_node, comp.gpus_per_node) and step.gpus_per_node > comp.gpus_per_node:
                found.append(f"line {line}: fits, with more GPUs per node than the job")
        found += [f"line {line}: {problem}" for problem in _task_list_problems(step)]
    return found


def _task_list_problems(step) -> list[str]:
    tasks = step.task_list
    if tasks is None:
        return []
    problems = []
    if len(tasks) != step.tasks or [t.rank for t in tasks] != list(range(len(tasks))):
        problems.append(f"ranks {[t.rank for t in tasks]} for {step.tasks} tasks")
    per_node = Counter(t.node for t in tasks)
    if step.nodes is not None and not set(per_node) <= set(range(step.nodes)):
        problems.append(f"tasks on nodes {sorted(per_node)} of {step.nodes}")
    for node, count in per_node.items():
        if sorted(t.local_rank for t in tasks if t.node == node) != list(range(count)):
            problems.append(f"local ranks of node {node}")
    if step.gpus_per_node is not None and any(
            g < 0 or g >= step.gpus_per_node for t in tasks for g in t.gpus or ()):
        problems.append(f"a task sees a GPU beyond the step's {step.gpus_per_node} per node")
    return problems


@pytest.mark.parametrize("where", ["fixtures", "corpus"])
def test_the_model_holds_together_on_every_real_script(where):
    paths = FIXTURES if where == "fixtures" else corpus_files()
    wrong, steps = [], 0
    for path in paths:
        data = path.read_bytes()
        for version in VERSIONS:
            model = job_model(parse(data, str(path), version=version))
            steps += len(model.steps)
            wrong += [f"{path.name} ({version}) {problem}" for problem in _inconsistencies(model)]
    assert steps > 100
    assert wrong == []


@settings(max_examples=300, deadline=None)
@given(text=geometry_scripts(), newest=st.booleans())
def test_the_model_holds_together_on_generated_scripts(text, newest):
    model = job_model(parse(text, "job.sbatch", version=NEWEST if newest else VERSIONS[0]))
    assert _inconsistencies(model) == []


def test_an_inconsistent_model_is_caught():
    """The checks above can fail: a component of 3 tasks on 2 nodes of 2, a batch step of 2 tasks."""
    model = _model("#SBATCH -N 2 --ntasks-per-node=2\npython train.py\n")
    broken = JobModel((attrs.evolve(model.components[0], tasks=3),), (attrs.evolve(model.steps[0], tasks=2),))
    found = _inconsistencies(broken)
    assert "component 0: 3 tasks on 2 x 2" in found and "line 3: a batch step of 2 tasks on 1 nodes" in found
    assert _inconsistencies(model) == []


# -- what real Slurm did (tests/model/jobgen.py:FIXED, on a node of 2 CPUs and 2 GPUs) --------------


@pytest.mark.parametrize("version", ["22.05", "24.11"])
def test_srun_ntasks_per_node_alone_keeps_the_jobs_task_count(version):
    """The batch script exports SLURM_NTASKS=2, which srun reads back: `--ntasks-per-node=1` alone starts 2."""
    steps = _model("#SBATCH --nodes=1 --ntasks-per-node=2 --gres=gpu:2\nsrun --ntasks-per-node=1 ./a\n",
                   version).steps
    assert (steps[0].nodes, steps[0].tasks, steps[0].tasks_per_node) == (1, 2, 2)


@pytest.mark.parametrize("version", ["22.05", "24.11"])
def test_srun_cpus_per_task_without_a_task_count_fills_the_jobs_cpus(version):
    """No task count in the job: `srun -c 1` starts the job's CPUs (2) / 1 tasks, plain `srun` one."""
    plain, one_cpu = _model("#SBATCH --nodes=1 -c 2\nsrun ./a\nsrun -c 1 ./a\n", version).steps
    assert (plain.tasks, one_cpu.tasks, one_cpu.tasks_per_node, one_cpu.cpus_per_task) == (1, 2, 2, 1)


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
