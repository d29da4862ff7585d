"""One position type for the whole project: ``Span`` and the ``LineIndex`` that makes it."""

from __future__ import annotations

from bisect import bisect_right

import attrs

from slurmspec.frozen import frozen


@frozen(order=True)
class Span:
    """A half-open range ``[start, end)`` of character offsets into the decoded text.

    Line and column numbers are 1-based; columns count characters (code points),
    and ``end_line``/``end_column`` point just past the last character, the way
    editors and SARIF expect.
    """

    start: int
    end: int
    line: int
    column: int
    end_line: int
    end_column: int

    def __attrs_post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"bad span {self.start}..{self.end}")

    def to_dict(self) -> dict[str, int]:
        return {
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
        }


class LineIndex:
    """Maps character offsets of one text to 1-based (line, column) pairs.

    Only ``\\n`` ends a line: sbatch splits on ``\\n`` and a lone ``\\r`` is an
    ordinary character for it (slurm-semantics.md §5, DOS line break check).
    """

    __slots__ = ("_starts", "_length")

    def __init__(self, text: str) -> None:
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self._starts = starts
        self._length = len(text)

    def line_col(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, self._length))
        line = bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1

    def line_start(self, line: int) -> int:
        """Offset of the first character of 1-based ``line``."""
        return self._starts[line - 1]

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def span(self, start: int, end: int) -> Span:
        # line_col twice, inlined: every word and line of every script gets a span.
        starts, length = self._starts, self._length
        first = start if 0 <= start <= length else max(0, min(start, length))
        last = end if 0 <= end <= length else max(0, min(end, length))
        line = bisect_right(starts, first)
        end_line = line if last == first else bisect_right(starts, last, line - 1)
        return Span(start, end, line, first - starts[line - 1] + 1, end_line, last - starts[end_line - 1] + 1)
