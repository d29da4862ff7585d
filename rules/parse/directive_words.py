"""SB007–SB009: words on `#SBATCH` lines that sbatch cannot read as options.

``src/sbatch/opt.c:_opt_batch_script()`` splits each directive line into words
with ``get_argument()`` (quotes group words; an unmatched quote and a word
starting with ``:`` are fatal there), then runs ``getopt_long`` over them; the
first word that is not an option or an option's value stops it with
``Invalid directive found in batch script``. Each refuses the script.
"""

from __future__ import annotations

from slurmspec.kinds import Fixability, IssueKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.syntax.swallowed import swallowed_options
from slurmspec.rules.parse._issues import issues_of, report_issues
from slurmspec.rules.parse._plugins import site_values
from slurmspec.rules.traps.swallowed_option import report_swallow


@rule("SB007", "stray-word", Severity.ERROR, Outcome.REFUSED, fix=Fixability.SOMETIMES)
def stray_word(ctx: Context) -> None:
    """
        ## What it does
        Finds words on `#SBATCH` lines that are not options and not an option's value, such as
        `#SBATCH --time=10 extra`, `#SBATCH --exclusive user` (optional values need `=`), or
        anything after `--`. When the stray word comes of an option left without a value at the
        end of the line before (`#SBATCH --job-name` then `#SBATCH --partition batch`: the job
        name becomes `--partition`, and `batch` is stray), it is reported on that option, with a
        fix that removes it.

        ## Why is this bad?
        sbatch's option parsing stops at the first non-option word and sbatch refuses the script
        with `Invalid directive found in batch script`. Options after the stray word are never read.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive user
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive=user
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:_opt_batch_script()` ("Invalid directive found in batch script")
    """
    # `#SBATCH --job-name` then `#SBATCH --partition batch`: the stray `batch` comes of the option
    # with no value, which took `--partition`; that line is the one to change (and the fix's).
    caused = {swallow.stray.span.start: swallow for swallow in swallowed_options(ctx.script) if swallow.stray}
    plugin_values = site_values(ctx)
    for issue in issues_of(ctx, IssueKind.STRAY_WORD):
        if issue.span.start in plugin_values:
            continue  # the value of a plugin option the cluster profile lists (`--uenv x`)
        swallow = caused.get(issue.span.start)
        if swallow is None:
            ctx.report("SB007", issue.span, issue.message)
        else:
            report_swallow(ctx, "SB007", swallow)


@rule("SB008", "unmatched-quote", Severity.ERROR, Outcome.REFUSED)
def unmatched_quote(ctx: Context) -> None:
    """
        ## What it does
        Finds a `'` or `"` on a directive line that is never closed.

        ## Why is this bad?
        sbatch stops with `Unmatched` and refuses the script; quotes cannot continue onto the
        next line.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name="my run
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name="my run"
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:get_argument()`
    """
    report_issues(ctx, IssueKind.UNMATCHED_QUOTE, "SB008")


@rule("SB009", "leading-colon", Severity.ERROR, Outcome.REFUSED)
def leading_colon(ctx: Context) -> None:
    """
        ## What it does
        Finds directive words that start with `:`, usually an attempt to use the command-line
        hetjob separator inside a script.

        ## Why is this bad?
        sbatch stops with `Unexpected ':'` and refuses the script. Inside a script, hetjob
        components are separated by a `#SBATCH hetjob` line.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH -N 1 : -N 2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH -N 1
        #SBATCH hetjob
        #SBATCH -N 2
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, HETEROGENEOUS JOB SUPPORT
    """
    report_issues(ctx, IssueKind.LEADING_COLON, "SB009")
