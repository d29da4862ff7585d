"""Small constructors rules use to make edits against a parsed ``Script``."""

from __future__ import annotations

from slurmspec.fix.edit import Edit
from slurmspec.model.script import Line, Script


def replace(script: Script, start: int, end: int, text: str) -> Edit:
    return Edit(script.span(start, end), text)


def insert(script: Script, offset: int, text: str) -> Edit:
    return Edit(script.span(offset, offset), text)


def delete_line(script: Script, line: Line) -> Edit:
    """Remove a whole physical line with its line break.

    The last line of a file without a final newline takes the previous line's
    break instead, so no blank line is left behind.
    """
    start, end = line.span.start, line.span.end + len(line.newline)
    if not line.newline and start > 0:
        start -= 1
    return Edit(script.span(start, end), "")


def line_text_with_newline(line: Line) -> str:
    return line.text + (line.newline or "\n")
