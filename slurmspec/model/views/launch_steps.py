"""The steps the body's launchers start, as the launch rules compare them with the allocation.

Read from the job model (``slurmspec/model/job/model.py``): every launch with the ``srun``
that starts it (``steps``); the shape of a step (``step_geometry``: its component's
record, ``Component``, with the counts the step's own ``srun`` options give it --
nodes, tasks, GPUs, ``-c``; ``None`` is the job itself, its first component); the
launcher steps SB301–SB306 compare (``launcher_steps``) and the ``python`` steps
SB310–SB312 compare (``python_steps``). Every number is ``None`` when the model does
not know it. Computed once per script through ``ctx.shared``.

Shared conventions: a script that sets ``CUDA_VISIBLE_DEVICES`` (or the ROCm
equivalents) itself chose its devices (``sets_devices``), so the GPU-count rules stay
silent; launches inside a loop or sent to the background are usually one of several
concurrent steps sharing the allocation (``repeated``), so the "GPUs idle" rules skip them.
"""

from __future__ import annotations

import attrs

from slurmspec.body.model import Launch
from slurmspec.body.typed import as_int
from slurmspec.body.wrappers import basename
from slurmspec.frozen import frozen
from slurmspec.kinds import LaunchKind
from slurmspec.model.job.model import job_model_of
from slurmspec.model.job.gpus import COUNT_OPTIONS
from slurmspec.model.job.types import Component
from slurmspec.model.views.run import LintRun
from slurmspec.model.views.values import node_count

_DEVICE_VARS = frozenset({"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                          "ZE_AFFINITY_MASK", "GPU_DEVICE_ORDINAL"})
_LOOPS = frozenset({"for", "while", "until"})
_LAUNCHERS = (LaunchKind.TORCHRUN, LaunchKind.ACCELERATE, LaunchKind.DEEPSPEED)
_SHAPE = ("nodes", "ntasks", "ntasks-per-node", "tasks-per-node")
# python -m modules that are tools, not the job's work.
_TOOL_MODULES = frozenset({"pip", "venv", "ensurepip", "site", "http.server", "json.tool", "pip3",
                           "virtualenv", "ipykernel", "jupyter", "notebook", "nvitop", "gpustat",
                           "compileall", "pdb", "cProfile", "timeit", "wandb", "tensorboard"})


def steps(ctx: LintRun) -> tuple[tuple[Launch, Launch | None], ...]:
    """Every launch with the ``srun`` that starts it (or None), in file order."""
    return ctx.shared(_steps)


def _steps(ctx: LintRun) -> tuple[tuple[Launch, Launch | None], ...]:
    found = []
    for top in ctx.script.body.launches:
        srun = None
        for launch in top.walk():
            found.append((launch, srun))
            if launch.kind == LaunchKind.SRUN:
                srun = launch
    return tuple(found)


def step_geometry(ctx: LintRun, srun: Launch | None) -> Component | None:
    """The shape of the step ``srun`` starts (of the job for None), from the job model.

    None when the srun line points at several hetjob components or at one given by a
    variable, when it is a heterogeneous step (``srun A : B``), or when it is not the srun
    that starts its statement's tasks.
    """
    memo = ctx.shared(_geometries)
    try:
        return memo[id(srun)][1]
    except KeyError:
        geom = _step_geometry(ctx, srun)
        memo[id(srun)] = (srun, geom)  # keeps `srun` alive, so its id is not reused
        return geom


def _geometries(ctx: LintRun) -> dict[int, tuple[Launch | None, Component | None]]:
    return {}


def _step_geometry(ctx: LintRun, srun: Launch | None) -> Component | None:
    model = ctx.shared(job_model_of)
    if srun is None:
        comp = model.component(0)
        return Component(0) if comp is None else comp
    if srun.heterogeneous_step:
        return None  # `srun -n 1 A : -n 15 B`: one step of several components, each its own shape
    step = model.step_of(srun)
    if step is None or step.srun is not srun or step.component is None:
        return None
    job = model.component(step.component)
    reshaped = any(srun.has(name) for name in _SHAPE)
    cpt, cpt_given = job.cpus_per_task, job.cpus_per_task_given
    if srun.has("cpus-per-task"):
        cpt, cpt_given = as_int(srun.value("cpus-per-task")), True
    return attrs.evolve(
        job, nodes=step.nodes, tasks=step.tasks, tasks_per_node=step.tasks_per_node,
        tasks_explicit=job.tasks_explicit or reshaped, gpus_per_node=step.gpus_per_node,
        gpus_total=step.gpus_total, cpus_per_task=cpt, cpus_per_task_given=cpt_given, task_source=step.task_source,
        # A lone `srun --gpu-bind` splits the job's GPUs: their count still comes from the job.
        gpu_source=step.gpu_source if any(srun.has(n) for n in COUNT_OPTIONS) else job.gpu_source,
    )


def job_geometry(ctx: LintRun) -> Component:
    """The shape of the job (its first component)."""
    return step_geometry(ctx, None)


def sets_devices(ctx: LintRun) -> bool:
    """The script picks its GPUs itself (``CUDA_VISIBLE_DEVICES`` and the like)."""
    return ctx.shared(_sets_devices)


def _sets_devices(ctx: LintRun) -> bool:
    script = ctx.script
    if any(a.name in _DEVICE_VARS for a in script.body.exports):
        return True
    return any(a.name in _DEVICE_VARS for launch in script.body.all_launches() for a in launch.env)


@frozen
class LauncherStep:
    """A ``torchrun``/``accelerate launch``/``deepspeed`` launch and the step it runs in."""

    launch: Launch
    srun: Launch | None
    geom: Component
    name: str  # as messages call it: `torchrun`, `python -m torch.distributed.launch`
    # The job's nodes (2 or more) when the launcher runs in the batch script itself,
    # so on the first node only (SB302); the other launcher rules then skip it.
    first_node_only: int | None


def launcher_steps(ctx: LintRun) -> tuple[LauncherStep, ...]:
    """The launcher steps SB301–SB306 compare with the allocation (not those under mpirun/horovodrun)."""
    return ctx.shared(_launcher_steps)


def _launcher_steps(ctx: LintRun) -> tuple[LauncherStep, ...]:
    found = []
    for launch, srun in steps(ctx):
        if launch.kind not in _LAUNCHERS:
            continue
        if any(k in (LaunchKind.MPIRUN, LaunchKind.HOROVODRUN) for k in launch.outer):
            continue
        geom = step_geometry(ctx, srun)
        if geom is None:
            continue
        nodes = None
        if srun is None and launch.kind != LaunchKind.DEEPSPEED and not launch.outer:
            nodes = _job_nodes_min(ctx.script)
            if nodes is not None and nodes < 2:
                nodes = None
        found.append(LauncherStep(launch, srun, geom, launcher_name(launch), nodes))
    return tuple(found)


def python_steps(ctx: LintRun) -> tuple[tuple[Launch, Launch | None, Component], ...]:
    """The ``python`` work (a script or module) run directly or by one ``srun``, with its step's geometry.

    Empty when the script chooses its GPUs itself (SB310–SB312 then stay silent).
    """
    return ctx.shared(_python_steps)


def _python_steps(ctx: LintRun) -> tuple[tuple[Launch, Launch | None, Component], ...]:
    if sets_devices(ctx):
        return ()
    found = []
    for launch, srun in steps(ctx):
        if not _is_work(launch) or launch.outer not in ((), (LaunchKind.SRUN,)):
            continue
        geom = step_geometry(ctx, srun)
        if geom is None:
            continue
        found.append((launch, srun, geom))
    return tuple(found)


def _is_work(launch: Launch) -> bool:
    """A ``python`` launch that runs a script or module (not ``-c``, pip, venv...)."""
    if launch.kind != LaunchKind.PYTHON or not launch.program:
        return False
    program = launch.program
    if launch.has("module"):
        return program.split(".")[0] not in _TOOL_MODULES and program not in _TOOL_MODULES
    return program.endswith(".py") or "/" in program or program.startswith("$")


def _job_nodes_min(script, component: int = 0) -> int | None:
    try:
        setting = script.components[component].request.get("nodes")
    except (IndexError, AttributeError):
        return None
    value = node_count(setting)
    return None if value is None else value.minimum


def assigns(ctx: LintRun, *names: str) -> bool:
    """The script sets one of ``names`` (``export``, an assignment, or on a launch line)."""
    assigned = ctx.shared(_assigned)  # once per script: rules ask per launch and per variable
    return any(name in assigned for name in names)


def _assigned(ctx: LintRun) -> frozenset[str]:
    body = ctx.script.body
    return frozenset(a.name for a in body.exports) | frozenset(
        a.name for launch in body.all_launches() for a in launch.env)


def repeated(launch: Launch) -> bool:
    """In a loop or in the background: probably one of several concurrent steps."""
    return launch.backgrounded or bool(_LOOPS.intersection(launch.context))


def launcher_name(launch: Launch) -> str:
    """How a launcher is called in messages: `torchrun`, `python -m torch.distributed.launch`."""
    if launch.entry:
        return f"python -m {launch.entry}"
    if launch.kind == LaunchKind.ACCELERATE:
        return "accelerate launch"
    return basename(launch.command) or launch.kind
