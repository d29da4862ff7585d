"""Character offsets of a document's text <-> LSP positions (line, column in the negotiated unit).

Two rules of the Language Server Protocol decide this, and both differ from
slurmspec's own ``LineIndex`` (which follows sbatch, where only ``\\n`` ends a
line): a line ends at ``\\r\\n``, ``\\r`` or ``\\n`` (LSP 3.17, "Text
Documents"), and a column counts UTF-16 code units unless the client and
server agreed on UTF-8 or UTF-32 (``positionEncoding``). So every position the
server sends or reads goes through a ``PositionMap`` built on the same text
the editor has, never through a ``Span``'s line and column.

Python's ``str.splitlines`` is no help: it also splits at form feed, vertical
tab, U+2028 and others, where editors see no line break.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from lsprotocol import types

_LINE_END = re.compile(r"\r\n|\r|\n")

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def _units(text: str, encoding: str) -> int:
    """Length of ``text`` in the encoding's code units."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF16:
        return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)
    # A lone surrogate (undecodable input) cannot be UTF-8; the editor holds U+FFFD there, 3 bytes.
    return sum(1 if ord(ch) < 0x80 else 2 if ord(ch) < 0x800 else 4 if ord(ch) > 0xFFFF else 3 for ch in text)


class PositionMap:
    """Converts between offsets into ``text`` and LSP positions for one version of a document."""

    __slots__ = ("text", "encoding", "_starts", "_ends", "_simple")

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = encoding
        starts, ends = [0], []
        for match in _LINE_END.finditer(text):
            ends.append(match.start())
            starts.append(match.end())
        ends.append(len(text))
        self._starts, self._ends = starts, ends
        # One code unit per character: columns are plain character counts.
        self._simple = encoding == UTF32 or text.isascii()

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def position(self, offset: int) -> types.Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self._starts, offset) - 1
        start = self._starts[line]
        # An offset inside a line break (between "\r" and "\n") is the end of the line's text.
        offset = min(offset, max(self._ends[line], start))
        column = offset - start if self._simple else _units(self.text[start:offset], self.encoding)
        return types.Position(line=line, character=column)

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(max(start, end)))

    def offset(self, position: types.Position) -> int:
        """The offset of ``position``; a line past the end is the end, a column past a line's text its end."""
        line = position.line
        if line < 0:
            return 0
        if line >= len(self._starts):
            return len(self.text)
        start, end = self._starts[line], self._ends[line]
        wanted = max(position.character, 0)
        if self._simple:
            return min(start + wanted, end)
        counted = 0
        for index in range(start, end):
            if counted >= wanted:
                return index
            counted += _units(self.text[index], self.encoding)
        return end

    def line_start(self, line: int) -> int:
        return self._starts[max(0, min(line, len(self._starts) - 1))]

    def line_end(self, line: int) -> int:
        """Offset just past the text of 0-based ``line`` (before its line break)."""
        return self._ends[max(0, min(line, len(self._ends) - 1))]
