"""SB403: an `--account` or `--qos` the partition does not allow.

``src/slurmctld/job_mgr.c:_part_access_check()`` compares the job's account
with the partition's ``AllowAccounts``/``DenyAccounts`` and its QOS with
``AllowQos``/``DenyQos``; a refusal there counts as a partition limit, so
``EnforcePartLimits`` decides what happens (``cluster.fit.where.limit_outcome``).
Measured without an accounting database: Slurm 22.05.8 refuses ``-p acct -A
chem`` (AllowAccounts=physics) with "Invalid account or account/partition
combination specified" under ``ALL`` and ``ANY`` and leaves it pending under
``NO``; 24.11.5 skips the check when there is no accounting database. Only
an account or QOS the script names is judged: the user's default ones are
not in the script.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB403", "partition-access-denied", Severity.ERROR, Outcome.REFUSED)
def partition_access_denied(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds an `--account` or `--qos` that the job's partitions do not allow
    (`AllowAccounts`/`DenyAccounts`, `AllowQos`/`DenyQos`).

    ## Why is this bad?
    The controller refuses the job ("Invalid account or account/partition combination specified",
    "Invalid qos specification") when `EnforcePartLimits` is `ALL` or `ANY`, and leaves it pending
    forever when it is `NO`.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=physics
    #SBATCH --account=chem
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=physics
    #SBATCH --account=physics
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Slurm versions
    All; the outcome follows the profile's `EnforcePartLimits`. Needs a cluster profile
    (`--cluster`); silent without one. Only accounts and QOS the script names are judged.

    ## References
    - `man slurm.conf`, `AllowAccounts`, `DenyAccounts`, `AllowQos`, `DenyQos`, `EnforcePartLimits`
    - `src/slurmctld/job_mgr.c:_part_access_check()`
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.limits import access_refused
    from slurmspec.cluster.fit.where import enforcement, limit_outcome, runnable, where
    for placement in runnable(ctx):
        for option, what in (("account", "accounts"), ("qos", "qos")):
            setting = placement.request.get(option)
            value = None if setting is None else setting.value_as(str)
            if not value:
                continue
            outcome = limit_outcome(ctx, placement.usable, lambda p: access_refused(p, what, value))
            if outcome is None:
                continue
            refusing = [p for p in placement.usable if access_refused(p, what, value)]
            rules = "; ".join(_describe(p, what) for p in refusing)
            ctx.report(
                "SB403", setting.directive.span,
                f"{where(setting)}: {rules}; {enforcement(ctx, outcome)}",
                outcome=outcome,
            )


def _describe(partition, what: str) -> str:
    if what == "accounts":
        allow, deny = partition.allow_accounts, partition.deny_accounts
    else:
        allow, deny = partition.allow_qos, partition.deny_qos
    label = "AllowAccounts" if what == "accounts" else "AllowQos"
    if allow is not None:
        return f"partition {partition.name} allows only {label}={','.join(allow) or '(none)'}"
    return f"partition {partition.name} denies it ({label.replace('Allow', 'Deny')}={','.join(deny)})"
