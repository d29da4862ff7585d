"""What one hetjob component needs from each node, as the controller reads the request.

``need_of(request, shape)`` turns a component's effective options into a
``Need``: node count bounds, tasks, CPUs per task, GPUs and other GRES per
node (by type), memory options, the socket/core/thread layout, the constraint
and the named or excluded nodes. ``unsure`` lists what the cluster rules do not
model (``--gpus-per-socket``, ``--overcommit``, ``--nodefile``, ``--tmp``,
core/thread specialisation, ``--ntasks-per-core`` on hyper-threaded nodes
...): a node check that depends on one of them answers "unknown" instead of
guessing. The arithmetic follows ``src/slurmctld/job_mgr.c``
(``_copy_job_desc_to_job_record()``: each node needs ``--cpus-per-task`` ×
``--ntasks-per-node`` CPUs) and ``src/common/gres.c`` (``--gres``/``--gpus-per-node``
are per node, ``--gpus`` per job, ``--gpus-per-task`` per task), Slurm 22.05 and 24.11.
"""

from __future__ import annotations

import attrs

from slurmspec.cluster.hostlist import HostlistError, expand_hostlist
from slurmspec.gates import MEM_PER_CPU_WHOLE_CORES_UNCERTAIN
from slurmspec.model.values._base import Unknown
from slurmspec.model.views.hosts import count_hosts
from slurmspec.model.views.values import choice, count, flags, gres_items, layout_levels, megabytes, node_count
from slurmspec.model.views.values import constraint as parsed_constraint

# Options whose effect on a node's fit the cluster rules do not model.
_UNSURE = {
    "gpus-per-socket": "`--gpus-per-socket`",
    "tres-per-task": "`--tres-per-task`",
    "overcommit": "`--overcommit`",
    "nodefile": "`--nodefile`",
    "tmp": "`--tmp` (the profile has no disk sizes)",
    "core-spec": "`--core-spec`",
    "thread-spec": "`--thread-spec`",
    "ntasks-per-gpu": "`--ntasks-per-gpu`",
    "ntasks-per-tres": "`--ntasks-per-tres`",
    "gres-flags": "`--gres-flags`",
    "use-min-nodes": "`--use-min-nodes`",
    "spread-job": "`--spread-job`",
    "distribution": "`--distribution`",
    "cpus-per-gpu": None,  # modelled; listed so the key is known
}


@attrs.frozen
class GresAsk:
    """``count`` of GRES ``name`` (of ``type``, None for any) and the option that asks for it."""

    name: str
    type: str | None
    count: int
    setting: object


@attrs.frozen
class Need:
    """What a component asks of the nodes it runs on (None: not given or not literal)."""

    nodes_min: int | None  # -N minimum
    nodes_max: int | None  # -N maximum (None: not given)
    nodes_from: str  # the option nodes_min comes from: "nodes", "nodelist", "ntasks" (with --ntasks-per-node) or ""
    ntasks: int | None  # -n
    tasks_per_node: int | None  # --ntasks-per-node
    cpus_per_task: int  # -c, 1 by default
    cpus_per_gpu: int | None
    mincpus: int | None
    node_gres: tuple[GresAsk, ...]  # per node: --gres items and --gpus-per-node
    gpus_per_task: GresAsk | None
    gpus_total: GresAsk | None  # --gpus (per job)
    mem: int | None  # --mem in MB (0: all of each node)
    mem_per_cpu: int | None
    mem_per_gpu: int | None
    threads: int | None  # threads per core the job uses (1 with --hint=nomultithread)
    threads_min: int | None  # --threads-per-core / -B S:C:T: nodes need at least this many
    sockets: int | None  # --sockets-per-node / -B: nodes need at least this many
    cores: int | None  # --cores-per-socket / -B
    ntasks_per_core: int | None
    exclusive: bool
    constraint: object | None  # the parsed Constraint
    nodelist: tuple[str, ...] | None
    exclude: tuple[str, ...] | None
    settings: dict  # option name -> Setting, for messages
    unsure: tuple[str, ...]  # what the rules do not model in this request
    # those of ``unsure`` that come of the socket/core/thread layout alone (a partition none of whose nodes
    # has that layout refuses the job all the same: nodes.py)
    layout_unsure: tuple[str, ...] = ()
    whole_cores: bool = False  # --mem-per-cpu is charged for whole cores (22.05; later releases: either way)
    nodelist_conflict: bool = False  # --nodelist names more nodes than --nodes or --ntasks allow

    @property
    def gpu_asks(self) -> tuple[GresAsk, ...]:
        every = [*self.node_gres, self.gpus_per_task, self.gpus_total]
        return tuple(a for a in every if a is not None and a.name == "gpu")


def _int(setting) -> int | None:
    value = count(setting)
    return value if value is not None and value >= 0 else None


def _hosts(setting, unsure: list[str]) -> tuple[str, ...] | None:
    if setting is None:
        return None
    text = setting.raw
    # A template's placeholder (`--exclude=XXXnodesXXX`) names no node yet: not known, not wrong.
    if isinstance(setting.value, Unknown) or not text or "/" in text or count_hosts(text) is None:
        unsure.append(f"`--{setting.name}={text}`")
        return None
    try:
        return expand_hostlist(text)
    except (HostlistError, ValueError):
        unsure.append(f"`--{setting.name}={text}`")
        return None


def _items(setting, unsure: list[str]) -> tuple:
    if setting is None:
        return ()
    items = gres_items(setting)
    if items is None:
        unsure.append(f"`--{setting.name}={setting.raw}`")
        return ()
    return tuple(GresAsk(i.name, i.type, i.count, setting) for i in items if i.count > 0)


def _one_gpu_ask(setting, unsure: list[str]) -> GresAsk | None:
    items = _items(setting, unsure)
    if len(items) > 1:
        unsure.append(f"`--{setting.name}={setting.raw}` (several GPU types)")
        return None
    return items[0] if items else None


def _lowest(*values: int | None) -> int | None:
    present = [v for v in values if v is not None]
    return min(present) if present else None


def _layout(request, unsure: list[str], layout_unsure: list[str]) -> tuple[int | None, int | None, int | None, int | None]:
    """(threads used per core, threads per core required, sockets required, cores per socket required).

    What is unsure only because of the layout is also put in ``layout_unsure``: a node that meets the
    layout may still not take the job, but a partition with no such node never does (``nodes``)."""
    sockets = _int(request.get("sockets-per-node"))
    cores = _int(request.get("cores-per-socket"))
    threads_min = _int(request.get("threads-per-core"))
    extra = request.get("extra-node-info")
    if extra is not None:
        # 24.11.5 refuses `-N 1 -c 3 --mem=96001 -B 2:16:2` on a partition with a 2×16×2 node of 256000 MB
        unsure.append(f"`--extra-node-info={extra.raw}`")
        layout_unsure.append(unsure[-1])
        # -B S[:C[:T]] sets the same minimums as the three options; whichever comes last wins, and the request
        # keeps no order between them, so the lower of the two is the one sure to be asked.
        levels = tuple(layout_levels(extra) or ()) + (None, None, None)
        low = [level[0] if isinstance(level, tuple) else None for level in levels[:3]]
        sockets, cores, threads_min = (
            _lowest(low[0]) if sockets is None else _lowest(sockets, low[0]),
            _lowest(low[1]) if cores is None else _lowest(cores, low[1]),
            _lowest(low[2]) if threads_min is None else _lowest(threads_min, low[2]),
        )
    if threads_min is not None and threads_min > 1 and request.get("threads-per-core") is not None:
        # 22.05.8 refuses `-w c48-01 --threads-per-core=2` on a one-thread node but accepts `-N 3 -c 64
        # --threads-per-core=2` where only two nodes have two threads per core
        unsure.append(f"`--threads-per-core={threads_min}`")
        layout_unsure.append(unsure[-1])
    threads = threads_min
    hint = request.get("hint")
    if hint is not None and threads is None:
        values = flags(hint)
        if values is None:
            unsure.append(f"`--hint={hint.raw}`")
        elif "nomultithread" in values:
            threads = 1
        elif "multithread" not in values and "compute_bound" in values:
            unsure.append(f"`--hint={hint.raw}`")
    return threads, threads_min, sockets, cores


def need_of(request, version) -> Need:
    """The ``Need`` of one component's effective request."""
    from slurmspec.model.job.request import hint_is_dropped

    unsure = [text for name, text in _UNSURE.items() if text and request.get(name) is not None]
    nodes = request.get("nodes")
    nodes_min = nodes_max = None
    if nodes is not None:
        value = node_count(nodes)
        if value is None or value.sizes:
            unsure.append(f"`--nodes={nodes.raw}`")
        else:
            nodes_min, nodes_max = value.minimum, (value.maximum if value.maximum > 0 else None)
    ntasks = _int(request.get("ntasks")) or None
    nodelist = _hosts(request.get("nodelist"), unsure)
    conflict = False
    if nodelist:
        # every listed node is allocated: the node count is at least their number (src/sbatch/opt.c 22.05;
        # the controller from 23.02)
        # 24.11.5 accepts such lists even naming another partition's node or more nodes than MaxNodes
        conflict = (nodes_max is not None and nodes_max < len(nodelist)) or (ntasks is not None and ntasks < len(nodelist))
        if conflict:
            unsure.append("a `--nodelist` longer than `--nodes` or `--ntasks`")
        nodes_min = max(nodes_min or 0, len(nodelist))
    if ntasks is not None and nodes_min is not None and ntasks < nodes_min:
        # sbatch: "can't run 1 processes on 3 nodes, setting nnodes to 1" (src/sbatch/opt.c, 22.05 and 24.11)
        nodes_min = nodes_max = ntasks
    elif ntasks is not None and nodes_max is not None and ntasks < nodes_max:
        nodes_max = ntasks  # and a maximum above the task count: 24.11.5 accepts `-N 2-3 -n 2` with MaxNodes=2
    gpus_total = _one_gpu_ask(request.get("gpus"), unsure)
    if gpus_total is not None and nodes_min is not None and nodes_max is not None \
            and nodes_min <= gpus_total.count < nodes_max:
        # a node range's maximum is lowered to the job's GPU count: 22.05.8 and 24.11.5 accept `-N 1-3
        # --gpus=1` on a MaxNodes=2 partition (the job shows NumNodes=1-1) and refuse `-N 1-3 --gpus=4`
        nodes_max = gpus_total.count
    tasks_per_node = _int(request.get("ntasks-per-node")) or None
    if ntasks and tasks_per_node and tasks_per_node > ntasks:
        unsure.append("`--ntasks-per-node` above `--ntasks`")  # 22.05.8 refuses some such jobs that fit
    nodes_from = "nodes" if nodes is not None else "nodelist" if nodelist else ""
    if nodes_min is None and ntasks and tasks_per_node:
        # the controller needs ceil(ntasks / ntasks-per-node) nodes (24.11.5 holds `-n 65
        # --ntasks-per-node=10` on a MaxNodes=4 partition)
        nodes_min, nodes_from = -(-ntasks // tasks_per_node), "ntasks"
    if request.get("mincpus") is not None and request.get("ntasks-per-node") is not None:
        # 24.11.5 refuses `-N 1 --ntasks-per-node=2 --mincpus=63` on a 64-CPU two-thread node, 22.05.8 accepts it
        unsure.append("`--mincpus` with `--ntasks-per-node`")
    layout_unsure: list[str] = []
    if (nodes_min or 1) > 1 and any(request.get(o) is not None for o in ("sockets-per-node", "cores-per-socket")):
        # 22.05.8 refuses `--sockets-per-node=3` on two-socket nodes, but accepts it with `-N 3`
        unsure.append("`--sockets-per-node`/`--cores-per-socket` on several nodes")
        layout_unsure.append(unsure[-1])
    cpt = _int(request.get("cpus-per-task"))
    node_gres = [*_items(request.get("gres"), unsure)]
    node_gres += [attrs.evolve(a, name="gpu") for a in _items(request.get("gpus-per-node"), unsure)]
    if len({a.type is None for a in node_gres if a.name == "gpu"}) > 1:
        unsure.append("typed and untyped GPUs together")
    exclusive = request.get("exclusive")
    threads, threads_min, sockets, cores = _layout(request, unsure, layout_unsure)
    if request.get("hint") is not None and hint_is_dropped(request, version):
        threads = threads_min  # sbatch drops --hint next to the layout options
    constraint = request.get("constraint")
    if constraint is not None and parsed_constraint(constraint) is None:
        unsure.append(f"`--constraint={constraint.raw}`")
        constraint = None
    return Need(
        nodes_min=nodes_min,
        nodes_max=nodes_max,
        ntasks=ntasks,
        tasks_per_node=tasks_per_node,
        nodes_from=nodes_from,
        cpus_per_task=cpt or 1,
        cpus_per_gpu=_int(request.get("cpus-per-gpu")) or None,
        mincpus=_int(request.get("mincpus")) or None,
        node_gres=tuple(node_gres),
        gpus_per_task=_one_gpu_ask(request.get("gpus-per-task"), unsure),
        gpus_total=gpus_total,
        mem=megabytes(request.get("mem")),
        mem_per_cpu=megabytes(request.get("mem-per-cpu")),
        mem_per_gpu=megabytes(request.get("mem-per-gpu")),
        threads=threads,
        threads_min=threads_min,
        sockets=sockets,
        cores=cores,
        ntasks_per_core=_int(request.get("ntasks-per-core")) or None,
        exclusive=exclusive is not None and choice(exclusive) in ("exclusive", "", None),
        constraint=None if constraint is None else constraint.value,
        nodelist=nodelist,
        exclude=_hosts(request.get("exclude"), unsure),
        settings={s.name: s for s in request.settings},
        unsure=tuple(unsure),
        layout_unsure=tuple(layout_unsure),
        whole_cores=version < MEM_PER_CPU_WHOLE_CORES_UNCERTAIN,
        nodelist_conflict=conflict,
    )


def minimum_cpus(need) -> int | None:
    """The job's minimum CPU count as the controller reads it (at least); None when it cannot be known."""
    if "overcommit" in need.settings:
        return None
    if need.ntasks:
        return need.ntasks * need.cpus_per_task
    return (need.nodes_min or 1) * (need.tasks_per_node or 1) * need.cpus_per_task


def total_cpus(profile, partition) -> int:
    """The CPUs a job can get in ``partition``: each node's, at most MaxCPUsPerNode (`-p a100 -n 65` with two
    64-CPU nodes and MaxCPUsPerNode=32 is "More processors requested than permitted", 22.05.8 and 24.11.5)."""
    cap = partition.max_cpus_per_node
    shapes = (profile.shape_of(n) for n in partition.nodes)
    return sum(min(s.cpus, cap) if cap is not None else s.cpus for s in shapes if s is not None)


def memory_per_node(need) -> tuple[int | None, str]:
    """The least memory per node the request certainly asks for, and the option it comes from."""
    if need.mem:
        return need.mem, "mem"
    if need.mem_per_cpu and not need.exclusive:
        return need.mem_per_cpu * need.cpus_per_task * (need.tasks_per_node or 1), "mem-per-cpu"
    gpus = sum(a.count for a in need.node_gres if a.name == "gpu")
    if need.mem_per_gpu and gpus:
        return need.mem_per_gpu * gpus, "mem-per-gpu"
    return None, ""
