"""SB452: one GPU on each of several nodes, when the same request fits on fewer nodes.

``--nodes=N`` with one GPU per node makes the GPUs talk over the network
instead of inside a node, and holds N nodes where fewer would do; a node with
G GPUs (and the CPUs and memory) holds G such pieces (``man sbatch``,
``--nodes``, ``--gpus-per-node``).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


def _nodes_needed(ask, shape) -> int | None:
    """The fewest nodes of ``shape`` that hold the whole request (None: one per node is needed)."""
    total = ask.nodes
    if ask.memory_mb == 0:
        return None  # all memory of each node: the nodes are what it asks for
    needs = [-(-total * ask.gpus // shape.gpus(ask.gpu_type))]
    if ask.cpus is not None:
        needs.append(-(-total * ask.cpus // shape.cpus))
    if ask.memory_mb:
        needs.append(-(-total * ask.memory_mb // shape.memory_mb))
    return max(needs)


@rule("SB452", "gpus-spread-over-nodes", Severity.WARNING, Outcome.WRONG)
def gpus_spread_over_nodes(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds jobs on several nodes with one GPU per node whose GPUs, CPUs
    and memory would fit on fewer nodes of every kind the job could run on.

    ## Why is this bad?
    GPUs on one node exchange data over NVLink or PCIe; GPUs on different nodes over the network,
    many times slower, so a training job spread one GPU per node runs slower. It also holds a
    piece of several nodes, which keeps jobs that need whole nodes waiting.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --nodes=4
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=1
    #SBATCH --time=04:00:00
    srun python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --nodes=1
    #SBATCH --ntasks-per-node=4
    #SBATCH --gpus-per-node=4
    #SBATCH --time=04:00:00
    srun python train.py
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--nodes`, `--gpus-per-node`, `--ntasks-per-node`
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.waste import asks, candidates, names, plural
    for ask in asks(ctx):
        if ask.gpus != 1 or ask.nodes is None or ask.nodes < 2 or ask.exclusive:
            continue
        nodes = ask.request.get("nodes")
        if nodes is None:
            continue
        shapes = candidates(ctx, ask)
        needed = [_nodes_needed(ask, shape) for shape in shapes]
        if not shapes or any(n is None or n >= ask.nodes for n in needed):
            continue
        fewest = min(needed)
        best = shapes[needed.index(fewest)]
        ctx.report(
            "SB452", nodes.directive.span,
            f"the job spreads {plural(ask.nodes, 'GPU')} one per node over {plural(ask.nodes, 'node')}, but nodes"
            f" {names([best])} have {best.gpus(ask.gpu_type)} GPUs each: the same GPUs, CPUs and memory fit on"
            f" {plural(fewest, 'node')}, where the GPUs talk over NVLink/PCIe instead of the network; ask for"
            f" `--nodes={fewest}` with {-(-ask.nodes // fewest)} GPUs (and tasks) per node",
        )
