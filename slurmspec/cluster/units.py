"""Times, memory sizes and GRES as ``scontrol show`` prints them and as profiles spell them.

Each parser raises ``ValueError`` with a short reason; the caller adds the file
and line (or key). Unlimited and unset values (``UNLIMITED``, ``INFINITE``,
``N/A``, ``(null)``, ``NONE``) read as ``None``.
"""

from __future__ import annotations

import re

from slurmspec.cluster.profile import Gres

UNSET = frozenset({"UNLIMITED", "INFINITE", "N/A", "(NULL)", "NONE", ""})

_TIME = re.compile(r"^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$")
_MEMORY = re.compile(r"^(\d+)([KMGTP]?)B?$", re.IGNORECASE)
_MEMORY_FACTORS = {"K": 1 / 1024, "": 1, "M": 1, "G": 1024, "T": 1024**2, "P": 1024**3}


def is_unset(text: str) -> bool:
    return text.strip().upper() in UNSET


def parse_minutes(text: str) -> int | None:
    """A Slurm time limit in whole minutes (seconds round up, as slurmctld's ``time_str2mins``).

    Forms (man sbatch, --time): ``M``, ``M:S``, ``H:M:S``, ``D-H``, ``D-H:M``,
    ``D-H:M:S``. ``scontrol`` prints ``D-HH:MM:SS`` or ``HH:MM:SS``.
    """
    text = text.strip()
    if is_unset(text):
        return None
    match = _TIME.match(text)
    if match is None:
        raise ValueError(f"not a time limit: {text!r}")
    days, first, second, third = match.groups()
    a, b, c = int(first), int(second or 0), int(third or 0)
    if days is not None:  # D-H, D-H:M, D-H:M:S
        hours, minutes, seconds = a, b, c
        total_days = int(days)
    elif third is not None:  # H:M:S
        total_days, hours, minutes, seconds = 0, a, b, c
    else:  # M or M:S
        total_days, hours, minutes, seconds = 0, 0, a, b
    return (total_days * 24 + hours) * 60 + minutes + (1 if seconds else 0)


def format_minutes(minutes: int | None) -> str:
    """``2880`` -> ``"2-00:00:00"``, ``240`` -> ``"04:00:00"``, ``None`` -> ``"UNLIMITED"`` (as scontrol prints)."""
    if minutes is None:
        return "UNLIMITED"
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    clock = f"{hours:02d}:{mins:02d}:00"
    return f"{days}-{clock}" if days else clock


def parse_megabytes(text: str) -> int | None:
    """A memory size in MB: ``512000``, ``500G``, ``1000000M``; ``UNLIMITED`` or ``0`` as unset is the caller's choice."""
    text = text.strip()
    if is_unset(text):
        return None
    match = _MEMORY.match(text)
    if match is None:
        raise ValueError(f"not a memory size: {text!r}")
    number, unit = int(match[1]), match[2].upper()
    return int(number * _MEMORY_FACTORS[unit])


def parse_gres(text: str) -> tuple[Gres, ...]:
    """``gpu:a100:8(S:0-1),nvme:1`` -> (Gres("gpu","a100",8), Gres("nvme",None,1)).

    scontrol appends a socket binding in parentheses (``(S:0-1)``), which may
    itself contain commas; a count is optional (``gpu`` alone means 1) and may
    carry a suffix (``4K``).
    """
    text = text.strip()
    if is_unset(text):
        return ()
    found = []
    for item in _split_outside_parentheses(text):
        item = re.sub(r"\(.*\)$", "", item.strip())
        if not item:
            continue
        parts = item.split(":")
        name, kind, count = parts[0], None, 1
        if len(parts) > 3 or not name:
            raise ValueError(f"not a GRES: {item!r}")
        if len(parts) >= 2:
            last = parts[-1]
            if _count(last) is not None:
                count = _count(last)
                kind = parts[1] if len(parts) == 3 else None
            elif len(parts) == 2:
                kind = last
            else:
                raise ValueError(f"not a GRES count: {item!r}")
        found.append(Gres(name, kind or None, count))
    return tuple(found)


def _count(text: str) -> int | None:
    match = re.fullmatch(r"(\d+)([KMGTP]?)", text, re.IGNORECASE)
    if match is None:
        return None
    return int(match[1]) * 1024 ** "_KMGTP".index(match[2].upper() or "_")


def _split_outside_parentheses(text: str) -> list[str]:
    items, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            items.append(text[start:index])
            start = index + 1
    items.append(text[start:])
    return items


def names_list(text: str) -> tuple[str, ...] | None:
    """``a,b`` -> ("a", "b"); ``ALL`` and unset -> None (no restriction)."""
    text = text.strip()
    if is_unset(text) or text.upper() == "ALL":
        return None
    return tuple(part.strip() for part in text.split(",") if part.strip())
