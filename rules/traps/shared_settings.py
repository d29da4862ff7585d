"""SB213: two different options that write the same setting, so the last one silently wins.

In `src/common/slurm_opt.c`, `arg_set_nodefile()` clears `opt->nodelist` (and
`--nodelist` the node file: "the last to run wins", says its FIXME),
`arg_set_requeue()`/`arg_set_no_requeue()` both write `sbatch_opt->requeue`,
and `--exclusive`/`--oversubscribe` both write `opt->shared`. From 23.02
`_validate_share_options()` refuses the last pair (the reject family reports
it there).
"""

from __future__ import annotations

from slurmspec.gates import SHARE_OPTIONS_EXCLUSIVE
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.traps._header import line_no, option_span, shown

# Options that write one field, so the last one silently wins.
_SHARED_PAIRS = (
    ("nodelist", "nodefile", "the node list"),
    ("requeue", "no-requeue", "whether the job may be requeued"),
    ("exclusive", "oversubscribe", "whether nodes are shared"),
)


@rule("SB213", "conflicting-options-last-wins", Severity.WARNING, Outcome.WRONG)
def conflicting_options_last_wins(ctx: Context) -> None:
    """
        ## What it does
        Finds pairs of options that write the same setting: `--nodelist` and `--nodefile`,
        `--requeue` and `--no-requeue`, and on 22.05 `--exclusive` and `--oversubscribe`.

        ## Why is this bad?
        sbatch keeps whichever comes last without a message, so the other one has no effect.
        From 23.02 `--exclusive` with `--oversubscribe` is refused (reported by the reject
        rules instead).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --requeue
        #SBATCH --no-requeue
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --requeue
        srun ./app
        ```

        ## Slurm versions
        All; `--exclusive`/`--oversubscribe` only before 23.02.

        ## References
        - `src/common/slurm_opt.c`: `arg_set_nodefile()` ("--nodefile and --nodelist options
          ... overwrite one another; the last to run wins"), `arg_set_requeue()` and
          `arg_set_no_requeue()`, `arg_set_exclusive()` and `arg_set_oversubscribe()`
        - `src/common/slurm_opt.c:_validate_share_options()` (23.02): `--exclusive and
          --oversubscribe options are mutually exclusive`
    """
    for component in ctx.script.components:
        request = component.request
        for first, second, field in _SHARED_PAIRS:
            if first == "exclusive" and ctx.version >= SHARE_OPTIONS_EXCLUSIVE:
                continue  # refused from 23.02: the reject family reports it
            a, b = request.get(first), request.get(second)
            if a is None or b is None or a.inherited or b.inherited:
                continue
            loser, winner = sorted((a.directive, b.directive), key=lambda d: d.span.start)
            extra = (" (Slurm 23.02 and newer refuse the combination)" if first == "exclusive" else "")
            ctx.report(
                "SB213", option_span(ctx.script, loser),
                f"`{shown(loser)}` and `{shown(winner)}` (line {line_no(winner)}) set the same"
                f" thing ({field}); sbatch silently keeps the last one, so `{shown(loser)}` has no"
                f" effect{extra}. Keep only the one you mean",
            )
