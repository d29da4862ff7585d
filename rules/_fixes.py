"""Fixes for the header traps (SB2xx) that need more than one edit.

Kept out of the rule modules so each check stays readable; every function
returns a ``Fix`` (or None when no safe text can be written) and never
raises on odd input.
"""

from __future__ import annotations

import re
from typing import Sequence

from slurmspec.fix.build import delete_directive, delete_directives, delete_line, insert, line_text_with_newline, replace
from slurmspec.fix.edit import Fix
from slurmspec.model.script import DirectiveLine, LineKind, Script


def _attached_comments(script: Script, dline: DirectiveLine, taken: set[int]) -> list:
    """Comment lines right above a late directive (no blank line between): they describe it."""
    block = []
    index = next(i for i, line in enumerate(script.lines) if line is dline.line)
    for line in reversed(script.lines[:index]):
        if line.kind != LineKind.COMMENT or line.span.start < script.header_end or line.number in taken:
            break
        block.append(line)
    return list(reversed(block))


def move_into_header(script: Script, late: Sequence[DirectiveLine]) -> Fix:
    """SB201: move late directive lines (with the comment lines right above them) into the
    header, after its last directive, in their order. ``late`` holds only ``movable`` lines.
    """
    header_dlines = [d for d in script.directive_lines if d.in_header]
    if header_dlines:
        last = header_dlines[-1].line
        at = last.span.end + len(last.newline)
        lead = "" if last.newline else "\n"
    else:
        at, lead = script.header_end, ""
    moved_lines, taken = [], set()
    for dline in late:
        for line in (*_attached_comments(script, dline, taken), dline.line):
            if line.number not in taken:
                taken.add(line.number)
                moved_lines.append(line)
    text = lead + "".join(line_text_with_newline(line) for line in moved_lines)
    edits = [insert(script, at, text), *(delete_line(script, line) for line in moved_lines)]
    return Fix(title="Move the directives after the first command into the header", edits=edits)


def _on(directive, dline: DirectiveLine) -> bool:
    return dline.line.span.start <= directive.span.start < dline.line.span.end


def movable(script: Script, dline: DirectiveLine) -> bool:
    """A late line that can move into the header without a second thought: it reads cleanly
    (no parse problem, no refused value), sets only options the header does not set (else
    moving it would silently replace the header's value: which one was meant is the
    user's call), and does not start a hetjob component (that changes the job's shape)."""
    if dline.separator or any(_on_span(issue.span.start, dline) for issue in script.issues):
        return False
    header = {d.option.long for d in script.directives if not d.ignored}
    if any(d.option.long in header for d in script.directives if _on(d, dline)):
        return False
    return all(d.typed is None or d.typed.ok for d in script.directives if _on(d, dline))


def _on_span(offset: int, dline: DirectiveLine) -> bool:
    return dline.line.span.start <= offset < dline.line.span.end


def drop_directive(script: Script, directive, title: str, applicability: str = "safe") -> Fix | None:
    edit = delete_directive(script, directive)
    return None if edit is None else _fix(title, [edit], applicability)


# Feature names (and counts) only: no `|`, `[...]`, `*N` or parentheses, whose
# precedence a plain `&` join could change (slurm-semantics.md, --constraint).
_PLAIN_AND = re.compile(r"[A-Za-z0-9_.:=-]+(?:&[A-Za-z0-9_.:=-]+)*")


def merge_constraints(script: Script, occurrences, final) -> Fix | None:
    """SB204 on ``--constraint``: one option requiring every feature, in place of the last one.

    Unsafe: the user may have meant the later line to replace the earlier one.
    """
    if final.option.long != "constraint" or final.value_span is None:
        return None
    values = [d.value for d in occurrences]
    if not all(v and _PLAIN_AND.fullmatch(v) for v in values):
        return None
    features: list[str] = []
    for value in values:
        features.extend(f for f in value.split("&") if f not in features)
    dropped = delete_directives(script, occurrences[:-1])
    if dropped is None:
        return None
    edits = [replace(script, final.value_span.start, final.value_span.end, "&".join(features)), *dropped]
    return _fix(f"Require all the features in one `--constraint={'&'.join(features)}`", edits, "unsafe")


def _fix(title: str, edits, applicability: str = "safe") -> Fix | None:
    """A Fix, or None when the edits collide (two options on one line being rewritten twice)."""
    try:
        return Fix(title=title, edits=edits, applicability=applicability)
    except ValueError:
        return None


def drop_settings(script: Script, settings, title: str, applicability: str = "safe") -> Fix | None:
    """Remove every occurrence of the given request settings (own occurrences only)."""
    directives = [d for setting in settings if not setting.inherited
                  for d in (*setting.overridden, setting.directive)]
    if not directives:
        return None
    edits = delete_directives(script, directives)
    return None if edits is None else _fix(title, edits, applicability)


def _gpus(value) -> tuple[list, bool]:
    """(GPU items, whether they are all the items) of a typed --gres/--gpus-per-node value."""
    items = list(getattr(value, "items", None) or ())
    gpus = [item for item in items if getattr(item, "name", None) == "gpu"]
    return gpus, len(gpus) == len(items)


def drop_gres_same_as_gpus_per_node(script: Script, gres, per_node) -> Fix | None:
    """SB214/SB150: `--gres=gpu:N` beside `--gpus-per-node=N` asking for the same GPUs.

    Safe only when they are equal (same count, same types) and the `--gres`
    asks for nothing but GPUs: then dropping it changes no allocation, and
    Slurm 26.05 refuses the pair.
    """
    if gres is None or per_node is None or gres.inherited or per_node.inherited:
        return None
    gres_items, only_gpus = _gpus(gres.value)
    gpn_items, _ = _gpus(per_node.value)
    if not (gres_items and gpn_items and only_gpus):
        return None
    def shape(items):
        return sorted((getattr(i, "type", None) or "", getattr(i, "count", None)) for i in items)
    if shape(gres_items) != shape(gpn_items):
        return None
    return drop_settings(script, [gres], "Remove `--gres=gpu...`, which repeats `--gpus-per-node`")
