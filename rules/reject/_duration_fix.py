"""SB110's fix: a whole number with one unit suffix (``2h``, ``90min``, ``3d``) spelt as Slurm reads it.

Only forms whose meaning is certain are rewritten: one whole number and one
unit word, hours, minutes, days, or seconds that make whole minutes. The
rest get no fix, because the right value is the user's call: fractions
(``1.5h``), mixed forms (``2h30``, ``1h30m``), seconds that are not whole
minutes (a time limit counts minutes, Slurm would round up), and zero
(``--time=0`` means *no* limit, surely not what ``0h`` meant).
"""

from __future__ import annotations


from slurmspec.fix.build import replace
from slurmspec.fix.edit import Fix
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.syntax.script import Directive, Script
from slurmspec.model.values import PARSERS

_UNIT = lazy_compile(r"(?P<number>[0-9]{1,9})(?P<unit>[A-Za-z]+)")
# Unit word (any case) -> seconds per unit.
_SECONDS = {
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 3600),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 60),
    **dict.fromkeys(("d", "day", "days"), 86400),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1),
}


def slurm_spelling(value: str) -> str | None:
    """The Slurm duration meaning exactly what ``value`` (``2h``) says, or None when unsure."""
    match = _UNIT.fullmatch(value)
    if match is None:
        return None
    per_unit = _SECONDS.get(match.group("unit").lower())
    number = int(match.group("number"))
    if per_unit is None or number == 0:
        return None
    if per_unit == 3600:
        return f"{number}:00:00"
    if per_unit == 86400:
        return f"{number}-00:00:00"
    seconds = number * per_unit
    return str(seconds // 60) if seconds % 60 == 0 else None


def duration_fix(script: Script, directive: Directive) -> Fix | None:
    """A safe fix replacing ``directive``'s unit-suffixed value, or None (see the module doc).

    The new value must pass the option's own parser without a single problem, so a number
    so large that Slurm would wrap it gets no fix.
    """
    value = directive.value
    span = directive.value_span
    if value is None or span is None:
        return None
    spelling = slurm_spelling(value)
    if spelling is None or script.source[span.start:span.end] != value:
        return None  # quoted or escaped in the source: never edit blindly
    if PARSERS[directive.option.kind](spelling, script.version).problems:
        return None
    # sbatch refuses the script over the unit suffix, so what the duration then conflicts with (a
    # `--time-min` longer than `--time`, SB123) was wrong all along: the fix reveals it.
    return Fix(title=f"Write `{spelling}` for `{value}`", edits=[replace(script, span.start, span.end, spelling)],
               reveals=True)
