"""Parse memory sizes for --mem, --mem-per-cpu, --mem-per-gpu and --tmp.

Follows ``src/common/proc_args.c:str_to_mbytes()``: ``strtoll`` (leading
blanks and a sign allowed), then at most one unit letter K/M/G/T in either
case, then an optional ``B`` — but only after a unit letter (``5b`` is
rejected, checked against sbatch 22.05.8). No unit means megabytes and all
units are powers of 1024 (the 26.05 man page says "mebibytes").
"""

from __future__ import annotations



from slurmspec.frozen import frozen
from slurmspec.lazy_regex import lazy_compile

from ._base import Parsed
from ._common import LONG_MAX, LONG_MIN, bad, problem, strtol_raw, tick

HINT = "use a whole number with an optional unit `K`, `M`, `G` or `T` (default `M`)"
_SCALE = {"k": None, "m": 1, "g": 1024, "t": 1024 * 1024}
_DECIMAL = lazy_compile(r"\s*[+-]?\d*\.\d+\s*([a-zA-Z]*)\s*")
# Bare numbers up to this many megabytes are almost always meant as gigabytes.
SMALL_BARE_MB = 512


@frozen
class MemorySize:
    """A memory amount in (binary) megabytes; 0 means "all memory" for --mem."""

    megabytes: int


def parse_memory(text: str, version: object = None, option: str = "--mem") -> Parsed:
    value, end = strtol_raw(text)
    if value is None:
        return _error(text, option)
    if not LONG_MIN <= value <= LONG_MAX:
        # strtoll() set ERANGE: str_to_mbytes() returns NO_VAL64.
        return bad(text, f"{tick(text)} is too large for {option}", 0, end)
    if value < 0:
        return bad(text, f"{tick(text)} is negative; {option} must be 0 or more", 0, end)
    rest = text[end:]
    unit = rest[:1].lower()
    if rest and (unit not in _SCALE or rest[1:] not in ("", "b", "B")):
        return _error(text, option, end)
    problems = []
    if unit == "k":
        megabytes = (value + 1023) // 1024  # kilobytes are rounded up to MB
        if value % 1024:
            problems.append(problem(text, f"{tick(text)} is rounded up to {megabytes} "
                                    "megabytes; Slurm allocates whole megabytes",
                                    rejected=False))
    else:
        megabytes = value * (_SCALE[unit] if unit else 1)
    if megabytes > 2**63 - 1:
        # The multiplication overflows silently in C (accepted by sbatch 22.05.8).
        problems.append(problem(text, f"{tick(text)} overflows Slurm's 64-bit memory field "
                                "and wraps to a meaningless value", rejected=False))
        megabytes %= 2**64
    if value == 0:
        problems.append(problem(text, f"{tick(text)} is special: with --mem it requests all "
                                "memory on each node, not zero", rejected=False))
    elif not unit and value <= SMALL_BARE_MB:
        problems.append(problem(text, f"{tick(text)} means {value} megabytes (the default "
                                f"unit is MB); write `{value}G` if you meant gigabytes",
                                rejected=False))
    return Parsed(MemorySize(megabytes), tuple(problems))


def _error(text: str, option: str, at: int = 0) -> Parsed:
    if not text.strip():
        return bad(text, f"empty {option} value; {HINT}")
    m = _DECIMAL.fullmatch(text)
    if m:
        return bad(text, f"{tick(text)} is not a whole number; Slurm memory sizes cannot "
                   f"have decimals, use a smaller unit (e.g. `1536M` instead of `1.5G`)")
    rest = text[at:]
    low = rest.lower()
    if low[:1] in _SCALE and low[1:] in ("i", "ib"):
        return bad(text, f"{tick(text)} uses an IEC suffix; Slurm units are already binary, "
                   f"write `{text[:at]}{rest[0].upper()}`", at, len(text))
    if low[:1] == "p":
        return bad(text, f"{tick(text)} uses `P`; memory sizes stop at `T` "
                   f"(only --gres counts accept `P`)", at, len(text))
    if low[:1] == "b":
        return bad(text, f"{tick(text)} is not a memory size; a bare `B` is not a unit, "
                   f"{HINT}", at, len(text))
    return bad(text, f"{tick(text)} is not a memory size; {HINT}", at, len(text))
