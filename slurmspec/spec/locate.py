"""Where a key sits in TOML source.

tomllib (and tomli) return plain dicts without positions, so error messages
find the key's line again in the source text: the table header that opens the
key's section (``[a.b]``, or the n-th ``[[a]]``), then the first ``key =`` (bare,
quoted or dotted) after it. It is a locator for messages, not a TOML parser:
when it cannot tell, it falls back to the section header, then to line 1.
"""

from __future__ import annotations

import re
from typing import Sequence

_HEADER = re.compile(r"\s*(\[\[?)\s*([^\]#]+?)\s*\]\]?\s*(#.*)?$")


def _norm_table(name: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in name.split("."))


def _key_pattern(key: str) -> re.Pattern[str]:
    quoted = re.escape(key)
    # `key =`, `"key" =`, `key.sub =` or `{ key =` / `, key =` inside an inline table.
    return re.compile(rf"(?:^\s*|[{{,]\s*|\.)(?:{quoted}|\"{quoted}\"|'{quoted}')\s*[=.]")


def locate(source: str, path: Sequence[str | int]) -> tuple[int, int]:
    """1-based (line, column) of the key ``path`` (e.g. ``("launch", "kind")``, ``("hetjob", 1, "options")``)."""
    lines = source.splitlines()
    index = next((part for part in path if isinstance(part, int)), 0)  # which [[array]] table
    start = _find_table(lines, path, index)
    keys = [p for p in path if isinstance(p, str)]
    if len(keys) <= 1:
        return (start + 1 if start >= 0 else 1), 1
    # Try the deepest key first, searching from the section header to the next header.
    end = len(lines)
    for number in range(start + 1, len(lines)):
        if _HEADER.match(lines[number]):
            end = number
            break
    for key in reversed(keys[1:]):
        pattern = _key_pattern(key)
        for number in range(max(start, 0), end):
            match = pattern.search(lines[number])
            if match and not lines[number].lstrip().startswith("#"):
                column = match.start() + len(match.group(0)) - len(match.group(0).lstrip(" \t{,."))
                return number + 1, column + 1
    return (start + 1 if start >= 0 else 1), 1


def _find_table(lines: list[str], path: Sequence[str | int], index: int) -> int:
    """Line index of the header of the section holding ``path`` (-1: top level)."""
    section = path[0] if path and isinstance(path[0], str) else ""
    seen = 0
    for number, line in enumerate(lines):
        match = _HEADER.match(line)
        if not match:
            continue
        name = _norm_table(match.group(2))
        if name == section or name.startswith(section + "."):
            if match.group(1) == "[[":
                if seen == index:
                    return number
                seen += 1
            else:
                return number
    return -1
