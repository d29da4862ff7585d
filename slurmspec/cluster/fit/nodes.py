"""Whether any node of a component's partitions can run it: one ``Fit`` per partition.

For each partition the job may use (``where.py``) the nodes it may land on
are the partition's nodes minus ``--exclude``, with the ``--constraint``
features (``features.py``); each is checked with ``shape.per_node``.
A job with a fixed number of tasks per node needs ``--nodes`` such nodes (and
every ``--nodelist`` node among them); a job whose ``--ntasks`` or ``--gpus``
may spread is placed on at most ``--nodes``' maximum, the partition's
``MaxNodes`` and its node count: it fits when the nodes that hold the most
tasks (GPUs) hold them all (``-p gpu --gpus=v100:9`` with two 4-GPU v100
nodes and MaxNodes=2 is refused, measured on Slurm 22.05.8 and 24.11.5).

``Kind`` says what the partition answers: ``FITS``; ``NO`` (no node holds
the request: "Requested node configuration is not available" on every
release, whatever ``EnforcePartLimits`` says); ``NO_FEATURE`` (no node has
the constraint's features); ``MISSING`` (a ``--nodelist`` node is not in the
partition); ``TOO_FEW`` (``--nodes`` asks more nodes than the partition has, or the
tasks more CPUs than all its nodes: partition limits, SB410 and SB415);
``UNKNOWN``.
"""

from __future__ import annotations

from enum import Enum

import attrs

from slurmspec.cluster.fit import FitRun
from slurmspec.cluster.fit import features as _features
from slurmspec.cluster.fit.limits import node_check_reached, size_is_limit
from slurmspec.cluster.fit.need import Need, minimum_cpus, need_of, total_cpus
from slurmspec.cluster.fit.shape import Check, Verdict, layout_check, layout_cpus, per_node, usable_cpus
from slurmspec.cluster.fit.where import Placement, runnable


class Kind(Enum):
    FITS = "fits"
    NO = "no"
    NO_FEATURE = "no-feature"
    MISSING = "missing"
    TOO_FEW = "too-few"
    UNKNOWN = "unknown"


REFUSED_KINDS = frozenset({Kind.NO, Kind.NO_FEATURE, Kind.MISSING})


@attrs.frozen
class Fit:
    partition: object
    kind: Kind
    check: Check | None = None  # the shortfall of the best node (NO)
    detail: str = ""  # what the message adds ("only 1 node fits, the job needs 2")


@attrs.frozen
class Assessment:
    placement: Placement
    need: Need
    fits: tuple[Fit, ...]

    def refused(self) -> bool:
        """Every partition refuses the job for a node reason."""
        return bool(self.fits) and all(f.kind in REFUSED_KINDS for f in self.fits)

    def of(self, kind: Kind) -> tuple[Fit, ...]:
        return tuple(f for f in self.fits if f.kind is kind)


def assessments(ctx: FitRun) -> tuple[Assessment, ...]:
    return ctx.shared(_assessments)


def _assessments(ctx: FitRun) -> tuple[Assessment, ...]:
    found = []
    for placement in runnable(ctx):
        need = need_of(placement.request, ctx.version)
        # Not judged: what the model does not follow, names SB407/SB408/SB411 report, and a job the controller
        # holds on a partition limit (or a DOWN partition) before it looks at nodes. 22.05.8 under
        # EnforcePartLimits=NO sometimes still refuses such a job early ("CPU count per node can not be
        # satisfied": `-p long -N 1-2 -c 49`, MinNodes=2) and sometimes not (`-p long -c 49 --mem=150G`,
        # over MaxMemPerNode), so that stays unjudged.
        if need.unsure or _unknown_names(ctx, need) or node_check_reached(ctx, placement, need) is not True:
            fits = tuple(Fit(p, Kind.UNKNOWN) for p in placement.usable)
            if _layout_alone_unsure(ctx, placement, need):
                fits = tuple(_layout_fit(ctx, need, p) for p in placement.usable)
            found.append(Assessment(placement, need, fits))
            continue
        found.append(Assessment(placement, need, tuple(_partition_fit(ctx, need, p) for p in placement.usable)))
    return tuple(found)


def _layout_alone_unsure(ctx: FitRun, placement, need) -> bool:
    """Only the socket/core/thread layout keeps the request from being judged, and the controller looks at
    the nodes at submission."""
    return (bool(need.unsure) and set(need.unsure) <= set(need.layout_unsure) and not _unknown_names(ctx, need)
            and node_check_reached(ctx, placement, need) is True)


def _layout_fit(ctx: FitRun, need, partition) -> Fit:
    """NO when no node of the partition (but those ``--exclude`` names) has the layout the job asks at least
    (``--threads-per-core``, ``--sockets-per-node``, ``--cores-per-socket``, ``-B S:C:T``), else UNKNOWN:
    which of the nodes that have it can take the job is not modelled (a job of several nodes may be
    given fewer sockets per node than it asked, 22.05.8). Measured on 22.05.8 and 24.11.5 with held-off
    submissions on partitions of one and two thread node shapes, 1 to 3 nodes, ``-n 4`` and ``--exclusive``:
    every such job is refused ("Requested node configuration is not available" where no partition limit
    answers first) under EnforcePartLimits=ALL, and under NO on 24.11.5 (22.05.8 under NO holds some of
    them: ``node_check_reached`` leaves those unjudged) -- tests/cluster/test_layout_fit.py."""
    profile = ctx.cluster
    excluded = set(need.exclude or ())
    shapes = [profile.shape_of(n) for n in partition.nodes if n not in excluded]
    if not shapes or any(shape is None for shape in shapes):
        return Fit(partition, Kind.UNKNOWN)
    asked = layout_cpus(need)  # a one-node job's sockets × cores × threads × -c (None: not so counted)

    def check(shape) -> Check:
        found = layout_check(need, shape)
        if found.fits and asked is not None and asked > usable_cpus(need, shape, partition):
            return Check(Verdict.NO, "cpus", f"{asked} CPUs", _layout_option(need))
        return found

    checks = [check(shape) for shape in shapes]
    if any(check.fits for check in checks):
        return Fit(partition, Kind.UNKNOWN)
    return Fit(partition, Kind.NO, checks[0])


def _layout_option(need) -> str:
    return "extra-node-info" if "extra-node-info" in need.settings else (
        "cores-per-socket" if need.cores else "sockets-per-node" if need.sockets else "threads-per-core")


def _unknown_names(ctx: FitRun, need) -> bool:
    """Nodes, features, GRES or GPU types the cluster lacks: SB407/SB408/SB411 report them instead."""
    profile = ctx.cluster
    nodes = set(profile.nodes)
    if any(n not in nodes for n in (need.nodelist or ()) + (need.exclude or ())):
        return True
    features = {f for shape in profile.shapes for f in shape.features}
    if any(name not in features for name in _features.names(need.constraint)):
        return True
    offered = {(g.name, g.type) for shape in profile.shapes for g in shape.gres}
    names = {name for name, _ in offered}
    asks = [*need.node_gres, need.gpus_per_task, need.gpus_total]
    return any(a is not None and (a.name not in names or (a.type and (a.name, a.type) not in offered)) for a in asks)


def _partition_fit(ctx: FitRun, need, partition) -> Fit:
    profile = ctx.cluster
    excluded = set(need.exclude or ())
    required = need.nodelist or ()
    if required and not set(required) <= set(partition.nodes):
        return Fit(partition, Kind.MISSING)
    if set(required) & excluded:
        return Fit(partition, Kind.UNKNOWN)
    choices = _features.alternatives(need.constraint)
    if choices:
        return _best_of(partition, [_partition_fit(ctx, attrs.evolve(need, constraint=c), partition) for c in choices])
    counts = _features.counted(need.constraint)
    if counts is None:
        return Fit(partition, Kind.UNKNOWN)
    members = [n for n in partition.nodes if n not in excluded and profile.shape_of(n) is not None]
    if not counts:
        verdicts = {n: _features.satisfied(need.constraint, frozenset(profile.shape_of(n).features)) for n in members}
        if None in verdicts.values():
            return Fit(partition, Kind.UNKNOWN)
        candidates = [n for n in members if verdicts[n]]
        if members and not candidates:
            return Fit(partition, Kind.NO_FEATURE)
    else:
        candidates = members
    # Without --nodes a partition's MinNodes raises the job's node count (22.05.8: `-p long -x c48-01`,
    # MinNodes=2 and one node left, is refused).
    wanted = max(need.nodes_min or partition.min_nodes or 1, len(required))
    cpus = minimum_cpus(need)
    if wanted > len(partition.nodes) or (cpus is not None and cpus > total_cpus(profile, partition)):
        if size_is_limit(ctx):
            return Fit(partition, Kind.TOO_FEW)  # a partition limit (SB410, SB415), judged by EnforcePartLimits
        count = len(partition.nodes)
        return Fit(partition, Kind.NO, detail=f"the job needs {wanted} node{'s' if wanted != 1 else ''}"
                   f"{f' and {cpus} CPUs' if cpus else ''}; it has {count} node{'s' if count != 1 else ''}"
                   f" and {total_cpus(profile, partition)} CPUs")
    if not candidates:
        return Fit(partition, Kind.NO, detail="`--exclude` leaves no node")
    if len(candidates) < wanted <= len(members):
        return Fit(partition, Kind.NO_FEATURE)  # `-p gpu -N 2 -C mixed` with one such node (22.05.8, 24.11.5)
    for feature in counts:
        having = sum(1 for n in candidates if feature.name in profile.shape_of(n).features)
        if having < feature.count:
            return Fit(partition, Kind.NO, None, f"{having} of its nodes have `{feature.name}`,"
                       f" `{feature.name}*{feature.count}` needs {feature.count}")
        if not need.nodes_from and partition.max_nodes is not None and feature.count > partition.max_nodes:
            # A count is a node count the job never asked for with --nodes: 22.05.8 and 24.11.5 refuse
            # `-p gpu -C ib*3` (MaxNodes=2, four ib nodes) under ALL and NO alike.
            return Fit(partition, Kind.NO, None, f"`{feature.name}*{feature.count}` needs {feature.count} nodes,"
                       f" more than its MaxNodes={partition.max_nodes}")
    if (need.ntasks or 0) > 1 and need.tasks_per_node is None and not (need.nodes_min == need.nodes_max == 1):
        if need.gpus_total is not None or required or counts:
            return Fit(partition, Kind.UNKNOWN)
        return _spread(ctx, need, partition, candidates, "tasks")
    if need.gpus_total is not None and need.gpus_total.count > 1 and not (need.nodes_min == need.nodes_max == 1):
        if required or counts:
            return Fit(partition, Kind.UNKNOWN)
        return _spread(ctx, need, partition, candidates, "gpus")
    return _per_node(ctx, need, partition, candidates, wanted, counts)


def _best_of(partition, fits: list[Fit]) -> Fit:
    """A matching OR: the partition fits when one alternative does, and refuses when every one does."""
    for kind in (Kind.FITS, Kind.UNKNOWN, Kind.TOO_FEW, Kind.MISSING):
        if any(f.kind is kind for f in fits):
            return Fit(partition, kind)
    if all(f.kind is Kind.NO_FEATURE for f in fits):
        return Fit(partition, Kind.NO_FEATURE)
    return next(f for f in fits if f.kind is Kind.NO)


def _tasks_per_node(need) -> int:
    if need.tasks_per_node:
        return need.tasks_per_node
    if need.ntasks and need.nodes_min == need.nodes_max == 1:
        return need.ntasks
    return 1


def _extra_gpus(need, tasks: int) -> tuple[int, str | None]:
    if need.gpus_total is not None:
        return need.gpus_total.count, need.gpus_total.type  # on one node
    if need.gpus_per_task is not None:
        return need.gpus_per_task.count * tasks, need.gpus_per_task.type
    return 0, None


def _per_node(ctx: FitRun, need, partition, candidates: list[str], wanted: int, counts) -> Fit:
    profile = ctx.cluster
    tasks = _tasks_per_node(need)
    if need.ntasks and need.tasks_per_node and -(-need.ntasks // need.tasks_per_node) > wanted:
        return Fit(partition, Kind.UNKNOWN)  # how many nodes Slurm picks is a limit question
    extra, gpu_type = _extra_gpus(need, tasks)
    cache: dict[int, Check] = {}

    def check(node: str) -> Check:
        shape = profile.shape_of(node)
        if id(shape) not in cache:
            cache[id(shape)] = per_node(need, shape, partition, profile.config, tasks, extra, gpu_type)
        return cache[id(shape)]

    for node in need.nodelist or ():
        if node not in candidates:  # it lacks the --constraint features
            return Fit(partition, Kind.NO_FEATURE if not counts else Kind.UNKNOWN)
        verdict = check(node).verdict
        if verdict is Verdict.NO:
            return Fit(partition, Kind.NO, check(node), f"node {node}")
        if verdict is Verdict.UNKNOWN:
            return Fit(partition, Kind.UNKNOWN)
    fitting = [n for n in candidates if check(n).verdict is Verdict.FITS]
    maybe = [n for n in candidates if check(n).verdict is Verdict.UNKNOWN]
    wanted = max(wanted, sum(f.count for f in counts))
    if need.nodes_max is not None and wanted > need.nodes_max:
        return Fit(partition, Kind.NO, None, f"`--constraint` needs {wanted} nodes, `--nodes` allows {need.nodes_max}")
    for feature in counts:
        having = [n for n in fitting if feature.name in profile.shape_of(n).features]
        could = [n for n in maybe if feature.name in profile.shape_of(n).features]
        if len(having) + len(could) < feature.count:
            return Fit(partition, Kind.NO, None, f"{len(having) + len(could)} of its nodes with `{feature.name}` hold"
                       f" the request, `{feature.name}*{feature.count}` needs {feature.count}")
        if len(having) < feature.count:
            return Fit(partition, Kind.UNKNOWN)
    if len(fitting) >= wanted:
        return Fit(partition, Kind.FITS)
    if len(fitting) + len(maybe) >= wanted:
        return Fit(partition, Kind.UNKNOWN)
    if not fitting and not maybe:
        return Fit(partition, Kind.NO, _worst(check, candidates))
    return Fit(partition, Kind.NO, None, f"only {len(fitting) + len(maybe)} of its nodes hold the request, the job"
               f" needs {wanted}")


def _worst(check, candidates: list[str]) -> Check:
    """The shortfall to report: the one most nodes share (CPUs before memory before GRES)."""
    shortfalls = [check(n) for n in candidates]
    order = ("layout", "cpus", "memory")
    return sorted(shortfalls, key=lambda c: order.index(c.what) if c.what in order else len(order))[0]


def _spread(ctx: FitRun, need, partition, candidates: list[str], unit: str) -> Fit:
    """Tasks (or GPUs) that may spread over several nodes: do the best nodes hold them all?"""
    profile = ctx.cluster
    total = need.ntasks if unit == "tasks" else need.gpus_total.count
    limit = min(x for x in (need.nodes_max, partition.max_nodes, len(candidates), total) if x is not None)
    caps: dict[int, tuple[int, int]] = {}
    for node in candidates:
        shape = profile.shape_of(node)
        if id(shape) not in caps:
            found = _capacity(ctx, need, partition, shape, unit, total)
            if found is None:
                return Fit(partition, Kind.UNKNOWN)
            caps[id(shape)] = found
    low = sorted((caps[id(profile.shape_of(n))][0] for n in candidates), reverse=True)
    high = sorted((caps[id(profile.shape_of(n))][1] for n in candidates), reverse=True)
    least = need.nodes_min or partition.min_nodes or 1
    if least > total:
        return Fit(partition, Kind.UNKNOWN)
    if sum(low[:limit]) >= total and sum(1 for c in low if c) >= least:
        return Fit(partition, Kind.FITS)
    if not any(high):  # not even one task (GPU) fits on a node: say why, as for a single node
        extra, gpu_type = _extra_gpus(need, 1) if unit == "tasks" else (1, need.gpus_total.type)
        check = per_node(need, profile.shape_of(candidates[0]), partition, profile.config, 1, extra, gpu_type)
        if check.verdict is Verdict.NO:
            return Fit(partition, Kind.NO, check)
    if sum(high[:limit]) < total or sum(1 for c in high if c) < least:
        what = "tasks" if unit == "tasks" else "GPUs"
        return Fit(partition, Kind.NO, None, f"at most {sum(high[:limit])} of the {total} {what} fit on the"
                   f" {limit} node{'s' if limit != 1 else ''} the job may use")
    return Fit(partition, Kind.UNKNOWN)


# Tasks (GPUs) per node tried one count at a time: more than any node holds. A profile or a request
# past it (a node of 10^9 CPUs) is not judged rather than tried a billion times.
MAX_PER_NODE = 4096


def _capacity(ctx: FitRun, need, partition, shape, unit: str, total: int) -> tuple[int, int] | None:
    """How many tasks (GPUs) one node of ``shape`` holds: (surely, at most), counted up to ``total`` (all
    the job asks for: a node holding more changes no verdict); None past ``MAX_PER_NODE``."""
    config = ctx.cluster.config
    most = min(shape.cpus if unit == "tasks" else shape.gpus(need.gpus_total.type), total)
    if most > MAX_PER_NODE:
        return None
    surely = possibly = 0
    for count in range(1, most + 1):
        if unit == "tasks":
            extra, gpu_type = _extra_gpus(need, count)
            verdict = per_node(need, shape, partition, config, count, extra, gpu_type).verdict
        else:
            tasks = need.tasks_per_node or 1
            verdict = per_node(need, shape, partition, config, tasks, count, need.gpus_total.type).verdict
        if verdict is Verdict.NO:
            break
        possibly = count
        if verdict is Verdict.FITS and surely == count - 1:
            surely = count
    return surely, possibly
