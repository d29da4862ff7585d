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

import attrs

from slurmspec.cluster.fit import FitRun
from slurmspec.cluster.fit import features as _features
from slurmspec.cluster.fit.limits import node_check_reached, size_is_limit
from slurmspec.cluster.fit.need import Need, minimum_cpus, need_of, total_cpus
from slurmspec.cluster.fit.shape import Check, Verdict, layout_check, layout_cpus, usable_cpus
from slurmspec.cluster.fit.spread import per_node_fit, spread_fit
from slurmspec.cluster.fit.verdict import REFUSED_KINDS, Fit, Kind
from slurmspec.cluster.fit.where import Placement, runnable

__all__ = ["Assessment", "Fit", "Kind", "REFUSED_KINDS", "assessments"]


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
        return spread_fit(ctx, need, partition, candidates, "tasks")
    if need.gpus_total is not None and need.gpus_total.count > 1 and not (need.nodes_min == need.nodes_max == 1):
        if required or counts:
            return Fit(partition, Kind.UNKNOWN)
        return spread_fit(ctx, need, partition, candidates, "gpus")
    return per_node_fit(ctx, need, partition, candidates, wanted, counts)


def _best_of(partition, fits: list[Fit]) -> Fit:
    """A matching OR: the partition fits when one alternative does, and refuses when every one does."""
    for kind in (Kind.FITS, Kind.UNKNOWN, Kind.TOO_FEW, Kind.MISSING):
        if any(f.kind is kind for f in fits):
            return Fit(partition, kind)
    if all(f.kind is Kind.NO_FEATURE for f in fits):
        return Fit(partition, Kind.NO_FEATURE)
    return next(f for f in fits if f.kind is Kind.NO)
