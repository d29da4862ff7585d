"""A typed option value as one readable line (for hover), and Markdown quoting for user text.

The value is the one slurmspec's parsers give, i.e. what sbatch stores: a
time limit in minutes (seconds rounded up, ``parse_time.c:time_str2mins()``),
memory in megabytes, a node count as its range. Kinds without a special
reading are shown field by field from the model's plain data.
"""

from __future__ import annotations

import re
from typing import Any

from slurmspec.printable import printable

_BACKTICKS = re.compile(r"`+")


def code(text: str) -> str:
    """``text`` as Markdown inline code, whatever backticks it holds (CommonMark code spans),
    shown as ``slurmspec.printable`` shows it (it quotes the script)."""
    text = printable(text)
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _duration(value: dict[str, Any]) -> str | None:
    if value.get("unlimited"):
        return "UNLIMITED (no limit beyond the partition's)"
    minutes = value.get("minutes")
    if not isinstance(minutes, int):
        return None
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    clock = f"{days}-{hours:02d}:{mins:02d}:00" if days else f"{hours}:{mins:02d}:00"
    unit = "minute" if minutes == 1 else "minutes"
    return f"{minutes} {unit} ({clock})"


def _memory(value: dict[str, Any]) -> str | None:
    megabytes = value.get("megabytes")
    if not isinstance(megabytes, int):
        return None
    if megabytes and megabytes % (1024 * 1024) == 0:
        return f"{megabytes} MB ({megabytes // (1024 * 1024)} TB)"
    if megabytes and megabytes % 1024 == 0:
        return f"{megabytes} MB ({megabytes // 1024} GB)"
    return f"{megabytes} MB"


def _node_count(value: dict[str, Any]) -> str | None:
    low, high, sizes = value.get("minimum"), value.get("maximum"), value.get("sizes") or []
    if sizes:
        return "one of " + ", ".join(str(size) for size in sizes) + " nodes"
    if not isinstance(low, int) or not isinstance(high, int):
        return None
    if high in (0, low):
        return f"{low} node{'s' if low != 1 else ''}" + (" or more" if high == 0 and low else "")
    return f"{low} to {high} nodes"


_SPECIAL = {"duration": _duration, "memory": _memory, "node-count": _node_count}


def plain_text(value: Any) -> str:
    """Model data (dicts, lists, scalars) as compact text: ``types: END, FAIL``."""
    if isinstance(value, dict):
        shown = [(key, item) for key, item in value.items() if item not in (None, [], {}, False)]
        if len(shown) == 1 and shown[0][0] in ("value", "items", "types", "values"):
            return plain_text(shown[0][1])
        return "; ".join(f"{key}: {plain_text(item)}" for key, item in shown) or "(empty)"
    if isinstance(value, list):
        return ", ".join(plain_text(item) for item in value) or "(none)"
    if value is True:
        return "yes"
    return str(value)


def typed_text(kind: str | None, typed: Any) -> str:
    """How sbatch reads a value of ``kind``, given the model's plain data for it."""
    special = _SPECIAL.get(kind or "")
    if special is not None and isinstance(typed, dict):
        text = special(typed)
        if text is not None:
            return text
    return plain_text(typed)
