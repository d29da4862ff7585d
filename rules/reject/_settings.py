"""How sbatch sees a component's options when it checks them against each other.

Private to the option-conflict rules of this folder (SB123-SB133, SB140-SB150).

Two options are "both set" for sbatch when each appeared at least once in the
component (or, for options that are not reset per hetjob component, in an
earlier one): its checks test the option's *set* flag, not the value that won,
so ``--mem=1G --mem-per-cpu=1G --mem-per-cpu=2G`` still conflicts. Where a
conflict is reported is therefore the *first* occurrence of each option.

Also here: the moment a ``--begin``/``--deadline`` value names, which several
rules compare (the host count of a ``--nodelist`` is ``slurmspec.model.views.hosts``).

Not a rule, on purpose: ``-v`` with ``-Q``. sbatch refuses the pair only on
its command line (``don't specify both --verbose (-v) and --quiet (-Q)``,
``src/sbatch/opt.c:_opt_verify()``); both are early-pass options, which sbatch
ignores inside ``#SBATCH``, so ``#SBATCH -v -Q`` and ``#SBATCH -vQ`` are
accepted (checked against sbatch 22.05.8 with ``--test-only``). SB217
(early-pass-option-in-script) reports them as no-ops.
"""

from __future__ import annotations

from typing import Iterator

from slurmspec.check.context import Context
from slurmspec.model.job.request import Setting
from slurmspec.model.syntax.script import Directive
from slurmspec.model.values.datetimes import DateTime


def first_occurrence(setting) -> Directive:
    """The directive that first set the option (sbatch's "set" flag is raised there)."""
    if not setting.inherited and setting.overridden:
        return setting.overridden[0]
    return setting.directive


def where(directive: Directive) -> str:
    return f"line {directive.line}"


def later(*settings) -> Directive:
    """Of several set options, the first occurrence that comes last: where the clash arises.

    Options inherited from an earlier hetjob component come first, so the
    report lands in the component that adds the clashing option.
    """
    def key(setting):
        d = first_occurrence(setting)
        return (not setting.inherited, d.span.start)
    return first_occurrence(max(settings, key=key))


def pairs(ctx: Context, a: str, b: str, inherit: bool = False) -> Iterator[tuple]:
    """Yield (request, setting_a, setting_b) for every component that sets both.

    With ``inherit`` a value carried over from an earlier hetjob component
    counts (unless both are, which the earlier component reports): 22.05.8
    refuses `--begin` in one component and an earlier `--deadline` in the next.
    Without it both must be the component's own: it accepts `--bbf` in one
    component and `--bb` in the next.
    """
    for component in ctx.script.components:
        request = component.request
        first, second = request.get(a), request.get(b)
        if first is None or second is None:
            continue
        inherited = (first.inherited, second.inherited)
        if all(inherited) or (any(inherited) and not inherit):
            continue
        yield request, first, second


def clashes(ctx: Context, a: str, b: str) -> Iterator[tuple[Directive, Directive]]:
    """For every component that sets both (its own) ``a`` and ``b``: (the later directive,
    the first occurrence of the other option): sbatch stops where the second one is read."""
    for _, first, second in pairs(ctx, a, b):
        at = later(first, second)
        yield at, first_occurrence(second if first_occurrence(first) is at else first)


# ---------------------------------------------------------------- moments
def moment(setting: Setting) -> tuple[str, float] | None:
    """("abs", epoch seconds) for a fully dated value, ("now", offset) for now[+-N]; else None
    (also for a value that did not parse)."""
    value = setting.value_as(DateTime)
    if value is None:
        return None
    if value.epoch is not None:
        return ("abs", float(value.epoch))
    keywords = value.keywords
    if keywords == ("now",) and value.relative_seconds is not None:
        return ("now", float(value.relative_seconds))
    if keywords or value.relative_seconds is not None:
        return None
    if not (value.year and value.month and value.day) or value.year < 1970:
        return None
    import datetime as _dt  # here, not at import: only a dated value needs it

    try:
        # mktime() rolls day 30 of February into March; so does this.
        when = _dt.datetime(value.year, value.month, 1) + _dt.timedelta(
            days=value.day - 1, hours=value.hour or 0, minutes=value.minute or 0,
            seconds=value.second or 0,
        )
    except (ValueError, OverflowError):
        return None
    try:
        return ("abs", when.timestamp())  # local time, as mktime()
    except (ValueError, OverflowError, OSError):
        return None
