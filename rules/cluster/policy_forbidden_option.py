"""SB461: an option the site's policy forbids (everywhere, or in the job's partition).

Sites whose submit plugin sets memory, nodes or the partition itself refuse
jobs that set them (``man slurm.conf``, ``JobSubmitPlugins``); the policy lists
them (``forbidden``, top level or per partition; docs/policy.md).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.cluster._policy import consequence, partition_of, policies, shown, verdict
from slurmspec.rules.traps._header import own


@rule("SB461", "policy-forbidden-option", Severity.ERROR, Outcome.REFUSED)
def policy_forbidden_option(ctx: Context) -> None:
    """
    ## What it does
    With a site policy, finds an option the policy lists under `forbidden`, for every job or
    for the job's partition.

    ## Why is this bad?
    The site's submit plugin refuses the job, or replaces what the option asks for: sites that
    give each GPU a fixed share of memory refuse `--mem`, sites that place jobs by QOS refuse
    `--partition`.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:v100:1
    #SBATCH --mem=64G
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
    `[policy.partition.gpu] forbidden = ["mem", "exclusive"]`.

    ## References
    - `man slurm.conf`, `JobSubmitPlugins`
    - docs/policy.md
    """
    for component in ctx.script.components:
        request = component.request
        partition = partition_of(ctx, request)
        for policy in policies(ctx):
            for scope in policy.scopes(partition):
                for option in scope.forbidden:
                    setting = own(request, option)
                    if setting is None:
                        continue
                    where = "" if scope.partition is None else f" in partition `{scope.partition}`"
                    ctx.report(
                        "SB461", setting.directive.span,
                        f"{shown(setting)} is not allowed{where} ({policy.where(f'{scope.key}.forbidden')});"
                        f" {consequence(policy)}: drop it",
                        **verdict(policy),
                    )
