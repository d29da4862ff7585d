"""Find where quoted strings, bracketed expansions and here-documents end, without raising on unclosed ones.

Helpers for the shell lexer (``slurmspec.body.shell``).  The quoting rules are those of
bash(1), QUOTING: no escapes inside '...'; $'...' honours backslash escapes.  ``$( )``,
``${ }`` and backticks are matched by counting brackets outside quotes.
"""

from __future__ import annotations

import re

from slurmspec.body.lexicon import Lexicon, RawHereDoc

__all__ = ["line_end", "close_quote", "ansi_close", "balanced", "skip_heredocs"]

_MAX_LINES = 64  # longest $( ... ) we look for a closing bracket in
_INERT = {")": re.compile(r"[^()'\"\\`]+"), "}": re.compile(r"[^{}'\"\\`]+")}


def line_end(text: str, i: int) -> int:
    j = text.find("\n", i)
    return len(text) if j < 0 else j


def close_quote(text: str, i: int, quote: str) -> int:
    """Index of the quote closing the one at ``i`` (escapes honoured except in '...'); -1 if none."""
    if quote == "'":  # nothing escapes inside '...'
        return text.find("'", i + 1)
    j = i + 1
    n = len(text)
    while j < n:
        c = text[j]
        if c == quote:
            return j
        if c == "\\" and quote != "'":
            j += 2
            continue
        j += 1
    return -1


def ansi_close(text: str, i: int) -> int:
    """Index of the quote closing the $'...' whose opening quote is at ``i``; -1 if none."""
    j, n = i + 1, len(text)
    while j < n:
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == "'":
            return j
        j += 1
    return -1


def balanced(text: str, i: int) -> int:
    """Index just past the bracket closing the ``(`` or ``{`` at ``i``; -1 when unbalanced.

    The search gives up after _MAX_LINES lines so that many unclosed ``$(`` stay linear.
    """
    opener = text[i]
    closer = ")" if opener == "(" else "}"
    inert = _INERT[closer]
    n = i
    for _ in range(_MAX_LINES):
        n = text.find("\n", n + 1)
        if n < 0:
            n = len(text)
            break
    depth, j = 0, i
    while j < n:
        m = inert.match(text, j)
        if m:
            j = m.end()
            continue
        c = text[j]
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return j + 1
        elif c == "\\":
            j += 1
        elif c in "'\"`":
            k = close_quote(text, j, c)
            if k < 0 or k >= n:
                return -1
            j = k
        j += 1
    return -1


def skip_heredocs(text: str, i: int, pending: list[tuple[str, bool, bool]], base: int, lex: Lexicon | None) -> int:
    """Skip (and record) the here-document bodies that start at ``i``; return the index after them.

    As bash reads them: a body ends at a line that is exactly its delimiter, or, for ``<<-``, that
    line once its leading tabs are removed. An indented ``  EOF`` is text, and the document goes on.
    The batch shell expands references in the body unless the delimiter was quoted.
    """
    n = len(text)
    for delim, strip_tabs, quoted in pending:
        begin, closed = min(i, n), False
        while i < n:
            j = line_end(text, i)
            line = text[i:j]
            if (line.lstrip("\t") if strip_tabs else line) == delim:
                closed = True
                break
            if lex is not None:
                lex.refs_in(text, i, j, base, quoted)
            i = j + 1
        if lex is not None:
            lex.heredocs.append(RawHereDoc(delim, quoted, strip_tabs, base + begin, base + min(i, n), closed))
        if not closed:
            return n
        i = line_end(text, i) + 1
    return min(i, n)
