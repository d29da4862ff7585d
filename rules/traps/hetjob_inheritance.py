"""SB218: hetjob components that inherit an option from a component other than the first.

Options whose entry in `src/common/slurm_opt.c`'s table lacks
`.reset_each_pass = true` keep their value from one component's pass to the
next, so a `--mem` or `--time` written for component 1 silently carries into
component 2. Inheriting from component 0 (the job's own settings) is the
common, intended case and is not reported.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.syntax.script import DirectiveLine
from slurmspec.rules.traps._header import line_no, shown

_LEAK_REPORTED = frozenset({"time", "mem", "time-min", "tmp", "qos", "account", "dependency",
                            "begin", "job-name", "output", "error", "chdir", "export"})


@rule("SB218", "hetjob-inherited-option", Severity.INFO, Outcome.ADVICE)
def hetjob_inherited_option(ctx: Context) -> None:
    """
        ## What it does
        Finds hetjob components (from the third on) that inherit an option such as `--mem`,
        `--time` or `--output` from a component other than the first.

        ## Why is this bad?
        Options that Slurm does not reset per component carry over from the previous component,
        not only from the job's first block: a `--mem` meant for component 1 silently applies to
        component 2 as well.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=1
        #SBATCH hetjob
        #SBATCH --ntasks=8 --mem=64G
        #SBATCH hetjob
        #SBATCH --ntasks=1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=1
        #SBATCH hetjob
        #SBATCH --ntasks=8 --mem=64G
        #SBATCH hetjob
        #SBATCH --ntasks=1 --mem=4G
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/common/slurm_opt.c`: only options with `.reset_each_pass = true` are reset
          between hetjob components (`slurm_reset_all_options()`)
    """
    # The header line that starts each component, found once (a search per component was O(n²)).
    separators: dict[int, DirectiveLine] = {}
    for dl in ctx.script.directive_lines:
        if dl.separator and dl.in_header:
            separators.setdefault(dl.component, dl)
    for component in ctx.script.components:
        if component.index >= 2:
            _check_inherited(ctx, component, separators.get(component.index))


def _check_inherited(ctx: Context, component, separator: DirectiveLine | None) -> None:
    if separator is None:
        return
    for setting in component.request.settings:
        origin = setting.directive
        if not setting.inherited or origin.component == 0 or setting.name not in _LEAK_REPORTED:
            continue
        ctx.report(
            "SB218", separator.line.span,
            f"hetjob component {component.index} inherits `{shown(origin)}` from component"
            f" {origin.component} (line {line_no(origin)}): `--{setting.name}` is not reset"
            " between components; repeat the option here if this component needs another value",
        )
