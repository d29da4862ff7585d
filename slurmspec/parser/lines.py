"""Split a script into typed ``Line`` objects using the Lark grammar."""

from __future__ import annotations

from slurmspec.model.script import Line, LineKind
from slurmspec.parser.grammar import line_tokens
from slurmspec.span import LineIndex

_KINDS = {
    "SHEBANG": LineKind.SHEBANG,
    "DIRECTIVE": LineKind.DIRECTIVE,
    "LEGACY_DIRECTIVE": LineKind.LEGACY_DIRECTIVE,
    "NEAR_MISS": LineKind.NEAR_MISS,
    "COMMENT": LineKind.COMMENT,
    "BLANK": LineKind.BLANK,
    "COMMAND": LineKind.COMMAND,
}


def split_lines(text: str, index: LineIndex) -> list[Line]:
    """Group the grammar's tokens into lines; the lines cover ``text`` exactly."""
    lines: list[Line] = []
    kind, content, start = LineKind.EMPTY, "", 0
    pending = False  # a content token waits for its newline
    for token_type, token_text, pos in line_tokens(text):
        if token_type == "NEWLINE":
            if not pending:
                kind, content, start = LineKind.EMPTY, "", pos
            lines.append(Line(kind, content, "\n", index.span(start, start + len(content))))
            pending = False
        else:
            kind, content, start = _KINDS[token_type], token_text, pos
            pending = True
    if pending:
        lines.append(Line(kind, content, "", index.span(start, start + len(content))))
    return lines
