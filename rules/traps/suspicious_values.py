"""SB210: values sbatch accepts but that almost surely do not mean what was written.

The value types (``slurmspec.model.values``) note each accepted-but-odd
reading as a problem that is not a refusal: `--time=0` is no limit
(`src/common/slurm_opt.c:arg_set_time_limit()` stores 0 minutes as
`INFINITE`), `--mem=16` is 16 megabytes (`src/common/proc_args.c:
str_to_mbytes()`), `--open-mode=apple` is read as `append`, a non-numeric
`--nice` is 0. Only the value that takes effect is checked (a replaced one is
SB204's), a `--hint` sbatch drops unread is SB212's, and readings that are
almost always meant (`0-24:00`, `--mem-per-cpu=500`) are left alone.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity, ValueKind
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.job.request import hint_is_dropped
from slurmspec.model.syntax.script import Directive
from slurmspec.model.values.memory import MemorySize
from slurmspec.rules.traps._header import shown


@rule("SB210", "suspicious-value", Severity.WARNING, Outcome.WRONG)
def suspicious_value(ctx: Context) -> None:
    """
        ## What it does
        Reports values that sbatch accepts but that almost surely do not mean what was intended:
        `--time=0` (no limit), `--mem=16` (16 megabytes), `--open-mode=apple` (read as
        `append`), a non-numeric `--nice` (becomes 0), `--nodes=0`, an array throttle after the
        first `%`, a `--begin` date in the past, and similar.

        ## Why is this bad?
        sbatch takes these without a word and the job runs with a different limit, size or
        priority than the script suggests.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mem=16
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mem=16G
        srun ./app
        ```

        ## Slurm versions
        All; some values depend on the version (e.g. `--export=NIL` is special from 23.02).

        ## References
        - `src/common/slurm_opt.c:arg_set_time_limit()`: a limit of 0 minutes becomes `INFINITE`
        - `src/common/proc_args.c:str_to_mbytes()`: a size without a unit is in megabytes
        - `man sbatch`, `--open-mode`, `--nice`, `--array` (the `%` throttle) and `--begin`
    """
    script = ctx.script
    effective = _effective_ids(script)
    for directive in script.directives:
        if directive.ignored:
            continue
        typed = directive.typed
        if typed is None or not typed.problems:
            continue
        kind = directive.option.kind
        if kind in (ValueKind.FILENAME, ValueKind.MAIL_TYPE):
            continue  # the output-traps rules explain file name patterns; SB209 mail types
        if id(directive) not in effective:
            continue  # replaced by a later occurrence: SB204 reports that
        if kind is ValueKind.HINT and hint_is_dropped(script.components[directive.component].request, ctx.version):
            continue  # dropped unread: SB212
        if kind is ValueKind.MEMORY and directive.option.long in ("mem", "tmp"):
            memory = directive.value_as(MemorySize)
            if memory is not None and memory.megabytes == 0:
                continue  # --mem=0 asks for all memory on purpose
        for problem in typed.problems:
            if problem.rejected or _harmless(directive, problem):
                continue
            ctx.report(
                "SB210", script.span_in_value(directive, problem.start, problem.end),
                f"{problem.message} (in `{shown(directive)}`)",
            )


def _effective_ids(script) -> set[int]:
    return {
        id(setting.directive)
        for component in script.components
        for setting in component.request.settings
        if not setting.inherited
    }


# Accepted-but-odd readings that are almost always what the author meant; reporting
# them fired on many real scripts for no benefit (checked on the corpus).
_HARMLESS_MESSAGES = ("is not whole minutes", "has hours out of range")
_SMALL_MB = {"mem": 256, "mem-per-cpu": 64, "mem-per-gpu": 64}


def _harmless(directive: Directive, problem) -> bool:
    message = problem.message
    if any(text in message for text in _HARMLESS_MESSAGES):
        return True  # `0-24:00` is one day, `30:59:59` rounds up by a second
    if "megabytes (the default unit is MB)" in message:
        memory = directive.value_as(MemorySize)
        limit = _SMALL_MB.get(directive.option.long, 64)
        return memory is None or memory.megabytes > limit  # `--mem-per-cpu=500` is a normal MB value
    return False
