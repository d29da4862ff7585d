"""SB406: the request exceeds what any node of the job's partitions can hold.

The controller refuses a job that no node of any of its partitions can run,
whatever ``EnforcePartLimits`` says: "Requested node configuration is not
available" (``ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE``, from
``src/slurmctld/node_scheduler.c:_get_req_features()``/``select_nodes()``, at
submission). What one node must hold, and how it is measured, is in
``slurmspec/cluster/fit/shape.py`` and ``nodes.py``; every fact there was measured with held-off
submissions on Slurm 22.05.8 and 24.11.5 (``sbatch --test-only`` misses some:
a ``MaxMemPerCPU`` that raises the CPUs beyond a node, ``-C a*3`` with two
``a`` nodes).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule

NOT_AVAILABLE = "the controller refuses the job (\"Requested node configuration is not available\")"


def _offer(ctx: Context, need, partition, what: str) -> str:
    """What the partition's best node offers in the dimension that falls short."""
    from slurmspec.cluster.hostlist import compress_hostlist
    from slurmspec.cluster.fit.shape import usable_cpus
    shapes = ctx.cluster.shapes_in(partition)
    if not shapes:
        return "it has no nodes"
    if what == "cpus":
        best = max(shapes, key=lambda s: usable_cpus(need, s, partition))
        cap = " (MaxCPUsPerNode)" if partition.max_cpus_per_node is not None else ""
        threads = " using one thread per core" if need.threads == 1 else ""
        return f"its largest nodes have {usable_cpus(need, best, partition)} usable CPUs{threads}{cap}" \
            f" ({compress_hostlist(n for n in best.nodes if n in partition.nodes)})"
    if what == "memory":
        best = max(shapes, key=lambda s: s.memory_mb)
        return f"its largest nodes have {best.memory_mb} MB ({compress_hostlist(n for n in best.nodes if n in partition.nodes)})"
    if what.startswith("gres:"):
        name, _, gtype = what[5:].partition(":")
        best = max(shapes, key=lambda s: s.gres_count(name, gtype or None))
        have = best.gres_count(name, gtype or None)
        if not have:
            return f"none of its nodes has `{what[5:]}`"
        return f"its nodes have at most {have} ({compress_hostlist(n for n in best.nodes if n in partition.nodes)})"
    layouts = sorted({f"{s.sockets} sockets × {s.cores_per_socket} cores × {s.threads_per_core} threads" for s in shapes})
    return f"its nodes have {', '.join(layouts)}"


@rule("SB406", "request-exceeds-nodes", Severity.ERROR, Outcome.REFUSED)
def request_exceeds_nodes(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a job that no node of its partitions can hold: more CPUs per node
    (tasks per node × CPUs per task, CPUs per GPU, `--mincpus`), more memory per node (`--mem`,
    `--mem-per-cpu` × CPUs, `--mem-per-gpu` × GPUs), more GPUs of its type or other GRES per node,
    a socket/core/thread layout no node has, named nodes that cannot hold it, or more tasks or GPUs
    than the nodes it may use hold together.

    ## Why is this bad?
    The controller refuses the job: "Requested node configuration is not available". A script
    written for another cluster often asks for that cluster's node sizes.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gpus-per-node=16
    #SBATCH --time=01:00:00
    srun ./train
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gpus-per-node=8
    #SBATCH --time=01:00:00
    srun ./train
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one, and silent when the request
    uses an option whose effect on placement is not modelled (`--gpus-per-socket`,
    `--overcommit`, `--tmp`, ...).

    ## References
    - `man sbatch`, `--cpus-per-task`, `--ntasks-per-node`, `--mem`, `--mem-per-cpu`, `--gpus-per-node`
    - `man slurm.conf`, node `CPUs`, `RealMemory`, `Gres`; partition `MaxCPUsPerNode`, `MaxMemPerCPU`
    - `src/slurmctld/node_scheduler.c:select_nodes()` (`ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE`)
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.nodes import Kind, assessments
    from slurmspec.cluster.fit.where import anchor
    for found in assessments(ctx):
        if not found.refused() or not found.of(Kind.NO):
            continue
        reasons, option = [], None
        for fit in found.of(Kind.NO):
            if fit.check is not None:
                node = f" ({fit.detail})" if fit.detail else ""
                reasons.append(f"no node of partition {fit.partition.name} holds {fit.check.asked} per node{node};"
                               f" {_offer(ctx, found.need, fit.partition, fit.check.what)}")
                option = option or fit.check.option
            else:
                reasons.append(f"partition {fit.partition.name}: {fit.detail}")
        span = anchor(found.placement, *(option,) if option else ())
        if span is not None:
            ctx.report("SB406", span, f"{'; '.join(reasons)}; {NOT_AVAILABLE}")
