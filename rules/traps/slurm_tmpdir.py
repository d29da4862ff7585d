"""SB246: `$SLURM_TMPDIR` read in the body, a variable Slurm itself never sets.

Slurm guarantees only `TMPDIR` (slurmstepd sets it to `/tmp` when unset,
`src/slurmd/slurmstepd/task.c:_make_tmpdir()`); `SLURM_TMPDIR` is defined by
some sites' prologs.
"""

from __future__ import annotations

from slurmspec.body.index import body_index
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.request_facts import assigned, has_body


@rule("SB246", "slurm-tmpdir-not-set", Severity.INFO, Outcome.ADVICE)
def slurm_tmpdir_not_set(ctx: Context) -> None:
    """
        ## What it does
        Finds `$SLURM_TMPDIR` used in the body without a default (`${SLURM_TMPDIR:-/tmp}`) and
        without the script setting it.

        ## Why is this bad?
        Slurm itself never sets `SLURM_TMPDIR`; some sites (Compute Canada/Alliance, Mila) define
        it in a prolog. Elsewhere it is empty, so `cp data $SLURM_TMPDIR/` copies to `/`. Slurm
        only guarantees `TMPDIR`.

        ## Example
        ```sbatch
        #!/bin/bash
        cp -r data "$SLURM_TMPDIR/data"
        python train.py --data "$SLURM_TMPDIR/data"
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        cp -r data "$TMPDIR/data"
        python train.py --data "$TMPDIR/data"
        ```

        ## Slurm versions
        All (no release sets it).

        ## References
        - `man sbatch`, OUTPUT ENVIRONMENT VARIABLES (no `SLURM_TMPDIR`)
        - `src/slurmd/slurmstepd/task.c:_make_tmpdir()`
    """
    if not has_body(ctx) or assigned(ctx, "SLURM_TMPDIR"):
        return
    for ref in ctx.shared(body_index).refs:
        if ref.name == "SLURM_TMPDIR" and not ref.default:
            ctx.report(
                "SB246", ctx.script.span(ref.start, ref.end),
                "`SLURM_TMPDIR` is not set by Slurm: only some sites define it (in a prolog or"
                " module). Elsewhere it is empty and paths built on it point at `/`. Use `$TMPDIR`"
                " or `${SLURM_TMPDIR:-/tmp}`",
            )
            return  # once per script is enough
