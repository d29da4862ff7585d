"""SB005–SB006: an option's argument is missing, or given to a flag.

glibc ``getopt_long`` gives each option the argument its ``has_arg`` allows
(the table of ``src/common/slurm_opt.c``); sbatch's ``#SBATCH`` reader
(``src/sbatch/opt.c:get_argument()``) supplies the words. A required argument
that is missing, or a flag given ``=value``, makes sbatch refuse the script.
"""

from __future__ import annotations

from slurmspec.kinds import IssueKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.parse._issues import report_issues


@rule("SB005", "missing-argument", Severity.ERROR, Outcome.REFUSED)
def missing_argument(ctx: Context) -> None:
    """
        ## What it does
        Finds options that need a value but have none, for example `--time` at the end of the
        last directive, or `-J ""` (an empty word ends the line for sbatch).

        ## Why is this bad?
        `getopt_long` reports `option requires an argument` and sbatch refuses the script.
        Note that sbatch joins the words of all `#SBATCH` lines, so a value on the *next*
        directive line is taken as the argument.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=01:00:00
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:get_argument()`, glibc `getopt_long`
    """
    report_issues(ctx, IssueKind.MISSING_ARGUMENT, "SB005")


@rule("SB006", "unexpected-argument", Severity.ERROR, Outcome.REFUSED)
def unexpected_argument(ctx: Context) -> None:
    """
        ## What it does
        Finds flags given a value with `=`, such as `--hold=yes` or `--requeue=1`.

        ## Why is this bad?
        `getopt_long` reports `option '--hold' doesn't allow an argument` and sbatch refuses
        the script.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --hold=yes
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --hold
        srun ./app
        ```

        ## Slurm versions
        All. `--requeue` accepts `=expedite` from 25.11; `--get-user-env` takes no value from 25.05.

        ## References
        - `man sbatch`
    """
    report_issues(ctx, IssueKind.UNEXPECTED_ARGUMENT, "SB006")
