"""SB133: a `--nodelist` with more hosts than `--nodes` allows.

22.05 ``src/sbatch/opt.c:_opt_verify()`` raises the node minimum to the host
count of ``--nodelist`` and then fails when it exceeds the ``-N`` maximum
("invalid number of nodes (-N 3-2)"); from 23.02 the host count only fills in
a missing ``-N``, so sbatch accepts the pair and reports nothing; it is
reported there as a warning. The controller still refuses the job at
submission: ``src/slurmctld/job_mgr.c:_job_create()`` raises the node minimum
to the required hosts and answers ``ESLURM_INVALID_NODE_COUNT`` ("Node count
specification invalid") when that exceeds the maximum (read in a 20.x
source, not yet checked against a 23.02+ slurmctld), hence REFUSED on every
release.
"""

from __future__ import annotations

from slurmspec.gates import NODELIST_COUNT_LEFT_TO_CONTROLLER
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.hosts import count_hosts
from slurmspec.rules.reject._settings import pairs, where
from slurmspec.model.values.counts import NodeCount


@rule("SB133", "nodelist-exceeds-nodes", Severity.ERROR, Outcome.REFUSED)
def nodelist_exceeds_nodes(ctx: Context) -> None:
    """
        ## What it does
        Finds a `--nodelist` that names more distinct hosts than the maximum of `--nodes`.
        Only plain host names and single `prefix[01-04]` ranges are counted.

        ## Why is this bad?
        Slurm 22.05 raises the minimum node count to the number of listed hosts and then finds
        it above the maximum: `invalid number of nodes (-N 3-2)`. Newer releases only use the
        host count when `--nodes` is missing.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --nodelist=node[01-03]
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=3
        #SBATCH --nodelist=node[01-03]
        srun ./app
        ```

        ## Slurm versions
        An error on 22.05, which refuses the job; a warning on 23.02 and newer, which accept
        it at submission.

        ## References
        - `man sbatch`, `--nodelist`, `--nodes`
        - `src/sbatch/opt.c:_opt_verify()` (22.05: the node minimum is raised to the host count)
    """
    # Checked against sbatch 22.05.8.
    for _, nodes, nodelist in pairs(ctx, "nodes", "nodelist"):
        hosts = count_hosts(nodelist.raw)
        node_count = nodes.value_as(NodeCount)
        maximum = 0 if node_count is None else node_count.maximum
        if hosts is None or maximum <= 0 or hosts <= maximum:
            continue
        head = (f"`--nodelist={nodelist.raw}` names {hosts} hosts, more than"
                f" `--nodes={nodes.raw}` ({where(nodes.directive)}) allows")
        if ctx.version < NODELIST_COUNT_LEFT_TO_CONTROLLER:
            ctx.report(
                "SB133", nodelist.directive.span,
                f"{head}; Slurm 22.05 refuses the job (\"invalid number of nodes"
                f" (-N {hosts}-{maximum})\"). Raise `--nodes` or list fewer hosts",
            )
        else:
            ctx.report(
                "SB133", nodelist.directive.span,
                f"{head}; every listed host is allocated, so the job cannot stay within"
                " `--nodes` (Slurm 22.05 refuses it outright). Raise `--nodes` or list fewer hosts",
                severity=Severity.WARNING,
            )
