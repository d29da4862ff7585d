"""The one checker behind SB110–SB122: values an option's own parser refuses.

The typed-value parsers in ``slurmspec.model.values`` mark each problem with
``rejected=True`` exactly when Slurm refuses the value (sbatch's ``arg_set_*``
handlers in ``src/common/slurm_opt.c``, or slurmctld at submission). The value
kind of the option decides the rule; kinds without a rule of their own share
SB122 (invalid-option-value). Accepted-but-suspicious values (``--time=0``, a
dropped mail type...) belong to the traps family.
"""

from __future__ import annotations

from slurmspec.check.context import Context
from slurmspec.kinds import ValueKind
from slurmspec.rules.reject._duration_fix import duration_fix
from slurmspec.model.catalogue.options import CHECKED_WHEN_EFFECTIVE
from slurmspec.model.job.request import hint_is_dropped
from slurmspec.model.syntax.script import Directive

# Value kind -> rule code. Kinds not listed share SB122 (invalid-option-value).
_CODE_BY_KIND = {
    ValueKind.DURATION: "SB110",
    ValueKind.DATETIME: "SB111",
    ValueKind.MEMORY: "SB112",
    ValueKind.COUNT: "SB113",
    ValueKind.COUNT0: "SB113",
    ValueKind.NODE_COUNT: "SB114",
    ValueKind.GRES: "SB115",
    ValueKind.GPUS: "SB115",
    ValueKind.TRES_PER_TASK: "SB115",
    ValueKind.ARRAY: "SB116",
    ValueKind.DEPENDENCY: "SB117",
    ValueKind.SIGNAL: "SB118",
    ValueKind.DISTRIBUTION: "SB119",
    ValueKind.MAIL_TYPE: "SB120",
    ValueKind.CONSTRAINT: "SB121",
}
OTHER_VALUES = "SB122"


def check_option_values(ctx: Context) -> None:
    """Report every refused value of a directive Slurm checks, under its value kind's code."""
    for directive in _checked_directives(ctx):
        code = _CODE_BY_KIND.get(directive.option.kind or "", OTHER_VALUES)
        for problem in directive.typed.problems:
            if not problem.rejected or (problem.site_limit and ctx.cluster is not None):
                continue  # with a profile, its own rule judges the site's setting (SB412: MaxArraySize)
            shown = directive.raw if len(directive.raw) <= 60 else directive.raw[:57] + "..."
            ctx.report(
                code,
                ctx.script.span_in_value(directive, problem.start, problem.end),
                f"{problem.message} (in `{shown}`)",
                fix=duration_fix(ctx.script, directive) if code == "SB110" else None,
            )


def _checked_directives(ctx: Context) -> list[Directive]:
    """Directives whose value Slurm validates: read by sbatch, typed, and still in effect.

    Kinds in ``CHECKED_WHEN_EFFECTIVE`` are only checked for the occurrence that
    wins (a later one replaces an earlier bad value unchecked); a ``--hint`` that
    another option makes sbatch drop is never checked.
    """
    effective = {
        id(setting.directive)
        for component in ctx.script.components
        for setting in component.request.settings
    }
    checked = []
    for directive in ctx.script.directives:
        if directive.ignored or directive.typed is None:
            continue
        kind = directive.option.kind
        if kind in CHECKED_WHEN_EFFECTIVE and id(directive) not in effective:
            continue
        if kind is ValueKind.HINT and hint_is_dropped(ctx.script.components[directive.component].request, ctx.version):
            continue
        if directive.option.long == "propagate" and _gets_user_env(ctx, directive):
            continue
        checked.append(directive)
    return checked


def _gets_user_env(ctx: Context, directive: Directive) -> bool:
    """--get-user-env: sbatch never reads the --propagate list (so never refuses it).

    ``src/sbatch/sbatch.c:main()`` calls ``_set_rlimit_env()``, which parses
    --propagate ("Bad rlimit name"), only while ``get_user_env_time < 0``; with
    --get-user-env slurmd takes the limits from the user's login instead
    (22.05.8 and 24.11.5 accept `--get-user-env --propagate=as`).
    """
    return ctx.script.components[directive.component].request.get("get-user-env") is not None
