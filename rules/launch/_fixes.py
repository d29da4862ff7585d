"""The fix SB301, SB310 and SB311 share: set the tasks per node of a step."""

from __future__ import annotations

from slurmspec.fix.build import delete_directives, make_fix, replace
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Applicability
from slurmspec.model.syntax.script import Script
from slurmspec.model.values.counts import NodeCount

_TASKS_PER_NODE = ("ntasks-per-node", "tasks-per-node")


def _even_split(request, tasks) -> bool:
    """``--ntasks`` divides evenly over a fixed ``--nodes`` (or there is no ``--nodes``).

    With ``-N 2 -n 1`` sbatch lowers the node count to the task count ("can't run 1
    processes on 2 nodes, setting nnodes to 1"), and with ``-N 2 -n 3`` the tasks per
    node differ: turning ``-n`` into ``--ntasks-per-node`` would then change how many
    nodes and processes the job gets, so no fix is offered.
    """
    nodes = request.get("nodes")
    if nodes is None:
        return True
    node_count = nodes.value_as(NodeCount)
    count = tasks.count()
    if node_count is None or node_count.maximum != node_count.minimum or count is None:
        return False
    low = node_count.minimum
    return count >= low and count % low == 0


def set_tasks_per_node(script: Script, srun, count: int, why: str) -> Fix | None:
    """SB301/SB310/SB311: give the step ``count`` tasks per node (1 under torchrun and friends,
    one per GPU for DDP/Horovod/DeepSpeed/Lightning under srun).

    Edits where the count comes from: the `srun` line's own `--ntasks-per-node`, else the
    header's (a header `--ntasks` becomes `--ntasks-per-node`, since with a task count per
    node the total follows from the nodes). Unsafe: it changes the job's shape.
    """
    options = srun.options if srun is not None else ()
    if any(o.name == "ntasks" for o in options):
        return None  # `srun -n N`: the step's own total; which count was meant is unclear
    title = f"Run {count} task{'s' if count != 1 else ''} per node ({why})"
    own = [o for o in options if o.name in _TASKS_PER_NODE]
    if own and own[-1].value != str(count):
        span = own[-1].value_span
        return None if span is None else make_fix(title, [replace(script, span.start, span.end, str(count))], Applicability.UNSAFE)
    # `srun --ntasks-per-node=1` already, yet more tasks per node: the job's SLURM_NTASKS (exported
    # for -N x --ntasks-per-node too) wins over it ("can't honor --ntasks-per-node ... Ignoring
    # --ntasks-per-node", sbatch/srun 22.05.8 and 24.11.5), so the header's count is what to change.
    request = script.components[0].request if len(script.components) == 1 else None
    if request is None:
        return None
    per_node, tasks = request.get("ntasks-per-node"), request.get("ntasks")
    if per_node is not None and not per_node.inherited and per_node.directive.value_span is not None:
        span = per_node.directive.value_span
        edits = [replace(script, span.start, span.end, str(count))]
        if tasks is not None:
            dropped = delete_directives(script, [*tasks.overridden, tasks.directive])
            if dropped is None:
                return None
            edits.extend(dropped)
        return make_fix(title, edits, Applicability.UNSAFE)
    if tasks is not None and not tasks.overridden and tasks.directive.span is not None:
        if not _even_split(request, tasks):
            return None  # the job's shape is not fixed: how many processes it needs is unknowable
        span = tasks.directive.span
        if script.source[span.start:span.start + 1] != "-":
            return None
        return make_fix(title, [replace(script, span.start, span.end, f"--ntasks-per-node={count}")], Applicability.UNSAFE)
    return None
