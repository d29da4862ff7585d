"""SB411: `--nodelist`/`--exclude` names that are not nodes of the cluster, or not in the job's partitions.

slurmctld refuses a node name it does not know in ``--nodelist`` or
``--exclude`` ("Invalid node name specified", ``src/slurmctld/job_mgr.c:_job_create()``).
A known node outside the job's partitions is refused too: with
``EnforcePartLimits=ALL`` when any listed partition lacks it ("Requested nodes
not in this partition", ``_part_access_check()``), otherwise when every
listed partition lacks it ("Requested node configuration is not available").
Measured on Slurm 22.05.8 and 24.11.5: ``-p cpu -w nonode``, ``-x nonode``,
``-p cpu -w v100-01`` refused; ``-p cpu,gpu -w v100-01`` refused under ``ALL``
only. 24.11.5 accepts some ``--exclude`` and ``--nodelist`` lists mixing known
and unknown names (``-x nonode,c48-01``), so from 23.02 only an all-unknown list is judged
(gate ``NODE_LIST_UNKNOWN_NAMES_UNCERTAIN``).
"""

from __future__ import annotations

from slurmspec.gates import NODE_LIST_UNKNOWN_NAMES_UNCERTAIN
from slurmspec.kinds import EnforcePartLimits, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB411", "nodelist-not-in-partition", Severity.ERROR, Outcome.REFUSED)
def nodelist_not_in_partition(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds `--nodelist` or `--exclude` names that are not nodes of the
    cluster, and `--nodelist` nodes that are not in the job's partitions.

    ## Why is this bad?
    The controller refuses the job: "Invalid node name specified" for an unknown name,
    "Requested nodes not in this partition" or "Requested node configuration is not available"
    for a node of another partition. Node names are the cluster's own.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=cpu
    #SBATCH --nodelist=gpu-node01
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=cpu
    #SBATCH --nodelist=cpu-001
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--nodelist`, `--exclude`
    - `src/slurmctld/job_mgr.c:_job_create()`, `_part_access_check()` (`ESLURM_REQUESTED_NODES_NOT_IN_PARTITION`)
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.hostlist import compress_hostlist
    from slurmspec.cluster.fit.limits import node_check_reached
    from slurmspec.cluster.fit.need import need_of
    from slurmspec.cluster.fit.where import runnable, where
    known = set(ctx.cluster.nodes)
    enforce = ctx.cluster.config.enforce_part_limits
    for placement in runnable(ctx):
        need = need_of(placement.request, ctx.version)
        unknown = False
        for option, names in (("nodelist", need.nodelist), ("exclude", need.exclude)):
            missing = [n for n in names or () if n not in known]
            if ctx.version >= NODE_LIST_UNKNOWN_NAMES_UNCERTAIN and len(missing) < len(names or ()):
                continue  # 24.11 refuses some such lists and accepts others
            if missing:
                unknown = True
                setting = placement.request.get(option)
                ctx.report(
                    "SB411", setting.directive.span,
                    f"{where(setting)}: the cluster has no node {compress_hostlist(missing)}; the controller refuses"
                    " the job (\"Invalid node name specified\")",
                )
        if unknown or not need.nodelist or placement.down or need.unsure:
            continue  # with a DOWN partition the node list is checked inconsistently (cluster.fit.where.Placement.down)
        lacking = [p for p in placement.usable if not set(need.nodelist) <= set(p.nodes)]
        if enforce is not EnforcePartLimits.ALL and (
                len(lacking) < len(placement.usable) or node_check_reached(ctx, placement, need) is not True):
            continue  # checked with the nodes, after the partition limits (cluster.fit.limits.node_check_reached)
        if not lacking:
            continue
        setting = placement.request.get("nodelist")
        parts = "; ".join(
            f"partition {p.name} lacks {compress_hostlist(n for n in need.nodelist if n not in p.nodes)}" for p in lacking)
        said = ("\"Requested nodes not in this partition\"" if enforce is EnforcePartLimits.ALL else
                "\"Requested node configuration is not available\"")
        ctx.report("SB411", setting.directive.span,
                   f"{where(setting)}: {parts}; the controller refuses the job ({said})", outcome=Outcome.REFUSED)
