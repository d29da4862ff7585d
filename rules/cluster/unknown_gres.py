"""SB407: a GRES name or GPU type that no node of the cluster has.

sbatch checks GRES names against the controller's ``GresTypes`` and refuses an
unknown one itself ("Invalid generic resource (gres) specification",
``src/common/gres.c``); a known name or a GPU type that no node offers is
refused by the controller ("Requested node configuration is not available").
Measured on Slurm 22.05.8 and 24.11.5: ``--gres=foo:1``, ``--gres=gpu:h100:1``.
The type is checked with the nodes, so only when the controller gets to them
(``cluster.fit.limits.node_check_reached``: not with a DOWN partition, nor when
``EnforcePartLimits=NO`` holds the job on a partition limit first).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


def offered(profile) -> dict[str, set]:
    """GRES name -> the types nodes offer (None for untyped)."""
    found: dict[str, set] = {}
    for shape in profile.shapes:
        for gres in shape.gres:
            found.setdefault(gres.name, set()).add(gres.type)
    return found


@rule("SB407", "unknown-gres", Severity.ERROR, Outcome.REFUSED)
def unknown_gres(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a `--gres`, `--gpus*` request for a GRES name or a GPU type that
    no node of the cluster has.

    ## Why is this bad?
    sbatch refuses an unknown GRES name ("Invalid generic resource (gres) specification"), and the
    controller a GPU type no node has ("Requested node configuration is not available"). GPU type
    names are the site's own (`a100`, `nvidia_a100-sxm4-80gb`, `A100`...), so a script from
    another cluster often names one that does not exist here.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --gpus-per-node=h100:4
    #SBATCH --time=01:00:00
    srun ./train
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --gpus-per-node=a100:4
    #SBATCH --time=01:00:00
    srun ./train
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--gres`, `--gpus`; `man slurm.conf`, `GresTypes`, node `Gres`
    - `src/common/gres.c` ("Invalid generic resource (gres) specification")
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.limits import node_check_reached
    from slurmspec.cluster.fit.need import need_of
    from slurmspec.cluster.fit.where import runnable
    have = offered(ctx.cluster)
    types = {name: sorted(t for t in found if t) for name, found in have.items()}
    seen = set()
    reached = {id(p.component): node_check_reached(ctx, p, need_of(p.request, ctx.version)) is True
               for p in runnable(ctx)}
    for component in ctx.script.components:
        need = need_of(component.request, ctx.version)
        for ask in (*need.node_gres, need.gpus_per_task, need.gpus_total):
            key = None if ask is None else (id(ask.setting.directive), ask.name, ask.type)
            if key is None or key in seen:
                continue  # a hetjob component inherits the setting: reported once
            seen.add(key)
            if ask.name not in have:
                what = "GPUs" if ask.name == "gpu" else f"GRES `{ask.name}`"
                names = ", ".join(sorted(have)) or "none"
                refusal = ("sbatch refuses the job (\"Invalid generic resource (gres) specification\")"
                           if ask.name not in ctx.cluster.config.gres_types else
                           "the controller refuses the job (\"Requested node configuration is not available\")")
                ctx.report("SB407", ask.setting.directive.span,
                           f"no node of the cluster has {what} (its GRES: {names}); {refusal}")
            elif ask.type is not None and ask.type not in have[ask.name] and reached.get(id(component)):
                listed = ", ".join(types[ask.name]) or "only untyped ones"
                ctx.report(
                    "SB407", ask.setting.directive.span,
                    f"no node of the cluster has `{ask.name}` of type `{ask.type}` (types: {listed}); the controller"
                    " refuses the job (\"Requested node configuration is not available\")",
                )
