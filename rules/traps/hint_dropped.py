"""SB212: `--hint` next to an option that sets the CPU layout, so sbatch drops the hint.

`src/common/slurm_opt.c:validate_hint_option()` finds `--hint` together with
`--ntasks-per-core`, `--threads-per-core` or `-B` (from 25.11 also
`--cores-per-socket`/`--sockets-per-node`) and ignores the hint; the message
("Following options are mutually exclusive with --hint: ... Ignoring --hint.")
is printed only with `-v`. Which options drop it, per release, is
``slurmspec.model.job.request.hint_dropped_by``.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.job.request import hint_dropped_by
from slurmspec.rules.traps._header import line_no, option_span, own, shown


@rule("SB212", "hint-dropped", Severity.WARNING, Outcome.WRONG)
def hint_dropped(ctx: Context) -> None:
    """
        ## What it does
        Finds `--hint` together with `--threads-per-core`, `--ntasks-per-core` or `-B`
        (from 25.11 also `--cores-per-socket` or `--sockets-per-node`).

        ## Why is this bad?
        These options conflict with `--hint`, and sbatch drops the hint without a message (one
        appears only with `-v`), so `--hint=nomultithread` does nothing.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --hint=nomultithread
        #SBATCH --threads-per-core=1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --hint=nomultithread
        srun ./app
        ```

        ## Slurm versions
        All; 25.11 adds `--cores-per-socket` and `--sockets-per-node` to the list.

        ## References
        - `src/common/slurm_opt.c:validate_hint_option()`: "Following options are mutually
          exclusive with --hint: --ntasks-per-core, --threads-per-core, -B and --cpu-bind
          (other than --cpu-bind=verbose). Ignoring --hint." (printed only with `-v`)
        - `man sbatch`, `--hint`
    """
    for component in ctx.script.components:
        request = component.request
        hint = own(request, "hint")
        if hint is None:
            continue
        culprits = [request.get(name) for name in hint_dropped_by(request, ctx.version)]
        if not culprits:
            continue
        culprit = culprits[0].directive
        ctx.report(
            "SB212", option_span(ctx.script, hint.directive),
            f"`{shown(hint.directive)}` is silently dropped because `{shown(culprit)}`"
            f" (line {line_no(culprit)}) also sets the CPU layout; sbatch ignores `--hint` next"
            " to it without a message. Keep only one of them",
        )
