"""Parse Slurm durations (--time, --time-min, --delay-boot); datetimes live in datetimes.py.

Durations follow ``src/common/parse_time.c:time_str2secs()`` (unchanged
22.05 → 26.05); datetimes follow ``parse_time()`` (see datetimes.py). Both are
emulated step by step, including the C ``int`` overflow, because the linter's
job is to say what sbatch will really do with odd inputs.
"""

from __future__ import annotations

import re


from slurmspec.frozen import frozen
from slurmspec.lazy_regex import lazy_compile

from ._base import Parsed
from ._common import bad, problem, strtol, tick, to_c_int

NO_VAL = -2  # 0xfffffffe seen through a C int
INFINITE = -1  # 0xffffffff seen through a C int

DURATION_HINT = "use minutes, `M:S`, `H:M:S` or `D-H[:M[:S]]`"
_UNIT_SUFFIX = lazy_compile(r"\s*\d+(\.\d+)?\s*([a-zA-Z]+)\s*")


@frozen
class Duration:
    """A time limit. ``minutes`` is what --time stores (seconds rounded up).

    ``seconds`` is the exact value time_str2secs() returned (what --delay-boot
    and the --switches wait store). Both are None when ``unlimited``.
    """

    minutes: int | None
    unlimited: bool = False
    seconds: int | None = None


def _valid_timespec(text: str) -> bool:
    # parse_time.c:_is_valid_timespec(): digits, at most one '-', at most two
    # ':', no '-' after a ':', and enough numbers for the separators used.
    groups = dashes = colons = 0
    in_digits = False
    for ch in text:
        if "0" <= ch <= "9":
            if not in_digits:
                groups += 1
                in_digits = True
        elif ch == "-":
            in_digits = False
            dashes += 1
            if colons:
                return False
        elif ch == ":":
            in_digits = False
            colons += 1
        else:
            return False
    if not groups or dashes > 1 or colons > 2:
        return False
    need = {1: 3, 2: 4} if dashes else {1: 2, 2: 3}
    return groups >= need.get(colons, 0)


def _scan_ints(text: str, seps: str) -> list[int]:
    # sscanf("%d<sep>%d..."): each %d is strtol() truncated to int; scanning
    # stops at the first separator that does not match.
    values: list[int] = []
    pos = 0
    for i in range(len(seps) + 1):
        value, end = strtol(text, pos)
        if value is None:
            break
        values.append(to_c_int(value))
        pos = end
        if i == len(seps) or pos >= len(text) or text[pos] != seps[i]:
            break
        pos += 1
    return values


def duration_seconds(text: str) -> int:
    """time_str2secs(): seconds as a C int, or NO_VAL / INFINITE."""
    if text == "":
        return NO_VAL
    if text.lower() in ("-1", "infinite", "unlimited"):
        return INFINITE
    if not _valid_timespec(text):
        return NO_VAL
    if "-" in text:
        fields = _scan_ints(text, "-::") + [0, 0, 0, 0]
        d, h, m, s = fields[:4]
        total = d * 86400 + h * 3600 + m * 60 + s
    else:
        fields = _scan_ints(text, "::")
        if len(fields) == 3:
            total = fields[0] * 3600 + fields[1] * 60 + fields[2]
        else:
            fields += [0, 0]
            total = fields[0] * 60 + fields[1]
    # Each product is int arithmetic in C; wrapping the sum is equivalent.
    return to_c_int(total)


def _c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _range_warnings(text: str) -> str | None:
    # No field is range-checked by time_str2secs(): `1:99` is 159 seconds.
    nums = [int(n) for n in re.findall(r"\d+", text)[:4] if len(n) < 12]
    if "-" in text:
        names = ["days", "hours", "minutes", "seconds"]
        limits = [None, 23, 59, 59]
    elif text.count(":") == 2:
        names, limits = ["hours", "minutes", "seconds"], [None, 59, 59]
    elif text.count(":") == 1:
        names, limits = ["minutes", "seconds"], [None, 59]
    else:
        return None
    for value, name, limit in zip(nums, names, limits):
        if limit is not None and value > limit:
            return name
    return None


def parse_duration(text: str, version: object = None, option: str = "--time") -> Parsed:
    """Parse a --time / --time-min style duration (stored in minutes)."""
    secs = duration_seconds(text)
    if secs == NO_VAL:
        return _duration_error(text, option)
    if secs == INFINITE:
        return Parsed(Duration(None, True, None))
    problems = []
    minutes = _c_div(to_c_int(secs + 59), 60)  # ROUNDUP(i, 60) in C ints
    if minutes == NO_VAL:
        return _duration_error(text, option)
    if minutes == 0 and option != "--delay-boot":
        # slurm_opt.c:arg_set_time_limit(): 0 minutes is stored as INFINITE.
        problems.append(problem(text, f"{tick(text)} means no time limit (UNLIMITED), "
                                "not zero; give a real limit or write `UNLIMITED`",
                                rejected=False))
        return Parsed(Duration(None, True, secs), tuple(problems))
    if secs < 0 or minutes < 0:
        wrapped = minutes & 0xFFFFFFFF
        what = "negative" if text.lstrip().startswith("-") else "overflowing"
        problems.append(problem(text, f"{what} time {tick(text)} is accepted but wraps "
                                f"to a huge limit ({wrapped} minutes)", rejected=False))
        return Parsed(Duration(wrapped, False, secs & 0xFFFFFFFF), tuple(problems))
    field = _range_warnings(text)
    if field:
        problems.append(problem(text, f"{tick(text)} has {field} out of range; Slurm does not "
                                f"check fields and reads it as {_fmt_secs(secs)}",
                                rejected=False))
    if secs % 60 and option != "--delay-boot":
        problems.append(problem(text, f"{tick(text)} is not whole minutes; Slurm rounds it up "
                                f"to {minutes} minute{'s' if minutes != 1 else ''}",
                                rejected=False))
    return Parsed(Duration(minutes, False, secs), tuple(problems))


def parse_time_min(text: str, version: object = None) -> Parsed:
    return parse_duration(text, version, "--time-min")


def parse_delay_boot(text: str, version: object = None) -> Parsed:
    """--delay-boot: time_str2secs() result kept in seconds (bare number = minutes)."""
    return parse_duration(text, version, "--delay-boot")


def _fmt_secs(secs: int) -> str:
    d, rest = divmod(secs, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    return (f"{d}-" if d else "") + f"{h:02d}:{m:02d}:{s:02d}"


def _duration_error(text: str, option: str) -> Parsed:
    if text.strip() == "":
        return bad(text, f"empty {option} value; {DURATION_HINT}")
    m = _UNIT_SUFFIX.fullmatch(text)
    if m:
        return bad(text, f"{tick(text)} is not a Slurm duration; Slurm has no unit suffixes, "
                   f"{DURATION_HINT}", m.start(2), m.end(2))
    if "." in text:
        return bad(text, f"{tick(text)} is not a Slurm duration; fractions are not allowed, "
                   f"{DURATION_HINT}", text.index("."), text.index(".") + 1)
    for i, ch in enumerate(text):
        if not (ch.isascii() and (ch.isdigit() or ch in "-:")):
            return bad(text, f"{tick(text)} is not a Slurm duration: {tick(ch)} is not "
                       f"allowed; {DURATION_HINT}", i, i + 1)
    return bad(text, f"{tick(text)} is not a Slurm duration; {DURATION_HINT}")
