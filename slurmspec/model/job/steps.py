"""The steps of the job model: one per launch statement of the body, through wrappers.

A statement's chain (``Launch.walk()``: ``srun`` → ``apptainer exec`` → ``bash -c`` →
``torchrun`` → ``python``) gives the ``srun`` that starts the step's tasks, the
launcher that spawns processes in each task, and the work. The step's shape
starts from its component (``--het-group`` picks it) and takes what the ``srun``
line sets itself (`man srun`: ``-N``, ``-n``, ``--ntasks-per-node``, ``-c``, GPUs).

CPUs per task (`man srun`, ``--cpus-per-task``): on 22.05 and 23.02 ``srun`` does
not inherit the job's ``-c``; it reads ``SRUN_CPUS_PER_TASK`` only. From 23.11
(``SRUN_INHERITS_CPUS``) it reads ``SLURM_CPUS_PER_TASK`` (the job's ``-c``, or what
the script exported). Without either a task is laid out with 1 CPU.
"""

from __future__ import annotations

import attrs

from slurmspec.body.model import Launch
from slurmspec.body.typed import as_int
from slurmspec.gates import SRUN_INHERITS_CPUS, SRUN_NODES_DROP_JOB_NTASKS, STEP_GRES_NOT_CAPPED_PER_OPTION
from slurmspec.kinds import LaunchKind
from slurmspec.model.job import gpus
from slurmspec.model.job.env import device_vars_set, env_value, sets_variable
from slurmspec.model.job.types import Component, Step, Task

_SPAWNERS = (LaunchKind.TORCHRUN, LaunchKind.ACCELERATE, LaunchKind.DEEPSPEED, LaunchKind.MPIRUN,
             LaunchKind.HOROVODRUN)
_SHAPE = ("nodes", "ntasks", "ntasks-per-node")
MAX_TASKS = 256  # per-task lists are built up to this many tasks


def _literal(launch: Launch, *names: str) -> tuple[bool, int | None]:
    """(given, value) of the last of ``names`` on a launch line; value None unless a literal."""
    for opt in reversed(launch.options):
        if opt.name in names:
            return True, as_int(opt.value)
    return False, None


def _describe(options) -> str:
    out = []
    for o in options:
        if o.value is None:
            out.append(o.raw)
        else:
            out.append(f"{o.raw}={o.value}" if o.raw.startswith("--") else f"{o.raw} {o.value}")
    return " ".join(out)


def component_of(script, srun: Launch | None) -> int | None:
    """The hetjob component a step runs in; None for several or a variable."""
    if srun is None:
        return 0
    given, group = _literal(srun, "het-group")
    if not given:
        return 0
    if group is None or group >= len(script.components):
        return None
    return group


def build_step(script, version, comp_list: tuple[Component, ...], top: Launch) -> Step:
    chain = list(top.walk())
    srun = next((l for l in chain if l.kind == LaunchKind.SRUN), None)
    after = chain[chain.index(srun) + 1:] if srun is not None else chain
    spawner = next((l for l in after if l.kind in _SPAWNERS), None)
    work = chain[-1]
    index = component_of(script, srun)
    if index is None:
        return Step(top, srun, work, spawner, None)
    comp = comp_list[index]
    if srun is None:
        step = _batch_step(top, work, spawner, comp)
    else:
        step = _srun_step(script, version, top, srun, work, spawner, comp)
    return _with_tasks(script, step, comp)


def _batch_step(top, work, spawner, comp: Component) -> Step:
    """The statement runs in the batch script: one task on the first node, with its CPUs and GPUs."""
    if spawner is not None and spawner.kind in (LaunchKind.MPIRUN, LaunchKind.HOROVODRUN):
        # mpirun/horovodrun spread their processes over the job's nodes themselves.
        np = spawner.np
        if np is None and spawner.option("np") is None and comp.tasks_explicit:
            np = comp.tasks  # one process per Slurm task (Open MPI slots, hydra's Slurm support)
        per_node = spawner.ppn if spawner.ppn is not None else (np if comp.nodes == 1 else None)
        return Step(top, None, work, spawner, comp.index, comp.nodes, None, None, None, False,
                    comp.gpus_per_node, comp.gpus_total, None, None, None, np, per_node,
                    gpu_source=comp.gpu_source, task_source=comp.task_source, node_source=comp.node_source)
    gpn = comp.gpus_per_node
    return Step(top, None, work, spawner, comp.index, 1, 1, 1, comp.cpus_per_node, False,
                gpn, gpn, gpn, None, gpu_source=comp.gpu_source)


def _by_cpus(comp: Component, cpt: int | None) -> int | None:
    """Tasks per node srun starts when the job gave no task count but the step asks for CPUs per task.

    22.05: in a `-N 1 -c 2` job `srun -c 1` (or `SRUN_CPUS_PER_TASK=1`) started 2 tasks, plain `srun` 1.
    """
    if cpt is None or comp.cpus_per_node is None or cpt <= 0:
        return None
    return comp.cpus_per_node // cpt or None


def _shape(srun: Launch, comp: Component, cpt: int | None, cpus_explicit: bool, version) -> tuple[
        int | None, int | None, int | None, bool, str]:
    """(nodes, tasks, tasks per node, changed, source) of an srun step."""
    g_nodes, nodes = _literal(srun, "nodes")
    g_n, ntasks = _literal(srun, "ntasks")
    g_tpn, tpn = _literal(srun, "ntasks-per-node", "tasks-per-node")
    by_cpus = not comp.tasks_explicit and cpus_explicit
    if not (g_nodes or g_n or g_tpn):
        if by_cpus:
            per_node = _by_cpus(comp, cpt)
            tasks = per_node * comp.nodes if per_node is not None and comp.nodes is not None else None
            return comp.nodes, tasks, per_node, True, comp.task_source
        return comp.nodes, comp.tasks, comp.tasks_per_node, False, comp.task_source
    source = "`srun " + _describe(o for o in srun.options if o.name in _SHAPE + ("tasks-per-node",)) + "`"
    if not g_nodes:
        nodes = comp.nodes
    tasks = per_node = None
    if (g_n and ntasks is None) or (g_tpn and tpn is None) or (g_nodes and nodes is None):
        pass  # a variable on the srun line: the step's shape is unknown
    elif g_n:
        tasks = ntasks
        if g_tpn:
            per_node = tpn
        elif nodes == 1:
            per_node = tasks
        elif nodes is not None and tasks == nodes:
            per_node = 1
        if not g_nodes and nodes is not None and ntasks < nodes:
            nodes, per_node = ntasks, 1  # srun -n alone never uses more nodes than tasks
    elif g_tpn:
        per_node = tpn
        tasks = tpn * nodes if nodes is not None else None
        if comp.ntasks_exported and tasks != comp.tasks and not (g_nodes and version >= SRUN_NODES_DROP_JOB_NTASKS):
            # srun still reads the job's SLURM_NTASKS and ignores the per-node count ("can't honor
            # --ntasks-per-node set to 1 which doesn't match the requested tasks 2"; 22.05.8 and 24.11.5
            # ran 2 tasks) -- unless, from 24.05, the srun line gives -N itself (24.11.5: 1 task).
            tasks, per_node = comp.tasks, comp.tasks_per_node
    elif comp.per_node_given:  # only -N: srun still reads SLURM_NTASKS_PER_NODE
        per_node = comp.tasks_per_node
        tasks = per_node * nodes if per_node is not None and nodes is not None else None
    elif by_cpus:
        per_node = _by_cpus(comp, cpt)
        tasks = per_node * nodes if per_node is not None else None
    elif not comp.tasks_explicit:
        tasks, per_node = nodes, 1
    return nodes, tasks, per_node, True, source


def _srun_step(script, version, top, srun: Launch, work, spawner, comp: Component) -> Step:
    cpt, explicit = _step_cpus(script, version, srun, comp)
    nodes, tasks, per_node, changed, task_source = _shape(srun, comp, cpt, explicit, version)
    if changed and comp.ntasks_per_gpu is not None and _literal(srun, "ntasks-per-gpu")[0] is False:
        # An exported --ntasks-per-gpu makes srun recompute the task count (22.05: `-n 1` ran 2 tasks).
        nodes = tasks = per_node = None
    inherited = gpus.job_gpu_options(script.components[comp.index].request)
    opts = gpus.srun_gpu_options(srun, inherited, version)
    srun_given = any(o.name in gpus.COUNT_OPTIONS for o in srun.options)
    gpn = gpus.step_gpus_per_node(opts, srun_given, comp.gpus_per_node, nodes, per_node)
    total = gpus.step_gpus_total(opts, srun_given, gpn, nodes, tasks, comp, changed)
    gpu_opts = [o for o in srun.options if o.name in gpus.STEP_OPTIONS]
    gpu_source = f"`srun {_describe(gpu_opts)}`" if gpu_opts else comp.gpu_source
    bind = gpus.step_bind(opts)
    fits = _fits(comp, nodes, per_node, cpt, gpn, opts, srun, version)
    node_source = comp.node_source if not _literal(srun, "nodes")[0] else task_source
    return Step(top, srun, work, spawner, comp.index, nodes, tasks, per_node, cpt, explicit,
                gpn, total, None, bind, fits=fits, gpu_source=gpu_source, task_source=task_source,
                node_source=node_source)


def _resolve_cpus(text: str | None, script, comp: Component) -> int | None:
    """A -c value as written: a literal, or ``$SLURM_CPUS_PER_TASK`` (the job's -c)."""
    n = as_int(text)
    if n is not None:
        return n or None
    if text in ("$SLURM_CPUS_PER_TASK", "${SLURM_CPUS_PER_TASK}") and comp.cpus_per_task_given:
        if not sets_variable(script, "SLURM_CPUS_PER_TASK"):
            return comp.cpus_per_task
    return None


def _step_cpus(script, version, srun: Launch, comp: Component) -> tuple[int | None, bool]:
    """(CPUs per task of an srun step, whether they were asked for rather than defaulted)."""
    given, _ = _literal(srun, "cpus-per-task")
    if given:
        return _resolve_cpus(srun.value("cpus-per-task"), script, comp), True
    if comp.cpus_per_gpu is not None and not comp.cpus_per_task_given:
        return None, False  # srun reads SLURM_CPUS_PER_GPU: the CPUs follow the GPUs
    if version >= SRUN_INHERITS_CPUS:
        srun_env = env_value(script, srun, "SRUN_CPUS_PER_TASK")
        known, value = env_value(script, srun, "SLURM_CPUS_PER_TASK")
        if srun_env != (True, None) or not known:
            return None, False  # which of the two 23.11+ reads is not certain here
        if value is not None:
            return _resolve_cpus(value, script, comp), True
        return comp.cpus_per_task, comp.cpus_per_task_given
    known, value = env_value(script, srun, "SRUN_CPUS_PER_TASK")
    if not known:
        return None, False
    if value is None:
        return 1, False
    return _resolve_cpus(value, script, comp), True


def _fits(comp: Component, nodes, per_node, cpt, gpn, opts, srun: Launch, version) -> bool | None:
    """False when the step asks more per node than the job requested (srun: "More processors requested
    than permitted", "Invalid generic resource (gres) specification"); None when unsure."""
    if srun.has("overcommit") or srun.has("overlap"):
        return None
    if nodes is not None and comp.nodes is not None and nodes > comp.nodes:
        return False
    if per_node is not None and cpt is not None and comp.cpus_per_node is not None \
            and per_node * cpt > comp.cpus_per_node:
        return False
    if gpn is not None and comp.gpus_per_node is not None and gpn > comp.gpus_per_node:
        return False
    step_gpt = opts.gpus_per_task if isinstance(opts.gpus_per_task, int) else None
    if (step_gpt is not None and comp.gpus_per_task is not None and step_gpt > comp.gpus_per_task
            and version < STEP_GRES_NOT_CAPPED_PER_OPTION):
        return False  # "Step requested gres_per_task=gpu:2 is more than the job's gres_per_task=gpu:1"
    if srun.has("gpus-per-task") and step_gpt is not None and per_node is not None and gpn is not None \
            and step_gpt * per_node > gpn:
        if srun.has("gpus-per-node") or srun.has("gres"):
            return None  # 22.05 ran `srun --gpus-per-node=1 --gpus-per-task=1` with 2 tasks (both on GPU 0)
        return False  # srun --gpus-per-task over a smaller exported --gpus-per-node: refused
    if None in (nodes, per_node, cpt, gpn, comp.cpus_per_node, comp.gpus_per_node):
        return None
    return True


def processes_per_task(spawner: Launch | None, visible: int | None) -> int | None:
    """How many processes one task starts (``visible``: GPUs the task sees, when known)."""
    if spawner is None:
        return 1
    kind = spawner.kind
    if kind == LaunchKind.TORCHRUN:
        text = spawner.value("nproc-per-node")
        if text is None:
            return 1
        if text in ("gpu", "auto"):
            return visible or None
        return as_int(text) or None
    if kind == LaunchKind.ACCELERATE:
        procs, machines = spawner.num_processes, spawner.num_machines
        if spawner.option("num-processes") is None or procs is None:
            return None
        if spawner.option("num-machines") is None:
            return procs
        return procs // machines if machines and procs % machines == 0 else None
    if kind == LaunchKind.DEEPSPEED:
        if any(spawner.has(n) for n in ("hostfile", "num-nodes", "launcher", "include", "exclude")):
            return None
        if spawner.option("num-gpus") is not None:
            return spawner.num_gpus or None
        return visible or None
    return spawner.np if spawner.option("np") is not None else None  # mpirun/horovodrun in a task


def _with_tasks(script, step: Step, comp: Component) -> Step:
    """Fill the processes and, when the counts are known and small, every task."""
    if step.tasks is None and step.srun is None:
        return step  # mpirun/horovodrun from the batch script: processes already set
    hidden = device_vars_set(script, step.launch)
    per_node, nodes, tasks = step.tasks_per_node, step.nodes, step.tasks
    task_list = None
    if per_node is not None and nodes is not None and tasks is not None and tasks == per_node * nodes \
            and tasks <= MAX_TASKS and _placeable(step, comp, nodes):
        cyclic = _distribution(step, comp) == "cyclic" and nodes > 1
        task_list = []
        for rank in range(tasks):
            node, local = (rank % nodes, rank // nodes) if cyclic else divmod(rank, per_node)
            seen = None if hidden else gpus.task_gpus(step.gpu_bind, local, per_node, step.gpus_per_node)
            task_list.append(Task(rank, local, node, seen))
        task_list = tuple(task_list)
    counts = {len(t.gpus) if t.gpus is not None else None for t in task_list or ()}
    gpt = counts.pop() if len(counts) == 1 else None
    if step.srun is None:
        gpt = None if hidden else step.gpus_per_node
    per_task = processes_per_task(step.spawner, gpt)
    procs = per_task * tasks if per_task is not None and tasks is not None else None
    procs_node = per_task * per_node if per_task is not None and per_node is not None else None
    return attrs.evolve(step, gpus_per_task=gpt, processes_per_task=per_task, processes=procs,
                        processes_per_node=procs_node, task_list=task_list)


def _distribution(step: Step, comp: Component) -> str | None:
    if step.srun is not None and step.srun.has("distribution"):
        return (step.srun.value("distribution") or "").split(":")[0].split(",")[0] or "unknown"
    return comp.distribution


def _placeable(step: Step, comp: Component, nodes: int) -> bool:
    """Block (the default) or cyclic over nodes: ranks can be placed; plane/arbitrary cannot."""
    return nodes == 1 or _distribution(step, comp) in (None, "block", "cyclic")
