"""The shape of one hetjob component from its effective request (`man sbatch`; `src/sbatch/opt.c:_opt_verify()`).

- nodes: the minimum of a fixed ``-N``; without ``-N``, 1 when the job has at most
  one task, ``ceil(ntasks / ntasks-per-node)`` when both are given, unknown otherwise
  (Slurm may spread ``-n`` tasks over several nodes);
- tasks: ``-n``; else nodes × ``--ntasks-per-node``; else ``--gpus`` / ``--gpus-per-task``;
  else one task per node (Slurm's default; ``tasks_explicit`` is then False because
  ``SLURM_NTASKS`` stays unset);
- tasks per node: ``--ntasks-per-node``; else tasks on one node, or 1 with one task
  per node; unknown for an uneven ``-n``/``-N`` split;
- CPUs per task: ``-c`` (or ``--tres-per-task=cpu=N``), else 1 (unknown with
  ``--cpus-per-gpu``); CPUs per node: tasks per node × CPUs per task, at least
  ``--mincpus`` (unknown with ``--exclusive`` or ``--cpus-per-gpu``: Slurm decides);
- GPUs per node: ``--gpus-per-node``, ``--gres=gpu:N``, ``--gpus`` on one node,
  ``--gpus-per-task`` (or ``--tres-per-task=gres/gpu=N``) × tasks per node; 0 when
  the job asks for no GPU at all.
"""

from __future__ import annotations

from slurmspec.model.job.gpus import UNKNOWN, GpuOptions, job_gpu_options
from slurmspec.model.job.types import Component

_GPU_OPTIONS = ("gpus", "gpus-per-node", "gpus-per-task", "gpus-per-socket", "gres", "tres-per-task")


def _count(setting) -> int | None:
    """A ``Count`` value -> a positive int; anything else (invalid text, 0) -> None."""
    if setting is None:
        return None
    v = getattr(setting.value, "value", setting.value)
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None


def quote(setting) -> str:
    raw = setting.raw
    return f"`--{setting.name}`" if raw is None else f"`--{setting.name}={raw}`"


def _int(value) -> int | None:
    return None if value is None or value is UNKNOWN else value


def _nodes(get, ntasks, tpn) -> tuple[int | None, str]:
    s_nodes = get("nodes")
    if s_nodes is not None:
        v = s_nodes.value
        lo, hi, sizes = getattr(v, "minimum", None), getattr(v, "maximum", None), getattr(v, "sizes", ())
        if isinstance(lo, int) and lo >= 1 and hi == lo and not sizes:
            if ntasks is not None and ntasks < lo:
                return ntasks, quote(get("ntasks"))  # Slurm lowers the node count to the task count
            return lo, quote(s_nodes)
        return None, ""
    if get("nodelist") is not None or get("nodefile") is not None:
        return None, ""
    # Without -N the job gets one node unless its tasks (or a --gpus total) need more.
    if ntasks == 1:
        return 1, ""
    if ntasks is not None and tpn is not None:
        return -(-ntasks // tpn), f"{quote(get('ntasks'))} with {quote(get('ntasks-per-node'))}"
    if ntasks is None and get("gpus") is None:
        return 1, ""
    return None, ""


def component(index: int, request, version=None) -> Component:
    """The shape of component ``index`` from its effective ``JobRequest``.

    ``version`` is the target release (the shape itself is the same on every one).
    """
    get = request.get
    s_ntasks, s_tpn = get("ntasks"), get("ntasks-per-node")
    ntasks, tpn = _count(s_ntasks), _count(s_tpn)
    nodes, node_source = _nodes(get, ntasks, tpn)
    tasks = tasks_per_node = None
    explicit = False
    task_source = ""
    if ntasks is not None:
        tasks, explicit, task_source = ntasks, True, quote(s_ntasks)
        if tpn is not None and nodes is not None and tasks == tpn * nodes:
            tasks_per_node = tpn
        elif nodes == 1:
            tasks_per_node = tasks
        elif nodes is not None and tasks == nodes:
            tasks_per_node = 1
    elif tpn is not None:
        explicit, task_source = True, quote(s_tpn)
        tasks_per_node = tpn
        tasks = tpn * nodes if nodes is not None else None
    opts = job_gpu_options(request)
    gpus_total = _int(opts.gpus)
    gpt = _int(opts.gpus_per_task) or None
    s_gpus, s_gpt = get("gpus"), get("gpus-per-task")
    if tasks is None and not explicit and gpus_total and gpt and gpus_total % gpt == 0:
        # --gpus with --gpus-per-task: Slurm derives the task count.
        tasks, explicit = gpus_total // gpt, True
        task_source = f"{quote(s_gpus)} / {quote(s_gpt)}" if s_gpt is not None else quote(s_gpus)
        if nodes == 1:
            tasks_per_node = tasks
    # SLURM_NTASKS is also exported for -N x --ntasks-per-node on every release: 23.02.0 stopped and
    # 23.02.5 went back (NEWS: "Revert a change in 23.02 where SLURM_NTASKS was no longer set in the
    # job's environment when --ntasks-per-node was requested"); 24.11.5's `srun --ntasks-per-node=1`
    # in a `-N 1 --ntasks-per-node=2` job runs 2 tasks, as 22.05.8's does.
    exported = ntasks is not None or (explicit and tpn is None) or (tpn is not None and tasks is not None)
    if tasks is None and not explicit and nodes is not None:
        tasks, tasks_per_node = nodes, 1  # one task per node
    gpn, gpu_source = _gpus_per_node(get, opts, gpus_total, gpt, nodes, tasks_per_node)
    if gpus_total is None and gpn is not None and nodes is not None:
        gpus_total = gpn * nodes
    cpt, cpt_given = _cpus_per_task(get)
    cpg = _count(get("cpus-per-gpu"))
    return Component(
        index, nodes, tasks, tasks_per_node, explicit, tpn is not None and ntasks is None, exported,
        cpt, cpt_given, cpg, _cpus_per_node(get, cpt, tasks_per_node), gpn, gpus_total, gpt,
        _int(opts.ntasks_per_gpu), opts.gpu_bind, _distribution(get), gpu_source, task_source, node_source,
    )


def _gpus_per_node(get, opts: GpuOptions, gpus_total, gpt, nodes, tasks_per_node) -> tuple[int | None, str]:
    s_gpn, s_gres = get("gpus-per-node"), get("gres")
    if s_gpn is not None:
        return _int(opts.gpus_per_node), quote(s_gpn)
    if s_gres is not None and isinstance(opts.gres, int) and opts.gres > 0:
        return opts.gres, quote(s_gres)
    if gpus_total is not None and nodes == 1:
        return gpus_total, quote(get("gpus"))  # on several nodes the split is not fixed
    if gpt is not None and tasks_per_node is not None:
        s_gpt = get("gpus-per-task") or get("tres-per-task")
        return gpt * tasks_per_node, quote(s_gpt)
    if not any(get(name) is not None for name in _GPU_OPTIONS):
        return 0, ""
    return None, ""


def _cpus_per_task(get) -> tuple[int | None, bool]:
    s_cpt = get("cpus-per-task")
    if s_cpt is not None:
        return _count(s_cpt), True
    tres = get("tres-per-task")
    if tres is not None:
        items = getattr(tres.value, "items", None)
        if items is None:
            return None, True
        found = [i.count for i in items if i.kind == "cpu"]
        if found:
            return found[-1], True
    if get("cpus-per-gpu") is not None:
        return None, False  # the CPUs follow the GPUs
    return 1, False


def _cpus_per_node(get, cpt, tasks_per_node) -> int | None:
    if cpt is None or tasks_per_node is None or get("exclusive") is not None:
        return None
    if get("cpus-per-gpu") is not None:
        return None
    cpus = cpt * tasks_per_node
    mincpus = _count(get("mincpus"))
    return max(cpus, mincpus) if mincpus else cpus


def _distribution(get) -> str | None:
    s = get("distribution")
    if s is None:
        return None
    levels = getattr(s.value, "levels", None)
    return levels[0] if levels else "unknown"
