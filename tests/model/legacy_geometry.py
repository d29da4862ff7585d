"""The launch rules' geometry model before the job model replaced it (rules/launch/_geometry.py at commit 3eb41cc),
kept verbatim below this docstring as the reference tests/model/test_job_model.py compares the job model with.
"""

from __future__ import annotations

import attrs

from slurmspec.kinds import LaunchKind
from slurmspec.body.model import Launch
from slurmspec.body.typed import as_int, gpu_count

__all__ = ["Geometry", "job_geometry", "step_geometry", "script_geometry", "launch_steps"]

_GPU_OPTIONS = ("gpus", "gpus-per-node", "gpus-per-task", "gpus-per-socket", "gres", "tres-per-task")

@attrs.frozen
class Geometry:
    nodes: int | None = None  # node count when it is certain
    tasks: int | None = None  # total tasks
    tasks_per_node: int | None = None  # when every node runs the same number
    tasks_explicit: bool = False  # -n / --ntasks-per-node (or a GPU-derived count) was given
    per_node_given: bool = False  # --ntasks-per-node itself was given
    gpus_per_node: int | None = None  # 0: no GPU requested; None: unknown
    gpus_total: int | None = None
    cpus_per_task: int | None = None  # only when given explicitly
    cpus_per_gpu: int | None = None
    # Where the numbers come from, for messages: "`--gres=gpu:4`", "`--ntasks-per-node=2`".
    gpu_source: str = ""
    task_source: str = ""
    node_source: str = ""

    @property
    def has_gpus(self) -> bool:
        return bool(self.gpus_per_node) or bool(self.gpus_total)

def _count(value) -> int | None:
    """A ``Count`` value (or a plain int) -> int; anything else (invalid text) -> None."""
    v = getattr(value, "value", value)
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None

def _gpu_total(value) -> int | None:
    items = getattr(value, "items", None)
    if items is None:
        return None
    try:
        return sum(int(item.count) for item in items)
    except (TypeError, ValueError, AttributeError):
        return None

def _gres_gpus(value) -> int | None:
    """GPUs per node in a ``--gres`` value; 0 for ``none`` or a list without gpu."""
    if getattr(value, "none", False):
        return 0
    items = getattr(value, "items", None)
    if items is None:
        return None
    return sum(item.count for item in items if getattr(item, "name", None) == "gpu")

def _tres_gpus(value) -> int | None:
    items = getattr(value, "items", None)
    if items is None:
        return None
    found = [i.count for i in items if i.kind == "gres" and i.name == "gpu"]
    return sum(found) if found else 0

def _tres_cpus(value) -> int | None:
    items = getattr(value, "items", None)
    if items is None:
        return None
    found = [i.count for i in items if i.kind == "cpu"]
    return found[-1] if found else None

def _quote(setting) -> str:
    raw = setting.raw
    return f"`--{setting.name}`" if raw is None else f"`--{setting.name}={raw}`"

def job_geometry(request) -> Geometry:
    """The shape of one component from its effective ``JobRequest``."""
    get = request.get
    nodes = None
    node_source = ""
    s_nodes = get("nodes")
    s_ntasks, s_tpn = get("ntasks"), get("ntasks-per-node")
    ntasks = _count(s_ntasks.value) if s_ntasks is not None else None
    tpn = _count(s_tpn.value) if s_tpn is not None else None
    if ntasks == 0:
        ntasks = None
    if tpn == 0:
        tpn = None
    if s_nodes is not None:
        v = s_nodes.value
        lo, hi, sizes = getattr(v, "minimum", None), getattr(v, "maximum", None), getattr(v, "sizes", ())
        if isinstance(lo, int) and lo >= 1 and hi == lo and not sizes:
            nodes = lo
            node_source = _quote(s_nodes)
            if ntasks is not None and ntasks < nodes:
                nodes = ntasks  # Slurm reduces the node count to the task count
                node_source = _quote(s_ntasks)
    elif get("nodelist") is None and get("nodefile") is None:
        # Without -N the job gets one node unless its tasks (or a --gpus total) need more.
        if ntasks == 1:
            nodes = 1
        elif ntasks is not None and tpn is not None:
            nodes = -(-ntasks // tpn)
            node_source = f"{_quote(s_ntasks)} with {_quote(s_tpn)}"
        elif ntasks is None and get("gpus") is None:
            nodes = 1
    tasks = None
    tasks_per_node = None
    explicit = False
    task_source = ""
    if ntasks is not None:
        tasks, explicit, task_source = ntasks, True, _quote(s_ntasks)
        if tpn is not None and nodes is not None and tasks == tpn * nodes:
            tasks_per_node = tpn
        elif nodes == 1:
            tasks_per_node = tasks
        elif nodes is not None and tasks == nodes:
            tasks_per_node = 1
    elif tpn is not None:
        explicit, task_source = True, _quote(s_tpn)
        tasks_per_node = tpn
        tasks = tpn * nodes if nodes is not None else None
    # GPUs
    gpn = None
    gpu_source = ""
    s_gpn, s_gres, s_gpus, s_gpt = get("gpus-per-node"), get("gres"), get("gpus"), get("gpus-per-task")
    s_tres = get("tres-per-task")
    gpus_total = _gpu_total(s_gpus.value) if s_gpus is not None else None
    gpt = _gpu_total(s_gpt.value) if s_gpt is not None else None
    if gpt is None and s_tres is not None:
        gpt = _tres_gpus(s_tres.value) or None
    if tasks is None and not explicit and gpus_total and gpt:
        # --gpus with --gpus-per-task: Slurm derives the task count.
        if gpus_total % gpt == 0:
            tasks, explicit = gpus_total // gpt, True
            task_source = f"{_quote(s_gpus)} / {_quote(s_gpt)}" if s_gpt is not None else _quote(s_gpus)
            if nodes == 1:
                tasks_per_node = tasks
    if tasks is None and not explicit and nodes is not None:
        tasks, tasks_per_node = nodes, 1  # srun's default: one task per node
    if s_gpn is not None:
        gpn, gpu_source = _gpu_total(s_gpn.value), _quote(s_gpn)
    if gpn is None and s_gres is not None:
        gpn = _gres_gpus(s_gres.value)
        gpu_source = _quote(s_gres)
        if gpn == 0:
            gpn, gpu_source = None, ""
    if gpn is None and gpus_total is not None and nodes == 1:
        gpn, gpu_source = gpus_total, _quote(s_gpus)  # on several nodes the split is not fixed
    if gpn is None and gpt is not None and tasks_per_node is not None:
        gpn = gpt * tasks_per_node
        gpu_source = _quote(s_gpt) if s_gpt is not None else _quote(s_tres)
    if gpn is None and not any(get(name) is not None for name in _GPU_OPTIONS):
        gpn = 0
    if gpus_total is None and gpn is not None and nodes is not None:
        gpus_total = gpn * nodes
    cpt = None
    s_cpt = get("cpus-per-task")
    if s_cpt is not None:
        cpt = _count(s_cpt.value) or None
    elif s_tres is not None:
        cpt = _tres_cpus(s_tres.value)
    s_cpg = get("cpus-per-gpu")
    cpg = _count(s_cpg.value) if s_cpg is not None else None
    return Geometry(nodes, tasks, tasks_per_node, explicit, tpn is not None and ntasks is None, gpn,
                    gpus_total, cpt, cpg or None, gpu_source, task_source, node_source)

def _literal(launch: Launch, *names: str) -> tuple[bool, int | None]:
    """(given, value) of the last of ``names`` on an srun line; value None unless a literal."""
    for opt in reversed(launch.options):
        if opt.name in names:
            return True, as_int(opt.value)
    return False, None

def _component(script, launch: Launch) -> int | None:
    """The hetjob component an srun step runs in; None for several or a variable."""
    given, group = _literal(launch, "het-group")
    if not given:
        return 0
    if group is None or group >= len(script.components):
        return None
    return group

def script_geometry(script, component: int = 0) -> Geometry:
    try:
        return job_geometry(script.components[component].request)
    except (IndexError, AttributeError):
        return Geometry()

def step_geometry(script, srun: Launch | None) -> Geometry | None:
    """The shape of the step an ``srun`` line starts (the job's shape for ``None``).

    None when the srun line points at several hetjob components or at one given
    by a variable.
    """
    if srun is None:
        return script_geometry(script)
    comp = _component(script, srun)
    if comp is None:
        return None
    job = script_geometry(script, comp)
    g_nodes, nodes = _literal(srun, "nodes")
    g_n, ntasks = _literal(srun, "ntasks")
    g_tpn, tpn = _literal(srun, "ntasks-per-node", "tasks-per-node")
    if not (g_nodes or g_n or g_tpn):
        geom = job
    else:
        if not g_nodes:
            nodes = job.nodes
        tasks = tasks_per_node = None
        if (g_n and ntasks is None) or (g_tpn and tpn is None) or (g_nodes and nodes is None):
            pass  # a variable on the srun line: the step's shape is unknown
        elif g_n:
            tasks = ntasks
            if g_tpn:
                tasks_per_node = tpn
            elif nodes == 1:
                tasks_per_node = tasks
            elif nodes is not None and tasks == nodes:
                tasks_per_node = 1
            if not g_nodes and ntasks is not None:
                # srun -n alone keeps the job's nodes, but never more nodes than tasks.
                if nodes is not None and ntasks < nodes:
                    nodes = ntasks
                    tasks_per_node = 1
        elif g_tpn:
            tasks_per_node = tpn
            tasks = tpn * nodes if nodes is not None else None
        else:  # only -N: srun still reads SLURM_NTASKS / SLURM_NTASKS_PER_NODE
            if job.per_node_given:
                tasks_per_node = job.tasks_per_node
                tasks = tasks_per_node * nodes if tasks_per_node is not None and nodes is not None else None
            elif job.tasks_explicit:
                tasks = tasks_per_node = None
            else:
                tasks, tasks_per_node = nodes, 1
        desc = _describe(o for o in srun.options if o.name in ("nodes", "ntasks", "ntasks-per-node", "tasks-per-node"))
        geom = attrs.evolve(job, nodes=nodes, tasks=tasks, tasks_per_node=tasks_per_node,
                            tasks_explicit=True, task_source=f"`srun {desc}`")
        if job.gpus_per_node is not None and nodes is not None:
            geom = attrs.evolve(geom, gpus_total=job.gpus_per_node * nodes)
        elif nodes != job.nodes or nodes is None:
            geom = attrs.evolve(geom, gpus_total=None)
    # GPU options on the srun line replace the job's for this step.
    gpu_opts = [o for o in srun.options if o.name in _GPU_OPTIONS]
    if gpu_opts:
        names = {o.name for o in gpu_opts}
        gpn = None
        if "gpus-per-node" in names:
            gpn = gpu_count(srun.value("gpus-per-node"))
        elif "gres" in names:
            gpn = _srun_gres_gpus(srun.value("gres"))
        elif "gpus-per-task" in names and geom.tasks_per_node is not None:
            gpt = gpu_count(srun.value("gpus-per-task"))
            gpn = None if gpt is None else gpt * geom.tasks_per_node
        elif "gpus" in names and geom.nodes == 1:
            gpn = gpu_count(srun.value("gpus"))
        source = _describe(gpu_opts)
        total = gpn * geom.nodes if gpn is not None and geom.nodes is not None else None
        if "gpus" in names and gpu_count(srun.value("gpus")) is not None:
            total = gpu_count(srun.value("gpus"))
        geom = attrs.evolve(geom, gpus_per_node=gpn, gpus_total=total, gpu_source=f"`srun {source}`")
    given, cpt = _literal(srun, "cpus-per-task")
    if given:
        geom = attrs.evolve(geom, cpus_per_task=cpt)
    return geom

def _describe(options) -> str:
    """``-n 4 --gpus-per-task=1``: options as written, for messages."""
    out = []
    for o in options:
        if o.value is None:
            out.append(o.raw)
        elif o.raw.startswith("--"):
            out.append(f"{o.raw}={o.value}")
        else:
            out.append(f"{o.raw} {o.value}")
    return " ".join(out)

def _srun_gres_gpus(text: str | None) -> int | None:
    if text is None:
        return None
    total = 0
    for item in text.split(","):
        parts = item.split(":")
        if parts[0] != "gpu":
            continue
        if len(parts) == 1:
            total += 1
            continue
        n = as_int(parts[-1])
        if n is None:
            if len(parts) == 2:
                total += 1  # gpu:a100 = one GPU of that type
                continue
            return None
        total += n
    return total

def launch_steps(script):
    """Every launch with the ``srun`` that starts it (or None), in file order."""
    for top in script.body.launches:
        srun = None
        for launch in top.walk():
            yield launch, srun
            if launch.kind == LaunchKind.SRUN:
                srun = launch
