"""SB460: an option the site's policy requires is missing.

Sites refuse jobs without ``--time``, ``--account`` or ``--partition`` in a
submit plugin (``job_submit.lua``, ``man slurm.conf`` ``JobSubmitPlugins``),
which Slurm's own limits cannot express; the policy lists them
(``required``, top level or per partition; docs/policy.md).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Role, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.cluster._policy import consequence, first_line, partition_of, policies, verdict


@rule("SB460", "policy-required-option", Severity.ERROR, Outcome.REFUSED, role=Role.REQUIRED_OPTION)
def policy_required_option(ctx: Context) -> None:
    """
    ## What it does
    With a site policy (the `[policy]` table of the cluster profile or of the configuration),
    finds a job that does not set an option the policy lists under `required`, for every job
    or for the job's partition.

    ## Why is this bad?
    The site's submit plugin refuses the job (or, for published guidelines with
    `enforced = false`, the staff ask for the option): for instance a job without `--account`
    cannot be charged, and one without `--time` gets a default that delays it.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:v100:1
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
    `required = ["time", "account"]`.

    ## References
    - `man slurm.conf`, `JobSubmitPlugins` (how sites enforce such rules)
    - docs/policy.md
    """
    if not ctx.script.directives or not ctx.script.lines:
        return
    request = ctx.script.request
    partition = partition_of(ctx, request)
    for policy in policies(ctx):
        for scope in policy.scopes(partition):
            for option in scope.required:
                if request.has(option):
                    continue
                where = "" if scope.partition is None else f" in partition `{scope.partition}`"
                ctx.report(
                    "SB460", first_line(ctx),
                    f"no `--{option}`: the site requires it{where} ({policy.where(f'{scope.key}.required')});"
                    f" {consequence(policy)}, so add `#SBATCH --{option}=...`",
                    **verdict(policy),
                )
