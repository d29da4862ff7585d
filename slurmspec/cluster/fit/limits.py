"""The partition limits a request breaks, one predicate per limit (shared by the limit rules and ``nodes``).

A limit (MaxTime, MaxNodes/MinNodes and the partition's node count, its
total CPUs, MaxMemPerNode, AllowAccounts/AllowQos) is judged by
``EnforcePartLimits`` (``where.limit_outcome``). Under ``NO`` (and ``ANY``) a
job that breaks a limit of a partition is held there before any node is
looked at (``src/slurmctld/node_scheduler.c:select_nodes()`` calls
``job_limits_check()`` first): measured on Slurm 22.05.8, ``-p debug -N 3
--gres=gpu:h100:5`` under ``NO`` is accepted and pends although no node has
an h100, and ``-p cpu -t 2-00:00:00 --mem=300G`` pends too. So the node rules
judge a job only when ``node_check_reached`` (which 24.11 changed).
"""

from __future__ import annotations

from slurmspec.cluster.fit import FitRun
from slurmspec.cluster.fit.need import memory_per_node, minimum_cpus, total_cpus
from slurmspec.gates import PARTITION_SIZE_CHECKED_WITH_NODES
from slurmspec.kinds import EnforcePartLimits
from slurmspec.model.views.values import duration


def asked_minutes(setting) -> float | None:
    """A --time in minutes (``inf`` for no limit), None when not literal."""
    value = duration(setting)
    if value is None:
        return None
    if value.unlimited:
        return float("inf")
    return value.minutes


def job_minutes(placement) -> float | None:
    """The time limit the controller checks: --time, else the first partition's DefaultTime (else none)."""
    setting = placement.request.get("time")
    if setting is not None:
        return asked_minutes(setting)
    first = placement.first
    return first.default_time if first is not None else None


def time_broken(p, minutes: float | None) -> bool:
    return minutes is not None and p.max_time is not None and minutes > p.max_time


def size_is_limit(ctx: FitRun) -> bool:
    """Is "more nodes (CPUs) than the partition has" a partition limit (else a node check, refused)?"""
    return (ctx.cluster.config.enforce_part_limits is not EnforcePartLimits.NO
            or ctx.version < PARTITION_SIZE_CHECKED_WITH_NODES)


def node_count_problem(p, low: int, high: int | None, strict: bool, size_limit: bool = True,
                       minimum: bool = True) -> str | None:
    """Why ``low``(-``high``) nodes break partition ``p``'s limits (``strict``: the maximum counts too;
    ``minimum``: MinNodes counts, i.e. the count was given, not derived from --ntasks)."""
    if p.max_nodes is not None and low > p.max_nodes:
        return f"partition {p.name} allows at most {p.max_nodes} nodes per job (MaxNodes)"
    if size_limit and low > len(p.nodes):
        return f"partition {p.name} has {len(p.nodes)} node{'s' if len(p.nodes) != 1 else ''}"
    if minimum and p.min_nodes > 1 and low < p.min_nodes:
        return f"partition {p.name} needs at least {p.min_nodes} nodes per job (MinNodes)"
    if strict and high is not None and p.max_nodes is not None and high > p.max_nodes:
        return f"partition {p.name} allows at most {p.max_nodes} nodes per job (MaxNodes)"
    return None


def max_mem_per_node(ctx: FitRun, p) -> int | None:
    return p.max_mem_per_node if p.max_mem_per_node is not None else ctx.cluster.config.max_mem_per_node


def access_refused(p, what: str, value: str) -> bool:
    """``what`` is "accounts" or "qos"."""
    allow, deny = (p.allow_accounts, p.deny_accounts) if what == "accounts" else (p.allow_qos, p.deny_qos)
    return (allow is not None and value not in allow) or (deny is not None and value in deny)


def broken(ctx: FitRun, placement, need, p) -> set[str]:
    """The limits of partition ``p`` the request breaks: "time", "nodes", "size", "memory", "access"."""
    strict = ctx.cluster.config.enforce_part_limits is not EnforcePartLimits.NO
    found = set()
    if time_broken(p, job_minutes(placement)):
        found.add("time")
    # 22.05.8 under NO also holds a job whose --nodes maximum is above MaxNodes (`-N 2-3`: PartitionConfig)
    check_max = strict or ctx.version < PARTITION_SIZE_CHECKED_WITH_NODES
    if need.nodes_min is not None and node_count_problem(p, need.nodes_min, need.nodes_max, check_max, False,
                                                         need.nodes_from != "ntasks"):
        found.add("nodes")
    cpus = minimum_cpus(need)
    if (need.nodes_min or 0) > len(p.nodes) or (cpus is not None and cpus > total_cpus(ctx.cluster, p)):
        found.add("size")
    memory, _ = memory_per_node(need)
    limit = max_mem_per_node(ctx, p)
    if memory and limit is not None and memory > limit:
        found.add("memory")
    for option, what in (("account", "accounts"), ("qos", "qos")):
        setting = placement.request.get(option)
        if setting is not None and isinstance(setting.value, str) and access_refused(p, what, setting.value):
            found.add("access")
    return found


def node_check_reached(ctx: FitRun, placement, need) -> bool | None:
    """Does the controller look at the nodes at submission? None: it may or may not.

    Not with a DOWN partition. Under ``ALL`` a broken limit refuses the job by
    itself, so the nodes may as well be judged. Under ``NO`` a broken limit
    holds the job before its nodes are looked at -- every limit on 22.05.8,
    only MaxNodes/MinNodes on 24.11.5 (where a --time over MaxTime does not, and
    the partition's size is a node check, ``PARTITION_SIZE_CHECKED_WITH_NODES``).
    """
    if placement.down:
        return False
    if need.nodes_from in ("", "ntasks") and any(p.min_nodes > 1 for p in placement.usable):
        # Without --nodes the controller raises the job to MinNodes (22.05.8 and 24.11.5 accept `-p long`);
        # but 22.05's sbatch sets a node count itself next to --ntasks-per-node, which MinNodes then holds.
        if ctx.version < PARTITION_SIZE_CHECKED_WITH_NODES and need.tasks_per_node is not None:
            return None
    enforce = ctx.cluster.config.enforce_part_limits
    if enforce is EnforcePartLimits.ALL:
        return True
    kinds = [broken(ctx, placement, need, p) for p in placement.usable]
    if not any(kinds):
        # An option the rules do not model, or a socket/core layout, may raise the CPU count past a limit
        # ``broken`` cannot see. 22.05.8 under NO holds `-p a100 -B 2:16 -c 3 --gres=gpu:h100:1`
        # (PartitionConfig: it counts 2×16×3 = 96 CPUs, more than the partition's 2 nodes ×
        # MaxCPUsPerNode=32) but refuses it with `-c 2` (64 CPUs); it holds `-N 1 --cores-per-socket=13
        # -c 5` (65 CPUs) but refuses `--sockets-per-node=2 --cores-per-socket=16 -c 3` without `-N`.
        # 24.11.5 refuses them all.
        layout = need.unsure or (bool(need.nodes_from) and (need.sockets is not None or need.cores is not None))
        return None if layout and ctx.version < PARTITION_SIZE_CHECKED_WITH_NODES else True
    if enforce is EnforcePartLimits.ANY or not all(kinds):
        return None
    every = set().union(*kinds)
    if ctx.version < PARTITION_SIZE_CHECKED_WITH_NODES:
        return False
    if "nodes" in every:
        return False
    return True if every <= {"time", "size"} else None
