"""SB219: options written as an abbreviation or an alias instead of their name.

sbatch reads options with glibc ``getopt_long``, which accepts any unambiguous
prefix of a long option (``--part`` for ``--partition``), and Slurm's option
table lists aliases (``--tasks-per-node`` for ``--ntasks-per-node``,
``--cluster`` for ``--clusters``). Both work today, but a prefix turns
ambiguous as soon as a release adds an option that starts the same way, and
the script then stops being accepted (SB004 shows the refusal). The fix writes
the full name; it means the same option.
"""

from __future__ import annotations

from slurmspec.fix.build import replace
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB219", "abbreviated-option", Severity.INFO, Outcome.ADVICE, fix=Fixability.ALWAYS)
def abbreviated_option(ctx: Context) -> None:
    """
        ## What it does
        Finds long options written as an abbreviation (`--part`, `--ntasks-per`) or as an alias
        (`--tasks-per-node`, `--cluster`) instead of their full name.

        ## Why is this bad?
        sbatch accepts any unambiguous prefix of a long option, because it parses directives
        with `getopt_long`. A prefix that is unique today becomes ambiguous when a later Slurm
        release adds an option that starts the same way, and from then on sbatch refuses the
        whole script ("option is ambiguous"). Aliases are kept for compatibility but are not
        what the documentation, other people and tools (grep, this linter's messages) look for.
        The fix writes the full name, which means exactly the same option.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --part=gpu
        #SBATCH --tasks-per-node=4
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --partition=gpu
        #SBATCH --ntasks-per-node=4
        srun ./app
        ```

        ## Slurm versions
        All. Which prefixes are unique depends on the release: `--slurm-version` picks the option
        table.

        ## References
        - glibc `getopt_long(3)`: "Long option names may be abbreviated if the abbreviation is
          unique or is an exact match for some defined option"
        - `src/common/slurm_opt.c` (aliases such as `tasks-per-node`)
    """
    source = ctx.script.source
    for directive in ctx.script.directives:
        if directive.ignored or not directive.spelling.startswith("--"):
            continue
        written = directive.spelling[2:]
        option = directive.option
        if written == option.long:
            continue
        what = "an alias" if written in option.aliases else "an abbreviation"
        span = directive.name_span
        if source[span.start:span.end] != directive.spelling:
            continue  # not where the name is written (defensive: never edit blindly)
        ctx.report(
            "SB219", span,
            f"`{directive.spelling}` is {what} of `--{option.long}`; write the option's name in full"
            + (" (an abbreviation becomes ambiguous, and the script is refused, when a later Slurm"
               " release adds an option with the same start)" if what == "an abbreviation" else ""),
            fix=Fix(title=f"Write `--{option.long}` for `{directive.spelling}`",
                    edits=[replace(ctx.script, span.start, span.end, f"--{option.long}")]),
        )
