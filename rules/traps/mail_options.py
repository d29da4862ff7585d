"""SB208–SB209: mail settings that send no mail, or less than they say.

`--mail-user` only says where mail goes; `--mail-type` (default `NONE`) says
when (`man sbatch`). `src/common/proc_args.c:parse_mail_type()` silently drops
an unknown type when at least one other is valid, and up to 24.11
`src/common/slurm_opt.c:arg_set_mail_type()` ORs repeated options together, so
a later `--mail-type=NONE` cancels nothing.
"""

from __future__ import annotations

from slurmspec.gates import MAIL_TYPE_LAST_WINS
from slurmspec.kinds import Outcome, Severity, ValueKind
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.enums import MailTypes
from slurmspec.rules.traps._header import line_no, option_span, own, shown


@rule("SB208", "mail-user-without-mail-type", Severity.WARNING, Outcome.WRONG)
def mail_user_without_mail_type(ctx: Context) -> None:
    """
        ## What it does
        Finds `--mail-user` without any `--mail-type`.

        ## Why is this bad?
        `--mail-user` only says where mail goes; which events send mail is `--mail-type`, whose
        default is `NONE`. The job runs and no mail ever arrives.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-user=me@example.org
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-user=me@example.org
        #SBATCH --mail-type=END,FAIL
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--mail-type` and `--mail-user`
    """
    for component in ctx.script.components:
        request = component.request
        user = own(request, "mail-user")
        if user is None or request.has("mail-type"):
            continue
        ctx.report(
            "SB208", option_span(ctx.script, user.directive),
            f"`{shown(user.directive)}` alone sends no mail: `--mail-type` defaults to `NONE`;"
            " add e.g. `--mail-type=END,FAIL`",
        )


@rule("SB209", "ignored-mail-type", Severity.WARNING, Outcome.WRONG)
def ignored_mail_type(ctx: Context) -> None:
    """
        ## What it does
        Finds `--mail-type` values that sbatch silently drops or that cancel each other: unknown
        tokens next to valid ones (`BEGIN,FINISH`), `NONE` mixed with other types, and (before
        25.05) a later `--mail-type=NONE` that does not cancel an earlier line.

        ## Why is this bad?
        An unknown mail type is dropped without a message when at least one token is valid, so
        `--mail-type=BEGIN,FINISH` only mails at the start. Before 25.05 repeated `--mail-type`
        options are ORed together.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-user=me@example.org
        #SBATCH --mail-type=BEGIN,FINISH
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-user=me@example.org
        #SBATCH --mail-type=BEGIN,END
        srun ./app
        ```

        ## Slurm versions
        All; the repeat behaviour changed in 25.05 (last wins).

        ## References
        - `src/common/proc_args.c:parse_mail_type()` (unknown types are skipped)
        - `src/common/slurm_opt.c:arg_set_mail_type()`: `opt->mail_type |= parse_mail_type(arg)`
          up to 24.11, a plain assignment from 25.05
    """
    for directive in ctx.script.directives:
        if directive.ignored or directive.option.kind is not ValueKind.MAIL_TYPE:
            continue
        typed = directive.typed
        if typed is None or not typed.problems:
            continue
        for problem in typed.problems:
            if not problem.rejected:
                ctx.report(
                    "SB209", ctx.script.span_in_value(directive, problem.start, problem.end),
                    f"{problem.message} (in `{shown(directive)}`)",
                )
    if ctx.version < MAIL_TYPE_LAST_WINS:
        _check_mail_none_repeat(ctx)


def _check_mail_none_repeat(ctx: Context) -> None:
    # <= 24.11 ORs repeated --mail-type lines: a later NONE cancels nothing.
    for component in ctx.script.components:
        setting = component.request.get("mail-type")
        if setting is None or setting.inherited or not setting.overridden:
            continue
        occurrences = (*setting.overridden, setting.directive)
        for index, occurrence in enumerate(occurrences):
            if _mail_types(occurrence) != () or index == 0:
                continue
            earlier = [d for d in occurrences[:index] if _mail_types(d)]
            if earlier:
                ctx.report(
                    "SB209", option_span(ctx.script, occurrence),
                    f"`{shown(occurrence)}` does not cancel `{shown(earlier[0])}` on line"
                    f" {line_no(earlier[0])}: before Slurm 25.05 repeated `--mail-type` options"
                    " are combined, so mail is still sent; delete the earlier line",
                )


def _mail_types(directive) -> tuple[str, ...] | None:
    """The mail types one occurrence names (``()`` for NONE); None when it did not parse."""
    mail = directive.value_as(MailTypes)
    return None if mail is None else mail.types
