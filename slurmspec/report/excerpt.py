"""What a report keeps of a linted file: the text of the lines its findings point at.

The text format shows the line under each finding and GitLab hashes it into the
fingerprint; nothing else of the parsed ``Script`` is read. Keeping an
``Excerpt`` instead of the ``Script`` is what lets ``slurmspec lint`` stream a
folder of 100,000 scripts in flat memory, and what a ``--jobs`` worker sends
back instead of the whole model.
"""

from __future__ import annotations

from typing import Iterable, Mapping

import attrs


@attrs.frozen(repr=False)
class Excerpt:
    # Physical line number (1-based) -> its text without the newline.
    lines: Mapping[int, str]

    @classmethod
    def of(cls, script, diagnostics: Iterable) -> "Excerpt":
        """The lines of ``script`` on which ``diagnostics`` start."""
        wanted = {d.span.line for d in diagnostics}
        return cls({n: text for n in sorted(wanted) if (text := line_of(script, n)) is not None})


def line_of(source, number: int) -> str | None:
    """Line ``number`` of a ``Script`` (or anything with ``index`` and ``physical_line``) or an
    ``Excerpt``; None when there is no source or no such line."""
    if source is None:
        return None
    if isinstance(source, Excerpt):
        return source.lines.get(number)
    if number > source.index.line_count:
        return None
    return source.physical_line(number)
