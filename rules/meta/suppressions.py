"""SB901–SB903: findings about slurmspec's own suppression comments.

These rules have no checking code of their own: the engine finds them while
it applies the ``# slurmspec: ignore[...]`` and ``file-ignore[...]`` comments
(``slurmspec/lint/suppress.py``), because whether a suppression is used is
only known once every other rule has run. Like any rule they can be turned
off with ``--ignore``/the configuration, or with ``file-ignore[SB901]``; a
line suppression may also list them to keep quiet about itself, e.g.
``ignore[SB215, unused-suppression]`` for a suppression that only matters on
another Slurm version.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Role, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB901", "unused-suppression", Severity.WARNING, Outcome.ADVICE, role=Role.UNUSED_SUPPRESSION)
def unused_suppression(ctx: Context) -> None:
    """
        ## What it does
        Finds suppression comments, or single codes inside them, that silence nothing: no finding
        of that rule starts on the line the comment covers (or anywhere in the file, for
        `file-ignore`).

        ## Why is this bad?
        A stale suppression documents a problem that no longer exists, and it silently hides the
        next real problem of that kind on the same line. Removing it keeps the script honest.
        Only rules that are enabled count: a suppression for a rule you ignore in the
        configuration is not reported.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=30  # slurmspec: ignore[invalid-duration] it used to say 30m
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=30
        srun ./app
        ```

        ## Slurm versions
        All. A suppression needed only for some target versions can keep itself quiet by also
        listing this rule: `# slurmspec: ignore[SB003, unused-suppression] needed on 22.05`.

        ## References
        - ruff's `RUF100` (unused `noqa`), the model for this rule
    """
    # Reported by slurmspec.lint.suppress.apply once every other rule has run.


@rule("SB902", "unknown-suppression-code", Severity.WARNING, Outcome.ADVICE, role=Role.UNKNOWN_SUPPRESSION)
def unknown_suppression_code(ctx: Context) -> None:
    """
        ## What it does
        Finds entries in a suppression comment that name no rule: a mistyped code or name, a
        code prefix such as `SB2`, or a code that was never assigned. It suggests the closest
        real code or name.

        ## Why is this bad?
        An entry that names no rule suppresses nothing, so the finding it was meant to silence is
        still reported, and the comment misleads the next reader. Prefixes are refused in
        comments so that every suppression stays precise (the configuration's `ignore` takes
        prefixes).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=2h  # slurmspec: ignore[invalid-durations] the site wrapper converts it
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=2h  # slurmspec: ignore[invalid-duration] the site wrapper converts it
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `slurmspec rule --all` lists every code and name
    """
    # Reported by slurmspec.lint.suppress.apply once every other rule has run.


@rule("SB903", "malformed-suppression", Severity.WARNING, Outcome.ADVICE, role=Role.MALFORMED_SUPPRESSION)
def malformed_suppression(ctx: Context) -> None:
    """
        ## What it does
        Finds comments that start like a suppression (`# slurmspec:`) but do not have its shape:
        codes without brackets (`# slurmspec: ignore SB110`), empty brackets, an unclosed `[`,
        or an unknown word after the colon. Spacing and letter case are tolerated
        (`#slurmspec:IGNORE[ SB110 ]` is fine).

        ## Why is this bad?
        A malformed suppression suppresses nothing, although it looks as if it does. Blanket
        suppressions without codes are refused on purpose: they would hide every present and
        future finding on the line.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=2h  # slurmspec: ignore SB110
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=2h  # slurmspec: ignore[SB110] the site wrapper converts it
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - README, "Suppressing findings"
    """
    # Reported by slurmspec.lint.suppress.apply once every other rule has run.
