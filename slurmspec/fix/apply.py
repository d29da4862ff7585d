"""Apply edits to a text: pick a non-overlapping subset of fixes, then splice them in."""

from __future__ import annotations

from typing import Iterable, Sequence

from slurmspec.fix.edit import Edit, Fix


def _clash(a: Edit, b: Edit) -> bool:
    if a.span.start < b.span.end and b.span.start < a.span.end:
        return True
    # Two insertions (or an insertion at a replaced range's edge) at the same
    # point would have an order nobody chose: keep one, the next round redoes the other.
    return a.span.start == b.span.start and (a.span.start == a.span.end or b.span.start == b.span.end)


def choose(fixes: Sequence[Fix]) -> list[Fix]:
    """Fixes whose edits do not touch each other, first come first served (in source order).

    The same fix reported twice (one edit serving two findings) is taken once.
    """
    chosen: list[Fix] = []
    taken: list[Edit] = []
    for fix in sorted(fixes, key=lambda f: min(e.span.start for e in f.edits)):
        if fix in chosen:
            continue
        if any(_clash(edit, other) for edit in fix.edits for other in taken):
            continue
        chosen.append(fix)
        taken.extend(fix.edits)
    return chosen


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with every edit applied; the edits must not overlap."""
    pieces: list[str] = []
    position = 0
    for edit in sorted(edits, key=lambda e: (e.span.start, e.span.end)):
        if edit.span.start < position:
            raise ValueError("overlapping edits")
        if edit.span.end > len(text):
            raise ValueError("an edit reaches past the end of the text")
        pieces.append(text[position:edit.span.start])
        pieces.append(edit.text)
        position = edit.span.end
    pieces.append(text[position:])
    return "".join(pieces)
