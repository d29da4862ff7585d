"""Split a script into typed ``Line`` objects with the grammar (grammar/sbatch.lark, slurmspec/parser/grammar.py)."""

from __future__ import annotations

from slurmspec.model.syntax.script import Line, LineKind
from slurmspec.parser.grammar import iter_tokens
from slurmspec.span import Span

_KINDS = {
    "SHEBANG": LineKind.SHEBANG,
    "DIRECTIVE": LineKind.DIRECTIVE,
    "LEGACY_DIRECTIVE": LineKind.LEGACY_DIRECTIVE,
    "NEAR_MISS": LineKind.NEAR_MISS,
    "COMMENT": LineKind.COMMENT,
    "BLANK": LineKind.BLANK,
    "COMMAND": LineKind.COMMAND,
}


def split_lines(text: str) -> list[Line]:
    """Group the grammar's tokens into lines; the lines cover ``text`` exactly. O(len(text))."""
    lines: list[Line] = []
    append = lines.append
    kind, content, start = LineKind.EMPTY, "", 0
    pending = False  # a content token waits for its newline
    number = 1  # the physical line the next token starts on; every token starts a line's text
    for token_type, token_text, pos in iter_tokens(text):
        if token_type == "NEWLINE":
            if not pending:
                kind, content, start = LineKind.EMPTY, "", pos
            append(Line(kind, content, "\n", _span(start, content, number)))
            number += 1 + content.count("\n")
            pending = False
        else:
            kind, content, start = _KINDS[token_type], token_text, pos
            pending = True
    if pending:
        append(Line(kind, content, "", _span(start, content, number)))
    return lines


def _span(start: int, content: str, number: int) -> Span:
    """The span of a line's text starting at column 1 of physical line ``number`` (what
    ``LineIndex.span`` computes, without searching: the lines come in order)."""
    inside = content.rfind("\n")  # only a COMMAND continued with backslash-newline has one
    if inside < 0:
        return Span(start, start + len(content), number, 1, number, len(content) + 1)
    return Span(start, start + len(content), number, 1, number + content.count("\n"), len(content) - inside)
