"""Terminal styling for the lint reports without rich: a few ANSI SGR sequences and display widths.

``text`` and ``concise`` are printed on every run, so they do not import rich
(about 20 ms of a ~100 ms cold ``lint``); rich stays for rendering rule docs
(Markdown). Output is built from plain strings, never parsed as markup, so
Slurm values such as ``--constraint=[a|b]`` and ``node[01-04]`` print intact.
"""

from __future__ import annotations

import unicodedata

# The styles the reports use, as SGR parameters (ECMA-48): bold 1, dim 2, red 31, yellow 33, blue 34.
_SGR = {
    "bold": "1", "dim": "2", "blue": "34",
    "bold red": "1;31", "bold yellow": "1;33", "bold blue": "1;34",
}
RESET = "\x1b[0m"
SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}


def paint(text: str, style: str, color: bool) -> str:
    """``text`` in ``style`` when ``color``, else as it is (an empty text stays unstyled)."""
    if not color or not style or not text:
        return text
    return f"\x1b[{_SGR[style]}m{text}{RESET}"


def cell_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide East Asian characters 2, combining marks and zero-width 0."""
    if text.isascii():
        return len(text)
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or ch in "\u200b\u200c\u200d\u2060\ufeff":
            continue
        width += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return width
