"""SB453: `--exclusive` for a job that uses a small part of each node's GPUs.

With ``--exclusive`` "the job is allocated all CPUs and GRES on all nodes in
the allocation" (``man sbatch``, ``--exclusive``, 22.05 and later): a job that
asks for one GPU of eight holds all eight, and nobody else can use the other
seven while it runs.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB453", "exclusive-small-request", Severity.WARNING, Outcome.WRONG)
def exclusive_small_request(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds `--exclusive` jobs that ask for at most half of the GPUs of
    every node they could run on, or for no GPU on nodes that all have GPUs. A partition that
    gives whole nodes anyway (`OverSubscribe=EXCLUSIVE`) is not reported.

    ## Why is this bad?
    `--exclusive` gives the job every CPU and every GPU of its nodes. A job that asks for one
    GPU of eight holds the other seven idle for its whole run, and is charged for them at
    sites that bill whole nodes. Ask for the GPUs the job uses and let others share the node,
    or ask for all of them if the program can use them.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --exclusive
    #SBATCH --gres=gpu:1
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:1
    #SBATCH --cpus-per-gpu=8
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--exclusive` ("allocated all CPUs and GRES on all nodes in the allocation")
    - `man slurm.conf`, `OverSubscribe=EXCLUSIVE` (partition)
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.waste import asks, candidates, names, partitions, plural
    for ask in asks(ctx):
        if not ask.exclusive:
            continue
        chosen = partitions(ctx, ask.request) or ()
        if any(p.oversubscribe.upper().startswith("EXCLUSIVE") for p in chosen):
            continue
        shapes = candidates(ctx, ask)
        if not shapes or any(not s.gpus() or ask.gpus * 2 > s.gpus() for s in shapes):
            continue
        fewest = min(shapes, key=lambda s: s.gpus())
        total = fewest.gpus()
        if ask.gpus:
            asked = f"{plural(ask.gpus, 'GPU')} per node"
            advice = ("drop `--exclusive` and ask for the CPUs and memory it needs (`--cpus-per-gpu`,"
                      " `--mem-per-gpu`), or ask for all the GPUs if it uses them")
        else:
            asked = "no GPU"
            advice = "run it in a partition without GPUs, or ask for the GPUs it uses"
        ctx.report(
            "SB453", ask.request.get("exclusive").directive.span,
            f"`--exclusive` gives the job every GPU of its nodes, but it asks for {asked} and nodes"
            f" {names([fewest])} have {total}: {plural(total - ask.gpus, 'GPU')} per node stay idle while it runs;"
            f" {advice}",
        )
