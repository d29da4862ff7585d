"""Where a shell command line's comment starts: shared by suppression comments and the rule that reads ``noqa``.

bash starts a comment at an unquoted ``#`` that begins a word (bash(1), COMMENTS: "a word beginning with
# causes that word and all remaining characters on that line to be ignored"); a ``#`` inside a word or
inside quotes is text.
"""

from __future__ import annotations

from typing import Iterator

# Characters after which an unquoted "#" starts a shell comment.
_WORD_BREAK = " \t\n;&|()<>"


def shell_comments(source: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Comment regions of a shell command: an unquoted ``#`` starting a word, to the line's end."""
    i = start
    single = double = False
    while i < end:
        ch = source[i]
        if single:
            if ch == "'":
                single = False
        elif ch == "\\":
            i += 1
        elif double:
            if ch == '"':
                double = False
        elif ch == "'":
            single = True
        elif ch == '"':
            double = True
        elif ch == "#" and (i == start or source[i - 1] in _WORD_BREAK):
            stop = source.find("\n", i, end)
            stop = end if stop == -1 else stop
            yield i, stop
            i = stop
            continue
        i += 1
