"""SB217: options sbatch reads only on its command line (`--wrap`, `-v`, `--help`, ...).

`src/common/slurm_opt.c:slurm_process_option()` skips options marked
`sbatch_early_pass` (help, usage, version, verbose, quiet, wrap) outside
sbatch's first pass over its command line, so in a `#SBATCH` line they are
silently ignored.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.traps._header import option_span, shown


@rule("SB217", "early-pass-option-in-script", Severity.WARNING, Outcome.WRONG)
def early_pass_option_in_script(ctx: Context) -> None:
    """
        ## What it does
        Finds `--wrap`, `-v`/`--verbose`, `-Q`/`--quiet`, `--help`, `--usage` and `--version`
        in `#SBATCH` lines.

        ## Why is this bad?
        sbatch handles these in a first pass over its command line only; inside a script they
        are silently ignored, so `#SBATCH --wrap=...` runs nothing and `#SBATCH -v` prints
        nothing extra.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=10
        #SBATCH --verbose
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=10
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/common/slurm_opt.c:slurm_process_option()`: after sbatch's first pass an
          option marked `sbatch_early_pass` is skipped
          (`if (!early_pass && common_options[i]->sbatch_early_pass) return SLURM_SUCCESS;`)
    """
    script = ctx.script
    for directive in script.directives:
        if directive.ignored and directive.option.early_pass and directive.span.start < script.header_end:
            ctx.report(
                "SB217", option_span(script, directive),
                f"`{shown(directive)}` has no effect in a `#SBATCH` line: sbatch reads"
                f" `--{directive.option.long}` only on its command line and silently"
                " ignores it here; delete it",
            )
