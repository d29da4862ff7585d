"""SB002–SB004, SB010: option names sbatch cannot resolve to one of its options.

glibc ``getopt_long`` looks each ``-x``/``--name`` word up in the table that
``src/common/slurm_opt.c:slurm_option_table_create()`` builds for sbatch (only
the options with an sbatch handler, in the target release). A name that is
srun-only, missing from that release, an ambiguous abbreviation or an unknown
letter stops sbatch, which refuses the script.
"""

from __future__ import annotations

from slurmspec.kinds import IssueKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.parse._issues import report_issues


@rule("SB002", "srun-only-option", Severity.ERROR, Outcome.REFUSED)
def srun_only_option(ctx: Context) -> None:
    """
        ## What it does
        Finds `#SBATCH` lines that use options only `srun` (or `salloc`) understands, such as
        `--mpi`, `--cpu-bind`, `--exact` or pyxis' `--container-image`.

        ## Why is this bad?
        These options share Slurm's option table with sbatch but have no sbatch handler, so sbatch
        reports `unrecognized option` and refuses the script. They belong on the `srun` line.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --mpi=pmix
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        srun --mpi=pmix ./app
        ```

        ## Slurm versions
        All (`--cpu-bind` is srun-only in every release up to 26.05).

        ## References
        - `man srun`, `man sbatch`
    """
    report_issues(ctx, IssueKind.SRUN_ONLY_OPTION, "SB002")


@rule("SB003", "option-not-in-version", Severity.ERROR, Outcome.REFUSED)
def option_not_in_version(ctx: Context) -> None:
    """
        ## What it does
        Finds options that exist in some Slurm release but not in the target one: added later
        (`--tres-per-task` 23.02, `--tres-bind` 23.11, `--segment` 24.05, `--oom-kill-step` 24.11,
        `--mem-update` 26.05...) or removed (`--power` in 24.05, `--export-file` in 23.11).

        ## Why is this bad?
        The target cluster's sbatch does not have the option and refuses the script as if it
        were misspelt.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --power=level
        srun ./app
        ```

        ```sbatch 22.05
        #!/bin/bash
        #SBATCH --segment=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        srun ./app
        ```

        ## Slurm versions
        Depends on the option; set the target with `--slurm-version` (the first example assumes 24.05+,
        the second 22.05 to 23.11).

        ## References
        - Slurm `CHANGELOG` / `NEWS` for each release
    """
    report_issues(ctx, IssueKind.OPTION_NOT_IN_VERSION, "SB003")


@rule("SB004", "ambiguous-option", Severity.ERROR, Outcome.REFUSED)
def ambiguous_option(ctx: Context) -> None:
    """
        ## What it does
        Finds abbreviated long options that match more than one sbatch option, such as `--nod`
        (`--nodefile`, `--nodelist`, `--nodes`).

        ## Why is this bad?
        `getopt_long` accepts unambiguous abbreviations but refuses ambiguous ones
        (`option '--nod=2' is ambiguous`), and sbatch then refuses the script. An abbreviation that
        works today can also turn ambiguous when a later Slurm release adds an option.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nod=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        srun ./app
        ```

        ## Slurm versions
        All; the set of ambiguous prefixes grows as options are added.

        ## References
        - glibc `getopt_long` (abbreviated long options)
    """
    report_issues(ctx, IssueKind.AMBIGUOUS_OPTION, "SB004")


@rule("SB010", "unknown-short-option", Severity.ERROR, Outcome.REFUSED)
def unknown_short_option(ctx: Context) -> None:
    """
        ## What it does
        Finds single-letter options sbatch does not have, such as `-g` or `-l`.

        ## Why is this bad?
        `getopt_long` reports `invalid option` and sbatch refuses the script. Several letters
        that srun accepts (`-l`, `-u`, `-K`, `-X`) do not exist for sbatch.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH -g 4
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH -G 4
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`
    """
    report_issues(ctx, IssueKind.BAD_SHORT_OPTION, "SB010")
