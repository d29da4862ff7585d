"""SB451: memory per GPU far above the node's share, on nodes the job shares.

A node's memory is its GPUs' to share, like its CPUs (SB450): a job holding
most of a node's memory for one GPU leaves the other GPUs without the memory
their jobs ask for (``man slurm.conf``, ``DefMemPerGPU``); ``--mem=0`` takes
all of it (``man sbatch``, ``--mem``).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule

# Report only above this many times the node's memory per GPU.
FACTOR = 2


def _wasteful(ask, shape) -> bool:
    """More than twice the GPUs' share of the node's memory, and more than twice their own memory (SB454's advice)."""
    memory = ask.memory_mb or shape.memory_mb
    if memory * shape.gpus() <= FACTOR * ask.gpus * shape.memory_mb:
        return False
    return shape.gpu_memory_mb is None or memory > 2 * ask.gpus * shape.gpu_memory_mb


@rule("SB451", "memory-over-gpu-share", Severity.WARNING, Outcome.WRONG)
def memory_over_gpu_share(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, compares the memory per node a GPU job asks for (`--mem`,
    `--mem-per-gpu`, `--mem-per-cpu` × its CPUs; `--mem=0` is all of it) with the node's memory
    per GPU, and reports more than twice that share on every node the job could run on, when the
    job shares its nodes (no `--exclusive`, not all of a node's GPUs). Up to twice the memory of
    its GPUs (when the profile records it, `gpu_memory_mb`) is never reported: SB454 asks for that.

    ## Why is this bad?
    Other jobs need memory to use the node's other GPUs. A job holding 384G of a 512G node for
    one of 8 GPUs leaves 128G for 7 GPUs, so jobs asking the usual 64G per GPU fit only twice
    and the other GPUs stay idle.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:1
    #SBATCH --mem=0
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:1
    #SBATCH --mem-per-gpu=32G
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one. The site's default memory
    (when the job asks for none) is not judged.

    ## References
    - `man sbatch`, `--mem` (NOTE: `--mem=0` requests all memory), `--mem-per-gpu`
    - `man slurm.conf`, `DefMemPerGPU`
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.waste import asks, candidates, gib, memory_setting, names, plural, shared_nodes, size
    for ask in asks(ctx):
        if not ask.gpus or ask.memory_mb is None or not shared_nodes(ctx, ask):
            continue
        shapes = candidates(ctx, ask)
        if not shapes or any(ask.gpus >= s.gpus() for s in shapes):
            continue
        if any(not _wasteful(ask, s) for s in shapes):
            continue
        best = max(shapes, key=lambda s: s.memory_mb / s.gpus())
        total = best.gpus()
        memory = ask.memory_mb or best.memory_mb
        share = best.memory_mb // total
        held = min(memory * total // best.memory_mb, total)
        # The share, or twice the GPU's own memory when that is more (never reported: see _wasteful).
        suggested = max(share // 1024 * 1024 or share, 2 * (best.gpu_memory_mb or 0))
        asked = "all of each node's memory" if ask.memory_mb == 0 else f"{gib(memory)} per node"
        ctx.report(
            "SB451", memory_setting(ask.request).directive.span,
            f"{ask.memory_source} asks for {asked} for {plural(ask.gpus, 'GPU')}; nodes {names([best])} have"
            f" {gib(best.memory_mb)} for {total} GPUs ({gib(share)} per GPU), so the job holds the memory of"
            f" {held} GPUs and leaves {plural(held - ask.gpus, 'GPU')} idle for other jobs: ask for about"
            f" `--mem-per-gpu={size(suggested)}`, or for more GPUs if the job uses them",
        )
