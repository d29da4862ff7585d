"""``Edit`` (replace a span of the decoded text) and ``Fix`` (edits + title + applicability).

Applicability, as in ruff:

* ``safe``: keeps what the script means to do and is what sbatch needs; applied
  by ``--fix``.
* ``unsafe``: most likely right, but it changes what the job asks for or drops
  something the user may have written on purpose; applied only with
  ``--unsafe-fixes``.
* ``display-only``: shown (``--show-fixes``, JSON, editors) and never applied,
  because the right text cannot be known from the script alone.
"""

from __future__ import annotations

from typing import Any

import attrs

from slurmspec.frozen import as_tuple, frozen, to
from slurmspec.kinds import Applicability
from slurmspec.span import Span


@frozen
class Edit:
    """Replace ``span`` (character offsets of the decoded text) with ``text``; an empty span inserts."""

    span: Span
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {**self.span.to_dict(), "text": self.text}


@frozen(kw_only=True)
class Fix:
    title: str  # imperative, shown to the user: "Convert DOS line breaks to \\n"
    edits: tuple[Edit, ...] = attrs.field(converter=as_tuple)
    applicability: Applicability = attrs.field(default=Applicability.SAFE, converter=to(Applicability))
    # The fix only makes sbatch read text the user wrote and sbatch skipped (a late directive
    # moved into the header, a near-miss made a directive, a byte order mark replaced by a
    # shebang): a problem in that text is the user's, revealed, not one the fix introduced.
    reveals: bool = False

    def __attrs_post_init__(self) -> None:
        ordered = sorted(self.edits, key=lambda e: (e.span.start, e.span.end))
        for before, after in zip(ordered, ordered[1:]):
            if after.span.start < before.span.end:
                raise ValueError(f"overlapping edits in fix {self.title!r}")

    def applies(self, unsafe: bool) -> bool:
        if self.applicability is Applicability.DISPLAY_ONLY or not self.edits:
            return False
        return self.applicability is Applicability.SAFE or unsafe

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "applicability": self.applicability,
            "edits": [edit.to_dict() for edit in sorted(self.edits, key=lambda e: e.span.start)],
        }
