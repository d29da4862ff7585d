"""SB215–SB216: a task count that does not fit the node count.

`src/sbatch/opt.c:_opt_verify()` lowers the node count to the task count when
`--nodes` is larger than `--ntasks` ("can't run %d processes on %d nodes,
setting nnodes to %d"): the job runs on fewer nodes. With `--ntasks`,
`--ntasks-per-node` is a maximum per node (`man sbatch`), so more tasks than
it allows on the largest node count make slurmctld refuse the job
("Requested node configuration is not available", probed on 22.05.8).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.counts import NodeCount
from slurmspec.rules.traps._header import option_span, own, shown


@rule("SB215", "ntasks-below-nodes", Severity.WARNING, Outcome.WRONG)
def ntasks_below_nodes(ctx: Context) -> None:
    """
        ## What it does
        Finds `--nodes` larger than `--ntasks`.

        ## Why is this bad?
        A node without a task makes no sense to Slurm, so it lowers the node count to the task
        count (`can't run 2 processes on 4 nodes, setting nnodes to 2`); the job runs on fewer
        nodes than the script asks for.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --ntasks=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --ntasks-per-node=1
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:_opt_verify()`: "can't run %d processes on %d nodes, setting nnodes
          to %d"
    """
    for component in ctx.script.components:
        counts = _counts(component.request)
        if counts is None:
            continue
        ntasks, nodes, n, minimum, _ = counts
        if minimum > n:
            ctx.report(
                "SB215", option_span(ctx.script, nodes.directive),
                f"`{shown(nodes.directive)}` asks for more nodes than `{shown(ntasks.directive)}`"
                f" has tasks; Slurm silently reduces the job to {n} node{'s' if n != 1 else ''}"
                f" (\"can't run {n} processes on {minimum} nodes\"). Raise the task count or lower"
                " the node count",
            )


@rule("SB216", "ntasks-exceed-nodes-capacity", Severity.ERROR, Outcome.REFUSED)
def ntasks_exceed_nodes_capacity(ctx: Context) -> None:
    """
        ## What it does
        Finds `--ntasks` larger than `--ntasks-per-node` times the (maximum) node count.

        ## Why is this bad?
        With `--ntasks`, `--ntasks-per-node` is a maximum per node, so the tasks cannot fit on
        the nodes allowed; slurmctld refuses the job with `Requested node configuration is not
        available` (probed on 22.05), which reads like a cluster problem.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=4
        #SBATCH --ntasks=16
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --ntasks-per-node=4
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--ntasks-per-node` ("treated as a maximum count of tasks per node")
    """
    for component in ctx.script.components:
        request = component.request
        counts = _counts(request)
        if counts is None:
            continue
        ntasks, _, n, minimum, maximum = counts
        if minimum > n:
            continue  # SB215: the node count is lowered first
        per_node = own(request, "ntasks-per-node")
        k = None if per_node is None else per_node.count()
        if k is None or not maximum:
            continue
        if n > k * maximum:
            ctx.report(
                "SB216", option_span(ctx.script, ntasks.directive),
                f"`{shown(ntasks.directive)}` does not fit in `{shown(per_node.directive)}` on at"
                f" most {maximum} node{'s' if maximum != 1 else ''} ({k * maximum} tasks); the"
                " controller refuses the job (\"Requested node configuration is not available\")."
                " Raise the node count or tasks per node, or lower `--ntasks`",
            )


def _counts(request):
    """(ntasks setting, nodes setting, task count, node minimum, node maximum) when the
    component sets both a whole positive task count and a node count itself, else None."""
    ntasks = own(request, "ntasks")
    nodes = own(request, "nodes")
    if ntasks is None or nodes is None:
        return None
    n = ntasks.count()
    node_count = nodes.value_as(NodeCount)
    if n is None or node_count is None or n <= 0:
        return None
    return ntasks, nodes, n, node_count.minimum, node_count.maximum
