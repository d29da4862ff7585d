"""The change a fix makes, as a unified diff (what ``--diff`` prints)."""

from __future__ import annotations

import difflib

_NO_NEWLINE = "\\ No newline at end of file\n"


def unified_diff(before: str, after: str, path: str, context: int = 3) -> str:
    """A ``diff -u`` style text; empty when nothing changed.

    Only ``\\n`` splits lines, as for sbatch, so a ``\\r\\n`` → ``\\n`` change shows
    up line by line. A last line without a newline gets diff's usual marker.
    """
    if before == after:
        return ""
    old, new = _lines(before), _lines(after)
    out = []
    for line in difflib.unified_diff(old, new, fromfile=path, tofile=path, n=context):
        out.append(line if line.endswith("\n") else line + "\n" + _NO_NEWLINE)
    return "".join(out)


def _lines(text: str) -> list[str]:
    """Lines with their ``\\n``; the last has none when the text does not end with one."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
