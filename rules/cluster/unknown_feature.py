"""SB408: a `--constraint` naming a feature no node of the cluster has.

slurmctld checks every feature name of the expression against the nodes'
features (``src/slurmctld/job_mgr.c:build_feature_list()`` /
``valid_feature_counts()``) and refuses the job when one is unknown: "Invalid
feature specification" (measured on Slurm 22.05.8 and 24.11.5 with
``-C nosuch``; a feature other nodes have is refused differently, SB409).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.constraint import Constraint


def _suggestion(name: str, known: list[str]) -> str:
    """`; did you mean `a100`?` when a known feature is the name in another case or inside it (`A100-80`).

    No guess by spelling distance: `h100` is one letter from `v100`, and a different GPU.
    """
    low = name.lower()
    found = [k for k in known if k.lower() == low] or [k for k in known if len(k) > 1 and k.lower() in low]
    return f"; did you mean `{max(found, key=len)}`?" if found else ""


@rule("SB408", "unknown-feature", Severity.ERROR, Outcome.REFUSED)
def unknown_feature(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a `--constraint` that names a node feature no node of the cluster
    has, and suggests the closest one.

    ## Why is this bad?
    The controller refuses the job: "Invalid feature specification". Features are the site's own
    names (`a100`, `ib`, `skylake`...), so a script from another cluster often names some that do
    not exist here.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --constraint=gpu80gb
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --constraint=a100
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--constraint`; `man slurm.conf`, node `Features`
    - `src/slurmctld/job_mgr.c:build_feature_list()` ("Invalid feature specification")
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit import features as _features

    known = sorted({f for shape in ctx.cluster.shapes for f in shape.features})
    seen = set()
    for component in ctx.script.components:
        setting = component.request.get("constraint")
        if setting is None or id(setting.directive) in seen:
            continue
        seen.add(id(setting.directive))
        unknown = [n for n in dict.fromkeys(_features.names(setting.value_as(Constraint))) if n not in known]
        for name in unknown:
            ctx.report(
                "SB408", setting.directive.span,
                f"no node of the cluster has the feature `{name}`{_suggestion(name, known)}; the controller refuses"
                f" the job (\"Invalid feature specification\"); its features are {', '.join(known) or 'none'}",
            )
