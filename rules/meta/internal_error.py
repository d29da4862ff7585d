"""SB900: a rule failed on this script (a bug in slurmspec, reported instead of a traceback)."""

from __future__ import annotations

from slurmspec.kinds import Outcome, Role, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB900", "internal-error", Severity.ERROR, Outcome.ADVICE, role=Role.INTERNAL_ERROR)
def internal_error(ctx: Context) -> None:
    """
    ## What it does
    Reports that one of slurmspec's rules raised an exception on this script. The engine
    catches it, drops that rule's partial findings, and goes on with every other rule, so one
    bug never hides the rest of the report. `slurmspec lint` exits 2 when this finding is
    present, as for any other internal problem.

    ## Why is this bad?
    The failing rule's findings are missing, so the script may have problems that were not
    reported. The message names the rule, the exception and where it was raised; please
    report it together with the script (or a cut-down copy that still shows it).

    ## Example
    ```sbatch
    #!/bin/bash
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    srun ./app
    ```

    ## Slurm versions
    All.

    ## References
    - slurmspec's issue tracker: the message says what to include
    """
    # Reported by slurmspec.lint.engine when a rule raises; there is nothing to check here.
