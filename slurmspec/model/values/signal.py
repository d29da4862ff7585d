"""Parse --signal=[{R|B}:]<sig_num|sig_name>[@sig_time].

Follows ``src/common/proc_args.c:get_signal_opts()`` and ``sig_name2num()``:
an optional ``R`` (and, in sbatch, ``B`` then ``R`` again) flag prefix, an
optional ``:``, a signal number or name (``SIG`` prefix and case ignored),
then ``@seconds`` in 0..65535 (default 60).
"""

from __future__ import annotations

import attrs

from slurmspec.frozen import as_tuple, frozen

from ._base import Parsed
from ._common import bad, problem, strtol, tick

SIGNALS = {
    "HUP": 1, "INT": 2, "QUIT": 3, "ABRT": 6, "KILL": 9, "ALRM": 14, "TERM": 15,
    "USR1": 10, "USR2": 12, "URG": 23, "CONT": 18, "STOP": 19, "TSTP": 20,
    "TTIN": 21, "TTOU": 22, "XCPU": 24,
}
HINT = "use `[R|B:]SIGNAL[@SECONDS]`, e.g. `B:USR1@120`"
_WS = " \t\n\v\f\r"


@frozen
class SignalSpec:
    """``flags`` holds "R" (also on reservation end) and/or "B" (batch shell only)."""

    flags: tuple[str, ...] = attrs.field(converter=as_tuple)
    signal: int
    seconds: int
    name: str | None = None


def _signal_number(text: str) -> tuple[int, str | None]:
    # sig_name2num(): a number (trailing blanks allowed) or a known name.
    value, end = strtol(text)
    if value is not None:
        return (value if not text[end:].strip(_WS) else 0), None
    name = text.lstrip(_WS)
    if name[:3].upper() == "SIG":
        name = name[3:]
    for known, number in SIGNALS.items():
        if name[:len(known)].upper() == known and not name[len(known):].strip(_WS):
            return number, known
    return 0, None


def parse_signal(text: str, version: object = None) -> Parsed:
    flags: list[str] = []
    i = 0
    if text[i:i + 1].upper() == "R":
        flags.append("R")
        i += 1
    # The B flag is only recognised when running as sbatch (run_in_daemon()).
    if text[i:i + 1].upper() == "B":
        flags.append("B")
        i += 1
    if text[i:i + 1].upper() == "R":  # "easiest way to handle BR and RB"
        if "R" not in flags:
            flags.append("R")
        i += 1
    if text[i:i + 1] == ":":
        i += 1
    at = text.find("@", i)
    sig_text = text[i:] if at < 0 else text[i:at]
    number, name = _signal_number(sig_text)
    number &= 0xFFFF  # stored as uint16_t before the range check
    if number < 1:
        why = "is not a signal name or number" if sig_text.strip() else "is missing"
        what = tick(sig_text) if sig_text.strip() else "the signal"
        return bad(text, f"{what} {why}; {HINT}", i, len(text) if at < 0 else at)
    problems = []
    if name is None and number > 64:
        problems.append(problem(text, f"signal number {number} does not exist on Linux",
                                i, len(text) if at < 0 else at, rejected=False))
    if at < 0:
        return Parsed(SignalSpec(flags, number, 60, name), tuple(problems))
    secs, end = strtol(text, at + 1)
    if secs is None:
        # strtol() with no digits yields 0 and leaves nothing unread.
        if at + 1 == len(text):
            problems.append(problem(text, "empty time after `@` means the signal is sent "
                                    "0 seconds before the end", at, len(text), rejected=False))
            return Parsed(SignalSpec(flags, number, 0, name), tuple(problems))
        return bad(text, f"{tick(text[at + 1:])} is not a number of seconds; {HINT}",
                   at + 1, len(text))
    if not 0 <= secs <= 0xFFFF:
        return bad(text, f"{tick(text[at + 1:])} is out of range; the warning time must be "
                   "0 to 65535 seconds", at + 1, len(text))
    if end != len(text):
        return bad(text, f"unexpected {tick(text[end:])} after the warning time; {HINT}",
                   end, len(text))
    return Parsed(SignalSpec(flags, number, secs, name), tuple(problems))
