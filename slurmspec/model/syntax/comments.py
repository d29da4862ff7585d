"""Where each line's comment is, as the reader of that line ends its text.

Shared by suppression comments (``slurmspec.lint.suppress``) and the rule that reads
``noqa`` (SB904), so both see the same comments:

- a ``#SBATCH`` line: sbatch's comment after the options (``DirectiveLine.comment``);
- a comment line (or a near-miss directive, which bash reads as a comment): from its ``#``;
- a command line: bash's comments, as the shell lexer recorded them in its one pass over the
  body (an unquoted ``#`` that begins a word, to the line's end; bash(1), COMMENTS). A ``#``
  inside a word, in quotes -- a quote opened on an earlier line included -- or in a
  here-document is text.
- the shebang: nothing (what follows the interpreter is its argument).
"""

from __future__ import annotations

from bisect import bisect_left

from slurmspec.model.syntax.memo import per_script
from slurmspec.model.syntax.script import Line, LineKind, Script

__all__ = ["line_comments"]


@per_script
def _body_comments(script: Script) -> tuple[list[int], list[tuple[int, int]]]:
    """The body's comments in file order, and their starts (for bisection)."""
    lexicon = script.body.lexicon
    if lexicon is None:  # the launch analysis's pass failed: lex the body for its comments alone
        from slurmspec.body.commands import iter_commands
        from slurmspec.body.lexicon import Lexicon

        lexicon = Lexicon()
        try:
            for _ in iter_commands(script.source[script.header_end:], script.header_end, None, lexicon):
                pass
        except Exception:  # pragma: no cover - the lexer is total, this is a last defence
            lexicon = Lexicon()
    comments = sorted(lexicon.comments)
    return [start for start, _ in comments], comments


def line_comments(script: Script, line: Line) -> list[tuple[int, int]]:
    """(start, end) of each comment on ``line`` (a logical line: continuations included)."""
    source = script.source
    start, end = line.span.start, line.span.end
    kind = line.kind
    if kind in (LineKind.DIRECTIVE, LineKind.LEGACY_DIRECTIVE):
        dline = script.directive_line_at(start)
        comment = None if dline is None else dline.comment
        return [] if comment is None else [(comment.start, comment.end)]
    if kind in (LineKind.COMMENT, LineKind.NEAR_MISS):
        first = source.find("#", start, end)
        return [] if first == -1 else [(first, end)]
    if kind == LineKind.COMMAND:
        starts, comments = _body_comments(script)
        found = []
        for k in range(bisect_left(starts, start), len(starts)):
            if starts[k] >= end:
                break
            found.append((comments[k][0], min(comments[k][1], end)))
        return found
    return []
