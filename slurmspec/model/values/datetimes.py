"""Parse --begin/--deadline datetimes the way ``parse_time.c:parse_time(str, past=0)`` does.

The loop skips blanks, ``-`` and ``T`` (before keywords, so ``Today`` fails on
``oday``), recognises ``today``/``tomorrow``/``midnight``/``noon``/``fika``/
``teatime`` (24.05+: ``elevenses``), ``now[+-]N[unit]`` with unit names
spelled out, ``HH:MM[:SS][AM|PM]`` and dates ``YYYY-MM-DD``, ``MMDD[YY]``,
``MM/DD[/YY]``, ``MM.DD[.YY]``, plus ``uts<epoch>``. Months, days, hours,
minutes and seconds are range-checked.
"""

from __future__ import annotations

import re

import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.gates import TIME_ELEVENSES
from slurmspec.version import NEWEST, Version

from ._base import Parsed
from ._common import bad, problem, strtol, tick

DATETIME_HINT = "use `HH:MM[:SS]`, `YYYY-MM-DD[THH:MM[:SS]]`, `now+N<unit>` or `tomorrow`"
_UNITS = (("seconds", 1), ("second", 1), ("minutes", 60), ("minute", 60),
          ("hours", 3600), ("hour", 3600), ("days", 86400), ("day", 86400),
          ("weeks", 604800), ("week", 604800))


@frozen
class DateTime:
    """A --begin/--deadline value; unset parts are filled in by Slurm at submit time."""

    year: int | None = None
    month: int | None = None
    day: int | None = None
    hour: int | None = None
    minute: int | None = None
    second: int | None = None
    relative_seconds: int | None = None  # now[+-N]
    epoch: int | None = None  # uts<N>
    keywords: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)


class _Fail(Exception):
    def __init__(self, pos: int, why: str):
        self.pos, self.why = pos, why


def _digit(s: str, i: int) -> bool:
    return i < len(s) and "0" <= s[i] <= "9"


def _get_time(s: str, i: int) -> tuple[int, int, int, int]:
    # parse_time.c:_get_time(): HH:MM[:SS] then optional AM/PM; ranges checked.
    start = i
    hr = int(s[i]); i += 1
    if i >= len(s) or s[i] != ":":
        if not _digit(s, i):
            raise _Fail(i, "expected `HH:MM`")
        hr = hr * 10 + int(s[i]); i += 1
    if hr > 23:
        raise _Fail(start, "hour above 23")
    if i >= len(s) or s[i] != ":":
        raise _Fail(i, "expected `:` after the hour")
    i += 1
    if not (_digit(s, i) and _digit(s, i + 1)):
        raise _Fail(i, "minutes need two digits")
    mi = int(s[i:i + 2]); i += 2
    if mi > 59:
        raise _Fail(i - 2, "minutes above 59")
    sec = 0
    if i < len(s) and s[i] == ":":
        i += 1
        if not (_digit(s, i) and _digit(s, i + 1)):
            raise _Fail(i, "seconds need two digits")
        sec = int(s[i:i + 2]); i += 2
        if sec > 59:
            raise _Fail(i - 2, "seconds above 59")
    j = i
    while j < len(s) and s[j] in " \t\n\v\f\r":
        j += 1
    suffix = s[j:j + 2].lower()
    if suffix == "pm":
        hr += 12
        if hr > 24:
            raise _Fail(j, "`PM` after an hour above 12")
        hr = 12 if hr == 24 else hr
        i = j + 2
    elif suffix == "am":
        if hr > 12:
            raise _Fail(j, "`AM` after an hour above 12")
        hr = 0 if hr == 12 else hr
        i = j + 2
    return i, hr, mi, sec


def _get_date(s: str, i: int) -> tuple[int, int, int, int | None]:
    # parse_time.c:_get_date(): YYYY-MM-DD, or MMDD[YY] / MM.DD[.YY] / MM/DD[/YY].
    if len(s) >= i + 7 and s[i + 4:i + 5] == "-" and s[i + 7:i + 8] == "-":
        if not all(_digit(s, k) for k in range(i, i + 4)):
            raise _Fail(i, "bad year")
        yr = int(s[i:i + 4]); i += 5
        mon, i = _two(s, i, lenient=True)
        if not 1 <= mon <= 12:
            raise _Fail(i - 2, "month out of range 1-12")
        i += 1
        if not _digit(s, i):
            raise _Fail(i, "expected a day")
        day, i = _two(s, i)
        if not 1 <= day <= 31:
            raise _Fail(i - 2, "day out of range 1-31")
        return i, mon, day, yr
    mon, i = _two(s, i, lenient=True)
    if not 1 <= mon <= 12:
        raise _Fail(max(0, i - 2), "month out of range 1-12")
    if i < len(s) and s[i] in "./":
        i += 1
    if not _digit(s, i):
        raise _Fail(i, "expected a day")
    day, i = _two(s, i)
    if not 1 <= day <= 31:
        raise _Fail(i - 2, "day out of range 1-31")
    if i < len(s) and s[i] in "./":
        i += 1
    year = None
    if _digit(s, i):
        if not _digit(s, i + 1):
            raise _Fail(i + 1, "year needs two digits")
        # `yr + 100` is stored only when non-zero, so a year `00` is ignored.
        year = 2000 + int(s[i:i + 2]) if int(s[i:i + 2]) else None
        i += 2
    return i, mon, day, year


def _two(s: str, i: int, lenient: bool = False) -> tuple[int, int]:
    # One digit, optionally a second. The C code reads the first character
    # unchecked for months (`'x' - '0'`), which fails the range check anyway.
    value = ord(s[i]) - 48 if i < len(s) else -48
    i += 1
    if _digit(s, i):
        value = value * 10 + int(s[i])
        i += 1
    return value, i


def parse_datetime(text: str, version: Version = NEWEST, option: str = "--begin") -> Parsed:
    """Parse a --begin/--deadline value the way parse_time(str, past=0) does."""
    try:
        return _parse_datetime(text, version, option)
    except _Fail as fail:
        pos = max(0, min(fail.pos, len(text)))
        end = len(text) if pos >= len(text) else pos + 1
        hint = ""
        if re.fullmatch(r"(?i)\s*now\s*[+-]\s*\d+\s*[a-z]+\s*", text):
            hint = "; units must be spelled out (`minutes`, `hours`, …)"
        elif re.fullmatch(r"(?i)\s*\d{1,2}\s*[ap]m\s*", text):
            hint = "; a clock time needs minutes, e.g. `4:00pm` or `16:00`"
        return bad(text, f"{tick(text)} is not a valid {option} time ({fail.why} at "
                   f"position {fail.pos}){hint}; {DATETIME_HINT}", pos, end)


def _parse_datetime(text: str, version: Version, option: str) -> Parsed:
    s = text.split("\n", 1)[0]
    if s[:3].lower() == "uts":
        value, end = strtol(s, 3)
        if value is None or end != len(s) or value < 1000000 or value >= 2**63 - 1:
            raise _Fail(3, "`uts` needs a Unix time of at least 1000000")
        return Parsed(DateTime(epoch=value, keywords=("uts",)))
    fields: dict[str, int | None] = {}
    keywords: list[str] = []
    rel = None
    has_date = has_time = False
    i = 0
    clocks = {"midnight": 0, "noon": 12, "elevenses": 11, "fika": 15, "teatime": 16}
    while i < len(s):
        ch = s[i]
        if ch in " \t-T":  # skipped before keywords, so `Today` fails on `oday`
            i += 1
            continue
        low = s[i:].lower()
        word = next((w for w in ("today", "tomorrow", *clocks) if low.startswith(w)), None)
        if word == "elevenses" and version < TIME_ELEVENSES:
            raise _Fail(i, "`elevenses` needs Slurm 24.05 or newer")
        if word:
            keywords.append(word)
            if word in clocks:
                fields.update(hour=clocks[word], minute=0, second=0)
                has_time = True
            else:
                has_date = True
            i += len(word)
            continue
        if low.startswith("now"):
            keywords.append("now")
            rel, i = _now_delta(s, i + 3)
            has_date = has_time = True
            continue
        if not _digit(s, i):
            raise _Fail(i, f"unexpected {tick(ch)}")
        if s[i + 1:i + 2] == ":" or s[i + 2:i + 3] == ":":
            i, hr, mi, sec = _get_time(s, i)
            fields.update(hour=hr, minute=mi, second=sec)
            has_time = True
            continue
        i, mon, day, yr = _get_date(s, i)
        fields.update(month=mon, day=day, year=yr)
        has_date = True
    if not has_date and not has_time:
        # parse_time() returns 0 ("nothing specified"); sbatch treats it as invalid.
        raise _Fail(0, "no date or time given")
    value = DateTime(fields.get("year"), fields.get("month"), fields.get("day"),
                     fields.get("hour"), fields.get("minute"), fields.get("second"),
                     rel, None, keywords)
    problems = []
    if value.year and value.month and value.day:
        import datetime as _dt  # here, not at import: only a dated value needs it

        try:
            when = _dt.date(value.year, value.month, value.day)
        except ValueError:
            problems.append(problem(text, f"{tick(text)} names a day that does not exist; "
                                    "mktime() silently rolls it into the next month",
                                    rejected=False))
        else:
            if when < _dt.date.today():
                problems.append(problem(text, f"{tick(text)} is in the past, so the job is "
                                        f"not held (the {option} has no effect)",
                                        rejected=False))
    return Parsed(value, tuple(problems))


def _now_delta(s: str, i: int) -> tuple[int, int]:
    # now[{+|-}count[unit]]: blanks allowed, unit names must be complete words.
    while i < len(s) and s[i] in " \t":
        i += 1
    if i >= len(s):
        return 0, i
    if s[i] not in "+-":
        raise _Fail(i, "expected `+` or `-` after `now`")
    sign = -1 if s[i] == "-" else 1
    i += 1
    count, digits = 0, 0
    while i < len(s):
        if s[i].isspace():
            i += 1
            continue
        unit = next(((n, m) for n, m in _UNITS if s[i:i + len(n)].lower() == n), None)
        if unit:
            count *= unit[1]
            i += len(unit[0])
            break
        if _digit(s, i):
            count = count * 10 + int(s[i])
            digits += 1
            i += 1
            continue
        raise _Fail(i, "unknown time unit")
    if not digits:
        raise _Fail(i, "missing number after `now+`")
    return sign * count, i


def parse_begin(text: str, version: Version = NEWEST) -> Parsed:
    return parse_datetime(text, version, "--begin")


def parse_deadline(text: str, version: Version = NEWEST) -> Parsed:
    return parse_datetime(text, version, "--deadline")
