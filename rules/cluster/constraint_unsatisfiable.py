"""SB409: no node of the job's partitions satisfies its `--constraint`.

Each node the job gets must satisfy the expression by itself (``a&b`` both
features on one node), and ``a*N`` needs N nodes having ``a``
(``slurmspec/cluster/fit/features.py``); when no node of any listed partition does, the controller
refuses the job: "Requested node configuration is not available" (measured on
Slurm 22.05.8 and 24.11.5: ``-p cpu -C a100``, ``-C smt&ib`` where no node has
both, ``-p gpu -N 2 -C mixed`` with one ``mixed`` node).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


def _features_of(ctx: Context, partition) -> str:
    sets = sorted({",".join(shape.features) or "(none)" for shape in ctx.cluster.shapes_in(partition)})
    return "; ".join(sets)


def _subject(need, raw: str) -> str:
    if need.nodes_min and need.nodes_min > 1:
        return (f"the job's partitions do not have {need.nodes_min} nodes that each satisfy `--constraint={raw}`"
                " (a `[a|b]` group: all with the same feature)")
    return f"no node of the job's partitions satisfies `--constraint={raw}` on its own"


@rule("SB409", "constraint-unsatisfiable", Severity.ERROR, Outcome.REFUSED)
def constraint_unsatisfiable(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a `--constraint` that no node of the job's partitions satisfies:
    features that exist, but not together on one node (`a&b`), or not in these partitions.

    ## Why is this bad?
    The controller refuses the job: "Requested node configuration is not available". `a&b` means
    one node with both features, not some nodes with `a` and some with `b`.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --constraint=a100
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --constraint=v100
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--constraint`; `man slurm.conf`, node `Features`
    - `src/slurmctld/node_scheduler.c:_get_req_features()`
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.nodes import Kind, assessments
    from slurmspec.cluster.fit.where import anchor
    for found in assessments(ctx):
        missing = found.of(Kind.NO_FEATURE)
        if not found.refused() or not missing:
            continue
        setting = found.placement.request.get("constraint")
        parts = "; ".join(f"partition {f.partition.name} has nodes with {_features_of(ctx, f.partition)}" for f in missing)
        span = anchor(found.placement, "constraint")
        if span is not None:
            ctx.report(
                "SB409", span,
                f"{_subject(found.need, setting.raw)} ({parts});"
                " the controller refuses the job (\"Requested node configuration is not available\")",
            )
