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

from slurmspec.frozen import frozen


@frozen(repr=False)
class Excerpt:
    # Physical line number (1-based) -> its text without the newline.
    lines: Mapping[int, str]
    # The same for the other texts findings are in: an invoked script's "<command line>" and
    # "<environment>" (slurmspec.invocation), by the name the findings carry as their path.
    elsewhere: Mapping[str, Mapping[int, str]] = attrs.field(factory=dict)

    @classmethod
    def of(cls, script, diagnostics: Iterable) -> "Excerpt":
        """The lines of ``script`` (or of its invocation's texts) on which ``diagnostics`` start."""
        wanted: dict[str | None, set[int]] = {}
        for d in diagnostics:
            wanted.setdefault(d.path if _other_text(script, d.path) else None, set()).add(d.span.line)
        texts = {
            path: {n: text for n in sorted(numbers) if (text := line_of(script, n, path)) is not None}
            for path, numbers in wanted.items()
        }
        return cls(texts.pop(None, {}), texts)


def line_of(source, number: int, path: str | None = None) -> str | None:
    """Line ``number`` of a ``Script`` (or anything with ``index`` and ``physical_line``) or an
    ``Excerpt``; None when there is no source or no such line. ``path`` is the finding's, which
    names the text when it is not the script's own (``<command line>``)."""
    if source is None:
        return None
    if isinstance(source, Excerpt):
        return source.elsewhere.get(path, source.lines).get(number)
    other = _other_text(source, path)
    if other is not None:
        source = other
    if number > source.index.line_count:
        return None
    return source.physical_line(number)


def _other_text(script, path: str | None):
    """The synthetic text of an invoked script that ``path`` names, or None."""
    layer = getattr(script, "invocation", None)
    return None if layer is None or path is None else layer.source_named(path)
