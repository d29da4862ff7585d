"""The unsafe fix of SB310 and SB311: one task per GPU, only when the result asks for no more CPUs.

``set_tasks_per_node`` (``_fixes.py``) edits the task count; this wrapper decides
whether that edit may be offered and keeps the CPUs in step with it:

- a header edit (``--ntasks-per-node``, or ``--ntasks`` turned into it) keeps
  the CPUs per node the job asked for: ``--cpus-per-task`` becomes
  (tasks per node x CPUs per task) / new tasks per node, e.g. 1 task x 64 CPUs
  -> 8 tasks x 8 CPUs. When that does not divide, fewer tasks keep their
  ``-c`` (fewer CPUs, never more), more tasks get no fix; without ``-c`` (one
  CPU per task) more tasks would ask for more CPUs, so no fix either, unless
  ``--cpus-per-gpu`` fixes the CPUs per node whatever the task count.
- an ``srun --ntasks-per-node`` edit leaves the request alone; the step must
  still fit in it: new tasks x the step's CPUs per task (srun inherits ``-c``
  from 23.11, `SRUN_INHERITS_CPUS`) at most the job's CPUs per node.

Options that shape tasks some other way (``--ntasks-per-socket``,
``--gpus-per-task``, ``-B``, ``--distribution``, a node list...), ``-c`` on the
``srun`` line, or ``--mem-per-cpu`` where the CPU count would change: no fix.
"""

from __future__ import annotations

from slurmspec.fix.build import make_fix, replace
from slurmspec.fix.edit import Fix
from slurmspec.gates import SRUN_INHERITS_CPUS
from slurmspec.kinds import Applicability
from slurmspec.check.context import Context
from slurmspec.model.views.launch_steps import job_geometry
from slurmspec.rules.launch._fixes import set_tasks_per_node

_TASKS_PER_NODE = ("ntasks-per-node", "tasks-per-node")
# Header options that place tasks some other way: the new count may clash with them.
_SHAPING = ("ntasks-per-socket", "ntasks-per-core", "ntasks-per-gpu", "gpus-per-task", "gpus-per-socket",
            "tres-per-task", "extra-node-info", "sockets-per-node", "cores-per-socket", "threads-per-core",
            "distribution", "nodelist", "nodefile", "use-min-nodes", "overcommit", "spread-job")
_SRUN_SHAPING = ("cpus-per-task", "ntasks-per-socket", "ntasks-per-core", "ntasks-per-gpu", "gpus-per-task",
                 "distribution", "relative", "overcommit", "nodelist", "tres-per-task")


def one_task_per_gpu(ctx: Context, srun, count: int, why: str) -> Fix | None:
    """SB310/SB311: ``count`` tasks per node with no more CPUs per node than asked, else None."""
    script = ctx.script
    if srun is None or len(script.components) != 1:
        return None
    options = srun.options
    if any(o.name in _SRUN_SHAPING for o in options):
        return None
    base = set_tasks_per_node(script, srun, count, why)
    if base is None:
        return None
    job = job_geometry(ctx)
    request = script.components[0].request
    if any(request.get(name) is not None for name in _SHAPING):
        return None
    if any(o.name in _TASKS_PER_NODE for o in options):
        return base if _step_fits(ctx, job, count) else None
    return _header_fix(script, request, job, count, base)


def _job_cpus_per_node(job) -> int | None:
    if job.cpus_per_gpu and job.gpus_per_node and job.cpus_per_task_asked is None:
        return job.cpus_per_gpu * job.gpus_per_node
    if job.tasks_per_node is None:
        return None
    return job.tasks_per_node * (job.cpus_per_task_asked or 1)


def _step_fits(ctx: Context, job, count: int) -> bool:
    """The edited step still fits in the job's CPUs per node (the request is not edited)."""
    cpus = _job_cpus_per_node(job)
    if cpus is None:
        return False
    inherited = job.cpus_per_task_asked if job.cpus_per_task_asked and ctx.version >= SRUN_INHERITS_CPUS else 1
    return count * inherited <= cpus


def _header_fix(script, request, job, count: int, base: Fix) -> Fix | None:
    tasks, cpt = job.tasks_per_node, job.cpus_per_task_asked
    if tasks is None or job.nodes is None:
        return None
    if job.cpus_per_gpu and cpt is None:
        return base if job.gpus_per_node and job.cpus_per_gpu * job.gpus_per_node >= count else None
    mem_per_cpu = request.get("mem-per-cpu") is not None
    if cpt is None:
        # One CPU per task: more tasks ask for more CPUs; fewer keep asking for one each.
        return base if count <= tasks and not mem_per_cpu else None
    setting = request.get("cpus-per-task")
    if setting is None or setting.inherited or setting.directive.value_span is None:
        return None
    total = tasks * cpt
    if total % count == 0:
        new = total // count
        if new == cpt:
            return base
        span = setting.directive.value_span
        title = f"{base.title[:-1]}, {new} CPUs each)" if base.title.endswith(")") else base.title
        return make_fix(title, [*base.edits, replace(script, span.start, span.end, str(new))], Applicability.UNSAFE)
    return base if count < tasks and not mem_per_cpu else None
