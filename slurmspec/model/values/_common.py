"""Small helpers shared by the typed-value parsers (C number parsing, problems).

Slurm parses almost every number with C's ``strtol``/``strtoll``/``strtoul``:
leading whitespace and a sign are accepted, then decimal digits, and the
caller looks at whatever is left over. Emulating that exactly is what lets us
agree with sbatch on odd inputs such as ``--ntasks=' 3'`` (accepted) or
``--ntasks='3 '`` (rejected).
"""

from __future__ import annotations

import re

from ._base import Parsed, ValueProblem

INT_MAX = 2**31 - 1
LONG_MAX = 2**63 - 1
LONG_MIN = -(2**63)

# C isspace() in the "C" locale.
_C_SPACE = " \t\n\v\f\r"
_STRTOL = re.compile(r"[ \t\n\v\f\r]*([+-]?)([0-9]+)")


def strtol(text: str, pos: int = 0) -> tuple[int | None, int]:
    """Emulate ``strtol(text + pos, &end, 10)`` on a 64-bit platform.

    Returns ``(value, end)``; value is None (and end == pos) when no digits
    were found, exactly as strtol leaves ``end`` at the start then. Values
    outside the ``long`` range saturate like strtol does (ERANGE).
    """
    value, end = strtol_raw(text, pos)
    if value is None:
        return None, pos
    return max(LONG_MIN, min(LONG_MAX, value)), end


def strtol_raw(text: str, pos: int = 0) -> tuple[int | None, int]:
    """Like strtol() but without saturation (huge inputs are capped at 2**70)."""
    m = _STRTOL.match(text, pos)
    if not m:
        return None, pos
    digits = m.group(2).lstrip("0") or "0"
    value = int(digits) if len(digits) < 22 else 2**70
    return (-value if m.group(1) == "-" else value), m.end()


def to_c_int(value: int) -> int:
    """What a C ``(int)`` cast of a 64-bit long gives (two's complement wrap)."""
    value &= 0xFFFFFFFF
    return value - 2**32 if value >= 2**31 else value


def tick(text: str, limit: int = 60) -> str:
    """Quote a user value in backticks for a message, shortening long ones."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return "`" + text.replace("`", "'") + "`"


def bad(text: str, message: str, start: int = 0, end: int | None = None) -> Parsed:
    """A rejected, not understood value with a single problem."""
    return Parsed(None, (problem(text, message, start, end),))


def problem(
    text: str, message: str, start: int = 0, end: int | None = None, rejected: bool = True,
    site_limit: str = "",
) -> ValueProblem:
    """Build a problem whose offsets are clamped into ``0..len(text)``."""
    if message[:1].islower():
        message = message[0].upper() + message[1:]  # messages are in sentence case
    n = len(text)
    start = max(0, min(start, n))
    end = n if end is None else max(start, min(end, n))
    return ValueProblem(message, start, end, rejected, site_limit)


def fmt_version(major: int, minor: int) -> str:
    return f"{major:02d}.{minor:02d}"


def split_spans(text: str, sep: str) -> list[tuple[str, int, int]]:
    """Split on ``sep`` keeping the offsets of every piece (empty ones too)."""
    out = []
    start = 0
    for piece in text.split(sep):
        out.append((piece, start, start + len(piece)))
        start += len(piece) + len(sep)
    return out


def lstrip_c(text: str) -> str:
    return text.lstrip(_C_SPACE)
