"""SB462: an option value the site's policy does not allow (everywhere, or in the job's partition).

The policy's ``allowed`` table lists, per option, the values a job may give
(QOS names, accounts, partitions, constraints...); a partition's list replaces
the top-level one for the same option. Values compare as written, ignoring
case (slurmctld lower-cases account and QOS names: ``man sacctmgr``).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.cluster._policy import consequence, partition_of, policies, shown, verdict
from slurmspec.rules.traps._header import own


def _allowed(policy, partition: str | None) -> dict[str, tuple[str, tuple[str, ...]]]:
    """option -> (the policy key that decides, allowed values): the partition's list wins over the top level's."""
    lists: dict[str, tuple[str, tuple[str, ...]]] = {}
    for scope in policy.scopes(partition):
        for option, values in scope.allowed:
            lists[option] = (f"{scope.key}.allowed.{option}", values)
    return lists


@rule("SB462", "policy-value-not-allowed", Severity.ERROR, Outcome.REFUSED)
def policy_value_not_allowed(ctx: Context) -> None:
    """
    ## What it does
    With a site policy, finds an option whose value is not among those the policy's
    `allowed` table lists for it, for every job or for the job's partition.

    ## Why is this bad?
    The site's submit plugin refuses the job: a QOS the partition does not take, an account
    that is not yours to charge there, a constraint the site does not let users pick.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:v100:1
    #SBATCH --qos=long
    #SBATCH --account=project42
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:v100:1
    #SBATCH --qos=gpu
    #SBATCH --account=project42
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Slurm versions
    All. Needs a site policy; silent without one (docs/policy.md). The example's policy:
    `[policy.partition.gpu.allowed] qos = ["gpu", "gpu-debug"]`.

    ## References
    - `man slurm.conf`, `JobSubmitPlugins`; `man sacctmgr` (names are lower-cased)
    - docs/policy.md
    """
    for component in ctx.script.components:
        request = component.request
        partition = partition_of(ctx, request)
        for policy in policies(ctx):
            for option, (key, values) in _allowed(policy, partition).items():
                setting = own(request, option)
                if setting is None or setting.raw is None:
                    continue
                if setting.raw.lower() in (v.lower() for v in values):
                    continue
                listed = ", ".join(f"`{v}`" for v in values)
                ctx.report(
                    "SB462", setting.directive.span,
                    f"{shown(setting)} is not one of the values the site allows ({listed}; {policy.where(key)});"
                    f" {consequence(policy)}",
                    **verdict(policy),
                )
