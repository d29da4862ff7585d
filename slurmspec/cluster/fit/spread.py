"""How many of a partition's candidate nodes hold a request, and whether that is enough.

``per_node_fit``: a fixed number of tasks per node (and every ``--nodelist`` node, the
counted ``--constraint`` features) on ``--nodes`` nodes. ``spread_fit``: ``--ntasks`` or
``--gpus`` that may spread over up to ``--nodes``' maximum, the partition's ``MaxNodes`` and
its node count; it fits when the nodes that hold the most tasks (GPUs) hold them all
(``-p gpu --gpus=v100:9`` with two 4-GPU v100 nodes and MaxNodes=2 is refused, measured on
Slurm 22.05.8 and 24.11.5).
"""

from __future__ import annotations

from slurmspec.cluster.fit import FitRun
from slurmspec.cluster.fit.shape import Check, Verdict, per_node
from slurmspec.cluster.fit.verdict import Fit, Kind

__all__ = ["per_node_fit", "spread_fit", "MAX_PER_NODE"]


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


def per_node_fit(ctx: FitRun, need, partition, candidates: list[str], wanted: int, counts) -> Fit:
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


def spread_fit(ctx: FitRun, need, partition, candidates: list[str], unit: str) -> Fit:
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
