"""SB464: a GPU request without a type where the site's policy refuses or rewrites untyped requests.

An untyped request (``--gpus=4``, ``--gres=gpu:4``) matches any GPU model
(``man sbatch``, ``--gres``); sites with several models either refuse it in
their submit plugin or rewrite it to a default model. The policy says which
(``untyped-gpus = "refused"`` or ``"rewritten"``, with ``untyped-gpus-become``).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity, UntypedGpus
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.gres import GpuRequest, GresRequest, TresRequest
from slurmspec.rules.cluster._policy import partition_of, policies, shown, verdict
from slurmspec.rules.traps._header import own

_GPU_OPTIONS = ("gpus", "gpus-per-node", "gpus-per-task", "gpus-per-socket", "gres", "tres-per-task")


def _untyped(setting) -> bool:
    value = setting.value_as(GpuRequest) or setting.value_as(GresRequest) or setting.value_as(TresRequest)
    return value is not None and any(i.name == "gpu" and i.type is None and i.count for i in value.items)


def _models(ctx: Context, request) -> str:
    """The GPU models of the job's partitions, for the message (empty without a profile)."""
    if ctx.cluster is None:
        return ""
    from slurmspec.cluster.fit.waste import partitions
    found = []
    for partition in partitions(ctx, request) or ():
        for shape in ctx.cluster.shapes_in(partition):
            found += [g.type for g in shape.gres if g.name == "gpu" and g.type and g.type not in found]
    return f" (this partition has {', '.join(f'`{m}`' for m in found)})" if found else ""


@rule("SB464", "policy-untyped-gpus", Severity.ERROR, Outcome.REFUSED)
def policy_untyped_gpus(ctx: Context) -> None:
    """
    ## What it does
    With a site policy that says what happens to GPU requests without a model
    (`untyped-gpus`), finds such a request: an error when the site refuses it, a warning when
    it rewrites it to its default model.

    ## Why is this bad?
    At sites with several GPU models, `--gpus=4` is either refused by the submit plugin, or
    given the site's default (often the oldest) model, not the one the job was tuned for.
    Name the model: `--gpus=a100:4`, `--gres=gpu:a100:4`.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:1
    #SBATCH --account=project42
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:v100:1
    #SBATCH --account=project42
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Slurm versions
    All. Needs a site policy; silent without one (docs/policy.md). The example's policy:
    `untyped-gpus = "refused"`.

    ## References
    - `man sbatch`, `--gres`, `--gpus`
    - `man slurm.conf`, `JobSubmitPlugins`
    - docs/policy.md
    """
    for component in ctx.script.components:
        request = component.request
        partition = partition_of(ctx, request)
        for policy in policies(ctx):
            scope = next((s for s in reversed(policy.scopes(partition)) if s.untyped_gpus is not None), None)
            if scope is None:
                continue
            for name in _GPU_OPTIONS:
                setting = own(request, name)
                if setting is None or not _untyped(setting):
                    continue
                where = policy.where(f"{scope.key}.untyped-gpus")
                if scope.untyped_gpus is UntypedGpus.REFUSED:
                    ctx.report(
                        "SB464", setting.directive.span,
                        f"{shown(setting)} names no GPU model, and the site requires one ({where}): name the"
                        f" model, e.g. `--gres=gpu:MODEL:N`{_models(ctx, request)}",
                        **verdict(policy),
                    )
                else:
                    become = f"`{scope.untyped_gpus_become}` GPUs" if scope.untyped_gpus_become else "its default model"
                    ctx.report(
                        "SB464", setting.directive.span,
                        f"{shown(setting)} names no GPU model, so the site gives the job {become} ({where}); name"
                        f" the model the job needs{_models(ctx, request)}",
                        severity=Severity.WARNING, outcome=Outcome.WRONG,
                    )
                break
