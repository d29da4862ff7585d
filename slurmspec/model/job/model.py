"""One model of what a batch job will do: its components, its steps, and every task of each step.

``job_model(script)`` is computed once per parsed ``Script`` and cached; rules
read it through ``ctx.shared(job_model_of)`` (or call ``job_model(ctx.script)``).

- A **component** (``components.py``) is what one hetjob component asks for:
  nodes, tasks, tasks per node, CPUs per task and per node, GPUs per node, in
  total and per task, and whether the task count was given.
- A **step** (``steps.py``) is one launch statement of the body (looked
  through ``exec``/containers/``bash -c``): its shape after its own ``srun``
  options, the CPUs each task is laid out with (version-aware: 22.05 and 23.02
  ``srun`` do not inherit ``-c``), the GPUs it holds, how many processes the
  launcher starts (srun tasks × what ``torchrun``/``accelerate``/``deepspeed``/
  ``mpirun`` spawn in each), and, when the counts are known and small, every task
  with its rank, local rank, node index and the GPUs it sees (``gpus.py``).

Every number is ``None`` when it cannot be known from literal values: the
model never guesses. ``tests/model/test_job_model_slurm.py`` runs generated jobs
on a real Slurm and compares each task with the model.
"""

from __future__ import annotations

from slurmspec.model.job.components import component
from slurmspec.model.job.steps import build_step
from slurmspec.model.job.types import Component, GpuBind, JobModel, Step, Task
from slurmspec.model.syntax.memo import per_script

__all__ = ["job_model", "job_model_of", "JobModel", "Component", "Step", "Task", "GpuBind"]


@per_script
def job_model(script) -> JobModel:
    """The model of ``script`` (cached for as long as the script object lives)."""
    return _build(script)


def job_model_of(ctx) -> JobModel:
    """For ``ctx.shared(job_model_of)`` in rules."""
    return job_model(ctx.script)


def _build(script) -> JobModel:
    # O(components + launches): a component per hetjob component, a step per launch statement
    # (each through its chain, with the per-script environment index), and JobModel indexes the
    # steps by launch so ``step_of`` is O(1).
    comps = tuple(component(c.index, c.request, script.version) for c in script.components)
    if not comps:
        return JobModel((), ())
    steps = tuple(build_step(script, script.version, comps, top) for top in script.body.launches)
    return JobModel(comps, steps)
