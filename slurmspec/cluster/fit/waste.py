"""What the waste rules (SB450–SB454) share: what a job asks of each node, and the nodes that could run it.

A job that shares nodes should take about its GPUs' share of a node's CPUs and
memory (the node's CPUs or memory over its GPUs): more blocks GPUs that other
jobs could use. These rules only judge numbers the script makes certain (the
job model, ``slurmspec/model/job/model.py``) against the shapes of the nodes the
job may land on (``candidates``): its partitions' nodes (the default partition
without ``--partition``) that have enough GPUs of the type it names, CPUs,
memory and, for a plain ``a&b`` constraint, the features. A rule reports only
when *every* candidate shape shows the waste, so a job that fits well on some
node of the partition is never reported.
"""

from __future__ import annotations


from slurmspec.cluster.fit import FitRun
from slurmspec.cluster.hostlist import compress_hostlist
from slurmspec.frozen import frozen
from slurmspec.model.job.model import job_model_of
from slurmspec.model.values.constraint import Feature
from slurmspec.model.views.values import choice, constraint, count, gres_items, megabytes, tres_items

# Options that name GPUs (and may carry a type).
_GPU_OPTIONS = ("gpus-per-node", "gres", "gpus", "gpus-per-task", "gpus-per-socket", "tres-per-task")
_MEMORY_OPTIONS = ("mem", "mem-per-gpu", "mem-per-cpu")


@frozen
class Ask:
    """What one component asks of each of its nodes (None: not certain from the script)."""

    component: object  # slurmspec.model.syntax.script.Component (its ``request``)
    nodes: int | None
    gpus: int  # GPUs per node; 0 without GPUs
    gpu_type: str | None  # the one GPU type the job names, None for any
    cpus: int | None  # CPUs per node the job is given (None with `--exclusive`: all of them)
    cpus_needed: int | None  # CPUs per node its tasks need (also with `--exclusive`)
    cpus_total: int | None  # CPUs all its tasks need, when the node count is not certain
    cpus_source: str  # "`--cpus-per-task=32`" for messages
    memory_mb: int | None  # memory per node; 0 means all of it (`--mem=0`)
    memory_source: str
    exclusive: bool  # plain `--exclusive` (whole nodes)

    @property
    def request(self):
        return self.component.request


def shown(setting) -> str:
    return f"`--{setting.name}`" if setting.raw is None else f"`--{setting.name}={setting.raw}`"


def asks(ctx: FitRun) -> tuple[Ask, ...]:
    """One ``Ask`` per hetjob component whose GPU request is certain (types agreeing)."""
    return ctx.shared(_asks)


def _asks(ctx: FitRun) -> tuple[Ask, ...]:
    model = ctx.shared(job_model_of)
    found = []
    for component, shape in zip(ctx.script.components, model.components):
        request = component.request
        gpu_type = _gpu_type(request)
        if gpu_type is _MIXED or shape.gpus_per_node is None:
            continue
        cpus, cpus_source = _cpus_per_node(request, shape)
        memory, memory_source = _memory_per_node(request, shape, cpus)
        exclusive = request.get("exclusive")
        needed = cpus
        if needed is None and shape.tasks_per_node is not None and shape.cpus_per_task is not None:
            needed = shape.tasks_per_node * shape.cpus_per_task
        total = shape.tasks * shape.cpus_per_task if shape.tasks and shape.cpus_per_task else None
        found.append(Ask(
            component, shape.nodes, shape.gpus_per_node, gpu_type, cpus, needed, total, cpus_source, memory,
            memory_source, choice(exclusive) == "exclusive",
        ))
    return tuple(found)


_MIXED = object()


def _gpu_type(request):
    """The GPU type the request names (None: untyped), or ``_MIXED`` for several or an unreadable value."""
    types = set()
    for name in _GPU_OPTIONS:
        setting = request.get(name)
        if setting is None:
            continue
        items = tres_items(setting) if name == "tres-per-task" else gres_items(setting)
        if items is None:
            return _MIXED if name != "gres" or "gpu" in str(setting.raw) else None
        for item in items:
            if item.name == "gpu" and item.count:
                types.add(item.type)
    if len(types) > 1:
        return _MIXED
    return next(iter(types), None)


def _count(setting) -> int | None:
    value = count(setting)
    return value if value is not None and value > 0 else None


def _cpus_per_node(request, shape) -> tuple[int | None, str]:
    cpg = _count(request.get("cpus-per-gpu"))
    if cpg is not None:
        return (cpg * shape.gpus_per_node if shape.gpus_per_node else None), shown(request.get("cpus-per-gpu"))
    if request.has("exclusive") or shape.tasks_per_node is None or shape.cpus_per_task is None:
        return None, ""
    setting = request.get("cpus-per-task")
    source = shown(setting) if setting is not None else ""
    if shape.tasks_per_node > 1 or not source:
        source = f"{shape.tasks_per_node} task{'s' if shape.tasks_per_node != 1 else ''} per node" + (
            f" × {source}" if source else "")
    return shape.cpus_per_task * shape.tasks_per_node, source


def _memory_per_node(request, shape, cpus: int | None) -> tuple[int | None, str]:
    """Memory per node the job asks for explicitly (0: all of it); None without a memory option."""
    for name in _MEMORY_OPTIONS:
        setting = request.get(name)
        if setting is None:
            continue
        asked = megabytes(setting)
        if asked is None:
            return None, ""
        if name == "mem":
            return asked, shown(setting)
        per = shape.gpus_per_node if name == "mem-per-gpu" else cpus
        if not per or not asked:
            return None, ""
        return asked * per, shown(setting)
    return None, ""


def partitions(ctx: FitRun, request) -> tuple | None:
    """The profile partitions the job may run in (its `--partition` list, else the default); None if unknown."""
    profile = ctx.cluster
    setting = request.get("partition")
    if setting is None:
        default = profile.default_partition()
        return None if default is None else (default,)
    if not isinstance(setting.value, str) or not setting.value:
        return None
    found = tuple(profile.partition(name) for name in setting.value.split(","))
    return None if not found or None in found else found


def candidates(ctx: FitRun, ask: Ask) -> tuple:
    """The node shapes that could run each node of the job (empty when none can, or it is not known).

    Empty too when the fitting nodes are too few for the job: a job the
    cluster cannot run is the refusal rules' to report, not a waste.
    """
    chosen = partitions(ctx, ask.request)
    if not chosen:
        return ()
    shapes, nodes = [], set()
    for partition in chosen:
        members = set(partition.nodes)
        for shape in ctx.cluster.shapes_in(partition):
            if _fits(shape, ask, partition):
                nodes.update(members.intersection(shape.nodes))
                if shape not in shapes:
                    shapes.append(shape)
    if ask.nodes is not None and len(nodes) < ask.nodes:
        return ()
    if ask.nodes is None and ask.cpus_total is not None:
        if ask.cpus_total > sum(ctx.cluster.shape_of(node).cpus for node in nodes):
            return ()
    return tuple(shapes)


def _fits(shape, ask: Ask, partition) -> bool:
    if ask.gpus and shape.gpus(ask.gpu_type) < ask.gpus:
        return False
    cpus = shape.cpus if partition.max_cpus_per_node is None else min(shape.cpus, partition.max_cpus_per_node)
    if ask.cpus_needed is not None and ask.cpus_needed > cpus:
        return False
    if ask.memory_mb and ask.memory_mb > shape.memory_mb:
        return False
    return set(_required_features(ask.request)) <= set(shape.features)


def _required_features(request) -> tuple[str, ...]:
    """Features a plain ``a&b`` constraint requires of every node; () for anything else."""
    value = constraint(request.get("constraint"))
    if value is None or value.expr is None or value.negated:
        return ()
    expr = value.expr
    if any(op != "&" for op in expr.operators):
        return ()
    if not all(isinstance(term, Feature) and term.count is None for term in expr.terms):
        return ()  # a [..] group, a (..) group or a count: not a plain list of required features
    return tuple(term.name for term in expr.terms)


def shared_nodes(ctx: FitRun, ask: Ask) -> bool:
    """True when the job may share its nodes: no `--exclusive`, and no partition that gives whole nodes."""
    if ask.request.has("exclusive"):
        return False
    chosen = partitions(ctx, ask.request) or ()
    return not any(p.oversubscribe.upper().startswith("EXCLUSIVE") for p in chosen)


def gib(megabytes: int) -> str:
    """``196608`` -> ``192G``; ``1536`` -> ``1.5G``."""
    value = megabytes / 1024
    return f"{value:.0f}G" if value >= 10 or value == int(value) else f"{value:.1f}G"


def names(shapes) -> str:
    """The nodes of ``shapes`` as a host list for messages: ``a100-[01-04]``."""
    every = [node for shape in shapes for node in shape.nodes]
    return compress_hostlist(every)


def cpu_setting(request):
    """The directive that sets the CPUs per node, for the finding's position."""
    for name in ("cpus-per-gpu", "cpus-per-task", "ntasks-per-node", "ntasks", "mincpus"):
        setting = request.get(name)
        if setting is not None:
            return setting
    return gpu_setting(request)


def gpu_setting(request):
    for name in _GPU_OPTIONS:
        setting = request.get(name)
        if setting is not None:
            return setting
    return None


def memory_setting(request):
    for name in _MEMORY_OPTIONS:
        setting = request.get(name)
        if setting is not None:
            return setting
    return None


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def size(megabytes: int) -> str:
    """A memory size sbatch reads (whole numbers only): ``65536`` -> ``64G``, ``1536`` -> ``1536M``."""
    return f"{megabytes // 1024}G" if megabytes % 1024 == 0 else f"{megabytes}M"
