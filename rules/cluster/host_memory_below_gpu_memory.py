"""SB454: less host memory than twice the memory of the job's GPUs.

A rule of thumb of GPU sites: a job needs at least twice its GPUs' memory in
host memory (a model is loaded and checkpointed through host memory, and
pinned transfer buffers mirror device memory). Only a profile that records
each node's GPU memory (``gpu_memory_mb``, added by the site: scontrol does not
show it) lets the rule judge it, and only memory the job asks for itself.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


def _enough(ask, shape) -> int:
    """Host memory the job should have on ``shape``: twice its GPUs' memory, capped at its GPUs' share of the node."""
    share = shape.memory_mb * ask.gpus // shape.gpus()
    return min(2 * ask.gpus * shape.gpu_memory_mb, share)


@rule("SB454", "host-memory-below-gpu-memory", Severity.WARNING, Outcome.WRONG)
def host_memory_below_gpu_memory(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile that records the GPUs' memory (`gpu_memory_mb`), compares the memory
    per node a GPU job asks for with twice the memory of its GPUs on that node, and reports less,
    on every node the job could run on, when the node's share for those GPUs would give more.

    ## Why is this bad?
    Loading a model, checkpointing it and staging batches go through host memory, and pinned
    buffers mirror device memory: with less host memory than twice the GPU memory, jobs that
    fill their GPUs are killed for running out of memory (`OUT_OF_MEMORY`) or crawl while the
    data loader swaps.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:2
    #SBATCH --mem=16G
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:2
    #SBATCH --mem=96G
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`) with `gpu_memory_mb` on its GPU nodes; silent
    without one. The site's default memory (a job that asks for none) is not judged.

    ## References
    - `man sbatch`, `--mem`, `--mem-per-gpu`
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.waste import asks, candidates, gib, memory_setting, names, plural, size
    for ask in asks(ctx):
        if not ask.gpus or not ask.memory_mb:
            continue
        shapes = candidates(ctx, ask)
        if not shapes or any(s.gpu_memory_mb is None or not s.gpus() for s in shapes):
            continue
        if any(ask.memory_mb >= _enough(ask, s) for s in shapes):
            continue
        best = min(shapes, key=lambda s: _enough(ask, s))
        wanted = _enough(ask, best)
        why = "twice their memory" if wanted == 2 * ask.gpus * best.gpu_memory_mb else "their share of the node"
        per_gpu = wanted // ask.gpus
        ctx.report(
            "SB454", memory_setting(ask.request).directive.span,
            f"{ask.memory_source} gives {gib(ask.memory_mb)} of host memory per node for {plural(ask.gpus, 'GPU')}"
            f" with {gib(best.gpu_memory_mb)} each (nodes {names([best])}): jobs that fill their GPUs need about"
            f" twice the GPU memory on the host, to load and checkpoint the model; ask for {why},"
            f" `--mem-per-gpu={size(per_gpu // 1024 * 1024 or per_gpu)}`",
        )
