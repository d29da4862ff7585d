"""SB410: a `--nodes` count outside what the partitions allow (MaxNodes, MinNodes, their node count).

``src/slurmctld/job_mgr.c:_part_access_check()`` and ``job_limits_check()``
compare the job's node count with each partition's ``MinNodes``/``MaxNodes``
and its number of nodes; these are partition limits, so ``EnforcePartLimits``
decides (``cluster.fit.where.limit_outcome``). Measured with held-off submissions on
Slurm 22.05.8 and 24.11.5: under ``ALL`` the job is refused ("Node count
specification invalid") when its minimum or its maximum (``-N 2-3`` with
MaxNodes=2) is out of range; under ``NO`` a minimum out of range is accepted
and pends (reason ``PartitionConfig``/``PartitionNodeLimit``)
(and from 24.11 a count above the partition's nodes is a node check that
refuses it, ``PARTITION_SIZE_CHECKED_WITH_NODES``, reported by SB406); from 24.11 a job without ``--nodes`` in a
partition with ``MinNodes`` above 1 is refused under ``ALL``/``ANY``
(``PARTITION_MIN_NODES_WITHOUT_NODES_REFUSED``); 22.05 raises it to MinNodes
when that is its only partition, and under ``ALL`` refuses it when it lists
others ("Requested partition configuration not available now").
"""

from __future__ import annotations

from slurmspec.gates import PARTITION_MIN_NODES_WITHOUT_NODES_REFUSED
from slurmspec.kinds import EnforcePartLimits, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB410", "node-count-over-partition", Severity.ERROR, Outcome.REFUSED)
def node_count_over_partition(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a `--nodes` count (or a `--nodelist` of that many nodes, or
    `--ntasks` over `--ntasks-per-node` needing that many) above a partition's `MaxNodes` or its
    number of nodes, or below its `MinNodes`.

    ## Why is this bad?
    With `EnforcePartLimits=ALL` (or `ANY`, when every listed partition is out of range) the
    controller refuses the job: "Node count specification invalid". With `EnforcePartLimits=NO`
    the job is accepted and pends forever (`PartitionNodeLimit`).

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --nodes=8
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --nodes=2
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Slurm versions
    All; the outcome follows the profile's `EnforcePartLimits`. From 24.11 a job without `--nodes`
    in a partition whose `MinNodes` is above 1 is refused under `ALL`/`ANY`, and under `NO` a count
    above the partition's nodes is refused (SB406 reports it). Needs a cluster profile
    (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--nodes`; `man slurm.conf`, `MaxNodes`, `MinNodes`, `EnforcePartLimits`
    - `src/slurmctld/job_mgr.c:_part_access_check()` (`ESLURM_INVALID_NODE_COUNT`)
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.limits import node_count_problem, size_is_limit
    from slurmspec.cluster.fit.need import need_of
    from slurmspec.cluster.fit.where import enforcement, limit_outcome, runnable, where
    enforce = ctx.cluster.config.enforce_part_limits
    strict = enforce is not EnforcePartLimits.NO
    for placement in runnable(ctx):
        if placement.down:
            continue  # a DOWN partition makes the node counts inconsistent (cluster.fit.where.Placement.down)
        need = need_of(placement.request, ctx.version)  # sbatch lowers --nodes to a smaller --ntasks
        if need.nodes_from in ("", "ntasks"):
            _min_nodes_without_nodes(ctx, placement, need, strict)
        if not need.nodes_from:
            continue
        if need.nodelist_conflict:
            continue  # 24.11.5 accepts `-N 1 -w a,b,c` on a MaxNodes=2 partition
        setting = placement.request.get(need.nodes_from)
        low, high = need.nodes_min, need.nodes_max
        if low is None or low < 1:
            continue
        high = high if high is not None and high >= low else None
        sized = size_is_limit(ctx)
        given = need.nodes_from != "ntasks"  # MinNodes is judged only on a count the script gives
        outcome = limit_outcome(ctx, placement.usable,
                                lambda p: node_count_problem(p, low, high, strict, sized, given) is not None)
        if outcome is None:
            continue
        problems = [node_count_problem(p, low, high, strict, sized, given) for p in placement.usable]
        why = f"{'; '.join(p for p in problems if p)}; {enforcement(ctx, outcome)}"
        asked = where(setting) if need.nodes_from != "ntasks" else (
            f"{where(setting)} with `--ntasks-per-node={need.tasks_per_node}` needs {low} nodes")
        ctx.report("SB410", setting.directive.span, f"{asked}: {why}", outcome=outcome)


def _min_nodes_without_nodes(ctx: Context, placement, need, strict: bool) -> None:
    """A job without --nodes where a listed partition has MinNodes > 1 (see the module doc)."""
    from slurmspec.cluster.fit.where import anchor, enforcement, limit_outcome
    if not strict:
        return
    # --ntasks over --ntasks-per-node asks for that many nodes: 24.11.5 under ALL accepts
    # `-p cpu,long -n 2 --ntasks-per-node=1` (MinNodes=2) and refuses `-n 4 --ntasks-per-node=4`
    asked = need.nodes_min if need.nodes_from == "ntasks" and need.nodes_min else 1
    if ctx.version >= PARTITION_MIN_NODES_WITHOUT_NODES_REFUSED:
        outcome = limit_outcome(ctx, placement.usable, lambda p: p.min_nodes > asked)
        said = "Node count specification invalid"
    elif (ctx.cluster.config.enforce_part_limits is EnforcePartLimits.ALL and len(placement.usable) > 1
          and any(p.min_nodes > 1 for p in placement.usable)):
        # 22.05.8 raises a job in one such partition to MinNodes, but refuses one listing several partitions
        outcome, said = Outcome.REFUSED, "Requested partition configuration not available now"
    else:
        return
    span = anchor(placement)
    if outcome is None or span is None:
        return
    names = ", ".join(f"{p.name} (MinNodes={p.min_nodes})" for p in placement.usable if p.min_nodes > asked)
    count = "one node" if asked == 1 else f"{asked} nodes (`--ntasks` over `--ntasks-per-node`)"
    ctx.report(
        "SB410", span,
        f"without `--nodes` the job asks for {count}, fewer than partition {names} requires;"
        f" {enforcement(ctx, outcome)} (\"{said}\"); add `--nodes`",
        outcome=outcome,
    )
