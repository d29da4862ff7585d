"""SB414: memory per node above the partition's MaxMemPerNode.

``MaxMemPerNode`` (of the partition, else of the cluster) is a partition
limit: ``src/slurmctld/job_mgr.c:_valid_pn_min_mem()`` /
``job_limits_check()``; ``EnforcePartLimits`` decides (``cluster.fit.where.limit_outcome``).
Measured with held-off submissions on Slurm 22.05.8 and 24.11.5: ``-p long -N 2
--mem=150G`` (MaxMemPerNode=100000) and ``--mem-per-cpu=50001 -c 2`` are refused
under ``ALL`` ("Memory required by task is not available") and accepted under
``NO``, where they pend; so is ``--mem=0`` (all of each 192000 MB node; 22.05.8). (``MaxMemPerCPU`` does not refuse: the controller
gives the job more CPUs, which SB406 checks.)
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB414", "memory-over-partition-max", Severity.ERROR, Outcome.REFUSED)
def memory_over_partition_max(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds memory per node (`--mem`, `--mem-per-cpu` × CPUs per node,
    `--mem-per-gpu` × GPUs per node) above the `MaxMemPerNode` of the job's partitions, and
    `--mem=0` (all of each node's memory) where even the smallest node has more than that.

    ## Why is this bad?
    With `EnforcePartLimits=ALL` (or `ANY`, when every listed partition is over) the controller
    refuses the job: "Memory required by task is not available". With `EnforcePartLimits=NO` it
    pends forever.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=shared
    #SBATCH --mem=200G
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=shared
    #SBATCH --mem=64G
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Slurm versions
    All; the outcome follows the profile's `EnforcePartLimits`. Needs a cluster profile
    (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--mem`, `--mem-per-cpu`; `man slurm.conf`, `MaxMemPerNode`, `EnforcePartLimits`
    - `src/slurmctld/job_mgr.c:_valid_pn_min_mem()` (`ESLURM_INVALID_TASK_MEMORY`)
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.limits import max_mem_per_node
    from slurmspec.cluster.fit.need import memory_per_node, need_of
    from slurmspec.cluster.fit.where import enforcement, limit_outcome, runnable, where
    for placement in runnable(ctx):
        need = need_of(placement.request, ctx.version)
        memory, option = memory_per_node(need)
        whole = need.mem == 0  # --mem=0: all the memory of each node (22.05.8 under ALL refuses it on `long`)
        if not memory and not whole:
            continue
        option = "mem" if whole else option

        def limit(p) -> int | None:
            return max_mem_per_node(ctx, p)

        def asked(p) -> int | None:
            if not whole:
                return memory
            shapes = ctx.cluster.shapes_in(p)  # the smallest node: the least --mem=0 can mean there
            return min(shape.memory_mb for shape in shapes) if shapes else None

        def over(p) -> bool:
            return limit(p) is not None and asked(p) is not None and asked(p) > limit(p)

        outcome = limit_outcome(ctx, placement.usable, over)
        if outcome is None:
            continue
        limits = ", ".join(f"partition {p.name} allows {limit(p)} MB per node" for p in placement.usable if over(p))
        setting = placement.request.get(option)
        amount = ("all the memory of each node (" + " or ".join(
            sorted({f"at least {asked(p)} MB" for p in placement.usable if over(p)})) + ")") if whole \
            else f"{memory} MB per node"
        ctx.report("SB414", setting.directive.span,
                   f"{where(setting)} asks {amount}; {limits}; {enforcement(ctx, outcome)}",
                   outcome=outcome)
